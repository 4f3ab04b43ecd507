// The context window and the auto-compaction threshold of a recorded session, from evidence: the model's facts on
// the profile, then what the session itself shows. `message.model` never carries `[1m]`, so a session whose usage went
// past the model's 200,000 window ran on a 1,000,000 one; a `[1m]` model in the settings or ANTHROPIC_MODEL says the
// same. A version with a profile of its own compacts by the measured rule (session/auto-compact.ts); one older than
// every profile by 2.1.235's formula for every model (profiles.ts, BEFORE_PROFILES_AUTO_COMPACT). Whatever the rule
// says, a `compact_boundary` of trigger `auto` at N tokens means the threshold is at most N.
import type { Environment } from '../environment.js';
import { isTruthyEnv } from '../environment.js';
import { BEFORE_PROFILES_AUTO_COMPACT, chooseProfile, type ClaudeProfile } from '../profiles.js';
import { autoCompactRule } from '../session/auto-compact.js';
import type { Settings } from '../settings.js';
import { canonicalModel, modelFacts } from '../skills/models.js';

export interface ContextEvidence {
  tokens: number;
  window: number;
  /** where the window comes from (always set here; optional for callers that build one by hand) */
  windowWhy?: string;
  model: string;
  /** tokens ÷ window, never over 1 */
  fraction: number;
  autoCompactAt: number | null;
  autoCompactWhy?: string;
}

export interface WindowInput {
  model: string;
  /** the version that wrote the transcript */
  version?: string;
  profile: ClaudeProfile;
  /** the last request's context (input + cache read + cache creation) */
  tokens: number;
  /** the largest context any request of the session reported, compactions' preTokens included */
  maxTokens: number;
  /** preTokens of every compaction Claude Code made on its own in the session */
  autoCompactions: readonly number[];
  /** the analysis's environment and settings (DISABLE_AUTO_COMPACT, CLAUDE_CODE_AUTO_COMPACT_WINDOW, ANTHROPIC_MODEL, `model`) */
  env?: Environment;
  settings?: Settings;
}

const ONE_M = /\[1m\]$/i;
const n = (x: number) => x.toLocaleString('en-US');

export function contextEvidence(o: WindowInput): ContextEvidence {
  const base = modelFacts(o.model, o.profile);
  const one = o.profile.models.oneMillionContextWindow;
  const same = (id: string | undefined) => !!id && ONE_M.test(id.trim()) && canonicalModel(modelFacts(id, o.profile).resolved) === base.canonical;
  const settingModel = o.settings?.get<unknown>('model')?.value;
  let window = base.contextWindow;
  let windowWhy = `the context window of ${o.model}`;
  let m = base;
  if (window < one && o.maxTokens > window) {
    window = one;
    windowWhy = `the session's own usage reached ${n(o.maxTokens)} tokens, past ${n(base.contextWindow)}: a 1M context (the transcript's model id never carries [1m])`;
  } else if (window < one && same(o.env?.env.ANTHROPIC_MODEL)) {
    window = one;
    windowWhy = `ANTHROPIC_MODEL names ${o.env!.env.ANTHROPIC_MODEL} (as the environment is now)`;
  } else if (window < one && typeof settingModel === 'string' && same(settingModel)) {
    window = one;
    windowWhy = `the model setting names ${settingModel} (as the settings are now)`;
  }
  if (window === one && !ONE_M.test(base.resolved)) m = modelFacts(`${o.model}[1m]`, o.profile);
  // the rule: measured for a profiled version (and newer ones, on the nearest profile), else 2.1.235's formula for every model
  const choice = chooseProfile(o.version);
  let at: number | null;
  let why: string;
  if (choice.fallback?.why === 'older') {
    const b = BEFORE_PROFILES_AUTO_COMPACT;
    if (o.env && isTruthyEnv(o.env.env.DISABLE_AUTO_COMPACT)) {
      at = null;
      why = 'DISABLE_AUTO_COMPACT is set (as the environment is now)';
    } else {
      at = Math.max(0, window - b.reserveTokens - b.bufferTokens);
      why = `${o.version ?? 'this version'} is older than every profile (not measured): the window less ${n(b.reserveTokens)} and ${n(b.bufferTokens)} as on ${b.before}, every model included (sessions of ${b.seen.versions} compacted on their own at ${n(b.seen.preTokens[0])} to ${n(b.seen.preTokens[1])} tokens)`;
    }
  } else {
    const env: Environment = o.env ?? ({ env: {} } as Environment);
    const rule = autoCompactRule(env, o.profile, { ...m, contextWindow: window });
    at = rule.threshold ?? null;
    why = rule.why;
  }
  const seen = o.autoCompactions.length ? Math.min(...o.autoCompactions) : undefined;
  if (seen !== undefined && (at === null || at > seen)) {
    why = `at most ${n(seen)}: this session compacted on its own at ${n(seen)} tokens (compact_boundary, trigger auto), which the rule (${why}) does not account for`;
    at = seen;
  }
  return { tokens: o.tokens, window, windowWhy, model: o.model, fraction: window > 0 ? Math.min(1, o.tokens / window) : 0, autoCompactAt: at, autoCompactWhy: why };
}
