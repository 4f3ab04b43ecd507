// The engine is pure: no `vscode` import anywhere under src/engine (the CLI and tests share it).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'bench/tmp/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {},
  },
  {
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'src/engine must stay free of the VS Code API (the CLI shares it).' }],
        patterns: [{ group: ['**/host/**', '**/webview/**', '**/cli/**'], message: 'the engine depends on nothing above it' }],
      }],
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'the CLI runs without VS Code' }],
        patterns: [{ regex: '^\\.\\./engine/(?!index\\.js$)', message: 'import the engine through src/engine/index.ts' }],
      }],
    },
  },
  {
    // the extension host and the ground-truth tools consume the engine's public surface only
    files: ['src/host/**/*.ts', 'src/ground-truth/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^\\.\\./engine/(?!index\\.js$)', message: 'import the engine through src/engine/index.ts' }] }],
    },
  },
);
