// Type-checked lint for every TypeScript source (src, webview, test, bench, scripts) plus the import boundaries:
// the engine is pure (no `vscode` import anywhere under src/engine; the CLI and tests share it; node:fs only in
// src/engine/files/file-access.ts, the one door to the disk), and the host,
// CLI and ground-truth tools reach it only through src/engine/index.ts; the host's feature folders reach each
// other only through their index.ts.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const ENGINE_DOOR = { regex: '^(\\.\\./)+engine/(?!index\\.js$)', message: 'import the engine through src/engine/index.ts' };
// the host's feature folders and the other features each may import (through their index.ts), as docs/architecture.md says
const HOST_FEATURES = { sidebar: ['session'], editor: ['sidebar', 'workspace'], session: ['sidebar'], workspace: [] };

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
    rules: { 'no-restricted-imports': ['error', { patterns: [ENGINE_DOOR] }] },
  },
  // each feature folder of the host reaches another feature through its index.ts only, and only the features its
  // row of docs/architecture.md names; it never imports the root's wiring (controller, commands, extension)
  ...Object.entries(HOST_FEATURES).map(([feature, mayUse]) => {
    const others = Object.keys(HOST_FEATURES).filter((f) => f !== feature);
    const barred = others.filter((f) => !mayUse.includes(f));
    const patterns = [
      ENGINE_DOOR,
      { regex: `^\\.\\./(${others.join('|')})/(?!index\\.js$)`, message: 'import another feature of src/host through its index.ts (what it exports), not its internals' },
      { regex: '^\\.\\./(controller|commands|extension)\\.js$', message: 'a feature of src/host does not import the root that wires it' },
    ];
    if (barred.length) patterns.push({ regex: `^\\.\\./(${barred.join('|')})/`, message: `src/host/${feature}/ may import ${mayUse.map((f) => `${f}/`).join(', ') || 'no other feature'} only (docs/architecture.md)` });
    return { files: [`src/host/${feature}/**/*.ts`], rules: { 'no-restricted-imports': ['error', { patterns }] } };
  }),
);
