// Temporary git repositories for the diff tests: a fixture's base/ committed on main, its head/ on
// a branch `pr` (test/fixtures/diff/CASE/{base,head}); an empty HOME and managed folder beside it.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'diff');

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' },
  });
}

export interface TempRepo {
  root: string;
  repo: string;
  home: string;
  managed: string;
  /** the flags every diff of it takes */
  flags: string[];
  cleanup: () => void;
}

function replaceTree(repo: string, from: string): void {
  for (const e of fs.readdirSync(repo)) if (e !== '.git') fs.rmSync(path.join(repo, e), { recursive: true, force: true });
  fs.cpSync(from, repo, { recursive: true });
}

/** an empty repository with HOME and managed folders beside it */
export function emptyRepo(): TempRepo {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-diff-')));
  const repo = path.join(root, 'repo');
  const home = path.join(root, 'home');
  const managed = path.join(root, 'managed');
  for (const d of [repo, home, managed]) fs.mkdirSync(d);
  git(repo, 'init', '-q', '-b', 'main');
  return { root, repo, home, managed, flags: ['--cwd', repo, '--home', home, '--managed-dir', managed, '--claude-version', '2.1.333'], cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** the fixture CASE as a repository: base on main, head on the branch pr (checked out) */
export function fixtureRepo(name: string): TempRepo {
  const t = emptyRepo();
  const dir = path.join(FIXTURES, name);
  replaceTree(t.repo, path.join(dir, 'base'));
  git(t.repo, 'add', '-A');
  git(t.repo, 'commit', '-q', '-m', 'base');
  git(t.repo, 'checkout', '-q', '-b', 'pr');
  replaceTree(t.repo, path.join(dir, 'head'));
  git(t.repo, 'add', '-A');
  git(t.repo, 'commit', '-q', '-m', 'head');
  const extra = path.join(dir, 'flags.json');
  if (fs.existsSync(extra)) t.flags.push(...(JSON.parse(fs.readFileSync(extra, 'utf8')) as string[]));
  return t;
}

/** a commit of `files` (path → text; null deletes) on the current branch */
export function commitFiles(repo: string, files: Record<string, string | Uint8Array | null>, message = 'change'): void {
  for (const [rel, text] of Object.entries(files)) {
    const p = path.join(repo, rel);
    if (text === null) fs.rmSync(p, { force: true });
    else {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, text);
    }
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', message);
}
