// Which model a session runs, its context window, and how many characters Claude Code assumes per token
// (memory spec B7), from the profile's model table (`profile.models`, measured with measure-models.ts).
// The engine, the CLI gauges and the editor all read these figures from here.
//
//   budget = SLASH_COMMAND_TOOL_CHAR_BUDGET (a positive integer)
//          | max(1, floor(contextWindow × bytesPerToken × (skillListingBudgetFraction ?? 0.01)))
import type { Environment } from '../environment.js';
import { THINKING_KEPT_ACROSS_TURNS, type ClaudeProfile } from '../profiles.js';
import type { Settings } from '../settings.js';

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
  /** the model's facts were measured on the binary (an alias, the default, or an id of `profile.models.measured`
   *  or `fourCharsPerToken`); false: an unknown id, predicted with the rules for every other model */
  measured: boolean;
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
  if (env.model?.trim()) {
    requested = env.model;
    from = env.env.ANTHROPIC_MODEL === env.model ? 'ANTHROPIC_MODEL' : '--model';
  } else if (env.env.ANTHROPIC_MODEL?.trim()) {
    requested = env.env.ANTHROPIC_MODEL;
    from = 'ANTHROPIC_MODEL';
  } else {
    const s = settings.get<unknown>('model');
    if (typeof s?.value === 'string' && s.value.trim()) {
      requested = s.value;
      from = 'model setting';
    }
  }
  requested ??= profile.models.defaultModel;
  return modelFacts(requested, profile, from, env.env.CLAUDE_CODE_DISABLE_LEGACY_MODEL_REMAP);
}

/** The facts of one model id (or alias) on a profile's version. */
export function modelFacts(requested: string, profile: ClaudeProfile, from: ModelChoice['from'] = '--model', disableRemap?: string): ModelChoice {
  const t = profile.models;
  const aliases = t.aliases;
  const lower = requested.trim().toLowerCase();
  const wants1m = ONE_M.test(lower);
  const bare = lower.replace(/(\[1m\])+$/, '');
  const isAlias = Object.prototype.hasOwnProperty.call(aliases, bare);
  let resolved = isAlias ? aliases[bare]! : requested.trim();
  if (wants1m && !ONE_M.test(resolved)) resolved += '[1m]';
  const noSuffix = resolved.replace(ONE_M, '');
  if (t.remappedToOpus.includes(noSuffix.toLowerCase()) && !disableRemap) {
    resolved = aliases.opus ?? resolved;
    if (wants1m && !ONE_M.test(resolved)) resolved += '[1m]';
  }
  const canonical = canonicalModel(resolved);
  const bytesPerToken = t.fourCharsPerToken.includes(canonical) ? 4 : 3;
  const contextWindow = ONE_M.test(resolved) ? t.oneMillionContextWindow : bytesPerToken === 4 ? t.legacyContextWindow : t.defaultContextWindow;
  const measured = isAlias || bytesPerToken === 4 || lower === t.defaultModel.toLowerCase() || t.measured.some((m) => canonicalModel(m) === canonical);
  return { requested, from, resolved, canonical, contextWindow, bytesPerToken, measured };
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
  const fraction = typeof f === 'number' && Number.isFinite(f) ? f : profile.models.listingBudgetFraction;
  const fromEnv = positiveInt(env.env.SLASH_COMMAND_TOOL_CHAR_BUDGET);
  if (fromEnv !== undefined) return { budget: fromEnv, from: 'SLASH_COMMAND_TOOL_CHAR_BUDGET', fraction, model };
  return { budget: Math.max(1, Math.floor(model.contextWindow * model.bytesPerToken * fraction)), from: 'model', fraction, model };
}

/** The model names worth offering for a version: its aliases, then the ids measured on its binary. */
export function knownModels(profile: ClaudeProfile): string[] {
  return [...new Set([...Object.keys(profile.models.aliases), ...profile.models.measured])];
}

/** does the model keep an answer's thinking in the context of the turns after its own (profiles.ts,
 *  THINKING_KEPT_ACROSS_TURNS: a family and the ids below it)? */
export function thinkingKeptAcrossTurns(model: string | undefined): boolean {
  if (!model) return false;
  const m = canonicalModel(model);
  return THINKING_KEPT_ACROSS_TURNS.some((f) => inFamily(m, f));
}

/** is the canonical id `m` the family's id or one below it (`claude-opus-4-5` covers `claude-opus-4-5`, not `claude-opus-4-50`)? */
export const inFamily = (m: string, family: string): boolean => m === family || m.startsWith(`${family}-`);
