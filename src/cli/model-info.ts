// The model's context window and Claude Code's own characters-per-token ratio (memory spec B7:
// 4 for the legacy Claude 3/4 models, 3 for every other), for the explain gauges.
import type { ClaudeProfile } from '../engine/index.js';

const LEGACY = new Set([
  'claude-3-opus', 'claude-3-sonnet', 'claude-3-haiku', 'claude-3-5-sonnet', 'claude-3-5-haiku', 'claude-3-7-sonnet',
  'claude-opus-4-0', 'claude-opus-4-1', 'claude-opus-4-5', 'claude-opus-4-6', 'claude-sonnet-4-0', 'claude-sonnet-4-5',
  'claude-sonnet-4-6', 'claude-haiku-4-5',
]);

export interface ModelInfo {
  model: string;
  contextWindow: number;
  charsPerToken: number;
}

export function modelInfo(model: string | undefined, profile: ClaudeProfile): ModelInfo {
  const id = (model ?? profile.skills.defaultModel).trim();
  const oneM = /\[1m\]$/i.test(id);
  let base = id.replace(/\[1m\]$/i, '').toLowerCase().replace(/-\d{8}$/, '');
  // aliases as each version resolves them (memory spec B7 table)
  const newer = profile.version !== '2.1.235';
  if (base === 'opus') base = newer ? 'claude-opus-5-5' : 'claude-opus-5';
  else if (base === 'sonnet') base = newer ? 'claude-sonnet-5-5' : 'claude-sonnet-5';
  else if (base === 'haiku') base = newer ? 'claude-haiku-5-5' : 'claude-haiku-4-5';
  const legacy = LEGACY.has(base);
  const claude5 = /^claude-[a-z]+-5(-\d+)?$/.test(base);
  const contextWindow = oneM || (newer && claude5) ? 1_000_000 : 200_000;
  return { model: id, contextWindow, charsPerToken: legacy ? 4 : 3 };
}
