// The session script: the format of ../shared/oracle/session.mjs's TURNS.json. Each turn: optional
// `before` edits on disk (between turns), the user's `prompt` (a slash command such as /compact or
// /clear is a prompt too), and the model's scripted tool `calls`. Read from an untrusted file: every
// problem is reported, nothing throws.

export type SessionEdit = { write: string; content: string } | { delete: string };

export interface SessionCall {
  name: string;
  input: Record<string, unknown>;
}

/** tokens the main loop's answers in a turn report (the stand-in's `usage`): how close the context is to its window */
export interface SessionUsage {
  input: number;
  cacheRead: number;
  cacheCreation: number;
}

export interface SessionTurn {
  before: SessionEdit[];
  prompt: string;
  calls: SessionCall[];
  /** the usage each main-loop answer of this turn reports; absent: a small one (the stand-in's 10 input tokens) */
  usage?: SessionUsage;
  /** the claude process ends before this turn and a new one goes on with the session (`--continue`, `--resume ID`) */
  restart?: 'continue' | 'resume';
}

/** bounds on a script, so that a hostile file cannot make the engine work without end */
export const MAX_TURNS = 500;
export const MAX_CALLS_PER_TURN = 500;
export const MAX_EDITS_PER_TURN = 500;
export const MAX_EDIT_CHARS = 4 * 1024 * 1024;
/** over the whole script: every edit and every Edit/Write re-reads the tree, so these bound the work */
export const MAX_TOTAL_CALLS = 2000;
export const MAX_TOTAL_EDITS = 1000;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** the items of one turn's list, within the per-turn cap and what is left of the script's total */
function boundedList<T>(
  v: unknown,
  key: string,
  where: string,
  perTurn: number,
  left: { n: number; max: number; what: string },
  problems: string[],
  take: (x: unknown) => T | undefined,
  shape: string,
): T[] {
  const out: T[] = [];
  if (v === undefined) return out;
  if (!Array.isArray(v)) {
    problems.push(`${where}: "${key}" must be a list`);
    return out;
  }
  for (const x of v.slice(0, perTurn)) {
    if (left.n >= left.max) {
      problems.push(`${where}: past ${left.max} ${left.what} in the script; the rest are left out`);
      break;
    }
    left.n++;
    const item = take(x);
    if (item === undefined) problems.push(`${where}: ${shape}`);
    else out.push(item);
  }
  return out;
}

export function parseTurns(value: unknown): { turns: SessionTurn[]; problems: string[] } {
  const problems: string[] = [];
  const turns: SessionTurn[] = [];
  const edits = { n: 0, max: MAX_TOTAL_EDITS, what: 'edits' };
  const calls = { n: 0, max: MAX_TOTAL_CALLS, what: 'calls' };
  if (!Array.isArray(value)) return { turns, problems: ['the session script must be a JSON list of turns'] };
  if (value.length > MAX_TURNS) problems.push(`the session script has ${value.length} turns; only the first ${MAX_TURNS} are simulated`);
  value.slice(0, MAX_TURNS).forEach((t, i) => {
    const where = `turn ${i + 1}`;
    if (!isObject(t)) return problems.push(`${where}: not an object`);
    if (typeof t.prompt !== 'string') problems.push(`${where}: "prompt" must be a string`);
    const before = boundedList<SessionEdit>(t.before, 'before', where, MAX_EDITS_PER_TURN, edits, problems, (e) => {
      if (isObject(e) && typeof e.write === 'string' && typeof e.content === 'string' && e.content.length <= MAX_EDIT_CHARS) return { write: e.write, content: e.content };
      if (isObject(e) && typeof e.delete === 'string') return { delete: e.delete };
      return undefined;
    }, `an edit must be {"write": PATH, "content": TEXT} (at most ${MAX_EDIT_CHARS} characters) or {"delete": PATH}`);
    if (i === 0 && before.length) problems.push('turn 1: a "before" list on the first turn is applied before the session starts');
    const list = boundedList<SessionCall>(t.calls, 'calls', where, MAX_CALLS_PER_TURN, calls, problems, (c) => (isObject(c) && typeof c.name === 'string' && isObject(c.input) ? { name: c.name, input: c.input } : undefined), 'a call must be {"name": TOOL, "input": {…}}');
    let usage: SessionUsage | undefined;
    if (t.usage !== undefined) {
      const u = isObject(t.usage) ? t.usage : undefined;
      const n = (k: string) => (u && typeof u[k] === 'number' && Number.isFinite(u[k]) && u[k] >= 0 ? Math.floor(u[k]) : u && u[k] === undefined ? 0 : undefined);
      const [input, cacheRead, cacheCreation] = [n('input'), n('cacheRead'), n('cacheCreation')];
      if (input === undefined || cacheRead === undefined || cacheCreation === undefined) problems.push(`${where}: "usage" must be {"input": N, "cacheRead": N, "cacheCreation": N} (token counts, none negative)`);
      else usage = { input, cacheRead, cacheCreation };
    }
    let restart: SessionTurn['restart'];
    if (t.restart !== undefined) {
      if (t.restart !== 'continue' && t.restart !== 'resume') problems.push(`${where}: "restart" must be "continue" or "resume"`);
      else if (i === 0) problems.push('turn 1: the first turn cannot restart (there is no session yet)');
      else restart = t.restart;
    }
    turns.push({ before, prompt: typeof t.prompt === 'string' ? t.prompt : '', calls: list, ...(usage && { usage }), ...(restart && { restart }) });
  });
  return { turns, problems };
}

/** local commands measured in a `-p` session (2.1.235 to 2.1.335, docs/session.md): they send no request of their
 *  own (`/context` only counts tokens); what they print joins the conversation with the next prompt's request */
const LOCAL_COMMANDS = new Set(['cost', 'usage', 'status', 'context']);

/** `/compact`, `/clear` and the measured local commands (with or without arguments); any other prompt, a custom
 *  command's included, is a user message */
export function slashCommand(prompt: string): 'compact' | 'clear' | 'local' | undefined {
  const m = /^\/([\w-]+)(?:\s|$)/.exec(prompt.trim());
  if (!m) return undefined;
  if (m[1] === 'compact' || m[1] === 'clear') return m[1];
  return LOCAL_COMMANDS.has(m[1]!) ? 'local' : undefined;
}
