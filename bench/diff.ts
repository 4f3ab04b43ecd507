// The diff of two revisions of the generated monorepo against one lint of it, in one process:
// `diffRatio` (bench/run.ts's "diff of two revisions" line) and, run alone, a quick measurement.
// A tree of its own (bench/tmp/diff-trees, so that the other benchmarks' raw walks do not meet a real
// .git) becomes a git repository (its fake .git replaced): the base commit is the generated tree,
// the head grows the root CLAUDE.md, adds a rule without paths and widens nothing else. Both sides
// are read from git (`diff BASE HEAD`), the same work a pull request's check does.
//
// Usage: node --import tsx bench/diff.ts [--files N] [--runs N]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultParams, generate, type GeneratedTree } from './generate.js';

/** where the diff's trees are generated: apart from bench/tmp/trees */
export const DIFF_TREES = path.join(__dirname, 'tmp', 'diff-trees');

const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' };
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd, env: GIT_ENV, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 }).toString();

/** the tree as a repository with two commits (made once; reused while its stamp matches) */
export function gitTree(tree: GeneratedTree, log: (s: string) => void = () => undefined): { repo: string; base: string; head: string } {
  const stamp = path.join(tree.repo, '.git', 'bench-diff.json');
  if (fs.existsSync(stamp)) return JSON.parse(fs.readFileSync(stamp, 'utf8')) as { repo: string; base: string; head: string };
  const t0 = Date.now();
  fs.rmSync(path.join(tree.repo, '.git'), { recursive: true, force: true });
  git(tree.repo, 'init', '-q', '-b', 'main');
  git(tree.repo, 'add', '-A');
  git(tree.repo, 'commit', '-q', '-m', 'base');
  const base = git(tree.repo, 'rev-parse', 'HEAD').trim();
  git(tree.repo, 'checkout', '-q', '-b', 'pr');
  fs.appendFileSync(path.join(tree.repo, 'CLAUDE.md'), '\n## Added in the pull request\n\nRun the whole test suite before you push.\n');
  fs.mkdirSync(path.join(tree.repo, '.claude', 'rules'), { recursive: true });
  fs.writeFileSync(path.join(tree.repo, '.claude', 'rules', 'bench-diff-added.md'), 'A rule without paths: it loads at every start.\n');
  git(tree.repo, 'add', '-A');
  git(tree.repo, 'commit', '-q', '-m', 'head');
  const head = git(tree.repo, 'rev-parse', 'HEAD').trim();
  // the working tree back at the base, so that the tree's other benchmarks see what they always saw
  git(tree.repo, 'checkout', '-q', 'main');
  const out = { repo: tree.repo, base, head };
  fs.writeFileSync(stamp, JSON.stringify(out));
  log(`made ${tree.name} a git repository with two commits (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

export interface DiffBench {
  /** medians */
  lintMs: number;
  diffMs: number;
  ratio: number;
  /** fastest runs (the ones the machine's other work disturbed least) */
  lintMin: number;
  diffMin: number;
  runs: number;
}

/** medians of `runs` lints (secrets off, as in diff's run here) and diffs of the tree's two commits */
export async function diffRatio(tree: GeneratedTree, runs = 3): Promise<DiffBench> {
  const g = gitTree(tree);
  const { analyze, lintPrepare, lintWorkspace, runDiff } = await import('../src/engine/index.js');
  const { nodeGitRunner } = await import('../src/cli/git-runner.js');
  const options = { cwd: g.repo, home: tree.home, env: { HOME: tree.home }, managedDir: tree.managed };
  const lint: number[] = [];
  const diff: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t0 = performance.now();
    const { options: o, index } = lintPrepare(options);
    await lintWorkspace(analyze(o), { index, secrets: false });
    lint.push(performance.now() - t0);
    t0 = performance.now();
    const r = await runDiff(nodeGitRunner(g.repo), { options, base: g.base, head: g.head, secrets: false });
    diff.push(performance.now() - t0);
    if (!r.ok) throw new Error(`diff failed: ${r.message}`);
    if (r.report.startup.after <= r.report.startup.before) throw new Error('diff: the head grows the startup block, the report says it does not');
  }
  const lintMs = median(lint);
  const diffMs = median(diff);
  return { lintMs, diffMs, ratio: diffMs / lintMs, lintMin: Math.min(...lint), diffMin: Math.min(...diff), runs };
}

if (require.main === module) {
  const arg = (name: string, d: number) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : d;
  };
  const files = arg('--files', 100_000);
  const tree = generate(defaultParams(files), DIFF_TREES, { log: console.log });
  void diffRatio(tree, arg('--runs', 3)).then((r) =>
    console.log(
      `${files} files: lint ${r.lintMs.toFixed(0)} ms, diff of two revisions ${r.diffMs.toFixed(0)} ms = ${r.ratio.toFixed(2)} x lint (median of ${r.runs}); fastest: ${r.lintMin.toFixed(0)} and ${r.diffMin.toFixed(0)} ms = ${(r.diffMin / r.lintMin).toFixed(2)} x`,
    ),
  );
}
