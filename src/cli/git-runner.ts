// The Node side of the engine's GitRunner (src/engine/files/git-tree.ts): git run synchronously in
// one folder, with a timeout and a bound on its output; never a shell, never the user's pager or
// external diff drivers, never an interactive prompt.
import { spawnSync } from 'node:child_process';
import type { GitRunner, GitResult } from '../engine/index.js';

const TIMEOUT_MS = 120_000;

export function nodeGitRunner(cwd: string, git = 'git'): GitRunner {
  return {
    run(args, input, maxBytes = 64 * 1024 * 1024): GitResult {
      const r = spawnSync(git, ['-c', 'core.quotepath=off', '--no-pager', ...args], {
        cwd,
        input,
        maxBuffer: maxBytes,
        timeout: TIMEOUT_MS,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      if (r.error) return { ok: false, message: (r.error as NodeJS.ErrnoException).code === 'ENOENT' ? 'git is not installed (or not on PATH)' : r.error.message };
      if (r.status !== 0) return { ok: false, message: (r.stderr?.toString('utf8').trim().split('\n')[0] ?? '') || `git exited with ${r.status ?? r.signal}` };
      return { ok: true, stdout: r.stdout };
    },
  };
}
