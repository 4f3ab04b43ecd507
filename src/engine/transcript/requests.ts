// The requests a session sent, rebuilt from its transcript (2.1.328 and later): every `api-request`
// names its messages as the previous request's first `keep` plus a `tail` of hashes; a hash is found
// as an `api-request-blob`, or else it is a conversation record's message (alone, or the user records
// that Claude Code sends as one message, merged). A message's hash is sha256 of its JSON with keys
// sorted and a string content taken as one text block (measured: every hash of every request of the
// session suite resolves). The system blocks and tools come from the `api-request-shape` it names.
//
// Incremental (RequestIndex.add, record by record, as the file grows): conversation records are hashed
// when the next request needs them (a version that records no request hashes none), a request's messages are the previous request's array cut at `keep` plus its tail
// (the message objects are shared, never copied), its characters by layer are the previous request's
// plus its tail's, and a tool result's text past LONG_TEXT characters is dropped once hashed (only its
// length is kept: nothing shows it), so that memory follows the conversation, not the file.
import { createHash } from 'node:crypto';
import { arr, blocksOf, messageOf, num, obj, str, type Block, type ParsedRecord, type Rec, type WireMessage } from './records.js';

export interface Usage {
  input: number;
  cacheRead: number;
  cacheCreation: number;
  output: number;
}

/** a tool result's text is kept up to this length; past it, only its length (and the reminders some
 *  models get appended to it, which the wire reader looks for) */
export const LONG_TEXT = 4096;
const APPENDED_REMINDER = '\n\n<system-reminder>\n';

export interface RebuiltRequest {
  id: string;
  /** line of its `api-request` record */
  line: number;
  timestamp?: string;
  model?: string;
  querySource?: string;
  /** the messages as sent (a long tool result's text dropped, its length kept); null when a hash could not be resolved */
  messages: WireMessage[] | null;
  missing: number;
  system: Block[];
  tools: Rec[];
  /** the usage Claude Code was answered with (the assistant record that names this request) */
  usage?: Usage;
  /** the request started over (no base): the first of a process, or after a compaction */
  fresh: boolean;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    const o = v as Rec;
    const out: Rec = {};
    for (const k of Object.keys(o).sort()) out[k] = sortKeys(o[k]);
    return out;
  }
  return v;
}

export function messageHash(m: WireMessage): string {
  const norm = { role: m.role, content: typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content };
  return createHash('sha256').update(JSON.stringify(sortKeys(norm))).digest('hex');
}

export function usageOf(r: Rec): Usage | undefined {
  const u = obj(obj(r.message)?.usage);
  if (!u) return undefined;
  return { input: num(u.input_tokens) ?? 0, cacheRead: num(u.cache_read_input_tokens) ?? 0, cacheCreation: num(u.cache_creation_input_tokens) ?? 0, output: num(u.output_tokens) ?? 0 };
}

/** the text length of a tool result block, its dropped text included */
export function resultLength(b: Block & { droppedLength?: number }): number {
  if (typeof b.droppedLength === 'number') return b.droppedLength;
  const content = b.content;
  if (typeof content === 'string') return content.length;
  return arr(content).reduce<number>((n, x) => n + (str(obj(x)?.text)?.length ?? 0), 0);
}

/** a tool result's text: its string, or its text blocks joined */
export function resultText(content: unknown): string {
  return typeof content === 'string' ? content : arr(content).map((x) => str(obj(x)?.text) ?? '').join('');
}

/** the same message with tool results past LONG_TEXT as their length (a new object only when something is dropped) */
export function shrink(m: WireMessage): WireMessage {
  if (typeof m.content === 'string') return m;
  let changed = false;
  const content = m.content.map((b) => {
    if (b.type !== 'tool_result') return b;
    const len = resultLength(b);
    if (len <= LONG_TEXT) return b;
    changed = true;
    const text = resultText(b.content);
    const at = text.indexOf(APPENDED_REMINDER);
    return { ...b, content: at < 0 ? '' : text.slice(at), droppedLength: len };
  });
  return changed ? { role: m.role, content } : m;
}

/** the most conversation messages held unhashed (a version that records no request: none is ever needed); past it the
 *  older half is let go, so that a transcript of millions of answers without a request holds no copy of them */
const MAX_UNHASHED = 100_000;

/** how many consecutive user records may make one message */
const MERGE_WINDOW = 8;

export class RequestIndex {
  readonly requests: RebuiltRequest[] = [];
  private readonly blobs = new Map<string, WireMessage>();
  private readonly convo = new Map<string, WireMessage>();
  private readonly shapes = new Map<string, { system: Block[]; tools: Rec[] }>();
  private readonly byId = new Map<string, RebuiltRequest>();
  private readonly usage = new Map<string, Usage>();
  /** the latest consecutive user records, full, until they can no longer merge with what follows */
  private pendingUsers: WireMessage[] = [];
  /** conversation messages not hashed yet, in order: hashed when a request needs them (a version that records no
   *  request never pays for the hash, nor keeps a map of them). A message that shrink() changes is hashed at once,
   *  so that only the record's own (shrunk) text stays held */
  private unhashed: WireMessage[] = [];

  /** a conversation message under its hash (the latest of equal ones wins, as when each was hashed on arrival) */
  private remember(m: WireMessage): void {
    const s = shrink(m);
    if (s !== m) this.convo.set(messageHash(m), s);
    else if (this.unhashed.push(m) > MAX_UNHASHED) this.unhashed = this.unhashed.slice(MAX_UNHASHED / 2);
  }

  private hashPending(): void {
    for (const m of this.unhashed) this.convo.set(messageHash(m), m);
    this.unhashed = [];
  }

  add(pr: ParsedRecord): void {
    const r = pr.rec;
    switch (pr.type) {
      case 'api-request-blob': {
        const h = str(r.hash);
        const m = messageOf(r);
        if (h && m) this.blobs.set(h, shrink(m));
        return;
      }
      case 'api-request-shape': {
        const h = str(r.shapeHash);
        const s = obj(r.shape);
        if (h && s) this.shapes.set(h, { system: arr(s.system) as Block[], tools: arr(s.tools) as Rec[] });
        return;
      }
      case 'api-request':
        this.request(pr);
        return;
      case 'assistant':
      case 'user': {
        if (r.isSidechain === true) return;
        const m = messageOf(r);
        const ref = str(r.requestRef);
        if (pr.type === 'assistant') {
          const u = usageOf(r);
          if (ref && u) {
            if (!this.usage.has(ref)) this.usage.set(ref, u);
            const req = this.byId.get(ref);
            if (req && !req.usage) req.usage = u;
          }
        }
        if (!m) return;
        if (pr.type === 'user') {
          this.pendingUsers.push({ role: m.role, content: m.content });
          if (this.pendingUsers.length > MERGE_WINDOW) this.pendingUsers.shift();
          // this record alone, and merged with the user records before it
          this.remember(m);
          for (let i = this.pendingUsers.length - 2; i >= 0; i--) this.remember({ role: 'user', content: this.pendingUsers.slice(i).flatMap(blocksOf) });
        } else {
          this.pendingUsers = [];
          this.remember(m);
        }
        return;
      }
      default:
        return;
    }
  }

  private resolve(h: unknown): WireMessage | undefined {
    return typeof h === 'string' ? (this.blobs.get(h) ?? this.convo.get(h)) : undefined;
  }

  private request(pr: ParsedRecord): void {
    this.hashPending();
    const r = pr.rec;
    const id = str(r.id) ?? `line-${pr.line}`;
    const base = str(r.base);
    const keep = num(r.keep) ?? 0;
    let messages: WireMessage[] | null = [];
    let missing = 0;
    if (base !== undefined || keep > 0) {
      const prev = base !== undefined ? this.byId.get(base) : undefined;
      if (!prev || !prev.messages || prev.messages.length < keep) {
        messages = null;
        missing += keep;
      } else messages = prev.messages.slice(0, keep);
    }
    for (const h of arr(r.tail)) {
      const m = this.resolve(h);
      if (!m) missing++;
      else if (messages) messages.push(m);
    }
    if (missing) messages = null;
    const shape = this.shapes.get(str(r.shapeHash) ?? '');
    const params = obj(r.params);
    const req: RebuiltRequest = {
      id,
      line: pr.line,
      timestamp: str(r.timestamp),
      model: str(params?.model),
      querySource: str(r.querySource),
      messages,
      missing,
      system: shape?.system ?? [],
      tools: shape?.tools ?? [],
      usage: this.usage.get(id),
      fresh: base === undefined,
    };
    this.byId.set(id, req);
    this.requests.push(req);
  }
}

/** every `api-request` of one transcript file (the main session's, or one subagent's), at once */
export function rebuildRequests(records: readonly ParsedRecord[]): RebuiltRequest[] {
  const ix = new RequestIndex();
  for (const r of records) ix.add(r);
  return ix.requests;
}
