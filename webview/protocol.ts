// The one message protocol between the extension host and the sidebar webview. Both sides import
// this file; both validate what they receive with the guards below before acting on it (a webview is
// a web page: treat its messages as untrusted input, and the host's as data, never as markup).
// The host sends a finished presentation model (texts already localized and formatted); the webview
// only draws it and reports clicks.

export const PROTOCOL_VERSION = 1;

export type Severity = 'error' | 'warning' | 'info';
export type SectionId = 'startup' | 'active' | 'elsewhere' | 'notLoaded' | 'session';
export type GaugeLevel = 'ok' | 'warn' | 'over';

/** One line of a section: a file (openable) or a group of files. */
export interface Row {
  /** stable within one state: used for focus restoration */
  id: string;
  label: string;
  /** less prominent text after the label (kind, reason) */
  description?: string;
  /** right-aligned small badge (size) */
  badge?: string;
  /** tooltip; plain text */
  detail?: string;
  /** what a screen reader reads for the row */
  aria: string;
  /** the file this row opens (absolute path); the host only opens paths it listed itself */
  path?: string;
  /** 1-based line to reveal */
  line?: number;
  severity?: Severity;
  children?: Row[];
  /** for groups: start expanded */
  open?: boolean;
  /** a mark after the label, e.g. "unsaved" (the text on disk is what Claude Code reads) */
  mark?: string;
}

export interface Section {
  id: SectionId;
  title: string;
  /** short text next to the title (count, size) */
  summary?: string;
  /** a sentence above the rows, e.g. "Reading client.ts injects 3 files, 2,140 chars" */
  headline?: string;
  /** shown when there are no rows */
  empty?: string;
  rows: Row[];
  /** action buttons drawn in the section (session: add the active file, clear) */
  actions?: Action[];
  open: boolean;
  /** what the section lists and how its numbers are counted (the `?` button shows it) */
  help?: string;
}

export interface Gauge {
  id: string;
  label: string;
  value: number;
  max: number;
  /** the figures as text, e.g. "2,310 / 1,000,000 tokens" */
  text: string;
  /** a second line: the cut, the ratio used, the source of a figure */
  note?: string;
  /** a visible line: what the figure counts, and why it differs from the rows */
  counts?: string;
  /** tooltip: how the figure is made */
  detail?: string;
  level: GaugeLevel;
  aria: string;
  /** a file behind the figure (MEMORY.md), opened at `line` */
  path?: string;
  line?: number;
}

export type CommandId = 'refresh' | 'copyReport' | 'previewStartup' | 'configure' | 'sessionAddActive' | 'sessionAddStep' | 'sessionClear' | 'setClaudePath' | 'verify';
export const COMMAND_IDS: readonly CommandId[] = ['refresh', 'copyReport', 'previewStartup', 'configure', 'sessionAddActive', 'sessionAddStep', 'sessionClear', 'setClaudePath', 'verify'];

export interface Action {
  command: CommandId;
  label: string;
}

export interface Header {
  /** "Claude Code 2.1.328" */
  version: string;
  /** how the version was chosen, or why another profile is used */
  versionNote?: string;
  /** offered when the version has no profile of its own: compare the prediction with the installed claude */
  verify?: Action;
  model: string;
  launchDir: string;
  /** folder name in a multi-root workspace */
  folder?: string;
  /** where the version came from (setting, detection, newest profile): shown behind "Change…" and in the tooltip */
  source?: string;
  /** set in an untrusted workspace: nothing is executed */
  restricted?: string;
  /** an action next to the version note (e.g. "Set the path to claude…") */
  versionAction?: Action;
  change: Action;
}

/**
 * The view's first lines: what is always loaded and what reading the active file adds, in two lines,
 * answered before any section. Texts are finished (localized, formatted) by the host.
 */
export interface TopAnswer {
  /** "Always loaded: ≈5,731 tokens (6 files and the skills listing)" */
  always: string;
  /** "Reading client.ts adds +123 tokens: .claude/rules/api.md"; absent when no file is open */
  file?: string;
  /** what a screen reader reads for both lines */
  aria: string;
}

/**
 * A Claude Code session running (or just ended) in this workspace, as its transcript tells it: drawn as
 * the top's third line, "This session: 48,120 of 200,000 tokens". Filled by the live-session view
 * (src/engine/transcript/); the webview draws it whenever it is present.
 */
export interface LiveHeadline {
  /** tokens the session's context holds now (its last request) */
  tokens: number;
  /** the context window of the session's model */
  window: number;
  /** the finished line, e.g. "This session: 48,120 of 200,000 tokens" */
  label: string;
  /** set when the session is no longer running, e.g. "ended 4 min ago" */
  ended?: string;
  /** the Claude Code version the followed session runs ("2.1.144"): the header shows it while the
   *  session is followed, instead of the installed or assumed one */
  version?: string;
  /** the model the followed session runs */
  model?: string;
}

export interface ViewState {
  header: Header;
  /** the two-line answer at the top (absent while nothing is analysed) */
  top?: TopAnswer;
  /** the live session's headline, when a Claude Code session runs (or ran) in this workspace */
  live?: LiveHeadline;
  gauges: Gauge[];
  gaugesTitle: string;
  /** the `?` text of the gauges */
  gaugesHelp?: string;
  /** the `?` button's name, `{0}` = the section title */
  helpLabel?: string;
  sections: Section[];
  /** an error the host met while analysing (shown instead of sections when there is no analysis) */
  message?: string;
}

export type HostMessage =
  /** seq: increases with each state the host sends (the webview marks the painted one); sentAt, eventAt
   *  (Date.now() when sent, and when the editor switch that caused it reached the host): for the e2e's latency figures */
  | { type: 'state'; version: number; state: ViewState; reveal?: SectionId; seq?: number; sentAt?: number; eventAt?: number }
  /** only these sections changed (an editor switch): the webview replaces them and keeps the rest;
   *  `top` (and `live`) come along when they changed; `reveal`: bring this section into view (the
   *  active file's section after an editor switch) */
  | { type: 'sections'; version: number; sections: Section[]; top?: TopAnswer; live?: LiveHeadline; reveal?: SectionId; seq?: number; sentAt?: number; eventAt?: number }
  /** what the user opened, closed and scrolled, as the host kept it (sent on ready: it survives reloads) */
  | { type: 'memory'; memory: UiMemoryData }
  | { type: 'busy'; busy: boolean };

/** the webview's UI memory as it travels: open state by id, scroll position */
export interface UiMemoryData {
  open: Record<string, boolean>;
  scroll?: number;
  /** Date.now() of the change: of two copies (the webview's, the host's) the newer wins */
  savedAt?: number;
}

export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'memory'; memory: UiMemoryData }
  | { type: 'open'; path: string; line?: number }
  | { type: 'command'; command: CommandId };

// ---------------------------------------------------------------------------------------------
// Validation. Small hand-written guards: no dependency, and they say exactly what is accepted.

const MAX_TEXT = 100_000;
const MAX_ROWS = 5_000;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown, max = MAX_TEXT): v is string => typeof v === 'string' && v.length <= max;
const optStr = (v: unknown): boolean => v === undefined || isStr(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isLine = (v: unknown): boolean => v === undefined || (isNum(v) && Number.isInteger(v) && v >= 1);
const isSeverity = (v: unknown): v is Severity => v === 'error' || v === 'warning' || v === 'info';
const isCommand = (v: unknown): v is CommandId => typeof v === 'string' && (COMMAND_IDS as readonly string[]).includes(v);
const SECTION_IDS: readonly SectionId[] = ['startup', 'active', 'elsewhere', 'notLoaded', 'session'];

function isAction(v: unknown): v is Action {
  return isObj(v) && isCommand(v.command) && isStr(v.label);
}

function isRow(v: unknown, depth: number, budget: { rows: number }): v is Row {
  if (!isObj(v) || --budget.rows < 0 || depth > 4) return false;
  return (
    isStr(v.id) && isStr(v.label) && isStr(v.aria) && optStr(v.description) && optStr(v.badge) && optStr(v.detail) && optStr(v.path) &&
    isLine(v.line) && (v.severity === undefined || isSeverity(v.severity)) && (v.open === undefined || typeof v.open === 'boolean') && optStr(v.mark) &&
    (v.children === undefined || (Array.isArray(v.children) && v.children.every((c) => isRow(c, depth + 1, budget))))
  );
}

function isSection(v: unknown, budget: { rows: number }): v is Section {
  return (
    isObj(v) && typeof v.id === 'string' && (SECTION_IDS as readonly string[]).includes(v.id) && isStr(v.title) && optStr(v.summary) &&
    optStr(v.headline) && optStr(v.empty) && optStr(v.help) && typeof v.open === 'boolean' && Array.isArray(v.rows) && v.rows.every((r) => isRow(r, 0, budget)) &&
    (v.actions === undefined || (Array.isArray(v.actions) && v.actions.every(isAction)))
  );
}

function isGauge(v: unknown): v is Gauge {
  return (
    isObj(v) && isStr(v.id) && isStr(v.label) && isNum(v.value) && isNum(v.max) && isStr(v.text) && optStr(v.note) && optStr(v.counts) && optStr(v.detail) && isStr(v.aria) && optStr(v.path) && isLine(v.line) &&
    (v.level === 'ok' || v.level === 'warn' || v.level === 'over')
  );
}

function isHeader(v: unknown): v is Header {
  return (
    isObj(v) && isStr(v.version) && optStr(v.versionNote) && optStr(v.source) && isStr(v.model) && isStr(v.launchDir) && optStr(v.folder) && optStr(v.restricted) &&
    isAction(v.change) && (v.versionAction === undefined || isAction(v.versionAction)) && (v.verify === undefined || isAction(v.verify))
  );
}

function isTop(v: unknown): v is TopAnswer {
  return isObj(v) && isStr(v.always) && optStr(v.file) && isStr(v.aria);
}

function isLive(v: unknown): v is LiveHeadline {
  return isObj(v) && isNum(v.tokens) && v.tokens >= 0 && isNum(v.window) && v.window >= 0 && isStr(v.label) && optStr(v.ended) && optStr(v.version) && optStr(v.model);
}

const isSectionId = (v: unknown): v is SectionId => typeof v === 'string' && (SECTION_IDS as readonly string[]).includes(v);

export function isViewState(v: unknown): v is ViewState {
  const budget = { rows: MAX_ROWS };
  return (
    isObj(v) && isHeader(v.header) && (v.top === undefined || isTop(v.top)) && (v.live === undefined || isLive(v.live)) && isStr(v.gaugesTitle) && optStr(v.gaugesHelp) && optStr(v.helpLabel) && Array.isArray(v.gauges) && v.gauges.every(isGauge) && Array.isArray(v.sections) &&
    v.sections.every((s) => isSection(s, budget)) && optStr(v.message)
  );
}

const MAX_MEMORY_KEYS = 2_000;

/** UI memory from either side: booleans by id (ids bounded), a finite scroll position */
export function parseUiMemory(v: unknown): UiMemoryData | undefined {
  if (!isObj(v) || !isObj(v.open)) return undefined;
  const open: Record<string, boolean> = {};
  let n = 0;
  for (const [k, b] of Object.entries(v.open)) {
    if (typeof b !== 'boolean' || k.length > 1_000) continue;
    if (++n > MAX_MEMORY_KEYS) break;
    open[k] = b;
  }
  return { open, ...(isNum(v.scroll) && v.scroll >= 0 ? { scroll: v.scroll } : {}), ...(isNum(v.savedAt) ? { savedAt: v.savedAt } : {}) };
}

const extras = (v: Obj) => ({ ...(isSectionId(v.reveal) ? { reveal: v.reveal } : {}) });
const timing = (v: Obj) => ({ ...extras(v), ...(isNum(v.seq) ? { seq: v.seq } : {}), ...(isNum(v.sentAt) ? { sentAt: v.sentAt } : {}), ...(isNum(v.eventAt) ? { eventAt: v.eventAt } : {}) });

/** A message from the host, or undefined when it is not one this webview understands. */
export function parseHostMessage(v: unknown): HostMessage | undefined {
  if (!isObj(v)) return undefined;
  if (v.type === 'state' && v.version === PROTOCOL_VERSION && isViewState(v.state))
    return { type: 'state', version: PROTOCOL_VERSION, state: v.state, ...timing(v) };
  if (v.type === 'sections' && v.version === PROTOCOL_VERSION && Array.isArray(v.sections)) {
    const budget = { rows: MAX_ROWS };
    if (!v.sections.every((x) => isSection(x, budget))) return undefined;
    if (v.top !== undefined && !isTop(v.top)) return undefined;
    if (v.live !== undefined && !isLive(v.live)) return undefined;
    return { type: 'sections', version: PROTOCOL_VERSION, sections: v.sections, ...(v.top ? { top: v.top } : {}), ...(v.live ? { live: v.live } : {}), ...timing(v) };
  }
  if (v.type === 'memory') {
    const memory = parseUiMemory(v.memory);
    return memory ? { type: 'memory', memory } : undefined;
  }
  if (v.type === 'busy' && typeof v.busy === 'boolean') return { type: 'busy', busy: v.busy };
  return undefined;
}

/** A message from the webview, or undefined when it is malformed. */
export function parseWebviewMessage(v: unknown): WebviewMessage | undefined {
  if (!isObj(v)) return undefined;
  switch (v.type) {
    case 'ready':
      return { type: 'ready' };
    case 'memory': {
      const memory = parseUiMemory(v.memory);
      return memory ? { type: 'memory', memory } : undefined;
    }
    case 'open':
      if (!isStr(v.path, 4096) || !v.path || !isLine(v.line)) return undefined;
      return v.line === undefined ? { type: 'open', path: v.path } : { type: 'open', path: v.path, line: v.line as number };
    case 'command':
      return isCommand(v.command) ? { type: 'command', command: v.command } : undefined;
    default:
      return undefined;
  }
}

/** Every path a state lets the webview open (the host refuses any other). */
export function openablePaths(state: ViewState): Set<string> {
  const out = new Set<string>();
  const walk = (rows: Row[]) => {
    for (const r of rows) {
      if (r.path) out.add(r.path);
      if (r.children) walk(r.children);
    }
  };
  for (const s of state.sections) walk(s.rows);
  for (const g of state.gauges) if (g.path) out.add(g.path);
  return out;
}

// ---- what both sides draw ------------------------------------------------------------------------

/** control characters (C0 but tab and newline, DEL, C1) and the bidirectional overrides and isolates
 *  (which reorder what follows them: a file name could show as another) */
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** text as the user should see it: every invisible or reordering character as a visible `\xNN`/`\uNNNN` */
export function shown(s: string): string {
  return s.replace(INVISIBLE, (c) => {
    const n = c.charCodeAt(0);
    return n < 0x100 ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
  });
}
