// The one door through which the engine touches the disk. Tests, the CLI and the extension share it;
// the snapshot layer (snapshot.ts) sits on top so that editor queries are answered from memory.
// `nodeFileAccess` below is the only code of the engine that imports node:fs (eslint.config.mjs).
import * as fs from 'node:fs';

export type NodeKind = 'file' | 'dir' | 'other';

export interface StatInfo {
  kind: NodeKind;
  size: number;
  mtimeMs: number;
}

export interface LinkInfo extends StatInfo {
  /** true when the path itself is a symbolic link (kind/size then describe the link, not its target) */
  isSymlink: boolean;
}

export interface DirEntry {
  name: string;
  /** kind of the entry itself; symlinks are reported as 'symlink' and must be stat'ed to learn the target */
  kind: NodeKind | 'symlink';
}

/** an entry of `list`: Node's own fs.Dirent fits, so a crawl allocates nothing more per file */
export interface ListedEntry {
  readonly name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

export type FsResult<T> = { ok: true; value: T } | { ok: false; code: string; message: string };

export interface FileAccess {
  /** stat following symlinks */
  stat(path: string): FsResult<StatInfo>;
  /** stat of the path itself */
  lstat(path: string): FsResult<LinkInfo>;
  /** entries in the file system's own (unsorted) order, as `opendir` returns them */
  readDir(path: string): FsResult<DirEntry[]>;
  /** whole file, refused with code EFBIG when larger than maxBytes; only regular files are read */
  readFile(path: string, maxBytes: number): FsResult<Uint8Array>;
  realpath(path: string): FsResult<string>;
  /** up to maxBytes of a regular file from byte `offset` (a growing file read in pieces), with its size
   *  and an identity (device and inode) that tells a replaced file from an appended one */
  readRange?(path: string, offset: number, maxBytes: number): FsResult<{ data: Uint8Array; size: number; id: string }>;
  /**
   * The fast listing for crawls of a whole workspace (the workspace index, lint): a folder's
   * entries sorted by name (code units), with their kinds as readDir gives them, without a copy
   * per entry. Optional: `listEntries` falls back on readDir for a FileAccess without it.
   */
  list?(path: string): FsResult<readonly ListedEntry[]>;
  /** device and inode of what `path` leads to (two paths with equal ids are one file), when the file system has them */
  fileId?(path: string): string | undefined;
}

/** order by UTF-16 code unit, as a plain `<` compares (no locale: a collator or localeCompare sets up ICU) */
export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
export const byName = (a: { name: string }, b: { name: string }) => byCodeUnit(a.name, b.name);

/** a DirEntry as a ListedEntry */
/** a folder's entry that is its own ListedEntry: no closure per entry (a crawl makes one per file), and a list of them
 *  serves readDir and the fast listing alike (git-tree.ts keeps a commit's folders so) */
export class ListedDirEntry implements DirEntry, ListedEntry {
  constructor(
    readonly name: string,
    readonly kind: DirEntry['kind'],
  ) {}
  isFile(): boolean {
    return this.kind === 'file';
  }
  isDirectory(): boolean {
    return this.kind === 'dir';
  }
  isSymbolicLink(): boolean {
    return this.kind === 'symlink';
  }
}

export function listed(e: DirEntry): ListedEntry {
  return new ListedDirEntry(e.name, e.kind);
}

/** `fa.list(dir)`, or readDir sorted by name where `fa` has no fast listing */
export function listEntries(fa: FileAccess, dir: string): FsResult<readonly ListedEntry[]> {
  if (fa.list) return fa.list(dir);
  const r = fa.readDir(dir);
  return r.ok ? { ok: true, value: r.value.map(listed).sort(byName) } : r;
}

/** what Node says when a path is not there, without the cost of a thrown error (about 10 µs each) */
function noEntry<T>(syscall: string, path: string): FsResult<T> {
  return { ok: false, code: 'ENOENT', message: `ENOENT: no such file or directory, ${syscall} '${path}'` };
}

function fail<T>(e: unknown): FsResult<T> {
  const err = e as NodeJS.ErrnoException;
  return { ok: false, code: err?.code ?? 'EIO', message: err?.message ?? String(e) };
}

function kindOf(s: fs.Stats): NodeKind {
  return s.isFile() ? 'file' : s.isDirectory() ? 'dir' : 'other';
}

/** The real file system, synchronous: every call is bounded (no reads of FIFOs or devices). */
export const nodeFileAccess: FileAccess = {
  stat(path) {
    try {
      const s = fs.statSync(path, { throwIfNoEntry: false });
      if (!s) return noEntry('stat', path);
      return { ok: true, value: { kind: kindOf(s), size: s.size, mtimeMs: s.mtimeMs } };
    } catch (e) {
      return fail(e);
    }
  },
  lstat(path) {
    try {
      const s = fs.lstatSync(path, { throwIfNoEntry: false });
      if (!s) return noEntry('lstat', path);
      return { ok: true, value: { kind: kindOf(s), size: s.size, mtimeMs: s.mtimeMs, isSymlink: s.isSymbolicLink() } };
    } catch (e) {
      return fail(e);
    }
  },
  readDir(path) {
    let dir: fs.Dir | undefined;
    try {
      dir = fs.opendirSync(path);
      const out: DirEntry[] = [];
      for (let d = dir.readSync(); d !== null; d = dir.readSync()) {
        out.push({ name: d.name, kind: d.isSymbolicLink() ? 'symlink' : d.isFile() ? 'file' : d.isDirectory() ? 'dir' : 'other' });
      }
      return { ok: true, value: out };
    } catch (e) {
      return fail(e);
    } finally {
      try {
        dir?.closeSync();
      } catch {
        /* already closed */
      }
    }
  },
  readFile(path, maxBytes) {
    let fd: number | undefined;
    try {
      // open non-blocking so that a FIFO never blocks; then insist on a regular file
      fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      const s = fs.fstatSync(fd);
      if (!s.isFile()) return { ok: false, code: s.isDirectory() ? 'EISDIR' : 'ENOTREG', message: 'not a regular file' };
      if (s.size > maxBytes) return { ok: false, code: 'EFBIG', message: `file is ${s.size} bytes` };
      const buf = Buffer.allocUnsafe(s.size);
      let off = 0;
      while (off < s.size) {
        const n = fs.readSync(fd, buf, off, s.size - off, off);
        if (n === 0) break;
        off += n;
      }
      return { ok: true, value: buf.subarray(0, off) };
    } catch (e) {
      return fail(e);
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  },
  readRange(path, offset, maxBytes) {
    let fd: number | undefined;
    try {
      fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      const s = fs.fstatSync(fd);
      if (!s.isFile()) return { ok: false, code: s.isDirectory() ? 'EISDIR' : 'ENOTREG', message: 'not a regular file' };
      const want = Math.max(0, Math.min(maxBytes, s.size - offset));
      const buf = Buffer.allocUnsafe(want);
      let got = 0;
      while (got < want) {
        const n = fs.readSync(fd, buf, got, want - got, offset + got);
        if (n === 0) break;
        got += n;
      }
      return { ok: true, value: { data: buf.subarray(0, got), size: s.size, id: `${s.dev}:${s.ino}` } };
    } catch (e) {
      return fail(e);
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  },
  realpath(path) {
    try {
      // most paths asked about are not there (a CLAUDE.md in every ancestor): an lstat says so cheaply
      if (!fs.lstatSync(path, { throwIfNoEntry: false })) return noEntry('realpath', path);
      return { ok: true, value: fs.realpathSync.native(path) };
    } catch (e) {
      return fail(e);
    }
  },
  fileId(path) {
    try {
      const s = fs.statSync(path, { throwIfNoEntry: false });
      return s ? `${s.dev}:${s.ino}` : undefined;
    } catch {
      return undefined;
    }
  },
  list(path) {
    try {
      return { ok: true, value: fs.readdirSync(path, { withFileTypes: true }) };
    } catch (e) {
      return fail(e);
    }
  },
};
