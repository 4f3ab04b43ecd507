// The model table the skills budget depends on: which model a session runs, its context window, and
// how many bytes Claude Code assumes per token (memory spec B7, measured on both binaries with an
// 80-skill listing: every model below reproduces the demotions the CLI made).
//
//   budget = SLASH_COMMAND_TOOL_CHAR_BUDGET (a positive integer)
//          | max(1, floor(contextWindow × bytesPerToken × (skillListingBudgetFraction ?? 0.01)))
import type { Environment } from '../environment.js';
import type { ClaudeProfile } from '../profiles.js';
import type { Settings } from '../settings.js';

/** Models counted at 4 bytes per token (every other model: 3). Same list in 2.1.235 and 2.1.328. */
export const FOUR_BYTES_PER_TOKEN = new Set([
  'claude-3-opus', 'claude-3-sonnet', 'claude-3-haiku', 'claude-3-5-sonnet', 'claude-3-5-haiku', 'claude-3-7-sonnet',
  'claude-opus-4-0', 'claude-opus-4-1', 'claude-opus-4-5', 'claude-opus-4-6',
  'claude-sonnet-4-0', 'claude-sonnet-4-5', 'claude-sonnet-4-6', 'claude-haiku-4-5',
]);

/** Old Opus 4 ids that both versions replace by their `opus` alias unless CLAUDE_CODE_DISABLE_LEGACY_MODEL_REMAP is set. */
const REMAPPED_TO_OPUS = new Set(['claude-opus-4-20250514', 'claude-opus-4-1-20250805', 'claude-opus-4-0', 'claude-opus-4-1']);

export const LEGACY_CONTEXT_WINDOW = 200_000;
export const ONE_MILLION_CONTEXT_WINDOW = 1_000_000;
export const DEFAULT_BUDGET_FRACTION = 0.01;

export interface ModelChoice {
  /** as given (flag, environment, setting) or the version's default */
  requested: string;
  /** where it came from */
  from: '--model' | 'ANTHROPIC_MODEL' | 'model setting' | 'default';
  /** after alias resolution and the legacy Opus remap: the model the request names (plus `[1m]`) */
  resolved: string;
  /** canonical family id, e.g. `claude-haiku-4-5` */
  canonical: string;
  contextWindow: number;
  bytesPerToken: 3 | 4;
}

const ONE_M = /\[1m\]$/i;

/** `us.anthropic.claude-haiku-4-5-20251001-v1:0` → `claude-haiku-4-5`; `claude-sonnet-4-20250514` → `claude-sonnet-4-0` */
export function canonicalModel(id: string): string {
  let m = id.trim().toLowerCase().replace(/(\[1m\])+$/, '');
  m = m.replace(/^(?:[a-z]{2,6}\.)?anthropic\./, ''); // Bedrock: `us.anthropic.…`, `anthropic.…`
  m = m.replace(/-v\d+(?::\d+)?$/, ''); // Bedrock version suffix
  m = m.replace(/@\d{8}$/, ''); // Vertex: `claude-sonnet-4@20250514`
  m = m.replace(/-(?:\d{8}|latest)$/, '');
  m = m.replace(/[._]/g, '-');
  if (/^claude-(?:opus|sonnet)-4$/.test(m)) m += '-0';
  return m;
}

/** Claude 3 and 4 models: the older system prompt (longer `# auto memory` section) and the skills
 *  listing in a system reminder of the first user message instead of a role-system message. */
export function usesLegacyPrompt(canonical: string): boolean {
  return /^claude-(?:[34](?:-\d+)?-(?:opus|sonnet|haiku)|(?:opus|sonnet|haiku)-[34])(?:-|$)/.test(canonical);
}

export function resolveModel(env: Environment, settings: Settings, profile: ClaudeProfile): ModelChoice {
  let requested: string | undefined;
  let from: ModelChoice['from'] = 'default';
  if (env.model?.trim()) (requested = env.model), (from = env.env.ANTHROPIC_MODEL === env.model ? 'ANTHROPIC_MODEL' : '--model');
  else if (env.env.ANTHROPIC_MODEL?.trim()) (requested = env.env.ANTHROPIC_MODEL), (from = 'ANTHROPIC_MODEL');
  else {
    const s = settings.get<unknown>('model');
    if (typeof s?.value === 'string' && s.value.trim()) (requested = s.value), (from = 'model setting');
  }
  requested ??= profile.skills.defaultModel;
  const aliases = profile.skills.modelAliases;
  const lower = requested.trim().toLowerCase();
  const wants1m = ONE_M.test(lower);
  const bare = lower.replace(/(\[1m\])+$/, '');
  let resolved = Object.prototype.hasOwnProperty.call(aliases, bare) ? aliases[bare]! : requested.trim();
  if (wants1m && !ONE_M.test(resolved)) resolved += '[1m]';
  const noSuffix = resolved.replace(ONE_M, '');
  if (REMAPPED_TO_OPUS.has(noSuffix.toLowerCase()) && !env.env.CLAUDE_CODE_DISABLE_LEGACY_MODEL_REMAP) {
    resolved = aliases.opus ?? resolved;
    if (wants1m && !ONE_M.test(resolved)) resolved += '[1m]';
  }
  const canonical = canonicalModel(resolved);
  const bytesPerToken = FOUR_BYTES_PER_TOKEN.has(canonical) ? 4 : 3;
  const contextWindow = ONE_M.test(resolved) ? ONE_MILLION_CONTEXT_WINDOW : bytesPerToken === 4 ? LEGACY_CONTEXT_WINDOW : profile.skills.defaultContextWindow;
  return { requested, from, resolved, canonical, contextWindow, bytesPerToken };
}

export interface ListingBudget {
  budget: number;
  from: 'SLASH_COMMAND_TOOL_CHAR_BUDGET' | 'model';
  fraction: number;
  model: ModelChoice;
}

/** A positive integer, as Claude Code reads SLASH_COMMAND_TOOL_CHAR_BUDGET (anything else is ignored). */
function positiveInt(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number.parseInt(v.trim(), 10);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

export function listingBudget(env: Environment, settings: Settings, profile: ClaudeProfile): ListingBudget {
  const model = resolveModel(env, settings, profile);
  const f = settings.get<unknown>('skillListingBudgetFraction')?.value;
  const fraction = typeof f === 'number' && Number.isFinite(f) ? f : DEFAULT_BUDGET_FRACTION;
  const fromEnv = positiveInt(env.env.SLASH_COMMAND_TOOL_CHAR_BUDGET);
  if (fromEnv !== undefined) return { budget: fromEnv, from: 'SLASH_COMMAND_TOOL_CHAR_BUDGET', fraction, model };
  return { budget: Math.max(1, Math.floor(model.contextWindow * model.bytesPerToken * fraction)), from: 'model', fraction, model };
}
