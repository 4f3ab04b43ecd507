// Following a transcript as Claude Code writes it, through FileAccess: each poll reads only the bytes
// appended since the last one (in pieces of at most CHUNK_BYTES, UTF-8 decoded across piece borders),
// so an appended record costs the same whatever the file's size. A file that shrank or was replaced
// (another inode) is read again from the start; one that vanished says so. Never throws.
import type { FileAccess } from '../files/file-access.js';
import { TranscriptParser, type ParsedRecord } from './records.js';

const LF = 0x0a;
export const CHUNK_BYTES = 4 * 1024 * 1024;
/** whole lines are decoded and parsed in batches of about this many bytes (a longer line alone) */
const BATCH_BYTES = 64 * 1024;
/** the most a transcript is read in all: past it the rest is left unread and said so */
export const MAX_TRANSCRIPT_BYTES = 1024 * 1024 * 1024;

export interface RecordSink {
  records(records: ParsedRecord[]): void;
  restart(): void;
}

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

  /** where poll() hands the records as it completes them, while it reads (so that a cold open holds what the
   *  consumer keeps, not every record of the file at once): `restart` when the file is read again from the start */
  private sink: RecordSink | undefined;

  /** reads what was appended; `restarted` means the records were read again from the start. With `sink`, the
   *  records are handed to it piece by piece (and taken out of the parser) as they are read */
  poll(sink?: RecordSink): FollowState {
    this.sink = sink;
    try {
      return this.pollInner();
    } finally {
      this.sink = undefined;
    }
  }

  private pollInner(): FollowState {
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
      this.feed(r.value.data);
      this.offset += r.value.data.length;
      if (this.sink && this.parser.records.length) this.sink.records(this.parser.records.splice(0));
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
   * A piece, UTF-8 decoded across piece borders, given to the parser. The whole lines in its middle (from
   * after its first \n to its last: a \n byte is never part of a longer sequence, so they start and end on
   * character borders) go through a decoder that never streams, which takes Node's fast path (measured on
   * a cold 100 MB transcript: decoding 281 -> 71 ms in the reader's profile), in batches of whole lines of
   * at most BATCH_BYTES: a string past V8's largest young object (about 128 KiB) is a large object of its
   * own, mapped and faulted in afresh (decoding 4 MiB at once took 15 ms on this machine, in 64 KiB
   * batches 1 ms; the parser's first indexOf on the 4 MiB joined text copied it once more). Only the
   * partial lines at its ends stream.
   */
  private feed(data: Uint8Array): void {
    const first = data.indexOf(LF);
    if (first < 0) {
      this.parser.push(this.decoder.decode(data, { stream: true }));
      return;
    }
    this.parser.push(this.decoder.decode(data.subarray(0, first + 1)));
    const last = data.lastIndexOf(LF);
    for (let at = first + 1; at <= last; ) {
      let end = at + BATCH_BYTES >= last ? last : data.lastIndexOf(LF, at + BATCH_BYTES);
      if (end < at) end = data.indexOf(LF, at + BATCH_BYTES);
      this.parser.push(this.whole.decode(data.subarray(at, end + 1)));
      // handed on batch by batch: a record the consumer does not keep dies young (held for a whole piece of 4 MiB,
      // a piece's records outlived the young generation, and their garbage grew the old one: 2,000,000 tiny records
      // made the process's resident set several times what the reader keeps)
      if (this.sink && this.parser.records.length) this.sink.records(this.parser.records.splice(0));
      at = end + 1;
    }
    if (last + 1 < data.length) this.parser.push(this.decoder.decode(data.subarray(last + 1), { stream: true }));
  }

  private reset(): FollowState {
    this.sink?.restart();
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
