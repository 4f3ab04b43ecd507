// `npm run bench:check`: the short form of the bench (bench/run.ts) as a regression guard. Every
// figure is a ratio of two wall times measured in this run, interleaved, so that a busy machine slows
// both sides: never a time against a constant. Each side is its fastest run (the one other work on
// the machine disturbed least: on a shared 2-core machine at load 8, ratios of medians moved by half),
// the medians are printed beside. Fails (exit 1) when a ratio is past its limit.
//
//   startup view   analyze() (the cold analysis, in a warm process) ÷ a raw walk (fdir) of the same tree, at 20k and 100k files
//   extension load require('dist/extension.js') with a stub vscode ÷ `node -e 0` (starting Node)
//   lint           `claude-layers lint` at 100k files ÷ its floor (starting Node + one raw walk of the tree)
//   diff           `diff BASE HEAD` of two commits of the 20k tree (bench/diff.ts) ÷ one lint of it, in this process
//   chunks         every dist/chunks/*.js loads and gives the packages it holds (the bundles require them on first use)
//
// The limits are the targets of issue 19 turned into ratios with the reference run of bench/results.md
// (startup ≤ 12 ms with fdir at 20.8 / 111 ms; load ≤ 40 ms with Node starting in 50.8 ms; lint ≤ 2 × floor).
// Where a target is not met yet, the guard is the figure reached (so that it does not get worse) and
// the report says the target is not met.
//
// Flags: --runs N (default 9)  --json (one JSON line at the end)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { benchLongTurn, benchTranscript } from './transcript.js';

/** one long turn read cold ÷ a raw line count of it: 38× at 20,000 calls, measured 2026-12-03 at load 20 on 2 cores (the line count itself moved 37-178 ms) */
const LONG_TURN_TARGET = 100;
import { fdir } from 'fdir';
import { defaultParams, generate } from './generate.js';
import { diffRatio, DIFF_TREES } from './diff.js';

const ROOT = path.resolve(__dirname, '..');
const TMP = path.join(__dirname, 'tmp');
/**
 * lint's target (2 × its floor) is not met yet: the guard is the level reached with room for the
 * noise of a shared machine. Reached on 2026-12-02 (batched secrets, git-ignored folders listed on
 * demand, fewer touches): 4.1 to 4.4 × on 2 cores at load 2 to 4 (it was 4.4 to 6 × before, 9 × at
 * load 12: lint runs for most of a second and takes the whole contention, the floor's short runs
 * can slip between it). 7 × catches a rise of half rather than noise.
 */
const LINT_GUARD = 7;
/** diff's target (2 × one lint) is not met: the guard is the level reached with room for noise. Since the head is
 *  analysed from what it shares with the base (issue 35, 2026-12-04): 20,000 files 2.2 to 2.7 × (fastest runs) on 2
 *  cores at load 1.5 to 3.5 with bench/diff.ts, 3.0 × in a whole `npm run bench:check` (it was 4.2 to 4.5 ×, 5.0 × in the full npm test of the merged main, where 6 × left too
 *  little room above 4.5: hence about twice the level reached) */
const DIFF_GUARD = 5;
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 9;

interface Figure {
  what: string;
  /** the measured ratio */
  ratio: number;
  /** the target, as a ratio */
  target: number;
  /** fail above this (the target, or the level reached while the target is not met) */
  guard: number;
  detail: string;
}

const min = (xs: number[]) => Math.min(...xs);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const wall = (args: string[], cwd = ROOT, env?: NodeJS.ProcessEnv) => {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28, timeout: 10 * 60 * 1000, ...(env && { env }) });
  return { ms: ms(t0), status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
};
const walk = (root: string) => {
  const t0 = process.hrtime.bigint();
  new fdir().withFullPaths().crawl(root).sync();
  return ms(t0);
};
const f1 = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

async function main(): Promise<number> {
  for (const f of ['dist/extension.js', 'dist/cli.js']) if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing: npm run build first`);
  const log = (s: string) => process.stderr.write(`[bench:check] ${s}\n`);
  const trees = [20000, 100000].map((n) => generate(defaultParams(n), path.join(TMP, 'trees'), { log }));
  const figures: Figure[] = [];
  const problems: string[] = [];

  // 1. the startup view against a raw walk of the same tree, interleaved run by run
  const engine = await import('../src/engine/index.js');
  for (const t of trees) {
    const opts = { cwd: t.repo, home: t.home, env: { HOME: t.home }, managedDir: t.managed };
    for (let i = 0; i < 3; i++) engine.analyze(opts); // load the parsers, warm the JIT
    const a: number[] = [];
    const w: number[] = [];
    for (let i = 0; i < runs; i++) {
      w.push(walk(t.repo));
      const t0 = process.hrtime.bigint();
      const an = engine.analyze(opts);
      a.push(ms(t0));
      if (!an.startup.length) problems.push(`${t.name}: the analysis found no startup entry`);
    }
    const target = 12 / (t.params.files === 20000 ? 20.8 : 111);
    figures.push({ what: `startup view, ${t.params.files.toLocaleString('en-US')} files ÷ raw walk`, ratio: min(a) / min(w), target, guard: target, detail: `${f1(min(a))} ms ÷ ${f1(min(w))} ms (medians ${f1(median(a))} ÷ ${f1(median(w))})` });
  }

  // 2. the extension's load against starting Node, interleaved
  const stub = path.join(TMP, 'vscode-stub.cjs');
  fs.mkdirSync(TMP, { recursive: true });
  fs.writeFileSync(
    stub,
    `const any = (k) => (typeof k === 'symbol' ? (k === Symbol.toPrimitive ? () => '' : undefined) : k === 'then' ? undefined : make());\n` +
      `const proto = new Proxy({}, { get: (t, k) => (t[k] ??= any(k)) });\n` +
      `const handler = { get: (t, k) => (k in t ? t[k] : (t[k] = any(k))), apply: () => make(), construct: () => make(), getPrototypeOf: () => proto };\n` +
      `function make() { return new Proxy(function () {}, handler); }\nmodule.exports = make();\n`,
  );
  const ext = path.join(ROOT, 'dist', 'extension.js');
  const loadScript =
    `const Module = require('module'); const orig = Module._resolveFilename;` +
    `Module._resolveFilename = function (req, ...a) { return req === 'vscode' ? ${JSON.stringify(stub)} : orig.call(this, req, ...a); };` +
    `require(${JSON.stringify(stub)});` +
    `const t0 = process.hrtime.bigint(); require(${JSON.stringify(ext)}); process.stdout.write(String(Number(process.hrtime.bigint() - t0) / 1e6));`;
  const load: number[] = [];
  const start: number[] = [];
  for (let i = 0; i < runs; i++) {
    start.push(wall(['-e', '0']).ms);
    const r = wall(['-e', loadScript]);
    if (r.status !== 0) {
      problems.push(`dist/extension.js does not load: ${r.stderr.split('\n').slice(0, 3).join(' ')}`);
      break;
    }
    load.push(Number(r.stdout));
  }
  if (load.length)
    figures.push({ what: 'extension load ÷ node -e 0', ratio: min(load) / min(start), target: 40 / 50.8, guard: 40 / 50.8, detail: `${f1(min(load))} ms ÷ ${f1(min(start))} ms (medians ${f1(median(load))} ÷ ${f1(median(start))})` });

  // 3. lint at 100k files against its floor (starting Node + one raw walk), interleaved
  {
    const t = trees[1]!;
    const lint: number[] = [];
    const floor: number[] = [];
    // the CLI's code cache (src/cli/launch.ts) in a folder of this run: a first run writes it, then the measured runs take it
    const cacheHome = path.join(TMP, 'code-cache-check');
    fs.rmSync(cacheHome, { recursive: true, force: true });
    const env = { ...process.env, XDG_CACHE_HOME: cacheHome };
    const lintArgs = [path.join(ROOT, 'dist', 'cli.js'), 'lint', '--cwd', t.repo, '--home', t.home, '--managed-dir', t.managed, '--format', 'json'];
    const first = wall(lintArgs, t.repo, env).ms;
    for (let i = 0; i < Math.min(runs, 4); i++) {
      floor.push(wall(['-e', '0'], t.repo).ms + walk(t.repo));
      const r = wall(lintArgs, t.repo, env);
      if (r.status !== 0 && r.status !== 1) {
        problems.push(`lint exited ${r.status}: ${r.stderr.split('\n').slice(0, 3).join(' ')}`);
        break;
      }
      lint.push(r.ms);
    }
    if (lint.length)
      figures.push({ what: 'lint, 100,000 files ÷ its floor', ratio: min(lint) / min(floor), target: 2, guard: LINT_GUARD, detail: `${f1(min(lint))} ms ÷ ${f1(min(floor))} ms (medians ${f1(median(lint))} ÷ ${f1(median(floor))}; the first run, writing the code cache, ${f1(first)} ms)` });
  }

  // 4. the live-session reader: a 20 MB transcript read cold, then one record appended, each against a raw
  // line count of the same file (bench/transcript.ts; the full bench measures 200 MB)
  {
    const t = benchTranscript(20, 7);
    // 5.9-11.6× measured 2026-12-03 at load 5-9 (13.5-14.7× in the same minutes before the reader decoded in 64 KiB
    // batches and fed the replayer while reading; at 200 MB that was 38-60×, which the guard of 80× let through)
    figures.push({ what: 'transcript reader, 20 MB cold ÷ its line count', ratio: t.coldRatio, target: 20, guard: 40, detail: `${f1(t.coldMs)} ms ÷ ${f1(t.rawMs)} ms, heap +${t.heapMiB.toFixed(0)} MiB` });
    // what the reader keeps after the cold open ÷ the file's size: 0.18 measured (0.66 while every record of the file
    // was held until the replay and each turn kept the request records' texts a second time)
    figures.push({ what: 'transcript reader, heap kept ÷ the file\'s size', ratio: t.heapMiB / t.mb, target: 0.25, guard: 0.4, detail: `+${t.heapMiB.toFixed(1)} MiB ÷ ${t.mb.toFixed(1)} MB` });
    figures.push({ what: 'transcript reader, an append ÷ the line count', ratio: t.appendRatio, target: 1, guard: 2, detail: `${f1(t.appendP50)} ms p50 ÷ ${f1(t.rawMs)} ms` });
    // one turn of 20,000 calls (an autonomous run): linear in the records, not calls × records (issue 31)
    const l = benchLongTurn(20_000);
    figures.push({ what: 'transcript reader, one turn of 20,000 calls ÷ its line count', ratio: l.ratio, target: LONG_TURN_TARGET, guard: LONG_TURN_TARGET * 2, detail: `${f1(l.coldMs)} ms ÷ ${f1(l.rawMs)} ms (${l.mb.toFixed(0)} MB)` });
  }

  // 4b. `claude-layers diff` of two commits (issue 35: at most 2 × one lint). Not met: the base is a whole
  // analysis and lint over a commit's tree read from git (ls-tree, cat-file: about one lint, and the git runs
  // and the listing's parse most of another half); the head takes the base's index, texts, rule reach and glob
  // verdicts but for the changed paths, and still touches every folder with nested instructions and every rule
  // (about half a lint); measured 3.6 to 4.2 × at 20k files at load 16 to 21 before that (2026-12-03)
  {
    const t = generate(defaultParams(20_000), DIFF_TREES);
    const d = await diffRatio(t, Math.min(runs, 5));
    figures.push({ what: 'diff of two commits, 20,000 files ÷ one lint', ratio: d.diffMin / d.lintMin, target: 2, guard: DIFF_GUARD, detail: `${f1(d.diffMin)} ms ÷ ${f1(d.lintMin)} ms (medians ${f1(d.diffMs)} ÷ ${f1(d.lintMs)})` });
  }

  // 5. the chunks the bundles load on first use
  const chunkDir = path.join(ROOT, 'dist', 'chunks');
  const chunks = fs.existsSync(chunkDir) ? fs.readdirSync(chunkDir).filter((f) => f.endsWith('.js')) : [];
  if (chunks.length < 4) problems.push(`dist/chunks holds ${chunks.length} chunks (yaml, markdown, width, secretlint expected)`);
  for (const c of chunks) {
    const r = wall(['-e', `const m = require(${JSON.stringify(path.join(chunkDir, c))}); const ks = Object.keys(m); if (!ks.length || ks.some((k) => !m[k] || !Object.keys(m[k]).length)) process.exit(3);`]);
    if (r.status !== 0) problems.push(`dist/chunks/${c} does not load or gives an empty package (exit ${r.status}): ${r.stderr.split('\n')[0]}`);
  }

  const rows = figures.map((f) => {
    const verdict = f.ratio <= f.target ? 'met' : f.ratio <= f.guard ? `target not met (guard ${f.guard.toFixed(2)}×)` : 'FAILED';
    return `${f.what.padEnd(44)} ${`${f.ratio.toFixed(3)}×`.padStart(8)}  target ≤ ${f.target.toFixed(3)}×  ${verdict.padEnd(30)} ${f.detail}`;
  });
  process.stdout.write(`${rows.join('\n')}\n${chunks.length} chunks load: ${chunks.join(', ')}\n`);
  for (const p of problems) process.stdout.write(`problem: ${p}\n`);
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify({ figures, problems })}\n`);
  const failed = figures.filter((f) => f.ratio > f.guard);
  for (const f of failed) process.stderr.write(`bench:check: ${f.what} is ${f.ratio.toFixed(3)}×, past ${f.guard.toFixed(3)}× (${f.detail})\n`);
  return failed.length || problems.length ? 1 : 0;
}

main().then(
  (code) => (process.exitCode = code),
  (e) => {
    process.stderr.write(`bench:check: ${(e as Error).stack ?? String(e)}\n`);
    process.exitCode = 1;
  },
);
