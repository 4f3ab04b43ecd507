// Ids of the sidebar's rows, built from what a row is (a file's path, a skill's name, a tool), never
// from its position in a list: the webview remembers which branches the user opened by row id, so an
// entry added above another must leave the other's id as it was. Any text can become an id segment:
// every character but [A-Za-z0-9._-] is escaped as %XXXX (its UTF-16 code unit), so "/" inside a name
// can never pass for a separator and two different texts never give the same segment; a segment too
// long for the UI memory (which drops keys over 1,000 chars) is replaced by a hash of its escaped form.
import { createHash } from 'node:crypto';
import * as path from 'node:path';

const MAX_PART = 160;

/** one id segment from any text: injective, made of [A-Za-z0-9._%-] only */
export function idPart(text: string): string {
  const esc = text.replace(/[^A-Za-z0-9._-]/g, (ch) => `%${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (esc.length <= MAX_PART) return esc || '%';
  return `%h${createHash('sha256').update(esc).digest('hex').slice(0, 32)}`;
}

/** the segment of a file: its path relative to root, "/" separated (a non-absolute pseudo path such as `<managed settings>` as it is) */
export function pathPart(root: string, file: string): string {
  const rel = path.isAbsolute(file) && path.isAbsolute(root) ? path.relative(root, file) : file;
  return idPart(rel.split(path.sep).join('/') || '.');
}

/**
 * Hands out ids under one parent: the first row with a given key gets `prefix/key`, a second row
 * with the same key `prefix/key~2` ("~" is escaped inside keys, so the suffix cannot collide).
 */
export class RowIds {
  private readonly seen = new Map<string, number>();
  constructor(private readonly prefix: string) {}

  /** the id of the row whose segment is `part` (already an idPart/pathPart) */
  take(part: string): string {
    const id = `${this.prefix}/${part}`;
    const n = (this.seen.get(id) ?? 0) + 1;
    this.seen.set(id, n);
    return n === 1 ? id : `${id}~${n}`;
  }
}
