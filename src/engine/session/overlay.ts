// Edits of a simulated session, layered over the engine's file access: files written or deleted
// between turns (TURNS.json `before`) and by the model's own Edit/Write calls. The disk is never
// written; every read goes through here, so the rest of the engine sees the session's tree.
import * as path from 'node:path';
import type { DirEntry, FileAccess, FsResult, LinkInfo, StatInfo } from '../files/file-access.js';

type Layer = { kind: 'file'; bytes: Uint8Array; mtimeMs: number } | { kind: 'deleted' };

const enoent = <T>(p: string): FsResult<T> => ({ ok: false, code: 'ENOENT', message: `no such file (deleted in the session): ${p}` });

export class OverlayFileAccess implements FileAccess {
  private readonly layers = new Map<string, Layer>();
  /** folders that exist because a file was written below them */
  private readonly madeDirs = new Map<string, number>();

  constructor(private readonly base: FileAccess) {}

  /** a copy that later writes and deletes do not reach: the tree as it is now */
  snapshot(): OverlayFileAccess {
    const o = new OverlayFileAccess(this.base);
    for (const [k, v] of this.layers) o.layers.set(k, v);
    for (const [k, v] of this.madeDirs) o.madeDirs.set(k, v);
    return o;
  }

  /** paths written or deleted so far */
  changedPaths(): string[] {
    return [...this.layers.keys()];
  }

  write(p: string, content: string | Uint8Array, mtimeMs: number): void {
    const abs = path.resolve(p);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    this.layers.set(abs, { kind: 'file', bytes, mtimeMs });
    for (let d = path.dirname(abs); d !== path.dirname(d); d = path.dirname(d)) {
      const st = this.stat(d);
      if (st.ok && st.value.kind === 'dir') break;
      this.madeDirs.set(d, mtimeMs);
      this.layers.delete(d);
    }
  }

  delete(p: string): void {
    const abs = path.resolve(p);
    this.layers.set(abs, { kind: 'deleted' });
    this.madeDirs.delete(abs);
    // everything below a deleted folder goes with it
    for (const k of [...this.layers.keys()]) if (k.startsWith(abs + path.sep)) this.layers.set(k, { kind: 'deleted' });
    for (const k of [...this.madeDirs.keys()]) if (k.startsWith(abs + path.sep)) this.madeDirs.delete(k);
  }

  /** what the base holds below a deleted folder, a written file, or a folder the session made is not there */
  private hidden(abs: string): boolean {
    for (let d = path.dirname(abs); d !== path.dirname(d); d = path.dirname(d)) {
      if (this.layers.has(d) || this.madeDirs.has(d)) return true;
    }
    return false;
  }

  stat(p: string): FsResult<StatInfo> {
    const abs = path.resolve(p);
    const l = this.layers.get(abs);
    if (l?.kind === 'file') return { ok: true, value: { kind: 'file', size: l.bytes.length, mtimeMs: l.mtimeMs } };
    if (this.madeDirs.has(abs)) return { ok: true, value: { kind: 'dir', size: 0, mtimeMs: this.madeDirs.get(abs)! } };
    if (l?.kind === 'deleted' || this.hidden(abs)) return enoent(abs);
    return this.base.stat(abs);
  }

  lstat(p: string): FsResult<LinkInfo> {
    const abs = path.resolve(p);
    if (this.layers.has(abs) || this.madeDirs.has(abs) || this.hidden(abs)) {
      const s = this.stat(abs);
      return s.ok ? { ok: true, value: { ...s.value, isSymlink: false } } : s;
    }
    return this.base.lstat(abs);
  }

  readDir(p: string): FsResult<DirEntry[]> {
    const abs = path.resolve(p);
    const st = this.stat(abs);
    if (!st.ok) return st;
    if (st.value.kind !== 'dir') return { ok: false, code: 'ENOTDIR', message: `not a folder: ${abs}` };
    const baseList = this.madeDirs.has(abs) ? undefined : this.base.readDir(abs);
    const out: DirEntry[] = [];
    const names = new Set<string>();
    if (baseList?.ok)
      for (const e of baseList.value) {
        const child = path.join(abs, e.name);
        if (this.layers.get(child)?.kind === 'deleted') continue;
        const l = this.layers.get(child);
        out.push(l?.kind === 'file' ? { name: e.name, kind: 'file' } : e);
        names.add(e.name);
      }
    const add = (child: string, kind: DirEntry['kind']) => {
      if (path.dirname(child) !== abs) return;
      const name = path.basename(child);
      if (names.has(name)) return;
      names.add(name);
      out.push({ name, kind });
    };
    for (const [k, l] of this.layers) if (l.kind === 'file') add(k, 'file');
    for (const k of this.madeDirs.keys()) add(k, 'dir');
    return { ok: true, value: out };
  }

  readFile(p: string, maxBytes: number): FsResult<Uint8Array> {
    const abs = path.resolve(p);
    const l = this.layers.get(abs);
    if (l?.kind === 'file') return l.bytes.length > maxBytes ? { ok: false, code: 'EFBIG', message: `file is ${l.bytes.length} bytes` } : { ok: true, value: l.bytes };
    if (this.madeDirs.has(abs)) return { ok: false, code: 'EISDIR', message: 'not a regular file' };
    if (l?.kind === 'deleted' || this.hidden(abs)) return enoent(abs);
    return this.base.readFile(abs, maxBytes);
  }

  realpath(p: string): FsResult<string> {
    const abs = path.resolve(p);
    if (this.layers.get(abs)?.kind === 'file' || this.madeDirs.has(abs)) {
      const parent = this.realpath(path.dirname(abs));
      return parent.ok ? { ok: true, value: path.join(parent.value, path.basename(abs)) } : { ok: true, value: abs };
    }
    if (this.layers.get(abs)?.kind === 'deleted' || this.hidden(abs)) return enoent(abs);
    return this.base.realpath(abs);
  }
}
