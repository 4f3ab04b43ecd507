// Claude Code's transcript (`<config>/projects/<key>/<session-id>.jsonl`), text in, records out: a
// parser that takes the file in chunks as it grows (a line being written stays pending until its
// newline arrives), bounds what it keeps (a line past MAX_LINE_CHARS is skipped and reported, never
// held), and never throws: a line that is not JSON, not an object or without a `type` is a problem
// with its line number; a type it does not know is counted, not guessed at.
//
// Record types measured on 2.1.235, 2.1.328, 2.1.332 and 2.1.333 (docs/session.md, "The transcript"):
// conversation records `user`, `assistant`, `system` (subtype `compact_boundary`, …) and `attachment`
// (attachment.type `instructions`, `nested_memory`, `edited_text_file`, `file`, `invoked_skills`,
// `skill_listing`, `hook_success`, …); from 2.1.328 on also `api-request` (id, base, keep, tail: the
// request's messages as hashes), `api-request-blob` (a message by its hash) and `api-request-shape`
// (system blocks and tools by their hash); bookkeeping records that say nothing about the context.

export type Rec = Record<string, unknown>;

/** a record of a type this reader does not know, kept as a link of the parentUuid chain only:
 *  `{ uuid, parentUuid, timestamp, isSidechain }` */
export const LINK_TYPE = '#link';

/** a line longer than this (UTF-16 units) is skipped: no record Claude Code writes for the context is near it */
export const MAX_LINE_CHARS = 32 * 1024 * 1024;

/** records that carry nothing the reader uses: dropped as soon as their type is known (`bridge-session`, the remote-control
 *  bridge's id, and `file-history-delta`, one file's backup for a rewind checkpoint: seen on 2.1.218 to 2.1.235;
 *  `frame-link`, a page published as an artifact: 2.1.227; `agent-color` 2.1.212, `agent-setting`, `worktree-state` and
 *  `relocated`, the worktree a session moved into: 2.1.233) */
const BOOKKEEPING = new Set(['queue-operation', 'mode', 'permission-mode', 'atis-latch', 'tools-used', 'last-prompt', 'file-history-snapshot', 'file-history-delta', 'bridge-session', 'frame-link', 'agent-color', 'agent-setting', 'worktree-state', 'relocated', 'cost-state', 'summary', 'custom-title', 'ai-title', 'agent-name', 'tag', 'pr-link']);
const KNOWN = new Set([...BOOKKEEPING, 'user', 'assistant', 'system', 'attachment', 'api-request', 'api-request-blob', 'api-request-shape', 'progress']);
const SHARED_KEYS = ['sessionId', 'cwd', 'gitBranch', 'version', 'userType', 'entrypoint'] as const;
const MAX_SHARED = 256;
/** attachments whose body is large and unused (the whole prompt as the UI showed it) */
const DROPPED_ATTACHMENTS = new Set(['prompt_snapshot']);

/** a mark's text (a queued or withdrawn prompt, a local command's output) is kept to this many characters */
const MARK_TEXT = 500;
export const markText = (s: string): string => (s.length > MARK_TEXT ? `${s.slice(0, MARK_TEXT - 1)}…` : s);

export interface TranscriptProblem {
  /** 1-based line number (0: the file as a whole) */
  line: number;
  reason: string;
  /** the subagent's or workflow agent's transcript it is about (absent: the session's own) */
  file?: string;
}

export interface ParsedRecord {
  /** 1-based line number */
  line: number;
  type: string;
  rec: Rec;
}

export class TranscriptParser {
  readonly records: ParsedRecord[] = [];
  readonly problems: TranscriptProblem[] = [];
  /** record types this reader does not know, with how many lines had each */
  readonly unknownTypes = new Map<string, number>();
  /** Claude Code versions named by the records */
  readonly versions = new Set<string>();
  /** records written again with a uuid already seen (2.1.235 rewrites the conversation at a
   *  compaction): kept once, at their first place */
  rewritten = 0;
  private readonly uuids = new Set<string>();
  /** the envelope's repeated values (session id, folder, branch), one string each for every record (a 2-million-record
   *  transcript held each of them two million times); at most MAX_SHARED distinct ones */
  private readonly shared = new Map<string, string>();
  private lastUuid: string | undefined;
  private pending = '';
  /** the last line was taken without its newline (settle): a newline that comes next ends it, not an empty line */
  private settled = false;
  private skipping = false;
  private lineNo = 0;
  private maxLine: number;

  constructor(opts: { maxLineChars?: number } = {}) {
    this.maxLine = opts.maxLineChars ?? MAX_LINE_CHARS;
  }

  /** records with a type (known or not) so far: none in a file that is not a transcript */
  typed = 0;

  /** lines seen so far (complete ones) */
  get lines(): number {
    return this.lineNo;
  }

  /** true while a line has begun but its newline has not arrived */
  get hasPartialLine(): boolean {
    return this.pending.length > 0 || this.skipping;
  }

  /** feeds the next chunk of the file; returns the records it completed */
  push(chunk: string): ParsedRecord[] {
    const start = this.records.length;
    let at = 0;
    if (this.settled && chunk.length) {
      this.settled = false;
      if (chunk.startsWith('\r\n')) at = 2;
      else if (chunk.startsWith('\n')) at = 1;
    }
    while (at < chunk.length) {
      const nl = chunk.indexOf('\n', at);
      const end = nl < 0 ? chunk.length : nl;
      if (this.skipping) {
        if (nl >= 0) {
          this.skipping = false;
          this.lineNo++;
        }
      } else if (this.pending.length + (end - at) > this.maxLine) {
        this.problems.push({ line: this.lineNo + 1, reason: `line longer than ${this.maxLine} characters: skipped` });
        this.pending = '';
        if (nl >= 0) this.lineNo++;
        else this.skipping = true;
      } else if (nl < 0) {
        this.pending += chunk.slice(at, end);
      } else {
        const line = this.pending + chunk.slice(at, end);
        this.pending = '';
        this.lineNo++;
        this.take(line, this.lineNo);
      }
      at = nl < 0 ? chunk.length : nl + 1;
    }
    return this.records.slice(start);
  }

  /**
   * A last line without its newline taken now if it is one whole JSON object, else left pending. Claude Code ends
   * every record with a newline, but a transcript copied by another tool may lack the last one (Entire's checkpoint
   * copies, full.jsonl: 419 of 546 files end so; the reader dropped their last record, and with it the last request's
   * output tokens and the time the session ended). No prefix of an object parses as one, so a line still being
   * written is never taken; the newline that may follow it later is then the end of the line already taken.
   */
  settle(): ParsedRecord[] {
    const s = this.pending.trim();
    if (!s.startsWith('{') || !s.endsWith('}')) return [];
    let v: unknown;
    try {
      v = JSON.parse(s);
    } catch {
      return [];
    }
    const start = this.records.length;
    this.pending = '';
    this.lineNo++;
    this.settled = true;
    this.takeValue(v, this.lineNo);
    return this.records.slice(start);
  }

  /** the file ended: a last line without its newline is taken if it is whole JSON, else reported as cut */
  end(): ParsedRecord[] {
    if (!this.pending) return [];
    const line = this.pending;
    this.pending = '';
    const start = this.records.length;
    if (!this.take(line, this.lineNo + 1, true)) this.problems.push({ line: this.lineNo + 1, reason: 'last line is cut (no newline, not whole JSON): being written, or the file was cut' });
    else this.lineNo++;
    return this.records.slice(start);
  }

  private take(line: string, n: number, quiet = false): boolean {
    const s = line.trim();
    if (!s) return true;
    let v: unknown;
    try {
      v = JSON.parse(s);
    } catch {
      // records glued on one line (`…}{"type":…`, no newline between: seen on 2.1.12): each is read
      const glued = splitGlued(s);
      if (glued) {
        for (const g of glued) this.takeValue(g, n);
        return true;
      }
      if (!quiet) this.problems.push({ line: n, reason: 'not JSON' });
      return false;
    }
    this.takeValue(v, n);
    return true;
  }

  /** the same value as one string: the envelope's session id, folder and branch, and a parent that is the record before */
  private share(rec: Rec): void {
    for (const k of SHARED_KEYS) {
      const v = rec[k];
      if (typeof v !== 'string' || v.length <= 10) continue; // V8 shares short values already
      const hit = this.shared.get(v);
      if (hit !== undefined) rec[k] = hit;
      else if (this.shared.size < MAX_SHARED) this.shared.set(v, v);
    }
    if (typeof rec.parentUuid === 'string' && rec.parentUuid === this.lastUuid) rec.parentUuid = this.lastUuid;
    if (typeof rec.uuid === 'string') this.lastUuid = rec.uuid;
  }

  /** a record the reader does not keep, kept as a link of the chain only (its uuid, parent and time): a prompt's
   *  parent, or a rewind's, may be one */
  private link(rec: Rec, n: number): void {
    if (typeof rec.uuid === 'string') this.records.push({ line: n, type: LINK_TYPE, rec: { uuid: rec.uuid, parentUuid: rec.parentUuid, timestamp: rec.timestamp, isSidechain: rec.isSidechain } });
  }

  private takeValue(v: unknown, n: number): void {
    if (!v || typeof v !== 'object' || Array.isArray(v)) {
      this.problems.push({ line: n, reason: 'not a JSON object' });
      return;
    }
    const rec = v as Rec;
    const type = rec.type;
    if (typeof type !== 'string') {
      this.problems.push({ line: n, reason: 'record without a type' });
      return;
    }
    this.typed++;
    if (typeof rec.version === 'string') this.versions.add(rec.version);
    this.share(rec);
    if (!KNOWN.has(type)) {
      this.unknownTypes.set(type, (this.unknownTypes.get(type) ?? 0) + 1);
      this.link(rec, n);
      return;
    }
    if (BOOKKEEPING.has(type)) {
      // its time only: a prompt queued after the last answer (a `queue-operation`) is when the session was last used
      if (typeof rec.timestamp === 'string') {
        // prompts typed while the model worked, taken out of the queue unsent (`popAll`: back into the input at an
        // interrupt, or run as a command): 2.0.76 to 2.1.167 write their text
        const withdrawn = type === 'queue-operation' && rec.operation === 'popAll' && typeof rec.content === 'string' && rec.content.trim() ? rec.content : undefined;
        this.records.push({ line: n, type: LINK_TYPE, rec: { timestamp: rec.timestamp, ...(withdrawn !== undefined && { withdrawn: markText(withdrawn) }) } });
      }
      return;
    }
    if (typeof rec.uuid === 'string') {
      if (this.uuids.has(rec.uuid)) {
        this.rewritten++;
        return;
      }
      this.uuids.add(rec.uuid);
    }
    // `progress` (2.1.12 to 2.1.81): only a hook's run is kept (attachment-layers.ts); a subagent's messages, a command's
    // output and an MCP call's status are not context of the main chain, but a link of it
    if (type === 'progress' && (rec.data as Rec | undefined)?.type !== 'hook_progress') {
      this.link(rec, n);
      return;
    }
    if (type === 'attachment') {
      const a = rec.attachment as Rec | undefined;
      if (a && typeof a.type === 'string' && DROPPED_ATTACHMENTS.has(a.type)) return;
    }
    this.records.push({ line: n, type, rec });
  }
}

/** a glued line is split only when it is short enough and has few enough joints to try (bounded work) */
const MAX_GLUED_CHARS = 4 * 1024 * 1024;
const MAX_GLUED_JOINTS = 64;

/** the records of a line that holds several JSON objects written with no newline between
 *  (`}{"`), or undefined when it is not that: each piece must parse as an object */
export function splitGlued(s: string): unknown[] | undefined {
  if (s.length > MAX_GLUED_CHARS || !s.startsWith('{')) return undefined;
  const out: unknown[] = [];
  let start = 0;
  let joints = 0;
  for (let at = s.indexOf('}{"'); at >= 0; at = s.indexOf('}{"', at + 1)) {
    if (++joints > MAX_GLUED_JOINTS) return undefined;
    try {
      out.push(JSON.parse(s.slice(start, at + 1)));
      start = at + 1;
    } catch {
      /* the joint is inside a string: the piece goes on */
    }
  }
  if (!out.length) return undefined;
  try {
    out.push(JSON.parse(s.slice(start)));
  } catch {
    return undefined;
  }
  return out.every((v) => v && typeof v === 'object' && !Array.isArray(v)) ? out : undefined;
}

/** a whole transcript text at once */
export function parseTranscriptText(text: string, opts: { maxLineChars?: number } = {}): TranscriptParser {
  const p = new TranscriptParser(opts);
  p.push(text);
  p.end();
  return p;
}

// ------------------------------------------------------------------ small typed views of a record

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const obj = (v: unknown): Rec | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export type Block = { type?: string; text?: string; content?: unknown; tool_use_id?: string; id?: string; name?: string; input?: unknown; is_error?: boolean };
export type WireMessage = { role: string; content: string | Block[] };

/** the message of a user/assistant record, or undefined */
export function messageOf(r: Rec): WireMessage | undefined {
  const m = obj(r.message);
  if (!m) return undefined;
  const role = str(m.role);
  const content = m.content;
  if (!role || (typeof content !== 'string' && !Array.isArray(content))) return undefined;
  return { role, content: content as string | Block[] };
}

export function blocksOf(m: WireMessage): Block[] {
  return typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content.filter((b): b is Block => !!b && typeof b === 'object');
}
