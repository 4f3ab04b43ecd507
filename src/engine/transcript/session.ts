// The session a user runs (or ran), read from its transcript: where the transcripts of a launch
// directory are, the session rebuilt turn by turn (replay.ts), what comes next (the notes the next
// turn carries, startup files edited since the session started, what `/compact` would bring back and
// drop, how far auto-compaction is), and the engine's prediction replayed over the same tool calls,
// compared with what the session really got. All through FileAccess; nothing is written.
import * as path from 'node:path';
import type { Analysis } from '../analysis.js';
import type { FileAccess } from '../files/file-access.js';
import { memoryKey } from '../memory/memory.js';
import type { ClaudeProfile } from '../profiles.js';
import { simulateSessionOver, type SessionResult } from '../session/simulate.js';
import { TranscriptFollower } from './follow.js';
import { nameUnnamedHooks } from './hook-names.js';
import { parseTranscriptText, str, type ParsedRecord, type Rec, type TranscriptProblem } from './records.js';
import { SessionReplayer, type LiveTurn, type Replay } from './replay.js';
import { pricingOverride } from './pricing.js';
import { applyFigures, type SessionFigures } from './turn-figures.js';
import { contextEvidence, type ContextEvidence } from './window.js';
import { sessionContextSplit, type SessionContextSplit } from './context-split.js';

/** a transcript written this recently belongs to a session that is still running */
export const RUNNING_MS = 5 * 60 * 1000;

export interface TranscriptFile {
  file: string;
  sessionId: string;
  mtimeMs: number;
  size: number;
  /** the newest record time (`"timestamp"`) in the file's last TAIL_BYTES, in ms since the epoch, when it has one */
  lastRecordMs?: number;
}

/** how much of a transcript's end is read for its newest record time (a last record can be a large tool result) */
const TAIL_BYTES = 256 * 1024;
/** transcripts (newest by modification time) whose record times are read on each listing; older ones keep that order */
const MAX_TAILS = 64;
const RECORD_TIME = /"timestamp":"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)"/g;

/** the newest `"timestamp"` key in a transcript's tail (any record kind; a string inside a record's text is escaped
 *  and so never matches), as ISO text and in ms since the epoch */
function newestTailTime(fa: FileAccess, file: string, size: number): { iso: string; ms: number } | undefined {
  if (!fa.readRange) return undefined;
  const r = fa.readRange(file, Math.max(0, size - TAIL_BYTES), TAIL_BYTES);
  if (!r.ok) return undefined;
  let best: { iso: string; ms: number } | undefined;
  for (const m of new TextDecoder().decode(r.value.data).matchAll(RECORD_TIME)) {
    const at = Date.parse(m[1]!);
    if (Number.isFinite(at) && (best === undefined || at > best.ms)) best = { iso: m[1]!, ms: at };
  }
  return best;
}

/** a session is running when its transcript was appended to recently and its last record is recent
 *  too (an old session copied today has a fresh file time, and old records) */
export function isRunning(mtimeMs: number | undefined, endedAt: string | undefined, now = Date.now()): boolean {
  if (mtimeMs === undefined || now - mtimeMs >= RUNNING_MS) return false;
  const end = endedAt ? Date.parse(endedAt) : NaN;
  return !Number.isFinite(end) || now - end < RUNNING_MS;
}

/** the time of a transcript's newest record that has one, read from the file's end only (for a list of sessions) */
export function lastRecordTime(fa: FileAccess, file: string, size: number): string | undefined {
  return newestTailTime(fa, file, size)?.iso;
}

/** Claude Code's own folder: $CLAUDE_CONFIG_DIR, else ~/.claude */
export function configDir(home: string, env: Record<string, string | undefined>): string {
  return env.CLAUDE_CONFIG_DIR ? path.resolve(env.CLAUDE_CONFIG_DIR) : path.join(home, '.claude');
}

/** the transcript folders of a launch directory: the key of its real path, then of the path as given */
export function transcriptDirs(fa: FileAccess, cwd: string, config: string): string[] {
  const abs = path.resolve(cwd);
  const real = fa.realpath(abs);
  const dirs = [path.join(config, 'projects', memoryKey(real.ok ? real.value : abs))];
  const given = path.join(config, 'projects', memoryKey(abs));
  if (!dirs.includes(given)) dirs.push(given);
  return dirs;
}

/** the session transcripts of one folder (subagents' files are not sessions), unsorted, appended to `out` while it
 *  holds fewer than `max` */
export function sessionFilesIn(fa: FileAccess, dir: string, out: TranscriptFile[], max = Infinity): void {
  const r = fa.readDir(dir);
  if (!r.ok) return;
  for (const e of r.value) {
    if (out.length >= max) return;
    if (!e.name.endsWith('.jsonl') || e.name.startsWith('agent-')) continue;
    const f = path.join(dir, e.name);
    const st = fa.stat(f);
    if (!st.ok || st.value.kind !== 'file') continue;
    out.push({ file: f, sessionId: e.name.slice(0, -'.jsonl'.length), mtimeMs: st.value.mtimeMs, size: st.value.size });
  }
}

/** the session transcripts of these folders, newest first (subagents' files are not sessions): by the time of their
 *  newest record, not the file's: Claude Code writes to the transcript a `/clear` left at the end of the process too,
 *  so both files of a session continued after `/clear` end with (nearly) the same modification time */
export function listTranscripts(fa: FileAccess, dirs: readonly string[]): TranscriptFile[] {
  const out: TranscriptFile[] = [];
  for (const d of dirs) sessionFilesIn(fa, d, out);
  out.sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const t of out.slice(0, MAX_TAILS)) {
    const at = newestTailTime(fa, t.file, t.size);
    if (at !== undefined) t.lastRecordMs = at.ms;
  }
  const head = out.slice(0, MAX_TAILS).sort((a, b) => (b.lastRecordMs ?? b.mtimeMs) - (a.lastRecordMs ?? a.mtimeMs) || b.mtimeMs - a.mtimeMs);
  return [...head, ...out.slice(MAX_TAILS)];
}

/** the most bytes of a subagent's transcript read, and of its meta */
const MAX_AGENT_BYTES = 256 * 1024 * 1024;
const MAX_META_BYTES = 1024 * 1024;
/** a project folder's `agent-*.jsonl` files looked at for a session's (versions up to 2.1.1), at most */
const MAX_PROJECT_AGENTS = 10_000;
/** of each, the first bytes read for the session its first record names */
const FIRST_RECORD_BYTES = 64 * 1024;

/** the session the first record of an agent's transcript names (undefined: none yet, or not readable) */
function firstSessionId(fa: FileAccess, file: string): string | undefined {
  const r = fa.readRange ? fa.readRange(file, 0, FIRST_RECORD_BYTES) : fa.readFile(file, FIRST_RECORD_BYTES);
  if (!r.ok) return undefined;
  const bytes = 'data' in r.value ? r.value.data : r.value;
  const text = new TextDecoder().decode(bytes);
  const nl = text.indexOf('\n');
  if (nl < 0) return undefined;
  try {
    const v: unknown = JSON.parse(text.slice(0, nl));
    const sid = v && typeof v === 'object' ? (v as Rec).sessionId : undefined;
    return typeof sid === 'string' ? sid : undefined;
  } catch {
    return undefined;
  }
}

/** an agent's transcript found on disk, with what tells it changed */
interface AgentFile {
  file: string;
  workflow: string | undefined;
  size: number;
  mtimeMs: number;
}

/** the agents' files as found: one string that changes when one of them came, went or changed */
const agentKeyOf = (files: readonly AgentFile[]): string => files.map((f) => `${f.file}:${f.size}:${f.mtimeMs}`).join('\n');

/** a subagent's transcript read: its records, and what was wrong with the file (a line not JSON, a file too large) */
interface SubagentRead {
  file: string;
  meta: Rec | undefined;
  records: ParsedRecord[];
  workflow?: string;
  problems: TranscriptProblem[];
}

/** one subagent's transcript (`<session>/subagents/agent-*.jsonl`, a workflow's `<session>/subagents/workflows/<run
 *  id>/agent-*.jsonl`) with its `.meta.json`; a file that cannot be read is a problem, as the session's own is */
function readSubagent(fa: FileAccess, file: string, workflow: string | undefined): SubagentRead {
  const body = fa.readFile(file, MAX_AGENT_BYTES);
  if (!body.ok) return { file, meta: undefined, records: [], ...(workflow && { workflow }), problems: [{ line: 0, file, reason: `cannot read ${file}: ${body.code === 'EFBIG' ? `${body.message}, past the ${MAX_AGENT_BYTES} bytes a subagent's transcript is read to` : body.message}` }] };
  let meta: Rec | undefined;
  const m = fa.readFile(file.replace(/\.jsonl$/, '.meta.json'), MAX_META_BYTES);
  if (m.ok)
    try {
      const v: unknown = JSON.parse(new TextDecoder().decode(m.value));
      if (v && typeof v === 'object' && !Array.isArray(v)) meta = v as Rec;
    } catch {
      /* no meta: the agent is placed by its time */
    }
  const parsed = parseTranscriptText(new TextDecoder().decode(body.value));
  return { file, meta, records: parsed.records, ...(workflow && { workflow }), problems: parsed.problems.map((p) => ({ ...p, file })) };
}

// ------------------------------------------------------------------------------------ what next

export interface HeldFile {
  path: string;
  /** how the session got it */
  how: 'injected' | 'restored' | 'written' | 'read';
  /** when the session last got its text (ISO) */
  at?: string;
  /** the disk's modification time, when it is newer than what the session has (ISO) */
  changedAt?: string;
  /** the file is gone from the disk */
  deleted?: boolean;
  /** the next turn carries a "changed on disk" note for it (injected and written files; read ones never) */
  noted: boolean;
}

export interface NextSteps {
  held: HeldFile[];
  /** startup files whose text on disk is newer than the session: not seen until /compact or /clear */
  startupEdited: { path: string; changedAt: string }[];
  /** what `/compact` now would bring back, predicted over the disk as it is */
  compact: { files: string[]; references: string[]; skills: string[]; dropped: { path: string; why: string }[]; instructionsChars: number | null } | null;
  /** the real context of the last request against the window, both from evidence (window.ts) */
  context: ContextEvidence | null;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function heldFiles(fa: FileAccess, turns: LiveTurn[], cwd: string, onDisk = true): HeldFile[] {
  const held = new Map<string, HeldFile>();
  const set = (p: string, how: HeldFile['how'], at: string | undefined) => {
    const key = path.resolve(cwd, p);
    held.delete(key);
    held.set(key, { path: key, how, at, noted: false });
  };
  for (const t of turns) {
    if (t.compacted) held.clear();
    for (const f of t.restored?.files ?? []) set(f.path, 'restored', t.timestamp);
    for (const c of t.calls) {
      for (const i of c.injected) if (i.path) set(i.path, 'injected', c.timestamp);
      const input = c.input as Record<string, unknown>;
      const p = str(input.file_path) ?? str(input.notebook_path);
      if (p && (c.name === 'Edit' || c.name === 'Write' || c.name === 'MultiEdit' || c.name === 'NotebookEdit')) set(p, 'written', c.timestamp);
      else if (p && c.name === 'Read' && !held.has(path.resolve(cwd, p))) set(p, 'read', c.timestamp);
    }
  }
  const out: HeldFile[] = [];
  for (const h of held.values()) {
    // the launch folder is not on this machine: its files are neither deleted nor changed here
    if (!onDisk) {
      out.push(h);
      continue;
    }
    const st = fa.stat(h.path);
    const at = h.at ? Date.parse(h.at) : NaN;
    if (!st.ok) h.deleted = st.code === 'ENOENT';
    else if (Number.isFinite(at) && st.value.mtimeMs > at + 1) h.changedAt = iso(st.value.mtimeMs);
    h.noted = !!h.changedAt && (h.how === 'injected' || h.how === 'written' || h.how === 'restored');
    out.push(h);
  }
  return out;
}

/** startup files (the ones the analysis loads at startup) edited after the session's first request */
function startupEdited(fa: FileAccess, a: Analysis | undefined, startedAt: string | undefined): NextSteps['startupEdited'] {
  if (!a || !startedAt) return [];
  const t0 = Date.parse(startedAt);
  if (!Number.isFinite(t0)) return [];
  const out: NextSteps['startupEdited'] = [];
  for (const e of a.startup) {
    const st = fa.stat(e.path);
    if (st.ok && st.value.mtimeMs > t0) out.push({ path: e.path, changedAt: iso(st.value.mtimeMs) });
  }
  return out;
}

/** the transcript's turns as a session script (prompts and tool calls; no edits: the disk is as it is) */
export function scriptOf(turns: LiveTurn[]): { prompt: string; calls: { name: string; input: unknown }[] }[] {
  return turns.map((t) => ({ prompt: t.prompt, calls: t.calls.map((c) => ({ name: c.name, input: c.input })) }));
}

/** `/compact` typed now, as a last turn of a session script */
const COMPACT_NOW = { prompt: '/compact', calls: [] };

/** what "/compact now" is predicted over: the turns from the last compaction on (what came before is
 *  gone from the conversation already), the files that compaction brought back read first */
function sinceLastCompaction(turns: LiveTurn[]): { from: number; held: ReturnType<typeof scriptOf> } {
  let from = 0;
  turns.forEach((t, i) => {
    if (t.compacted || t.prompt.trim() === '/clear') from = i + (t.compacted?.trigger === 'auto' ? 0 : 1);
  });
  // files a compaction brought back are held like read ones: a first step reads them
  const back = turns[from - 1]?.compacted ? turns[from]?.restored?.files ?? [] : turns[from]?.restored?.files ?? [];
  return { from, held: back.length ? [{ prompt: 'files brought back by the compaction', calls: back.map((f) => ({ name: 'Read', input: { file_path: f.path } })) }] : [] };
}

/** the compaction of a run whose last turn is COMPACT_NOW */
function compactionOf(sim: SessionResult): NextSteps['compact'] {
  const c = sim.turns[sim.turns.length - 1]?.compaction;
  if (!c) return null;
  return {
    files: c.restored.files.map((f) => f.path),
    references: c.restored.references,
    skills: c.restored.skillEntries.map((s) => s.name),
    dropped: c.restored.left,
    instructionsChars: c.instructions?.length ?? null,
  };
}

/** what `/compact` now would bring back and drop: the transcript's calls as today's disk lets them be
 *  replayed (replayable: an Edit that succeeded is an edit still, so its file is held as written) */
function predictCompact(fa: FileAccess, a: Analysis | undefined, turns: LiveTurn[]): NextSteps['compact'] {
  if (!a) return null;
  const { from, held } = sinceLastCompaction(turns);
  return compactionOf(simulateSessionOver(a, [...held, ...replayable(fa, turns.slice(from)), COMPACT_NOW]));
}

/** `compact`: what /compact now would bring back, when it is predicted already (else predicted here);
 *  `onDisk`: false when the launch folder is not on this machine (no file of it is looked at) */
export function nextSteps(fa: FileAccess, r: Replay & { figures?: SessionFigures }, a: Analysis | undefined, profile: ClaudeProfile, cwd: string, compact?: NextSteps['compact'], onDisk = true): NextSteps {
  return { held: heldFiles(fa, r.turns, cwd, onDisk), startupEdited: startupEdited(fa, a, r.firstTimestamp), compact: compact !== undefined ? compact : predictCompact(fa, a, r.turns), context: contextOf(r, a, profile) };
}

/** the real context of the newest main-loop answer against the window: cheap, so computed on every
 *  read (a turn's final text-only answer adds no turn and no call, yet moves this figure) */
export function contextOf(r: Replay & { figures?: SessionFigures }, a: Analysis | undefined, profile: ClaudeProfile): NextSteps['context'] {
  const u = r.lastUsage;
  if (!u || !r.model) return null;
  const tokens = u.input + u.cacheRead + u.cacheCreation;
  // the window and the threshold from the model, the version's rule and the session's own evidence (window.ts), in
  // the environment the analysis has (CLAUDE_CODE_AUTO_COMPACT_WINDOW, DISABLE_AUTO_COMPACT, ANTHROPIC_MODEL, `model`)
  const f = r.figures ?? applyFigures(r, profile);
  return contextEvidence({ model: r.model, version: r.version, profile, tokens, maxTokens: Math.max(tokens, f.maxContext), autoCompactions: f.autoCompactions, env: a?.env, settings: a?.settings });
}

/** a version that records no request (2.1.235): the startup blocks, the session's and its subagents',
 *  rebuilt from the disk as the engine predicts them, marked `instructionsFrom: 'disk'`. `sim`: the
 *  prediction's run over the same turns (predictionRun), when there is one already */
export function reconstructFromDisk(a: Analysis, r: Replay, sim?: SessionResult): void {
  if (r.source !== 'attachments') return;
  // the prediction's run serves: its one rewrite (replayable: an Edit of the new text to itself) leaves
  // every file's text as it is, so the startup blocks it predicts are those of the script as recorded
  sim ??= simulateSessionOver(a, scriptOf(r.turns));
  r.turns.forEach((t, k) => {
    const pt = sim.turns[k];
    if (!pt || t.requests === 0) return;
    if (t.instructions === null && pt.instructions !== null) {
      t.instructions = pt.instructions;
      t.instructionsFrom = 'disk';
    }
    t.calls.forEach((c, i) => {
      const pa = pt.calls[i]?.agent;
      if (c.agent && c.agent.instructions === null && pa?.instructions) c.agent = { ...c.agent, instructions: pa.instructions, reconstructed: true };
    });
  });
  r.warnings.push('this version records no request: the startup block is rebuilt from the disk as it is now');
}

// ------------------------------------------------------------------------ predicted against actual

export interface PredictionFinding {
  turn: number;
  call: number;
  kind: 'not-received' | 'not-predicted' | 'text' | 'skill';
  path: string;
  predicted: string | null;
  actual: string | null;
  /** why the difference may be explained (the file changed on disk since the session got it) */
  explained?: string;
}

/** a call the session made that the engine does not model: never compared, listed once by name */
export interface NotModelled {
  kind: 'skill' | 'mcp-tool' | 'tool';
  name: string;
  why: string;
  /** how many calls of the session it covers */
  calls: number;
}

/** tools whose effect on the context the session model replays (session/simulate.ts) */
const MODELLED_TOOLS = new Set(['Read', 'Edit', 'Write', 'Bash', 'Skill', 'Agent']);

/** why the engine cannot predict what a call brought, or undefined when it models it. `sim`: the
 *  prediction's call. A skill is modelled when the engine finds it on disk, or when the body the session
 *  got names a SKILL.md that is on this disk (then a difference is a real one) */
function notModelledCall(fa: FileAccess, c: LiveTurn['calls'][number], pc: SessionResult['turns'][number]['calls'][number] | undefined, hasFinding: boolean): Omit<NotModelled, 'calls'> | undefined {
  if (c.name.startsWith('mcp__')) return { kind: 'mcp-tool', name: c.name, why: 'an MCP server\'s tool: MCP servers are not modelled' };
  if (c.name === 'Skill') {
    if (pc?.skill?.path) return undefined;
    const name = str((c.input as Record<string, unknown>).skill)?.replace(/^\//, '') ?? '?';
    const dir = /^Base directory for this skill: ([^\n]+)/.exec(c.skillBody ?? '')?.[1];
    if (dir && fa.stat(path.join(dir, 'SKILL.md')).ok) return undefined;
    return { kind: 'skill', name, why: name.includes(':') ? 'a plugin\'s skill: plugins are not modelled' : 'no SKILL.md of it on this disk: bundled with Claude Code, synced from claude.ai or from a plugin' };
  }
  if (!MODELLED_TOOLS.has(c.name) && hasFinding) return { kind: 'tool', name: c.name, why: 'a tool whose effect on the context is not modelled' };
  return undefined;
}

/** every finding (checkPrediction's with `all`) split: the calls the engine does not model, each name
 *  once, and the differences on the rest (`sim`: predictionRun's) */
export function splitFindings(fa: FileAccess, r: Replay, sim: SessionResult, all: readonly PredictionFinding[]): { findings: PredictionFinding[]; notModelled: NotModelled[] } {
  const out = new Map<string, NotModelled>();
  const withFinding = new Set(all.map((f) => `${f.turn}:${f.call}`));
  const skipped = new Set<string>();
  r.turns.forEach((t, k) =>
    t.calls.forEach((c, i) => {
      const n = notModelledCall(fa, c, sim.turns[k]?.calls[i], withFinding.has(`${k}:${i}`));
      if (!n) return;
      skipped.add(`${k}:${i}`);
      const key = `${n.kind}:${n.name}`;
      const hit = out.get(key);
      if (hit) hit.calls++;
      else out.set(key, { ...n, calls: 1 });
    }),
  );
  return { findings: all.filter((f) => !skipped.has(`${f.turn}:${f.call}`)), notModelled: [...out.values()] };
}

/** the transcript's calls as the engine can replay them over today's disk: an Edit that succeeded then
 *  and whose old text is gone now (it is the new text already) is replayed as an edit of the new text to
 *  itself, which touches the file the same way */
function replayable(fa: FileAccess, turns: LiveTurn[]): ReturnType<typeof scriptOf> {
  const script = scriptOf(turns);
  script.forEach((t, k) =>
    t.calls.forEach((c, i) => {
      const input = c.input as Record<string, unknown>;
      if (c.name !== 'Edit' || turns[k]!.calls[i]!.error) return;
      const p = str(input.file_path);
      const oldS = str(input.old_string);
      const newS = str(input.new_string);
      if (!p || oldS === undefined || newS === undefined || !newS) return;
      const r = fa.readFile(p, 64 * 1024 * 1024);
      const text = r.ok ? new TextDecoder().decode(r.value) : undefined;
      if (text !== undefined && !text.includes(oldS) && text.includes(newS)) c.input = { ...input, old_string: newS, new_string: newS };
    }),
  );
  return script;
}

/** the engine's session model over the transcript's own tool calls, as today's disk lets it replay them */
export function predictionRun(fa: FileAccess, a: Analysis, r: Replay): SessionResult {
  return simulateSessionOver(a, replayable(fa, r.turns));
}

/** the engine's session model over the transcript's own tool calls, compared call by call (`sim`: predictionRun's, when there is one already);
 *  calls the engine does not model are left out unless `all` (splitFindings lists them apart) */
export function checkPrediction(fa: FileAccess, a: Analysis, r: Replay, sim: SessionResult = predictionRun(fa, a, r), all = false): PredictionFinding[] {
  const out: PredictionFinding[] = [];
  const t0 = r.firstTimestamp ? Date.parse(r.firstTimestamp) : NaN;
  const changedSince = (p: string) => {
    const st = fa.stat(p);
    if (!st.ok) return 'the file is gone from the disk';
    return Number.isFinite(t0) && st.value.mtimeMs > t0 ? `the file changed on disk at ${iso(st.value.mtimeMs)}, after the session started` : undefined;
  };
  // a version that forgets what the session held when a new process goes on with it (--continue,
  // --resume) and whose transcript marks no new process: a file injected again with the text the
  // session already had (no compaction or /clear between) can only come from such a process
  const unmarkedRestarts = r.source === 'attachments' && a.profile.session.resume === 'rebuild';
  const had = new Map<string, string>();
  const injectedAgain = (p: string, text: string) =>
    unmarkedRestarts && had.get(p) === text ? 'injected again with the text the session had: a new process (--continue, --resume) forgets what the session held, and this version\'s transcript does not mark one' : undefined;
  r.turns.forEach((t, k) => {
    if (t.compacted || t.prompt.trim() === '/clear') had.clear();
    const pt = sim.turns[k];
    if (!pt) return;
    t.calls.forEach((c, i) => {
      const pc = pt.calls[i];
      if (!pc) return;
      // what the engine does not model is listed apart (notModelled), never a difference
      if (!all && notModelledCall(fa, c, pc, true)) return;
      const actual = new Map(c.injected.map((x) => [path.normalize(x.path), x.text]));
      const predicted = new Map(pc.injected.map((x) => [path.normalize(x.path), x.text]));
      for (const [p, text] of predicted) {
        const got = actual.get(p);
        if (got === undefined) out.push({ turn: k, call: i, kind: 'not-received', path: p, predicted: text, actual: null, explained: changedSince(p) });
        else if (got !== text) out.push({ turn: k, call: i, kind: 'text', path: p, predicted: text, actual: got, explained: changedSince(p) });
      }
      for (const [p, text] of actual) if (!predicted.has(p)) out.push({ turn: k, call: i, kind: 'not-predicted', path: p, predicted: null, actual: text, explained: changedSince(p) ?? injectedAgain(p, text) });
      for (const [p, text] of actual) had.set(p, text);
      if (c.name === 'Skill' && (c.skillBody === null) !== (pc.skillBody === null)) {
        const name = str((c.input as Record<string, unknown>).skill) ?? '?';
        // the SKILL.md: as the engine found it, or as the body the session got names its folder
        const dir = /^Base directory for this skill: ([^\n]+)/.exec(c.skillBody ?? '')?.[1];
        const skillFile = pc.skill?.path ?? (dir ? path.join(dir, 'SKILL.md') : undefined);
        out.push({ turn: k, call: i, kind: 'skill', path: name, predicted: pc.skillBody, actual: c.skillBody, explained: skillFile ? changedSince(skillFile) : undefined });
      }
    });
  });
  return out;
}

// ------------------------------------------------------------------------------------ the reader

export interface LiveSession extends Replay {
  transcript: string;
  bytes: number;
  lines: number;
  problems: TranscriptProblem[];
  unknownTypes: Record<string, number>;
  /** a line is still being written (no newline yet) */
  partialLine: boolean;
  /** cost, listings, MCP servers and (no request recorded) the derived breakdown (turn-figures.ts) */
  figures: SessionFigures;
}

/** a subagent's transcript, parsed once for each size it had */
interface SubagentEntry {
  size: number;
  mtimeMs: number;
  value: SubagentRead;
}

/**
 * One session's transcript, followed: each read takes only what was appended since the last one,
 * feeds it to the replayer (which redoes only the turns that changed) and reads a subagent's file again
 * only when it changed. A file cut or replaced is read again from the start.
 */
export class LiveReader {
  readonly follower: TranscriptFollower;
  private replayer = new SessionReplayer();
  private readonly subs = new Map<string, SubagentEntry>();
  /** the agents' files as the last read found them (agentsChanged) */
  private agentKey = '';
  /** the session each `agent-*.jsonl` beside the transcript names (versions up to 2.1.1; '' none yet) */
  private readonly agentSessions = new Map<string, string>();
  /** the `agent-*.jsonl` names beside the transcript, listed again only when the folder's time moves (an entry came or
   *  went): a project folder holds every session of the project, and a followed session is read at every append */
  private projectListing: { mtimeMs: number; names: string[] } | undefined;

  constructor(
    private readonly fa: FileAccess,
    readonly file: string,
  ) {
    this.follower = new TranscriptFollower(fa, file);
  }

  /** Claude Code versions the transcript names so far */
  get versions(): ReadonlySet<string> {
    return this.follower.parser.versions;
  }

  /** the session's subagents' files (`subagents/*.jsonl`), then each workflow run's agents' (`subagents/workflows/<run
   *  id>/agent-*.jsonl`; the run's `journal.jsonl` is no agent), then those beside the sessions that name this one
   *  (versions up to 2.1.1), in that order, with their size and time */
  private agentFiles(): AgentFile[] {
    const dir = path.join(this.file.slice(0, -'.jsonl'.length), 'subagents');
    const out: AgentFile[] = [];
    const list = (d: string, take: (name: string) => boolean, workflow: string | undefined) => {
      const r = this.fa.readDir(d);
      if (!r.ok) return;
      for (const e of r.value.filter((x) => take(x.name)).sort((a, b) => a.name.localeCompare(b.name))) {
        const file = path.join(d, e.name);
        const st = this.fa.stat(file);
        if (st.ok && st.value.kind === 'file') out.push({ file, workflow, size: st.value.size, mtimeMs: st.value.mtimeMs });
      }
    };
    list(dir, (name) => name.endsWith('.jsonl'), undefined);
    const wf = this.fa.readDir(path.join(dir, 'workflows'));
    if (wf.ok) for (const run of wf.value.map((e) => e.name).sort((a, b) => a.localeCompare(b))) list(path.join(dir, 'workflows', run), (name) => name.startsWith('agent-') && name.endsWith('.jsonl'), run);
    this.projectAgents(out);
    return out;
  }

  /** versions up to 2.1.1 wrote each subagent's transcript (and 2.0.x the `Warmup` agents of the session's start) beside
   *  the sessions, `<project>/agent-ID.jsonl`, naming its session in its records: this session's (the transcript's name
   *  is its id), by the first record of each (remembered once known) */
  private projectAgents(out: AgentFile[]): void {
    const own = path.basename(this.file, '.jsonl');
    if (own.startsWith('agent-')) return;
    const dir = path.dirname(this.file);
    const at = this.fa.stat(dir);
    if (!at.ok) return;
    let names = this.projectListing?.mtimeMs === at.value.mtimeMs ? this.projectListing.names : undefined;
    if (!names) {
      const r = this.fa.readDir(dir);
      if (!r.ok) return;
      names = r.value.filter((e) => e.kind !== 'dir' && e.name.startsWith('agent-') && e.name.endsWith('.jsonl')).map((e) => e.name);
      names = names.sort((a, b) => a.localeCompare(b)).slice(0, MAX_PROJECT_AGENTS);
      this.projectListing = { mtimeMs: at.value.mtimeMs, names };
      // a file that named no session yet is looked at again with the next listing, not at every read
      for (const [k, v] of this.agentSessions) if (v === '') this.agentSessions.delete(k);
    }
    for (const name of names) {
      const file = path.join(dir, name);
      let sid = this.agentSessions.get(file);
      if (sid === undefined) {
        sid = firstSessionId(this.fa, file) ?? '';
        if (this.agentSessions.size < MAX_PROJECT_AGENTS) this.agentSessions.set(file, sid);
      }
      if (sid !== own) continue;
      const st = this.fa.stat(file);
      if (st.ok && st.value.kind === 'file') out.push({ file, workflow: undefined, size: st.value.size, mtimeMs: st.value.mtimeMs });
    }
  }

  /** the agents' transcripts, each file read again only when its size or time changed */
  private subagents(): SubagentRead[] {
    const files = this.agentFiles();
    this.agentKey = agentKeyOf(files);
    return files.map((f) => {
      const hit = this.subs.get(f.file);
      if (hit && hit.size === f.size && hit.mtimeMs === f.mtimeMs) return hit.value;
      const one = readSubagent(this.fa, f.file, f.workflow);
      this.subs.set(f.file, { size: f.size, mtimeMs: f.mtimeMs, value: one });
      return one;
    });
  }

  /** an agent's transcript came, went or changed since the last read (a workflow's agents write in the background
   *  while the session's own file rests): a follower that reads only when the session's file changes asks this too */
  agentsChanged(): boolean {
    return agentKeyOf(this.agentFiles()) !== this.agentKey;
  }

  /** `profile`: the one to read with, or how to choose it from the version the transcript names */
  read(profile: ClaudeProfile | ((version: string | undefined) => ClaudeProfile)): LiveSession {
    const f = this.follower;
    // the records go to the replayer piece by piece as they are read (a cold open holds what the replayer keeps, not
    // the whole file's records at once); a file read again from the start gets a new replayer at that moment
    const state = f.poll({ records: (recs) => this.replayer.add(recs), restart: () => (this.replayer = new SessionReplayer()) });
    // a last line without its newline: taken when it is whole (a copied transcript), else left for the next read
    f.parser.settle();
    this.replayer.add(f.parser.records.splice(0));
    const problems = [...f.parser.problems];
    if (state === 'gone' || state === 'unreadable') problems.push({ line: 0, reason: `cannot read ${this.file}: ${f.error ?? state}` });
    if (f.capped) problems.push({ line: f.parser.lines, reason: `only the first ${f.bytesRead} bytes were read` });
    // a file of lines none of which is a record (a JSON object with a type): not a Claude Code transcript
    if (f.parser.lines > 0 && f.parser.typed === 0 && !f.parser.hasPartialLine)
      problems.unshift({ line: 0, reason: `${this.file} holds no Claude Code transcript record: none of its ${f.parser.lines} line(s) is a JSON object with a "type"` });
    const chosen = typeof profile === 'function' ? profile([...f.parser.versions].pop()) : profile;
    const subs = this.subagents();
    for (const s of subs) problems.push(...s.problems);
    const r = this.replayer.result(subs, chosen);
    return {
      ...r,
      figures: applyFigures(r, chosen),
      transcript: this.file,
      bytes: f.bytesRead,
      lines: f.parser.lines,
      problems,
      unknownTypes: Object.fromEntries(f.parser.unknownTypes),
      partialLine: f.parser.hasPartialLine,
    };
  }
}

/** one read of a transcript (and its subagents); pass a LiveReader to follow it */
export function readLiveSession(fa: FileAccess, file: string, profile: Parameters<LiveReader['read']>[0], reader?: LiveReader): LiveSession {
  return (reader ?? new LiveReader(fa, file)).read(profile);
}

// ------------------------------------------------------------------- the whole chain, for CLI and host

export interface LiveSessionState {
  live: LiveSession;
  /** what comes next; null without an analysis */
  next: NextSteps | null;
  findings: PredictionFinding[];
  /** calls the engine does not model: not compared, each listed once */
  notModelled: NotModelled[];
  /** the profile the transcript was read with */
  profile: ClaudeProfile;
  /** the launch folder the session was read against, and whether it is on this machine */
  launch?: { cwd: string; onDisk: boolean };
  /** what `next` and `findings` were computed for (a later read over the same turns reuses them) */
  derivedFor?: { key: string; analysis: Analysis | undefined; sim: SessionResult | null };
  /** the last recorded request split like `/context` (context-split.ts); null for a version that records no request */
  context?: SessionContextSplit | null;
  /** `next` (but its context) and `findings` belong to an earlier read: the turns or calls changed and
   *  the caller asked to defer computing them again (LiveSessionOptions.deferDerived) */
  pending?: boolean;
}

export interface LiveSessionOptions {
  /** the profile to read with, from the version the transcript names */
  profile: (version: string | undefined) => ClaudeProfile;
  /** the analysis to predict with under that profile (undefined: no prediction); asked for only when
   *  there is something to compute again */
  analysis: (profile: ClaudeProfile, cwd: string) => Analysis | undefined;
  /** the launch directory: the transcript's own cwd comes first, unless `cwdGiven` */
  cwd: string;
  /** `cwd` was named by the user (`--cwd`): it is the launch folder whatever the transcript says */
  cwdGiven?: boolean;
  /** follows the transcript: each read takes only what was appended */
  reader?: LiveReader;
  /** the state of the last read: what comes next and the prediction are computed again only when the
   *  turns, their calls or the profile changed (a caller whose analysis changed passes none) */
  previous?: LiveSessionState;
  /** with `previous`: when the turns or calls changed, keep its `next` (with a fresh context) and its
   *  findings, marked `pending`, instead of running the session model again (a follower shows an
   *  appended record at once and computes these later) */
  deferDerived?: boolean;
}

/**
 * The session in a transcript, read and laid out: the turns (a version that records no request gets
 * its startup blocks rebuilt from the disk), what comes next and the engine's prediction over the same
 * tool calls. One run of the session model serves the rebuilt startup blocks and the prediction.
 */
export function readLiveSessionState(fa: FileAccess, file: string, o: LiveSessionOptions): LiveSessionState {
  const s = readState(fa, file, o);
  const context = s.next?.context ?? contextOf(s.live, s.derivedFor?.analysis, s.profile);
  return { ...s, context: sessionContextSplit(s.live, s.live.figures.listings.mcp, s.profile, context) };
}

function readState(fa: FileAccess, file: string, o: LiveSessionOptions): Omit<LiveSessionState, 'context'> {
  let profile: ClaudeProfile | undefined;
  const live = readLiveSession(fa, file, (v) => (profile = o.profile(v)), o.reader);
  profile ??= o.profile(live.version);
  const key = `${file}:${profile.version}:${live.turns.length}:${live.turns.reduce((n, t) => n + t.calls.length, 0)}`;
  const prev = o.previous?.derivedFor;
  // the same turns and calls (or new ones, while the caller defers computing what comes next again): what comes
  // next and the prediction are the earlier read's; the context figure follows every answer (a turn's last,
  // text-only answer changes neither key)
  const same = prev && prev.key === key;
  if (prev && (same || (o.deferDerived && prev.key.startsWith(`${file}:${profile.version}:`)))) {
    // new turn objects of a version without requests get their blocks from the same run
    if (prev.sim && prev.analysis) reconstructFromDisk(prev.analysis, live, prev.sim);
    if (prev.analysis) {
      nameUnnamedHooks(live.turns, prev.analysis.settings);
      const ov = pricingOverride(prev.analysis.settings);
      if (ov) live.figures = applyFigures(live, profile, ov);
    } else live.warnings.push(...o.previous!.live.warnings.filter((w) => w.startsWith('the session was launched in ')));
    const was = o.previous!.next;
    const next = was && { ...was, context: contextOf(live, prev.analysis, profile) };
    return { live, next, findings: o.previous!.findings, notModelled: o.previous!.notModelled, profile, launch: o.previous!.launch, derivedFor: prev, ...(same ? {} : { pending: true }) };
  }
  // the launch folder: the session's own, unless the user named one; when it is not on this machine
  // the transcript is shown as it is, with nothing taken from another folder's disk
  const launch = o.cwdGiven ? o.cwd : (live.cwd ?? o.cwd);
  const st = fa.stat(launch);
  if (!st.ok || st.value.kind !== 'dir') {
    live.warnings.push(`the session was launched in ${launch}, which is not on this machine: shown as the transcript holds it (no startup block from the disk, no file checked)`);
    return { live, next: nextSteps(fa, live, undefined, profile, launch, null, false), findings: [], notModelled: [], profile, launch: { cwd: launch, onDisk: false }, derivedFor: { key, analysis: undefined, sim: null } };
  }
  const a = o.analysis(profile, launch);
  if (!a) return { live, next: null, findings: [], notModelled: [], profile, launch: { cwd: launch, onDisk: true } };
  // Claude Code's managed `modelPricing` prices the session instead of the list (pricing.ts)
  const override = pricingOverride(a.settings);
  if (override) live.figures = applyFigures(live, profile, override);
  nameUnnamedHooks(live.turns, a.settings);
  const predicts = live.source === 'requests' || live.turns.length > 0;
  // one run of the session model for the prediction, the rebuilt startup blocks and, when no compaction
  // came yet, what /compact now would bring back (the same run with /compact typed after its last turn:
  // a turn added at the end changes nothing before it)
  let sim: SessionResult | null = null;
  let compact: NextSteps['compact'] | undefined;
  const since = sinceLastCompaction(live.turns);
  if (since.from === 0 && !since.held.length) {
    sim = simulateSessionOver(a, [...replayable(fa, live.turns), COMPACT_NOW]);
    compact = compactionOf(sim);
  } else sim = predicts || live.source === 'attachments' ? predictionRun(fa, a, live) : null;
  if (sim) reconstructFromDisk(a, live, sim);
  const { findings, notModelled } = predicts && sim ? splitFindings(fa, live, sim, checkPrediction(fa, a, live, sim, true)) : { findings: [], notModelled: [] };
  return {
    live,
    next: nextSteps(fa, live, a, profile, launch, compact),
    findings,
    notModelled,
    profile,
    launch: { cwd: launch, onDisk: true },
    derivedFor: { key, analysis: a, sim },
  };
}
