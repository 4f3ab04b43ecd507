// What a Skill call puts into the conversation (memory spec B8, measured again for sessions): the
// SKILL.md body with its frontmatter stripped and the arguments substituted, after a base directory
// line; a legacy command has no base directory line. `` !`cmd` `` is run by Claude Code when the skill
// loads: the engine never runs it, keeps the command in the text and reports it as unknown.
import { decodeUtf8 } from '../instructions/content.js';
import type { Environment } from '../environment.js';
import { SKILL_ALREADY_LOADED, SKILL_ARGUMENTS_TAIL, SKILL_BASE_DIR_PREFIX, SKILL_LOADED_EARLIER, SKILL_REINVOKED, SKILL_REINVOKED_AFTER_CUT } from '../format-strings.js';
import { parseFrontmatter } from '../instructions/frontmatter.js';
import type { ClaudeProfile } from '../profiles.js';
import type { SkillDef } from '../skills/index.js';

const MAX_SKILL_BYTES = 4 * 1024 * 1024;
const MAX_ARGS = 1000;

export interface SkillBody {
  /** the text block after `Launching skill: NAME`, as Claude Code sends it (with unknown parts left as written) */
  text: string;
  /** `` !`cmd` `` commands whose output Claude Code would put in their place: the engine does not run them */
  unknownCommands: string[];
  /** `${CLAUDE_SESSION_ID}` was used: its value differs per session */
  usesSessionId: boolean;
  /** frontmatter `context: fork`: the skill runs as a subagent of this type instead */
  fork?: { agent: string };
}

/** shell-like split: whitespace separates, quotes group and are removed */
export function splitArgs(args: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | undefined;
  let any = false;
  for (const ch of args) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      any = true;
    } else if (/\s/.test(ch)) {
      if (cur || any) out.push(cur);
      cur = '';
      any = false;
      if (out.length >= MAX_ARGS) break;
    } else cur += ch;
  }
  if (cur || any) out.push(cur);
  return out;
}

export function substitute(body: string, args: string, skillDir: string | undefined): string {
  const parts = splitArgs(args);
  // $0, $1… count as placeholders too (measured: no ARGUMENTS: tail then)
  const hasPlaceholder = /\$ARGUMENTS|\$\d/.test(body);
  let t = body
    .replace(/\$ARGUMENTS\[(\d+)\]/g, (_m, n: string) => parts[Number(n)] ?? '')
    .replace(/\$ARGUMENTS/g, () => args)
    .replace(/\$(\d+)/g, (_m, n: string) => parts[Number(n)] ?? '');
  if (skillDir !== undefined) t = t.replace(/\$\{CLAUDE_SKILL_DIR\}/g, () => skillDir);
  if (!hasPlaceholder && args) t += SKILL_ARGUMENTS_TAIL(args);
  return t;
}

export function skillBody(env: Environment, profile: ClaudeProfile, def: SkillDef, args: string): SkillBody | undefined {
  if (!def.path) return undefined;
  const r = env.fs.readFile(def.path, MAX_SKILL_BYTES);
  if (!r.ok) return undefined;
  const fm = parseFrontmatter(decodeUtf8(r.value), profile.stripBomBeforeFrontmatter);
  const context = fm.data.context;
  const agent = typeof fm.data.agent === 'string' && fm.data.agent ? fm.data.agent : 'general-purpose';
  const body = substitute(fm.body, args, def.dir);
  const unknownCommands = [...body.matchAll(/!`([^`\n]+)`/g)].map((m) => m[1]!);
  const text = def.source === 'command' || !def.dir ? body : `${SKILL_BASE_DIR_PREFIX}${def.dir}\n\n${body}`;
  return { text, unknownCommands, usesSessionId: body.includes('${CLAUDE_SESSION_ID}'), ...(context === 'fork' && { fork: { agent } }) };
}

/** what the conversation holds of a skill when it is called (since the start, the last compaction or /clear) */
export interface PriorCopy {
  /** the body it was last given in the conversation since then */
  last?: string;
  /** the body the last compaction brought back whole (its invoked-skills section) */
  restored?: string;
  /** the last compaction brought it back cut (over the per-skill limit) */
  cut: boolean;
}

export interface Invocation {
  status: 'loaded' | 'reinvoked' | 'already-loaded' | 'loaded-earlier';
  /** what the call puts into the conversation after `Launching skill: NAME` */
  text: string;
}

/**
 * The re-invocation rule (measured the same on 2.1.235, 2.1.328, 2.1.332, 2.1.333, 2.1.334 and 2.1.335; docs/session.md):
 * Claude Code compares the body a call renders (arguments, `${CLAUDE_SKILL_DIR}` and `` !`cmd` `` output filled in,
 * an `ARGUMENTS:` tail when the body has no placeholder) with the copy the conversation holds.
 * - no copy held (first call, after /clear, or not brought back by a compaction): the body;
 * - the same body: one line instead of it, "already loaded" (the copy is a message) or "loaded earlier" (the copy is
 *   in a compaction's invoked-skills section), naming the arguments;
 * - another body: a re-invocation line, then the whole body (also without a placeholder: the `ARGUMENTS:` tail
 *   differs); when the held copy is one a compaction cut, the line says so, with the same arguments too.
 */
export function invocation(name: string, args: string, body: string, prior: PriorCopy): Invocation {
  if (prior.last === body) return { status: 'already-loaded', text: SKILL_ALREADY_LOADED(name, args) };
  const cut = prior.last === undefined && prior.cut;
  if (prior.last === undefined && !cut && prior.restored === body) return { status: 'loaded-earlier', text: SKILL_LOADED_EARLIER(name, args) };
  const line = cut ? SKILL_REINVOKED_AFTER_CUT(name) : prior.last !== undefined || prior.restored !== undefined ? SKILL_REINVOKED(name) : '';
  return { status: line ? 'reinvoked' : 'loaded', text: (line + body).trimEnd() };
}
