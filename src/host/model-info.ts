// Model facts the gauges need and the engine does not (yet) expose: the context window and the
// bytes-per-token factor Claude Code itself uses for its budgets (memory-skills spec B7), and the
// measured size of the fixed parts of a first request per version (spec C). Figures, not logic.

const LEGACY_4_BYTES = new Set([
  'claude-3-opus', 'claude-3-sonnet', 'claude-3-haiku', 'claude-3-5-sonnet', 'claude-3-5-haiku', 'claude-3-7-sonnet',
  'claude-opus-4-0', 'claude-opus-4-1', 'claude-opus-4-5', 'claude-opus-4-6', 'claude-sonnet-4-0', 'claude-sonnet-4-5',
  'claude-sonnet-4-6', 'claude-haiku-4-5',
]);

/** the model id without a `[1m]` suffix or a `-YYYYMMDD` date */
export function baseModelId(model: string): string {
  return model.trim().toLowerCase().replace(/\[1m\]$/, '').replace(/-\d{8}$/, '');
}

/** Claude Code's own chars-per-token estimate for a model (4 for the legacy set, else 3) */
export function bytesPerToken(model: string): number {
  return LEGACY_4_BYTES.has(baseModelId(model)) ? 4 : 3;
}

/** numeric `a >= b` for dotted versions */
export function versionAtLeast(a: string, b: string): boolean {
  const pa = a.split('.').map((x) => parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) > (pb[i] ?? 0);
  return true;
}

/** aliases as each version resolves them (spec B7 table) */
function resolveAlias(model: string, profileVersion: string): string {
  const m = model.trim().toLowerCase();
  const v328 = versionAtLeast(profileVersion, '2.1.328');
  if (m === 'opus') return v328 ? 'claude-opus-5-5' : 'claude-opus-5';
  if (m === 'sonnet') return v328 ? 'claude-sonnet-5-5' : 'claude-sonnet-5';
  if (m === 'haiku') return v328 ? 'claude-haiku-5-5' : 'claude-haiku-4-5';
  return m;
}

export interface ContextWindow {
  tokens: number;
  /** false when the model is unknown and the window is a guess */
  known: boolean;
}

/** The context window Claude Code assumes for a model on a given version (spec B7). */
export function contextWindow(model: string, profileVersion: string): ContextWindow {
  const m = resolveAlias(model, profileVersion);
  if (m.endsWith('[1m]')) return { tokens: 1_000_000, known: true };
  const base = baseModelId(m);
  if (LEGACY_4_BYTES.has(base) || /^claude-(opus|sonnet|haiku)-4/.test(base) || base.startsWith('claude-3')) return { tokens: 200_000, known: true };
  if (/^claude-[a-z]+-5/.test(base)) {
    // 2.1.328 gives every Claude-5.x id 1M; 2.1.235 only the [1m] form
    return { tokens: versionAtLeast(profileVersion, '2.1.328') ? 1_000_000 : 200_000, known: true };
  }
  return { tokens: 200_000, known: false };
}

export interface FixedParts {
  /** system prompt without the `# Memory` section */
  system: number;
  /** `# Memory` section: this + the memory folder's path length, present when auto-memory is on */
  memorySectionBase: number;
  /** tool definitions (JSON) */
  tools: number;
  /** other fixed message parts (gitStatus, attribution, environment, agent types, date) */
  messages: number;
  /** the skills listing of an empty project (bundled skills only), when the engine gives none */
  defaultSkillsListing: number;
}

/** Measured on an empty repository with a fresh HOME (spec C); characters. */
export function fixedParts(profileVersion: string): FixedParts {
  if (versionAtLeast(profileVersion, '2.1.328'))
    return { system: 7_170 - 2_087, memorySectionBase: 2_019, tools: 35_045, messages: 555 + 580 + (9_202 - 6_277), defaultSkillsListing: 6_277 };
  return { system: 9_685 - 2_087, memorySectionBase: 2_019, tools: 60_518, messages: 306 + (5_935 - 4_475), defaultSkillsListing: 4_475 };
}
