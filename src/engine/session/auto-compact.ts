// When Claude Code compacts a conversation on its own (measured with the session driver's reported usage on
// 2.1.235, 2.1.328, 2.1.332 and 2.1.333; docs/session.md): the token count the last answer reported against
// the model's window less the output reserve and a buffer, from the profile.
import { isTruthyEnv, type Environment } from '../environment.js';
import type { ClaudeProfile } from '../profiles.js';
import type { ModelChoice } from '../skills/index.js';

export interface AutoCompactRule {
  /** the token count at or past which the next main-loop request is preceded by a compaction; undefined: never */
  threshold: number | undefined;
  /** the window it is taken from */
  window: number;
  /** why there is no threshold, or where the window came from */
  why: string;
  midTurn: 'compact' | 'stop';
}

export function autoCompactRule(env: Environment, profile: ClaudeProfile, model: ModelChoice): AutoCompactRule {
  const a = profile.session.autoCompact;
  const rule = (window: number, why: string, on: boolean): AutoCompactRule => ({ threshold: on ? Math.max(0, window - a.reserveTokens - a.bufferTokens) : undefined, window, why, midTurn: a.midTurn });
  if (isTruthyEnv(env.env.DISABLE_AUTO_COMPACT)) return rule(model.contextWindow, 'DISABLE_AUTO_COMPACT is set: no auto-compaction (a request past the window fails with "Prompt is too long")', false);
  const fromEnv = Number(env.env.CLAUDE_CODE_AUTO_COMPACT_WINDOW);
  if (env.env.CLAUDE_CODE_AUTO_COMPACT_WINDOW && Number.isFinite(fromEnv) && fromEnv > 0) return rule(Math.floor(fromEnv), 'the window CLAUDE_CODE_AUTO_COMPACT_WINDOW gives', true);
  if (model.bytesPerToken === 4 || /\[1m\]$/i.test(model.resolved))
    return rule(model.contextWindow, `${model.resolved}: measured not to compact on its own at any usage (set CLAUDE_CODE_AUTO_COMPACT_WINDOW to give it a window)`, false);
  return rule(model.contextWindow, `the context window of ${model.resolved}`, true);
}
