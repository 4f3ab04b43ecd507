// The user's most recent Claude Code session for a launch directory, read from its transcript:
// which instruction files and skills were loaded, and when (startup, after which tool call).
//
// Where: <config>/projects/<key>/<session-id>.jsonl, with <config> = $CLAUDE_CONFIG_DIR or ~/.claude
// and <key> the sanitized REAL path of the launch directory (not the memory key, which is made from
// the git root: memory spec A1; measured on both versions, also when PWD is a symlink).
//
// The record format (JSON lines), as 2.1.328 and 2.1.235 write it (fixtures in test/ground-truth):
// - every record has `type`; conversation records also `uuid`, `parentUuid`, `timestamp`,
//   `sessionId`, `version`, `cwd`, `isSidechain`.
// - `user`: `message.content` a string (a prompt) or blocks; `tool_result` blocks carry the
//   `tool_use_id`; `isMeta` records with `sourceToolUseID` carry a skill's body
//   ("Base directory for this skill: DIR…").
// - `assistant`: `message.content` with `tool_use` blocks (`id`, `name`, `input`).
// - `attachment`: `attachment.type` says what was added to the context:
//     `instructions` (2.1.328 only): the startup files, `files: [{path, type, content}]`;
//     `nested_memory`: a file loaded lazily, `path`, `content: {type, content, globs?, isRule?}`;
//     `skill_listing`: `names`, `isInitial` (the startup listing, or skills added later);
//     `dynamic_skill`: a skills folder found below the launch directory (`skillDir`, `skillNames`).
//   An attachment's `parentUuid` chain leads back to the tool_result (or prompt) it follows.
// - many other types (queue-operation, api-request*, prompt_snapshot, cost-state…) are ignored.
// 2.1.235 does not record the startup instruction files at all: only lazy loads are visible.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { memoryKey } from '../engine/index.js';

/** read at most this much of a transcript: the head (startup) and the tail (the latest activity) */
export const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
const HEAD_SHARE = 0.25;

export interface ToolCall {
  /** 0-based, in session order */
  index: number;
  id: string;
  name: string;
  /** file_path / path / notebook_path of the input, when there is one */
  path?: string;
  /** a one-line summary of the input */
  summary: string;
  timestamp?: string;
  sidechain: boolean;
}

export type LoadTime =
  | { kind: 'startup' }
  | { kind: 'tool'; call: ToolCall }
  /** a later user prompt (the n-th, 0-based), e.g. after an @-mention or a compaction */
  | { kind: 'prompt'; index: number }
  | { kind: 'unknown' };

export interface LoadedInstruction {
  path: string;
  /** Project, Local, User, Managed, AutoMem (as Claude Code records it) */
  type: string;
  when: LoadTime;
  isRule: boolean;
  globs?: string[];
  /** characters of the content as loaded */
  chars: number;
  /** the content as loaded (processed: frontmatter and comments removed) */
  content: string;
  timestamp?: string;
  sidechain: boolean;
}

export interface SkillEvent {
  kind: 'listed' | 'discovered' | 'invoked';
  names: string[];
  when: LoadTime;
  /** the skills folder (discovered) or the skill's folder (invoked) */
  path?: string;
  /** invoked by the model through the Skill tool, or typed by the user as /name */
  by?: 'model' | 'user';
  timestamp?: string;
}

export interface SessionReport {
  file: string;
  sessionId?: string;
  version?: string;
  cwd?: string;
  startedAt?: string;
  endedAt?: string;
  size: number;
  bytesRead: number;
  /** only a head and a tail were read (the middle of a huge transcript is skipped) */
  truncated: boolean;
  records: number;
  /** lines that were not JSON (a line cut by the size limit, a write in progress) */
  partialLines: number;
  /** record types this parser does not interpret, with their counts */
  otherTypes: Record<string, number>;
  /** false when the transcript has no record of the startup files (2.1.235 never writes one) */
  startupRecorded: boolean;
  toolCalls: ToolCall[];
  instructions: LoadedInstruction[];
  skills: SkillEvent[];
  warnings: string[];
}

// ------------------------------------------------------------------------------------- finding

/** the transcript folders of a launch directory: the key of its real path first, then of the path as given */
export function transcriptDirs(cwd: string, userDir: string): string[] {
  const abs = path.resolve(cwd);
  let real = abs;
  try {
    real = fs.realpathSync(abs);
  } catch {
    /* missing: the given path */
  }
  const dirs = [path.join(userDir, 'projects', memoryKey(real))];
  const given = path.join(userDir, 'projects', memoryKey(abs));
  if (!dirs.includes(given)) dirs.push(given);
  return dirs;
}

/** the newest `*.jsonl` session file in these folders (subagent files `agent-*.jsonl` excluded) */
export function newestSession(dirs: string[]): { file: string; mtimeMs: number; size: number } | undefined {
  let best: { file: string; mtimeMs: number; size: number } | undefined;
  for (const d of dirs) {
    let names: string[];
    try {
      names = fs.readdirSync(d);
    } catch {
      continue;
    }
    for (const n of names) {
      if (!n.endsWith('.jsonl') || n.startsWith('agent-')) continue;
      const f = path.join(d, n);
      try {
        const st = fs.statSync(f);
        if (!st.isFile()) continue;
        if (!best || st.mtimeMs > best.mtimeMs) best = { file: f, mtimeMs: st.mtimeMs, size: st.size };
      } catch {
        /* gone meanwhile */
      }
    }
  }
  return best;
}

/** head and tail of a file, at most `maxBytes` in all; the seam is marked by `truncated` */
export function readBounded(file: string, maxBytes = DEFAULT_MAX_BYTES): { text: string; size: number; bytesRead: number; truncated: boolean } {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    if (size <= maxBytes) {
      const buf = Buffer.alloc(size);
      const n = fs.readSync(fd, buf, 0, size, 0);
      return { text: buf.subarray(0, n).toString('utf8'), size, bytesRead: n, truncated: false };
    }
    const headLen = Math.floor(maxBytes * HEAD_SHARE);
    const tailLen = maxBytes - headLen;
    const head = Buffer.alloc(headLen);
    const tail = Buffer.alloc(tailLen);
    const h = fs.readSync(fd, head, 0, headLen, 0);
    const t = fs.readSync(fd, tail, 0, tailLen, size - tailLen);
    // the lines cut at both seams are dropped by the parser as partial lines
    return { text: `${head.subarray(0, h).toString('utf8')}\n${tail.subarray(0, t).toString('utf8')}`, size, bytesRead: h + t, truncated: true };
  } finally {
    fs.closeSync(fd);
  }
}

// ------------------------------------------------------------------------------------- parsing

type Rec = Record<string, unknown>;

const HANDLED = new Set(['user', 'assistant', 'attachment']);
const QUIET = new Set([
  'queue-operation', 'last-prompt', 'atis-latch', 'tools-used', 'cost-state', 'api-request', 'api-request-shape', 'api-request-blob',
  'summary', 'system', 'file-history-snapshot', 'custom-title', 'tag', 'progress',
]);
const QUIET_ATTACHMENTS = new Set([
  'environment', 'model', 'deferred_tools_delta', 'agent_listing_delta', 'session_context', 'date', 'remote_session_change',
  'prompt_snapshot', 'command_permissions', 'total_tokens_reminder', 'silent_turn_reminder',
]);

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const obj = (v: unknown): Rec | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function blocks(rec: Rec): Rec[] {
  const c = obj(rec.message)?.content;
  return Array.isArray(c) ? (c.filter((b) => obj(b)) as Rec[]) : [];
}

function inputPath(input: Rec | undefined): string | undefined {
  if (!input) return undefined;
  for (const k of ['file_path', 'notebook_path', 'path']) {
    const v = input[k];
    if (typeof v === 'string') return v;
  }
  return undefined;
}

function summarize(name: string, input: Rec | undefined): string {
  if (!input) return name;
  const p = inputPath(input);
  if (p) return `${name} ${p}`;
  for (const k of ['skill', 'command', 'pattern', 'query', 'url', 'description']) {
    const v = input[k];
    if (typeof v === 'string') return `${name} ${v.length > 80 ? `${v.slice(0, 79)}…` : v}`.replace(/\s+/g, ' ');
  }
  return name;
}

const SKILL_BASE = 'Base directory for this skill: ';
const COMMAND_NAME = /<command-name>\/?([^<\s]+)<\/command-name>/;

/** parses transcript text (JSON lines; partial and unknown lines tolerated) */
export function parseTranscript(text: string, meta: { file: string; size?: number; bytesRead?: number; truncated?: boolean }): SessionReport {
  const report: SessionReport = {
    file: meta.file,
    size: meta.size ?? text.length,
    bytesRead: meta.bytesRead ?? text.length,
    truncated: meta.truncated ?? false,
    records: 0,
    partialLines: 0,
    otherTypes: {},
    startupRecorded: false,
    toolCalls: [],
    instructions: [],
    skills: [],
    warnings: [],
  };
  const byUuid = new Map<string, { parent?: string; toolResults: string[]; prompt?: number; kind: string }>();
  const callsById = new Map<string, ToolCall>();
  let prompts = 0;
  /** the anchor of the records read so far, when the parent chain is broken */
  let lastAnchor: LoadTime = { kind: 'startup' };

  const anchorOf = (rec: Rec): LoadTime => {
    let u = str(rec.parentUuid);
    for (let steps = 0; u && steps < 200; steps++) {
      const r = byUuid.get(u);
      if (!r) break;
      if (r.toolResults.length) {
        const call = callsById.get(r.toolResults[r.toolResults.length - 1]!);
        if (call) return { kind: 'tool', call };
      }
      if (r.prompt !== undefined) return r.prompt === 0 ? { kind: 'startup' } : { kind: 'prompt', index: r.prompt };
      u = r.parent;
    }
    return lastAnchor;
  };

  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let rec: Rec | undefined;
    try {
      rec = obj(JSON.parse(line));
    } catch {
      report.partialLines++;
      continue;
    }
    if (!rec) {
      report.partialLines++;
      continue;
    }
    report.records++;
    const type = str(rec.type) ?? '?';
    const ts = str(rec.timestamp);
    if (ts) {
      report.startedAt ??= ts;
      report.endedAt = ts;
    }
    report.sessionId ??= str(rec.sessionId);
    if (str(rec.version)) report.version = str(rec.version);
    report.cwd ??= str(rec.cwd);
    const sidechain = rec.isSidechain === true;
    const uuid = str(rec.uuid);
    const node = { parent: str(rec.parentUuid), toolResults: [] as string[], prompt: undefined as number | undefined, kind: type };
    if (uuid) byUuid.set(uuid, node);

    if (!HANDLED.has(type)) {
      if (!QUIET.has(type)) report.otherTypes[type] = (report.otherTypes[type] ?? 0) + 1;
      continue;
    }

    if (type === 'assistant') {
      for (const b of blocks(rec)) {
        if (b.type !== 'tool_use') continue;
        const id = str(b.id) ?? `?${report.toolCalls.length}`;
        const name = str(b.name) ?? '?';
        const input = obj(b.input);
        const call: ToolCall = { index: report.toolCalls.length, id, name, path: inputPath(input), summary: summarize(name, input), timestamp: ts, sidechain };
        report.toolCalls.push(call);
        callsById.set(id, call);
        if (name === 'Skill' && typeof input?.skill === 'string')
          report.skills.push({ kind: 'invoked', names: [input.skill], when: { kind: 'tool', call }, by: 'model', timestamp: ts });
      }
      continue;
    }

    if (type === 'user') {
      const content = obj(rec.message)?.content;
      const results = blocks(rec).filter((b) => b.type === 'tool_result');
      if (results.length) {
        node.toolResults = results.map((b) => str(b.tool_use_id) ?? '');
        const call = callsById.get(node.toolResults[node.toolResults.length - 1]!);
        if (call) lastAnchor = { kind: 'tool', call };
        continue;
      }
      if (rec.isMeta === true) {
        // a skill's body: its folder completes the matching "invoked" event
        const text = typeof content === 'string' ? content : blocks(rec).map((b) => str(b.text) ?? '').join('');
        const src = str(rec.sourceToolUseID);
        if (text.startsWith(SKILL_BASE) && src) {
          const dir = text.slice(SKILL_BASE.length).split('\n')[0]!;
          const ev = report.skills.find((s) => s.kind === 'invoked' && s.when.kind === 'tool' && s.when.call.id === src);
          if (ev) ev.path = dir;
        }
        continue;
      }
      const text = typeof content === 'string' ? content : blocks(rec).map((b) => str(b.text) ?? '').join('\n');
      const cmd = COMMAND_NAME.exec(text);
      node.prompt = prompts++;
      lastAnchor = node.prompt === 0 ? { kind: 'startup' } : { kind: 'prompt', index: node.prompt };
      if (cmd) report.skills.push({ kind: 'invoked', names: [cmd[1]!], when: lastAnchor, by: 'user', timestamp: ts });
      continue;
    }

    // attachments
    const att = obj(rec.attachment);
    const atype = str(att?.type) ?? '?';
    if (!att) continue;
    const when = anchorOf(rec);
    if (atype === 'instructions') {
      if (when.kind === 'startup') report.startupRecorded = true;
      for (const f of arr(att.files)) {
        const o = obj(f);
        const p = str(o?.path);
        if (!o || !p) continue;
        const c = str(o.content) ?? '';
        report.instructions.push({ path: p, type: str(o.type) ?? '?', when, isRule: o.isRule === true || Array.isArray(o.globs), globs: strings(o.globs), chars: c.length, content: c, timestamp: ts, sidechain });
      }
    } else if (atype === 'nested_memory') {
      const o = obj(att.content);
      const p = str(att.path) ?? str(o?.path);
      if (!p) continue;
      const c = str(o?.content) ?? '';
      report.instructions.push({ path: p, type: str(o?.type) ?? '?', when, isRule: o?.isRule === true || Array.isArray(o?.globs), globs: strings(o?.globs), chars: c.length, content: c, timestamp: ts, sidechain });
    } else if (atype === 'skill_listing') {
      const names = strings(att.names) ?? [];
      report.skills.push({ kind: 'listed', names, when: att.isInitial === true ? { kind: 'startup' } : when, timestamp: ts });
    } else if (atype === 'dynamic_skill') {
      report.skills.push({ kind: 'discovered', names: strings(att.skillNames) ?? [], path: str(att.skillDir), when, timestamp: ts });
    } else if (!QUIET_ATTACHMENTS.has(atype)) {
      const k = `attachment:${atype}`;
      report.otherTypes[k] = (report.otherTypes[k] ?? 0) + 1;
    }
  }
  if (report.records === 0) report.warnings.push('no readable record in the transcript');
  if (report.truncated) report.warnings.push(`the transcript is ${mb(report.size)}: only its first and last parts (${mb(report.bytesRead)}) were read; loads in the middle are not shown`);
  if (!report.startupRecorded && report.records > 0)
    report.warnings.push(`this transcript does not record the startup instruction files (Claude Code ${report.version ?? '?'} writes only the files loaded later)`);
  return report;
}

function strings(v: unknown): string[] | undefined {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
}

function mb(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export interface LastSessionResult {
  /** the folders searched, in order */
  searched: string[];
  session?: SessionReport;
}

/** the most recent session of a launch directory (newest transcript only, read within `maxBytes`) */
export function lastSession(opts: { cwd: string; userDir: string; maxBytes?: number }): LastSessionResult {
  const searched = transcriptDirs(opts.cwd, opts.userDir);
  const newest = newestSession(searched);
  if (!newest) return { searched };
  const r = readBounded(newest.file, opts.maxBytes ?? DEFAULT_MAX_BYTES);
  return { searched, session: parseTranscript(r.text, { file: newest.file, size: r.size, bytesRead: r.bytesRead, truncated: r.truncated }) };
}

export function describeTime(t: LoadTime): string {
  switch (t.kind) {
    case 'startup':
      return 'startup';
    case 'tool':
      return `after tool call #${t.call.index + 1} (${t.call.summary})`;
    case 'prompt':
      return `after user prompt #${t.index + 1}`;
    default:
      return 'unknown';
  }
}
