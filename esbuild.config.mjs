// Bundles the three artefacts: the extension host code, the CLI and the webview UI.
import * as esbuild from 'esbuild';
import fs from 'node:fs';

const watch = process.argv.includes('--watch');
const common = { bundle: true, sourcemap: false, minify: true, legalComments: 'none', logLevel: 'info' };
// secretlint's profiler observes every performance mark with a linear search (quadratic over a
// scan): a no-op stands in for it (see src/engine/checks/secrets.ts)
const alias = { '@secretlint/profiler': './src/engine/checks/null-profiler.ts' };

const builds = [
  { ...common, alias, entryPoints: ['src/host/extension.ts'], outfile: 'dist/extension.js', platform: 'node',
    format: 'cjs', target: 'node20', external: ['vscode', 'fsevents'] },
  { ...common, alias, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', platform: 'node',
    format: 'cjs', target: 'node20', external: ['fsevents'], banner: { js: '#!/usr/bin/env node' } },
  { ...common, entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser',
    format: 'iife', target: 'es2022' },
].filter((b) => fs.existsSync(b.entryPoints[0]));

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  // the codicon font for the sidebar's icons (chevrons, severities, help), served from dist/ under the webview's CSP
  fs.mkdirSync('dist/codicons', { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(`node_modules/@vscode/codicons/dist/${f}`, `dist/codicons/${f}`);
  if (fs.existsSync('dist/cli.js')) fs.chmodSync('dist/cli.js', 0o755);
}
