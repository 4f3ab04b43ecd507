// Finding `claude`, reading its version, and running it: no shell, its own process group, a
// timeout that ends the whole group (claude's own children too), bounded output.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** the first executable `name` in the absolute entries of PATH (a relative entry could point into the workspace) */
export function findOnPath(name: string, envPath: string): string | undefined {
  const exts = process.platform === 'win32' ? ['.exe', '.cmd', ''] : [''];
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    for (const ext of exts) {
      const p = path.join(dir, name + ext);
      try {
        fs.accessSync(p, fs.constants.X_OK);
        if (fs.statSync(p).isFile()) return p;
      } catch {
        /* not here */
      }
    }
  }
  return undefined;
}

export class NotRunnable extends Error {}

/** the executable to run: an explicit absolute path, else `claude` on PATH */
export function resolveClaude(explicit: string | undefined, envPath: string): string {
  if (explicit !== undefined && explicit.trim() !== '') {
    const p = explicit.trim();
    if (!path.isAbsolute(p)) throw new NotRunnable(`the claude path must be absolute: ${p}`);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      if (!fs.statSync(p).isFile()) throw new Error('not a file');
    } catch {
      throw new NotRunnable(`${p} is not an executable file`);
    }
    return p;
  }
  const found = findOnPath('claude', envPath);
  if (!found) throw new NotRunnable('claude was not found on PATH (give its path with --claude or the claudeLayers.claudePath setting)');
  return found;
}

export interface RunResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
}

const OUTPUT_CAP = 1024 * 1024;

/**
 * Runs `file args` in `cwd` with exactly `env`, stdin closed, in a new process group. On timeout or
 * abort the group gets SIGTERM, then SIGKILL after `graceMs`; after a normal exit whatever is left
 * of the group is killed too.
 */
export function run(file: string, args: string[], opts: { cwd: string; env: Record<string, string>; timeoutMs: number; signal?: AbortSignal; graceMs?: number }): Promise<RunResult> {
  const t0 = Date.now();
  const group = process.platform !== 'win32';
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let aborted = false;
    let done = false;
    const child = spawn(file, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'], detached: group, windowsHide: true, shell: false });
    const kill = (sig: NodeJS.Signals) => {
      try {
        if (group && child.pid) process.kill(-child.pid, sig);
        else child.kill(sig);
      } catch {
        /* already gone */
      }
    };
    let killTimer: ReturnType<typeof setTimeout> | undefined;
    const stop = () => {
      kill('SIGTERM');
      killTimer = setTimeout(() => kill('SIGKILL'), opts.graceMs ?? 2000);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, opts.timeoutMs);
    const onAbort = () => {
      aborted = true;
      stop();
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (opts.signal?.aborted) onAbort();
    child.stdout?.on('data', (d: Buffer) => {
      if (stdout.length < OUTPUT_CAP) stdout += d.toString('utf8');
    });
    child.stderr?.on('data', (d: Buffer) => {
      if (stderr.length < OUTPUT_CAP) stderr += d.toString('utf8');
    });
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null, err?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      kill('SIGKILL'); // stragglers of the group (claude's own children)
      if (err) stderr += `${stderr ? '\n' : ''}${err.message}`;
      resolve({ exitCode, signal, stdout, stderr, timedOut, aborted, durationMs: Date.now() - t0 });
    };
    child.on('error', (e) => finish(null, null, e));
    child.on('close', (code, sig) => finish(code, sig));
  });
}

/** `claude --version` → "2.1.328" (and the raw first line) */
export async function claudeVersion(file: string, env: Record<string, string>, cwd: string, timeoutMs = 15_000): Promise<{ version?: string; output: string; error?: string }> {
  const r = await run(file, ['--version'], { cwd, env, timeoutMs });
  const output = r.stdout.trim().split('\n')[0] ?? '';
  const version = /(\d+\.\d+\.\d+)/.exec(r.stdout)?.[1];
  if (version) return { version, output };
  if (r.timedOut) return { output, error: `claude --version did not answer within ${Math.round(timeoutMs / 1000)} s` };
  return { output, error: `no version in the output of claude --version${r.exitCode ? ` (exit ${r.exitCode})` : ''}: ${(output || r.stderr.trim()).slice(0, 200)}` };
}
