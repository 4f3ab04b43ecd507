// Bundles the artefacts: the extension host code, the CLI and the webview UI, plus the chunks the
// first two load on first use (dist/chunks/).
import * as esbuild from 'esbuild';
import fs from 'node:fs';

const watch = process.argv.includes('--watch');
const common = { bundle: true, sourcemap: false, minify: true, legalComments: 'none', logLevel: 'info' };
// secretlint's profiler observes every performance mark with a linear search (quadratic over a
// scan): a no-op stands in for it (see src/engine/checks/secrets.ts)
const alias = { '@secretlint/profiler': './src/engine/checks/null-profiler.ts' };

// Lazy chunks. CommonJS output has no code splitting, and a bundle costs its whole size to compile
// at load: the packages the engine loads on first use (a `require()` inside a function) are built
// as chunks of their own, dist/chunks/NAME.js, and the bundles require them from there when that
// function first runs. A static `import` of one of these packages fails the build (it would put
// the package back into the extension's load). The .vsix and the npm package ship dist/chunks/.
const CHUNKS = {
  yaml: ['yaml'],
  markdown: ['marked'],
  width: ['string-width'],
  secretlint: ['@secretlint/profiler', '@secretlint/core', '@secretlint/secretlint-rule-pattern', '@secretlint/secretlint-rule-preset-recommend'],
};
const chunkOf = new Map(Object.entries(CHUNKS).flatMap(([chunk, pkgs]) => pkgs.map((p) => [p, chunk])));
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const lazyFilter = new RegExp(`^(${[...chunkOf.keys()].map(escape).join('|')})$`);

const lazyChunks = {
  name: 'lazy-chunks',
  setup(b) {
    b.onResolve({ filter: lazyFilter }, (a) => {
      if (a.namespace === 'lazy-chunk') return undefined;
      if (a.kind !== 'require-call')
        return { errors: [{ text: `${a.path} is loaded on first use from dist/chunks/${chunkOf.get(a.path)}.js: require() it inside the function that needs it (imported by ${a.importer}, ${a.kind})` }] };
      return { path: a.path, namespace: 'lazy-chunk' };
    });
    // the stand-in module: the package's exports, taken from its chunk at run time
    b.onLoad({ filter: /.*/, namespace: 'lazy-chunk' }, (a) => ({
      contents: `module.exports = require(${JSON.stringify(`./chunks/${chunkOf.get(a.path)}.js`)})[${JSON.stringify(a.path)}];`,
      loader: 'js',
    }));
    b.onResolve({ filter: /^\.\/chunks\// }, (a) => (a.namespace === 'lazy-chunk' ? { path: a.path, external: true } : undefined));
  },
};

const node = { platform: 'node', format: 'cjs', target: 'node20' };
const builds = [
  { ...common, ...node, alias, plugins: [lazyChunks], entryPoints: ['src/host/extension.ts'], outfile: 'dist/extension.js', external: ['vscode', 'fsevents'] },
  // the CLI: dist/cli.js is its launcher (src/cli/launch.ts: a V8 code cache for the bundle and its chunks), dist/cli-main.js the CLI
  { ...common, ...node, alias, plugins: [lazyChunks], entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli-main.js', external: ['fsevents'] },
  { ...common, ...node, entryPoints: ['src/cli/launch.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  // the GitHub Action (action.yml): `claude-layers diff` on a pull request, its comment and SARIF
  { ...common, ...node, alias, plugins: [lazyChunks], entryPoints: ['src/cli/action.ts'], outfile: 'dist/action.js', external: ['fsevents'] },
  { ...common, entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', target: 'es2022' },
].filter((b) => fs.existsSync(b.entryPoints[0]));
for (const [chunk, pkgs] of Object.entries(CHUNKS))
  builds.push({
    ...common, ...node, alias, outfile: `dist/chunks/${chunk}.js`, external: ['fsevents'],
    stdin: { contents: `module.exports = {${pkgs.map((p) => `${JSON.stringify(p)}: require(${JSON.stringify(p)})`).join(', ')}};`, resolveDir: '.', loader: 'js', sourcefile: `chunk-${chunk}.js` },
  });

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  fs.rmSync('dist/chunks', { recursive: true, force: true });
  await Promise.all(builds.map((b) => esbuild.build(b)));
  // the codicon font for the sidebar's icons (chevrons, severities, help), served from dist/ under the webview's CSP
  fs.mkdirSync('dist/codicons', { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(`node_modules/@vscode/codicons/dist/${f}`, `dist/codicons/${f}`);
  if (fs.existsSync('dist/cli.js')) fs.chmodSync('dist/cli.js', 0o755);
}
