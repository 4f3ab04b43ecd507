// Reading what a request carried (moved from src/ground-truth: the live-session reader needs it, and it is pure).
// Extraction of the instruction text from a captured main-loop request body (used by `verify` and
// by the conformance suite). The layout depends on the version: `own-reminder` (2.1.328 and the
// versions whose profile says so) or `claude-md-section` (2.1.235); pass a version or the layout.
//
// startup (the text the engine reports as `instructions.text`: preamble + "\n\n" + entries):
//   2.1.328: the messages[0] text block "<system-reminder>\n" + PREAMBLE… (block 0 with the default
//            model, later with others), minus the "<system-reminder>\n" prefix and "\n</system-reminder>";
//   2.1.235: the text between "# claudeMd\n" and "\n# currentDate" in messages[0] (content[0]).
// lazy injections, per tool call (each entry is "Contents of PATH:\n\nCONTENT", as the engine reports):
//   2.1.328: the "<system-reminder>\nContents of …\n</system-reminder>" text blocks after the
//            tool_result in the same user message (all but the last end with an extra "\n"), then the
//            role:"system" messages "tool.call hook additional context: Contents of …" (nested AGENTS.md
//            and its includes, entries joined by a single "\n");
//   2.1.235: the role:"system" message(s) after the tool_result message: entries joined by "\n\n",
//            then "\n\n<total_tokens>N tokens left</total_tokens>"; split at each entry header.
//   any version, some models: "\n\n<system-reminder>\nENTRY\n</system-reminder>" appended to the
//            tool_result text itself (seen with --model claude-sonnet-4-5).
// System messages that are not instruction injections (agent listings, environment, bare
// total_tokens) are ignored and reported in `other`.
import { PREAMBLE } from '../format-strings.js';
import { chooseProfile } from '../profiles.js';

export { PREAMBLE };

/** where the instructions stand in a request: their own reminder (328) or the `# claudeMd` section (235) */
export type WireFormat = 'own-reminder' | 'claude-md-section';

/** the layout of a version (its profile's, or the nearest older profile's), or a layout passed through */
export function wireFormat(versionOrFormat: string): WireFormat {
  if (versionOrFormat === 'own-reminder' || versionOrFormat === 'claude-md-section') return versionOrFormat;
  return chooseProfile(versionOrFormat).profile.startupPlacement;
}

const SR_OPEN = '<system-reminder>\n';
const SR_CLOSE = '\n</system-reminder>';
const HOOK_PREFIX = 'tool.call hook additional context: ';
const TOTAL_TOKENS = /\n\n<total_tokens>\d+ tokens left<\/total_tokens>$|^<total_tokens>\d+ tokens left<\/total_tokens>$/;
/** An entry header: "Contents of /abs/path…:\n\n" (lazy entries always have absolute paths). */
const ENTRY_SPLIT = /\n\n(?=Contents of \/[^\n]*:\n\n)/;
/** 328 AGENTS.md hook messages join their entries with a single "\n" (checked with a file that has no trailing newline). */
const HOOK_SPLIT = /\n(?=Contents of \/[^\n]*:\n\n)/;

export interface ExtractedTouch {
  tool: string;
  input: unknown;
  /** tool_result content flattened to text (for debugging). */
  result: string;
  isError: boolean;
  injected: string[];
  /** Text blocks / system messages after this tool result that are not instruction injections. */
  other: string[];
}

export interface Extracted {
  startup: string | null;
  touches: ExtractedTouch[];
  /** Structural surprises (a shape the extractor did not expect); non-empty = look at the capture. */
  warnings: string[];
}

interface Msg {
  role: string;
  content: unknown;
}
interface Part {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}

function parts(m: Msg): Part[] {
  if (typeof m.content === 'string') return [{ type: 'text', text: m.content }];
  return Array.isArray(m.content) ? (m.content as Part[]) : [];
}

function flatText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((p) => (typeof (p as Part).text === 'string' ? (p as Part).text : `[${(p as Part).type}]`)).join('');
  return '';
}

export function extractStartup(body: { messages?: Msg[] }, version: string, warnings: string[] = []): string | null {
  const first = body.messages?.[0];
  if (!first) return null;
  return startupIn(parts(first), version, warnings, 'messages[0]');
}

/** the startup block anywhere in the request's user messages (after a compaction it is no longer in
 *  messages[0]): the first message that carries one */
export function findStartup(body: { messages?: Msg[] }, version: string, warnings: string[] = []): string | null {
  for (const m of body.messages ?? []) {
    if (m.role !== 'user') continue;
    const s = startupIn(parts(m), version, warnings, 'one message');
    if (s !== null) return s;
  }
  return null;
}

/** the startup block among the text blocks of one message, or null */
function startupIn(ps: Part[], version: string, warnings: string[], where: string): string | null {
  // the index of the block depends on the model (e.g. block 6 with --model claude-sonnet-4-5 on 328):
  // find it by its preamble / section header rather than trusting the index
  const texts = ps.filter((p) => p.type === 'text').map((p) => p.text ?? '');
  if (wireFormat(version) === 'own-reminder') {
    const found = texts.filter((t) => t.startsWith(SR_OPEN + PREAMBLE));
    const text = found[0];
    if (text === undefined) return null;
    if (found.length > 1) warnings.push(`${found.length} startup blocks in ${where}`);
    if (!text.endsWith(SR_CLOSE)) {
      warnings.push('328 startup block does not end with \\n</system-reminder>');
      return text.slice(SR_OPEN.length);
    }
    return text.slice(SR_OPEN.length, -SR_CLOSE.length);
  }
  const found = texts.filter((t) => t.includes('# claudeMd\n'));
  const text = found[0];
  if (text === undefined) return null;
  if (found.length > 1) warnings.push(`${found.length} # claudeMd sections in ${where}`);
  const start = text.indexOf('# claudeMd\n');
  const end = text.lastIndexOf('\n# currentDate');
  if (end < start) {
    warnings.push('235 claudeMd section without a following # currentDate');
    return text.slice(start + '# claudeMd\n'.length);
  }
  const s = text.slice(start + '# claudeMd\n'.length, end);
  if (!s.startsWith(PREAMBLE)) warnings.push('235 claudeMd section does not start with the preamble');
  return s;
}

/** Splits an injection string (entries joined by "\n\n") into entries. */
export function splitEntries(s: string): string[] {
  return s.split(ENTRY_SPLIT);
}

function systemInjection(text: string, format: WireFormat, t: ExtractedTouch, warnings: string[]): void {
  let s = text.replace(TOTAL_TOKENS, '');
  if (s === '') return; // 2.1.235 appends a bare total_tokens system message after every tool result
  if (format === 'own-reminder' && s.startsWith(HOOK_PREFIX + 'Contents of /')) {
    s = s.slice(HOOK_PREFIX.length);
    t.injected.push(...s.split(HOOK_SPLIT));
    return;
  }
  if (format === 'claude-md-section' && s.startsWith('Contents of /')) {
    t.injected.push(...splitEntries(s));
    return;
  }
  if (s.includes('Contents of /')) warnings.push(`system message with an unrecognised instruction shape: ${JSON.stringify(s.slice(0, 200))}`);
  t.other.push(s);
}

export function extract(body: { messages?: Msg[] }, version: string): Extracted {
  const warnings: string[] = [];
  const format = wireFormat(version);
  const startup = extractStartup(body, version, warnings);
  const touches: ExtractedTouch[] = [];
  const msgs = body.messages ?? [];
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i]!;
    if (m.role !== 'assistant') continue;
    for (const use of toolUsesOf(m)) touches.push(touchOf(msgs, i, use, format, warnings));
  }
  return { startup, touches, warnings };
}

/**
 * The last tool call of a request (the last tool_use of its last assistant message that has one) as
 * extract() reads it, without reading the calls before it: extract(body).touches.at(-1), its warnings
 * aside. A session's reader asks this of every request, so it must not cost the whole conversation.
 */
export function extractLastTouch(body: { messages?: Msg[] }, version: string): { touch: ExtractedTouch; use: Part } | undefined {
  const msgs = body.messages ?? [];
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i]!;
    if (m.role !== 'assistant') continue;
    const use = toolUsesOf(m).at(-1);
    if (use) return { touch: touchOf(msgs, i, use, wireFormat(version), []), use };
  }
  return undefined;
}

const toolUsesOf = (m: Msg): Part[] => parts(m).filter((p) => p?.type === 'tool_use');

/** one tool call: the tool_result that answers it in the messages after its assistant message `i`, and what was
 *  injected with it there (text blocks after the result, system messages up to the next assistant message) */
function touchOf(msgs: readonly Msg[], i: number, use: Part, format: WireFormat, warnings: string[]): ExtractedTouch {
  const t: ExtractedTouch = { tool: use.name ?? '?', input: use.input, result: '', isError: false, injected: [], other: [] };
  for (let j = i + 1; j < msgs.length; j++) {
    const mm = msgs[j]!;
    if (mm.role === 'assistant') break;
    if (mm.role === 'user') {
      const ps = parts(mm);
      const k = ps.findIndex((p) => p?.type === 'tool_result' && p.tool_use_id === use.id);
      const res = ps[k];
      if (res === undefined) continue;
      t.result = flatText(res.content);
      t.isError = res.is_error === true;
      // with some models (e.g. --model claude-sonnet-4-5) both versions append the reminders to the
      // tool_result text instead: "\n\n<system-reminder>\nENTRY\n</system-reminder>" per file
      const segs = t.result.split(/\n\n(?=<system-reminder>\n)/);
      for (const seg of segs.slice(1)) {
        if (seg.startsWith(SR_OPEN + 'Contents of /') && seg.endsWith(SR_CLOSE)) t.injected.push(seg.slice(SR_OPEN.length, -SR_CLOSE.length));
        else if (seg.includes('Contents of /')) warnings.push(`tool_result reminder with an unrecognised instruction shape: ${JSON.stringify(seg.slice(0, 200))}`);
      }
      // the text blocks after the result, up to the next tool_result; the last text block of the message is told apart
      let end = ps.length;
      for (let q = k + 1; q < ps.length; q++)
        if (ps[q]?.type === 'tool_result') {
          end = q;
          break;
        }
      let lastText = -1;
      for (let q = ps.length - 1; q > k; q--)
        if (ps[q]?.type === 'text') {
          lastText = q;
          break;
        }
      for (let q = k + 1; q < end; q++) {
        const p = ps[q];
        if (p?.type !== 'text' || typeof p.text !== 'string') continue;
        const isLast = q === ps.length - 1 || q === lastText;
        if (p.text.startsWith(SR_OPEN + 'Contents of /')) {
          let inner = p.text.slice(SR_OPEN.length);
          if (inner.endsWith(SR_CLOSE + '\n')) {
            inner = inner.slice(0, -(SR_CLOSE.length + 1));
            if (isLast) warnings.push('last lazy block of a message ends with an extra \\n');
          } else if (inner.endsWith(SR_CLOSE)) {
            inner = inner.slice(0, -SR_CLOSE.length);
            if (!isLast) warnings.push('non-last lazy block without the extra \\n');
          } else warnings.push('lazy block without a closing </system-reminder>');
          if (format === 'claude-md-section') warnings.push('lazy injection as a text block in the `# claudeMd` layout (expected a system message)');
          t.injected.push(inner);
        } else if (p.text.includes('Contents of /')) {
          warnings.push(`text block with an unrecognised instruction shape: ${JSON.stringify(p.text.slice(0, 200))}`);
          t.other.push(p.text);
        } else t.other.push(p.text);
      }
    } else if (mm.role === 'system') {
      systemInjection(flatText(mm.content), format, t, warnings);
    }
  }
  return t;
}

/** The last main-loop request body (tools include Read), parsed; null if none. */
export function lastMainLoopBody(bodies: string[]): { messages?: Msg[]; tools?: unknown } | null {
  for (let i = bodies.length - 1; i >= 0; i--) {
    const body = bodies[i];
    if (body === undefined) continue;
    let p: { messages?: Msg[]; tools?: { name?: string }[] };
    try {
      p = JSON.parse(body) as typeof p;
    } catch {
      continue;
    }
    if (Array.isArray(p.tools) && p.tools.some((t) => t.name === 'Read')) return p;
  }
  return null;
}
