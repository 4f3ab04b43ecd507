// A workspace index: one crawl of the launch directory that keeps every folder's listing in memory
// as a tree, honours .gitignore files (every level, plus .git/info/exclude) and VS Code's
// `files.exclude`, and is then kept current from file-system events in O(depth) per event.
// Folders that are git-ignored are not entered (which makes the crawl about as fast as a raw walk),
// except `.claude` folders and everything inside them, which Claude Code reads whatever .gitignore
// says: there, what .gitignore excludes is crawled but kept out of `tree` (recorded as hidden).
//
// What it serves:
// - hover counts and lists for `paths:` patterns (glob-count.ts over `tree`: no disk, no per-path
//   `ignore` calls): `count`, `matches`, or glob-count on `node(dir)`;
// - the instruction files of the workspace (CLAUDE.md, CLAUDE.local.md, .claude/CLAUDE.md,
//   .claude/rules/**.md, .claude/skills/*/SKILL.md, AGENTS.md), for the sidebar and lint;
// - a FileAccess for the engine's snapshot to sit on (`indexedFileAccess`): what the crawl listed is
//   answered from memory ("no such file", folders, real paths, raw-order `.claude` listings), the
//   instruction files and what they include are read once up front (`prefetch`), and the folders
//   the crawl skipped are listed on first use or up front (`prelistIgnored`). Lazy injection is
//   computed for any path, as Claude Code does, git-ignored ones included.
//
// Git-ignored *files* in crawled folders are kept out of `tree` but still recorded as instruction
// files when they are ones (CLAUDE.local.md usually is git-ignored, and Claude Code loads it).
import * as path from 'node:path';
import picomatch from 'picomatch';
import { decodeUtf8, hasTextExtension, processInstructionText } from '../instructions/content.js';
import { listed, listEntries, nodeFileAccess, type DirEntry, type FileAccess, type FsResult, type ListedEntry, type StatInfo } from './file-access.js';
import { childState, compilePatterns, countMatches, DirNode, entryState, listMatches, rootState, type CompiledPatterns, type FolderState } from '../globs/glob-count.js';

export interface WorkspaceIndexOptions {
  /** honour .gitignore files and .git/info/exclude (default true) */
  gitignore?: boolean;
  /** VS Code `files.exclude` globs whose value is true, relative to the root (picomatch, dot: true) */
  exclude?: string[];
  /** folder names never entered (default: `.git`) */
  skipDirs?: string[];
  /** stop after this many files (default 1,000,000); `truncated` then tells */
  maxFiles?: number;
  /**
   * stop the crawl when `now()` passes this time (ms); `truncated` and `stoppedAt` then tell. A
   * crawl of `/` listed every folder of the machine for minutes before.
   */
  deadline?: number;
  /** the clock for `deadline` (default Date.now; tests give a fake one) */
  now?: () => number;
  /** the disk, as the engine reaches it (default nodeFileAccess, whose fast listing `list` the crawl uses) */
  fs?: FileAccess;
}

export type InstructionKind = 'claude-md' | 'dot-claude-md' | 'local' | 'rule' | 'skill' | 'agents-md';

export interface IndexChange {
  type: 'created' | 'changed' | 'deleted';
  /** absolute path */
  path: string;
}

/** a path of diff's head that differs from the base (WorkspaceIndex.derive): what it was and what it is */
export interface DerivedChange {
  /** absolute */
  path: string;
  before: 'dir' | 'file' | 'symlink' | 'absent';
  after: 'dir' | 'file' | 'symlink' | 'absent';
}

export interface ApplyResult {
  /** an instruction file (or a folder holding some) was created, changed or deleted */
  instructions: boolean;
  /** a .gitignore changed: the folder it governs was crawled again */
  recrawled: boolean;
  /** the file list changed (hover counts must be recomputed) */
  files: boolean;
}

interface Frame {
  /** folder of the .gitignore, relative to the root ('' for the root) */
  base: string;
  compiled: CompiledPatterns;
}

/** the frames above a folder, with each frame's state for that folder */
interface Ctx {
  frames: Frame[];
  states: FolderState[];
}

/** a folder's root-relative prefix (`dir/`, or '' at the root) relative to each frame's folder */
function framePrefixes(ctx: Ctx, pre: string): string[] {
  return ctx.frames.map((f) => (f.base ? pre.slice(f.base.length + 1) : pre));
}

/** a folder waiting in the crawl's stack */
interface CrawlItem {
  node: DirNode;
  /** root-relative, `/`-separated */
  rel: string;
  ctx: Ctx;
  inClaude: boolean;
  ignoredAll: boolean;
}

function enter(ctx: Ctx, name: string): Ctx {
  return { frames: ctx.frames, states: ctx.frames.map((f, i) => childState(f.compiled, ctx.states[i]!, name)) };
}

interface Meta {
  /** the folder's .gitignore, compiled, when it has one */
  gitignore?: CompiledPatterns;
  /** names of entries the crawl saw but left out of the tree: ignored folders and files, symlinks, others */
  hidden?: Map<string, 'dir' | 'file' | 'symlink' | 'other'>;
  /** for folders in .claude: the listing in the file system's own order (rules load in that order) */
  raw?: DirEntry[];
  /** the folder's file names as a set, built on demand for large folders */
  fileSet?: Set<string>;
  /** entries of the tree's file list that are symbolic links (git lists them as files) */
  links?: Set<string>;
  /** a folder inside `.claude` that .gitignore or files.exclude excludes (or one inside such a folder): crawled, every entry hidden */
  ignoredAll?: boolean;
}

/** what the index knows about a path */
export type Lookup =
  | { kind: 'dir'; rel: string; node?: DirNode }
  | { kind: 'file'; rel: string }
  | { kind: 'absent'; code: 'ENOENT' | 'ENOTDIR' }
  | { kind: 'unknown' };

const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

const INSTRUCTION_NAMES: Record<string, InstructionKind> = { 'CLAUDE.md': 'claude-md', 'CLAUDE.local.md': 'local', 'AGENTS.md': 'agents-md' };

/** what kind of instruction file a root-relative path is, if any */
export function instructionKind(rel: string): InstructionKind | undefined {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  const parts = rel.split('/');
  const ci = parts.lastIndexOf('.claude');
  if (ci >= 0) {
    const below = parts.slice(ci + 1);
    if (below.length === 1 && below[0] === 'CLAUDE.md') return 'dot-claude-md';
    if (below[0] === 'rules' && below.length >= 2 && name.endsWith('.md')) return 'rule';
    if (below[0] === 'skills' && below.length === 3 && name === 'SKILL.md') return 'skill';
    if (below.length === 1 && name === 'AGENTS.md') return 'agents-md';
    return undefined;
  }
  return INSTRUCTION_NAMES[name];
}

/** a .gitignore or .git/info/exclude, when it is a file of at most 1 MiB */
function readText(fa: FileAccess, p: string): string | undefined {
  const r = fa.readFile(p, MAX_IGNORE_FILE_BYTES);
  return r.ok ? decodeUtf8(r.value) : undefined;
}

/** set `total` of every folder below `d` from its files; returns d's total */
function sumTotals(d: DirNode): number {
  let n = d.files.length;
  for (const c of d.dirs) n += sumTotals(c);
  d.total = n;
  return n;
}

/** `.` or `..` segments, doubled or trailing separators: not a normalized path */
const NOT_NORMAL = /\/\.{1,2}(?:\/|$)|\/\/|.\/$/;

function gitignoreLines(text: string): string[] {
  const t = text.endsWith('\r') ? text.slice(0, -1) : text;
  return t.split(/\r?\n/).filter(Boolean);
}

export class WorkspaceIndex {
  readonly root: string;
  /** the files that count for hovers and lists: not git-ignored, not excluded */
  tree: DirNode;
  /** instruction files (absolute path -> kind), including git-ignored ones in crawled folders */
  readonly instructions = new Map<string, { kind: InstructionKind; ignored: boolean }>();
  truncated = false;
  /** when the crawl stopped at its deadline: the folder it was about to list, and how many were left */
  stoppedAt?: { folder: string; pending: number };
  /** when the file cap was reached: the first file left out */
  firstLeftOut?: string;
  /** folders listed by the crawl (for statistics) */
  dirsListed = 0;
  /** folders the crawl could not list (no permission), absolute */
  readonly unreadableDirs: string[] = [];
  /** the disk the index was crawled through */
  readonly fs: FileAccess;
  /** bumped by every `apply`: what was worked out from the tree before (its names: glob-check.ts) is stale */
  generation = 0;
  /**
   * derive's: the index this one was made from (at that one's generation) and the paths that differ, root-relative;
   * every name of this tree is that one's or a segment of those paths. Undefined for a crawled index, for one where a
   * .gitignore changed (folders listed again), and once this one is changed.
   */
  derivedFrom?: { index: WorkspaceIndex; generation: number; changed: readonly string[] };

  private readonly meta = new Map<DirNode, Meta>();
  private readonly opts: Required<Omit<WorkspaceIndexOptions, 'exclude' | 'deadline' | 'now' | 'fs'>> & { exclude?: (rel: string) => boolean; deadline?: number; now: () => number };
  private files = 0;

  private constructor(root: string, options: WorkspaceIndexOptions, like?: WorkspaceIndex) {
    this.root = path.resolve(root);
    this.tree = new DirNode('', undefined);
    this.fs = options.fs ?? nodeFileAccess;
    const ex = options.exclude?.filter(Boolean) ?? [];
    this.opts = like?.opts ?? {
      gitignore: options.gitignore ?? true,
      skipDirs: options.skipDirs ?? ['.git'],
      maxFiles: options.maxFiles ?? 1_000_000,
      exclude: ex.length ? picomatch(ex, { dot: true }) : undefined,
      deadline: options.deadline,
      now: options.now ?? Date.now,
    };
  }

  /** Crawl `root` (synchronously) and build the index. */
  static build(root: string, options: WorkspaceIndexOptions = {}): WorkspaceIndex {
    const ix = new WorkspaceIndex(root, options);
    ix.crawl(ix.tree, ix.rootCtx(), false);
    return ix;
  }

  get fileCount(): number {
    return this.tree.total;
  }

  private rootCtx(): Ctx {
    const none: Ctx = { frames: [], states: [] };
    if (!this.opts.gitignore) return none;
    const exclude = readText(this.fs, path.join(this.root, '.git', 'info', 'exclude'));
    if (exclude === undefined) return none;
    const lines = gitignoreLines(exclude);
    if (!lines.length) return none;
    const compiled = compilePatterns(lines, { ignoreCase: false, dotDotGuard: false });
    return { frames: [{ base: '', compiled }], states: [rootState(compiled)] };
  }

  /** the absolute path of a root-relative one (rels of the index are normal: no path.join needed) */
  abs(rel: string): string {
    if (!rel) return this.root;
    return (this.root.endsWith(path.sep) ? this.root : this.root + path.sep) + (path.sep === '/' ? rel : rel.split('/').join(path.sep));
  }

  /** root-relative, `/`-separated; undefined outside the root */
  rel(abs: string): string | undefined {
    // the common case without path.relative: a normalized path below the root (POSIX)
    if (path.sep === '/' && abs.startsWith(this.root)) {
      if (abs.length === this.root.length) return '';
      if (abs[this.root.length] === '/' && !NOT_NORMAL.test(abs)) return abs.slice(this.root.length === 1 ? 1 : this.root.length + 1);
    }
    const r = path.relative(this.root, abs);
    if (r.startsWith('..') || path.isAbsolute(r)) return undefined;
    return r.split(path.sep).join('/');
  }

  /** is an entry (root-relative `rel`, in a folder with context `ctx`) excluded by .gitignore files or files.exclude? */
  private excluded(ctx: Ctx, rel: string, name: string, isDir: boolean): boolean {
    const pre = rel.slice(0, rel.length - name.length);
    return this.excludedIn(ctx, framePrefixes(ctx, pre), pre, name, isDir);
  }

  /**
   * excluded(), for an entry `name` of the folder whose root-relative prefix is `pre` (`dir/` or '')
   * and whose prefix relative to each frame's folder is `pres[i]` (framePrefixes): the crawl
   * computes those once per folder, not once per entry
   */
  private excludedIn(ctx: Ctx, pres: readonly string[], pre: string, name: string, isDir: boolean): boolean {
    if (this.opts.exclude?.(pre + name)) return true;
    const { frames, states } = ctx;
    for (let i = frames.length - 1; i >= 0; i--) {
      const v = entryState(frames[i]!.compiled, pres[i]!, name, isDir, states[i]!);
      if (v !== 0) return v === 1;
    }
    return false;
  }

  /**
   * crawl folder `node` (already in the tree); `ctx` holds the .gitignore lists above it and their
   * states; `ignoredAll`: the folder is excluded (possible only inside `.claude`, which is crawled anyway)
   */
  private crawl(node: DirNode, ctx: Ctx, ignoredAll: boolean): void {
    const start = node.rel;
    const stack: CrawlItem[] = [{ node, rel: start, ctx, inClaude: start.split('/').includes('.claude'), ignoredAll }];
    const deadline = this.opts.deadline;
    let visits = 0;
    while (stack.length) {
      const item = stack.pop()!;
      if (deadline !== undefined && (visits++ & 63) === 0 && this.opts.now() > deadline) {
        this.truncated = true;
        this.stoppedAt = { folder: this.abs(item.rel), pending: stack.length + 1 };
        break;
      }
      this.listFolder(item, stack);
    }
    // file totals, bottom-up, for the folders just crawled (and their ancestors)
    const before = node.total;
    const after = sumTotals(node);
    for (let x = node.parent; x; x = x.parent) x.total += after - before;
  }

  /**
   * list one folder of the crawl into the tree, its sub-folders to crawl onto `stack` (a method of
   * its own, small enough for V8 to optimize early in a short run)
   */
  private listFolder(item: CrawlItem, stack: CrawlItem[]): void {
    const { node: d, rel, ctx: above, inClaude, ignoredAll: allHidden } = item;
    const absDir = this.abs(rel);
    // its entries' absolute paths start so (the root `/` ends in the separator already)
    const under = absDir.endsWith(path.sep) ? absDir : absDir + path.sep;
    // in .claude, the file system's own order (rules load in it); elsewhere the fast listing
    let raw: DirEntry[] | undefined;
    let ents: readonly ListedEntry[];
    const r = inClaude ? this.fs.readDir(absDir) : listEntries(this.fs, absDir);
    if (!r.ok) {
      if (r.code === 'EACCES' || r.code === 'EPERM') this.unreadableDirs.push(absDir);
      return;
    }
    if (inClaude) {
      raw = r.value as DirEntry[];
      ents = raw.map(listed);
    } else ents = r.value as readonly ListedEntry[];
    this.dirsListed++;
    const meta: Meta = {};
    this.meta.set(d, meta);
    if (allHidden) meta.ignoredAll = true;
    if (raw) meta.raw = raw;
    let here = above;
    if (this.opts.gitignore && !allHidden) {
      for (const e of ents) {
        if (e.name !== '.gitignore' || e.isDirectory()) continue;
        const text = readText(this.fs, under + '.gitignore');
        const lines = text ? gitignoreLines(text) : [];
        if (lines.length) {
          const compiled = compilePatterns(lines, { ignoreCase: false, dotDotGuard: false });
          meta.gitignore = compiled;
          here = { frames: [...above.frames, { base: rel, compiled }], states: [...above.states, rootState(compiled)] };
        }
        break;
      }
    }
    const pre = rel ? `${rel}/` : '';
    // the folder's prefix relative to each .gitignore's folder, once for all its entries
    const pres = allHidden ? [] : framePrefixes(here, pre);
    const skipDirs = this.opts.skipDirs;
    for (const e of ents) {
      const name = e.name;
      if (e.isDirectory()) {
        if (skipDirs.includes(name)) {
          (meta.hidden ??= new Map()).set(name, 'dir');
          continue;
        }
        const dotClaude = name === '.claude';
        const ex = allHidden || this.excludedIn(here, pres, pre, name, true);
        if (ex && !dotClaude && !inClaude) {
          (meta.hidden ??= new Map()).set(name, 'dir');
          continue;
        }
        stack.push({ node: d.ensureDir(name), rel: pre + name, ctx: here.frames.length && !ex ? enter(here, name) : here, inClaude: inClaude || dotClaude, ignoredAll: ex });
      } else {
        const kind = e.isFile() ? 'file' : e.isSymbolicLink() ? 'symlink' : 'other';
        const ignored = allHidden || this.excludedIn(here, pres, pre, name, false);
        if (inClaude || name in INSTRUCTION_NAMES) {
          const ik = instructionKind(pre + name);
          if (ik) this.instructions.set(under + name, { kind: ik, ignored });
        }
        if (ignored || kind === 'other') {
          (meta.hidden ??= new Map()).set(name, kind);
          continue;
        }
        if (this.files >= this.opts.maxFiles) {
          this.truncated = true;
          this.firstLeftOut ??= under + name;
          continue;
        }
        this.files++;
        d.files.push(name);
        if (kind === 'symlink') (meta.links ??= new Set()).add(name);
      }
    }
  }

  // ---- queries ------------------------------------------------------------------------------

  /** the tree node of a crawled folder (absolute path), if any */
  node(absDir: string): DirNode | undefined {
    const r = this.rel(absDir);
    return r === undefined ? undefined : this.tree.find(r);
  }

  /** every indexed file, root-relative */
  list(): string[] {
    return [...this.tree.walkFiles()];
  }

  /** how many indexed files below `base` (absolute) the patterns match, as Claude Code matches `paths:` */
  count(base: string, patterns: readonly string[]): number {
    const n = this.node(base);
    return n ? countMatches(n, compilePatterns(patterns)) : 0;
  }

  /** the first `limit` matching files (relative to `base`) and the total */
  matches(base: string, patterns: readonly string[], limit = 50): { files: string[]; total: number } {
    const n = this.node(base);
    return n ? listMatches(n, compilePatterns(patterns), limit) : { files: [], total: 0 };
  }

  private hasFile(d: DirNode, name: string): boolean {
    if (d.files.length < 32) return d.files.includes(name);
    const m = this.meta.get(d);
    if (!m) return d.files.includes(name);
    m.fileSet ??= new Set(d.files);
    return m.fileSet.has(name);
  }

  /**
   * What the crawl knows about `abs`: a folder or file it listed (no symlink on the way), a path
   * that cannot exist (its folder was listed without it, or a file stands where a folder would),
   * or unknown (outside the root, below a symlink, in a folder not crawled).
   */
  lookup(abs: string): Lookup {
    const r = this.rel(abs);
    if (r === undefined) return { kind: 'unknown' };
    if (r === '') return { kind: 'dir', rel: r, node: this.tree };
    let d = this.tree;
    const parts = r.split('/');
    for (let i = 0; i < parts.length; i++) {
      const name = parts[i]!;
      const meta = this.meta.get(d);
      if (!meta) return { kind: 'unknown' }; // not listed
      const last = i === parts.length - 1;
      const child = d.dir(name);
      if (child) {
        if (last) return { kind: 'dir', rel: r, node: child };
        d = child;
        continue;
      }
      if (meta.links?.has(name)) return { kind: 'unknown' }; // a symbolic link: ask the disk
      const hidden = meta.hidden?.get(name);
      const isFile = hidden === 'file' || (hidden === undefined && this.hasFile(d, name));
      if (last) {
        if (isFile) return { kind: 'file', rel: r };
        if (hidden === 'dir') return { kind: 'dir', rel: r };
        return hidden || this.truncated ? { kind: 'unknown' } : { kind: 'absent', code: 'ENOENT' };
      }
      if (isFile) return { kind: 'absent', code: 'ENOTDIR' };
      if (hidden || this.truncated) return { kind: 'unknown' }; // an ignored folder or a symlink (or a crawl cut short): ask the disk
      return { kind: 'absent', code: 'ENOENT' };
    }
    return { kind: 'unknown' };
  }

  /** Is `abs` known not to exist? ('ENOENT' / 'ENOTDIR'), undefined when it exists or the index cannot tell */
  knownAbsent(abs: string): 'ENOENT' | 'ENOTDIR' | undefined {
    const l = this.lookup(abs);
    return l.kind === 'absent' ? l.code : undefined;
  }

  /** folders the crawl saw but did not enter (git-ignored, excluded; not `skipDirs` such as .git), absolute */
  hiddenDirs(): string[] {
    const out: string[] = [];
    for (const [d, m] of this.meta) {
      if (!m.hidden) continue;
      const base = this.abs(d.rel);
      for (const [name, kind] of m.hidden) if (kind === 'dir' && !this.opts.skipDirs.includes(name)) out.push(base + path.sep + name);
    }
    return out;
  }

  /** the raw-order listing of a crawled folder inside .claude, if the crawl kept one */
  rawListing(node: DirNode): readonly DirEntry[] | undefined {
    return this.meta.get(node)?.raw;
  }

  /** entries of a crawled folder kept out of `tree` (git-ignored or excluded files and folders, symlinked folders, others) */
  hiddenEntries(node: DirNode): ReadonlyMap<string, 'dir' | 'file' | 'symlink' | 'other'> | undefined {
    return this.meta.get(node)?.hidden;
  }

  /** was the folder listed by the crawl? */
  listed(node: DirNode): boolean {
    return this.meta.has(node);
  }

  /** a folder inside `.claude` that is crawled although .gitignore or files.exclude excludes it (none of its files is in `tree`) */
  ignoredAll(node: DirNode): boolean {
    return this.meta.get(node)?.ignoredAll === true;
  }

  // ---- updates --------------------------------------------------------------------------------

  /** the .gitignore lists that govern the entries of folder `d`, with their states */
  private ctxFor(d: DirNode): Ctx {
    const chain: DirNode[] = [];
    for (let x: DirNode | undefined = d; x; x = x.parent) chain.unshift(x);
    let ctx = this.rootCtx();
    for (const x of chain) {
      if (x !== this.tree) ctx = enter(ctx, x.name);
      const gi = this.meta.get(x)?.gitignore;
      if (gi) ctx = { frames: [...ctx.frames, { base: x.rel, compiled: gi }], states: [...ctx.states, rootState(gi)] };
    }
    return ctx;
  }

  /** Apply file-system events (from a watcher). Each costs O(depth) unless a .gitignore changed. */
  apply(changes: readonly IndexChange[]): ApplyResult {
    this.generation++;
    this.derivedFrom = undefined;
    const res: ApplyResult = { instructions: false, recrawled: false, files: false };
    for (const c of changes) this.applyOne(c, res);
    return res;
  }

  private applyOne(c: IndexChange, res: ApplyResult): void {
    const r = this.rel(c.path);
    if (r === undefined || r === '') return;
    const cut = r.lastIndexOf('/');
    const parentRel = cut < 0 ? '' : r.slice(0, cut);
    const name = cut < 0 ? r : r.slice(cut + 1);
    const parent = this.tree.find(parentRel);
    if (!parent || !this.meta.has(parent)) return; // inside a folder the index does not crawl
    const ik = instructionKind(r);
    if (ik || r.split('/').includes('.claude')) res.instructions = true;
    if (name === '.gitignore') {
      this.recrawl(parent);
      res.recrawled = res.files = true;
      return;
    }
    const meta = this.meta.get(parent)!;
    if (c.type === 'changed') return; // contents only: the tree is unchanged
    meta.fileSet = undefined;
    if (meta.raw) {
      // keep the raw order of a .claude folder exact: list it again (one syscall, rare)
      const listing = this.fs.readDir(this.abs(parentRel));
      meta.raw = listing.ok ? listing.value : undefined;
    }
    if (c.type === 'deleted') {
      const gone = parent.dir(name);
      if (gone) this.forget(gone);
      if (parent.removeFile(name) || parent.removeDir(name)) res.files = true;
      meta.hidden?.delete(name);
      meta.links?.delete(name);
      for (const k of [...this.instructions.keys()]) if (k === c.path || k.startsWith(c.path + path.sep)) this.instructions.delete(k);
      return;
    }
    // created: look at what it is
    const lst = this.fs.lstat(c.path);
    if (!lst.ok) return;
    const st = lst.value;
    if (parent.dir(name) || parent.files.includes(name)) return;
    meta.hidden?.delete(name);
    const ctx = this.ctxFor(parent);
    if (st.kind === 'dir' && !st.isSymlink) {
      const inClaude = name === '.claude' || r.split('/').includes('.claude');
      const ex = meta.ignoredAll === true || this.excluded(ctx, r, name, true);
      if (this.opts.skipDirs.includes(name) || (ex && !inClaude)) {
        (meta.hidden ??= new Map()).set(name, 'dir');
        return;
      }
      const child = parent.ensureDir(name);
      const before = this.tree.total;
      this.crawl(child, ex ? ctx : enter(ctx, name), ex);
      if (this.tree.total !== before) res.files = true;
      if ([...this.instructions.keys()].some((k) => k.startsWith(c.path + path.sep))) res.instructions = true;
      return;
    }
    const kind = st.isSymlink ? 'symlink' : st.kind === 'file' ? 'file' : 'other';
    const ignored = meta.ignoredAll === true || this.excluded(ctx, r, name, false);
    if (ik) this.instructions.set(c.path, { kind: ik, ignored });
    if (ignored || kind === 'other') {
      (meta.hidden ??= new Map()).set(name, kind);
      return;
    }
    this.files++;
    parent.addFile(name);
    if (kind === 'symlink') (meta.links ??= new Set()).add(name);
    res.files = true;
  }

  /**
   * The index of another state of the same folder, seen through `fs` (diff's head revision over its base's
   * index): a copy of this one brought up to date with the paths that differ (`changes`: absolute, with
   * what each was and is: a folder, a file or a symbolic link, or absent), each folder whose entries changed
   * put back in its listing's order. The same index a crawl of `fs` would build (the unchanged folders are
   * not listed again); undefined when this one cannot be the start (a crawl cut short, or the copy over the
   * file cap). This index is left as it was.
   */
  derive(fs: FileAccess, changes: readonly DerivedChange[]): WorkspaceIndex | undefined {
    if (this.truncated) return undefined;
    const ix = new WorkspaceIndex(this.root, { fs }, this);
    const copyMeta = (m: Meta): Meta => ({
      ...m,
      ...(m.hidden && { hidden: new Map(m.hidden) }),
      ...(m.raw && { raw: m.raw.slice() }),
      ...(m.links && { links: new Set(m.links) }),
      fileSet: undefined,
    });
    const copy = (src: DirNode, parent: DirNode | undefined): DirNode => {
      const d = parent ? new DirNode(src.name, parent) : ix.tree;
      const files = src.files;
      for (let i = 0; i < files.length; i++) d.files.push(files[i]!);
      d.total = src.total;
      for (const c of src.dirs) d.dirs.push(copy(c, d));
      const m = this.meta.get(src);
      if (m) ix.meta.set(d, copyMeta(m));
      return d;
    };
    copy(this.tree, undefined);
    for (const [k, v] of this.instructions) ix.instructions.set(k, v);
    ix.unreadableDirs.push(...this.unreadableDirs);
    ix.dirsListed = this.dirsListed;
    ix.files = this.files;
    // what went or changed kind first (a file that became a folder goes before the folder comes), then what came
    const res: ApplyResult = { instructions: false, recrawled: false, files: false };
    for (const c of changes) if (c.before !== 'absent' && c.before !== c.after) ix.applyOne({ type: 'deleted', path: c.path }, res);
    for (const c of changes) {
      // gone from the revision but there all the same: a personal file the view reads from the disk
      if (c.after === 'absent') {
        if (c.before !== 'absent' && fs.lstat(c.path).ok) ix.applyOne({ type: 'created', path: c.path }, res);
        continue;
      }
      if (c.before !== c.after) ix.applyOne({ type: 'created', path: c.path }, res);
      // a file's new content: only a .gitignore's changes the index (its folder is crawled again)
      else if (c.after !== 'dir') ix.applyOne({ type: 'changed', path: c.path }, res);
    }
    if (ix.files > ix.opts.maxFiles) return undefined;
    // each folder whose entries changed, in its listing's order, as the crawl puts them
    const touched = new Set<DirNode>();
    for (const c of changes) {
      const r = ix.rel(c.path);
      if (!r) continue;
      const parent = ix.tree.find(r.slice(0, Math.max(0, r.lastIndexOf('/'))));
      if (parent && ix.meta.has(parent)) touched.add(parent);
    }
    for (const d of touched) ix.reorder(d);
    if (!res.recrawled) ix.derivedFrom = { index: this, generation: this.generation, changed: changes.map((c) => ix.rel(c.path)).filter((r): r is string => !!r) };
    return ix;
  }

  /** put a crawled folder's files, sub-folders and hidden entries in its listing's order (the crawl's) */
  private reorder(d: DirNode): void {
    const meta = this.meta.get(d)!;
    const rel = d.rel;
    const abs = this.abs(rel);
    const inClaude = rel.split('/').includes('.claude');
    const r = inClaude ? this.fs.readDir(abs) : listEntries(this.fs, abs);
    if (!r.ok) return;
    const at = new Map<string, number>();
    r.value.forEach((e, i) => at.set(e.name, i));
    const pos = (name: string) => at.get(name) ?? at.size;
    d.files.sort((a, b) => pos(a) - pos(b));
    d.dirs.sort((a, b) => pos(a.name) - pos(b.name));
    if (meta.hidden) meta.hidden = new Map([...meta.hidden].sort((a, b) => pos(a[0]) - pos(b[0])));
    meta.fileSet = undefined;
  }

  private forget(x: DirNode): void {
    this.meta.delete(x);
    this.files -= x.files.length;
    for (const c of x.dirs) this.forget(c);
  }

  /** crawl a folder again (its .gitignore changed) */
  private recrawl(d: DirNode): void {
    const abs = this.abs(d.rel);
    for (const k of [...this.instructions.keys()]) if (k.startsWith(abs + path.sep)) this.instructions.delete(k);
    this.forget(d);
    // empty the node in place, keeping its place in the parent
    for (let x: DirNode | undefined = d.parent; x; x = x.parent) x.total -= d.total;
    d.clear();
    if (!d.parent) {
      this.crawl(d, this.rootCtx(), false);
      return;
    }
    const pctx = this.ctxFor(d.parent);
    const ex = this.meta.get(d.parent)?.ignoredAll === true || (d.rel.split('/').includes('.claude') && this.excluded(pctx, d.rel, d.name, true));
    this.crawl(d, ex ? pctx : enter(pctx, d.name), ex);
  }
}

/**
 * Does the file system holding `dir` tell names apart by case? (The index's "no such file" answers
 * are exact only then: on macOS and Windows a CLAUDE.md request finds claude.md.) Decided by
 * looking the same path up with its letters' case swapped; without letters, by the platform.
 */
export function caseSensitive(dir: string, fa: FileAccess = nodeFileAccess): boolean {
  const abs = path.resolve(dir);
  const swapped = abs.replace(/[A-Za-z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
  if (swapped === abs) return process.platform === 'linux';
  if (!fa.stat(abs).ok) return process.platform === 'linux';
  if (!fa.stat(swapped).ok) return true;
  // both there: one file (the case is not told apart) unless the file system says they differ
  const a = fa.fileId?.(abs);
  return a !== undefined && a !== fa.fileId?.(swapped);
}

export interface IndexedFileAccess extends FileAccess {
  /** questions answered from the index or the prefetched texts, without a syscall */
  answered: number;
  /** forget what is cached about `p` (call with every file-system event, after `index.apply`) */
  invalidate(p: string): void;
  /** read every instruction file the index knows (stat + bytes), so that first touches read nothing */
  prefetch(maxBytes?: number): number;
  /**
   * list every folder below the folders the crawl did not enter (node_modules, build output), so
   * that per-file answers there read nothing either; returns the number of folders listed. With
   * `maxFolders`, lists at most that many and goes on from there at the next call (`prelisted`
   * tells when all are).
   */
  prelistIgnored(maxFolders?: number): number;
  /** every ignored folder has been listed */
  readonly prelisted: boolean;
}

/**
 * A FileAccess over the workspace index, for the engine's snapshot to sit on: for paths in crawled
 * folders it answers from memory — "no such file" where the folder was listed without the name,
 * `stat`/`lstat`/`realpath` of folders (no symlink on the way: the real path is the root's real
 * path plus the relative one), the raw-order listings of `.claude` folders — and, after
 * `prefetch`, the stat and bytes of every instruction file. Everything else goes to `inner`.
 * With `positives: false` it only answers "no such file". Valid on case-sensitive file systems.
 */
export function indexedFileAccess(index: WorkspaceIndex, inner: FileAccess, options: { positives?: boolean; listIgnored?: boolean; home?: string } = {}): IndexedFileAccess {
  const positives = options.positives ?? true;
  const listIgnored = options.listIgnored ?? positives;
  let realRoot: string | undefined;
  const rootReal = () => {
    if (realRoot === undefined) {
      const r = inner.realpath(index.root);
      realRoot = r.ok ? r.value : index.root;
    }
    return realRoot;
  };
  const texts = new Map<string, { stat: FsResult<StatInfo>; bytes: FsResult<Uint8Array>; max: number }>();
  // listings of folders the crawl did not enter (git-ignored ones such as node_modules), made on
  // the first question about them: one readdir per folder, ever (until an event names it)
  // (a Map keeps the raw order of the listing: it is the listing)
  const side = new Map<string, { names: Map<string, DirEntry['kind']> } | null>();
  const sideListing = (dir: string) => {
    if (!side.has(dir)) {
      const r = inner.readDir(dir);
      side.set(dir, r.ok ? { names: new Map(r.value.map((e) => [e.name, e.kind])) } : null);
    }
    return side.get(dir) ?? undefined;
  };
  const sideList = (dir: string): DirEntry[] | undefined => {
    const l = side.get(dir);
    return l ? [...l.names].map(([name, kind]) => ({ name, kind })) : undefined;
  };
  const absOf = (parts: string[], n: number) => index.abs(parts.slice(0, n).join('/'));
  const look = (p: string): Lookup => {
    const l = index.lookup(p);
    if (l.kind !== 'unknown' || !listIgnored) return l;
    const rel = index.rel(p);
    if (!rel) return l;
    const parts = rel.split('/');
    // the deepest folder on the way that the crawl saw as a real (not linked) folder
    let i = parts.length - 1;
    for (; i >= 1; i--) {
      const a = index.lookup(absOf(parts, i));
      if (a.kind === 'dir') break;
      if (a.kind !== 'unknown') return l;
    }
    if (i < 1) return l;
    for (let j = i; j < parts.length; j++) {
      const listing = sideListing(absOf(parts, j));
      if (!listing) return l;
      const kind = listing.names.get(parts[j]!);
      const last = j === parts.length - 1;
      if (kind === undefined) return { kind: 'absent', code: 'ENOENT' };
      if (kind === 'symlink' || kind === 'other') return l;
      if (last) return kind === 'dir' ? { kind: 'dir', rel } : { kind: 'file', rel };
      if (kind === 'file') return { kind: 'absent', code: 'ENOTDIR' };
    }
    return l;
  };
  // one answer object per code (an editor session asks about tens of thousands of absent paths)
  const failures = new Map<string, FsResult<never>>();
  const fail = <T>(code: string, _p: string): FsResult<T> => {
    let f = failures.get(code);
    if (!f) failures.set(code, (f = Object.freeze({ ok: false, code, message: `${code} (workspace index)` }) as FsResult<never>));
    return f;
  };
  const dirStat: StatInfo = { kind: 'dir', size: 0, mtimeMs: 0 };
  const MAX_TEXT = 4 * 1024 * 1024;
  /** stat and read one instruction file into memory */
  const readText = (p: string, maxBytes = MAX_TEXT): boolean => {
    const st = inner.stat(p);
    if (!st.ok || st.value.kind !== 'file') return false;
    texts.set(p, { stat: st, bytes: inner.readFile(p, maxBytes), max: maxBytes });
    return true;
  };
  let prelistStack: string[] | undefined;
  const fa: IndexedFileAccess = {
    answered: 0,
    stat(p) {
      const t = texts.get(p);
      if (t) return fa.answered++, t.stat;
      const l = look(p);
      if (l.kind === 'absent') return fa.answered++, fail(l.code, p);
      if (positives && l.kind === 'dir') return fa.answered++, { ok: true, value: dirStat };
      return inner.stat(p);
    },
    lstat(p) {
      const l = look(p);
      if (l.kind === 'absent') return fa.answered++, fail(l.code, p);
      if (positives && l.kind === 'dir') return fa.answered++, { ok: true, value: { ...dirStat, isSymlink: false } };
      const t = texts.get(p);
      if (positives && t && t.stat.ok) return fa.answered++, { ok: true, value: { ...t.stat.value, isSymlink: false } };
      return inner.lstat(p);
    },
    readDir(p) {
      const l = look(p);
      if (l.kind === 'absent') return fa.answered++, fail(l.code, p);
      if (positives && l.kind === 'dir') {
        const raw = l.node ? index.rawListing(l.node) : sideList(p);
        if (raw) return fa.answered++, { ok: true, value: raw.map((e) => ({ ...e })) };
      }
      return inner.readDir(p);
    },
    readFile(p, max) {
      const t = texts.get(p);
      if (t && t.max === max) return fa.answered++, t.bytes;
      const l = look(p);
      if (l.kind === 'absent') return fa.answered++, fail(l.code, p);
      return inner.readFile(p, max);
    },
    realpath(p) {
      const l = look(p);
      if (l.kind === 'absent') return fa.answered++, fail(l.code, p);
      if (positives && (l.kind === 'dir' || l.kind === 'file')) {
        fa.answered++;
        return { ok: true, value: l.rel ? rootReal() + path.sep + l.rel.split('/').join(path.sep) : rootReal() };
      }
      return inner.realpath(p);
    },
    invalidate(p) {
      const under = p.endsWith(path.sep) ? p : p + path.sep;
      for (const k of [...texts.keys()]) if (k === p || k.startsWith(under)) texts.delete(k);
      side.delete(path.dirname(p));
      for (const k of [...side.keys()]) if (k === p || k.startsWith(under)) side.delete(k);
      if (p === index.root) realRoot = undefined;
    },
    prelisted: false,
    prelistIgnored(maxFolders = Infinity) {
      let n = 0;
      const stack = (prelistStack ??= index.hiddenDirs());
      while (stack.length && n < maxFolders) {
        const d = stack.pop()!;
        const l = sideListing(d);
        if (!l) continue;
        n++;
        for (const [name, kind] of l.names) {
          if (kind === 'dir') stack.push(d + path.sep + name);
          else if (kind === 'file' && (name.endsWith('.md') || name.endsWith('.MD'))) {
            const p = d + path.sep + name;
            const ik = instructionKind(index.rel(p) ?? name);
            if (ik && ik !== 'skill' && !texts.has(p)) readText(p);
          }
        }
      }
      if (!stack.length) (fa as { prelisted: boolean }).prelisted = true;
      return n;
    },
    prefetch(maxBytes = MAX_TEXT) {
      let n = 0;
      // the instruction files, then what they @include (transitively, to Claude Code's depth)
      let queue = [...index.instructions].filter(([p, info]) => info.kind !== 'skill' && index.lookup(p).kind === 'file').map(([p]) => p);
      const seen = new Set(queue);
      for (let depth = 0; depth < 5 && queue.length; depth++) {
        const next: string[] = [];
        for (const p of queue) {
          if (!readText(p, maxBytes)) continue;
          n++;
          const t = texts.get(p)!;
          if (!t.bytes.ok || !t.bytes.value.includes(64 /* @ */)) continue;
          try {
            const proc = processInstructionText(decodeUtf8(t.bytes.value), p, { stripBomBeforeFrontmatter: true, collectIncludes: true, home: options.home ?? '' });
            for (const inc of proc.includes) {
              if (seen.has(inc) || !hasTextExtension(inc)) continue;
              seen.add(inc);
              if (look(inc).kind !== 'absent') next.push(inc);
            }
          } catch {
            /* not ours to judge: the engine reads it again */
          }
        }
        queue = next;
      }
      return n;
    },
  };
  return fa;
}

/** the index's "no such file" answers only (see indexedFileAccess) */
export function absentAwareFileAccess(index: WorkspaceIndex, inner: FileAccess): IndexedFileAccess {
  return indexedFileAccess(index, inner, { positives: false });
}
