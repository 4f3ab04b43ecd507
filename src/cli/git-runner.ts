// The Node side of the engine's GitRunner (src/engine/files/git-tree.ts): git run synchronously in
// one folder, with a timeout and a bound on its output; never a shell, never the user's pager or
// external diff drivers, never an interactive prompt.
import { execFile, spawn, spawnSync } from 'node:child_process';
import type { GitInput, GitRunner, GitResult } from '../engine/index.js';

const TIMEOUT_MS = 120_000;

const failed = (error: Error | null | undefined, status: number | null | undefined, signal: string | null | undefined, stderr: Buffer | undefined): GitResult | undefined => {
  if (error && typeof status !== 'number') return { ok: false, message: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'git is not installed (or not on PATH)' : error.message };
  if (status !== 0) return { ok: false, message: (stderr?.toString('utf8').trim().split('\n')[0] ?? '') || `git exited with ${status ?? signal}` };
  return undefined;
};

export function nodeGitRunner(cwd: string, git = 'git'): GitRunner {
  const argv = (args: readonly string[]) => ['-c', 'core.quotepath=off', '--no-pager', ...args];
  const env = () => ({ ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' });
  /** git started with its output handed to `onChunk` piece by piece as it writes it: at most `maxBytes` in all (past
   *  them, or when `onChunk` throws, git is stopped and `done` says why) */
  const piped = (args: readonly string[], stdin: 'pipe' | 'ignore', onChunk: (chunk: Buffer) => void, maxBytes: number) => {
    const child = spawn(git, argv(args), { cwd, timeout: TIMEOUT_MS, env: env(), stdio: [stdin, 'pipe', 'pipe'] });
    let bytes = 0;
    let failure: string | undefined;
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => {
      if (failure !== undefined) return;
      bytes += d.length;
      if (bytes > maxBytes) failure = `git's output is over ${maxBytes} bytes`;
      else
        try {
          onChunk(d);
        } catch (e) {
          failure = (e as Error).message;
        }
      if (failure !== undefined) child.kill();
    });
    child.stderr!.on('data', (d: Buffer) => {
      if (stderr.length < 4096) stderr += d.toString('utf8');
    });
    const done = new Promise<{ ok: true } | { ok: false; message: string }>((resolve) => {
      child.on('error', (e) => resolve(failed(e, undefined, undefined, undefined) ?? { ok: false, message: e.message }));
      child.on('close', (status, signal) => resolve(failure !== undefined ? { ok: false, message: failure } : failed(null, status, signal, Buffer.from(stderr)) ?? { ok: true }));
    });
    return { child, done };
  };
  return {
    run(args, input, maxBytes = 64 * 1024 * 1024): GitResult {
      const r = spawnSync(git, argv(args), { cwd, input, maxBuffer: maxBytes, timeout: TIMEOUT_MS, env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
      return failed(r.error, r.error ? undefined : r.status, r.signal, r.stderr) ?? { ok: true, stdout: r.stdout };
    },
    start(args, input, maxBytes = 64 * 1024 * 1024): Promise<GitResult> {
      return new Promise((resolve) => {
        const child = execFile(git, argv(args), { cwd, encoding: 'buffer', maxBuffer: maxBytes, timeout: TIMEOUT_MS, env: env() }, (error, stdout, stderr) => {
          const code = error ? (error as { code?: unknown }).code : 0;
          resolve(failed(error, typeof code === 'number' ? code : error ? undefined : 0, error?.signal, stderr) ?? { ok: true, stdout });
        });
        child.stdin?.on('error', () => undefined);
        child.stdin?.end(input);
      });
    },
    open(args, maxBytes = 64 * 1024 * 1024): GitInput {
      const chunks: Buffer[] = [];
      const { child, done } = piped(args, 'pipe', (d) => chunks.push(d), maxBytes);
      // git gone early (killed, or not installed): what is written after goes nowhere, and `end` says why
      child.stdin!.on('error', () => undefined);
      return {
        write: (input) => void (child.stdin!.writable && child.stdin!.write(input)),
        end: () => {
          child.stdin!.end();
          return done.then((r): GitResult => (r.ok ? { ok: true, stdout: Buffer.concat(chunks) } : r));
        },
      };
    },
    stream(args, onChunk, maxBytes = 64 * 1024 * 1024) {
      return piped(args, 'ignore', onChunk, maxBytes).done;
    },
  };
}
