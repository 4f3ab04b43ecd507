#!/usr/bin/env node
// `npm start`: the product on a fresh machine, without VS Code. Copies the demo workspace
// (examples/demo) into a temporary folder, makes it its own git repository, gives it its own HOME
// (user instructions, a user skill, and the auto-memory folder at
// HOME/.claude/projects/<key>/memory/) and an empty managed-policy folder, so that nothing of this
// checkout, of your ~/.claude or of /etc/claude-code leaks in; then runs
// `claude-layers explain src/api/client.ts` on it.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectRoot as root, setupDemo } from './demo-workspace.mjs';

const cli = path.join(root, 'dist', 'cli.js');
if (!fs.existsSync(cli)) {
  console.error('dist/cli.js is missing: run `npm run build` first (npm start does both).');
  process.exit(1);
}
const { tmp, repo, home, managed } = setupDemo();

const q = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`);
const args = ['explain', 'src/api/client.ts', '--cwd', repo, '--home', home, '--managed-dir', managed];
console.log(`$ claude-layers ${args.map(q).join(' ')}\n`);
const run = spawnSync(process.execPath, [cli, ...args], { stdio: 'inherit' });

console.log(`
The demo workspace stays in ${tmp} (its own git repository and HOME). Try:
  node dist/cli.js explain --cwd ${q(repo)} --home ${q(home)} --managed-dir ${q(managed)}
  node dist/cli.js explain packages/web/src/App.tsx --cwd ${q(repo)} --home ${q(home)} --managed-dir ${q(managed)}
  node dist/cli.js lint --cwd ${q(repo)} --home ${q(home)} --managed-dir ${q(managed)}       (reports the planted problems, exits 1)

The extension on this demo, in a real VS Code (code-server on 127.0.0.1, installed and cached on first use):
  npm run serve                     # prints the URL to open; Ctrl+C stops it
In your own VS Code: package the extension, then install the .vsix:
  npm run package                   # writes dist/claude-context-layers.vsix (vsce runs under a cached Node 24)
  code --install-extension dist/claude-context-layers.vsix
(or Extensions view → … → Install from VSIX…), then open ${repo} and ${q('src/api/client.ts')}.`);
process.exit(run.status ?? 1);
