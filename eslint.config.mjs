// Type-checked lint for every TypeScript source (src, webview, test, bench, scripts) plus the import boundaries:
// the engine is pure (no `vscode` import anywhere under src/engine; the CLI and tests share it; node:fs only in
// src/engine/files/file-access.ts, the one door to the disk), and the host,
// CLI and ground-truth tools reach it only through src/engine/index.ts.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  // examples/ is the demo workspace the extension is shown on (its sources are data, not built)
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'bench/tmp/**', 'examples/**'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // a parameter an interface or a caller requires but this implementation does not read is named `_x` (as tsc's noUnusedParameters allows)
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // node:test's test()/describe() return promises the runner itself awaits; every other promise must be handled
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', {
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }],
      }],
    },
  },
  {
    // plain-JS scripts (esbuild config, demo, e2e drivers): no type information, the non-type-checked set
    files: ['**/*.mjs'],
    extends: [tseslint.configs.recommended],
  },
  {
    // every disk access of the engine goes through FileAccess: node:fs only in its Node implementation (the next block)
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [
          { name: 'vscode', message: 'src/engine must stay free of the VS Code API (the CLI shares it).' },
          ...['node:fs', 'fs', 'node:fs/promises', 'fs/promises', 'fdir'].map((name) => ({
            name,
            message: 'the engine reaches the disk through FileAccess (src/engine/files/file-access.ts) only',
          })),
        ],
        patterns: [{ group: ['**/host/**', '**/webview/**', '**/cli/**'], message: 'the engine depends on nothing above it' }],
      }],
    },
  },
  {
    files: ['src/engine/files/file-access.ts'],
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
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(\\.\\./)+engine/(?!index\\.js$)', message: 'import the engine through src/engine/index.ts' }] }],
    },
  },
);
