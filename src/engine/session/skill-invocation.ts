// What a Skill call puts into the conversation (memory spec B8, measured again for sessions): the
// SKILL.md body with its frontmatter stripped and the arguments substituted, after a base directory
// line; a legacy command has no base directory line. `` !`cmd` `` is run by Claude Code when the skill
// loads: the engine never runs it, keeps the command in the text and reports it as unknown.
import { decodeUtf8 } from '../instructions/content.js';
import type { Environment } from '../environment.js';
import { SKILL_ARGUMENTS_TAIL, SKILL_BASE_DIR_PREFIX } from '../format-strings.js';
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
