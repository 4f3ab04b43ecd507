// Lays out the demo workspace (examples/demo) in a fresh temporary folder, hermetic: the repository
// is its own git repository, HOME is its own (user instructions, a user skill, the auto-memory
// folder at HOME/.claude/projects/<key>/memory/), and the managed-policy folder is an empty one.
// Shared by `npm start` (scripts/demo.mjs) and the CLI tests (test/cli).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const demoSource = path.join(projectRoot, 'examples', 'demo');

/** Claude Code's memory folder key: the real path of the git root, every non-alphanumeric as '-' */
export function memoryKey(gitRoot) {
  return fs.realpathSync(gitRoot).replace(/[^A-Za-z0-9]/g, '-');
}

/** @returns {{ tmp: string, repo: string, home: string, managed: string, memory: string, cleanup: () => void }} */
export function setupDemo(parent = os.tmpdir()) {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(parent, 'claude-layers-demo-')));
  const repo = path.join(tmp, 'acme-gateway');
  const home = path.join(tmp, 'home');
  const managed = path.join(tmp, 'managed-policy');
  fs.cpSync(path.join(demoSource, 'repo'), repo, { recursive: true });
  fs.cpSync(path.join(demoSource, 'home'), home, { recursive: true });
  fs.mkdirSync(managed);
  // without git, a bare .git folder is enough for the git-root detection of Claude Code and the engine
  const git = spawnSync('git', ['init', '-q', repo], { stdio: 'ignore' });
  if (git.status !== 0) fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
  const memory = path.join(home, '.claude', 'projects', memoryKey(repo), 'memory');
  fs.cpSync(path.join(demoSource, 'memory'), memory, { recursive: true });
  return { tmp, repo, home, managed, memory, cleanup: () => fs.rmSync(tmp, { recursive: true, force: true }) };
}
