// Remembers which paths the engine has read, so that a watcher event can be judged before anything
// is recomputed: a change to a path nobody read cannot change an analysis. It sits under the
// engine's own snapshot (which memoizes and refreshes); it caches nothing itself.
import * as path from 'node:path';
import type { DirEntry, FileAccess, FsResult, LinkInfo, StatInfo } from '../../engine/index.js';

/** `.` or `..` segments, doubled or trailing separators: path.normalize would change the path */
const NOT_NORMAL = /\/\.{1,2}(?:\/|$)|\/\/|.\/$/;

export class ReadRecorder implements FileAccess {
  /** paths stat'ed, read or resolved */
  private readonly paths = new Set<string>();
  /** folders listed */
  private readonly dirs = new Set<string>();
  /** calls that reached the file system */
  diskOps = 0;

  constructor(private readonly inner: FileAccess) {}

  private note(p: string): void {
    this.diskOps++;
    // (no copy of a path that is already normal: the engine asks about many)
    this.paths.add(path.sep === '/' && path.isAbsolute(p) && !NOT_NORMAL.test(p) ? p : path.normalize(p));
  }

  stat(p: string): FsResult<StatInfo> {
    this.note(p);
    return this.inner.stat(p);
  }

  lstat(p: string): FsResult<LinkInfo> {
    this.note(p);
    return this.inner.lstat(p);
  }

  realpath(p: string): FsResult<string> {
    this.note(p);
    return this.inner.realpath(p);
  }

  readFile(p: string, maxBytes: number): FsResult<Uint8Array> {
    this.note(p);
    return this.inner.readFile(p, maxBytes);
  }

  readDir(p: string): FsResult<DirEntry[]> {
    this.diskOps++;
    this.dirs.add(path.normalize(p));
    return this.inner.readDir(p);
  }

  /** could a change (creation, edit, deletion) of `p` alter what the engine read? */
  matters(p: string): boolean {
    const norm = path.normalize(p);
    if (this.paths.has(norm) || this.dirs.has(norm) || this.dirs.has(path.dirname(norm))) return true;
    const below = norm.endsWith(path.sep) ? norm : norm + path.sep;
    for (const k of this.paths) if (k.startsWith(below)) return true;
    for (const k of this.dirs) if (k.startsWith(below)) return true;
    return false;
  }

  /** folders whose changes can matter: each folder listed, and the folder of each path looked at */
  watchedFolders(): Set<string> {
    const out = new Set<string>(this.dirs);
    for (const p of this.paths) out.add(path.dirname(p));
    return out;
  }

  /** what a watcher should await: every path looked at, and every folder listed */
  watchTargets(): { paths: string[]; listed: string[] } {
    return { paths: [...this.paths], listed: [...this.dirs] };
  }

  forget(): void {
    this.paths.clear();
    this.dirs.clear();
  }
}
