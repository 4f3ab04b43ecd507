// `claude-layers diff` from start to end, over an injected git runner: which revisions (the merge
// base with the default branch, and the working tree, by default), each side's view of the files
// (a commit's tree through git-tree.ts, the working tree as it is, HOME shared), their facts, the
// comparison, and the budgets. Problems that make the comparison meaningless (a revision that does
// not exist, a shallow clone without the base, an instruction file that is binary or over 4 MiB)
// come back as `{ ok: false, message }`: the CLI exits 2 with it.
import * as path from 'node:path';
import type { EngineOptions } from '../environment.js';
import { nodeFileAccess, type FileAccess } from '../files/file-access.js';
import { blobFeed, blobStore, deriveTree, diffTreeRun, gitTreeFileAccess, instructionLike, readTree, readTreeStreamed, startGit, treeFromDiff, type GitResult, type GitRunner, type GitTree } from '../files/git-tree.js';
import { decodeUtf8 } from '../instructions/content.js';
import { checkBudgets, parseBudgetObject, type Budgets, type BudgetViolation } from './budget.js';
import { compareRevisions, unreadableFiles, type DiffReport } from './compare.js';
import { revisionFacts, revisionIndex, type RevisionFacts, type RevisionOptions } from './revision.js';
import type { DerivedChange } from '../files/workspace-index.js';

export const BUDGET_FILE = path.join('.claude', 'context-budget.json');

export interface DiffRequest {
  /** the engine options of the launch directory (cwd inside the repository; HOME and flags shared by both sides) */
  options: EngineOptions;
  /** base revision; default: the merge base of HEAD with the default branch */
  base?: string;
  /** head revision; default: the working tree */
  head?: string;
  secrets?: boolean;
  /** budgets from flags (merged over the budget file's, key by key) */
  budgets?: (file: Budgets | undefined) => Budgets | undefined;
  deadline?: { at: number; now: () => number };
  /** analyse the head revision on its own, sharing nothing with the base's analysis (the reference the tests hold the shared path to) */
  fromScratch?: boolean;
  /** what the diff otherwise refuses (exit 2): a renamed instruction file compared as one removed and one added
   *  (`--allow-renames`); a submodule added, removed or moved, left unread (`--allow-submodules`) */
  allow?: { renames?: boolean; submodules?: boolean };
}

export interface DiffOutcome {
  ok: true;
  report: DiffReport;
  before: RevisionFacts;
  after: RevisionFacts;
  budgets?: Budgets;
  violations: BudgetViolation[];
}

export type DiffResult = DiffOutcome | { ok: false; message: string };

const text = (b: Uint8Array) => Buffer.from(b).toString('utf8').trim();

function gitLine(git: GitRunner, args: string[]): string | undefined {
  const r = git.run(args, undefined, 1024 * 1024);
  return r.ok ? text(r.stdout) || undefined : undefined;
}

/** the default branch: origin/HEAD's target, else main / master (local, then origin's) */
export function defaultBranch(git: GitRunner): string | undefined {
  const sym = gitLine(git, ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD']);
  if (sym) return sym.replace(/^refs\/remotes\//, '');
  for (const b of ['main', 'master', 'origin/main', 'origin/master']) if (gitLine(git, ['rev-parse', '--verify', '--quiet', `${b}^{commit}`])) return b;
  return undefined;
}

const shallow = (git: GitRunner) => gitLine(git, ['rev-parse', '--is-shallow-repository']) === 'true';

function missing(git: GitRunner, rev: string): string {
  return shallow(git)
    ? `revision ${JSON.stringify(rev)} is not in this shallow clone: fetch it (git fetch --depth=50 origin ${rev}) or check out with full history (actions/checkout with fetch-depth: 0)`
    : `revision ${JSON.stringify(rev)} does not exist in this repository`;
}

const nulSplit = (r: GitResult): string[] => (r.ok ? decodeUtf8(r.stdout).split('\0').filter(Boolean) : []);

function nulList(git: GitRunner, args: string[]): string[] {
  return nulSplit(git.run(args, undefined, 64 * 1024 * 1024));
}

/** `git diff --raw -M` between the base and the head (the working tree without one) */
// (a submodule counts when its commit changes, not when its checkout has edits)
const rawArgs = (base: string, head?: string) => ['diff', '--raw', '-z', '-M', '--no-ext-diff', '--ignore-submodules=dirty', base, ...(head ? [head] : []), '--'];

/** `git rev-parse --show-toplevel BASE^{commit} HEAD^{commit}`: undefined when git refuses any of them */
function bothCommits(git: GitRunner, base: string, head: string): { top: string; base: string; head: string } | undefined {
  const r = git.run(['rev-parse', '--show-toplevel', '--end-of-options', `${base}^{commit}`, `${head}^{commit}`], undefined, 1024 * 1024);
  if (!r.ok) return undefined;
  // (git before 2.43 echoes --end-of-options here)
  const lines = text(r.stdout).split('\n').filter((l) => l !== '--end-of-options');
  const oid = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
  return lines.length === 3 && oid.test(lines[1]!) && oid.test(lines[2]!) ? { top: lines[0]!, base: lines[1]!, head: lines[2]! } : undefined;
}

/** past this many changed paths the head is crawled rather than derived (each removal looks through the instruction files) */
const MAX_DERIVED_CHANGES = 20_000;

const modeKind = (mode: string): DerivedChange['after'] => (mode === '000000' ? 'absent' : mode === '040000' || mode === '160000' ? 'dir' : mode === '120000' ? 'symlink' : 'file');

/**
 * What the head's analysis takes from the base's when the head is a commit derived from the base's tree: its
 * workspace index (the base's, with the paths `git diff-tree` names applied: no second crawl) and the reach of
 * the rules that the changed files do not touch (no second walk; not when a .gitignore changed, which moves
 * files in or out of the index beyond the changed paths).
 */
function sharedWithBase(before: RevisionFacts, head: GitTree, headFs: FileAccess, root: string, cwd: string): Pick<RevisionOptions, 'index' | 'prior' | 'shared'> | undefined {
  const baseIndex = revisionIndex(before);
  if (!baseIndex || !head.changes || head.changes.paths.length > MAX_DERIVED_CHANGES) return undefined;
  // the head's launch directory is the base's (a symbolic link on the way that changed would move it)
  const real = headFs.realpath(cwd);
  if (!real.ok || real.value !== baseIndex.root) return undefined;
  const changes: DerivedChange[] = head.changes.paths.map((c) => ({ path: path.join(root, ...c.rel.split('/')), before: modeKind(c.oldMode), after: modeKind(c.newMode) }));
  const index = baseIndex.derive(headFs, changes);
  if (!index) return undefined;
  // the texts: every path that changed, but a folder that stayed one (its entries that changed are listed too)
  const shared = { facts: before, changed: changes.filter((c) => c.before !== 'dir' || c.after !== 'dir').map((c) => c.path) };
  if (changes.some((c) => path.basename(c.path) === '.gitignore')) return { index, shared };
  // a rule's reach moves only with files that came or went (or changed kind): new content leaves it as it was
  return { index, shared, prior: { facts: before, changed: changes.filter((c) => c.before !== c.after).map((c) => c.path) } };
}

export async function runDiff(git: GitRunner, req: DiffRequest): Promise<DiffResult> {
  // the work tree's root and both commits in one git run when both revisions are named (else one by one)
  const named = req.base !== undefined && req.head !== undefined && !req.base.startsWith('-') && !req.head.startsWith('-') ? bothCommits(git, req.base, req.head) : undefined;
  const top = named?.top ?? gitLine(git, ['rev-parse', '--show-toplevel']);
  if (!top) return { ok: false, message: `${req.options.cwd} is not inside a git repository` };
  const outside: FileAccess = req.options.fs ?? nodeFileAccess;
  const realTop = outside.realpath(top);
  const root = realTop.ok ? realTop.value : top;

  let baseRev = req.base;
  if (baseRev === undefined) {
    const branch = defaultBranch(git);
    if (!branch) return { ok: false, message: 'no default branch found (origin/HEAD, main or master): name the base revision (claude-layers diff BASE)' };
    const mb = gitLine(git, ['merge-base', 'HEAD', branch]);
    if (!mb) return { ok: false, message: shallow(git) ? `the merge base of HEAD and ${branch} is not in this shallow clone: fetch more history (git fetch --deepen=100 origin ${branch.replace(/^origin\//, '')}) or use fetch-depth: 0` : `HEAD and ${branch} have no common ancestor: name the base revision` };
    baseRev = mb;
  }
  // with both commits known, what needs only them runs in git while the base's tree is listed and read
  const early = named && { tree: startGit(git, ...diffTreeRun(named.base, named.head)), raw: startGit(git, rawArgs(named.base, named.head), undefined, 64 * 1024 * 1024) };
  // one store of objects for both sides: what the revisions share is read from git once; both sides' instruction and
  // Markdown files in one git run, fed while the base's tree is listed (git reads them meanwhile)
  const store = blobStore();
  const feed = blobFeed(git, store);
  const bt = await readTreeStreamed(git, baseRev, named?.base, feed);
  if (!bt.ok) return { ok: false, message: bt.message.includes('does not exist') ? missing(git, baseRev) : bt.message };
  let ht: GitTree | undefined;
  if (req.head !== undefined) {
    // the head's tree from the base's and what changed between them (a fresh listing when git cannot say)
    const r = (early ? treeFromDiff(bt.tree, req.head, named.head, await early.tree) : deriveTree(git, bt.tree, req.head, named?.head)) ?? readTree(git, req.head, named?.head);
    if (!r.ok) return { ok: false, message: r.message.includes('does not exist') ? missing(git, req.head) : r.message };
    ht = r.tree;
    feed.addTree(ht);
  }
  await feed.done();
  const baseFs = gitTreeFileAccess(git, bt.tree, { root, outside, store, prefetched: true });
  const headFs = ht ? gitTreeFileAccess(git, ht, { root, outside, store, prefetched: true }) : undefined;
  const cwd = outside.realpath(path.resolve(req.options.cwd));
  const cwdReal = cwd.ok ? cwd.value : path.resolve(req.options.cwd);
  const before = await revisionFacts({ ...req.options, cwd: cwdReal, fs: baseFs }, { secrets: req.secrets, deadline: req.deadline, treeFs: true });
  const shared = ht && headFs && !req.fromScratch ? sharedWithBase(before, ht, headFs, root, cwdReal) : undefined;
  const after = await revisionFacts({ ...req.options, cwd: cwdReal, ...(headFs && { fs: headFs }) }, { secrets: req.secrets, deadline: req.deadline, treeFs: !!headFs, ...shared });

  const bad = unreadableFiles(before, after);
  if (bad.length)
    return { ok: false, message: bad.map((u) => `${u.path} (${u.side === 'base' ? baseRev : req.head ?? 'working tree'}): ${u.reason}; diff compares instruction files as text only`).join('\n') };

  // what the change touches, and what the diff does not look into
  const notes: string[] = [];
  // what the diff cannot compare as asked: refused (exit 2) unless allowed
  const refused: string[] = [];
  const headName = req.head ?? 'the working tree';
  // `git diff --raw -M` (one run): each changed path with its modes (160000: a submodule), renames with both paths
  const raw = early ? nulSplit(await early.raw) : nulList(git, rawArgs(bt.tree.commit, ht?.commit));
  const changedRel: string[] = [];
  for (let i = 0; i + 1 < raw.length; ) {
    const [, mode1, mode2, , , status] = /^:(\d+) (\d+) (\S+) (\S+) ([A-Z])/.exec(raw[i]!) ?? [];
    if (status === 'R' || status === 'C') {
      const [from, to] = [raw[i + 1]!, raw[i + 2] ?? ''];
      i += 3;
      if (status === 'R' && (instructionLike(from) || instructionLike(to))) {
        notes.push(`renamed: ${from} → ${to} (compared as one file removed and one added)`);
        if (!req.allow?.renames)
          refused.push(`${from} is renamed to ${to} between ${baseRev} and ${headName}: Claude Code loads an instruction file by its path, so the diff would show one file removed and one added; --allow-renames compares it so`);
      }
      if (to) changedRel.push(to);
      continue;
    }
    const rel = raw[i + 1]!;
    i += 2;
    if (mode2 === '160000' || (status === 'D' && mode1 === '160000')) {
      const what = status === 'A' ? 'added' : status === 'D' ? 'removed' : 'changed';
      notes.push(`submodule ${rel} ${what}: diff does not read inside submodules`);
      if (!req.allow?.submodules)
        refused.push(`${rel} is a submodule ${what} between ${baseRev} and ${headName}: the diff does not read inside submodules, so instruction files in it would be missed; --allow-submodules compares the rest without it`);
    } else if (status !== 'D') changedRel.push(rel);
  }
  if (refused.length) return { ok: false, message: refused.join('\n') };
  if (!ht) changedRel.push(...nulList(git, ['ls-files', '-z', '--others', '--exclude-standard']));

  const report = compareRevisions(before, after, {
    base: baseRev,
    head: req.head ?? 'working tree',
    changed: changedRel.map((r) => path.join(root, ...r.split('/'))),
    notes,
  });

  // budgets: the head's .claude/context-budget.json (at the repository's root), under the flags
  let fileBudgets: Budgets | undefined;
  const bf = path.join(root, BUDGET_FILE);
  const read = (headFs ?? outside).readFile(bf, 1024 * 1024);
  if (read.ok) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(decodeUtf8(read.value));
    } catch (e) {
      return { ok: false, message: `${BUDGET_FILE}: not valid JSON (${(e as Error).message.split('\n')[0]})` };
    }
    const b = parseBudgetObject(parsed, BUDGET_FILE);
    if (typeof b === 'string') return { ok: false, message: b };
    fileBudgets = b;
  } else if (read.code !== 'ENOENT' && read.code !== 'ENOTDIR') return { ok: false, message: `${BUDGET_FILE}: cannot be read (${read.code})` };
  const budgets = req.budgets ? req.budgets(fileBudgets) : fileBudgets;
  const violations = budgets ? checkBudgets(budgets, report, after) : [];
  return { ok: true, report, before, after, budgets, violations };
}
