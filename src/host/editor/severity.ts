// `claudeLayers.lint.severity`: the user's severity per rule id ("error", "warning", "information" or
// "off"), applied to the engine's findings before they reach the Problems panel, the sidebar and the
// CodeLens. The CLI keeps the engine's severities (its --fail-on is unchanged). Pure: no vscode.
import type { Diagnostic } from '../../engine/index.js';

export type SeverityOverride = Diagnostic['severity'] | 'off';
export type SeverityOverrides = ReadonlyMap<string, SeverityOverride>;

const WORDS: Record<string, SeverityOverride> = { error: 'error', warning: 'warning', information: 'info', info: 'info', hint: 'info', off: 'off', none: 'off' };

/** the setting's value as a map (unknown words and non-string values are ignored) */
export function parseSeverityOverrides(v: unknown): SeverityOverrides {
  const out = new Map<string, SeverityOverride>();
  if (!v || typeof v !== 'object' || Array.isArray(v)) return out;
  for (const [rule, word] of Object.entries(v as Record<string, unknown>)) {
    if (typeof word !== 'string' || rule.length > 200) continue;
    const s = WORDS[word.trim().toLowerCase()];
    if (s) out.set(rule, s);
  }
  return out;
}

/** the findings with the user's severities; a rule set to "off" is left out */
export function applySeverity(diags: readonly Diagnostic[], overrides: SeverityOverrides): readonly Diagnostic[] {
  if (!overrides.size) return diags;
  const out: Diagnostic[] = [];
  for (const d of diags) {
    const o = overrides.get(d.rule);
    if (o === 'off') continue;
    out.push(o && o !== d.severity ? { ...d, severity: o } : d);
  }
  return out;
}
