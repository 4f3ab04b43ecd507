// The requests a session sent, rebuilt from its transcript (2.1.328 and later): every `api-request`
// names its messages as the previous request's first `keep` plus a `tail` of hashes; a hash is found
// as an `api-request-blob`, or else it is a conversation record's message (alone, or the user records
// that Claude Code sends as one message, merged). A message's hash is sha256 of its JSON with keys
// sorted and a string content taken as one text block (measured: every hash of every request of the
// session suite resolves). The system blocks and tools come from the `api-request-shape` it names.
import { createHash } from 'node:crypto';
import { arr, blocksOf, messageOf, num, obj, str, type Block, type ParsedRecord, type Rec, type WireMessage } from './records.js';

export interface Usage {
  input: number;
  cacheRead: number;
  cacheCreation: number;
  output: number;
}

export interface RebuiltRequest {
  id: string;
  /** line of its `api-request` record */
  line: number;
  timestamp?: string;
  model?: string;
  querySource?: string;
  /** the messages as sent; null when a hash could not be resolved (then `missing` says how many) */
  messages: WireMessage[] | null;
  missing: number;
  system: Block[];
  tools: Rec[];
  /** the usage Claude Code was answered with (the assistant record that names this request) */
  usage?: Usage;
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

/** rebuilds every `api-request` of one transcript file (the main session's, or one subagent's) */
export function rebuildRequests(records: readonly ParsedRecord[]): RebuiltRequest[] {
  const blobs = new Map<string, WireMessage>();
  const shapes = new Map<string, { system: Block[]; tools: Rec[] }>();
  const reqRecs: ParsedRecord[] = [];
  const usage = new Map<string, Usage>();
  const convo: { type: string; msg: WireMessage }[] = [];
  for (const pr of records) {
    const r = pr.rec;
    if (pr.type === 'api-request-blob') {
      const h = str(r.hash);
      const m = messageOf(r);
      if (h && m) blobs.set(h, m);
    } else if (pr.type === 'api-request-shape') {
      const h = str(r.shapeHash);
      const s = obj(r.shape);
      if (h && s) shapes.set(h, { system: arr(s.system) as Block[], tools: arr(s.tools) as Rec[] });
    } else if (pr.type === 'api-request') reqRecs.push(pr);
    else if (pr.type === 'assistant' || pr.type === 'user') {
      const m = messageOf(r);
      if (m) convo.push({ type: pr.type, msg: m });
      const ref = str(r.requestRef);
      const u = pr.type === 'assistant' ? usageOf(r) : undefined;
      if (ref && u && !usage.has(ref)) usage.set(ref, u);
    }
  }
  // hashes of conversation messages, computed only when a tail names a hash no blob has
  let byHash: Map<string, WireMessage> | undefined;
  const fromConvo = (h: string): WireMessage | undefined => {
    if (!byHash) {
      byHash = new Map();
      for (let i = 0; i < convo.length; i++) {
        const c = convo[i]!;
        const wire: WireMessage = { role: c.msg.role, content: c.msg.content };
        byHash.set(messageHash(wire), wire);
        if (c.type !== 'user') continue;
        let content: Block[] = blocksOf(c.msg);
        for (let j = i + 1; j < convo.length && convo[j]!.type === 'user' && j < i + 8; j++) {
          content = content.concat(blocksOf(convo[j]!.msg));
          const merged: WireMessage = { role: 'user', content };
          byHash.set(messageHash(merged), merged);
        }
      }
    }
    return byHash.get(h);
  };
  const byId = new Map<string, RebuiltRequest>();
  const out: RebuiltRequest[] = [];
  for (const pr of reqRecs) {
    const r = pr.rec;
    const id = str(r.id) ?? `line-${pr.line}`;
    const base = str(r.base);
    const keep = num(r.keep) ?? 0;
    let messages: WireMessage[] | null = [];
    let missing = 0;
    if (base !== undefined || keep > 0) {
      const prev = base !== undefined ? byId.get(base) : undefined;
      if (!prev || !prev.messages || prev.messages.length < keep) {
        messages = null;
        missing += keep;
      } else messages = prev.messages.slice(0, keep);
    }
    for (const h of arr(r.tail)) {
      const m = typeof h === 'string' ? (blobs.get(h) ?? fromConvo(h)) : undefined;
      if (!m) missing++;
      else if (messages) messages.push(m);
    }
    if (missing) messages = null;
    const shape = shapes.get(str(r.shapeHash) ?? '');
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
      usage: usage.get(id),
    };
    byId.set(id, req);
    out.push(req);
  }
  return out;
}

/** the request as the Messages API received it (model, system, tools, messages), as JSON text */
export function requestBody(r: RebuiltRequest): string {
  return JSON.stringify({ model: r.model, system: r.system, tools: r.tools, messages: r.messages ?? [] });
}
