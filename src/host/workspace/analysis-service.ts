// One Analysis per workspace folder, kept: asking again (another editor, a hover, a lens) is
// answered from the engine's snapshot without disk access. A watcher event is first checked
// against what the engine read (ReadRecorder); only then is `analysis.refresh(changed)` called,
// debounced, which re-reads just those paths, and listeners are told. No vscode import.
//
// Below the recorder, the engine reads through the workspace indexes (engine/workspace-index.ts)
// the host builds at activation: inside an indexed folder, "no such file", folders, real paths,
// `.claude` listings and the instruction files (prefetched) are answered from memory, so the first
// question about a folder reads nothing from disk either. Events reach the index first (the host
// applies them), then `pathsChanged` here forgets what the indexed file access cached for them.
import * as path from 'node:path';
import { analyze, nodeFileAccess, type Analysis, type EngineOptions, type FileAccess } from '../../engine/index.js';
import type { DirEntry, FsResult, LinkInfo, StatInfo } from '../../engine/index.js';
import { caseSensitive, indexedFileAccess, type IndexedFileAccess, type WorkspaceIndex } from '../../engine/index.js';
import { ReadRecorder } from './read-recorder.js';

export interface FolderEntry {
  options: EngineOptions;
  analysis?: Analysis;
  error?: string;
}

type Listener = (keys: string[]) => void;

/**
 * A FileAccess that sends each path to the indexed file access of the workspace index whose root
 * holds it (the deepest), and everything else to `inner`.
 */
export class IndexRouter implements FileAccess {
  private readonly routes: { root: string; under: string; index: WorkspaceIndex; fa: IndexedFileAccess }[] = [];

  constructor(private readonly inner: FileAccess) {}

  /**
   * Answer below `index.root` from the index. Only where that is exact: a case-sensitive file
   * system (elsewhere a CLAUDE.md request finds claude.md, which the listing cannot say) and a
   * crawl that was not cut at its file cap. Returns the file access, or undefined when not used.
   */
  attach(index: WorkspaceIndex, options: { home?: string } = {}): IndexedFileAccess | undefined {
    this.detach(index.root);
    if (index.truncated || !caseSensitive(index.root)) return undefined;
    const fa = indexedFileAccess(index, this.inner, { home: options.home });
    const root = index.root;
    this.routes.push({ root, under: root.endsWith(path.sep) ? root : root + path.sep, index, fa });
    this.routes.sort((a, b) => b.root.length - a.root.length);
    return fa;
  }

  detach(root: string): void {
    const i = this.routes.findIndex((r) => r.root === root);
    if (i >= 0) this.routes.splice(i, 1);
  }

  detachAll(): void {
    this.routes.length = 0;
  }

  get size(): number {
    return this.routes.length;
  }

  private route(p: string): FileAccess {
    for (const r of this.routes) if (p === r.root || p.startsWith(r.under)) return r.fa;
    return this.inner;
  }

  /** a watcher event: forget what the indexed file accesses cached about `p` */
  invalidate(p: string): void {
    for (const r of this.routes) r.fa.invalidate(p);
  }

  stat(p: string): FsResult<StatInfo> {
    return this.route(p).stat(p);
  }
  lstat(p: string): FsResult<LinkInfo> {
    return this.route(p).lstat(p);
  }
  readDir(p: string): FsResult<DirEntry[]> {
    return this.route(p).readDir(p);
  }
  readFile(p: string, maxBytes: number): FsResult<Uint8Array> {
    return this.route(p).readFile(p, maxBytes);
  }
  realpath(p: string): FsResult<string> {
    return this.route(p).realpath(p);
  }
}

export class AnalysisService {
  readonly fs: ReadRecorder;
  /** the workspace indexes the engine reads through */
  readonly indexes: IndexRouter;
  private readonly folders = new Map<string, FolderEntry>();
  private readonly listeners = new Set<Listener>();
  private readonly pending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** analyses built, for tests and the status line */
  builds = 0;

  constructor(
    private readonly optionsFor: (key: string) => EngineOptions,
    private readonly debounceMs = 250,
    inner: FileAccess = nodeFileAccess,
    private readonly analyzeFn: (o: EngineOptions) => Analysis = analyze,
  ) {
    this.indexes = new IndexRouter(inner);
    this.fs = new ReadRecorder(this.indexes);
  }

  onDidChange(l: Listener): { dispose(): void } {
    this.listeners.add(l);
    return { dispose: () => this.listeners.delete(l) };
  }

  keys(): string[] {
    return [...this.folders.keys()];
  }

  /** the folder's analysis, built on first use */
  get(key: string): FolderEntry {
    let e = this.folders.get(key);
    if (!e) {
      e = { options: { ...this.optionsFor(key), fs: this.fs } };
      this.folders.set(key, e);
    }
    if (!e.analysis && !e.error) this.build(e);
    return e;
  }

  /** every analysis built so far */
  all(): Analysis[] {
    return [...this.folders.values()].map((e) => e.analysis).filter((a): a is Analysis => !!a);
  }

  private build(e: FolderEntry, changed?: string[]): void {
    try {
      e.analysis = changed && e.analysis ? e.analysis.refresh(changed) : this.analyzeFn(e.options);
      e.error = undefined;
    } catch (err) {
      e.analysis = undefined;
      e.error = err instanceof Error ? err.message : String(err);
    }
    this.builds++;
  }

  /**
   * A workspace index was built (or rebuilt, after the Refresh command or a files.exclude change):
   * read through it from now on. Analyses built before read everything again.
   */
  attachIndex(index: WorkspaceIndex, options: { home?: string } = {}): IndexedFileAccess | undefined {
    const fa = this.indexes.attach(index, options);
    for (const e of this.folders.values()) e.analysis = undefined;
    return fa;
  }

  detachIndexes(): void {
    this.indexes.detachAll();
  }

  /**
   * Paths changed on disk (watcher events, already applied to the workspace indexes). Returns
   * whether any of them had been read, in which case a refresh of every folder is scheduled.
   */
  pathsChanged(paths: string[]): boolean {
    for (const p of paths) this.indexes.invalidate(p);
    if (!paths.some((p) => this.fs.matters(p))) return false;
    for (const p of paths) this.pending.add(p);
    this.schedule();
    return true;
  }

  /** settings changed: new options for every folder, rebuilt now */
  reconfigure(): void {
    for (const [key, e] of this.folders) {
      e.options = { ...this.optionsFor(key), fs: this.fs };
      e.analysis = undefined;
      e.error = undefined;
    }
    this.emit([...this.folders.keys()]);
  }

  /** read everything again (the Refresh command) */
  refreshAll(): void {
    this.fs.forget();
    this.reconfigure();
  }

  removeFolder(key: string): void {
    this.folders.delete(key);
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.debounceMs);
  }

  /** rebuild now what pending changes touched (called by the debounce timer) */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const changed = [...this.pending];
    this.pending.clear();
    if (!changed.length) return;
    const keys = [...this.folders.keys()];
    for (const key of keys) this.build(this.folders.get(key)!, changed);
    this.emit(keys);
  }

  private emit(keys: string[]): void {
    for (const l of this.listeners) l(keys);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.listeners.clear();
  }
}
