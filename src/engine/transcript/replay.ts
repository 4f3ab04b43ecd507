// A recorded session rebuilt turn by turn, in the shape of `render --session --json` (docs/session.md):
// from the requests themselves where the transcript records them (2.1.328 and later: exact text), and
// from its attachments where it does not (2.1.235: nested_memory, edited_text_file, file,
// invoked_skills and the skill bodies' own records, rendered with the engine's format strings; the
// startup block is not recorded there and is left to the caller to reconstruct from the disk).
// Per request also: the usage Claude Code was answered with, and the request's characters by layer.
import { AGENT_LISTING_HEAD, CHANGED_NOTE, DEFERRED_TOOLS_LEAD, entryText, MCP_INSTRUCTIONS_HEAD, PREAMBLE, SKILL_BASE_DIR_PREFIX, SKILLS_LISTING_HEADER, SYSTEM_REMINDER_CLOSE } from '../format-strings.js';
import type { ClaudeProfile } from '../profiles.js';
import { numberLines } from '../session/changed-notes.js';
import { restoreSkills } from '../session/compaction.js';
import { arr, blocksOf, LINK_TYPE, markText, messageOf, num, obj, str, type Block, type ParsedRecord, type Rec, type WireMessage } from './records.js';
import { rebuildRequests, RequestIndex, resultLength, resultText, shrink, usageOf, type RebuiltRequest, type Usage } from './requests.js';
import { findStartup } from './wire.js';
import { extractTurn, variantsNote, type ExtractedTurn, type RecordedSessionRequest } from './wire-session.js';
import { TurnLedger, type TurnCache, type TurnUsage } from './usage.js';
import { sessionChars } from './attachment-layers.js';

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

/** something that happened inside a turn (or before the first one) without being a turn of its own */
export interface TurnMark {
  kind: 'local-command' | 'interrupt' | 'rewind' | 'compaction' | 'resume' | 'notification' | 'queued' | 'withdrawn';
  /** the record's own time */
  at?: string;
  /** local command: `/name args`; interrupt: the marker's text; notification: what it says (a background task's
   *  summary or status, another session's message); queued: the prompt typed while the model worked; withdrawn: prompts
   *  typed while it worked and taken out of the queue unsent (back into the input at an interrupt, or run as a command) */
  text?: string;
  /** local command: what it printed (`<local-command-stdout>` / `-stderr`), cut to 500 characters */
  output?: string;
  /** rewind: the abandoned branch's prompts (as turn labels), tool calls and requests, counted apart */
  prompts?: string[];
  calls?: number;
  requests?: number;
  /** compaction: `auto` or `manual` (absent when only the summary was recorded), tokens before it, the summary's size;
   *  `micro` for a microcompaction (old tool results cleared, no summary): how many results and the tokens it saved */
  trigger?: string;
  preTokens?: number;
  summaryChars?: number;
  cleared?: number;
  saved?: number;
  /** resume: the version that wrote before, and the one that writes from here */
  from?: string;
  to?: string;
}

export type TurnKind = 'prompt' | 'command' | 'image';

export interface LiveTurn {
  prompt: string;
  /** a typed prompt, a prompt-type slash command (prompt `/name args`), or an image (`[image]`, `TEXT +1 image`) */
  kind: TurnKind;
  /** characters of what the prompt sent (a command's: its expanded text) */
  promptChars: number;
  /** local commands, interrupts, rewinds, compactions and resumes inside this turn, in order */
  marks: TurnMark[];
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
  hooks?: {
    event: string;
    /** `''` when the record does not name it; then, where the settings hold one hook for the event, named after it */
    command: string;
    /** the command was not in the record: it is the one hook the launch folder's settings hold for the event (hook-names.ts) */
    commandFrom?: 'settings';
    chars: number | null;
    dropped: boolean;
  }[];
  /** the session's subagents and workflow agents that this turn's calls started (or, when nothing ties one to a call,
   *  that started while the turn ran), each with its own transcript's requests, usage and cost (turn-figures.ts) */
  agents?: TurnAgent[];
  // ---- end of part B
}

/** a subagent's or a workflow agent's own transcript, counted under the turn of the call that started it */
export interface TurnAgent {
  agentId: string;
  /** its meta's `agentType` (`workflow-subagent` for a workflow's agent), null without a meta */
  agentType: string | null;
  /** the workflow run it belongs to (its folder `subagents/workflows/wf_…`), null for an ordinary subagent */
  workflow: string | null;
  /** the call that started it (an Agent call, or the Workflow call whose result names the run), null when none ties it */
  toolUseId: string | null;
  transcript: string;
  requests: number;
  usage: TurnUsage;
  /** USD; null when a request's model has no price */
  cost: number | null;
}

export interface LayerChars {
  system: number;
  tools: number;
  /** MCP servers' tools, per server */
  mcp: Record<string, number>;
  instructions: number;
  skillsListing: number;
  /** the system message's sections (2.1.328 on): the MCP server instructions, the agent listing, the deferred-tools
   *  listing, and Claude Code's other texts in it (environment, model, date, the servers that did not connect) */
  mcpInstructions: number;
  agents: number;
  deferredListing: number;
  fixedTexts: number;
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
  /** the tools its `tools` array carries that a ToolSearch loaded (`defer_loading: true`, Claude Code's placeholder
   *  left out): name and characters as compact JSON */
  loadedTools?: { name: string; chars: number }[];
}

/** a subagent's transcript of the session: its meta (`agentType`, `toolUseId`) and records */
export interface SubagentTranscript {
  file: string;
  meta: Rec | undefined;
  records: readonly ParsedRecord[];
  /** the workflow run whose agent it is (`subagents/workflows/<run id>/agent-ID.jsonl`) */
  workflow?: string;
}

/** a subagent's own transcript placed in a turn, with its requests taken (usage.ts; priced by turn-figures.ts) */
export interface PlacedAgent {
  file: string;
  agentId: string;
  agentType: string | null;
  workflow: string | null;
  toolUseId: string | null;
  /** the turn it is counted under (it may run past that turn: a workflow runs in the background) */
  turn: number;
  ledger: TurnLedger;
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
  /** the versions that wrote the transcript, in order (more than one: resumed by another binary) */
  versions: string[];
  /** marks before the first turn (a local command typed first, a `/clear` that opened the file) */
  marks: TurnMark[];
  /** the transcript is a subagent's own (`subagents/agent-ID.jsonl`): its turns are the subagent's */
  subagent?: { agentId?: string };
  warnings: string[];
  /** each turn's records (the main chain's, from its prompt to the next) but its answers and tool results (the ledger and
   *  the calls hold what is read of them), and the records before the first prompt (SessionStart hooks, the first
   *  listings): what turn-figures.ts reads hooks and listings from */
  turnRecords: readonly (readonly ParsedRecord[])[];
  leadingRecords: readonly ParsedRecord[];
  /** each turn's requests, usage and the characters its records add, taken as the records came (usage.ts) */
  turnLedgers: readonly TurnLedger[];
  /** the subagents' and workflow agents' own transcripts, each placed in a turn */
  agents: readonly PlacedAgent[];
}

const SR_OPEN = '<system-reminder>\n';
const COMMAND_NAME = /<command-name>(\/?[^<]*)<\/command-name>/;
const COMMAND_RECORD = /^<command-(?:name|message)>/;
const COMMAND_ARGS = /<command-args>([\s\S]*?)<\/command-args>/;
const LOCAL_OUTPUT = /^<local-command-(stdout|stderr)>([\s\S]*?)(?:<\/local-command-(?:stdout|stderr)>|$)/;
/** a shell command typed in bash mode (`!cmd`), run locally, and what it printed (stdout, then stderr) */
const BASH_INPUT = /^<bash-input>([\s\S]*?)<\/bash-input>/;
const BASH_OUTPUT = /^<bash-stdout>([\s\S]*?)<\/bash-stdout>\s*(?:<bash-stderr>([\s\S]*?)<\/bash-stderr>)?/;
const NOT_PROMPTS = /^<(local-command-stdout|local-command-caveat|local-command-stderr|command-message|command-name|bash-input|bash-stdout|bash-stderr)>/;
const INTERRUPT = /^\[Request interrupted by user[^\]]*\]/;
/** 1.0.x wrote the local-command caveat without `isMeta` and without its tag */
const CAVEAT = /^Caveat: The messages below were generated by the user while running local commands\b/;
const TASK_NOTIFICATION = /^<task-notification>/;
/** a Workflow call's result names the run it started (2.1.167: `Run ID: wf_9cab1d1d-783`), the folder of its agents */
const RUN_ID = /^Run ID: (wf_[\w-]+)$/m;
/** a subagent's own transcript: `agent-ID.jsonl` */
const AGENT_FILE = /(?:^|[\\/])agent-([^\\/]+)\.jsonl$/;
/** Claude Code's answer to a slash command it does not know, written as a user record of its own */
const UNKNOWN_COMMAND = /^Unknown slash command: ([\w:.-]+)$/;
/** a `local_command` record's content that is a command's bare name and arguments, with no tags (2.1.235 to 2.1.335) */
const BARE_COMMAND = /^\/[\w:.-]+(?: [^\n<]*)?$/;
/** commands written name first (as local ones are) that do send a request: the compaction's own */
const REQUEST_COMMANDS = new Set(['/compact']);

function textOf(m: WireMessage): string {
  return blocksOf(m)
    .filter((b) => b.type === 'text')
    .map((b) => b.text ?? '')
    .join('\n');
}

/** what a user record is to the turn list */
type UserKind =
  | { turn: { prompt: string; kind: TurnKind; chars: number } }
  | { mark: TurnMark }
  | { output: string }
  | undefined;

/** `/name args` of a command record's text */
function commandLabel(t: string): string {
  const name = COMMAND_NAME.exec(t)?.[1]?.trim() ?? '';
  const args = COMMAND_ARGS.exec(t)?.[1]?.trim() ?? '';
  const slash = name.startsWith('/') ? name : `/${name}`;
  return args ? `${slash} ${args}` : slash;
}

/** the terminal's escape sequences (colours, bold, synchronized output) a local command's output is written with */
const TERMINAL_ESCAPES = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;

/** a command record's text (a user record's, or a `system` / `local_command` record's content) */
function commandOf(t: string, at: string | undefined): UserKind {
  const s = t.trimStart();
  const out = LOCAL_OUTPUT.exec(s);
  if (out) return { output: out[2]!.replace(TERMINAL_ESCAPES, '').trim() };
  const bash = BASH_INPUT.exec(s);
  if (bash) return { mark: { kind: 'local-command', at, text: `!${bash[1]!.trim()}` } };
  const printed = BASH_OUTPUT.exec(s);
  if (printed) return { output: [printed[1], printed[2]].filter((x) => x?.trim()).join('\n').replace(TERMINAL_ESCAPES, '').trim() };
  // a command record opens with its tags; a prompt that only quotes them (a pasted transcript) is a prompt
  if (!COMMAND_RECORD.test(s) || !COMMAND_NAME.test(s)) return undefined;
  const label = commandLabel(s);
  // a prompt-type command is written message first (`<command-message>` then `<command-name>`) and
  // followed by its expanded prompt (an isMeta record); a local one name first, with its output after
  if (s.startsWith('<command-message>') || REQUEST_COMMANDS.has(label.split(' ')[0]!)) return { turn: { prompt: label, kind: 'command', chars: label.length } };
  return { mark: { kind: 'local-command', at, text: label } };
}

/** a notification in a few words: a task's `<summary>`, else its `<status>`, else its first line */
export function notificationText(t: string, origin?: string): string {
  const tag = (name: string) => new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(t)?.[1]?.trim();
  const summary = tag('summary');
  const status = tag('status');
  const line = t.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
  const what = summary ?? (status ? `${tag('task-id') ? `task ${tag('task-id')} ` : ''}${status}` : line);
  const said = what.length > 200 ? `${what.slice(0, 199)}…` : what;
  return origin && origin !== 'task-notification' && origin !== 'human' ? `${origin}: ${said}` : said;
}

/** what a user record is: a prompt that opens a turn, a mark inside one, or neither (tool results, meta, summaries) */
function userKind(r: Rec, sidechainFile: boolean): UserKind {
  if (r.isMeta === true || r.isCompactSummary === true || r.isVisibleInTranscriptOnly === true || (r.isSidechain === true && !sidechainFile)) return undefined;
  const m = messageOf(r);
  if (!m || m.role !== 'user') return undefined;
  const bs = blocksOf(m);
  const at = str(r.timestamp);
  const t = textOf(m);
  const lead = t.trimStart();
  if (INTERRUPT.test(lead)) return { mark: { kind: 'interrupt', at, text: INTERRUPT.exec(lead)![0] } };
  if (bs.some((b) => b.type === 'tool_result')) return undefined;
  // what Claude Code itself sent as a user message: a background task's end, another session's message
  // (`origin.kind` other than `human`, from 2.1.1xx; before it, the tag alone)
  const origin = str(obj(r.origin)?.kind);
  if ((origin && origin !== 'human') || TASK_NOTIFICATION.test(lead)) return { mark: { kind: 'notification', at, text: notificationText(lead, origin) } };
  if (CAVEAT.test(lead)) return undefined;
  // a slash command Claude Code does not know (typed, or its own `/rate-limit-options` after a rate limit, 2.0.76): the
  // caveat, then its answer as a plain user record, no tags; sent with the next prompt, never a request of its own
  const unknown = UNKNOWN_COMMAND.exec(t.trim());
  if (unknown) return { mark: { kind: 'local-command', at, text: `/${unknown[1]!}`, output: t.trim() } };
  const cmd = commandOf(t, at);
  if (cmd) return cmd;
  if (NOT_PROMPTS.test(lead)) return undefined;
  const images = bs.filter((b) => b.type === 'image').length;
  if (images) {
    const label = `${images} image${images > 1 ? 's' : ''}`;
    return { turn: { prompt: t.trim() ? `${t} +${label}` : images > 1 ? `[${label}]` : '[image]', kind: 'image', chars: t.length } };
  }
  return { turn: { prompt: t, kind: 'prompt', chars: t.length } };
}

/** the turn a record opens, as the turn list shows it (`/name args` for a command, `[image]` for an image), or
 *  undefined when it opens none (tool results, meta records, marks, notifications) */
export function promptOf(r: Rec): { prompt: string; kind: TurnKind } | undefined {
  if (r.type !== 'user') return undefined;
  const k = userKind(r, false);
  return k && 'turn' in k ? { prompt: k.turn.prompt, kind: k.turn.kind } : undefined;
}

/** the prompt a user record carries as the compaction rule reads it: what opened a turn before turns were told from marks */
function promptish(r: Rec): boolean {
  if (r.isMeta === true || r.isCompactSummary === true || r.isVisibleInTranscriptOnly === true || r.isSidechain === true) return false;
  const m = messageOf(r);
  if (!m || m.role !== 'user') return false;
  if (blocksOf(m).some((b) => b.type === 'tool_result')) return false;
  const t = textOf(m).trimStart();
  return /^<command-name>/.test(t) || !NOT_PROMPTS.test(t);
}

interface TurnSpan {
  prompt: string;
  kind: TurnKind;
  /** its prompt record's `promptId` (2.1.x), which the records of the same typed input share */
  promptId?: string;
  promptChars: number;
  /** a command's expanded prompt has been counted */
  expanded: boolean;
  marks: TurnMark[];
  timestamp?: string;
  /** records of the main chain from the prompt to the next prompt, but its answers and tool results (what is read of
   *  them is in `ledger`, `calls` and the counts below) */
  records: ParsedRecord[];
  /** every record of the turn, taken as it came: requests, usage, the characters by layer */
  ledger: TurnLedger;
  calls: CallSpan[];
  /** the calls waiting for their result, by tool_use id */
  callById: Map<string, CallSpan>;
  /** calls whose result came and no answer after it yet: what is recorded until the next answer goes with them */
  awaiting: CallSpan[];
  /** index in `records` where the first answer came (-1: none yet): the turn's opening attachments are before it */
  firstAnswer: number;
  /** distinct answers (message ids) so far: all of them, and those but Claude Code's own (`<synthetic>`) */
  answers: AnswerCount;
  realAnswers: AnswerCount;
  /** the compactions Claude Code made on its own in the turn: the answers before it, and the records (indexes in
   *  `records`) after it until the next answer */
  autoBoundaries: { at: number; from: number; to: number }[];
  /** a compact_boundary came after the previous turn's last record: the conversation was compacted
   *  by this turn's `/compact`, or on Claude Code's own before this turn's prompt */
  compacted: LiveTurn['compacted'];
  /** indexes (into the request index) of this turn's main-loop requests */
  requests: number[];
}

interface CallSpan {
  id: string;
  name: string;
  input: Record<string, unknown>;
  timestamp?: string;
  /** its result came: an error (its text, cut), Skill's forked execution, and the records after it until the next
   *  answer (indexes in the turn's `records`, `to` -1 while no answer came); fields of the call, not an object of their
   *  own (a turn of a million calls) */
  result?: true;
  isError?: boolean;
  error?: string | null;
  forked?: boolean;
  from?: number;
  to?: number;
  /** what its result names: the subagent an Agent (Task) call ran (`toolUseResult.agentId`), the workflow run a Workflow
   *  call started (`toolUseResult.runId`, or the result's `Run ID: wf_…` line) */
  agentId?: string;
  runId?: string;
}

/** attachments something reads again after the turn (the hooks, the listings, the changed-file notes, nested memory and
 *  what a compaction brought back); the others are taken by the ledger and the marks as they come */
const KEPT_ATTACHMENTS = new Set(['async_hook_response', 'mcp_instructions_delta', 'deferred_tools_delta', 'agent_listing_delta', 'skill_listing', 'edited_text_file', 'nested_memory', 'file', 'compact_file_reference', 'invoked_skills']);

/** a record (not an answer, not a tool result) the turn keeps whole: what the hooks, the listings and a version that
 *  records no request read again (attachment-layers.ts, fromAttachments); a user record that is no tool result (a
 *  prompt, a command and its output: one a turn or a mark); a system record that is a compaction or names Stop hooks */
function kept(pr: ParsedRecord): boolean {
  switch (pr.type) {
    case 'attachment': {
      const t = str(obj(pr.rec.attachment)?.type) ?? '';
      return t.startsWith('hook_') || KEPT_ATTACHMENTS.has(t);
    }
    case 'system':
      return pr.rec.subtype === 'compact_boundary' || pr.rec.subtype === 'stop_hook_summary';
    default:
      return true;
  }
}

/** distinct ids among the last few seen (an answer's records come together), counted */
class AnswerCount {
  size = 0;
  private recent = new Set<string>();
  private older = new Set<string>();
  add(id: string): void {
    if (this.recent.has(id) || this.older.has(id)) return;
    this.size++;
    if (this.recent.size >= 256) {
      this.older = this.recent;
      this.recent = new Set();
    }
    this.recent.add(id);
  }
}

/** the empty list most calls have, one for all (a turn of a million calls held two million empty arrays); frozen: never
 *  added to */
const EMPTY = Object.freeze([]) as unknown as never[];
/** `xs`, or the shared empty list when it is empty */
const orEmpty = <T>(xs: T[]): T[] => (xs.length ? xs : EMPTY);

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

const emptyChars = (): LayerChars => ({ system: 0, tools: 0, mcp: {}, instructions: 0, skillsListing: 0, mcpInstructions: 0, agents: 0, deferredListing: 0, fixedTexts: 0, lazy: 0, skillBodies: 0, hooks: 0, changedNotes: 0, restored: 0, conversation: 0, total: 0 });
const TEXT_LAYERS: TextLayer[] = ['instructions', 'skillsListing', 'mcpInstructions', 'agents', 'deferredListing', 'fixedTexts', 'lazy', 'skillBodies', 'hooks', 'changedNotes', 'restored', 'conversation'];

/** the sections of the system message (2.1.328 on: one text block holding the environment, the deferred-tools listing,
 *  the agent listing, the MCP server instructions, the skills listing, the date), by their heads */
const SECTION_HEADS: [string, TextLayer][] = [
  [DEFERRED_TOOLS_LEAD, 'deferredListing'],
  [AGENT_LISTING_HEAD, 'agents'],
  [MCP_INSTRUCTIONS_HEAD, 'mcpInstructions'],
  [SKILLS_LISTING_HEADER, 'skillsListing'],
];
/** where a section ends besides another section's head: Claude Code's other sections of the system message */
const SECTION_ENDS = ['\n\n# Environment\n', '\n\nYou are powered by the model', "\n\nToday's date is ", '\n\n<total_tokens>', '\n\nThe following MCP servers are '];

/** a text block holding several sections of the system message, split by them (what no section holds: fixedTexts);
 *  undefined when it holds no section but the skills listing (a block of its own, 2.1.235, counted whole) */
function splitSystemText(text: string): Partial<Record<TextLayer, number>> | undefined {
  const found = SECTION_HEADS.map(([head, layer]) => ({ at: text.indexOf(head), head, layer })).filter((x) => x.at >= 0);
  if (!found.length || (found.length === 1 && found[0]!.layer === 'skillsListing')) return undefined;
  const starts = found.map((x) => x.at);
  const out: Partial<Record<TextLayer, number>> = {};
  let inSections = 0;
  for (const f of found) {
    let end = text.length;
    const next = (k: number) => k >= 0 && k < end && (end = k);
    if (f.layer === 'deferredListing') next(text.indexOf('\n\n', f.at));
    for (const s of starts) if (s > f.at) next(text.lastIndexOf('\n\n', s) >= f.at ? text.lastIndexOf('\n\n', s) : s);
    for (const e of SECTION_ENDS) next(text.indexOf(e, f.at + f.head.length));
    if (end === text.length && text.endsWith(SYSTEM_REMINDER_CLOSE)) end -= SYSTEM_REMINDER_CLOSE.length;
    out[f.layer] = (out[f.layer] ?? 0) + end - f.at;
    inSections += end - f.at;
  }
  out.fixedTexts = (out.fixedTexts ?? 0) + text.length - inSections;
  return out;
}

/** a message's characters by layer, computed once per message object */
const messageChars = new WeakMap<object, Partial<Record<TextLayer, number>>>();
function charsOfMessage(m: WireMessage): Partial<Record<TextLayer, number>> {
  const hit = messageChars.get(m);
  if (hit) return hit;
  const c: Partial<Record<TextLayer, number>> = {};
  const add = (k: TextLayer, n: number) => (c[k] = (c[k] ?? 0) + n);
  for (const b of blocksOf(m)) {
    if (b.type === 'text') {
      const text = b.text ?? '';
      const split = text.includes(PREAMBLE) ? undefined : splitSystemText(text);
      if (split) for (const [k, n] of Object.entries(split)) add(k as TextLayer, n);
      else add(classify(text), text.length);
    }
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

/** Claude Code's own deferred tool in every request with tool search on (not a loaded one) */
const DEFERRED_PLACEHOLDER = 'DeferredToolPlaceholder';
const loadedMemo = new WeakMap<readonly Rec[], { name: string; chars: number }[]>();

/** the tools of a request's `tools` array that a ToolSearch loaded (measured on 2.1.328 and 2.1.335: a tool its result
 *  named by `tool_reference` is in the next requests' array with `defer_loading: true`), once per shape */
function loadedToolsOf(tools: readonly Rec[]): { name: string; chars: number }[] {
  let hit = loadedMemo.get(tools);
  if (!hit) {
    hit = tools.filter((t) => t.defer_loading === true && str(t.name) !== DEFERRED_PLACEHOLDER).map((t) => ({ name: str(t.name) ?? '?', chars: JSON.stringify(t).length }));
    loadedMemo.set(tools, hit);
  }
  return hit;
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
  private boundary: { rec: ParsedRecord; compacted: NonNullable<LiveTurn['compacted']>; marker: number; mark: TurnMark } | undefined;
  /** marks before the first turn */
  private leading: TurnMark[] = [];
  /** the session of the user record a mark before the first turn came from */
  private readonly leadingSession = new WeakMap<TurnMark, string>();
  /** a rewind that left every turn: it goes onto the turn that follows */
  private pendingRewind: TurnMark | undefined;
  /** a command since which no prompt came, that the model's answer makes a turn: a bash-mode command (`!cmd`) with its
   *  output (2.1.207 on), or a local command followed by the text it sends (an `isMeta` record: `/goal CONDITION`) */
  private pending: { mark: TurnMark; marks: TurnMark[]; uuids: string[]; chars: number; promptId?: string; bash: boolean; sent: boolean } | undefined;
  /** the version changed on this record: marked once the record has found its turn */
  private resume: TurnMark | undefined;
  private readonly versionList: string[] = [];
  /** the turn each record (by uuid) went into, and the last record's uuid: a prompt whose parent is elsewhere is a rewind */
  private readonly turnOf = new Map<string, number>();
  private lastUuid: string | undefined;
  /** the records name their parents (a prompt with none after the first is a rewind to the start) */
  private chained = false;
  /** the transcript is a subagent's own: its sidechain records are its turns */
  private sidechainFile: boolean | undefined;
  private agentId: string | undefined;
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
  /** each subagent file's requests, taken once per records read */
  private readonly agentLedgers = new WeakMap<object, TurnLedger>();
  private sessionId: string | undefined;
  /** the session of the last conversation record: the file's own (a session that plan mode started after clearing the
   * context opens with the previous session's last record, a forked one with the records it copied) */
  private ownSessionId: string | undefined;
  private cwd: string | undefined;
  private version: string | undefined;
  private firstTimestamp: string | undefined;
  private lastTimestamp: string | undefined;
  private lastUsage: Usage | null = null;
  private lastModel: string | undefined;
  /** records before the first prompt that carry context (attachments, hook progress, system), at most MAX_LEADING */
  private readonly leadingRecs: ParsedRecord[] = [];
  /** each record's characters for the breakdown, a microcompaction's cleared results taken off (attachment-layers.ts) */
  private readonly recordChars = sessionChars();
  /** the conversation's records and recorded requests before the first prompt, at most MAX_LEADING: a request Claude
   *  Code sent by itself (a background task's notification answered after /clear) counts in the first turn */
  private readonly beforeFirst: ParsedRecord[] = [];
  private readonly requestsBeforeFirst: number[] = [];

  add(records: readonly ParsedRecord[]): void {
    for (const pr of records) {
      this.one(pr);
      if (this.resume) {
        this.addMark(this.resume);
        this.resume = undefined;
      }
    }
  }

  /** marks go into the running turn, or before the first one */
  private addMark(m: TurnMark): void {
    (this.spans[this.spans.length - 1]?.marks ?? this.leading).push(m);
  }

  private marksNow(): TurnMark[] {
    return this.spans[this.spans.length - 1]?.marks ?? this.leading;
  }

  /** a local command's output, onto the command it came from */
  private commandOutput(text: string): void {
    // a `/compact` that printed instead of compacting (2.1.235 on a short conversation: "Not enough messages to
    // compact.") sent nothing: a local command's mark in the turn before, not a turn
    const cur = this.spans[this.spans.length - 1];
    if (cur && cur.kind === 'command' && cur.prompt.trim().split(/\s/)[0] === '/compact' && !cur.requests.length && !cur.calls.length && !cur.compacted && !cur.expanded) {
      this.spans.pop();
      const prev = this.spans[this.spans.length - 1];
      if (prev) for (const pr of cur.records) this.into(prev, pr);
      this.addMark({ kind: 'local-command', at: cur.timestamp, text: cur.prompt });
    }
    const marks = this.marksNow();
    const last = marks[marks.length - 1];
    if (last?.kind === 'local-command' && last.output === undefined) last.output = markText(text);
  }

  /** the records after `parentUuid`'s turn were abandoned (a rewind): they are folded into a mark under the turn the branch left */
  private rewind(j: number, at: string | undefined): void {
    const gone = this.spans.splice(j + 1);
    let answers = 0;
    let requests = 0;
    for (const g of gone) {
      const recorded = g.requests.filter((i) => i >= 0);
      requests += recorded.length;
      for (const i of recorded) {
        this.reqTurn[i] = Math.max(0, j);
        const lr = this.liveRequests[i];
        if (lr) this.liveRequests[i] = { ...lr, turn: Math.max(0, j) };
      }
      answers += g.realAnswers.size;
    }
    const mark: TurnMark = { kind: 'rewind', at, prompts: gone.map((g) => g.prompt), calls: gone.reduce((n, g) => n + g.calls.length, 0), requests: this.ix.requests.length ? requests : answers };
    this.cache.length = Math.min(this.cache.length, Math.max(0, j));
    if (j >= 0) this.spans[j]!.marks.push(mark);
    else this.pendingRewind = mark;
  }

  /** a prompt whose parent is not the record before it, but one of an earlier turn (or none): a rewind */
  private forkOf(r: Rec): number | undefined {
    if (!this.spans.length || this.boundary) return undefined;
    const parent = r.parentUuid;
    // a null parent after the first prompt: a rewind to the start, unless a compaction restarted the chain
    // (its boundary has no parent, and Claude Code may write the running prompt again after it)
    if (parent === null) return this.chained && !this.compactions.length ? -1 : undefined;
    if (typeof parent !== 'string' || parent === this.lastUuid) return undefined;
    const j = this.turnOf.get(parent);
    return j !== undefined && j < this.spans.length - 1 ? j : undefined;
  }

  private one(pr: ParsedRecord): void {
    const r = pr.rec;
    // a subagent's own transcript opened directly: every record of it is a sidechain one
    if (this.sidechainFile === undefined && (pr.type === 'user' || pr.type === 'assistant')) {
      this.sidechainFile = r.isSidechain === true;
      if (this.sidechainFile) this.agentId = str(r.agentId);
    }
    // its records are the file's own chain: their requests, usage, hooks and characters count as a session's would
    if (this.sidechainFile && r.isSidechain === true) r.isSidechain = false;
    const side = r.isSidechain === true;
    if (!side) {
      this.sessionId ??= str(r.sessionId);
      if (pr.type === 'user' || pr.type === 'assistant') this.ownSessionId = str(r.sessionId) ?? this.ownSessionId;
      this.cwd ??= str(r.cwd);
    }
    const v = str(r.version);
    if (v) {
      // a session resumed by another binary goes on in the same file with the new version
      if (this.version && v !== this.version && !side) this.resume = { kind: 'resume', at: str(r.timestamp), from: this.version, to: v };
      if (!this.versionList.includes(v) && this.versionList.length < 64) this.versionList.push(v);
      this.version = v;
    }
    const ts = str(r.timestamp);
    if (ts) {
      this.firstTimestamp ??= ts;
      this.lastTimestamp = ts;
    }
    const uuid = str(r.uuid);
    if (pr.type === LINK_TYPE) {
      // a record this reader does not keep, for the chain only (a progress record between two turns)
      const withdrawn = str(r.withdrawn);
      if (withdrawn !== undefined) this.addMark({ kind: 'withdrawn', at: ts, text: withdrawn });
      if (uuid && !side) {
        this.turnOf.set(uuid, this.spans.length - 1);
        this.lastUuid = uuid;
      }
      return;
    }
    this.step(pr, ts);
    if (uuid && !side) {
      this.turnOf.set(uuid, this.spans.length - 1);
      this.lastUuid = uuid;
      if (r.parentUuid) this.chained = true;
    }
  }

  private step(pr: ParsedRecord, ts: string | undefined): void {
    const r = pr.rec;
    // a bash-mode command answered by the model (2.1.207 on: its input and output are sent as a prompt): a turn, whose
    // requests are this answer's and what follows; a command nothing answers stays a mark (the output goes with the next
    // prompt, as on 2.1.167)
    if (this.pending && pr.type === 'assistant' && r.isSidechain !== true) {
      const b = this.pending;
      this.pending = undefined;
      if ((b.bash || b.sent) && str(obj(r.message)?.model) !== '<synthetic>' && r.isApiErrorMessage !== true) {
        const at = b.marks.indexOf(b.mark);
        if (at >= 0) b.marks.splice(at, 1);
        this.open({ prompt: b.mark.text ?? '', kind: b.bash ? 'prompt' : 'command', chars: b.chars }, b.mark.at, b.promptId, str(r.sessionId));
        for (const u of b.uuids) this.turnOf.set(u, this.spans.length - 1);
      }
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
      if (this.spans[turn]) this.spans[turn].requests.push(k);
      else if (this.requestsBeforeFirst.length < MAX_LEADING) this.requestsBeforeFirst.push(k);
      return;
    }
    // a request's message or shape by its hash: the request index keeps what it needs of it (a long tool result's text
    // dropped), the record itself is kept by no turn (it held the text a second time)
    if (pr.type === 'api-request-blob' || pr.type === 'api-request-shape') return;
    if (r.isSidechain === true && !this.sidechainFile) return;
    // what the reader keeps of a user or assistant record: its message with long tool results dropped
    if (pr.type === 'user' || pr.type === 'assistant') {
      const m = messageOf(r);
      const small = m && shrink(m);
      // a new message object only when a long text was dropped (shrink gives the same message otherwise)
      if (m && small && small !== m) r.message = { ...(obj(r.message) ?? {}), content: small.content };
      // (converse keeps nothing while no request was recorded, or after a prompt: the blocks are not made for it then)
      if (small && this.conversing()) {
        if (pr.type === 'assistant') this.converse({ role: 'assistant', content: blocksOf(small) });
        else if (r.isCompactSummary !== true && r.isVisibleInTranscriptOnly !== true && !promptish(r)) this.converse({ role: 'user', content: blocksOf(small) });
      }
      // an answer Claude Code wrote itself (`<synthetic>`: a rate limit, an API error, "No response requested.") sent
      // no request: the context and the model stay the last real answer's
      const model = str(obj(r.message)?.model);
      if (pr.type === 'assistant' && model !== '<synthetic>' && r.isApiErrorMessage !== true) {
        const u = usageOf(r);
        if (u) this.lastUsage = u;
        this.lastModel = model ?? this.lastModel;
      }
    }
    if (pr.type === 'attachment') {
      this.converseAttachment(r);
      // a prompt typed while the model worked (or a task's end), handed to it inside the running turn
      const a = obj(r.attachment);
      if (a?.type === 'queued_command' && !(r.isSidechain === true && !this.sidechainFile)) {
        const prompt = typeof a.prompt === 'string' ? a.prompt : textOf({ role: 'user', content: a.prompt as never });
        const kind = str(obj(a.origin)?.kind);
        const mode = str(a.commandMode);
        if (mode === 'task-notification' || (kind && kind !== 'human') || TASK_NOTIFICATION.test(prompt.trimStart())) this.addMark({ kind: 'notification', at: ts, text: notificationText(prompt.trimStart(), kind) });
        else this.addMark({ kind: 'queued', at: ts, text: markText(prompt) });
      }
    }
    if (pr.type === 'system' && r.subtype === 'local_command') {
      // 2.1.12 on: a local command and its output as system records (they never reach the model)
      const content = str(r.content) ?? '';
      const c = commandOf(content, ts);
      if (c && 'output' in c) this.commandOutput(c.output);
      else if (c) this.addMark('mark' in c ? c.mark : { kind: 'local-command', at: ts, text: c.turn.prompt });
      // a command the mode cannot run (`-p`: `/status`) is written as its bare name, its refusal as the output after it
      else if (BARE_COMMAND.test(content)) this.addMark({ kind: 'local-command', at: ts, text: content.trim() });
    }
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
      const mark: TurnMark = { kind: 'compaction', at: ts, trigger: compacted.trigger, ...(compacted.preTokens !== undefined && { preTokens: compacted.preTokens }) };
      if (inTurn) {
        cur.requests.push(marker);
        this.into(cur, pr);
        cur.compacted ??= compacted;
        cur.marks.push(mark);
        return;
      }
      this.boundary = { rec: pr, compacted, marker, mark };
      return;
    }
    if (pr.type === 'system' && r.subtype === 'microcompact_boundary') {
      const meta = obj(r.microcompactMetadata);
      const pre = num(meta?.preTokens);
      const saved = num(meta?.tokensSaved);
      const ids = meta?.compactedToolIds;
      this.addMark({ kind: 'compaction', at: ts, trigger: 'micro', ...(pre !== undefined && { preTokens: pre }), ...(Array.isArray(ids) && { cleared: ids.length }), ...(saved !== undefined && { saved }) });
    }
    if (pr.type === 'user' && r.isCompactSummary === true) {
      // the summary a compaction left: onto its boundary's mark, or a mark of its own (versions before compact_boundary)
      const chars = messageOf(r) ? textOf(messageOf(r)!).length : 0;
      const last = this.boundary?.mark ?? this.marksNow()[this.marksNow().length - 1];
      if (last?.kind === 'compaction' && last.trigger !== 'micro' && last.summaryChars === undefined) last.summaryChars = chars;
      else this.addMark({ kind: 'compaction', at: ts, summaryChars: chars });
    }
    if (pr.type === 'user') {
      const k = userKind(r, this.sidechainFile === true);
      const lead = messageOf(r) ? textOf(messageOf(r)!).trimStart() : '';
      const output = k !== undefined && 'output' in k;
      const bashOutput = output && BASH_OUTPUT.test(lead);
      // what may come between a command and the answer that makes it a turn: its output, the caveat, the text it sends
      const caveat = CAVEAT.test(lead) || lead.startsWith('<local-command-caveat>');
      const sends = this.pending !== undefined && !this.pending.bash && r.isMeta === true && !caveat;
      const between = this.pending !== undefined && (this.pending.bash ? bashOutput : (output && !bashOutput) || r.isMeta === true || caveat);
      if (this.pending && !between && r.isSidechain !== true) this.pending = undefined;
      if (sends) {
        this.pending!.sent = true;
        this.pending!.chars += lead.length;
      }
      if (k && 'output' in k) this.commandOutput(k.output);
      else if (k && 'mark' in k) {
        if (!this.spans.length && str(r.sessionId)) this.leadingSession.set(k.mark, str(r.sessionId)!);
        this.addMark(k.mark);
        const input = BASH_INPUT.exec(lead);
        if (k.mark.kind === 'local-command' && (input || COMMAND_RECORD.test(lead))) this.pending = { mark: k.mark, marks: this.marksNow(), uuids: [], chars: input ? input[1]!.trim().length : 0, ...(str(r.promptId) !== undefined && { promptId: str(r.promptId) }), bash: input !== null, sent: false };
      }
      if (this.pending && str(r.uuid)) this.pending.uuids.push(str(r.uuid)!);
      if (this.pending?.bash && bashOutput) {
        const out = BASH_OUTPUT.exec(lead)!;
        this.pending.chars += (out[1] ?? '').length + (out[2] ?? '').length;
      }
      if (promptish(r)) this.prompted = true;
      if (k && 'turn' in k) {
        // the first prompt starts the chain of a session whose file opens with another session's last record (plan mode
        // clearing the context: the previous session's interrupt): that mark is the other session's, not this one's
        const session = str(r.sessionId);
        if (!this.spans.length && r.parentUuid === null && session) this.leading = this.leading.filter((m) => (this.leadingSession.get(m) ?? session) === session);
        // a command typed at the prompt, written first as a plain prompt with its text, then as the command's own records
        // (2.1.226 to 2.1.232's /compact, its compaction between; the same promptId on 2.1.232 in one repository, another
        // in the other): that first record, which sent nothing, opened no turn
        const prev = this.spans[this.spans.length - 1];
        const own = str(r.promptId);
        const typed = k.turn.kind === 'command' && prev?.kind === 'prompt' && ((own !== undefined && prev.promptId === own) || this.boundary !== undefined) && prev.prompt.trim() === k.turn.prompt && !prev.requests.length && !prev.calls.length && !prev.realAnswers.size ? prev : undefined;
        if (typed) this.spans.pop();
        const fork = this.forkOf(r);
        if (fork !== undefined) this.rewind(fork, ts);
        const span = this.open(k.turn, ts, own, session, typed);
        this.into(span, pr);
        return;
      }
    }
    const cur = this.spans[this.spans.length - 1];
    if (!cur) {
      if (pr.type !== 'user' && pr.type !== 'assistant') {
        if (this.leadingRecs.length < MAX_LEADING) this.leadingRecs.push(pr);
      } else if (this.beforeFirst.length < MAX_LEADING) this.beforeFirst.push(pr);
      return;
    }
    this.into(cur, pr);
    if (pr.type === 'user' && r.isMeta === true && cur.kind === 'command' && !cur.expanded && cur.calls.length === 0) {
      // a prompt-type command's expanded prompt: what the command sent
      const m = messageOf(r);
      if (m) {
        cur.promptChars = textOf(m).length;
        cur.expanded = true;
      }
    }
    if (pr.type === 'assistant') this.callsOf(cur, r, ts);
  }

  /** a new turn: what came before it that is its own (a rewind, a compaction, the typed record of its command) goes in */
  private open(turn: { prompt: string; kind: TurnKind; chars: number }, ts: string | undefined, promptId: string | undefined, session: string | undefined, typed?: TurnSpan): TurnSpan {
    const marks: TurnMark[] = typed ? [...typed.marks] : [];
    if (this.pendingRewind) marks.push(this.pendingRewind);
    if (this.boundary) marks.push(this.boundary.mark);
    this.pendingRewind = undefined;
    const span: TurnSpan = { prompt: turn.prompt, kind: turn.kind, ...(promptId !== undefined && { promptId }), promptChars: turn.chars, expanded: false, marks, timestamp: ts, records: [], ledger: new TurnLedger(this.recordChars), calls: [], callById: new Map(), awaiting: [], firstAnswer: -1, answers: new AnswerCount(), realAnswers: new AnswerCount(), autoBoundaries: [], compacted: this.boundary?.compacted ?? null, requests: this.boundary ? [this.boundary.marker] : [] };
    this.spans.push(span);
    if (this.spans.length === 1) this.intoFirst(span, session);
    if (typed) for (const x of typed.records) this.into(span, x);
    if (this.boundary) {
      this.into(span, this.boundary.rec);
      this.compactions[compactionIndex(this.boundary.marker)]!.turn = this.spans.length - 1;
    }
    this.boundary = undefined;
    return span;
  }

  /** an answer's tool calls, into its turn */
  private callsOf(s: TurnSpan, r: Rec, ts: string | undefined): void {
    const m = messageOf(r);
    for (const b of m ? blocksOf(m) : [])
      if (b.type === 'tool_use' && typeof b.name === 'string') {
        const c: CallSpan = { id: b.id ?? '', name: b.name, input: obj(b.input) ?? {}, timestamp: ts };
        s.calls.push(c);
        if (!s.callById.has(c.id)) s.callById.set(c.id, c);
      }
  }

  /**
   * The first turn takes what the model was sent before its prompt, when it was sent anything: seen on 2.1.39, a
   * background task's notification after /clear, answered before the user typed (its request's usage was counted
   * nowhere). Only the file's own session's records (a file plan mode started opens with the other session's last one);
   * without a real answer (a local command typed first) nothing is taken, as before.
   */
  private intoFirst(span: TurnSpan, own: string | undefined): void {
    const held = this.beforeFirst.filter((pr) => !own || str(pr.rec.sessionId) === undefined || str(pr.rec.sessionId) === own);
    this.beforeFirst.length = 0;
    const answered = held.some((pr) => pr.type === 'assistant' && str(obj(pr.rec.message)?.model) !== '<synthetic>' && pr.rec.isApiErrorMessage !== true);
    if (answered) {
      for (const pr of held) {
        this.into(span, pr);
        if (pr.type === 'assistant') this.callsOf(span, pr.rec, str(pr.rec.timestamp));
      }
    }
    span.requests.unshift(...this.requestsBeforeFirst);
    this.requestsBeforeFirst.length = 0;
  }

  /**
   * A record of turn `s`, in order: the ledger takes it (requests, usage, characters); an answer or a tool result (all
   * but a few records of a long turn) is kept as what is read of it only (the calls' results, the answers counted), any
   * other record is kept whole (attachments, hooks, meta and system records: what the hooks, the listings and a version
   * that records no request read).
   */
  private into(s: TurnSpan, pr: ParsedRecord): void {
    s.ledger.add(pr);
    const r = pr.rec;
    if (pr.type === 'assistant') {
      const id = str(obj(r.message)?.id) ?? `line ${pr.line}`;
      s.answers.add(id);
      if (str(obj(r.message)?.model) !== '<synthetic>') s.realAnswers.add(id);
      if (s.firstAnswer < 0) s.firstAnswer = s.records.length;
      for (const c of s.awaiting) c.to = s.records.length;
      s.awaiting = [];
      for (const b of s.autoBoundaries) if (b.to < 0) b.to = s.records.length;
      return;
    }
    const m = pr.type === 'user' ? messageOf(r) : undefined;
    const results = m && typeof m.content !== 'string' ? m.content.filter((b) => b && b.type === 'tool_result') : [];
    if (r.isMeta === true || (!results.length && kept(pr))) s.records.push(pr);
    if (pr.type === 'system' && r.subtype === 'compact_boundary' && obj(r.compactMetadata)?.trigger === 'auto' && !s.prompt.trim().startsWith('/compact')) s.autoBoundaries.push({ at: s.answers.size, from: s.records.length, to: -1 });
    for (const b of results) {
      const c = typeof b.tool_use_id === 'string' ? s.callById.get(b.tool_use_id) : undefined;
      if (!c) continue;
      s.callById.delete(c.id);
      const text = resultText(b.content);
      c.result = true;
      c.isError = b.is_error === true;
      c.error = c.isError ? text.slice(0, 2000) : null;
      c.forked = c.name === 'Skill' && /completed \(forked execution\)/.test(text);
      if (c.name === 'Workflow' || c.name === 'Agent' || c.name === 'Task') {
        // the record's toolUseResult is its one result's
        const tur = results.length === 1 ? obj(r.toolUseResult) : undefined;
        const agentId = str(tur?.agentId);
        const runId = str(tur?.runId) ?? (c.name === 'Workflow' ? RUN_ID.exec(text)?.[1] : undefined);
        if (agentId) c.agentId = agentId;
        if (runId) c.runId = runId;
      }
      c.from = s.records.length;
      c.to = -1;
      s.awaiting.push(c);
    }
  }

  /** a message of the conversation past the last request: consecutive user messages are one */
  private conversing(): boolean {
    // a version that records no request (2.1.235) has no compaction request to rebuild: nothing is kept
    return this.ix.requests.length > 0 && !this.prompted;
  }

  private converse(m: { role: string; content: Block[] }): void {
    if (!this.conversing()) return;
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
      sessionId: this.ownSessionId ?? this.sessionId,
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
      versions: [...this.versionList],
      marks: [...this.leading],
      warnings,
      turnRecords: this.spans.map((s) => s.records),
      leadingRecords: this.leadingRecs,
      turnLedgers: this.spans.map((s) => s.ledger),
      agents: [],
    };
    if (this.sidechainFile) {
      out.subagent = { ...(this.agentId && { agentId: this.agentId }) };
      warnings.push(`this is a subagent's own transcript${this.agentId ? ` (agent ${this.agentId})` : ''}, not a session's: its turns are the subagent's`);
    }
    for (const r of reqs) if (r.missing) warnings.push(`request ${r.id}: ${r.missing} message(s) could not be rebuilt from the transcript`);
    const lastFull = [...out.requests].reverse().find((r) => r.chars && r.contextTokens);
    if (lastFull?.chars && lastFull.contextTokens) out.tokensPerChar = lastFull.contextTokens / lastFull.chars.total;
    const ver = this.version ?? profile.version;
    const complete = reqs.length > 0 && reqs.every((r) => r.messages);
    if (reqs.length && !complete) warnings.push('some requests could not be rebuilt: the turns are read from the attachments instead');
    // subagents and workflow agents: each in the turn of the call that started it (its meta's toolUseId, the Agent call
    // whose result names its agent id, the Workflow call whose result names its run), else of the time it started
    const byCall = new Map<string, number>();
    const callOfAgent = new Map<string, string>();
    const callOfRun = new Map<string, string>();
    this.spans.forEach((s, k) =>
      s.calls.forEach((c) => {
        byCall.set(c.id, k);
        if (c.agentId && !callOfAgent.has(c.agentId)) callOfAgent.set(c.agentId, c.id);
        if (c.runId && !callOfRun.has(c.runId)) callOfRun.set(c.runId, c.id);
      }),
    );
    const ties = subagents.map((sub) => tieAgent(sub, callOfAgent, callOfRun));
    const placed = subagents.map((sub, i) => this.placeAgent(sub, ties[i]!, byCall));
    out.agents = placed.filter((p): p is PlacedAgent => p !== undefined);
    // the subagent each Agent call ran, by the same tie (a workflow's agents answer no Agent call)
    const subOfCall = new Map<string, SubagentTranscript>();
    subagents.forEach((sub, i) => {
      const id = ties[i]!.toolUseId;
      if (!sub.workflow && id !== undefined && !subOfCall.has(id)) subOfCall.set(id, sub);
    });
    // an Agent call's subagent: its first request (a workflow's agents answer no Agent call)
    const subFirst = subagents.flatMap((sub, i) => {
      if (sub.workflow) return [];
      if (!this.subRequests.has(sub.records)) this.subRequests.set(sub.records, rebuildRequests(sub.records)[0]);
      const first = this.subRequests.get(sub.records);
      const turn = placed[i]?.turn ?? turnOfTime(this.spans, first?.timestamp);
      return [{ sub, first, turn }];
    });
    let dirty = false;
    this.spans.forEach((s, k) => {
      const mine = s.requests.filter((i) => i >= 0).map((i) => reqs[i]!);
      const others = subFirst.filter((x) => x.turn === k && x.first?.messages);
      const key = `${complete}:${s.ledger.count}:${s.calls.length}:${s.requests.length}:${mine[mine.length - 1]?.id ?? ''}:${others.map((o) => o.sub.file).join(',')}:${s.compacted ? 1 : 0}:${s.marks.length}:${s.promptChars}`;
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
      this.cache[k] = { key, extracted, last, live: this.liveTurn(s, extracted, subOfCall) };
    });
    this.cache.length = this.spans.length;
    out.turns = this.cache.map((c) => c.live);
    return out;
  }

  /** a subagent's own transcript in the turn of the call that started it (`tie`), else of the time it started; its
   *  requests taken once per records read (undefined: the file holds no record) */
  private placeAgent(sub: SubagentTranscript, tie: AgentTie, byCall: Map<string, number>): PlacedAgent | undefined {
    const recs = sub.records;
    if (!recs.length) return undefined;
    const { agentId, toolUseId } = tie;
    const at = toolUseId !== undefined ? byCall.get(toolUseId) : undefined;
    let ledger = this.agentLedgers.get(recs);
    if (!ledger) {
      ledger = new TurnLedger(() => null, true);
      for (const pr of recs) ledger.add(pr);
      this.agentLedgers.set(recs, ledger);
    }
    const started = str(recs.find((r) => typeof r.rec.timestamp === 'string')?.rec.timestamp);
    return { file: sub.file, agentId, agentType: str(sub.meta?.agentType) ?? null, workflow: sub.workflow ?? null, toolUseId: toolUseId ?? null, turn: at ?? turnOfTime(this.spans, started), ledger };
  }

  /** the requests with their usage and layers: entries are made once; the last ones again, as their usage arrives after them */
  private requestList(): LiveRequest[] {
    const reqs = this.ix.requests;
    for (let k = Math.max(0, this.liveRequests.length - 2); k < reqs.length; k++) {
      const r = reqs[k]!;
      this.liveRequests[k] = { id: r.id, turn: this.reqTurn[k] ?? 0, timestamp: r.timestamp, model: r.model, complete: !!r.messages, usage: r.usage ?? null, contextTokens: r.usage ? contextOf(r.usage) : null, chars: this.chars[k] ?? null, loadedTools: loadedToolsOf(r.tools) };
    }
    return [...this.liveRequests];
  }

  /** `subOfCall`: the subagent each Agent call ran (tieAgent) */
  private liveTurn(s: TurnSpan, e: ExtractedTurn, subOfCall: ReadonlyMap<string, SubagentTranscript>): LiveTurn {
    const calls: LiveCall[] = s.calls.map((c, i) => {
      const ec = e.calls[i];
      const sub = subOfCall.get(c.id);
      const result = c.result && c;
      return {
        name: c.name,
        input: c.input,
        id: c.id,
        injected: orEmpty((ec?.injected ?? EMPTY).map(splitEntry)),
        skillBody: ec?.skillBody ?? null,
        skillNote: ec?.skillNote ?? null,
        agent: ec?.agent ? { ...ec.agent, ...(sub && { transcript: sub.file }) } : null,
        unknownCommands: EMPTY,
        error: result && result.isError ? (result.error ?? null) : null,
        timestamp: c.timestamp,
      };
    });
    return {
      prompt: s.prompt,
      kind: s.kind,
      promptChars: s.promptChars,
      marks: [...s.marks],
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

/** which agent a transcript is, and the call that started it (undefined: none of this file's calls) */
interface AgentTie {
  agentId: string;
  toolUseId: string | undefined;
}

/** the agent by its file's name (else its records'), the call by its meta's toolUseId (2.1.328 on), else the Agent call
 *  whose result names the agent (`toolUseResult.agentId`), else the Workflow call whose result names its run */
function tieAgent(sub: SubagentTranscript, callOfAgent: ReadonlyMap<string, string>, callOfRun: ReadonlyMap<string, string>): AgentTie {
  const agentId = AGENT_FILE.exec(sub.file)?.[1] ?? str(sub.records.find((r) => typeof r.rec.agentId === 'string')?.rec.agentId) ?? sub.file;
  return { agentId, toolUseId: str(sub.meta?.toolUseId) ?? callOfAgent.get(agentId) ?? (sub.workflow ? callOfRun.get(sub.workflow) : undefined) };
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

// ------------------------------------------------------------------ 2.1.235: from the attachments

function attachmentsAfter(s: TurnSpan, from: number, until: number): Rec[] {
  return s.records.slice(from, until).filter((r) => r.type === 'attachment').map((r) => obj(r.rec.attachment) ?? {});
}

/** `records[from, to)`, `to` -1: to the end */
const between = (records: readonly ParsedRecord[], from: number, to: number) => records.slice(from, to < 0 ? records.length : to);

function fromAttachments(sp: TurnSpan[], k: number, subagents: SubagentTranscript[], profile: ClaudeProfile): ExtractedTurn {
  {
    const s = sp[k]!;
    const recs = s.records;
    // the turn's opening attachments: up to the first answer
    const opening = attachmentsAfter(s, 0, s.firstAnswer < 0 ? recs.length : s.firstAnswer);
    const notes = opening.filter((a) => a.type === 'edited_text_file').map((a) => CHANGED_NOTE(str(a.filename) ?? '', str(a.snippet) ?? ''));
    const prev = sp[k - 1];
    let restored: ExtractedTurn['restored'] = null;
    if (prev && prev.prompt.trim().startsWith('/compact')) restored = restoredFrom(prev.records, profile);
    // the compactions Claude Code made on its own in this turn: before the turn's request `at` (one per answer before
    // it), with what the records after it brought back (the replayer noted both as the records came: a turn of 100,000
    // calls costs its records, not calls × records)
    const autoCompactions: NonNullable<ExtractedTurn['autoCompactions']> = s.autoBoundaries.map((b) => ({ at: b.at, restored: restoredFrom(between(recs, b.from, b.to), profile) }));
    const turn: ExtractedTurn = { prompt: s.prompt, requests: s.firstAnswer >= 0 ? 1 : 0, instructions: null, changedNotes: notes.length ? notes.join('\n\n') : null, restored, calls: [], autoCompactions };
    for (const c of s.calls) {
      // the call's result, then what follows it until the next answer
      const res = c.result && c;
      const after = res ? between(recs, res.from!, res.to!) : [];
      const injected = orEmpty(
        after
        .filter((r) => r.type === 'attachment' && obj(r.rec.attachment)?.type === 'nested_memory')
        .map((r) => {
          const a = obj(r.rec.attachment)!;
          const content = obj(a.content);
          return entryText(str(a.path) ?? str(content?.path) ?? '', '', str(content?.content) ?? '');
        }),
      );
      // the skill's text: every meta record of the call in order (a repeat's re-invocation line, then the body), one a line;
      // the reminder naming the skill's directory-scoped variants is a meta record of the call too, after them
      const all = after.filter((r) => r.type === 'user' && r.rec.isMeta === true && str(r.rec.sourceToolUseID) === c.id).map((r) => textOf(messageOf(r.rec) ?? { role: 'user', content: '' }));
      const skillNote = all.map(variantsNote).find((n) => n !== null) ?? null;
      const metas = all.filter((t) => variantsNote(t) === null);
      const body = metas.length ? metas.reduce((acc, t) => (acc && !acc.endsWith('\n') ? `${acc}\n${t}` : acc + t), '').trimEnd() : null;
      const sub = subagents.find((x) => str(x.meta?.toolUseId) === c.id);
      const agent =
        c.name === 'Agent'
          ? { type: str(c.input.subagent_type) ?? 'general-purpose', instructions: sub ? subagentStartup(sub.records, profile) : null }
          : c.name === 'Skill' && res?.forked
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
