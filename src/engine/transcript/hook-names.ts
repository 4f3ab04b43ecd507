// A hook run the transcript records without its command: a UserPromptSubmit or SessionStart hook that
// printed JSON `additionalContext` is written as a `hook_additional_context` attachment alone, naming
// the event and not the command (measured on 2.1.235 to 2.1.335, docs/session.md). When the launch
// folder's settings, as they are now, hold exactly one command hook for that event, the run is named
// after it and marked so (`commandFrom: 'settings'`); with none or several, it stays unnamed: a guess
// between two commands would be a wrong answer shown as a fact.
import { readHooks } from '../session/hooks.js';
import type { Settings } from '../settings.js';
import type { LiveTurn } from './replay.js';

export function nameUnnamedHooks(turns: readonly LiveTurn[], settings: Settings): void {
  let byEvent: Map<string, string[]> | undefined;
  for (const t of turns) {
    for (const h of t.hooks ?? []) {
      if (h.command !== '') continue;
      if (!byEvent) {
        byEvent = new Map();
        for (const d of readHooks(settings)) {
          const list = byEvent.get(d.event) ?? [];
          if (!list.includes(d.command)) list.push(d.command);
          byEvent.set(d.event, list);
        }
      }
      const commands = byEvent.get(h.event);
      if (commands?.length === 1) {
        h.command = commands[0]!;
        h.commandFrom = 'settings';
      }
    }
  }
}
