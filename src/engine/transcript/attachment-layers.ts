// The layers a transcript records besides the conversation, in every version (../shared/spec/transcripts.md):
// - hooks: `hook_success` (`content` is what reached the model, for SessionStart and UserPromptSubmit only: empty while
//   `stdout` was not means the output was dropped; another event's plain output is recorded, never sent), `hook_additional_context` (`content`: a list of strings), `hook_system_message`, `async_hook_response`
//   (2.1.101 on); `progress` records with `data.type: hook_progress` (2.1.12 to 2.1.81 in real transcripts: the run, not its output) and
//   `system` / `stop_hook_summary` (`hookInfos`, `hookAdditionalContext`);
// - MCP server instructions (`mcp_instructions_delta`: `addedNames`, `addedBlocks` `## NAME\n…`, `removedNames`), deferred
//   tool names (`deferred_tools_delta`: built-in and `mcp__SERVER__TOOL`), the agent listing (`agent_listing_delta`), the
//   skill listing (`skill_listing`), nested memory, changed-file notes, restored files.
// For a version that records no request, a breakdown of the context rebuilt from these records and the conversation's
// characters, what only the first request's usage tells (system prompt, tools and the unrecorded startup block) derived
// from it and marked so.
import { arr, num, obj, str, type ParsedRecord, type Rec } from './records.js';
import { resultLength } from './requests.js';
import type { TurnLedger } from './usage.js';
import type { LiveRequest } from './replay.js';

export interface HookRun {
  event: string;
  /** the command; `''` when the record does not name it (hook_additional_context names the hook, not its command) */
  command: string;
  /** characters that reached the model; null when the version records the run but not its output (`progress`) */
  chars: number | null;
  /** the hook printed something (`stdout`) and nothing reached the model (`content` empty) */
  dropped: boolean;
  /** the record it comes from: an attachment's type (`hook_success`, `hook_additional_context`, `hook_system_message`,
   *  `async_hook_response`, …), `hook_progress`, `stop_hook_summary` or `hook_feedback` (a blocking hook's reason sent
   *  as a meta user message: `Stop hook feedback:\n…`) */
  from: string;
  /** the tool call (or `SessionStart`, a prompt's id) the run belongs to */
  toolUseID?: string;
}

/** the events whose hook's plain standard output reaches the model (a `hook_success`'s `content`) */
const PLAIN_OUTPUT_SENT = new Set(['SessionStart', 'UserPromptSubmit']);
export const eventOf = (a: Rec): string => str(a.hookEvent) ?? str(a.hookName)?.split(':')[0] ?? '?';

/** what of a `hook_success` attachment `a` (of record `r`) reached the model. Measured (session suite, 2.1.235 to
 *  2.1.335): plain output joins the context only for SessionStart and UserPromptSubmit; a PostToolUse hook's `content`
 *  is recorded and never sent (2.1.335 writes the text it sent as `rendered` on the record: that one has none) */
export function successSent(r: Rec, a: Rec): string {
  return PLAIN_OUTPUT_SENT.has(eventOf(a)) || Array.isArray(r.rendered) ? (str(a.content) ?? '') : '';
}

export const joined = (v: unknown): string => (typeof v === 'string' ? v : arr(v).map((x) => (typeof x === 'string' ? x : JSON.stringify(x) ?? '')).join('\n'));

const HOOK_FEEDBACK = /^(Stop|SubagentStop|TeammateIdle|TaskCompleted) hook feedback:\n/;

/** a hook_success run whose standard output was a JSON object with a `systemMessage`: that message (the
 *  `hook_system_message` written after it for the same call is the same run) */
const jsonSystemMessage = new WeakMap<HookRun, string>();

function systemMessageOf(stdout: string): string | undefined {
  const s = stdout.trim();
  if (!s.startsWith('{') || !s.endsWith('}') || s.length > 1_000_000) return undefined;
  try {
    return str(obj(JSON.parse(s) as unknown)?.systemMessage);
  } catch {
    return undefined;
  }
}

function hookOf(pr: ParsedRecord): HookRun[] {
  const r = pr.rec;
  if (pr.type === 'attachment') {
    const a = obj(r.attachment);
    const t = str(a?.type);
    if (!a || !t || !t.startsWith('hook_') && t !== 'async_hook_response') return [];
    if (t === 'hook_success') {
      const stdout = str(a.stdout) ?? '';
      const content = successSent(r, a);
      const run: HookRun = { event: eventOf(a), command: str(a.command) ?? '', chars: content.length, dropped: !content && !!stdout.trim(), from: t, toolUseID: str(a.toolUseID) };
      const sys = content ? undefined : systemMessageOf(stdout);
      if (sys !== undefined) jsonSystemMessage.set(run, sys);
      return [run];
    }
    if (t === 'hook_additional_context') return [{ event: eventOf(a), command: str(a.command) ?? '', chars: joined(a.content).length, dropped: false, from: t, toolUseID: str(a.toolUseID) }];
    if (t === 'async_hook_response') {
      // an async hook's JSON answer: its systemMessage and its additionalContext go out joined by a newline, in the next
      // request (measured on 2.1.235, 2.1.328 and 2.1.336 with an async PostToolUse hook printing both; unlike a
      // synchronous hook's systemMessage, which is never sent); a plain-text answer is written as a string
      const resp = a.response;
      const o = obj(resp);
      const text = typeof resp === 'string' ? resp : o ? [str(o.systemMessage), str(obj(o.hookSpecificOutput)?.additionalContext)].filter((x) => !!x).join('\n') : joined(a.content);
      return [{ event: eventOf(a), command: str(a.command) ?? '', chars: text.length, dropped: !text && !!(str(a.stdout) ?? '').trim(), from: t }];
    }
    if (t === 'hook_non_blocking_error') {
      // a hook that failed without blocking (an exit code other than 0 and 2): its stderr is shown to the user and the
      // call goes on; nothing of it is sent to the model (but what a version writes as sent, `rendered`)
      const sent = renderedChars(r) ?? 0;
      const printed = `${str(a.stderr) ?? ''}${str(a.stdout) ?? ''}`;
      return [{ event: eventOf(a), command: str(a.command) ?? '', chars: sent, dropped: !sent && !!printed.trim(), from: t, toolUseID: str(a.toolUseID) }];
    }
    if (t === 'hook_system_message') {
      // a hook's JSON `systemMessage`: shown to the user, never sent (measured on 2.1.235 and 2.1.336: UserPromptSubmit and
      // PostToolUse hooks printing one; the additionalContext beside it is a record of its own and is sent)
      const text = joined(a.content ?? '');
      return [{ event: eventOf(a), command: str(a.command) ?? '', chars: 0, dropped: !!text.trim(), from: t, toolUseID: str(a.toolUseID) }];
    }
    // hook_blocking_error, …: their text
    const text = joined(a.content ?? a.blockingError ?? a.stderr ?? '');
    return [{ event: eventOf(a), command: str(a.command) ?? str(obj(a.blockingError)?.command) ?? '', chars: text.length, dropped: false, from: t }];
  }
  if (pr.type === 'progress') {
    const d = obj(r.data);
    if (str(d?.type) !== 'hook_progress') return [];
    return [{ event: eventOf(d!), command: str(d!.command) ?? '', chars: null, dropped: false, from: 'hook_progress', toolUseID: str(r.toolUseID) }];
  }
  if (pr.type === 'user' && r.isMeta === true) {
    // a hook that blocked the end of a turn: its reason goes to the model as a meta user message (older versions write
    // only this; newer ones a `hook_blocking_error` attachment too, the same run)
    const m = obj(r.message);
    const text = typeof m?.content === 'string' ? m.content : joined(arr(m?.content).map((b) => str(obj(b)?.text) ?? ''));
    const f = HOOK_FEEDBACK.exec(text);
    if (!f) return [];
    return [{ event: f[1]!, command: /^\[([^\]\n]+)\]:/.exec(text.slice(f[0].length))?.[1] ?? '', chars: text.length, dropped: false, from: 'hook_feedback' }];
  }
  if (pr.type === 'system' && r.subtype === 'stop_hook_summary') {
    const extra = joined(r.hookAdditionalContext ?? []);
    const infos = arr(r.hookInfos).map((x) => obj(x) ?? {});
    return infos.map((h, i) => ({ event: 'Stop', command: str(h.command) ?? '', chars: i === 0 && extra ? extra.length : null, dropped: false, from: 'stop_hook_summary', toolUseID: str(r.toolUseID) }));
  }
  return [];
}

interface HookState {
  done: number;
  runs: (HookRun & { gone?: boolean })[];
  /** runs a progress or stop_hook_summary record announced, not yet recorded by an attachment: by event and command, by event */
  announced?: Map<string, { list: (HookRun & { gone?: boolean })[]; at: number }>;
  /** the last hook_success of an event (and of an event and call) */
  success?: Map<string, HookRun>;
  /** a blocking hook's feedback message or its `hook_blocking_error`, waiting for the other of the pair */
  blocked?: Map<string, HookRun & { gone?: boolean }>;
  /** Stop runs an attachment recorded, by command and call, not yet named by the `stop_hook_summary` written after it
   *  (2.1.167 writes a Stop hook's `hook_success` first, then the summary of the same call) */
  recorded?: Map<string, HookRun[]>;
  /** Stop runs a `hook_progress` record announced, by command and call, not yet named by the `stop_hook_summary` after
   *  them (2.1.12 to 2.1.75 write both for each run) */
  progressed?: Map<string, (HookRun & { gone?: boolean })[]>;
}

const callKey = (h: HookRun): string | undefined => (h.toolUseID ? `${h.event}\n${h.command}\n${h.toolUseID}` : undefined);

const hookMemo = new WeakMap<readonly ParsedRecord[], HookState>();

function takeAnnounced(m: HookState, key: string): (HookRun & { gone?: boolean }) | undefined {
  const q = m.announced?.get(key);
  if (!q) return undefined;
  while (q.at < q.list.length) {
    const r = q.list[q.at++]!;
    if (!r.gone) return r;
  }
  return undefined;
}

/**
 * A turn's hook runs as they are shown, a line each: the runs of one hook (its event and command, and whether its
 * output was recorded and whether it was dropped) together, where the first of them came, with how many ran and the
 * characters all of them sent (null: not recorded). A PostToolUse hook runs after every call: a turn of forty calls
 * holds forty runs of it.
 */
export function groupHookRuns<H extends Pick<HookRun, 'event' | 'command' | 'chars' | 'dropped'>>(hooks: readonly H[]): (H & { runs: number })[] {
  const out: (H & { runs: number })[] = [];
  const at = new Map<string, number>();
  for (const h of hooks) {
    const key = `${h.event}\0${h.command}\0${h.chars === null}\0${h.dropped}`;
    const i = at.get(key);
    if (i === undefined) {
      at.set(key, out.length);
      out.push({ ...h, runs: 1 });
    } else {
      const g = out[i]!;
      g.runs++;
      if (g.chars !== null && h.chars !== null) g.chars += h.chars;
    }
  }
  return out;
}

/** the hooks that ran among these records: a run a `progress` or `stop_hook_summary` record announced and an attachment
 *  then recorded (same event and command) is listed once, with the attachment's figures; a `hook_additional_context`
 *  after its `hook_success` is the same run. Incremental and linear in the records (a turn of 100,000 calls). */
export function hookRuns(records: readonly ParsedRecord[]): HookRun[] {
  let m = hookMemo.get(records);
  if (!m || m.done > records.length) hookMemo.set(records, (m = { done: 0, runs: [] }));
  let changed = false;
  for (; m.done < records.length; m.done++) {
    for (const h of hookOf(records[m.done]!)) {
      changed = true;
      if (h.from === 'hook_feedback' || h.from === 'hook_blocking_error') {
        // the feedback message and the blocking error of one run, in either order: listed once (the attachment's figures)
        const other = m.blocked?.get(h.event);
        if (other && other.from !== h.from) {
          m.blocked?.delete(h.event);
          if (h.from === 'hook_feedback') continue;
          other.gone = true;
        } else (m.blocked ??= new Map()).set(h.event, h);
      }
      if (h.from === 'hook_progress' || h.from === 'stop_hook_summary') {
        // the same run as an attachment of the same call recorded before it: listed once, with the attachment's figures
        const ck = callKey(h);
        const before = ck !== undefined ? m.recorded?.get(ck) : undefined;
        if (before?.length) {
          before.shift();
          if (!before.length) m.recorded!.delete(ck!);
          continue;
        }
        if (h.event === 'Stop' && ck !== undefined) {
          // a Stop run's progress record, then the summary that names it (same command and call): one run, with the
          // summary's figures (the context it added), or the attachment's when one recorded the run in between
          const progressed = h.from === 'stop_hook_summary' ? m.progressed?.get(ck) : undefined;
          const same = progressed?.shift();
          if (same) {
            if (!progressed!.length) m.progressed!.delete(ck);
            if (h.chars !== null && !same.gone) same.chars = h.chars;
            continue;
          }
          if (h.from === 'hook_progress') {
            m.progressed ??= new Map();
            const l = m.progressed.get(ck);
            if (l) l.push(h);
            else m.progressed.set(ck, [h]);
          }
        }
        for (const key of [`${h.event}\n${h.command}`, h.event]) {
          // the maps are made with the first hook (a session of many turns without hooks holds none)
          m.announced ??= new Map();
          let q = m.announced.get(key);
          if (!q) m.announced.set(key, (q = { list: [], at: 0 }));
          q.list.push(h);
        }
        m.runs.push(h);
        continue;
      }
      if (h.from === 'hook_system_message') {
        // 2.1.181: a hook whose JSON output holds a systemMessage is written as its hook_success (content empty, the JSON
        // as stdout), then a hook_system_message of the same call with that message: one run
        const ok = m.success?.get(`${h.event}\n${h.toolUseID ?? ''}`);
        const sys = ok ? jsonSystemMessage.get(ok) : undefined;
        if (ok && sys !== undefined && sys.trim() === joined(obj(records[m.done]!.rec.attachment)?.content ?? '').trim()) {
          jsonSystemMessage.delete(ok);
          continue;
        }
      }
      if (h.from === 'hook_additional_context') {
        // a hook's JSON output (`additionalContext`): its hook_success has an empty `content` (the output was parsed, not
        // dropped), or the same text; the context is what reached the model
        const ok = m.success?.get(`${h.event}\n${h.toolUseID ?? ''}`) ?? m.success?.get(h.event);
        if (ok && (ok.chars === 0 || ok.chars === h.chars)) {
          ok.chars = h.chars;
          ok.dropped = false;
          continue;
        }
      }
      const announced = takeAnnounced(m, h.command ? `${h.event}\n${h.command}` : h.event);
      if (announced) {
        announced.gone = true;
        if (!h.command) h.command = announced.command;
      }
      // (only Stop runs: the one summary written after its attachments; a turn of many tool calls keeps no map of them)
      const rk = announced || h.event !== 'Stop' ? undefined : callKey(h);
      if (rk !== undefined) {
        m.recorded ??= new Map();
        const l = m.recorded.get(rk);
        if (l) l.push(h);
        else m.recorded.set(rk, [h]);
      }
      if (h.from === 'hook_success') {
        m.success ??= new Map();
        m.success.set(h.event, h);
        m.success.set(`${h.event}\n${h.toolUseID ?? ''}`, h);
      }
      m.runs.push(h);
    }
  }
  if (changed && m.runs.some((r) => r.gone)) m.runs = m.runs.filter((r) => !r.gone);
  return m.runs;
}

// ------------------------------------------------------------------------------ session-wide listings

export interface McpServerLayer {
  /** the server as Claude Code names it (`claude.ai Linear`, `plugin:NAME:SERVER`, or the tools' `mcp__SERVER__` part) */
  server: string;
  /** characters of its instructions block (`## NAME\n…`), 0 when it has none */
  instructionsChars: number;
  /** its tools offered by name only (deferred, loaded on demand) */
  deferredTools: string[];
  /** characters of its tools' definitions in the last recorded request (2.1.328 on); null when not recorded */
  loadedToolChars: number | null;
}

export interface SessionListings {
  mcp: McpServerLayer[];
  /** built-in tools offered by name only */
  deferredBuiltIn: string[];
  /** characters of the deferred tools' lines (`addedLines`) */
  deferredChars: number;
  /** the agent listing: types and the characters of their lines */
  agents: { types: string[]; chars: number };
  /** the skill listing as last sent: names, count and characters */
  skills: { names: string[]; count: number; chars: number } | null;
}

/** the tools' `mcp__SERVER__` part of a server name: every character but letters, digits, `_` and `-` as `_` */
export const mcpKey = (server: string) => server.replace(/[^A-Za-z0-9_-]/g, '_');

const LISTINGS = new Set(['mcp_instructions_delta', 'deferred_tools_delta', 'agent_listing_delta', 'skill_listing']);
const listingMemo = new WeakMap<readonly ParsedRecord[], { done: number; found: Rec[] }>();

/** the listing attachments among records (the same array read again continues where it ended) */
function listingAttachments(records: readonly ParsedRecord[]): readonly Rec[] {
  let m = listingMemo.get(records);
  if (!m || m.done > records.length) listingMemo.set(records, (m = { done: 0, found: [] }));
  for (; m.done < records.length; m.done++) {
    const pr = records[m.done]!;
    if (pr.type !== 'attachment' || pr.rec.isSidechain === true) continue;
    const a = obj(pr.rec.attachment);
    if (a && LISTINGS.has(str(a.type) ?? '')) m.found.push(a);
  }
  return m.found;
}

/** the listings the session's records hold (each turn's records, in order), as they stand after the last record */
export function sessionListings(parts: readonly (readonly ParsedRecord[])[], requests: readonly LiveRequest[] = []): SessionListings {
  const instr = new Map<string, number>();
  const deferred = new Map<string, number>();
  const agents = new Map<string, number>();
  let skills: SessionListings['skills'] = null;
  for (const a of parts.flatMap(listingAttachments)) {
    switch (str(a?.type)) {
      case 'mcp_instructions_delta': {
        const names = arr(a.addedNames).map((x) => str(x) ?? '');
        const blocks = arr(a.addedBlocks).map((x) => str(x) ?? '');
        names.forEach((n, i) => instr.set(n, (blocks.find((b) => b.startsWith(`## ${n}\n`)) ?? blocks[i] ?? '').length));
        for (const n of arr(a.removedNames)) instr.delete(str(n) ?? '');
        break;
      }
      case 'deferred_tools_delta': {
        const lines = arr(a.addedLines).map((x) => str(x) ?? '');
        [...arr(a.addedNames), ...arr(a.readdedNames)].forEach((n, i) => typeof n === 'string' && deferred.set(n, (lines[i] ?? n).length));
        for (const n of arr(a.removedNames)) deferred.delete(str(n) ?? '');
        break;
      }
      case 'agent_listing_delta': {
        if (a.isInitial === true) agents.clear();
        const lines = arr(a.addedLines).map((x) => str(x) ?? '');
        arr(a.addedTypes).forEach((t, i) => typeof t === 'string' && agents.set(t, (lines[i] ?? '').length));
        for (const t of arr(a.removedTypes)) agents.delete(str(t) ?? '');
        break;
      }
      case 'skill_listing': {
        const names = arr(a.names).filter((x): x is string => typeof x === 'string');
        const chars = (str(a.content) ?? '').length;
        if (a.isInitial === false && skills) skills = { names: [...skills.names, ...names], count: skills.count + (num(a.skillCount) ?? names.length), chars: skills.chars + chars };
        else skills = { names, count: num(a.skillCount) ?? names.length, chars };
        break;
      }
    }
  }
  const lastChars = [...requests].reverse().find((r) => r.chars)?.chars;
  const servers = new Map<string, McpServerLayer>();
  const server = (name: string) => {
    let s = servers.get(mcpKey(name));
    if (!s) servers.set(mcpKey(name), (s = { server: name, instructionsChars: 0, deferredTools: [], loadedToolChars: null }));
    return s;
  };
  for (const [n, c] of instr) server(n).instructionsChars = c;
  const builtIn: string[] = [];
  for (const name of deferred.keys()) {
    const m = /^mcp__(.+?)__/.exec(name);
    if (m) server([...servers.values()].find((s) => mcpKey(s.server) === m[1])?.server ?? m[1]!).deferredTools.push(name);
    else builtIn.push(name);
  }
  for (const [k, c] of Object.entries(lastChars?.mcp ?? {})) server([...servers.values()].find((s) => mcpKey(s.server) === k)?.server ?? k).loadedToolChars = c;
  return {
    mcp: [...servers.values()],
    deferredBuiltIn: builtIn,
    deferredChars: [...deferred.values()].reduce((a, b) => a + b, 0),
    agents: { types: [...agents.keys()], chars: [...agents.values()].reduce((a, b) => a + b, 0) },
    skills,
  };
}

// ------------------------------------------------------------------ derived breakdown (no api-request)

export interface LayerFigure {
  layer: string;
  chars: number | null;
  /** tokens at the session's ratio, or (derived) from the first request's usage */
  tokens: number | null;
  /** the figure is derived (from the first request's usage or the session's ratio), not read */
  derived: boolean;
}

export interface DerivedBreakdown {
  /** tokens per character of this session: the context's growth between consecutive requests over the characters
   *  recorded between them (derived), or the model's assumed ratio when no pair serves */
  tokensPerChar: { value: number; derived: true; from: 'session' | 'assumed' };
  /** the context of the last request by layer, since the last compaction */
  layers: LayerFigure[];
}

/** characters a record adds to the context the next request carries (its message or its attachment's text) */
export function recordChars(pr: ParsedRecord): { layer: string; chars: number } | null {
  const r = pr.rec;
  if (r.isSidechain === true) return null;
  if (pr.type === 'user' || pr.type === 'assistant') {
    if (r.isVisibleInTranscriptOnly === true) return null;
    const m = obj(r.message);
    const c = m?.content;
    if (typeof c === 'string') return { layer: 'conversation', chars: c.length };
    let n = 0;
    for (const b of arr(c)) {
      const x = obj(b);
      if (!x) continue;
      if (x.type === 'text') n += (str(x.text) ?? '').length;
      // a long result is kept as its length (`droppedLength`: requests.ts's shrink empties its text but the reminder
      // appended to it): that length, not what is left of its text
      else if (x.type === 'tool_result') n += resultLength(x);
      else if (x.type === 'tool_use') n += (JSON.stringify(x.input ?? {}) ?? '').length;
    }
    return { layer: r.isMeta === true ? 'skill bodies and expanded commands' : 'conversation', chars: n };
  }
  if (pr.type !== 'attachment') return null;
  const a = obj(r.attachment);
  // the text the record says it sent (`rendered`, newer versions), else what its own fields hold
  const sent = renderedChars(r);
  switch (str(a?.type)) {
    case 'nested_memory':
      return { layer: 'nested memory (lazy instructions)', chars: sent ?? (str(obj(a!.content)?.content) ?? '').length };
    case 'edited_text_file':
      return { layer: 'changed-on-disk notes', chars: sent ?? (str(a!.snippet) ?? '').length };
    case 'file':
      return { layer: 'restored files', chars: sent ?? (str(obj(obj(a!.content)?.file)?.content) ?? '').length };
    case 'invoked_skills':
      return { layer: 'restored skills', chars: sent ?? arr(a!.skills).reduce<number>((k, s) => k + (str(obj(s)?.content) ?? '').length, 0) };
    case 'mcp_instructions_delta':
      return { layer: 'MCP server instructions', chars: sent ?? stringsChars(a!.addedBlocks) };
    case 'deferred_tools_delta':
      return { layer: 'deferred tool names', chars: sent ?? stringsChars(a!.addedLines) };
    case 'agent_listing_delta':
      return { layer: 'agent listing', chars: sent ?? stringsChars(a!.addedLines) };
    case 'skill_listing':
      return { layer: 'skills listing', chars: sent ?? (str(a!.content) ?? '').length };
    default: {
      const h = hookOf(pr)[0];
      if (h) return { layer: 'hook output', chars: h.chars ?? 0 };
      // the startup block, the date, the environment, …: known only by what the record says it sent
      if (sent === undefined) return null;
      return { layer: str(a?.type) === 'instructions' ? STARTUP_LAYER : OTHER_TEXTS_LAYER, chars: sent };
    }
  }
}

/** tool results held by sessionChars (the oldest forgotten past it) */
const MAX_RESULTS_HELD = 100_000;

/**
 * recordChars over one session's records in order: a microcompaction (`microcompact_boundary`, 2.1.12 to 2.1.22 seen)
 * clears old tool results from the context with no summary, so its record counts as minus the characters of the
 * results it names (`compactedToolIds`), as this reader saw them. The last 100,000 results are held, by call id.
 */
export function sessionChars(): (pr: ParsedRecord) => { layer: string; chars: number } | null {
  const results = new Map<string, number>();
  return (pr) => {
    const r = pr.rec;
    if (pr.type === 'system') {
      if (r.subtype !== 'microcompact_boundary' || r.isSidechain === true) return null;
      let n = 0;
      for (const id of arr(obj(r.microcompactMetadata)?.compactedToolIds)) {
        const k = str(id);
        const c = k === undefined ? undefined : results.get(k);
        if (c === undefined) continue;
        n += c;
        results.delete(k!);
      }
      return n ? { layer: 'conversation', chars: -n } : null;
    }
    const c = recordChars(pr);
    if (c?.layer === 'conversation' && pr.type === 'user')
      for (const b of arr(obj(r.message)?.content)) {
        const x = obj(b);
        const id = x?.type === 'tool_result' ? str(x.tool_use_id) : undefined;
        if (id === undefined) continue;
        results.delete(id);
        results.set(id, resultLength(x!));
        if (results.size > MAX_RESULTS_HELD) results.delete(results.keys().next().value!);
      }
    return c;
  };
}

/** the characters of a list of strings (a delta's added lines or blocks) */
const stringsChars = (v: unknown): number => arr(v).reduce<number>((k, s) => k + (str(s) ?? '').length, 0);

const STARTUP_LAYER = 'startup instructions';
const OTHER_TEXTS_LAYER = "Claude Code's other texts";

/** the characters of an attachment's `rendered` list (`[{ content }]`: what newer versions record as sent), or undefined without one */
function renderedChars(r: Rec): number | undefined {
  if (!Array.isArray(r.rendered)) return undefined;
  return arr(r.rendered).reduce<number>((k, x) => k + (str(obj(x)?.content) ?? '').length, 0);
}

/** what one stretch of records (a turn's part after its last compaction, or the records before the first prompt) holds */
interface Stretch {
  layers: Map<string, number>;
  /** characters before its first request's answer (all of them when it has none) */
  beforeFirst: number;
  /** the context of its first request */
  first?: number;
}

const stretch = (): Stretch => ({ layers: new Map(), beforeFirst: 0 });

/**
 * The breakdown of a version that records no request. `turns`: each turn's ledger (usage.ts: its requests and the
 * characters its records add, taken as they came), in order; `leading`: records before the first prompt. The ratio: Σ growth of the context between two consecutive requests of a turn with no compaction
 * between ÷ Σ characters recorded between their answers (where the first answer's thinking is not recorded: less its
 * output tokens ÷ less its own characters). The system prompt, tools and startup block (none of them
 * recorded): the first request after the last compaction (or the session's first) less what the records before its
 * answer hold, at that ratio. A read costs the requests, not the records.
 */
export function derivedBreakdown(leading: readonly ParsedRecord[], turns: readonly TurnLedger[], assumedTokensPerChar: number, thinkingKept: (model: string | undefined) => boolean): DerivedBreakdown | null {
  if (!turns.some((s) => s.tail.first >= 0 || s.bdPrev >= 0)) return null;
  let dTokens = 0;
  let dChars = 0;
  for (const s of turns)
    for (let i = 1; i < s.n; i++) {
      // an answer whose thinking is not recorded grew the context by its output tokens, thinking included, and the
      // records by its text and calls only: the pair then counts what came after that answer, without the answer
      // (a recorded thinking is no record's characters, and in the next request's context within the turn: counted here)
      const hidden = s.thinksUnrecorded(i - 1);
      const between = s.charsBefore(i) + (hidden ? -s.answerChars(i - 1) : s.thinkingChars(i - 1));
      const grow = s.context(i) - s.context(i - 1) - (hidden ? s.usage(i - 1).output : 0);
      if (between > 0 && grow > 0) {
        dTokens += grow;
        dChars += between;
      }
    }
  // a ratio outside 0.1 to 1 token per character is not text's (a cut transcript, answers missing): the assumed one serves
  const ratio = dChars > 0 && dTokens > 0 && dTokens / dChars >= 0.1 && dTokens / dChars <= 1 ? { value: dTokens / dChars, derived: true as const, from: 'session' as const } : { value: assumedTokensPerChar, derived: true as const, from: 'assumed' as const };
  // the stretches since the last compaction: leading records count only when no compaction came
  let last = -1;
  turns.forEach((s, i) => {
    if (s.bdCompacted) last = i;
  });
  const parts: Stretch[] = [];
  if (last < 0) {
    const lead = stretch();
    for (const pr of leading) {
      const c = recordChars(pr);
      if (c?.chars) lead.layers.set(c.layer, (lead.layers.get(c.layer) ?? 0) + c.chars);
    }
    lead.beforeFirst = [...lead.layers.values()].reduce((a, b) => a + b, 0);
    parts.push(lead);
  }
  parts.push(...turns.slice(Math.max(0, last)).map((s) => ({ layers: s.tail.layers, beforeFirst: s.tail.beforeFirst, first: s.tail.first >= 0 ? s.context(s.tail.first) : undefined })));
  const byLayer = new Map<string, number>();
  let beforeFirst = 0;
  let first: number | undefined;
  for (const p of parts) {
    for (const [k, v] of p.layers) byLayer.set(k, (byLayer.get(k) ?? 0) + v);
    if (first === undefined) {
      beforeFirst += p.beforeFirst;
      first = p.first;
    }
  }
  const layers: LayerFigure[] = [];
  // the startup block is in it unless the records hold it (`rendered` on the instructions attachment)
  const what = byLayer.has(STARTUP_LAYER) ? 'system prompt and tools' : 'system prompt, tools and startup instructions';
  if (first !== undefined) layers.push({ layer: what, chars: null, tokens: Math.max(0, Math.round(first - beforeFirst * ratio.value)), derived: true });
  // (a layer a microcompaction emptied is left out)
  for (const [layer, chars] of byLayer) if (chars > 0) layers.push({ layer, chars, tokens: Math.round(chars * ratio.value), derived: true });
  const thinking = thinkingSince(turns, last, ratio.value, thinkingKept);
  if (thinking.tokens > 0) layers.push({ layer: THINKING_LAYER, chars: thinking.chars, tokens: thinking.tokens, derived: true });
  return { tokensPerChar: ratio, layers };
}

const THINKING_LAYER = 'thinking';

/**
 * The answers' thinking in the last request's context, since the last compaction (turn `last`, -1: none): no record's
 * characters hold it. A recorded thinking (2.1.75 and before) by its characters at the ratio; one recorded without its
 * text (2.1.81 on, newer models) by the answer's output tokens less its text and calls at the ratio. Every answer of the
 * last request's turn before it; of the turns before, those of a model that keeps its thinking across turns
 * (profiles.ts, THINKING_KEPT_ACROSS_TURNS). `chars`: null when a thinking's text was not recorded.
 */
function thinkingSince(turns: readonly TurnLedger[], last: number, ratio: number, kept: (model: string | undefined) => boolean): { tokens: number; chars: number | null } {
  let lastTurn = turns.length - 1;
  while (lastTurn >= 0 && turns[lastTurn]!.n === 0) lastTurn--;
  let tokens = 0;
  let chars = 0;
  let unrecorded = false;
  for (let k = Math.max(0, last); k <= lastTurn; k++) {
    const s = turns[k]!;
    // the turn of the last compaction: its requests after it
    const from = k === last ? (s.tail.first >= 0 ? s.tail.first : s.n) : 0;
    // (the last request's own answer comes after its context)
    const to = k === lastTurn ? s.n - 1 : s.n;
    for (let i = from; i < to; i++) {
      if (k !== lastTurn && !kept(s.modelOf(i))) continue;
      if (s.thinksUnrecorded(i)) {
        unrecorded = true;
        tokens += Math.max(0, s.usage(i).output - s.answerChars(i) * ratio);
      } else {
        chars += s.thinkingChars(i);
        tokens += s.thinkingChars(i) * ratio;
      }
    }
  }
  return { tokens: Math.round(tokens), chars: unrecorded ? null : chars };
}
