// A FileAccess over one git commit, for `claude-layers diff`: the commit's tree (`git ls-tree -r -t
// --long`) answers every path inside the repository's work tree, as if it were checked out there;
// blobs come from `git cat-file --batch` (the instruction-like files up front, in one run; any
// other on first read). A diff's second revision is derived from the first and `git diff-tree`
// (deriveTree), and both share one store of objects (BlobStore). `.git` itself and every path outside the work tree (HOME, ~/.claude, the
// managed folder) go to the real file system (`outside`), so both revisions of a diff share HOME.
// Git is run through an injected `GitRunner` (the Node one is src/cli/git-runner.ts): nothing here
// starts a process. Bounded: a blob larger than the reader's limit is refused from its listed size.
import * as path from 'node:path';
import { byName, ListedDirEntry, type FileAccess, type FsResult, type LinkInfo, type ListedEntry, type StatInfo } from './file-access.js';

export type GitResult = { ok: true; stdout: Uint8Array } | { ok: false; message: string };

/** runs `git ARGS` in the repository (synchronously), `input` on its stdin; at most `maxBytes` of stdout */
export interface GitRunner {
  run(args: readonly string[], input?: string, maxBytes?: number): GitResult;
  /** the same, started in the background: git works while the caller does (diff's runs that wait on nothing) */
  start?(args: readonly string[], input?: string, maxBytes?: number): Promise<GitResult>;
  /** the same, its output handed over piece by piece as git writes it (not kept): the caller works on it while git
   *  goes on; at most `maxBytes` in all */
  stream?(args: readonly string[], onChunk: (chunk: Uint8Array) => void, maxBytes?: number): Promise<{ ok: true } | { ok: false; message: string }>;
  /** git started with its stdin left open: the caller writes its input piece by piece while git works (diff's prefetch,
   *  fed while the base's tree is listed); `end` closes the input and gives all git wrote, at most `maxBytes` */
  open?(args: readonly string[], maxBytes?: number): GitInput;
}

/** the input of a git run started by GitRunner.open */
export interface GitInput {
  write(input: string): void;
  end(): Promise<GitResult>;
}

/** `git ARGS` started in the background where the runner can, else run now */
export function startGit(git: GitRunner, args: readonly string[], input?: string, maxBytes?: number): Promise<GitResult> {
  return git.start ? git.start(args, input, maxBytes) : Promise.resolve(git.run(args, input, maxBytes));
}

export type TreeKind = 'file' | 'dir' | 'symlink' | 'submodule';

/**
 * One entry of a commit's tree, as its folder lists it: the folder's list (GitTree.dirs) holds the entries
 * themselves, so that a listing makes one object per path and no Map by path (a third of a 100,000-file
 * listing's time went to one). A submodule is listed as a folder (`module`).
 */
export class TreeEntry extends ListedDirEntry {
  /** blob size in bytes (0 for folders and submodules); -1 until asked (`ls-tree --long` reads every
   *  object's header: most of the listing's time on a repository of loose objects) */
  size: number;
  readonly module: boolean;
  constructor(
    name: string,
    kind: TreeKind,
    readonly oid: string,
  ) {
    super(name, kind === 'submodule' ? 'dir' : kind);
    this.module = kind === 'submodule';
    this.size = kind === 'file' || kind === 'symlink' ? -1 : 0;
  }
}

export interface GitTree {
  /** the commit, as given and as resolved */
  rev: string;
  commit: string;
  /** root-relative `/`-separated paths ('' is the root folder): a view of `dirs` */
  entries: ReadonlyMap<string, TreeEntry>;
  /** each folder's entries, by root-relative folder path (git's order) */
  dirs: Map<string, TreeEntry[]>;
  /** for a tree derived from another (deriveTree): what `git diff-tree` said differs from it, in its order */
  changes?: { from: GitTree; paths: TreeChange[] };
}

/** one path of `git diff-tree -r -t` between two trees: its modes before and after ('000000': absent) */
export interface TreeChange {
  rel: string;
  oldMode: string;
  newMode: string;
}

/** the most `ls-tree` output held: 512 MiB (a 100,000-file tree lists in about 10 MiB) */
const MAX_LISTING_BYTES = 512 * 1024 * 1024;
/** blobs read up front in one `cat-file --batch` run, at most this many bytes in all */
const MAX_PREFETCH_BYTES = 256 * 1024 * 1024;
/** and none larger than this */
const MAX_PREFETCH_FILE_BYTES = 8 * 1024 * 1024;
/** the prefetch's blobs read without asking their sizes first when their output stays within this */
const ONE_RUN_BYTES = 32 * 1024 * 1024;

/** the commit `rev` names, or undefined (an option-like `rev` is never passed to git as one) */
export function resolveCommit(git: GitRunner, rev: string): string | undefined {
  if (rev.startsWith('-')) return undefined;
  const c = git.run(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], undefined, 4096);
  return (c.ok ? Buffer.from(c.stdout).toString('utf8').trim() : '') || undefined;
}

/** Resolves `rev` to a commit (unless the caller did: `resolved`) and lists its tree; a message saying why when it cannot. */
export function readTree(git: GitRunner, rev: string, resolved?: string, feed?: BlobFeed): { ok: true; tree: GitTree } | { ok: false; message: string } {
  const commit = resolved ?? resolveCommit(git, rev);
  if (commit === undefined) return notARevision(rev);
  const ls = git.run(lsTreeArgs(commit), undefined, MAX_LISTING_BYTES);
  if (!ls.ok) return { ok: false, message: `cannot list the tree of ${rev}: ${ls.message}` };
  const parse = new TreeListing(feed);
  parse.add(Buffer.from(ls.stdout).toString('utf8'));
  return { ok: true, tree: parse.tree(rev, commit) };
}

/** readTree, the listing parsed while git still writes it where the runner streams (`stream`): git's
 *  work and the parse overlap on two cores (and, fed with each file to prefetch as it is parsed, `feed`'s git run too) */
export async function readTreeStreamed(git: GitRunner, rev: string, resolved?: string, feed?: BlobFeed): Promise<{ ok: true; tree: GitTree } | { ok: false; message: string }> {
  if (!git.stream) return readTree(git, rev, resolved, feed);
  const commit = resolved ?? resolveCommit(git, rev);
  if (commit === undefined) return notARevision(rev);
  const parse = new TreeListing(feed);
  // an entry ends in NUL (ASCII), so a chunk cut after its last NUL decodes whole; the rest waits for the next
  let rest: Uint8Array | undefined;
  const r = await git.stream(lsTreeArgs(commit), (chunk) => {
    const buf = rest ? Buffer.concat([rest, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const last = buf.lastIndexOf(0);
    if (last < 0) {
      rest = buf;
      return;
    }
    parse.add(buf.toString('utf8', 0, last + 1));
    rest = last + 1 < buf.length ? buf.subarray(last + 1) : undefined;
  }, MAX_LISTING_BYTES);
  if (!r.ok) return { ok: false, message: `cannot list the tree of ${rev}: ${r.message}` };
  if (rest) parse.add(Buffer.from(rest).toString('utf8'));
  return { ok: true, tree: parse.tree(rev, commit) };
}

const notARevision = (rev: string): { ok: false; message: string } => ({ ok: false, message: rev.startsWith('-') ? `${JSON.stringify(rev)} is not a revision` : `revision ${JSON.stringify(rev)} does not exist in this repository` });
const lsTreeArgs = (commit: string) => ['ls-tree', '-r', '-t', '-z', '--full-tree', commit];

/** `git ls-tree -r -t -z` output, parsed piece by piece (each piece whole entries) into a tree's entries and folders */
class TreeListing {
  private readonly dirs = new Map<string, TreeEntry[]>([['', []]]);
  // the folder the last entry was in: `ls-tree -r -t` lists a folder's entries together (a sub-folder's
  // between them), so most entries find their folder's list without a look-up
  private cur = '';
  private curList = this.dirs.get('')!;
  /** is `cur` .claude or below one (its files are all prefetched) */
  private curDotClaude = false;
  /** handed each file the prefetch reads, as it is parsed */
  constructor(private readonly feed?: BlobFeed) {}

  add(text: string): void {
    const { dirs } = this;
    let at = 0;
    while (at < text.length) {
      let end = text.indexOf('\0', at);
      if (end < 0) end = text.length;
      // `<mode> SP <type> SP <object>\t<path>` (split by hand on the whole text: a regular expression or a
      // string per field cost a third of a 100,000-file listing)
      const tab = text.indexOf('\t', at);
      const s1 = text.indexOf(' ', at);
      const s2 = s1 < 0 ? -1 : text.indexOf(' ', s1 + 1);
      const start = at;
      at = end + 1;
      if (tab < 0 || tab > end || s2 < 0 || s2 > tab || s2 + 1 === tab) continue;
      const t = text.charCodeAt(s1 + 1);
      // blob, tree, commit (a submodule)
      let kind: TreeKind | undefined = t === 98 ? 'file' : t === 116 ? 'dir' : t === 99 ? 'submodule' : undefined;
      if (!kind) continue;
      // mode 120000: a symbolic link
      if (kind === 'file' && text.startsWith('120000 ', start)) kind = 'symlink';
      const rel = text.slice(tab + 1, end);
      const slash = rel.lastIndexOf('/');
      if (slash < 0 ? this.cur !== '' : this.cur.length !== slash || !rel.startsWith(this.cur)) {
        this.cur = slash < 0 ? '' : rel.slice(0, slash);
        let list = dirs.get(this.cur);
        if (!list) dirs.set(this.cur, (list = []));
        this.curList = list;
        this.curDotClaude = inDotClaude(this.cur);
      }
      const e = new TreeEntry(rel.slice(slash + 1), kind, text.slice(s2 + 1, tab));
      this.curList.push(e);
      if (this.feed && prefetchable(e, this.curDotClaude)) this.feed.add(e);
      if (kind === 'dir' || kind === 'submodule') if (!dirs.has(rel)) dirs.set(rel, []);
    }
  }

  tree(rev: string, commit: string): GitTree {
    return { rev, commit, entries: new TreeEntries(this.dirs), dirs: this.dirs };
  }
}

/** a folder's entries by name, made on the first look-up in a long folder (lists are complete by then: a listing
 *  and a derivation change their lists before anyone looks up, and a sort leaves the entries as they are) */
const byNameIn = new WeakMap<readonly TreeEntry[], Map<string, TreeEntry>>();
/** past this many entries a folder's look-ups go through a Map of its names rather than along its list */
const SCAN_AT_MOST = 24;

/** the entry `name` of a folder's list */
function entryIn(list: readonly TreeEntry[], name: string): TreeEntry | undefined {
  if (list.length <= SCAN_AT_MOST) {
    for (const e of list) if (e.name === name) return e;
    return undefined;
  }
  let m = byNameIn.get(list);
  if (!m) byNameIn.set(list, (m = new Map(list.map((e) => [e.name, e]))));
  return m.get(name);
}

/** A tree's entries by root-relative path, read from its folders' lists (no Map of every path). Iterates folder by folder. */
class TreeEntries implements ReadonlyMap<string, TreeEntry> {
  constructor(private readonly dirs: ReadonlyMap<string, readonly TreeEntry[]>) {}
  get size(): number {
    let n = 0;
    for (const list of this.dirs.values()) n += list.length;
    return n;
  }
  get(rel: string): TreeEntry | undefined {
    const slash = rel.lastIndexOf('/');
    const list = this.dirs.get(slash < 0 ? '' : rel.slice(0, slash));
    return list && entryIn(list, slash < 0 ? rel : rel.slice(slash + 1));
  }
  has(rel: string): boolean {
    return this.get(rel) !== undefined;
  }
  *entries(): MapIterator<[string, TreeEntry]> {
    for (const [dir, list] of this.dirs) for (const e of list) yield [dir ? `${dir}/${e.name}` : e.name, e];
  }
  *keys(): MapIterator<string> {
    for (const [rel] of this.entries()) yield rel;
  }
  *values(): MapIterator<TreeEntry> {
    for (const list of this.dirs.values()) yield* list;
  }
  [Symbol.iterator](): MapIterator<[string, TreeEntry]> {
    return this.entries();
  }
  forEach(f: (value: TreeEntry, key: string, map: ReadonlyMap<string, TreeEntry>) => void): void {
    for (const [rel, e] of this.entries()) f(e, rel, this);
  }
}

/** git's order of a folder's entries: by name, bytewise, a folder's (not a submodule's) as if it ended in `/` */
const gitKey = (e: TreeEntry) => Buffer.from(e.kind === 'dir' && !e.module ? `${e.name}/` : e.name);
const gitOrder = (a: TreeEntry, b: TreeEntry) => Buffer.compare(gitKey(a), gitKey(b));

const treeKind = (mode: string): TreeKind => (mode === '040000' ? 'dir' : mode === '160000' ? 'submodule' : mode === '120000' ? 'symlink' : 'file');

/**
 * The tree of `rev` from the tree of `base` and `git diff-tree` between them: what the revisions share is
 * not listed and parsed again (a pull request changes a few files of a large tree). The same entries and
 * folders, in the same order, as readTree(rev) would give; undefined when git cannot say (then readTree).
 */
export function deriveTree(git: GitRunner, base: GitTree, rev: string, resolved?: string): { ok: true; tree: GitTree } | { ok: false; message: string } | undefined {
  const commit = resolved ?? resolveCommit(git, rev);
  if (commit === undefined) return notARevision(rev);
  return treeFromDiff(base, rev, commit, git.run(...diffTreeRun(base.commit, commit)));
}

/** the `git diff-tree` run deriveTree reads (started early by runDiff: it needs only the two commits) */
export function diffTreeRun(base: string, commit: string): [string[], undefined, number] {
  return [['diff-tree', '-r', '-t', '-z', '--no-renames', '--no-commit-id', '--no-ext-diff', base, commit], undefined, MAX_LISTING_BYTES];
}

/** deriveTree from the output of its `git diff-tree` run (diffTreeRun) */
export function treeFromDiff(base: GitTree, rev: string, commit: string, d: GitResult): { ok: true; tree: GitTree } | undefined {
  if (!d.ok) return undefined;
  const dirs = new Map(base.dirs);
  /** folders whose list was copied from the base's (the base's lists are never changed) */
  const copied = new Set<string>();
  const listOf = (parent: string): TreeEntry[] => {
    let list = dirs.get(parent);
    if (!copied.has(parent)) {
      list = list ? list.slice() : [];
      dirs.set(parent, list);
      copied.add(parent);
    }
    return list!;
  };
  const parts = Buffer.from(d.stdout).toString('utf8').split('\0');
  const changes: TreeChange[] = [];
  // `:<old mode> <new mode> <old oid> <new oid> <status>` NUL `<path>` NUL
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const head = parts[i]!;
    const rel = parts[i + 1]!;
    if (!head.startsWith(':')) return undefined;
    const [oldMode, newMode, oldOid, newOid, status] = head.slice(1).split(' ');
    if (!oldMode || !newMode || !oldOid || !newOid || !status) return undefined;
    const slash = rel.lastIndexOf('/');
    const parent = slash < 0 ? '' : rel.slice(0, slash);
    const name = rel.slice(slash + 1);
    const list = listOf(parent);
    changes.push({ rel, oldMode, newMode });
    // the old entry goes (a folder replaced by a file of its name may come in either order: only the old one)
    if (oldMode !== '000000') {
      const oldKind = treeKind(oldMode);
      const at = list.findIndex((e) => e.name === name && e.oid === oldOid && (e.module ? 'submodule' : e.kind) === oldKind);
      if (at >= 0) list.splice(at, 1);
    }
    if (newMode === '000000') continue;
    const e = new TreeEntry(name, treeKind(newMode), newOid);
    list.push(e);
    if (e.kind === 'dir' && !dirs.has(rel)) dirs.set(rel, []);
  }
  const entries = new TreeEntries(dirs);
  for (const p of copied) {
    // a folder removed (its files' records copied its list back) or no longer a folder
    if (p !== '' && entries.get(p)?.kind !== 'dir') dirs.delete(p);
    else dirs.get(p)!.sort(gitOrder);
  }
  return { ok: true, tree: { rev, commit, entries, dirs, changes: { from: base, paths: changes } } };
}

/** instruction files, settings, .gitignore and .mcp.json: read by every analysis */
export function instructionLike(rel: string): boolean {
  const slash = rel.lastIndexOf('/');
  return instructionName(rel.slice(slash + 1)) || (slash > 0 && inDotClaude(rel.slice(0, slash)));
}
const instructionName = (name: string) => name === 'CLAUDE.md' || name === 'CLAUDE.local.md' || name === 'AGENTS.md' || name === '.gitignore' || name === '.mcp.json';
/** is the folder (root-relative) `.claude` or below one? */
const inDotClaude = (dir: string) => dir === '.claude' || dir.startsWith('.claude/') || dir.endsWith('/.claude') || dir.includes('/.claude/');

/** Sizes of objects in one `git cat-file --batch-check` run: oid → bytes. */
export function blobSizes(git: GitRunner, oids: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  if (!oids.length) return out;
  const r = git.run(['cat-file', '--batch-check'], oids.join('\n') + '\n', oids.length * 128 + 4096);
  if (!r.ok) return out;
  for (const line of Buffer.from(r.stdout).toString('latin1').split('\n')) {
    const [oid, type, size] = line.split(' ');
    if (oid && type && type !== 'missing' && size !== undefined) out.set(oid, Number(size));
  }
  return out;
}

/** Reads blobs in one `git cat-file --batch` run: oid → bytes. */
export function readBlobs(git: GitRunner, oids: readonly string[]): Map<string, Uint8Array> {
  return readBlobsWithin(git, oids, MAX_PREFETCH_BYTES + oids.length * 64) ?? new Map<string, Uint8Array>();
}

/** readBlobs, undefined when the run fails (its output over `maxBytes`, among others) */
function readBlobsWithin(git: GitRunner, oids: readonly string[], maxBytes: number): Map<string, Uint8Array> | undefined {
  if (!oids.length) return new Map<string, Uint8Array>();
  const r = git.run(['cat-file', '--batch'], oids.join('\n') + '\n', maxBytes);
  return r.ok ? parseBatch(r.stdout) : undefined;
}

/** `git cat-file --batch` output: oid → bytes (missing objects left out) */
function parseBatch(buf: Uint8Array): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  let at = 0;
  while (at < buf.length) {
    let nl = at;
    while (nl < buf.length && buf[nl] !== 10) nl++;
    const head = Buffer.from(buf.subarray(at, nl)).toString('latin1').split(' ');
    at = nl + 1;
    if (head[1] === 'missing' || head.length < 3) continue;
    const size = Number(head[2]);
    out.set(head[0]!, buf.subarray(at, at + size));
    at += size + 1;
  }
  return out;
}

export interface GitTreeAccessOptions {
  /** the work tree's root (absolute, real path): the tree's paths are answered below it */
  root: string;
  /** paths outside the tree, and `.git` */
  outside: FileAccess;
  /** personal files that git does not hold (CLAUDE.local.md, .claude/settings.local.json) are read
   *  from `outside` when the tree lacks them, so that both sides of a diff see the same ones */
  personalFromDisk?: boolean;
  /** blobs and sizes already read from the same repository (the other side of a diff): an object id names one
   *  content, so a file the two revisions share is read from git once */
  store?: BlobStore;
  /** the caller has run prefetchBlobs for this tree into `store` already (diff does it for both revisions at once) */
  prefetched?: boolean;
}

/** objects read from git, by id: shared by the FileAccesses of one repository's revisions */
export interface BlobStore {
  blobs: Map<string, Uint8Array>;
  sizes: Map<string, number>;
  /** whether a personal file (CLAUDE.local.md, settings.local.json) is on disk, by root-relative path: asked once
   *  per folder for both revisions */
  personal: Map<string, boolean>;
}

export function blobStore(): BlobStore {
  return { blobs: new Map(), sizes: new Map(), personal: new Map() };
}

const PERSONAL = new Set(['CLAUDE.local.md', 'settings.local.json']);
const GIT_DIR = new ListedDirEntry('.git', 'dir');

const noEntry = <T>(what: string, p: string): FsResult<T> => ({ ok: false, code: 'ENOENT', message: `ENOENT: no such file or directory, ${what} '${p}' (in the commit)` });

/**
 * The instruction-like and Markdown files of `trees`, into `store` up front: in one `cat-file --batch` run
 * when they come to at most 32 MiB, else their sizes in one `--batch-check` run, then those within bounds
 * in one `--batch` run (what the store holds is not asked again: the revisions of a diff share it).
 * Returns the number of `--batch` runs that read (0 or 1).
 */
export function prefetchBlobs(git: GitRunner, trees: readonly GitTree[], store: BlobStore): number {
  const plan = prefetchPlan(trees, store);
  return prefetchRest(git, plan, store, readBlobsWithin(git, plan.unknown, ONE_RUN_BYTES));
}

/**
 * The prefetch of a diff, fed while the base's tree is listed: each instruction-like or Markdown file's object asked
 * of one `git cat-file --batch` as the listing names it (TreeListing hands them over), so that git reads them while
 * the listing goes on (where the runner can: `open`), then the derived head's changed files; `done` closes the run and
 * puts what it read into the store as prefetchBlobs does (sizes first when the one run is refused).
 */
export interface BlobFeed {
  add(e: TreeEntry): void;
  /** the files to prefetch among a derived tree's changed paths (a tree listed whole: every one of them) */
  addTree(tree: GitTree): void;
  /** the number of `--batch` runs that read (0 or 1) */
  done(): Promise<number>;
}

/** oids written to git at a time (one write per so many, not one per file) */
const FEED_BATCH = 64;

export function blobFeed(git: GitRunner, store: BlobStore): BlobFeed {
  const candidates: TreeEntry[] = [];
  const asked = new Set<string>();
  let pending: string[] = [];
  let run: GitInput | undefined;
  const flush = () => {
    if (!pending.length || !git.open) return;
    (run ??= git.open(['cat-file', '--batch', '--buffer'], ONE_RUN_BYTES)).write(pending.join('\n') + '\n');
    pending = [];
  };
  const add = (e: TreeEntry) => {
    candidates.push(e);
    if (store.sizes.has(e.oid) || asked.has(e.oid)) return;
    asked.add(e.oid);
    pending.push(e.oid);
    if (pending.length >= FEED_BATCH) flush();
  };
  return {
    add,
    addTree(tree) {
      if (tree.changes) changedPrefetchable(tree, add);
      else allPrefetchable(tree, add);
    },
    async done() {
      flush();
      const unknown = [...asked];
      const r = run ? await run.end() : unknown.length ? await startGit(git, ['cat-file', '--batch'], unknown.join('\n') + '\n', ONE_RUN_BYTES) : undefined;
      return prefetchRest(git, { candidates, unknown }, store, r === undefined ? new Map() : r.ok ? parseBatch(r.stdout) : undefined);
    },
  };
}

/** does the prefetch read this entry (of a folder that is `.claude` or below one: `dotClaude`)? */
const prefetchable = (e: TreeEntry, dotClaude: boolean) => (e.kind === 'file' || e.kind === 'symlink') && (dotClaude || instructionName(e.name) || e.name.endsWith('.md'));

/** every entry of the tree to prefetch */
function allPrefetchable(tree: GitTree, add: (e: TreeEntry) => void): void {
  for (const [dir, list] of tree.dirs) {
    const dotClaude = inDotClaude(dir);
    for (const e of list) if (prefetchable(e, dotClaude)) add(e);
  }
}

/** the entries to prefetch among a derived tree's changed paths */
function changedPrefetchable(tree: GitTree, add: (e: TreeEntry) => void): void {
  for (const c of tree.changes?.paths ?? []) {
    const e = tree.entries.get(c.rel);
    const slash = c.rel.lastIndexOf('/');
    if (e && prefetchable(e, slash > 0 && inDotClaude(c.rel.slice(0, slash)))) add(e);
  }
}

interface PrefetchPlan {
  /** every instruction-like or Markdown file of the trees */
  candidates: TreeEntry[];
  /** their objects not in the store yet */
  unknown: string[];
}

/** the objects of `entries` not in the store yet, each once */
const unknownOids = (entries: readonly TreeEntry[], store: BlobStore): string[] => [...new Set(entries.filter((e) => !store.sizes.has(e.oid)).map((e) => e.oid))];

/** the instruction-like and Markdown files of the trees, and their objects not in the store yet */
function prefetchPlan(trees: readonly GitTree[], store: BlobStore): PrefetchPlan {
  const candidates: TreeEntry[] = [];
  const add = (e: TreeEntry) => void candidates.push(e);
  for (const tree of trees) {
    // a tree derived from one listed here shares its entries but for the changed paths
    if (tree.changes && trees.includes(tree.changes.from)) changedPrefetchable(tree, add);
    else allPrefetchable(tree, add);
  }
  return { candidates, unknown: unknownOids(candidates, store) };
}

/** the prefetch's blobs into the store from its one run (`all`); when that run failed (most repositories' instruction
 *  and Markdown files are a few MiB in all; past ONE_RUN_BYTES), their sizes first and only those within bounds */
function prefetchRest(git: GitRunner, plan: PrefetchPlan, store: BlobStore, all: Map<string, Uint8Array> | undefined): number {
  const { candidates, unknown } = plan;
  if (all) {
    for (const [k, v] of all) {
      store.sizes.set(k, v.length);
      if (v.length <= MAX_PREFETCH_FILE_BYTES) store.blobs.set(k, v);
    }
    for (const e of candidates) e.size = store.sizes.get(e.oid) ?? -1;
    return unknown.length ? 1 : 0;
  }
  for (const [k, v] of blobSizes(git, unknown)) store.sizes.set(k, v);
  const want = new Set<string>();
  let bytes = 0;
  for (const e of candidates) {
    e.size = store.sizes.get(e.oid) ?? -1;
    if (e.size >= 0 && !store.blobs.has(e.oid) && !want.has(e.oid) && bytes + e.size <= MAX_PREFETCH_BYTES && e.size <= MAX_PREFETCH_FILE_BYTES) {
      want.add(e.oid);
      bytes += e.size;
    }
  }
  for (const [k, v] of readBlobs(git, [...want])) store.blobs.set(k, v);
  return want.size ? 1 : 0;
}

/** does the tree hold a symbolic link? (a derived tree: one of its changes, or its base's answer, remembered, and a look) */
const linksOf = new WeakMap<GitTree, boolean>();
function hasLinks(tree: GitTree): boolean {
  let v = linksOf.get(tree);
  if (v === undefined) {
    const changes = tree.changes;
    const added = !!changes?.paths.some((c) => c.newMode === '120000');
    if (changes && (added || !hasLinks(changes.from))) v = added;
    else {
      v = false;
      for (const e of tree.entries.values())
        if (e.kind === 'symlink') {
          v = true;
          break;
        }
    }
    linksOf.set(tree, v);
  }
  return v;
}

/** A FileAccess that shows `tree` checked out at `root`. */
export function gitTreeFileAccess(git: GitRunner, tree: GitTree, o: GitTreeAccessOptions): FileAccess & { blobsRead: () => number; sizesAsked: () => number } {
  const root = o.root;
  const store = o.store ?? blobStore();
  const blobs = store.blobs;
  let read = o.prefetched ? 0 : prefetchBlobs(git, [tree], store);
  let sizeAsked = 0;
  /** a blob's size, asked of git once when the listing did not say */
  const sizeOf = (e: TreeEntry): number => {
    if (e.size < 0) {
      const known = store.sizes.get(e.oid);
      if (known === undefined) {
        e.size = blobSizes(git, [e.oid]).get(e.oid) ?? 0;
        store.sizes.set(e.oid, e.size);
        sizeAsked++;
      } else e.size = known;
    }
    return e.size;
  };

  const blob = (oid: string): Uint8Array | undefined => {
    let b = blobs.get(oid);
    if (b === undefined) {
      b = readBlobs(git, [oid]).get(oid);
      read++;
      if (b !== undefined) blobs.set(oid, b);
    }
    return b;
  };

  const below = root.endsWith(path.sep) ? root : root + path.sep;
  /** a path with nothing to normalize (no `.`/`..` segment, no doubled or trailing separator) */
  const needsNormal = path.sep === '/' ? /\/\.{1,2}(\/|$)|\/\/|\/$/ : /[\\/]\.{1,2}([\\/]|$)|[\\/][\\/]|[\\/]$|\//;
  /** root-relative path, or undefined when `p` is outside the tree (or in `.git`) */
  const relOf = (p: string): string | undefined => {
    // the common case without path.resolve/relative: a normal absolute path below the root
    if (p.startsWith(below) && !needsNormal.test(p)) {
      const rel = path.sep === '/' ? p.slice(below.length) : p.slice(below.length).split(path.sep).join('/');
      return rel === '.git' || rel.startsWith('.git/') ? undefined : rel;
    }
    const abs = path.resolve(p);
    if (abs === root) return '';
    const rel = path.relative(root, abs);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    const posix = rel.split(path.sep).join('/');
    if (posix === '.git' || posix.startsWith('.git/')) return undefined;
    return posix;
  };
  const personal = (rel: string) => o.personalFromDisk !== false && PERSONAL.has(rel.slice(rel.lastIndexOf('/') + 1));

  /** a tree without symbolic links (most): a path is its own entry, no walk through its folders */
  const links = hasLinks(tree);
  const rootEntry = new TreeEntry('', 'dir', '');

  /** follows symbolic links inside the tree (40 hops); undefined when the link leads outside or nowhere */
  const resolve = (rel: string, hops = 0): { rel: string; e: TreeEntry | undefined } | 'outside' => {
    if (!links) return { rel, e: rel === '' ? rootEntry : tree.entries.get(rel) };
    const parts = rel === '' ? [] : rel.split('/');
    let cur = '';
    for (let i = 0; i < parts.length; i++) {
      const next = cur ? `${cur}/${parts[i]}` : parts[i]!;
      const e = tree.entries.get(next);
      if (e?.kind === 'symlink') {
        if (hops >= 40) return { rel: next, e: undefined };
        const target = blob(e.oid);
        if (!target) return { rel: next, e: undefined };
        const t = Buffer.from(target).toString('utf8');
        const abs = path.resolve(root, cur.split('/').join(path.sep), t, ...parts.slice(i + 1));
        const r = relOf(abs);
        return r === undefined ? 'outside' : resolve(r, hops + 1);
      }
      cur = next;
    }
    return { rel: cur, e: cur === '' ? rootEntry : tree.entries.get(cur) };
  };

  const statOf = (e: TreeEntry): StatInfo => ({ kind: e.kind === 'file' ? 'file' : 'dir', size: e.kind === 'file' ? sizeOf(e) : 0, mtimeMs: 0 });

  const fa: FileAccess & { blobsRead: () => number; sizesAsked: () => number } = {
    blobsRead: () => read,
    sizesAsked: () => sizeAsked,
    stat(p) {
      const rel = relOf(p);
      if (rel === undefined) return o.outside.stat(p);
      const r = resolve(rel);
      if (r === 'outside') return o.outside.stat(p);
      if (!r.e) return personal(rel) ? o.outside.stat(p) : noEntry('stat', p);
      return { ok: true, value: statOf(r.e) };
    },
    lstat(p) {
      const rel = relOf(p);
      if (rel === undefined) return o.outside.lstat(p);
      if (rel === '') return { ok: true, value: { kind: 'dir', size: 0, mtimeMs: 0, isSymlink: false } };
      const slash = rel.lastIndexOf('/');
      const parent = resolve(slash < 0 ? '' : rel.slice(0, slash));
      if (parent === 'outside') return o.outside.lstat(p);
      const e = parent.e ? tree.entries.get(parent.rel ? `${parent.rel}/${rel.slice(slash + 1)}` : rel.slice(slash + 1)) : undefined;
      if (!e) return personal(rel) ? o.outside.lstat(p) : noEntry('lstat', p);
      const v: LinkInfo = e.kind === 'symlink' ? { kind: 'other', size: sizeOf(e), mtimeMs: 0, isSymlink: true } : { ...statOf(e), isSymlink: false };
      return { ok: true, value: v };
    },
    readDir(p) {
      const rel = relOf(p);
      if (rel === undefined) return o.outside.readDir(p);
      const r = resolve(rel);
      if (r === 'outside') return o.outside.readDir(p);
      if (!r.e) return noEntry('scandir', p);
      if (r.e.kind === 'file') return { ok: false, code: 'ENOTDIR', message: `ENOTDIR: not a directory, scandir '${p}'` };
      const list: ListedDirEntry[] = (tree.dirs.get(r.rel) ?? []).slice();
      if (rel === '') list.push(GIT_DIR);
      // the personal files on disk that git does not hold, listed as the working tree lists them
      if (o.personalFromDisk !== false)
        for (const name of PERSONAL) {
          if ((name === 'settings.local.json') !== (r.rel === '.claude' || r.rel.endsWith('/.claude'))) continue;
          if (list.some((e) => e.name === name)) continue;
          // by the path asked (root-relative, normal: one per place on disk)
          const key = rel ? `${rel}/${name}` : name;
          let onDisk = store.personal.get(key);
          if (onDisk === undefined) {
            const st = o.outside.lstat(path.join(p, name));
            store.personal.set(key, (onDisk = st.ok && st.value.kind === 'file' && !st.value.isSymlink));
          }
          if (onDisk) list.push(new ListedDirEntry(name, 'file'));
        }
      return { ok: true, value: list };
    },
    list(p): FsResult<readonly ListedEntry[]> {
      const r = fa.readDir(p);
      if (!r.ok) return r;
      // readDir's list is a copy of the tree's, its entries ListedDirEntry: sorted in place, when git's order is not the code units'
      const v = r.value as ListedDirEntry[];
      for (let i = 1; i < v.length; i++)
        if (v[i - 1]!.name > v[i]!.name) {
          v.sort(byName);
          break;
        }
      return { ok: true, value: v };
    },
    readFile(p, maxBytes) {
      const rel = relOf(p);
      if (rel === undefined) return o.outside.readFile(p, maxBytes);
      const r = resolve(rel);
      if (r === 'outside') return o.outside.readFile(p, maxBytes);
      if (!r.e) return personal(rel) ? o.outside.readFile(p, maxBytes) : noEntry('open', p);
      if (r.e.kind !== 'file') return { ok: false, code: 'EISDIR', message: 'not a regular file' };
      if (sizeOf(r.e) > maxBytes) return { ok: false, code: 'EFBIG', message: `file is ${r.e.size} bytes` };
      const b = blob(r.e.oid);
      return b ? { ok: true, value: b } : { ok: false, code: 'EIO', message: `cannot read ${r.e.oid} from git` };
    },
    realpath(p) {
      const rel = relOf(p);
      if (rel === undefined) return o.outside.realpath(p);
      const r = resolve(rel);
      if (r === 'outside') return o.outside.realpath(p);
      if (!r.e) return personal(rel) ? o.outside.realpath(p) : noEntry('realpath', p);
      return { ok: true, value: r.rel === '' ? root : path.join(root, ...r.rel.split('/')) };
    },
  };
  return fa;
}
