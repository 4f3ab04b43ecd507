// The exact request text: the startup section and its wrapper per version, and lazy wrappers.
import {
  AGENTS_HOOK_PREFIX, CLAUDE_MD_SECTION, CONTEXT_REMINDER_HEAD, CURRENT_DATE_SECTION, PREAMBLE,
  SYSTEM_REMINDER_CLOSE, SYSTEM_REMINDER_OPEN,
} from '../format-strings.js';
import type { InstructionEntry, LazyInjection } from '../model.js';
import type { ClaudeProfile } from '../profiles.js';

/** preamble + `\n\n` + entries joined by `\n\n` (no wrapper); undefined when nothing loads */
export function renderStartupSection(entries: InstructionEntry[]): string | undefined {
  if (entries.length === 0) return undefined;
  return `${PREAMBLE}\n\n${entries.map((e) => e.text).join('\n\n')}`;
}

/** the startup instructions as they stand in the request body, with the version's wrapper */
export function renderStartupBlock(profile: ClaudeProfile, entries: InstructionEntry[], date: string): string | undefined {
  const section = renderStartupSection(entries);
  if (profile.startupPlacement === 'own-reminder') return section === undefined ? undefined : `${SYSTEM_REMINDER_OPEN}${section}${SYSTEM_REMINDER_CLOSE}`;
  const head = `${CONTEXT_REMINDER_HEAD}${section === undefined ? '' : `${CLAUDE_MD_SECTION}${section}\n`}`;
  return `${head}${CURRENT_DATE_SECTION}Today's date is ${date}.\n\n      IMPORTANT: this context may or may not be relevant to your tasks. You should not respond to this context unless it is highly relevant to your task.\n</system-reminder>\n\n`;
}

/** lazy injections of one tool call as sent: per-file reminders (328) or one system message (235) */
export function renderLazy(profile: ClaudeProfile, injected: LazyInjection[]): string[] {
  if (injected.length === 0) return [];
  if (profile.lazyPlacement === 'reminder-per-file') {
    const plain = injected.filter((i) => !i.viaHook);
    const hook = injected.filter((i) => i.viaHook);
    const blocks = plain.map((i, k) => `${SYSTEM_REMINDER_OPEN}${i.text}${SYSTEM_REMINDER_CLOSE}${k < plain.length - 1 ? '\n' : ''}`);
    // nested AGENTS.md come as one role:system message after the tool result, entries joined by "\n"
    if (hook.length) blocks.push(`${AGENTS_HOOK_PREFIX}${hook.map((i) => i.text).join('\n')}`);
    return blocks;
  }
  return [injected.map((i) => i.text).join('\n\n')];
}
