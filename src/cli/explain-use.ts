// `claude-layers explain [FILE] --skill NAME [--args TEXT]` and `--agent TYPE`: what using a skill or
// starting a subagent would cost, from the session model (a one-turn session: a Read of FILE when one
// is given, then the Skill or Agent call), in the terminal and in `--json` as `use`.
import { grouped, simulateSession, type CallResult, type EngineOptions } from '../engine/index.js';
import { one, type FlagSpec, type ParsedArgs } from './args.js';
import { safe, type Style } from './style.js';

export const USE_FLAGS: Record<string, FlagSpec> = { skill: { value: true }, args: { value: true }, agent: { value: true } };

export interface UseJson {
  kind: 'skill' | 'agent';
  name: string;
  /** the call fails in Claude Code (unknown skill, disable-model-invocation, unknown agent type) */
  error: string | null;
  /** skill: the body block sent after `Launching skill:`; agent: the instructions block of its first request */
  text: string | null;
  chars: number;
  tokens: number;
  /** skill: `` !`cmd` `` whose output Claude Code puts in (the engine does not run them) */
  unknownCommands: string[];
  /** skill with context: fork, or agent: the subagent type and whether it gets the instruction files */
  subagent: null | { type: string; getsInstructions: boolean; systemPromptChars: number | null };
  /** agent: files the main session got lazily (FILE's injections) that the subagent does not get */
  notGiven: string[];
}

export function explainUse(p: ParsedArgs, options: EngineOptions, file: string | undefined, charsPerToken: number): UseJson | null {
  const skill = one(p, 'skill');
  const agent = one(p, 'agent');
  if (skill === undefined && agent === undefined) return null;
  const calls: { name: string; input: Record<string, unknown> }[] = [];
  if (file) calls.push({ name: 'Read', input: { file_path: file } });
  if (skill !== undefined) calls.push({ name: 'Skill', input: { skill, ...(one(p, 'args') !== undefined && { args: one(p, 'args') }) } });
  else calls.push({ name: 'Agent', input: { subagent_type: agent, prompt: '', description: '' } });
  const r = simulateSession(options, [{ prompt: 'explain', calls }]);
  const c: CallResult | undefined = r.turns[0]?.calls[calls.length - 1];
  if (!c) return null;
  const text = skill !== undefined ? c.skillBody : (c.agent?.instructions ?? null);
  const chars = text?.length ?? 0;
  const injected = file ? (r.turns[0]!.calls[0]!.injected.map((i) => i.path)) : [];
  return {
    kind: skill !== undefined ? 'skill' : 'agent',
    name: skill ?? agent!,
    error: c.error ?? null,
    text,
    chars,
    tokens: Math.ceil(chars / charsPerToken),
    unknownCommands: c.skill?.unknownCommands ?? [],
    subagent: c.agent ? { type: c.agent.type, getsInstructions: c.agent.instructions !== null, systemPromptChars: c.agent.systemPromptChars ?? null } : null,
    notGiven: c.agent ? injected : [],
  };
}

export function renderUse(u: UseJson, style: Style, display: (p: string) => string): string {
  const n = grouped;
  const out: string[] = ['', style.bold(u.kind === 'skill' ? `Using the skill ${safe(u.name)}` : `Starting ${/^[AEIOU]/i.test(u.name) ? "an" : "a"} ${safe(u.name)} subagent`)];
  if (u.error) {
    out.push(`  ${style.red('fails')}: ${safe(u.error)}`);
    return out.join('\n');
  }
  if (u.kind === 'skill') {
    if (u.subagent) out.push(`  context: fork — runs as a ${safe(u.subagent.type)} subagent; ${u.subagent.getsInstructions ? 'it gets the startup instructions' : 'it gets no instruction file'}`);
    else out.push(`  adds ${n(u.chars)} chars (≈${n(u.tokens)} tokens): the skill's body after "Launching skill: ${safe(u.name)}", once per session (a second call gets a one-line "already loaded")`);
    for (const c of u.unknownCommands) out.push(`  ${style.yellow('unknown')}: !\`${safe(c)}\` runs when the skill loads; its output is not predicted`);
  } else if (u.subagent) {
    out.push(
      u.subagent.getsInstructions
        ? `  its first request carries the startup instructions: ${n(u.chars)} chars (≈${n(u.tokens)} tokens), as the session started (later edits are not in them)`
        : '  its first request carries no instruction file: no CLAUDE.md, no rules',
    );
    if (u.subagent.systemPromptChars !== null) out.push(`  its own system prompt: the agent file's body, ${n(u.subagent.systemPromptChars)} chars`);
    for (const p of u.notGiven) out.push(`  ${style.dim('not given')}: ${safe(display(p))} (the main session got it when the file was read)`);
  }
  return out.join('\n');
}
