// What a recorded session (session-driver.ts) sent, per turn, in the shape of `render --session --json`
// (docs/cli.md): the startup block of the turn's first request, the "changed on disk" notes at its
// start, what came back after a compaction, and per call the lazy injections, the skill body and the
// subagent's instructions. Layouts of both wire formats (2.1.235's `# claudeMd` section and system
// messages; 2.1.328's own reminders) are read.
import { extractLastTouch, findStartup } from './wire.js';

type Part = { type?: string; text?: string; content?: unknown; tool_use_id?: string; id?: string; name?: string; input?: unknown };
type Msg = { role?: string; content?: string | Part[] };
export type Body = { messages?: Msg[] };
/** the same request as extract.ts reads it (its message type is looser) */
const wire = (b: Body) => b as Parameters<typeof extractLastTouch>[0];

/** one request of a session, as recorded by a driver or rebuilt from a transcript */
export interface RecordedSessionRequest {
  index: number;
  kind: 'main' | 'compact' | 'other';
  /** the turn (0-based) it belongs to */
  turn: number;
  url: string;
  /** the request body as JSON text */
  body: string;
  /** the same body already parsed (the transcript reader rebuilds it as objects: no text round trip) */
  parsed?: { messages?: unknown[] };
}

export interface ExtractedCall {
  name: string;
  input: unknown;
  injected: string[];
  skillBody: string | null;
  /** the reminder naming a skill's directory-scoped variants, after its body */
  skillNote?: string | null;
  agent: { type: string; instructions: string | null } | null;
}

export interface ExtractedTurn {
  prompt: string;
  /** no request was sent for this turn (/clear) */
  requests: number;
  instructions: string | null;
  changedNotes: string | null;
  restored: { files: { path: string; text: string }[]; references: string[]; skills: string | null } | null;
  calls: ExtractedCall[];
  /** the reminder a resumed session adds (from its first line through the last entry), or null */
  resumeReminder?: string | null;
  /** compactions Claude Code made on its own: before the turn's main-loop request `at`, with what came back */
  autoCompactions?: { at: number; restored: NonNullable<ExtractedTurn['restored']> | null }[];
}

const SR_OPEN = '<system-reminder>\n';
const SR_CLOSE = '\n</system-reminder>';
const TOTAL_TOKENS = /\n*<total_tokens>\d+ tokens left<\/total_tokens>\s*$/;
const READ_CALL = 'Called the Read tool with the following input: ';
const READ_RESULT = 'Result of calling the Read tool:\n';
const RESUME_HEAD = 'Instruction files were re-read when this session started';
const VARIANTS_HEAD = 'Directory-scoped variants of the ';
const SKILLS_HEAD = 'The following skills were invoked EARLIER in this session';
const REFERENCE = /Note: (\/[^\n]*?) was read before the last conversation was summarized, but the contents are too large to include\./g;
/** what follows the invoked-skills section in the same message */
const AFTER_SKILLS = /\n\n(?=Available agent types for the Agent tool:|The following deferred tools|# [A-Z][a-z]+\n|<total_tokens>|You are powered by|Called the Read tool)/g;

function parse(body: string): Body {
  try {
    return JSON.parse(body) as Body;
  } catch {
    return {};
  }
}

function texts(m: Msg): string[] {
  if (typeof m.content === 'string') return [m.content];
  return (m.content ?? []).filter((p) => p.type === 'text' && typeof p.text === 'string').map((p) => p.text!);
}

/** a message as JSON without its cache breakpoints (they move to the last block of each request), its
 *  content as blocks (a later request may send a one-block message as a plain string) */
function key(m: Msg): string {
  const content = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
  return JSON.stringify({ role: m.role, content }, (k, v: unknown) => (k === 'cache_control' ? undefined : v));
}

/** messages of `body` past the common prefix with `prev` */
function newMessages(body: Body, prev: Body | undefined): Msg[] {
  const msgs = body.messages ?? [];
  if (!prev) return msgs;
  const old = prev.messages ?? [];
  let i = 0;
  // the reader shares message objects between requests: the same object is the same message
  while (i < Math.min(old.length, msgs.length) && (old[i] === msgs[i] || key(old[i]!) === key(msgs[i]!))) i++;
  return msgs.slice(i);
}

const CHANGED_LINE = /(?:^|\n)(Note: \/[^\n]*? changed on disk since you last read it\.)/;

function changedNotes(msgs: Msg[]): string | null {
  for (const m of msgs)
    for (const t of texts(m)) {
      const hit = CHANGED_LINE.exec(t);
      if (!hit) continue;
      let s = t.slice(hit.index + (t[hit.index] === '\n' ? 1 : 0)).replace(TOTAL_TOKENS, '');
      if (s.endsWith(SR_CLOSE)) s = s.slice(0, -SR_CLOSE.length);
      return s.trimEnd();
    }
  return null;
}

/** 2.1.235 sends the skills a touch found in the same system message as the files it injected: not part of an entry */
const withoutSkillsPart = (entry: string) => entry.replace(/\n\nNew skills discovered in [\s\S]*$/, '');

function resumeReminder(msgs: Msg[]): string | null {
  for (const m of msgs)
    for (const t of texts(m)) {
      if (!t.startsWith(SR_OPEN + RESUME_HEAD)) continue;
      let r = t.slice(SR_OPEN.length).replace(/\n$/, '');
      if (r.endsWith(SR_CLOSE)) r = r.slice(0, -SR_CLOSE.length);
      return r;
    }
  return null;
}

function restored(msgs: Msg[]): ExtractedTurn['restored'] {
  const all = msgs.flatMap(texts).join('\u0000');
  if (!all.includes(READ_CALL) && !all.includes(SKILLS_HEAD) && !/was read before the last conversation was summarized/.test(all)) return null;
  const files: { path: string; text: string }[] = [];
  let at = 0;
  for (;;) {
    const c = all.indexOf(READ_CALL, at);
    if (c < 0) break;
    const lineEnd = all.indexOf('\n', c);
    let input: { file_path?: string } = {};
    try {
      input = JSON.parse(all.slice(c + READ_CALL.length, lineEnd)) as typeof input;
    } catch {
      /* not an input line */
    }
    const r = all.indexOf(READ_RESULT, lineEnd);
    if (r < 0) break;
    const from = r + READ_RESULT.length;
    const ends = [all.indexOf(SR_CLOSE, from), all.indexOf('\n\n', from), all.indexOf('\u0000', from)].filter((x) => x >= 0);
    const to = ends.length ? Math.min(...ends) : all.length;
    files.push({ path: input.file_path ?? '?', text: all.slice(from, to) });
    at = to;
  }
  const references = [...all.matchAll(REFERENCE)].map((m) => m[1]!);
  let skills: string | null = null;
  const s = all.indexOf(SKILLS_HEAD);
  if (s >= 0) {
    let block = all.slice(s);
    const nul = block.indexOf('\u0000');
    if (nul >= 0) block = block.slice(0, nul);
    const last = block.lastIndexOf('\n### Skill: ');
    AFTER_SKILLS.lastIndex = Math.max(0, last);
    const m = AFTER_SKILLS.exec(block);
    skills = (m ? block.slice(0, m.index) : block.replace(TOTAL_TOKENS, '')).trimEnd();
  }
  return { files, references, skills };
}

/** the reminder naming a skill's directory-scoped variants, without its wrapper; null when `text` is not one */
export function variantsNote(text: string): string | null {
  if (!text.startsWith(SR_OPEN + VARIANTS_HEAD)) return null;
  return text.slice(SR_OPEN.length, text.endsWith(SR_CLOSE) ? -SR_CLOSE.length : undefined);
}

/** the text blocks after a `Launching skill:` tool_result (a re-invocation's own line, then the skill body), and the
 *  reminder naming a skill's directory-scoped variants that may follow them */
function skillTextOf(body: Body, toolUseId: string | undefined): { body: string | null; note: string | null } {
  for (const m of body.messages ?? []) {
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    const ps = m.content ?? [];
    const k = ps.findIndex((p) => p.type === 'tool_result' && p.tool_use_id === toolUseId);
    if (k < 0) continue;
    const content = ps[k]?.content;
    const result = typeof content === 'string' ? content : '';
    if (!result.startsWith('Launching skill: ')) return { body: null, note: null };
    const rest = ps.slice(k + 1);
    const isBody = (p: Part | undefined) => !!p && p.type === 'text' && typeof p.text === 'string' && !p.text.startsWith(SR_OPEN);
    let i = rest.findIndex(isBody);
    if (i < 0) return { body: null, note: null };
    let text = '';
    for (; i < rest.length && isBody(rest[i]); i++) text += rest[i]!.text!;
    let note: string | null = null;
    for (const p of rest.slice(i)) {
      note = variantsNote(p.type === 'text' ? (p.text ?? '') : '');
      if (note !== null) break;
    }
    return { body: text.trimEnd(), note };
  }
  return { body: null, note: null };
}

/** the first request of a subagent: its first user message ends with the prompt it was given */
function subagentFirst(others: RecordedSessionRequest[], needle: string, used: Set<number>): Body | undefined {
  for (const r of others) {
    if (used.has(r.index)) continue;
    const b = bodyOf(r);
    const m0 = b.messages?.[0];
    if (!m0 || m0.role !== 'user' || (b.messages?.length ?? 0) > 2) continue;
    if (texts(m0).some((t) => t === needle || t.includes(needle))) {
      used.add(r.index);
      return b;
    }
  }
  return undefined;
}

export interface TurnInput {
  prompt: string;
  calls?: { name: string; input: Record<string, unknown> }[];
}

const bodyOf = (r: RecordedSessionRequest): Body => (r.parsed as Body | undefined) ?? parse(r.body);

/** one turn: its main-loop requests (`mine`, in order: main and compact), its subagents' requests, the last request
 *  of the turn before and that turn's prompt; `used` keeps a subagent request from serving two calls; `following`: the
 *  requests of later turns, where the result of a call goes out when its turn stopped (2.1.235 past the
 *  auto-compaction threshold) */
export function extractTurn(t: TurnInput, previousPrompt: string | undefined, mine: RecordedSessionRequest[], others: RecordedSessionRequest[], prevLast: { messages?: unknown[] } | undefined, version: string, used: Set<number>, following: RecordedSessionRequest[] = []): { turn: ExtractedTurn; last: { messages?: unknown[] } | undefined } {
  const autos: NonNullable<ExtractedTurn['autoCompactions']> = [];
  const turn: ExtractedTurn = { prompt: t.prompt, requests: mine.length, instructions: null, changedNotes: null, restored: null, calls: [], resumeReminder: null, autoCompactions: autos };
  if (mine.length === 0) return { turn, last: prevLast };
  const manual = t.prompt.trim().startsWith('/compact');
  // the turn's main-loop requests in order; a compaction request of a turn that is not /compact came on its own
  const mainReqs: RecordedSessionRequest[] = [];
  let pendingAuto: (typeof autos)[number] | undefined;
  for (const r of mine) {
    if (r.kind === 'compact' && !manual) {
      pendingAuto = { at: mainReqs.length, restored: null };
      autos.push(pendingAuto);
      continue;
    }
    if (r.kind !== 'main') continue;
    if (pendingAuto) {
      pendingAuto.restored = restored(bodyOf(r).messages ?? []);
      pendingAuto = undefined;
    }
    mainReqs.push(r);
  }
  const first = bodyOf((manual ? mine[0] : mainReqs[0]) ?? mine[0]!);
  const last = bodyOf(mine[mine.length - 1]!);
  turn.instructions = findStartup(wire(first), version);
  const fresh = newMessages(first, prevLast as Body | undefined);
  turn.changedNotes = changedNotes(fresh);
  turn.resumeReminder = resumeReminder(fresh);
  if (previousPrompt !== undefined && previousPrompt.trim().startsWith('/compact')) turn.restored = restored(fresh);
  const calls = t.calls ?? [];
  // call i answers the turn's main-loop request i; its result and injections go out with the first request after that
  // one: the next main-loop request, or a compaction request when one comes in between (the request after it starts
  // over), or a later turn's first request when the turn stopped; the call is that request's last tool use. A call
  // with no request after it was not made
  const seq = [...mine, ...following.filter((r) => r.kind === 'main' || r.kind === 'compact')];
  for (const [i, c] of calls.entries()) {
    const asked = mainReqs[i];
    const k = asked ? seq.indexOf(asked) : -1;
    const next = k >= 0 ? seq[k + 1] : undefined;
    if (!next) break;
    const after = bodyOf(next);
    const lastCall = extractLastTouch(wire(after), version);
    if (!lastCall) break;
    const { touch, use } = lastCall;
    let agent: ExtractedCall['agent'] = null;
    const skillText = c.name === 'Skill' ? skillTextOf(after, use.id) : { body: null, note: null };
    const skillBody = skillText.body;
    if (c.name === 'Agent') {
      const prompt = typeof c.input.prompt === 'string' ? c.input.prompt : '';
      const b = subagentFirst(others, prompt, used);
      agent = { type: typeof c.input.subagent_type === 'string' ? c.input.subagent_type : 'general-purpose', instructions: b ? findStartup(wire(b), version) : null };
    }
    if (c.name === 'Skill' && skillBody === null) {
      const result = touch.result ?? '';
      if (/completed \(forked execution\)/.test(result)) {
        const b = subagentFirst(others, 'Base directory for this skill: ', used);
        agent = { type: 'fork', instructions: b ? findStartup(wire(b), version) : null };
      }
    }
    turn.calls.push({ name: c.name, input: c.input, injected: touch.injected.map(withoutSkillsPart), skillBody, skillNote: skillText.note, agent });
  }
  return { turn, last };
}

export function extractSession(requests: RecordedSessionRequest[], turns: TurnInput[], version: string): ExtractedTurn[] {
  const out: ExtractedTurn[] = [];
  let prevLast: { messages?: unknown[] } | undefined;
  const used = new Set<number>();
  turns.forEach((t, k) => {
    const mine = requests.filter((r) => r.turn === k && (r.kind === 'main' || r.kind === 'compact'));
    const others = requests.filter((r) => r.turn === k && r.kind === 'other' && r.url.startsWith('/v1/messages') && !r.url.includes('count_tokens'));
    const following = requests.filter((r) => r.turn > k);
    const r = extractTurn(t, turns[k - 1]?.prompt, mine, others, prevLast, version, used, following);
    out.push(r.turn);
    if (mine.length) prevLast = r.last;
  });
  return out;
}
