// Shared by the ground-truth tests: the real binaries (installed like the conformance suite does),
// wrapper scripts standing in for `claude`, small trees.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { claudeBin, VERSIONS } from './scenario.js';

export const REPO_DIR = path.resolve(__dirname, '../..');

function hasFlock(): boolean {
  try {
    execFileSync('flock', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

let installed = false;
/** installs (idempotent) the binaries of both versions into the cache; throws when that fails */
export function ensureBinaries(): void {
  if (installed) return;
  // the test files run in parallel: one install at a time (flock), each a no-op once the cache is there
  const install = ['bash', path.join(REPO_DIR, 'scripts/install-claude.sh'), ...VERSIONS];
  const lock = path.join(os.tmpdir(), 'claude-layers-install.lock');
  const argv = hasFlock() ? ['flock', lock, ...install] : install;
  execFileSync(argv[0]!, argv.slice(1), { stdio: ['ignore', 'ignore', 'inherit'] });
  installed = true;
}

export function tempDir(prefix = 'ccl-gt-t-'): { dir: string; cleanup: () => void } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
}

/** an executable shell script at `file` */
export function script(file: string, body: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

/** a `claude` that reports `version` and otherwise runs the real binary of `real` */
export function wrapper(file: string, version: string, real: string, before = ''): string {
  return script(file, `if [ "$1" = "--version" ]; then echo "${version} (Claude Code)"; exit 0; fi\n${before}\nexec '${claudeBin(real)}' "$@"`);
}

/** the environment a test gives verify: PATH and HOME only (plus extras) */
export function baseEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', ...extra };
}

export function listJsonl(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return [];
  }
}
