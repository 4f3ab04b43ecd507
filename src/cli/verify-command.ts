// `claude-layers verify [FILE]` and `claude-layers last-session`: ground truth from the installed
// Claude Code (src/ground-truth). verify prints what it will run and touch, asks on a terminal
// (unless --yes), runs claude once against a loopback stand-in and prints the section diff.
// Exit codes: 0 match, 1 mismatch, 2 usage, 3 could not run. last-session: 0 agrees (or nothing to
// compare, or no session), 1 the session differs from the prediction.
import { jsonText } from './escape.js';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { lastSessionReport, NotRunnable, planVerify, renderLastSession, renderPlan, renderVerify, runVerify, type VerifyOptions } from '../ground-truth/index.js';
import { has, one, parseArgs, UsageError } from './args.js';

export interface Io {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

const defaultIo = (): Io => ({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });

function ask(io: Io, question: string): Promise<boolean> {
  return new Promise((resolve) => {
    const rl = readline.createInterface({ input: io.stdin, output: io.stderr });
    rl.question(question, (a) => {
      rl.close();
      resolve(/^y(es)?$/i.test(a.trim()));
    });
    rl.on('SIGINT', () => {
      rl.close();
      resolve(false);
    });
  });
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export async function verifyCommand(argv: string[], io: Io = defaultIo()): Promise<number> {
  const p = parseArgs(argv, { cwd: { value: true }, claude: { value: true }, yes: {}, json: {}, timeout: { value: true }, 'claude-version': { value: true } });
  if (p.positionals.length > 1) throw new UsageError(`verify takes one FILE at most (got ${p.positionals.length})`);
  const cwd = path.resolve(one(p, 'cwd') ?? process.cwd());
  if (!isDir(cwd)) throw new UsageError(`--cwd ${one(p, 'cwd')} is not an existing folder`);
  const t = one(p, 'timeout');
  const timeoutS = t === undefined ? undefined : Number(t);
  if (timeoutS !== undefined && !(Number.isFinite(timeoutS) && timeoutS > 0)) throw new UsageError(`--timeout takes a number of seconds, got "${t}"`);
  const json = has(p, 'json');
  const file = p.positionals[0];
  if (file !== undefined && !fs.existsSync(path.resolve(cwd, file))) throw new UsageError(`FILE ${file} does not exist`);
  const opts: VerifyOptions = {
    cwd,
    file: file === undefined ? undefined : path.resolve(cwd, file),
    claudePath: one(p, 'claude'),
    version: one(p, 'claude-version'),
    timeoutMs: timeoutS === undefined ? undefined : timeoutS * 1000,
    onProgress: json ? undefined : (m) => io.stderr.write(`… ${m}\n`),
  };
  if (!has(p, 'yes') && !io.stdin.isTTY) throw new UsageError('verify runs claude: pass --yes to confirm when not on a terminal');
  const info = json ? io.stderr : io.stdout;
  let plan;
  try {
    plan = await planVerify(opts);
  } catch (e) {
    if (e instanceof NotRunnable) {
      io.stderr.write(`claude-layers verify: ${e.message}\n`);
      return 3;
    }
    throw e;
  }
  info.write(renderPlan(plan));
  if (plan.blockers.length) {
    if (json) io.stdout.write(`${jsonText({ verdict: 'error', summary: plan.blockers.join('; '), plan })}\n`);
    return 3;
  }
  if (!has(p, 'yes')) {
    const ok = await ask(io, '\nRun it? [y/N] ');
    if (!ok) {
      io.stderr.write('Not run.\n');
      return 3;
    }
  }
  info.write('\n');
  const r = await runVerify(plan, opts);
  if (json) io.stdout.write(`${jsonText(r)}\n`);
  else io.stdout.write(renderVerify(r));
  return r.verdict === 'match' ? 0 : r.verdict === 'mismatch' ? 1 : 3;
}

export function lastSessionCommand(argv: string[]): { output: string; exitCode: number } {
  const p = parseArgs(argv, { cwd: { value: true }, home: { value: true }, json: {} });
  if (p.positionals.length) throw new UsageError(`last-session takes no positional arguments (got "${p.positionals[0]}")`);
  const cwd = path.resolve(one(p, 'cwd') ?? process.cwd());
  if (!isDir(cwd)) throw new UsageError(`--cwd ${one(p, 'cwd')} is not an existing folder`);
  const homeFlag = one(p, 'home');
  const home = homeFlag === undefined ? undefined : path.resolve(homeFlag);
  const r = lastSessionReport({ cwd, engine: home === undefined ? { env: { ...process.env } } : { home, env: { HOME: home } } });
  const output = has(p, 'json') ? `${jsonText(r, 2, (k, v: unknown) => (k === 'content' && typeof v === 'string' ? undefined : v))}\n` : renderLastSession(r);
  return { output, exitCode: r.agrees === false ? 1 : 0 };
}
