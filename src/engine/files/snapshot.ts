// A memoizing layer over FileAccess: once the engine has looked at a path, later questions about
// it are answered from memory (switching editors reads nothing), and `invalidate` forgets exactly
// the paths a file-system event names, plus the listing of their folders. What is cached is also
// filed by folder (PathTree), so an event costs the entries it forgets, not a scan of the cache.
import * as path from 'node:path';
import type { DirEntry, FileAccess, FsResult, LinkInfo, StatInfo } from './file-access.js';

/**
 * A set of paths filed by folder: `take(p)` removes and returns every path equal to `p` or below
 * it, in time proportional to what it returns. Every ancestor of a path in the set is kept as a
 * node, so the folders above what is cached form a tree.
 */
export class PathTree {
  private readonly kids = new Map<string, Set<string>>();
  private readonly nodes = new Set<string>();

  add(p: string): void {
    while (!this.nodes.has(p)) {
      this.nodes.add(p);
      const up = path.dirname(p);
      if (up === p) return;
      let s = this.kids.get(up);
      if (!s) this.kids.set(up, (s = new Set()));
      s.add(p);
      p = up;
    }
  }

  /** remove `p` and everything below it; returns what was removed (the folders on the way included) */
  take(p: string): string[] {
    if (!this.nodes.has(p)) return [];
    const out: string[] = [];
    const stack = [p];
    while (stack.length) {
      const x = stack.pop()!;
      out.push(x);
      this.nodes.delete(x);
      const s = this.kids.get(x);
      if (s) {
        for (const c of s) stack.push(c);
        this.kids.delete(x);
      }
    }
    const up = path.dirname(p);
    if (up !== p) this.kids.get(up)?.delete(p);
    return out;
  }

  clear(): void {
    this.kids.clear();
    this.nodes.clear();
  }
}

export class SnapshotFileAccess implements FileAccess {
  private readonly stats = new Map<string, FsResult<StatInfo>>();
  private readonly lstats = new Map<string, FsResult<LinkInfo>>();
  private readonly dirs = new Map<string, FsResult<DirEntry[]>>();
  private readonly files = new Map<string, { max: number; r: FsResult<Uint8Array> }>();
  private readonly reals = new Map<string, FsResult<string>>();
  /** every key of the maps above, by folder (filled from `newKeys` when an invalidation needs it) */
  private readonly keys = new PathTree();
  /** real paths resolved so far, by folder (filled from `newReals`), and the keys that resolved to each */
  private readonly realValues = new PathTree();
  // keys and real paths added since the last invalidation: most snapshots (a CLI run, lint) are
  // never invalidated and need no tree
  private newKeys: string[] = [];
  private newReals: string[] = [];
  private readonly realKeys = new Map<string, Set<string>>();
  /** disk operations performed (for tests and the benchmark) */
  diskOps = 0;

  constructor(private readonly inner: FileAccess) {}

  private memo<T>(map: Map<string, T>, key: string, load: () => T): T {
    const hit = map.get(key);
    if (hit !== undefined) return hit;
    this.diskOps++;
    const v = load();
    map.set(key, v);
    this.newKeys.push(key);
    return v;
  }

  stat(p: string) {
    return this.memo(this.stats, p, () => this.inner.stat(p));
  }
  lstat(p: string) {
    return this.memo(this.lstats, p, () => this.inner.lstat(p));
  }
  readDir(p: string) {
    return this.memo(this.dirs, p, () => this.inner.readDir(p));
  }
  realpath(p: string) {
    const hit = this.reals.get(p);
    if (hit !== undefined) return hit;
    const r = this.memo(this.reals, p, () => this.inner.realpath(p));
    if (r.ok) {
      this.newReals.push(r.value);
      let s = this.realKeys.get(r.value);
      if (!s) this.realKeys.set(r.value, (s = new Set()));
      s.add(p);
    }
    return r;
  }
  readFile(p: string, maxBytes: number) {
    const hit = this.files.get(p);
    if (hit && hit.max === maxBytes) return hit.r;
    this.diskOps++;
    const r = this.inner.readFile(p, maxBytes);
    this.files.set(p, { max: maxBytes, r });
    this.newKeys.push(p);
    return r;
  }

  /**
   * Forget what is known about `p` (a changed, created or deleted file or folder): its own
   * entries, its folder's listing, anything below it, and real paths that lead to or through it.
   */
  invalidate(p: string): void {
    let norm = path.normalize(p);
    if (norm.length > 1 && norm.endsWith(path.sep)) norm = norm.slice(0, -1);
    for (const k of this.newKeys) this.keys.add(k);
    for (const v of this.newReals) this.realValues.add(v);
    this.newKeys = [];
    this.newReals = [];
    for (const k of this.keys.take(norm)) {
      this.stats.delete(k);
      this.lstats.delete(k);
      this.dirs.delete(k);
      this.files.delete(k);
      this.reals.delete(k);
    }
    this.dirs.delete(path.dirname(norm));
    // real paths that lead to or through p
    for (const v of this.realValues.take(norm)) {
      const ks = this.realKeys.get(v);
      if (!ks) continue;
      for (const k of ks) this.reals.delete(k);
      this.realKeys.delete(v);
    }
  }

  invalidateAll(): void {
    for (const map of [this.stats, this.lstats, this.dirs, this.files, this.reals] as Map<string, unknown>[]) map.clear();
    this.keys.clear();
    this.realValues.clear();
    this.realKeys.clear();
    this.newKeys = [];
    this.newReals = [];
  }
}
