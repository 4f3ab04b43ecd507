// A workspace index: one crawl of the launch directory that keeps every folder's listing in memory
// as a tree, honours .gitignore files (every level, plus .git/info/exclude) and VS Code's
// `files.exclude`, and is then kept current from file-system events in O(depth) per event.
//
// What it serves:
// - hover counts and lists for `paths:` patterns (glob-count.ts over `tree`: no disk, no per-path
//   `ignore` calls);
// - the instruction files of the workspace (CLAUDE.md, CLAUDE.local.md, .claude/CLAUDE.md,
//   .claude/rules/**.md, .claude/skills/*/SKILL.md), for the sidebar and lint;
// - negative answers for a snapshot FileAccess: a path whose folder was crawled and has no such entry
//   does not exist, without a syscall (`knownAbsent`, `absentAwareFileAccess`). Lazy injection is
//   computed for any path, as Claude Code does: for folders the index did not crawl (ignored ones
//   such as node_modules) the question goes to the disk.
//
// Git-ignored *files* in crawled folders are kept out of `tree` but still recorded as instruction
// files when they are ones (CLAUDE.local.md usually is git-ignored, and Claude Code loads it).
import * as fs from 'node:fs';
import * as path from 'node:path';
import picomatch from 'picomatch';
import type { FileAccess, FsResult, LinkInfo, StatInfo } from './file-access.js';
import { compilePatterns, countMatches, DirNode, entryState, listMatches, needsUnderFlags, underFlags, type CompiledPatterns } from './glob-count.js';

export interface WorkspaceIndexOptions {
  /** honour .gitignore files and .git/info/exclude (default true) */
  gitignore?: boolean;
  /** VS Code `files.exclude` globs whose value is true, relative to the root (picomatch, dot: true) */
  exclude?: string[];
  /** folder names never entered (default: `.git`) */
  skipDirs?: string[];
  /** stop after this many files (default 1,000,000); `truncated` then tells */
  maxFiles?: number;
}

export type InstructionKind = 'claude-md' | 'dot-claude-md' | 'local' | 'rule' | 'skill' | 'agents-md';

export interface IndexChange {
  type: 'created' | 'changed' | 'deleted';
  /** absolute path */
  path: string;
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
  under: boolean;
}

interface Meta {
  /** the folder's .gitignore, compiled, when it has one */
  gitignore?: CompiledPatterns;
  /** names of entries the crawl saw but left out of the tree: ignored folders and files, symlinks, others */
  hidden?: Map<string, 'dir' | 'file' | 'symlink' | 'other'>;
}

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

function readText(p: string): string | undefined {
  try {
    const st = fs.statSync(p);
    if (!st.isFile() || st.size > 1024 * 1024) return undefined;
    return fs.readFileSync(p, 'utf8');
  } catch {
    return undefined;
  }
}

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
  /** folders listed by the crawl (for statistics) */
  dirsListed = 0;

  private readonly meta = new Map<DirNode, Meta>();
  private readonly opts: Required<Omit<WorkspaceIndexOptions, 'exclude'>> & { exclude?: (rel: string) => boolean };
  private files = 0;

  private constructor(root: string, options: WorkspaceIndexOptions) {
    this.root = path.resolve(root);
    this.tree = new DirNode('', undefined);
    const ex = options.exclude?.filter(Boolean) ?? [];
    this.opts = {
      gitignore: options.gitignore ?? true,
      skipDirs: options.skipDirs ?? ['.git'],
      maxFiles: options.maxFiles ?? 1_000_000,
      exclude: ex.length ? picomatch(ex, { dot: true }) : undefined,
    };
  }

  /** Crawl `root` (synchronously) and build the index. */
  static build(root: string, options: WorkspaceIndexOptions = {}): WorkspaceIndex {
    const ix = new WorkspaceIndex(root, options);
    ix.crawl(ix.tree, ix.rootFrames());
    return ix;
  }

  get fileCount(): number {
    return this.tree.total;
  }

  private rootFrames(): Frame[] {
    if (!this.opts.gitignore) return [];
    const exclude = readText(path.join(this.root, '.git', 'info', 'exclude'));
    if (exclude === undefined) return [];
    const lines = gitignoreLines(exclude);
    if (!lines.length) return [];
    const compiled = compilePatterns(lines, { ignoreCase: false, dotDotGuard: false });
    return [{ base: '', compiled, under: needsUnderFlags(compiled) }];
  }

  abs(rel: string): string {
    return rel ? path.join(this.root, ...rel.split('/')) : this.root;
  }

  /** root-relative, `/`-separated; undefined outside the root */
  rel(abs: string): string | undefined {
    const r = path.relative(this.root, abs);
    if (r.startsWith('..') || path.isAbsolute(r)) return undefined;
    return r.split(path.sep).join('/');
  }

  /** is an entry (root-relative) excluded by the .gitignore frames on its way, or files.exclude? */
  private excluded(frames: readonly Frame[], unders: readonly (readonly boolean[] | undefined)[], rel: string, name: string, isDir: boolean): boolean {
    if (this.opts.exclude?.(rel)) return true;
    for (let i = frames.length - 1; i >= 0; i--) {
      const f = frames[i]!;
      const r = f.base ? rel.slice(f.base.length + 1) : rel;
      const s = entryState(f.compiled, r, name, isDir, unders[i]);
      if (s !== 0) return s === 1;
    }
    return false;
  }

  /** crawl folder `node` (already in the tree); `frames` are the .gitignore lists above it */
  private crawl(node: DirNode, parentFrames: Frame[], parentUnders: (readonly boolean[] | undefined)[] = []): void {
    type Item = { node: DirNode; frames: Frame[]; unders: (readonly boolean[] | undefined)[] };
    const stack: Item[] = [{ node, frames: parentFrames, unders: parentUnders }];
    while (stack.length) {
      const { node: d, frames: above, unders: aboveUnders } = stack.pop()!;
      const rel = d.rel;
      const absDir = this.abs(rel);
      let ents: fs.Dirent[];
      try {
        ents = fs.readdirSync(absDir, { withFileTypes: true });
      } catch {
        continue;
      }
      this.dirsListed++;
      const meta: Meta = {};
      this.meta.set(d, meta);
      let frames = above;
      let unders = aboveUnders;
      if (this.opts.gitignore && ents.some((e) => e.name === '.gitignore' && !e.isDirectory())) {
        const text = readText(path.join(absDir, '.gitignore'));
        const lines = text ? gitignoreLines(text) : [];
        if (lines.length) {
          const compiled = compilePatterns(lines, { ignoreCase: false, dotDotGuard: false });
          meta.gitignore = compiled;
          frames = [...above, { base: rel, compiled, under: needsUnderFlags(compiled) }];
          unders = [...aboveUnders, undefined];
        }
      }
      const pre = rel ? `${rel}/` : '';
      for (const e of ents) {
        const name = e.name;
        const r = pre + name;
        if (e.isDirectory()) {
          if (this.opts.skipDirs.includes(name)) {
            (meta.hidden ??= new Map()).set(name, 'dir');
            continue;
          }
          const ignored = this.excluded(frames, unders, r, name, true);
          const dotClaude = name === '.claude';
          if (ignored && !dotClaude) {
            (meta.hidden ??= new Map()).set(name, 'dir');
            continue;
          }
          const child = d.ensureDir(name);
          const childUnders = frames.map((f, i) => (f.under ? underFlags(f.compiled, unders[i], f.base ? r.slice(f.base.length + 1) : r) : undefined));
          stack.push({ node: child, frames, unders: childUnders });
        } else {
          const kind = e.isFile() ? 'file' : e.isSymbolicLink() ? 'symlink' : 'other';
          const ignored = this.excluded(frames, unders, r, name, false);
          const ik = instructionKind(r);
          if (ik) this.instructions.set(absDir + path.sep + name, { kind: ik, ignored });
          if (ignored || kind === 'other') {
            (meta.hidden ??= new Map()).set(name, kind);
            continue;
          }
          if (this.files >= this.opts.maxFiles) {
            this.truncated = true;
            continue;
          }
          this.files++;
          d.addFile(name);
        }
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

  /**
   * Is `abs` known not to exist? True only when the crawl listed its folder (or a folder above it
   * holds a file where the path needs a folder) and found no such entry; false when unsure.
   */
  knownAbsent(abs: string): 'ENOENT' | 'ENOTDIR' | undefined {
    const r = this.rel(abs);
    if (!r) return undefined;
    let d = this.tree;
    const parts = r.split('/');
    for (let i = 0; i < parts.length; i++) {
      const name = parts[i]!;
      if (!this.meta.has(d)) return undefined; // not listed
      const child = d.dir(name);
      if (child) {
        d = child;
        continue;
      }
      const hidden = this.meta.get(d)!.hidden?.get(name);
      const isFile = hidden === 'file' || d.files.includes(name);
      if (i === parts.length - 1) return hidden || isFile ? undefined : 'ENOENT';
      if (isFile) return 'ENOTDIR';
      if (hidden) return undefined; // an ignored folder or a symlink: ask the disk
      return 'ENOENT';
    }
    return undefined;
  }

  // ---- updates --------------------------------------------------------------------------------

  /** the .gitignore frames (and `under` flags) that govern entries of folder `d` */
  private framesFor(d: DirNode): { frames: Frame[]; unders: (readonly boolean[] | undefined)[] } {
    const chain: DirNode[] = [];
    for (let x: DirNode | undefined = d; x; x = x.parent) chain.unshift(x);
    let frames = this.rootFrames();
    let unders: (readonly boolean[] | undefined)[] = frames.map(() => undefined);
    for (const x of chain) {
      const rel = x.rel;
      if (x !== this.tree) unders = frames.map((f, i) => (f.under ? underFlags(f.compiled, unders[i], f.base ? rel.slice(f.base.length + 1) : rel) : undefined));
      const gi = this.meta.get(x)?.gitignore;
      if (gi) {
        frames = [...frames, { base: rel, compiled: gi, under: needsUnderFlags(gi) }];
        unders = [...unders, undefined];
      }
    }
    return { frames, unders };
  }

  /** Apply file-system events (from a watcher). Each costs O(depth) unless a .gitignore changed. */
  apply(changes: readonly IndexChange[]): ApplyResult {
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
    if (c.type === 'deleted') {
      const gone = parent.dir(name);
      if (gone) this.forget(gone);
      if (parent.removeFile(name) || parent.removeDir(name)) res.files = true;
      meta.hidden?.delete(name);
      for (const k of [...this.instructions.keys()]) if (k === c.path || k.startsWith(c.path + path.sep)) this.instructions.delete(k);
      return;
    }
    // created: look at what it is
    let st: fs.Stats;
    try {
      st = fs.lstatSync(c.path);
    } catch {
      return;
    }
    if (parent.dir(name) || parent.files.includes(name)) return;
    const { frames, unders } = this.framesFor(parent);
    if (st.isDirectory()) {
      if (this.opts.skipDirs.includes(name) || (this.excluded(frames, unders, r, name, true) && name !== '.claude')) {
        (meta.hidden ??= new Map()).set(name, 'dir');
        return;
      }
      const child = parent.ensureDir(name);
      const childUnders = frames.map((f, i) => (f.under ? underFlags(f.compiled, unders[i], f.base ? r.slice(f.base.length + 1) : r) : undefined));
      const before = this.tree.total;
      this.crawl(child, frames, childUnders);
      if (this.tree.total !== before) res.files = true;
      if ([...this.instructions.keys()].some((k) => k.startsWith(c.path + path.sep))) res.instructions = true;
      return;
    }
    const kind = st.isFile() ? 'file' : st.isSymbolicLink() ? 'symlink' : 'other';
    const ignored = this.excluded(frames, unders, r, name, false);
    if (ik) this.instructions.set(c.path, { kind: ik, ignored });
    if (ignored || kind === 'other') {
      (meta.hidden ??= new Map()).set(name, kind);
      return;
    }
    this.files++;
    parent.addFile(name);
    res.files = true;
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
    d.total = 0;
    d.files.length = 0;
    d.dirs.length = 0;
    const { frames, unders } = d.parent ? this.framesFor(d.parent) : { frames: this.rootFrames(), unders: [] as (readonly boolean[] | undefined)[] };
    const rel = d.rel;
    const childUnders = d.parent ? frames.map((f, i) => (f.under ? underFlags(f.compiled, unders[i], f.base ? rel.slice(f.base.length + 1) : rel) : undefined)) : frames.map(() => undefined);
    this.crawl(d, frames, childUnders);
  }
}

/**
 * A FileAccess that answers "no such file" from the index for paths in crawled folders, and asks
 * `inner` for everything else. Put a memoizing layer (snapshot.ts) on top of it so that repeated
 * questions about existing files are answered from memory too. Valid on case-sensitive file systems.
 */
export function absentAwareFileAccess(index: WorkspaceIndex, inner: FileAccess): FileAccess & { answered: number } {
  const fail = <T>(code: string, p: string): FsResult<T> => ({ ok: false, code, message: `${code}: ${p} (workspace index)` });
  const out = {
    answered: 0,
    stat(p: string): FsResult<StatInfo> {
      const a = index.knownAbsent(p);
      if (a) return out.answered++, fail(a, p);
      return inner.stat(p);
    },
    lstat(p: string): FsResult<LinkInfo> {
      const a = index.knownAbsent(p);
      if (a) return out.answered++, fail(a, p);
      return inner.lstat(p);
    },
    readDir(p: string) {
      const a = index.knownAbsent(p);
      if (a) return out.answered++, fail<never>(a, p);
      return inner.readDir(p);
    },
    readFile(p: string, max: number) {
      const a = index.knownAbsent(p);
      if (a) return out.answered++, fail<never>(a, p);
      return inner.readFile(p, max);
    },
    realpath(p: string) {
      const a = index.knownAbsent(p);
      if (a) return out.answered++, fail<never>(a, p);
      return inner.realpath(p);
    },
  };
  return out;
}
