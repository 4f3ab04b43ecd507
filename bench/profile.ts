// CPU profiles of the engine's hot paths on a generated tree, with a summary (self and inclusive
// time per function) printed for each. Writes bench/tmp/profiles/*.cpuprofile (open them in Chrome
// DevTools or VS Code). Run after `npm run bench` has generated the trees (or it generates them).
//
//   node --import tsx bench/profile.ts [--size 100000] [--top 25] [--only analyze,lazy-first,lazy-warm,index,lint]
//   node --import tsx bench/profile.ts --summarize FILE.cpuprofile
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Session } from 'node:inspector';
import { fdir } from 'fdir';
import { defaultParams, generate, prng } from './generate.js';

const TMP = path.join(__dirname, 'tmp');
const OUT = path.join(TMP, 'profiles');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** self and inclusive time per function (a function counted once per stack for inclusive time) */
export function summarize(prof: Profile, top = 25): string {
  const nodes = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of prof.nodes) {
    nodes.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const dt = new Map<number, number>();
  prof.samples.forEach((s, i) => dt.set(s, (dt.get(s) ?? 0) + (prof.timeDeltas[i] ?? 0)));
  const total = [...dt.values()].reduce((a, b) => a + b, 0);
  const key = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(src|node_modules|bench)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  for (const [id, t] of dt) {
    const k0 = key(nodes.get(id)!);
    self.set(k0, (self.get(k0) ?? 0) + t);
    const seen = new Set<string>();
    for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) {
      const k = key(nodes.get(x)!);
      if (seen.has(k)) continue;
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + t);
    }
  }
  const boring = /^(\(root\)|\(program\)|dispatch|evaluate|run|post|Module\.|\(anonymous\) (node:|bench\/profile)|#onMessage|Session|cjsLoader|executeUserEntryPoint|(anonymous) node:internal)/;
  const fmt = (m: Map<string, number>, filter: boolean) =>
    [...m]
      .filter(([k]) => !filter || !boring.test(k))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `${(v / 1000).toFixed(0).padStart(7)} ms ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`)
      .join('\n');
  return `total ${(total / 1000).toFixed(0)} ms\n-- self time\n${fmt(self, false)}\n-- inclusive time\n${fmt(incl, true)}`;
}

function profileInProcess(name: string, work: () => void): Profile {
  const s = new Session();
  s.connect();
  let out: Profile | undefined;
  s.post('Profiler.enable');
  s.post('Profiler.setSamplingInterval', { interval: 200 });
  s.post('Profiler.start');
  const t0 = performance.now();
  work();
  const t = performance.now() - t0;
  s.post('Profiler.stop', (err, res) => {
    if (!err) out = res.profile as unknown as Profile;
  });
  s.disconnect();
  if (!out) throw new Error(`no profile for ${name}`);
  fs.writeFileSync(path.join(OUT, `${name}.cpuprofile`), JSON.stringify(out));
  process.stdout.write(`\n=== ${name}: ${t.toFixed(0)} ms of work ===\n`);
  return out;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const get = (k: string) => {
    const i = args.indexOf(k);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const top = Number(get('--top') ?? 25);
  if (get('--summarize')) {
    process.stdout.write(`${summarize(JSON.parse(fs.readFileSync(get('--summarize')!, 'utf8')) as Profile, top)}\n`);
    return;
  }
  const size = Number(get('--size') ?? 100000);
  const only = new Set((get('--only') ?? 'analyze,lazy-first,lazy-warm,index,lint').split(','));
  fs.mkdirSync(OUT, { recursive: true });
  const tree = generate(defaultParams(size), path.join(TMP, 'trees'), { log: (s) => process.stderr.write(`${s}\n`) });
  const engine = await import('../src/engine/index.js');
  const { WorkspaceIndex } = await import('../src/engine/files/workspace-index.js');
  const opts = { cwd: tree.repo, home: tree.home, env: { HOME: tree.home }, managedDir: tree.managed };
  const all = (new fdir().withFullPaths().crawl(tree.repo).sync()).filter((f) => !f.includes(`${path.sep}.git${path.sep}`));
  const r = prng(1007);
  const sample = Array.from({ length: 1000 }, () => all[Math.floor(r() * all.length)]!);
  engine.analyze(opts); // load and warm the modules
  if (only.has('analyze')) process.stdout.write(`${summarize(profileInProcess(`analyze-${size}`, () => { for (let i = 0; i < 50; i++) engine.analyze(opts); }), top)}\n`);
  if (only.has('lazy-first')) {
    const a = engine.analyze(opts);
    process.stdout.write(`${summarize(profileInProcess(`lazy-first-${size}`, () => { for (const f of sample) a.lazyFor(f); }), top)}\n`);
  }
  if (only.has('lazy-warm')) {
    const a = engine.analyze(opts);
    for (const f of sample) a.lazyFor(f);
    process.stdout.write(`${summarize(profileInProcess(`lazy-warm-${size}`, () => { for (let k = 0; k < 5; k++) for (const f of sample) a.lazyFor(f); }), top)}\n`);
  }
  if (only.has('index')) process.stdout.write(`${summarize(profileInProcess(`index-${size}`, () => { for (let i = 0; i < 10; i++) WorkspaceIndex.build(tree.repo); }), top)}\n`);
  if (only.has('lint')) {
    // an unminified CLI bundle, so that the profile names functions
    const esbuild = await import('esbuild');
    const cli = path.join(TMP, 'cli-dev.js');
    esbuild.buildSync({ entryPoints: [path.join(__dirname, '..', 'src', 'cli', 'main.ts')], outfile: cli, bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['fsevents'], logLevel: 'error', alias: { '@secretlint/profiler': path.join(__dirname, '..', 'src', 'engine', 'checks', 'null-profiler.ts') } });
    const name = `lint-${size}`;
    fs.rmSync(path.join(OUT, `${name}.cpuprofile`), { force: true });
    const t0 = performance.now();
    spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${OUT}`, `--cpu-prof-name=${name}.cpuprofile`, cli, 'lint', '--cwd', tree.repo, '--home', tree.home, '--managed-dir', tree.managed, '--format', 'json'], { stdio: 'ignore', timeout: 10 * 60 * 1000 });
    process.stdout.write(`\n=== ${name}: ${(performance.now() - t0).toFixed(0)} ms wall (claude-layers lint, unminified bundle) ===\n`);
    const file = path.join(OUT, `${name}.cpuprofile`);
    if (fs.existsSync(file)) process.stdout.write(`${summarize(JSON.parse(fs.readFileSync(file, 'utf8')) as Profile, top)}\n`);
  }
}

if (require.main === module)
  main().catch((e) => {
    process.stderr.write(`profile: ${(e as Error).stack ?? String(e)}\n`);
    process.exitCode = 1;
  });
