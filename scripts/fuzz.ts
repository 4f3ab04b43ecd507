// `npm run fuzz -- [--seconds N] [--seed S] [--cases N] [--case-timeout MS]`: random workspaces
// (trees, names with control characters, frontmatter, globs, settings, MEMORY.md) through the
// engine and every output format, seeded and reproducible: case k uses seed S + k. Reports every
// throw, hang (a case over --case-timeout) and raw control character with its seed; exit 1 if any.
// Reproduce one: `npm run fuzz -- --seed SEED --cases 1`.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';

export interface FuzzFailure {
  seed: number;
  kind: 'throw' | 'hang' | 'escape' | 'crash';
  detail: string;
}

export interface FuzzResult {
  cases: number;
  ms: number;
  failures: FuzzFailure[];
  slowest: { seed: number; ms: number };
}

const CASE = path.join(__dirname, 'fuzz-case.ts');

/**
 * Run cases from `seed` on for `seconds` (or `cases` of them) in a worker process; a case that takes
 * longer than `caseTimeoutMs` is a hang: the worker is killed and a new one goes on after it.
 */
export async function runFuzz(opts: { seconds: number; seed: number; cases?: number; caseTimeoutMs?: number; log?: (s: string) => void }): Promise<FuzzResult> {
  const t0 = Date.now();
  const end = t0 + opts.seconds * 1000;
  const limit = opts.cases ?? Infinity;
  const caseTimeout = opts.caseTimeoutMs ?? 15_000;
  const failures: FuzzFailure[] = [];
  let next = opts.seed;
  let done = 0;
  let slowest = { seed: opts.seed, ms: 0 };
  while (Date.now() < end && done < limit) {
    const remaining = limit - done;
    await new Promise<void>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', CASE, String(next), String(remaining)], { stdio: ['ignore', 'pipe', 'pipe'], cwd: path.join(__dirname, '..') });
      let current: number | undefined;
      let timer: NodeJS.Timeout | undefined;
      let stderr = '';
      const arm = () => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => {
          if (current !== undefined) failures.push({ seed: current, kind: 'hang', detail: `no result after ${caseTimeout} ms` });
          opts.log?.(`hang seed=${current}`);
          if (current !== undefined) next = current + 1;
          done++;
          child.kill('SIGKILL');
        }, caseTimeout);
      };
      const stopAtEnd = setInterval(() => {
        if (Date.now() >= end) child.kill('SIGKILL');
      }, 200);
      child.stderr.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-2000)));
      readline.createInterface({ input: child.stdout }).on('line', (line) => {
        const [kind, seedText, ...rest] = line.split(' ');
        const seed = Number(seedText);
        if (kind === 'start') {
          current = seed;
          arm();
          return;
        }
        current = undefined;
        if (timer) clearTimeout(timer);
        next = seed + 1;
        done++;
        if (kind === 'ok') {
          const ms = Number(rest[0]);
          if (ms > slowest.ms) slowest = { seed, ms };
        } else {
          failures.push({ seed, kind: kind === 'escape' ? 'escape' : 'throw', detail: rest.join(' ') });
          opts.log?.(`${kind} seed=${seed} ${rest.join(' ')}`);
        }
        if (done >= limit) child.kill('SIGKILL');
      });
      child.on('exit', (code, signal) => {
        if (timer) clearTimeout(timer);
        clearInterval(stopAtEnd);
        // died in the middle of a case (not killed by us): a crash of that case
        if (current !== undefined && signal !== 'SIGKILL') {
          failures.push({ seed: current, kind: 'crash', detail: `exit ${code ?? signal}: ${stderr.split('\n').filter(Boolean).slice(-3).join(' | ')}` });
          next = current + 1;
          done++;
        }
        resolve();
      });
    });
  }
  return { cases: done, ms: Date.now() - t0, failures, slowest };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const val = (flag: string, dflt: number) => {
    const i = args.indexOf(flag);
    return i >= 0 ? Number(args[i + 1]) : dflt;
  };
  const seed = val('--seed', 20261201);
  const seconds = val('--seconds', 60);
  const cases = val('--cases', Infinity);
  const r = await runFuzz({ seconds, seed, cases, caseTimeoutMs: val('--case-timeout', 15_000), log: (s) => console.log(s) });
  console.log(`fuzz: ${r.cases} cases from seed ${seed} in ${(r.ms / 1000).toFixed(1)} s; slowest case seed ${r.slowest.seed} (${r.slowest.ms} ms); ${r.failures.length} failure(s)`);
  for (const f of r.failures) console.log(`  ${f.kind} seed=${f.seed}: ${f.detail}\n    reproduce: npm run fuzz -- --seed ${f.seed} --cases 1`);
  process.exitCode = r.failures.length ? 1 : 0;
}

if (require.main === module) void main();
