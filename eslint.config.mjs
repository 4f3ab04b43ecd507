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
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'the CLI runs without VS Code' }] }] },
  },
);
