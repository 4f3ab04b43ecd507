// A memoizing layer over FileAccess: once the engine has looked at a path, later questions about
// it are answered from memory (switching editors reads nothing), and `invalidate` forgets exactly
// the paths a file-system event names, plus the listing of their folders.
import * as path from 'node:path';
import type { DirEntry, FileAccess, FsResult, LinkInfo, StatInfo } from './file-access.js';

export class SnapshotFileAccess implements FileAccess {
  private readonly stats = new Map<string, FsResult<StatInfo>>();
  private readonly lstats = new Map<string, FsResult<LinkInfo>>();
  private readonly dirs = new Map<string, FsResult<DirEntry[]>>();
  private readonly files = new Map<string, { max: number; r: FsResult<Uint8Array> }>();
  private readonly reals = new Map<string, FsResult<string>>();
  /** disk operations performed (for tests and the benchmark) */
  diskOps = 0;

  constructor(private readonly inner: FileAccess) {}

  private memo<T>(map: Map<string, T>, key: string, load: () => T): T {
    const hit = map.get(key);
    if (hit !== undefined) return hit;
    this.diskOps++;
    const v = load();
    map.set(key, v);
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
    return this.memo(this.reals, p, () => this.inner.realpath(p));
  }
  readFile(p: string, maxBytes: number) {
    const hit = this.files.get(p);
    if (hit && hit.max === maxBytes) return hit.r;
    this.diskOps++;
    const r = this.inner.readFile(p, maxBytes);
    this.files.set(p, { max: maxBytes, r });
    return r;
  }

  /**
   * Forget what is known about `p` (a changed, created or deleted file or folder): its own
   * entries, its folder's listing, anything below it, and real paths that lead to or through it.
   */
  invalidate(p: string): void {
    const norm = path.normalize(p);
    const under = norm.endsWith(path.sep) ? norm : norm + path.sep;
    for (const map of [this.stats, this.lstats, this.dirs, this.files] as Map<string, unknown>[]) {
      for (const k of map.keys()) if (k === norm || k.startsWith(under)) map.delete(k);
    }
    this.dirs.delete(path.dirname(norm));
    for (const [k, v] of this.reals) {
      const hit = (x: string) => x === norm || x.startsWith(under);
      if (hit(k) || (v.ok && hit(v.value))) this.reals.delete(k);
    }
  }

  invalidateAll(): void {
    for (const map of [this.stats, this.lstats, this.dirs, this.files, this.reals] as Map<string, unknown>[]) map.clear();
  }
}
