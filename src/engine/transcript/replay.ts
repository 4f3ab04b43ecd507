// A recorded session rebuilt turn by turn, in the shape of `render --session --json` (docs/session.md):
// from the requests themselves where the transcript records them (2.1.328 and later: exact text), and
// from its attachments where it does not (2.1.235: nested_memory, edited_text_file, file,
// invoked_skills and the skill bodies' own records, rendered with the engine's format strings; the
// startup block is not recorded there and is left to the caller to reconstruct from the disk).
// Per request also: the usage Claude Code was answered with, and the request's characters by layer.
import { CHANGED_NOTE, entryText, PREAMBLE, SKILL_BASE_DIR_PREFIX, SKILLS_LISTING_HEADER } from '../format-strings.js';
import type { ClaudeProfile } from '../profiles.js';
import { numberLines } from '../session/changed-notes.js';
import { restoreSkills } from '../session/compaction.js';
import { arr, blocksOf, messageOf, num, obj, str, type Block, type ParsedRecord, type Rec, type WireMessage } from './records.js';
import { rebuildRequests, RequestIndex, resultLength, shrink, usageOf, type RebuiltRequest, type Usage } from './requests.js';
import { findStartup } from './wire.js';
import { extractTurn, variantsNote, type ExtractedTurn, type RecordedSessionRequest } from './wire-session.js';
import type { TurnCache, TurnUsage } from './usage.js';

export interface LiveInjected {
  path: string;
  /** the entry as sent: `Contents of PATH:\n\nTEXT` */
  text: string;
}

export interface LiveCall {
  name: string;
  input: unknown;
  /** the tool_use id Claude Code gave the call */
  id: string;
  injected: LiveInjected[];
  skillBody: string | null;
  /** the reminder naming a skill's directory-scoped variants, after its body (wire-session.ts) */
  skillNote?: string | null;
  agent: { type: string; instructions: string | null; transcript?: string; reconstructed?: boolean } | null;
  unknownCommands: string[];
  error: string | null;
  timestamp?: string;
}

export interface LiveTurn {
  prompt: string;
  instructions: string | null;
  changedNotes: string | null;
  restored: { files: { path: string; text: string }[]; references: string[]; skills: string | null } | null;
  calls: LiveCall[];
  /** the reminder a resumed session adds, and the compactions Claude Code made on its own (wire-session.ts) */
  resumeReminder?: string | null;
  autoCompactions?: NonNullable<ExtractedTurn['autoCompactions']>;
  /** requests of the main loop in this turn (a compaction's own request included) */
  requests: number;
  timestamp?: string;
  /** this turn compacted the conversation: typed (`manual`) or on Claude Code's own (`auto`) */
  compacted: { trigger: string; preTokens?: number } | null;
  /** the first request of a new process on the same session (`--continue`, `--resume`): it repeats the conversation instead of adding to it */
  resumed: boolean;
  /** where `instructions` comes from: the request itself, or (a version that records no request)
   *  rebuilt from the disk by the caller; null when there is none */
  instructionsFrom: 'request' | 'disk' | null;
  // ---- issue 31 part B (turn-figures.ts sets them on every read): the turn's API requests, by their answers
  /** its answers' usage summed (usage.ts) */
  usage?: TurnUsage;
  /** USD at the model's price; null when a request's model has no price */
  cost?: number | null;
  cache?: TurnCache;
  /** the hooks that ran in the turn (attachment-layers.ts) */
  hooks?: { event: string; command: string; chars: number | null; dropped: boolean }[];
  // ---- end of part B
}

export interface LayerChars {
  system: number;
  tools: number;
  /** MCP servers' tools, per server */
  mcp: Record<string, number>;
  instructions: number;
  skillsListing: number;
  lazy: number;
  skillBodies: number;
  hooks: number;
  changedNotes: number;
  restored: number;
  conversation: number;
  total: number;
}

export interface LiveRequest {
  id: string;
  turn: number;
  timestamp?: string;
  model?: string;
  /** false when a message of it could not be rebuilt (then its layers are not counted) */
  complete: boolean;
  usage: Usage | null;
  /** input + cache read + cache creation: the context the model saw, in real tokens */
  contextTokens: number | null;
  chars: LayerChars | null;
}

/** a subagent's transcript of the session: its meta (`agentType`, `toolUseId`) and records */
export interface SubagentTranscript {
  file: string;
  meta: Rec | undefined;
  records: readonly ParsedRecord[];
}

export interface Replay {
  sessionId?: string;
  cwd?: string;
  version?: string;
  model?: string;
  /** what the transcript recorded: `requests` (exact messages) or `attachments` (2.1.235) */
  source: 'requests' | 'attachments';
  turns: LiveTurn[];
  requests: LiveRequest[];
  /** tokens per character of this session: the last complete request's context tokens ÷ its characters */
  tokensPerChar: number | null;
  /** the newest main-loop usage */
  lastUsage: Usage | null;
  firstTimestamp?: string;
  lastTimestamp?: string;
  warnings: string[];
  /** each turn's records (the main chain's, from its prompt to the next), and the records before the first prompt
   *  (SessionStart hooks, the first listings): what turn-figures.ts reads usage, hooks and listings from */
  turnRecords: readonly (readonly ParsedRecord[])[];
  leadingRecords: readonly ParsedRecord[];
}

const SR_OPEN = '<system-reminder>\n';
const COMMAND = /^<command-name>(\/[^<]*)<\/command-name>/;
const NOT_PROMPTS = /^<(local-command-stdout|local-command-caveat|local-command-stderr|command-message|bash-input|bash-stdout|bash-stderr)>/;

function textOf(m: WireMessage): string {
  return blocksOf(m)
    .filter((b) => b.type === 'text')
    .map((b) => b.text ?? '')
    .join('\n');
}

/** the prompt a user record carries, or undefined when it is not a prompt (tool results, meta, compaction) */
function promptOf(r: Rec): string | undefined {
  if (r.isMeta === true || r.isCompactSummary === true || r.isVisibleInTranscriptOnly === true || r.isSidechain === true) return undefined;
  const m = messageOf(r);
  if (!m || m.role !== 'user') return undefined;
  const bs = blocksOf(m);
  if (bs.some((b) => b.type === 'tool_result')) return undefined;
  const t = textOf(m);
  const cmd = COMMAND.exec(t.trimStart());
  if (cmd) return cmd[1]!.trim();
  if (NOT_PROMPTS.test(t.trimStart())) return undefined;
  return t;
}

interface TurnSpan {
  prompt: string;
  timestamp?: string;
  /** records of the main chain from the prompt to the next prompt */
  records: ParsedRecord[];
  calls: { id: string; name: string; input: Record<string, unknown>; timestamp?: string }[];
  /** a compact_boundary came after the previous turn's last record: the conversation was compacted
   *  by this turn's `/compact`, or on Claude Code's own before this turn's prompt */
  compacted: LiveTurn['compacted'];
  /** indexes (into the request index) of this turn's main-loop requests */
  requests: number[];
}

function splitEntry(s: string): LiveInjected {
  const m = /^Contents of (\/[^\n]*?)(?: \([^\n]*\))?:\n\n/.exec(s);
  return { path: m ? m[1]! : '', text: s };
}

// ------------------------------------------------------------------------------ layers of a request

type TextLayer = keyof Omit<LayerChars, 'mcp' | 'total' | 'system' | 'tools'>;

function classify(text: string): TextLayer {
  if (text.includes(PREAMBLE)) return 'instructions';
  if (text.includes(SKILLS_LISTING_HEADER)) return 'skillsListing';
  if (text.startsWith(SR_OPEN + 'Contents of /') || text.startsWith('Contents of /') || text.includes('hook additional context: Contents of /')) return 'lazy';
  if (/^(?:<system-reminder>\n)?Note: \/[^\n]* changed on disk since you last read it\./.test(text)) return 'changedNotes';
  if (text.includes('Called the Read tool with the following input') || text.includes('The following skills were invoked EARLIER')) return 'restored';
  if (text.startsWith(SKILL_BASE_DIR_PREFIX)) return 'skillBodies';
  if (/^(?:<system-reminder>\n)?[A-Za-z]+ hook (?:success|additional context|blocking error)/.test(text)) return 'hooks';
  return 'conversation';
}

const emptyChars = (): LayerChars => ({ system: 0, tools: 0, mcp: {}, instructions: 0, skillsListing: 0, lazy: 0, skillBodies: 0, hooks: 0, changedNotes: 0, restored: 0, conversation: 0, total: 0 });
const TEXT_LAYERS: TextLayer[] = ['instructions', 'skillsListing', 'lazy', 'skillBodies', 'hooks', 'changedNotes', 'restored', 'conversation'];

/** a message's characters by layer, computed once per message object */
const messageChars = new WeakMap<object, Partial<Record<TextLayer, number>>>();
function charsOfMessage(m: WireMessage): Partial<Record<TextLayer, number>> {
  const hit = messageChars.get(m);
  if (hit) return hit;
  const c: Partial<Record<TextLayer, number>> = {};
  const add = (k: TextLayer, n: number) => (c[k] = (c[k] ?? 0) + n);
  for (const b of blocksOf(m)) {
    if (b.type === 'text') add(classify(b.text ?? ''), (b.text ?? '').length);
    else if (b.type === 'tool_result') add('conversation', resultLength(b));
    else add('conversation', JSON.stringify(b.input ?? b).length);
  }
  messageChars.set(m, c);
  return c;
}

function addMessages(c: LayerChars, msgs: readonly WireMessage[]): void {
  for (const m of msgs) {
    const mc = charsOfMessage(m);
    for (const k of TEXT_LAYERS) c[k] += mc[k] ?? 0;
  }
}

function totalOf(c: LayerChars): number {
  return c.system + c.tools + Object.values(c.mcp).reduce((a, b) => a + b, 0) + TEXT_LAYERS.reduce((a, k) => a + c[k], 0);
}

export function layerChars(r: RebuiltRequest): LayerChars | null {
  if (!r.messages) return null;
  const c = emptyChars();
  for (const b of r.system) c.system += (b.text ?? '').length;
  for (const t of r.tools) {
    const n = JSON.stringify(t).length;
    const mcp = /^mcp__(.+?)__/.exec(str(t.name) ?? '');
    if (mcp) c.mcp[mcp[1]!] = (c.mcp[mcp[1]!] ?? 0) + n;
    else c.tools += n;
  }
  addMessages(c, r.messages);
  c.total = totalOf(c);
  return c;
}

/** the layers of `r` from those of the request before it when `r` only adds messages to it */
function layerCharsAfter(r: RebuiltRequest, prev: RebuiltRequest | undefined, prevChars: LayerChars | null | undefined): LayerChars | null {
  if (!r.messages) return null;
  const pm = prev?.messages;
  if (!prev || !pm || !prevChars || r.system !== prev.system || r.tools !== prev.tools || r.messages.length < pm.length || (pm.length > 0 && r.messages[pm.length - 1] !== pm[pm.length - 1])) return layerChars(r);
  const c: LayerChars = { ...prevChars, mcp: { ...prevChars.mcp } };
  addMessages(c, r.messages.slice(pm.length));
  c.total = totalOf(c);
  return c;
}

// ------------------------------------------------------------------------------- the replay itself

/** a turn's request list holds a compaction (never recorded) as -1 - its index in `compactions` */
const compactionMarker = (k: number) => -1 - k;
const compactionIndex = (i: number) => -1 - i;

/**
 * What a compaction's own request carries (Claude Code never records it), one rule for `/compact` and
 * for the compactions it makes on its own: the conversation up to the compaction, that is the messages
 * of the last request before it, then what was recorded after that request: the model's answer, each
 * tool result with what came with it (the rendered attachments: injected files, reminders; skill
 * bodies' records), consecutive user records and attachments as one message. Not in it: a prompt whose
 * turn had sent nothing yet and what came with it (the compaction keeps them for the request after),
 * and the model's last answer when it answered a tool result (measured: after a Read, a Write or a
 * forked skill the compaction ends with the tool result; after a prompt or a skill's body it carries
 * the answer). Measured against every compaction request of the session suite
 * (test/conformance/session/live.ts): equal, but for Claude Code's own instruction that it appends and
 * where the reminders after a tool result stand. Null when the request before it could not be rebuilt.
 */
export function compactionRequest(before: RebuiltRequest | undefined, since: readonly WireMessage[]): { messages: WireMessage[] } | null {
  if (before && !before.messages) return null;
  const messages = [...(before?.messages ?? []), ...since];
  const last = messages[messages.length - 1];
  const prev = messages[messages.length - 2];
  if (last?.role === 'assistant' && !blocksOf(last).some((b) => b.type === 'tool_use') && prev?.role === 'user') {
    const own = blocksOf(prev).filter((b) => !(b.type === 'text' && (b.text ?? '').startsWith(SR_OPEN)));
    if (own[own.length - 1]?.type === 'tool_result') messages.pop();
  }
  return { messages };
}

const contextOf = (u: Usage) => u.input + u.cacheRead + u.cacheCreation;
/** the most records kept before the first prompt */
const MAX_LEADING = 10_000;

interface CachedTurn {
  key: string;
  extracted: ExtractedTurn;
  live: LiveTurn;
  /** the last request of the turn as the extractor saw it (the next turn's messages are new past it) */
  last: { messages?: unknown[] } | undefined;
}

/**
 * A session's transcript, fed record by record (add) as the file grows; `result` gives the session as
 * it stands. Work done for a turn is kept until that turn changes, so an appended record costs the
 * last turn's work, not the whole session's.
 */
export class SessionReplayer {
  private readonly ix = new RequestIndex();
  private readonly spans: TurnSpan[] = [];
  private boundary: { rec: ParsedRecord; compacted: NonNullable<LiveTurn['compacted']>; marker: number } | undefined;
  /** the conversation recorded since the last request (what a compaction's request adds to it) */
  private since: WireMessage[] = [];
  /** a prompt came after the last request: what follows goes with it into the next request */
  private prompted = false;
  /** the compactions' own requests, by the rule (compactionRequest), in the order they came */
  private readonly compactions: { turn: number; trigger: string; body: { messages: WireMessage[] } | null }[] = [];
  private readonly chars: (LayerChars | null)[] = [];
  private readonly reqTurn: number[] = [];
  private readonly cache: CachedTurn[] = [];
  private readonly liveRequests: LiveRequest[] = [];
  private readonly subRequests = new WeakMap<object, RebuiltRequest | undefined>();
  private sessionId: string | undefined;
  private cwd: string | undefined;
  private version: string | undefined;
  private firstTimestamp: string | undefined;
  private lastTimestamp: string | undefined;
  private lastUsage: Usage | null = null;
  private lastModel: string | undefined;
  /** records before the first prompt that carry context (attachments, hook progress, system), at most MAX_LEADING */
  private readonly leading: ParsedRecord[] = [];

  add(records: readonly ParsedRecord[]): void {
    for (const pr of records) this.one(pr);
  }

  private one(pr: ParsedRecord): void {
    const r = pr.rec;
    this.sessionId ??= str(r.sessionId);
    this.cwd ??= str(r.cwd);
    const v = str(r.version);
    if (v) this.version = v;
    const ts = str(r.timestamp);
    if (ts) {
      this.firstTimestamp ??= ts;
      this.lastTimestamp = ts;
    }
    const before = this.ix.requests.length;
    this.ix.add(pr);
    if (this.ix.requests.length > before) {
      this.since = [];
      this.prompted = false;
      const k = this.ix.requests.length - 1;
      const req = this.ix.requests[k]!;
      this.chars.push(layerCharsAfter(req, this.ix.requests[k - 1], this.chars[k - 1]));
      const turn = Math.max(0, this.spans.length - 1);
      this.reqTurn.push(turn);
      this.spans[turn]?.requests.push(k);
      return;
    }
    if (r.isSidechain === true) return;
    // what the reader keeps of a user or assistant record: its message with long tool results dropped
    if (pr.type === 'user' || pr.type === 'assistant') {
      const m = messageOf(r);
      if (m) r.message = { ...(obj(r.message) ?? {}), content: shrink(m).content };
      if (m && pr.type === 'assistant') this.converse({ role: 'assistant', content: blocksOf(shrink(m)) });
      else if (m && r.isCompactSummary !== true && r.isVisibleInTranscriptOnly !== true && promptOf(r) === undefined) this.converse({ role: 'user', content: blocksOf(shrink(m)) });
      if (pr.type === 'assistant') {
        const u = usageOf(r);
        if (u) this.lastUsage = u;
        this.lastModel = str(obj(r.message)?.model) ?? this.lastModel;
      }
    }
    if (pr.type === 'attachment') this.converseAttachment(r);
    if (pr.type === 'system' && r.subtype === 'compact_boundary') {
      const meta = obj(r.compactMetadata);
      const compacted = { trigger: str(meta?.trigger) ?? 'manual', preTokens: num(meta?.preTokens) };
      const cur = this.spans[this.spans.length - 1];
      const inTurn = compacted.trigger === 'auto' && cur && !cur.prompt.trim().startsWith('/compact');
      // its request (not recorded) comes here: between the running turn's requests when Claude Code
      // compacted on its own, else first in the turn that follows (the `/compact` one)
      const marker = compactionMarker(this.compactions.length);
      this.compactions.push({ turn: inTurn ? this.spans.length - 1 : this.spans.length, trigger: compacted.trigger, body: this.ix.requests.length ? compactionRequest(this.ix.requests[this.ix.requests.length - 1], this.since) : null });
      this.since = [];
      this.prompted = false;
      if (inTurn) {
        cur.requests.push(marker);
        cur.records.push(pr);
        cur.compacted ??= compacted;
        return;
      }
      this.boundary = { rec: pr, compacted, marker };
      return;
    }
    if (pr.type === 'user') {
      const p = promptOf(r);
      if (p !== undefined) {
        this.prompted = true;
        this.spans.push({ prompt: p, timestamp: ts, records: this.boundary ? [this.boundary.rec, pr] : [pr], calls: [], compacted: this.boundary?.compacted ?? null, requests: this.boundary ? [this.boundary.marker] : [] });
        if (this.boundary) this.compactions[compactionIndex(this.boundary.marker)]!.turn = this.spans.length - 1;
        this.boundary = undefined;
        return;
      }
    }
    const cur = this.spans[this.spans.length - 1];
    if (!cur) {
      if (pr.type !== 'user' && pr.type !== 'assistant' && this.leading.length < MAX_LEADING) this.leading.push(pr);
      return;
    }
    cur.records.push(pr);
    if (pr.type === 'assistant') {
      const m = messageOf(r);
      for (const b of m ? blocksOf(m) : []) if (b.type === 'tool_use' && typeof b.name === 'string') cur.calls.push({ id: b.id ?? '', name: b.name, input: (obj(b.input) ?? {}), timestamp: ts });
    }
  }

  /** a message of the conversation past the last request: consecutive user messages are one */
  private converse(m: { role: string; content: Block[] }): void {
    // a version that records no request (2.1.235) has no compaction request to rebuild: nothing is kept
    if (!this.ix.requests.length || this.prompted) return;
    const last = this.since[this.since.length - 1];
    if (last && last.role === m.role && m.role === 'user') this.since[this.since.length - 1] = { role: 'user', content: [...blocksOf(last), ...m.content] };
    else this.since.push(m);
  }

  /** an attachment as the next request sends it: its rendered text, in a user message or a system one */
  private converseAttachment(r: Rec): void {
    const role = str(r.renderedRole);
    const texts = arr(r.rendered).map((x) => str(obj(x)?.content)).filter((t): t is string => t !== undefined);
    if (!texts.length || (role !== 'user' && role !== 'system')) return;
    this.converse({ role, content: texts.map((text) => ({ type: 'text', text })) });
  }

  /** the compactions' own requests as the rule rebuilds them (compactionRequest), with the turn each came in */
  compactionRequests(): readonly { turn: number; trigger: string; body: { messages: WireMessage[] } | null }[] {
    return this.compactions;
  }

  result(subagents: SubagentTranscript[], profile: ClaudeProfile): Replay {
    const warnings: string[] = [];
    const reqs = this.ix.requests;
    const out: Replay = {
      sessionId: this.sessionId,
      cwd: this.cwd,
      version: this.version,
      source: reqs.length ? 'requests' : 'attachments',
      turns: [],
      requests: this.requestList(),
      tokensPerChar: null,
      lastUsage: this.lastUsage,
      model: reqs[reqs.length - 1]?.model ?? this.lastModel,
      firstTimestamp: this.firstTimestamp,
      lastTimestamp: this.lastTimestamp,
      warnings,
      turnRecords: this.spans.map((s) => s.records),
      leadingRecords: this.leading,
    };
    for (const r of reqs) if (r.missing) warnings.push(`request ${r.id}: ${r.missing} message(s) could not be rebuilt from the transcript`);
    const lastFull = [...out.requests].reverse().find((r) => r.chars && r.contextTokens);
    if (lastFull?.chars && lastFull.contextTokens) out.tokensPerChar = lastFull.contextTokens / lastFull.chars.total;
    const ver = this.version ?? profile.version;
    const complete = reqs.length > 0 && reqs.every((r) => r.messages);
    if (reqs.length && !complete) warnings.push('some requests could not be rebuilt: the turns are read from the attachments instead');
    // subagents: each one's first request, in the turn of the call that started it
    const byCall = new Map<string, number>();
    this.spans.forEach((s, k) => s.calls.forEach((c) => byCall.set(c.id, k)));
    const subFirst = subagents.map((sub) => {
      if (!this.subRequests.has(sub.records)) this.subRequests.set(sub.records, rebuildRequests(sub.records)[0]);
      const first = this.subRequests.get(sub.records);
      const turn = byCall.get(str(sub.meta?.toolUseId) ?? '') ?? turnOfTime(this.spans, first?.timestamp);
      return { sub, first, turn };
    });
    let dirty = false;
    this.spans.forEach((s, k) => {
      const mine = s.requests.filter((i) => i >= 0).map((i) => reqs[i]!);
      const others = subFirst.filter((x) => x.turn === k && x.first?.messages);
      const key = `${complete}:${s.records.length}:${s.calls.length}:${s.requests.length}:${mine[mine.length - 1]?.id ?? ''}:${others.map((o) => o.sub.file).join(',')}:${s.compacted ? 1 : 0}`;
      const hit = this.cache[k];
      if (!dirty && hit && hit.key === key) return;
      dirty = true;
      const prevLast = this.cache[k - 1]?.last;
      const input = { prompt: s.prompt, calls: s.calls.map((c) => ({ name: c.name, input: c.input })) };
      let extracted: ExtractedTurn;
      let last: CachedTurn['last'] = prevLast;
      if (complete) {
        const recorded: RecordedSessionRequest[] = [];
        let index = 0;
        const asBody = (r: RebuiltRequest) => ({ messages: r.messages ?? [] });
        for (const i of s.requests) {
          // a compaction's own request is not recorded: what it carries by the rule (compactionRequest)
          const body = i < 0 ? this.compactions[compactionIndex(i)]?.body : asBody(reqs[i]!);
          if (body) recorded.push({ index: index++, kind: i < 0 || reqs[i]!.querySource === 'compact' ? 'compact' : 'main', turn: k, url: '/v1/messages', body: '', parsed: body });
        }
        const othersRec = others.map((o) => ({ index: index++, kind: 'other' as const, turn: k, url: '/v1/messages', body: '', parsed: asBody(o.first!) }));
        const r = extractTurn(input, this.spans[k - 1]?.prompt, recorded, othersRec, prevLast, ver, new Set());
        extracted = r.turn;
        if (mine.length) last = r.last;
      } else extracted = fromAttachments(this.spans, k, subagents, profile);
      this.cache[k] = { key, extracted, last, live: this.liveTurn(s, extracted, subagents) };
    });
    this.cache.length = this.spans.length;
    out.turns = this.cache.map((c) => c.live);
    return out;
  }

  /** the requests with their usage and layers: entries are made once; the last ones again, as their usage arrives after them */
  private requestList(): LiveRequest[] {
    const reqs = this.ix.requests;
    for (let k = Math.max(0, this.liveRequests.length - 2); k < reqs.length; k++) {
      const r = reqs[k]!;
      this.liveRequests[k] = { id: r.id, turn: this.reqTurn[k] ?? 0, timestamp: r.timestamp, model: r.model, complete: !!r.messages, usage: r.usage ?? null, contextTokens: r.usage ? contextOf(r.usage) : null, chars: this.chars[k] ?? null };
    }
    return [...this.liveRequests];
  }

  private liveTurn(s: TurnSpan, e: ExtractedTurn, subagents: SubagentTranscript[]): LiveTurn {
    const calls: LiveCall[] = s.calls.map((c, i) => {
      const ec = e.calls[i];
      const sub = subagents.find((x) => str(x.meta?.toolUseId) === c.id);
      const result = toolResultOf(s, c.id);
      return {
        name: c.name,
        input: c.input,
        id: c.id,
        injected: (ec?.injected ?? []).map(splitEntry),
        skillBody: ec?.skillBody ?? null,
        skillNote: ec?.skillNote ?? null,
        agent: ec?.agent ? { ...ec.agent, ...(sub && { transcript: sub.file }) } : null,
        unknownCommands: [],
        error: result?.isError ? result.text.slice(0, 2000) : null,
        timestamp: c.timestamp,
      };
    });
    return {
      prompt: s.prompt,
      instructions: e.instructions,
      instructionsFrom: e.instructions !== null ? 'request' : null,
      changedNotes: e.changedNotes,
      restored: e.restored,
      resumeReminder: e.resumeReminder ?? null,
      autoCompactions: e.autoCompactions ?? [],
      calls,
      requests: e.requests,
      timestamp: s.timestamp,
      compacted: s.compacted,
      resumed: s.requests.length > 0 && s.requests[0]! > 0 && !!this.ix.requests[s.requests[0]!]?.fresh && !s.compacted,
    };
  }
}

/** the turn running at a time (a subagent whose meta names no tool call: 2.1.235, a forked skill) */
function turnOfTime(sp: TurnSpan[], at: string | undefined): number {
  const t = at ? Date.parse(at) : NaN;
  let k = 0;
  sp.forEach((s, i) => {
    const ts = s.timestamp ? Date.parse(s.timestamp) : NaN;
    if (Number.isFinite(t) && Number.isFinite(ts) && ts <= t) k = i;
  });
  return k;
}

function toolResultOf(s: TurnSpan, id: string): { text: string; isError: boolean } | undefined {
  for (const pr of s.records) {
    if (pr.type !== 'user') continue;
    const m = messageOf(pr.rec);
    for (const b of m ? blocksOf(m) : []) {
      if (b.type !== 'tool_result' || b.tool_use_id !== id) continue;
      const text = typeof b.content === 'string' ? b.content : arr(b.content).map((x) => str(obj(x)?.text) ?? '').join('');
      return { text, isError: b.is_error === true };
    }
  }
  return undefined;
}

// ------------------------------------------------------------------ 2.1.235: from the attachments

function attachmentsAfter(s: TurnSpan, from: number, until: number): Rec[] {
  return s.records.slice(from, until).filter((r) => r.type === 'attachment').map((r) => obj(r.rec.attachment) ?? {});
}

function fromAttachments(sp: TurnSpan[], k: number, subagents: SubagentTranscript[], profile: ClaudeProfile): ExtractedTurn {
  {
    const s = sp[k]!;
    const recs = s.records;
    // the turn's opening attachments: up to the first assistant record
    const firstAssistant = recs.findIndex((r) => r.type === 'assistant');
    const opening = attachmentsAfter(s, 0, firstAssistant < 0 ? recs.length : firstAssistant);
    const notes = opening.filter((a) => a.type === 'edited_text_file').map((a) => CHANGED_NOTE(str(a.filename) ?? '', str(a.snippet) ?? ''));
    const prev = sp[k - 1];
    let restored: ExtractedTurn['restored'] = null;
    if (prev && prev.prompt.trim().startsWith('/compact')) restored = restoredFrom(prev.records, profile);
    // the compactions Claude Code made on its own in this turn: before the turn's request `at` (one per
    // answer before it), with what the records after it brought back
    const autoCompactions: NonNullable<ExtractedTurn['autoCompactions']> = [];
    if (!s.prompt.trim().startsWith('/compact'))
      recs.forEach((r, i) => {
        if (r.type !== 'system' || r.rec.subtype !== 'compact_boundary' || obj(r.rec.compactMetadata)?.trigger !== 'auto') return;
        const answers = new Set(recs.slice(0, i).filter((x) => x.type === 'assistant').map((x) => str(obj(x.rec.message)?.id) ?? `line ${x.line}`));
        const next = recs.findIndex((x, j) => j > i && x.type === 'assistant');
        autoCompactions.push({ at: answers.size, restored: restoredFrom(recs.slice(i + 1, next < 0 ? recs.length : next), profile) });
      });
    const turn: ExtractedTurn = { prompt: s.prompt, requests: recs.some((r) => r.type === 'assistant') ? 1 : 0, instructions: null, changedNotes: notes.length ? notes.join('\n\n') : null, restored, calls: [], autoCompactions };
    for (const c of s.calls) {
      // the call's result, then what follows it until the next assistant record
      const at = recs.findIndex((r) => r.type === 'user' && (messageOf(r.rec) ? blocksOf(messageOf(r.rec)!).some((b) => b.type === 'tool_result' && b.tool_use_id === c.id) : false));
      let end = at < 0 ? at : recs.findIndex((r, i) => i > at && r.type === 'assistant');
      if (end < 0) end = recs.length;
      const after = at < 0 ? [] : recs.slice(at + 1, end);
      const injected = after
        .filter((r) => r.type === 'attachment' && obj(r.rec.attachment)?.type === 'nested_memory')
        .map((r) => {
          const a = obj(r.rec.attachment)!;
          const content = obj(a.content);
          return entryText(str(a.path) ?? str(content?.path) ?? '', '', str(content?.content) ?? '');
        });
      // the skill's text: every meta record of the call in order (a repeat's re-invocation line, then the body), one a line;
      // the reminder naming the skill's directory-scoped variants is a meta record of the call too, after them
      const all = after.filter((r) => r.type === 'user' && r.rec.isMeta === true && str(r.rec.sourceToolUseID) === c.id).map((r) => textOf(messageOf(r.rec) ?? { role: 'user', content: '' }));
      const skillNote = all.map(variantsNote).find((n) => n !== null) ?? null;
      const metas = all.filter((t) => variantsNote(t) === null);
      const body = metas.length ? metas.reduce((acc, t) => (acc && !acc.endsWith('\n') ? `${acc}\n${t}` : acc + t), '').trimEnd() : null;
      const sub = subagents.find((x) => str(x.meta?.toolUseId) === c.id);
      const result = toolResultOf(s, c.id)?.text ?? '';
      const agent =
        c.name === 'Agent'
          ? { type: str(c.input.subagent_type) ?? 'general-purpose', instructions: sub ? subagentStartup(sub.records, profile) : null }
          : c.name === 'Skill' && /completed \(forked execution\)/.test(result)
            ? { type: 'fork', instructions: null }
            : null;
      turn.calls.push({ name: c.name, input: c.input, injected, skillBody: c.name === 'Skill' ? body : null, skillNote: c.name === 'Skill' ? skillNote : null, agent });
    }
    return turn;
  }
}

function subagentStartup(records: readonly ParsedRecord[], profile: ClaudeProfile): string | null {
  const reqs = rebuildRequests(records);
  const r = reqs[0];
  if (r?.messages) return findStartup({ messages: r.messages }, profile.version);
  return null;
}

/** what a compaction brought back, as its attachments (among these records) record it */
function restoredFrom(records: readonly ParsedRecord[], profile: ClaudeProfile): ExtractedTurn['restored'] {
  const files: { path: string; text: string }[] = [];
  const references: string[] = [];
  let skills: string | null = null;
  for (const pr of records) {
    if (pr.type !== 'attachment') continue;
    const a = obj(pr.rec.attachment) ?? {};
    if (a.type === 'file') {
      const f = obj(obj(a.content)?.file);
      const content = str(f?.content);
      const start = num(f?.startLine) ?? 1;
      if (content === undefined) continue;
      files.push({ path: str(a.filename) ?? '', text: numberLines(content, start) });
    } else if (a.type === 'compact_file_reference') {
      const p = str(a.filename);
      if (p) references.push(p);
    } else if (a.type === 'invoked_skills') {
      const list = arr(a.skills).map((x) => obj(x) ?? {});
      if (!list.length) continue;
      // as the compaction sends them: in the attachment's order, each cut and within the budget as the engine does
      const invoked = list.map((x, i) => {
        const name = str(x.name) ?? '';
        const p = str(x.path) ?? '';
        return { name, source: p.endsWith(`:${name}`) ? p.slice(0, -name.length - 1) : p, content: str(x.content) ?? '', at: -i };
      });
      skills = restoreSkills(invoked, profile.session).skills;
    }
  }
  if (!files.length && !references.length && skills === null) return null;
  return { files, references, skills };
}


export type { Block };
