// The user's hooks, as steps of the session whose output joins the context: the engine never runs
// them, so their size is unknown; it says where they fire and which command they name. Read from
// every settings source Claude Code reads (policy, user, project, local, --settings).
import type { Settings, SettingsLayerName } from '../settings.js';

export type HookEvent = 'SessionStart' | 'UserPromptSubmit' | 'PostToolUse';
const EVENTS: readonly HookEvent[] = ['SessionStart', 'UserPromptSubmit', 'PostToolUse'];
const MAX_HOOKS = 200;

export interface HookDef {
  event: HookEvent;
  /** PostToolUse: tool names (a `|` list or a regular expression); SessionStart: startup, clear, compact, resume */
  matcher?: string;
  command: string;
  layer: SettingsLayerName;
  file: string;
}

export interface HookStep {
  event: HookEvent;
  command: string;
  matcher?: string;
  file: string;
  /** what Claude Code does with the command's standard output */
  effect: string;
}

export function readHooks(settings: Settings): HookDef[] {
  const out: HookDef[] = [];
  for (const layer of settings.layers) {
    const hooks = layer.data.hooks;
    if (!hooks || typeof hooks !== 'object' || Array.isArray(hooks)) continue;
    for (const event of EVENTS) {
      const groups = (hooks as Record<string, unknown>)[event];
      if (!Array.isArray(groups)) continue;
      for (const g of groups) {
        if (!g || typeof g !== 'object') continue;
        const { matcher, hooks: list } = g as { matcher?: unknown; hooks?: unknown };
        if (!Array.isArray(list)) continue;
        for (const h of list) {
          if (out.length >= MAX_HOOKS) return out;
          const cmd = h && typeof h === 'object' ? (h as { type?: unknown; command?: unknown }) : undefined;
          if (cmd?.type !== 'command' || typeof cmd.command !== 'string') continue;
          out.push({ event, matcher: typeof matcher === 'string' && matcher !== '' ? matcher : undefined, command: cmd.command, layer: layer.name, file: layer.path });
        }
      }
    }
  }
  return out;
}

/** does a PostToolUse / SessionStart matcher select `value` (a `|` list of names, `*`, or a pattern) */
export function hookMatches(matcher: string | undefined, value: string): boolean {
  if (matcher === undefined || matcher === '*') return true;
  if (/^[A-Za-z0-9_|]+$/.test(matcher)) return matcher.split('|').includes(value);
  if (matcher.length > 200) return false;
  try {
    return new RegExp(`^(?:${matcher})$`).test(value);
  } catch {
    return false;
  }
}

const EFFECT: Record<HookEvent, string> = {
  SessionStart: 'its output is added to the context when the session starts (and after /clear or /compact)',
  UserPromptSubmit: 'its output is added to the context with the prompt',
  PostToolUse: 'a JSON additionalContext it prints is added after the tool result (plain output is recorded, not sent)',
};

export function hookSteps(hooks: HookDef[], event: HookEvent, value: string): HookStep[] {
  return hooks
    .filter((h) => h.event === event && (event === 'UserPromptSubmit' || hookMatches(h.matcher, value)))
    .map((h) => ({ event, command: h.command, matcher: h.matcher, file: h.file, effect: EFFECT[event] }));
}
