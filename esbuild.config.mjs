// Bundles the three artefacts: the extension host code, the CLI and the webview UI.
import * as esbuild from 'esbuild';
import fs from 'node:fs';

const watch = process.argv.includes('--watch');
const common = { bundle: true, sourcemap: false, minify: true, legalComments: 'none', logLevel: 'info' };

const builds = [
  { ...common, entryPoints: ['src/host/extension.ts'], outfile: 'dist/extension.js', platform: 'node',
    format: 'cjs', target: 'node20', external: ['vscode', 'fsevents'] },
  { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', platform: 'node',
    format: 'cjs', target: 'node20', external: ['fsevents'], banner: { js: '#!/usr/bin/env node' } },
  { ...common, entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser',
    format: 'iife', target: 'es2022' },
].filter((b) => fs.existsSync(b.entryPoints[0]));

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  if (fs.existsSync('dist/cli.js')) fs.chmodSync('dist/cli.js', 0o755);
}
