// The API requests of each turn, as the transcript's answers record them (every version, 1.0.x on): one
// request per distinct `message.id` of the main chain's assistant records (an answer is written as one
// record per content block, all with the same id; the usage of the last one is the answer's), a record
// of `model: "<synthetic>"` being a message Claude Code made itself, not a request. Per turn: how many,
// their usage summed, their cost (pricing.ts), the prompt cache's hit ratio, and where the cache broke:
// the cache read falling well below what the previous request had cached while the cache creation jumps,
// which nothing but a lost cache explains (a new layer adds to the creation, it does not lose the read),
// with the likely cause the transcript shows.
//
// Incremental: a turn's records are taken one by one as they arrive (TurnLedger), and not kept.
import type { ClaudeProfile } from '../profiles.js';
import { costOf, priceOf, type PricedUsage, type PricingOverride } from './pricing.js';
import { num, obj, str, type ParsedRecord } from './records.js';
import type { LiveRequest } from './replay.js';

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

/** requests of a turn still open to a later record of the same answer (its blocks are written one record each, close
 *  together): past this many newer ones, a request's figures are final */
const OPEN_REQUESTS = 64;
/** the most compactions of one turn kept with their figures (past it they are counted only) */
const MAX_BOUNDARIES = 1000;
const NONE = -1;
const F32 = 13;
const F64 = 2;
const [INPUT, READ, CREATION, OUTPUT, W5M, W1H, MODEL, REF, COMPACTED, BETWEEN, ANSWER, HIDDEN, THINK] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/** an answer record's thinking: `unrecorded` when a thinking block's text is not recorded (an empty `thinking` beside its
 *  `signature`: real sessions of 2.1.81 to 2.1.237 on claude-opus-4-6, claude-sonnet-4-6 and later models), else the
 *  characters of the text recorded (2.1.75 and before) */
function thinkingOf(r: Record<string, unknown>): number | 'unrecorded' {
  const c = obj(r.message)?.content;
  if (!Array.isArray(c)) return 0;
  let n = 0;
  for (const b of c) {
    const x = obj(b);
    if (x?.type !== 'thinking') continue;
    const t = str(x.thinking);
    if (!t) return 'unrecorded';
    n += t.length;
  }
  return n;
}

/** what the breakdown (attachment-layers.ts) reads of a turn, summed as its records arrive */
export interface LedgerStretch {
  layers: Map<string, number>;
  /** characters before its first request's answer (all of them when it has none) */
  beforeFirst: number;
  /** index of its first request, NONE without one */
  first: number;
}

const ms = (t: string | undefined) => (t ? Date.parse(t) : NaN);

/**
 * A turn's API requests and what the figures read of its records, taken record by record as they arrive (the records
 * themselves are not kept: a turn of a million answers holds a few numbers per request, in columns). The same reading
 * as before, one answer per distinct `message.id`: an id seen again among the last OPEN_REQUESTS requests is the same
 * answer (its last usage counts).
 */
export class TurnLedger {
  /** records taken */
  count = 0;
  /** requests so far */
  n = 0;
  /** the requests' numbers, F32 a request: input, cache read, cache creation, output, the 5-minute and 1-hour writes
   *  (NaN: the answer recorded no split), model, request ref and compaction before it (indexes into `strings`, NONE when
   *  absent), the characters recorded between the previous request's answer and this one's (breakdown; 0 when no
   *  previous one in the stretch), the characters of its own answer's records, whether that answer thinks without
   *  the text recorded (1, else 0) and the characters of the thinking it recorded. Token counts and indexes are exact in
   *  32 bits (below 2^24) */
  private f32 = new Float32Array(F32 * 2);
  /** when it was sent (the last record before its answer) and its answer's last record, ms since the epoch (NaN: not recorded) */
  private f64 = new Float64Array(F64 * 2);
  /** models, request refs and compaction triggers, once each */
  private readonly strings: string[] = [];
  private stringIx: Map<string, number> | undefined;
  /** the open requests by id (see OPEN_REQUESTS) */
  private open = new Map<string, number>();
  private lastOther: string | undefined;
  private compacted: string | undefined;
  compactions = 0;
  /** the compactions among the records: trigger and preTokens (the first MAX_BOUNDARIES) */
  readonly boundaries: { trigger: string; preTokens?: number }[] = [];
  // ---- the breakdown, as attachment-layers.ts read it
  /** the last request since the last compaction (NONE) */
  bdPrev = NONE;
  private bdBetween = 0;
  /** a compaction came in the turn */
  bdCompacted = false;
  tail: LedgerStretch = { layers: new Map(), beforeFirst: 0, first: NONE };

  /** `ownChain`: the records are a subagent's own file (every one `isSidechain: true`): its answers are its requests */
  constructor(
    private readonly recordChars: (pr: ParsedRecord) => { layer: string; chars: number } | null,
    private readonly ownChain = false,
  ) {}

  private intern(v: string | undefined): number {
    if (v === undefined) return NONE;
    // a short turn looks through its few strings (a session of many turns holds no map for each)
    let k = this.stringIx ? this.stringIx.get(v) : this.strings.indexOf(v);
    if (k === undefined || k < 0) {
      k = this.strings.length;
      this.strings.push(v);
      if (this.stringIx) this.stringIx.set(v, k);
      else if (this.strings.length > 8) this.stringIx = new Map(this.strings.map((x, i) => [x, i]));
    }
    return k;
  }

  private setUsage(i: number, u: PricedUsage | undefined): void {
    const f = this.f32;
    const at = i * F32;
    f[at + INPUT] = u?.input ?? 0;
    f[at + READ] = u?.cacheRead ?? 0;
    f[at + CREATION] = u?.cacheCreation ?? 0;
    f[at + OUTPUT] = u?.output ?? 0;
    f[at + W5M] = u?.cacheWrite5m ?? NaN;
    f[at + W1H] = u?.cacheWrite1h ?? NaN;
  }

  /** room for request i (doubling) */
  private room(i: number): void {
    if ((i + 1) * F32 <= this.f32.length) return;
    const f32 = new Float32Array(this.f32.length * 2);
    f32.set(this.f32);
    this.f32 = f32;
    const f64 = new Float64Array(this.f64.length * 2);
    f64.set(this.f64);
    this.f64 = f64;
  }

  private get32(i: number, k: number): number {
    return this.f32[i * F32 + k]!;
  }

  /** one record of the turn, in order */
  add(pr: ParsedRecord): void {
    this.count++;
    const r = pr.rec;
    const ts = str(r.timestamp);
    let started = NONE;
    let answer = NONE;
    if (pr.type === 'system' && r.subtype === 'compact_boundary') {
      this.compactions++;
      this.compacted = str(obj(r.compactMetadata)?.trigger) ?? 'manual';
      if (this.boundaries.length < MAX_BOUNDARIES) this.boundaries.push({ trigger: this.compacted, preTokens: num(obj(r.compactMetadata)?.preTokens) });
      // the breakdown (a version that records no request) starts over after it
      this.bdPrev = NONE;
      this.bdBetween = 0;
      this.bdCompacted = true;
      this.tail = { layers: new Map(), beforeFirst: 0, first: NONE };
      return;
    }
    // a microcompaction (2.1.12 to 2.1.22 seen: old tool results cleared from the context on its own): the next request
    // is sent without them, so its cache breaks; no summary, the breakdown goes on without those results (recordChars)
    if (pr.type === 'system' && r.subtype === 'microcompact_boundary') this.compacted = 'micro';
    else if (pr.type !== 'assistant' || (r.isSidechain === true && !this.ownChain)) {
      if (ts && (pr.type === 'user' || pr.type === 'attachment')) this.lastOther = ts;
    } else {
      const m = obj(r.message);
      if (str(m?.model) !== '<synthetic>' && r.isApiErrorMessage !== true) {
        const id = str(m?.id) ?? str(r.requestId) ?? `line ${pr.line}`;
        const u = pricedUsageOf(r);
        let q = this.open.get(id);
        if (q === undefined) {
          q = started = this.n++;
          this.room(q);
          this.setUsage(q, u);
          this.f32[q * F32 + MODEL] = this.intern(str(m?.model));
          this.f32[q * F32 + REF] = this.intern(str(r.requestRef));
          this.f32[q * F32 + COMPACTED] = this.intern(this.compacted);
          this.f32[q * F32 + BETWEEN] = 0;
          this.f32[q * F32 + ANSWER] = 0;
          this.f32[q * F32 + HIDDEN] = 0;
          this.f32[q * F32 + THINK] = 0;
          this.f64[q * F64] = ms(this.lastOther);
          this.f64[q * F64 + 1] = NaN;
          this.compacted = undefined;
          this.open.set(id, q);
          if (this.open.size > 2 * OPEN_REQUESTS) this.open = new Map([...this.open].slice(-OPEN_REQUESTS));
        } else if (u) this.setUsage(q, u);
        if (ts) this.f64[q * F64 + 1] = ms(ts);
        answer = q;
        const thinking = thinkingOf(r);
        if (thinking === 'unrecorded') this.f32[q * F32 + HIDDEN] = 1;
        else this.f32[q * F32 + THINK] = this.get32(q, THINK) + thinking;
      }
    }
    // the breakdown (a version that records no request): the characters between two answers, by layer since the last compaction
    if (started !== NONE) {
      if (this.bdPrev !== NONE) this.f32[started * F32 + BETWEEN] = this.bdBetween;
      this.bdPrev = started;
      this.bdBetween = 0;
      if (this.tail.first === NONE) this.tail.first = started;
    }
    const c = this.recordChars(pr);
    if (!c || !c.chars) return;
    if (answer !== NONE) this.f32[answer * F32 + ANSWER] = this.get32(answer, ANSWER) + c.chars;
    this.bdBetween += c.chars;
    this.tail.layers.set(c.layer, (this.tail.layers.get(c.layer) ?? 0) + c.chars);
    if (this.tail.first === NONE) this.tail.beforeFirst += c.chars;
  }

  /** a compaction after the turn's last request (`/compact`): the next request comes after it */
  get pendingCompaction(): string | undefined {
    return this.compacted;
  }

  usage(i: number): PricedUsage {
    const w5 = this.get32(i, W5M);
    const w1 = this.get32(i, W1H);
    return { input: this.get32(i, INPUT), cacheRead: this.get32(i, READ), cacheCreation: this.get32(i, CREATION), output: this.get32(i, OUTPUT), cacheWrite5m: Number.isNaN(w5) ? null : w5, cacheWrite1h: Number.isNaN(w1) ? null : w1 };
  }

  /** input + cache read + cache creation of request i */
  context(i: number): number {
    return this.get32(i, INPUT) + this.get32(i, READ) + this.get32(i, CREATION);
  }

  /** characters recorded between request i - 1's answer and request i's (0: none, or no request before it in its stretch) */
  charsBefore(i: number): number {
    return this.get32(i, BETWEEN);
  }

  /** characters of request i's own answer records (its text and calls; part of charsBefore(i + 1)) */
  answerChars(i: number): number {
    return this.get32(i, ANSWER);
  }

  /** request i's answer thinks without the text recorded: its output tokens grow the next context, its records do not */
  thinksUnrecorded(i: number): boolean {
    return this.get32(i, HIDDEN) === 1;
  }

  /** characters of request i's answer's thinking where its text is recorded (not in its records' characters) */
  thinkingChars(i: number): number {
    return this.get32(i, THINK);
  }

  private string(k: number): string | undefined {
    return k === NONE ? undefined : this.strings[k];
  }

  modelOf(i: number): string | undefined {
    return this.string(this.get32(i, MODEL));
  }

  /** request i as the accounting reads it */
  request(i: number): RequestView {
    return { model: this.string(this.get32(i, MODEL)), usage: this.usage(i), requestRef: this.string(this.get32(i, REF)), compactedBefore: this.string(this.get32(i, COMPACTED)), sentAt: this.f64[i * F64]!, answeredAt: this.f64[i * F64 + 1]! };
  }

  /** a 1-hour cache write among its answers */
  hasHourWrite(): boolean {
    for (let i = 0; i < this.n; i++) if ((this.get32(i, W1H) || 0) > 0) return true;
    return false;
  }
}

/** what the accounting reads of one request */
export interface RequestView {
  model?: string;
  usage: PricedUsage;
  requestRef?: string;
  compactedBefore?: string;
  /** ms since the epoch (NaN: not recorded): the last record before its answer, and its answer's last record */
  sentAt: number;
  answeredAt: number;
}


// ------------------------------------------------------------------------------ per turn, per session

export interface TurnUsage {
  input: number;
  cacheRead: number;
  cacheCreation: number;
  output: number;
}

export const zeroUsage = (): TurnUsage => ({ input: 0, cacheRead: 0, cacheCreation: 0, output: 0 });

/** `b`'s four figures added to `a`'s */
export function addUsage(a: TurnUsage, b: TurnUsage): void {
  a.input += b.input;
  a.cacheRead += b.cacheRead;
  a.cacheCreation += b.cacheCreation;
  a.output += b.output;
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

/** a subagent's (or a workflow's agent's) own transcript: its requests, their usage summed and their cost */
export interface AgentAccounting {
  requests: number;
  usage: TurnUsage;
  /** USD; null when a request's model has no price */
  cost: number | null;
}

export interface SessionAccounting {
  turns: TurnAccounting[];
  /** the agents' ledgers given, in their order */
  agents: AgentAccounting[];
  /** USD of every priced request, the main loop's and the agents'; null when none could be priced */
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
  ledger: TurnLedger;
  /** the turn starts a new process on the session (LiveTurn.resumed) */
  resumed?: boolean;
}

/** every turn's requests, usage, cost and cache state, in order (`requests`: the session's rebuilt api-requests, whose
 *  system and tool characters show a changed tool list or system prompt); `agents`: the ledgers of the session's
 *  subagents' own transcripts, priced alike and added to the session's cost (never to a turn's cache or context) */
export function accountSession(turns: readonly TurnInput[], profile: ClaudeProfile, requests: readonly LiveRequest[] = [], override?: PricingOverride, agents: readonly TurnLedger[] = []): SessionAccounting {
  const perTurn = turns.map((t) => t.ledger);
  const cacheLife = perTurn.some((p) => p.hasHourWrite()) ? '1h' : '5m';
  const shape = new Map<string, string>();
  for (const r of requests) if (r.chars) shape.set(r.id, `${r.chars.system}:${r.chars.tools}:${JSON.stringify(r.chars.mcp)}`);
  const unpriced = new Set<string>();
  const from = new Set<string>();
  let total = 0;
  let priced = 0;
  let maxContext = 0;
  let prev: { ledger: TurnLedger; index: number; usage: PricedUsage } | undefined;
  /** a compaction after the last request of a turn (`/compact`): the next request comes after it */
  let carry: string | undefined;
  // one price per model, not one per request (a long session asks for the same few models again and again)
  const prices = new Map<string | undefined, ReturnType<typeof priceOf>>();
  const priceFor = (model: string | undefined) => {
    if (!prices.has(model)) prices.set(model, priceOf(model, profile, override));
    return prices.get(model);
  };
  /** a ledger's requests, their usage summed and priced (into the session's total), one by one to `each` */
  const account = (p: TurnLedger, each?: (i: number, u: PricedUsage) => void): { usage: TurnUsage; cost: number | null } => {
    const usage = zeroUsage();
    let cost: number | null = 0;
    for (let i = 0; i < p.n; i++) {
      // the figures straight from the columns; a request as an object only where the caller needs one
      const u = p.usage(i);
      const model = p.modelOf(i);
      addUsage(usage, u);
      const price = priceFor(model);
      if (!price) {
        if (contextOf(u) + u.output > 0) {
          unpriced.add(model ?? 'model not recorded');
          cost = null;
        }
      } else {
        const c = costOf(u, price);
        from.add(price.from);
        if (cost !== null) cost += c;
        total += c;
        priced++;
      }
      each?.(i, u);
    }
    return { usage, cost };
  };
  const out: TurnAccounting[] = perTurn.map((p, k) => {
    let brk: CacheBreak | undefined;
    const { usage, cost } = account(p, (i, u) => {
      maxContext = Math.max(maxContext, contextOf(u));
      if (prev && !brk && lostCache(prev.usage, u)) {
        const q = p.request(i);
        const compacted = q.compactedBefore ?? (i === 0 ? carry : undefined);
        brk = cacheBreak(prev.ledger.request(prev.index), q, compacted, i, i === 0 && !!turns[k]!.resumed, cacheLife, shape);
      }
      prev = { ledger: p, index: i, usage: u };
    });
    if (p.n) carry = undefined;
    carry = p.pendingCompaction ?? carry;
    const ctx = usage.input + usage.cacheRead + usage.cacheCreation;
    return { requests: p.n + p.compactions, usage, cost, cache: { hitRatio: ctx > 0 ? usage.cacheRead / ctx : null, ...(brk && { break: brk }) } };
  });
  const agentsOut = agents.map((p): AgentAccounting => ({ requests: p.n, ...account(p) }));
  return {
    turns: out,
    agents: agentsOut,
    cost: priced ? total : null,
    unpriced: [...unpriced],
    pricing: from.size === 0 ? null : from.size === 2 ? 'mixed' : (from.values().next().value as 'list' | 'modelPricing'),
    cacheLife,
    maxContext,
  };
}

/** the read fell by a fifth or more of what was cached, and the request wrote at least as much as it read */
function lostCache(prev: PricedUsage, q: PricedUsage): boolean {
  const had = prev.cacheRead + prev.cacheCreation;
  const lost = had - q.cacheRead;
  return !(had <= 0 || lost < Math.max(MIN_LOST, had * 0.2) || q.cacheCreation < Math.max(1024, q.cacheRead));
}

/** the break where `q` lost what `prev` had cached (lostCache holds: the caller asks it first, before making the two
 *  requests' objects), and the likely cause */
function cacheBreak(prev: RequestView, q: RequestView, compacted: string | undefined, index: number, resumed: boolean, life: '5m' | '1h', shape: Map<string, string>): CacheBreak {
  const lost = prev.usage.cacheRead + prev.usage.cacheCreation - q.usage.cacheRead;
  const causes: { cause: CacheBreak['cause']; why: string }[] = [];
  if (compacted) causes.push({ cause: 'compaction', why: compacted === 'micro' ? 'Claude Code cleared old tool results from the context on its own (microcompaction)' : compacted === 'auto' ? 'Claude Code compacted the conversation on its own' : 'the conversation was compacted (/compact)' });
  if (prev.model && q.model && prev.model !== q.model) causes.push({ cause: 'model', why: `the model changed from ${prev.model} to ${q.model} (each model has its own cache)` });
  const ps = prev.requestRef ? shape.get(prev.requestRef) : undefined;
  const qs = q.requestRef ? shape.get(q.requestRef) : undefined;
  if (ps && qs && ps !== qs) causes.push({ cause: 'tools-or-system', why: 'the tool list or the system prompt changed between the two requests' });
  const t0 = prev.answeredAt;
  const t1 = Number.isNaN(q.sentAt) ? q.answeredAt : q.sentAt;
  const ttl = life === '1h' ? ONE_HOUR : FIVE_MIN;
  if (Number.isFinite(t0) && Number.isFinite(t1) && t1 - t0 > ttl) causes.push({ cause: 'pause', why: `${fmtDuration(t1 - t0)} without a request, longer than the cache's life (${life === '1h' ? '1 hour' : '5 minutes'})` });
  if (resumed) causes.push({ cause: 'resumed', why: 'a new claude process went on with the session (--continue, --resume)' });
  if (!causes.length) causes.push({ cause: 'unknown', why: 'nothing in the transcript explains it (an edited startup file after /clear, or a change Claude Code does not record)' });
  const [first, ...rest] = causes;
  return { cause: first!.cause, why: first!.why, ...(rest.length && { also: rest.map((c) => c.cause) }), request: index, lost, written: q.usage.cacheCreation };
}
