// The API requests of each turn, as the transcript's answers record them (every version, 1.0.x on): one
// request per distinct `message.id` of the main chain's assistant records (an answer is written as one
// record per content block, all with the same id; the usage of the last one is the answer's), a record
// of `model: "<synthetic>"` being a message Claude Code made itself, not a request. Per turn: how many,
// their usage summed, their cost (pricing.ts), the prompt cache's hit ratio, and where the cache broke:
// the cache read falling well below what the previous request had cached while the cache creation jumps,
// which nothing but a lost cache explains (a new layer adds to the creation, it does not lose the read),
// with the likely cause the transcript shows.
//
// Incremental: a turn's records are read from where the last read of the same turn ended.
import type { ClaudeProfile } from '../profiles.js';
import { costOf, priceOf, type PricedUsage, type PricingOverride } from './pricing.js';
import { num, obj, str, type ParsedRecord } from './records.js';
import type { LiveRequest } from './replay.js';

export interface ApiRequest {
  /** `message.id` (else `requestId`, else the record's line) */
  id: string;
  model?: string;
  line: number;
  /** when it was sent: the time of the last record before its answer (the prompt, a tool result) */
  sentAt?: string;
  /** its answer's last record */
  answeredAt?: string;
  usage: PricedUsage;
  /** the api-request it answers (2.1.328 on) */
  requestRef?: string;
  /** a compaction came between the previous request and this one: `manual` (/compact) or `auto` */
  compactedBefore?: string;
}

interface TurnState {
  done: number;
  list: ApiRequest[];
  /** the requests by id, once there are more than BY_ID_AFTER (a short turn looks through its list: a session of many
   *  turns holds no map for each) */
  byId?: Map<string, ApiRequest>;
  lastOther?: string;
  compacted?: string;
  compactions: number;
  /** the compactions among the records: trigger and preTokens */
  boundaries: { trigger: string; preTokens?: number }[];
}

const states = new WeakMap<readonly ParsedRecord[], TurnState>();
const BY_ID_AFTER = 8;

function requestById(st: TurnState, id: string): ApiRequest | undefined {
  if (st.byId) return st.byId.get(id);
  for (const q of st.list) if (q.id === id) return q;
  return undefined;
}

export function pricedUsageOf(rec: Record<string, unknown>): PricedUsage | undefined {
  const u = obj(obj(rec.message)?.usage);
  if (!u) return undefined;
  const split = obj(u.cache_creation);
  const w5 = num(split?.ephemeral_5m_input_tokens);
  const w1 = num(split?.ephemeral_1h_input_tokens);
  return {
    input: num(u.input_tokens) ?? 0,
    cacheRead: num(u.cache_read_input_tokens) ?? 0,
    cacheCreation: num(u.cache_creation_input_tokens) ?? 0,
    output: num(u.output_tokens) ?? 0,
    cacheWrite5m: split ? (w5 ?? 0) : null,
    cacheWrite1h: split ? (w1 ?? 0) : null,
  };
}

/** the API requests among a turn's records (the same array read again continues where it ended) */
export function turnRequests(records: readonly ParsedRecord[]): { requests: readonly ApiRequest[]; compactions: number; boundaries: readonly { trigger: string; preTokens?: number }[]; pendingCompaction?: string } {
  let st = states.get(records);
  if (!st || st.done > records.length) states.set(records, (st = { done: 0, list: [], compactions: 0, boundaries: [] }));
  for (; st.done < records.length; st.done++) {
    const pr = records[st.done]!;
    const r = pr.rec;
    const ts = str(r.timestamp);
    if (pr.type === 'system' && r.subtype === 'compact_boundary') {
      st.compactions++;
      st.compacted = str(obj(r.compactMetadata)?.trigger) ?? 'manual';
      st.boundaries.push({ trigger: st.compacted, preTokens: num(obj(r.compactMetadata)?.preTokens) });
    }
    if (pr.type !== 'assistant' || r.isSidechain === true) {
      if (ts && (pr.type === 'user' || pr.type === 'attachment')) st.lastOther = ts;
      continue;
    }
    const m = obj(r.message);
    if (str(m?.model) === '<synthetic>' || r.isApiErrorMessage === true) continue;
    const id = str(m?.id) ?? str(r.requestId) ?? `line ${pr.line}`;
    const u = pricedUsageOf(r);
    let q = requestById(st, id);
    if (!q) {
      q = { id, model: str(m?.model), line: pr.line, sentAt: st.lastOther, usage: u ?? { input: 0, cacheRead: 0, cacheCreation: 0, output: 0, cacheWrite5m: null, cacheWrite1h: null }, requestRef: str(r.requestRef), ...(st.compacted && { compactedBefore: st.compacted }) };
      st.compacted = undefined;
      st.list.push(q);
      if (st.byId) st.byId.set(id, q);
      else if (st.list.length > BY_ID_AFTER) st.byId = new Map(st.list.map((x) => [x.id, x]));
    } else if (u) q.usage = u;
    if (ts) q.answeredAt = ts;
  }
  return { requests: st.list, compactions: st.compactions, boundaries: st.boundaries, ...(st.compacted && { pendingCompaction: st.compacted }) };
}

// ------------------------------------------------------------------------------ per turn, per session

export interface TurnUsage {
  input: number;
  cacheRead: number;
  cacheCreation: number;
  output: number;
}

export interface CacheBreak {
  /** the likely cause: `pause` (longer than the cache's life), `compaction` (`/compact` or on Claude Code's own), `model`
   *  (another model), `tools-or-system` (the request's tool list or system prompt changed), `resumed` (a new process on
   *  the session), or `unknown` (nothing in the transcript explains it) */
  cause: 'pause' | 'compaction' | 'model' | 'tools-or-system' | 'resumed' | 'unknown';
  /** the cause in words, with its figures */
  why: string;
  /** other causes that hold as well */
  also?: CacheBreak['cause'][];
  /** the request of the turn where it broke (0-based) */
  request: number;
  /** tokens the previous request had cached that this one did not read */
  lost: number;
  /** tokens this request wrote to the cache */
  written: number;
}

export interface TurnCache {
  /** cache read ÷ (input + cache read + cache creation) over the turn's requests; null without usage */
  hitRatio: number | null;
  break?: CacheBreak;
}

export interface TurnAccounting {
  requests: number;
  usage: TurnUsage;
  cost: number | null;
  cache: TurnCache;
}

export interface SessionAccounting {
  turns: TurnAccounting[];
  /** USD of every priced request; null when none could be priced */
  cost: number | null;
  /** models of requests no price is known for (their cost is left out of `cost`) */
  unpriced: string[];
  /** where the prices came from */
  pricing: 'list' | 'modelPricing' | 'mixed' | null;
  /** the prompt cache's life the session used: `1h` when any answer recorded a 1-hour write, else `5m` */
  cacheLife: '5m' | '1h';
  /** the largest context (input + cache read + cache creation) any request reported */
  maxContext: number;
}

const contextOf = (u: PricedUsage) => u.input + u.cacheRead + u.cacheCreation;
const FIVE_MIN = 5 * 60 * 1000;
const ONE_HOUR = 60 * 60 * 1000;
/** a break loses at least this many cached tokens (below it: noise of the cache's block boundaries) */
const MIN_LOST = 2048;

function fmtDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

interface TurnInput {
  records: readonly ParsedRecord[];
  /** the turn starts a new process on the session (LiveTurn.resumed) */
  resumed?: boolean;
}

/** every turn's requests, usage, cost and cache state, in order (`requests`: the session's rebuilt api-requests, whose
 *  system and tool characters show a changed tool list or system prompt) */
export function accountSession(turns: readonly TurnInput[], profile: ClaudeProfile, requests: readonly LiveRequest[] = [], override?: PricingOverride): SessionAccounting {
  const perTurn = turns.map((t) => turnRequests(t.records));
  const all = perTurn.flatMap((p) => p.requests);
  const cacheLife = all.some((q) => (q.usage.cacheWrite1h ?? 0) > 0) ? '1h' : '5m';
  const shape = new Map<string, string>();
  for (const r of requests) if (r.chars) shape.set(r.id, `${r.chars.system}:${r.chars.tools}:${JSON.stringify(r.chars.mcp)}`);
  const unpriced = new Set<string>();
  const from = new Set<string>();
  let total = 0;
  let priced = 0;
  let maxContext = 0;
  let prev: ApiRequest | undefined;
  /** a compaction after the last request of a turn (`/compact`): the next request comes after it */
  let carry: string | undefined;
  // one price per model, not one per request (a long session asks for the same few models again and again)
  const prices = new Map<string | undefined, ReturnType<typeof priceOf>>();
  const priceFor = (model: string | undefined) => {
    if (!prices.has(model)) prices.set(model, priceOf(model, profile, override));
    return prices.get(model);
  };
  const out: TurnAccounting[] = perTurn.map((p, k) => {
    const usage: TurnUsage = { input: 0, cacheRead: 0, cacheCreation: 0, output: 0 };
    let cost: number | null = 0;
    let brk: CacheBreak | undefined;
    p.requests.forEach((q, i) => {
      const u = q.usage;
      usage.input += u.input;
      usage.cacheRead += u.cacheRead;
      usage.cacheCreation += u.cacheCreation;
      usage.output += u.output;
      maxContext = Math.max(maxContext, contextOf(u));
      const price = priceFor(q.model);
      if (!price) {
        if (contextOf(u) + u.output > 0) {
          unpriced.add(q.model ?? 'model not recorded');
          cost = null;
        }
      } else {
        const c = costOf(u, price);
        from.add(price.from);
        if (cost !== null) cost += c;
        total += c;
        priced++;
      }
      const compacted = q.compactedBefore ?? (i === 0 ? carry : undefined);
      if (prev && !brk) brk = cacheBreak(prev, q, compacted, i, i === 0 && !!turns[k]!.resumed, cacheLife, shape) ?? undefined;
      prev = q;
    });
    if (p.requests.length) carry = undefined;
    carry = p.pendingCompaction ?? carry;
    const ctx = usage.input + usage.cacheRead + usage.cacheCreation;
    return { requests: p.requests.length + p.compactions, usage, cost, cache: { hitRatio: ctx > 0 ? usage.cacheRead / ctx : null, ...(brk && { break: brk }) } };
  });
  return {
    turns: out,
    cost: priced ? total : null,
    unpriced: [...unpriced],
    pricing: from.size === 0 ? null : from.size === 2 ? 'mixed' : (from.values().next().value as 'list' | 'modelPricing'),
    cacheLife,
    maxContext,
  };
}

/** whether `q` lost what `prev` had cached, and the likely cause */
function cacheBreak(prev: ApiRequest, q: ApiRequest, compacted: string | undefined, index: number, resumed: boolean, life: '5m' | '1h', shape: Map<string, string>): CacheBreak | null {
  const had = prev.usage.cacheRead + prev.usage.cacheCreation;
  const lost = had - q.usage.cacheRead;
  // the read fell by a fifth or more of what was cached, and the request wrote at least as much as it read
  if (had <= 0 || lost < Math.max(MIN_LOST, had * 0.2) || q.usage.cacheCreation < Math.max(1024, q.usage.cacheRead)) return null;
  const causes: { cause: CacheBreak['cause']; why: string }[] = [];
  if (compacted) causes.push({ cause: 'compaction', why: compacted === 'auto' ? 'Claude Code compacted the conversation on its own' : 'the conversation was compacted (/compact)' });
  if (prev.model && q.model && prev.model !== q.model) causes.push({ cause: 'model', why: `the model changed from ${prev.model} to ${q.model} (each model has its own cache)` });
  const ps = prev.requestRef ? shape.get(prev.requestRef) : undefined;
  const qs = q.requestRef ? shape.get(q.requestRef) : undefined;
  if (ps && qs && ps !== qs) causes.push({ cause: 'tools-or-system', why: 'the tool list or the system prompt changed between the two requests' });
  const t0 = prev.answeredAt ? Date.parse(prev.answeredAt) : NaN;
  const t1 = q.sentAt ? Date.parse(q.sentAt) : q.answeredAt ? Date.parse(q.answeredAt) : NaN;
  const ttl = life === '1h' ? ONE_HOUR : FIVE_MIN;
  if (Number.isFinite(t0) && Number.isFinite(t1) && t1 - t0 > ttl) causes.push({ cause: 'pause', why: `${fmtDuration(t1 - t0)} without a request, longer than the cache's life (${life === '1h' ? '1 hour' : '5 minutes'})` });
  if (resumed) causes.push({ cause: 'resumed', why: 'a new claude process went on with the session (--continue, --resume)' });
  if (!causes.length) causes.push({ cause: 'unknown', why: 'nothing in the transcript explains it (an edited startup file after /clear, or a change Claude Code does not record)' });
  const [first, ...rest] = causes;
  return { cause: first!.cause, why: first!.why, ...(rest.length && { also: rest.map((c) => c.cause) }), request: index, lost, written: q.usage.cacheCreation };
}
