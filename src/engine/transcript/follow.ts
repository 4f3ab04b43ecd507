// Following a transcript as Claude Code writes it, through FileAccess: each poll reads only the bytes
// appended since the last one (in pieces of at most CHUNK_BYTES, UTF-8 decoded across piece borders),
// so an appended record costs the same whatever the file's size. A file that shrank or was replaced
// (another inode) is read again from the start; one that vanished says so. Never throws.
import type { FileAccess } from '../files/file-access.js';
import { TranscriptParser, type ParsedRecord } from './records.js';

const LF = 0x0a;
export const CHUNK_BYTES = 4 * 1024 * 1024;
/** the most a transcript is read in all: past it the rest is left unread and said so */
export const MAX_TRANSCRIPT_BYTES = 1024 * 1024 * 1024;

export type FollowState = 'new' | 'appended' | 'unchanged' | 'restarted' | 'gone' | 'unreadable';

export class TranscriptFollower {
  parser = new TranscriptParser();
  private offset = 0;
  private id: string | undefined;
  private decoder = new TextDecoder('utf-8');
  /** for whole lines only: never streams */
  private readonly whole = new TextDecoder('utf-8');
  /** why the last poll could not read, if it could not */
  error: string | undefined;
  /** the file is larger than MAX_TRANSCRIPT_BYTES: only its start was read */
  capped = false;

  constructor(
    private readonly fa: FileAccess,
    readonly file: string,
    private readonly maxBytes = MAX_TRANSCRIPT_BYTES,
  ) {}

  get bytesRead(): number {
    return this.offset;
  }

  /** reads what was appended; `restarted` means the records were read again from the start */
  poll(): FollowState {
    const first = this.id === undefined;
    const st = this.fa.stat(this.file);
    if (!st.ok) {
      this.error = `${st.code}: ${st.message}`;
      return st.code === 'ENOENT' ? 'gone' : 'unreadable';
    }
    if (st.value.kind !== 'file') {
      this.error = 'not a regular file';
      return 'unreadable';
    }
    let state: FollowState = first ? 'new' : 'unchanged';
    if (!first && st.value.size < this.offset) state = this.reset();
    for (;;) {
      if (this.offset >= this.maxBytes) {
        this.capped = true;
        break;
      }
      const r = this.fa.readRange
        ? this.fa.readRange(this.file, this.offset, Math.min(CHUNK_BYTES, this.maxBytes - this.offset))
        : this.wholeFile();
      if (!r.ok) {
        this.error = `${r.code}: ${r.message}`;
        return 'unreadable';
      }
      this.error = undefined;
      if (this.id !== undefined && r.value.id !== this.id) {
        state = this.reset();
        this.id = r.value.id;
        continue;
      }
      this.id = r.value.id;
      if (r.value.size < this.offset) {
        state = this.reset();
        continue;
      }
      if (!r.value.data.length) break;
      this.parser.push(this.decode(r.value.data));
      this.offset += r.value.data.length;
      if (state === 'unchanged') state = 'appended';
      if (!this.fa.readRange) break;
    }
    return state;
  }

  /** records completed since the start (or the last restart) */
  get records(): readonly ParsedRecord[] {
    return this.parser.records;
  }

  /**
   * A piece as text, UTF-8 decoded across piece borders. The whole lines in its middle (from after its
   * first \n to its last: a \n byte is never part of a longer sequence, so they start and end on
   * character borders) go through a decoder that never streams, which takes Node's fast path (measured
   * on a cold 100 MB transcript: decoding 281 -> 71 ms in the reader's profile); only the partial lines
   * at its ends stream.
   */
  private decode(data: Uint8Array): string {
    const first = data.indexOf(LF);
    if (first < 0) return this.decoder.decode(data, { stream: true });
    const last = data.lastIndexOf(LF);
    return (
      this.decoder.decode(data.subarray(0, first + 1)) +
      (last > first ? this.whole.decode(data.subarray(first + 1, last + 1)) : '') +
      this.decoder.decode(data.subarray(last + 1), { stream: true })
    );
  }

  private reset(): FollowState {
    this.parser = new TranscriptParser();
    this.decoder = new TextDecoder('utf-8');
    this.offset = 0;
    return 'restarted';
  }

  /** a FileAccess without readRange: the whole file, once */
  private wholeFile(): ReturnType<NonNullable<FileAccess['readRange']>> {
    const r = this.fa.readFile(this.file, this.maxBytes);
    if (!r.ok) return r;
    const data = this.offset ? r.value.subarray(this.offset) : r.value;
    return { ok: true, value: { data, size: r.value.length, id: 'whole' } };
  }
}
