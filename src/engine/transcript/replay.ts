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
import { rebuildRequests, requestBody, usageOf, type RebuiltRequest, type Usage } from './requests.js';
import { findStartup } from './wire.js';
import { extractSession, type ExtractedTurn, type RecordedSessionRequest } from './wire-session.js';

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
  /** requests of the main loop in this turn (a compaction's own request included) */
  requests: number;
  timestamp?: string;
  /** this turn compacted the conversation: typed (`manual`) or on Claude Code's own (`auto`) */
  compacted: { trigger: string; preTokens?: number } | null;
  /** where `instructions` comes from: the request itself, or (a version that records no request)
   *  rebuilt from the disk by the caller; null when there is none */
  instructionsFrom: 'request' | 'disk' | null;
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

export interface ReplayInput {
  main: readonly ParsedRecord[];
  /** subagent transcripts of the session: their meta (`agentType`, `toolUseId`) and records */
  subagents: { file: string; meta: Rec | undefined; records: readonly ParsedRecord[] }[];
  profile: ClaudeProfile;
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
}

function spans(main: readonly ParsedRecord[]): TurnSpan[] {
  const out: TurnSpan[] = [];
  let boundary: { rec: ParsedRecord; compacted: NonNullable<LiveTurn['compacted']> } | undefined;
  for (const pr of main) {
    if (pr.rec.isSidechain === true) continue;
    if (pr.type === 'system' && pr.rec.subtype === 'compact_boundary') {
      const meta = obj(pr.rec.compactMetadata);
      boundary = { rec: pr, compacted: { trigger: str(meta?.trigger) ?? 'manual', preTokens: num(meta?.preTokens) } };
      continue;
    }
    if (pr.type === 'user') {
      const p = promptOf(pr.rec);
      if (p !== undefined) {
        out.push({ prompt: p, timestamp: str(pr.rec.timestamp), records: boundary ? [boundary.rec, pr] : [pr], calls: [], compacted: boundary?.compacted ?? null });
        boundary = undefined;
        continue;
      }
    }
    const cur = out[out.length - 1];
    if (!cur) continue;
    cur.records.push(pr);
    if (pr.type === 'assistant') {
      const m = messageOf(pr.rec);
      for (const b of m ? blocksOf(m) : []) if (b.type === 'tool_use' && typeof b.name === 'string') cur.calls.push({ id: b.id ?? '', name: b.name, input: (obj(b.input) ?? {}), timestamp: str(pr.rec.timestamp) });
    }
  }
  return out;
}

function splitEntry(s: string): LiveInjected {
  const m = /^Contents of (\/[^\n]*?)(?: \([^\n]*\))?:\n\n/.exec(s);
  return { path: m ? m[1]! : '', text: s };
}

// ------------------------------------------------------------------------------ layers of a request

function classify(text: string): keyof Omit<LayerChars, 'mcp' | 'total' | 'system' | 'tools'> {
  if (text.includes(PREAMBLE)) return 'instructions';
  if (text.includes(SKILLS_LISTING_HEADER)) return 'skillsListing';
  if (text.startsWith(SR_OPEN + 'Contents of /') || text.startsWith('Contents of /') || text.includes('hook additional context: Contents of /')) return 'lazy';
  if (/^(?:<system-reminder>\n)?Note: \/[^\n]* changed on disk since you last read it\./.test(text)) return 'changedNotes';
  if (text.includes('Called the Read tool with the following input') || text.includes('The following skills were invoked EARLIER')) return 'restored';
  if (text.startsWith(SKILL_BASE_DIR_PREFIX)) return 'skillBodies';
  if (/^(?:<system-reminder>\n)?[A-Za-z]+ hook (?:success|additional context|blocking error)/.test(text)) return 'hooks';
  return 'conversation';
}

export function layerChars(r: RebuiltRequest): LayerChars | null {
  if (!r.messages) return null;
  const c: LayerChars = { system: 0, tools: 0, mcp: {}, instructions: 0, skillsListing: 0, lazy: 0, skillBodies: 0, hooks: 0, changedNotes: 0, restored: 0, conversation: 0, total: 0 };
  for (const b of r.system) c.system += (b.text ?? '').length;
  for (const t of r.tools) {
    const n = JSON.stringify(t).length;
    const name = str(t.name) ?? '';
    const mcp = /^mcp__(.+?)__/.exec(name);
    if (mcp) c.mcp[mcp[1]!] = (c.mcp[mcp[1]!] ?? 0) + n;
    else c.tools += n;
  }
  for (const m of r.messages)
    for (const b of blocksOf(m)) {
      if (b.type === 'text') c[classify(b.text ?? '')] += (b.text ?? '').length;
      else if (b.type === 'tool_result') {
        const inner = typeof b.content === 'string' ? b.content : arr(b.content).map((x) => str(obj(x)?.text) ?? '').join('');
        c.conversation += inner.length;
      } else c.conversation += JSON.stringify(b.input ?? b).length;
    }
  c.total = c.system + c.tools + Object.values(c.mcp).reduce((a, b) => a + b, 0) + c.instructions + c.skillsListing + c.lazy + c.skillBodies + c.hooks + c.changedNotes + c.restored + c.conversation;
  return c;
}

// ------------------------------------------------------------------------------- the replay itself

const contextOf = (u: Usage) => u.input + u.cacheRead + u.cacheCreation;

/** the turn each tool_use id belongs to */
function callTurns(sp: TurnSpan[]): Map<string, number> {
  const m = new Map<string, number>();
  sp.forEach((s, k) => s.calls.forEach((c) => m.set(c.id, k)));
  return m;
}

export function replay(input: ReplayInput): Replay {
  const { main, profile } = input;
  const warnings: string[] = [];
  const first = main.find((r) => typeof r.rec.sessionId === 'string');
  const sp = spans(main);
  const reqs = rebuildRequests(main);
  const version = [...main].reverse().map((r) => str(r.rec.version)).find(Boolean);
  const out: Replay = {
    sessionId: str(first?.rec.sessionId),
    cwd: main.map((r) => str(r.rec.cwd)).find(Boolean),
    version,
    source: reqs.length ? 'requests' : 'attachments',
    turns: [],
    requests: [],
    tokensPerChar: null,
    lastUsage: null,
    firstTimestamp: main.map((r) => str(r.rec.timestamp)).find(Boolean),
    lastTimestamp: [...main].reverse().map((r) => str(r.rec.timestamp)).find(Boolean),
    warnings,
  };
  // which turn a request belongs to: the last prompt before its record
  const turnOfLine = (line: number) => {
    let k = -1;
    sp.forEach((s, i) => {
      if ((s.records[0]?.line ?? Infinity) < line) k = i;
    });
    return Math.max(0, k);
  };
  const lastUsage = [...main].reverse().find((r) => r.type === 'assistant' && r.rec.isSidechain !== true && usageOf(r.rec));
  out.lastUsage = lastUsage ? (usageOf(lastUsage.rec) ?? null) : null;
  out.model = reqs[reqs.length - 1]?.model ?? str(obj(lastUsage?.rec.message)?.model);

  for (const r of reqs) {
    const chars = layerChars(r);
    out.requests.push({ id: r.id, turn: turnOfLine(r.line), timestamp: r.timestamp, model: r.model, complete: !!r.messages, usage: r.usage ?? null, contextTokens: r.usage ? contextOf(r.usage) : null, chars });
    if (r.missing) warnings.push(`request ${r.id}: ${r.missing} message(s) could not be rebuilt from the transcript`);
  }
  const lastFull = [...out.requests].reverse().find((r) => r.chars && r.contextTokens);
  if (lastFull?.chars && lastFull.contextTokens) out.tokensPerChar = lastFull.contextTokens / lastFull.chars.total;

  const ver = version ?? profile.version;
  const turnsIn = sp.map((s) => ({ prompt: s.prompt, calls: s.calls.map((c) => ({ name: c.name, input: c.input })) }));
  let extracted: ExtractedTurn[];
  const complete = reqs.length > 0 && reqs.every((r) => r.messages);
  if (complete) {
    const byCall = callTurns(sp);
    const recorded: RecordedSessionRequest[] = [];
    let index = 0;
    const rq = reqs.map((r) => ({ r, turn: turnOfLine(r.line) }));
    sp.forEach((s, k) => {
      // the compaction's own request is not recorded: it carries the conversation as the last request before it
      if (s.compacted && s.prompt.trim().startsWith('/compact') && !rq.some((x) => x.turn === k)) {
        const before = [...rq].reverse().find((x) => x.turn < k);
        if (before) recorded.push({ index: index++, kind: 'compact', turn: k, url: '/v1/messages', body: requestBody(before.r) });
      }
      for (const x of rq) if (x.turn === k) recorded.push({ index: index++, kind: x.r.querySource === 'compact' ? 'compact' : 'main', turn: k, url: '/v1/messages', body: requestBody(x.r) });
    });
    for (const sub of input.subagents) {
      const first = rebuildRequests(sub.records)[0];
      if (!first?.messages) continue;
      const turn = byCall.get(str(sub.meta?.toolUseId) ?? '') ?? turnOfTime(sp, first.timestamp);
      recorded.push({ index: index++, kind: 'other', turn, url: '/v1/messages', body: requestBody(first) });
    }
    extracted = extractSession(recorded, turnsIn, ver);
  } else {
    if (reqs.length) warnings.push('some requests could not be rebuilt: the turns are read from the attachments instead');
    extracted = fromAttachments(sp, input, profile);
  }

  out.turns = sp.map((s, k) => {
    const e = extracted[k];
    const calls: LiveCall[] = s.calls.map((c, i) => {
      const ec = e?.calls[i];
      const sub = input.subagents.find((x) => str(x.meta?.toolUseId) === c.id);
      const result = toolResultOf(s, c.id);
      return {
        name: c.name,
        input: c.input,
        id: c.id,
        injected: (ec?.injected ?? []).map(splitEntry),
        skillBody: ec?.skillBody ?? null,
        agent: ec?.agent ? { ...ec.agent, ...(sub && { transcript: sub.file }) } : null,
        unknownCommands: [],
        error: result?.isError ? result.text.slice(0, 2000) : null,
        timestamp: c.timestamp,
      };
    });
    return {
      prompt: s.prompt,
      instructions: e?.instructions ?? null,
      instructionsFrom: e?.instructions != null ? 'request' : null,
      changedNotes: e?.changedNotes ?? null,
      restored: e?.restored ?? null,
      calls,
      requests: e?.requests ?? 0,
      timestamp: s.timestamp,
      compacted: s.compacted,
    };
  });
  return out;
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

function fromAttachments(sp: TurnSpan[], input: ReplayInput, profile: ClaudeProfile): ExtractedTurn[] {
  return sp.map((s, k) => {
    const recs = s.records;
    // the turn's opening attachments: up to the first assistant record
    const firstAssistant = recs.findIndex((r) => r.type === 'assistant');
    const opening = attachmentsAfter(s, 0, firstAssistant < 0 ? recs.length : firstAssistant);
    const notes = opening.filter((a) => a.type === 'edited_text_file').map((a) => CHANGED_NOTE(str(a.filename) ?? '', str(a.snippet) ?? ''));
    const prev = sp[k - 1];
    let restored: ExtractedTurn['restored'] = null;
    if (prev && prev.prompt.trim().startsWith('/compact')) restored = restoredFrom(prev, profile);
    const turn: ExtractedTurn = { prompt: s.prompt, requests: recs.some((r) => r.type === 'assistant') ? 1 : 0, instructions: null, changedNotes: notes.length ? notes.join('\n\n') : null, restored, calls: [] };
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
      const meta = after.find((r) => r.type === 'user' && r.rec.isMeta === true && str(r.rec.sourceToolUseID) === c.id);
      const body = meta ? textOf(messageOf(meta.rec) ?? { role: 'user', content: '' }).trimEnd() : null;
      const sub = input.subagents.find((x) => str(x.meta?.toolUseId) === c.id);
      const result = toolResultOf(s, c.id)?.text ?? '';
      const agent =
        c.name === 'Agent'
          ? { type: str(c.input.subagent_type) ?? 'general-purpose', instructions: sub ? subagentStartup(sub.records, profile) : null }
          : c.name === 'Skill' && /completed \(forked execution\)/.test(result)
            ? { type: 'fork', instructions: null }
            : null;
      turn.calls.push({ name: c.name, input: c.input, injected, skillBody: c.name === 'Skill' ? body : null, agent });
    }
    return turn;
  });
}

function subagentStartup(records: readonly ParsedRecord[], profile: ClaudeProfile): string | null {
  const reqs = rebuildRequests(records);
  const r = reqs[0];
  if (r?.messages) return findStartup({ messages: r.messages }, profile.version);
  return null;
}

/** what a compaction brought back, as its attachments record it */
function restoredFrom(compactTurn: TurnSpan, profile: ClaudeProfile): ExtractedTurn['restored'] {
  const files: { path: string; text: string }[] = [];
  const references: string[] = [];
  let skills: string | null = null;
  for (const pr of compactTurn.records) {
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
