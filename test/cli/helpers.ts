// Running the built CLI (dist/cli.js) as a process, the way people and CI run it.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import assert from 'node:assert/strict';
import { copyBuiltCli } from '../helpers/built-cli.js';

export const ROOT = path.resolve(__dirname, '..', '..');
export const CLI = path.join(ROOT, 'dist', 'cli.js');
/** the CLI itself, which dist/cli.js (the code-cache launcher, src/cli/launch.ts) starts */
export const CLI_MAIN = path.join(ROOT, 'dist', 'cli-main.js');
/** the code caches of this test process's runs, away from the user's ~/.cache */
export const TEST_CACHE_HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-cache-'));
process.on('exit', () => fs.rmSync(TEST_CACHE_HOME, { recursive: true, force: true }));

/** build dist/cli.js when it is missing (the test script builds first anyway) */
export function ensureBuilt(): void {
  if (fs.existsSync(CLI) && fs.existsSync(CLI_MAIN)) return;
  const r = spawnSync(process.execPath, [path.join(ROOT, 'esbuild.config.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build failed: ${r.stderr}`);
}

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A clean environment: no color variables, no CI annotations, unless given. */
export function run(args: string[], opts: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {}): Run {
  ensureBuilt();
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', XDG_CACHE_HOME: TEST_CACHE_HOME, ...opts.env };
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env, cwd: opts.cwd ?? ROOT, timeout: opts.timeoutMs ?? 60_000, maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** exits 2 with one line saying why, then the command's synopsis and a pointer to --help; nothing on stdout, no stack trace */
export function assertUsageError(r: Run, reason: RegExp): void {
  assert.equal(r.signal, null, 'not killed');
  assert.equal(r.code, 2, `exit 2, got ${r.code}: ${r.stderr}`);
  assert.equal(r.stdout, '');
  const [first, ...rest] = r.stderr.split('\n');
  assert.match(first!, /^claude-layers: /);
  assert.match(first!, reason);
  assert.match(rest.join('\n'), /usage: claude-layers/);
  assert.match(rest.join('\n'), /run 'claude-layers (?:[a-z-]+ )?--help' for more\n$/);
  assertNoStack(r);
}

export function assertNoStack(r: Run): void {
  assert.doesNotMatch(r.stderr, /\n\s+at .+\(.*:\d+:\d+\)|\n\s+at .+:\d+:\d+/, 'no stack trace');
  assert.doesNotMatch(r.stderr, /internal error/);
}

export const ANSI = /\u001b\[[0-9;]*m/;

/** the demo workspace, laid out as `npm start` does */
export async function demo(): Promise<{ repo: string; home: string; managed: string; memory: string; cleanup: () => void; flags: string[] }> {
  const mod = (await import(path.join(ROOT, 'scripts', 'demo-workspace.mjs'))) as {
    setupDemo: () => { repo: string; home: string; managed: string; memory: string; cleanup: () => void };
  };
  const d = mod.setupDemo();
  return { ...d, flags: ['--cwd', d.repo, '--home', d.home, '--managed-dir', d.managed] };
}

export interface JsonDiagnostic {
  path: string;
  line: number | null;
  severity: 'error' | 'warning' | 'info';
  rule: string;
  message: string;
}

export function lintJson(flags: string[], extra: string[] = []): { code: number | null; diagnostics: JsonDiagnostic[]; json: Record<string, unknown> } {
  const r = run(['lint', ...flags, '--format', 'json', ...extra]);
  assertNoStack(r);
  const json = JSON.parse(r.stdout) as { diagnostics: JsonDiagnostic[] };
  return { code: r.code, diagnostics: json.diagnostics, json };
}

/** a copy of the built CLI (copyBuiltCli: its launcher, itself and its chunks) in a fresh folder every
 *  user can read, for the runs as an unprivileged user (the checkout may be under /root) */
export function publicCliCopy(): { dir: string; cli: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-cli-'));
  fs.chmodSync(dir, 0o755);
  return { dir, cli: copyBuiltCli(path.dirname(CLI), dir) };
}
