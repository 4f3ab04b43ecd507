// Skills whose description is cut or dropped from the listing. The skills analysis is being added
// to the engine separately; this reads it defensively (any of several field names), and when the
// analysis has no skills yet it reports nothing and says so.
import type { Diagnostic } from '../diagnostics.js';

export interface SkillView {
  name: string;
  path?: string;
  demoted: boolean;
  cut: boolean;
  bundled: boolean;
}

export interface SkillsView {
  entries: SkillView[];
  /** listing text as sent, when known */
  text?: string;
  /** listing size and budget, in Claude Code's width units, when known */
  used?: number;
  budget?: number;
  /** per-description cap, when known */
  cap?: number;
}

type Loose = Record<string, unknown>;
const num = (o: Loose, ...keys: string[]): number | undefined => {
  for (const k of keys) if (typeof o[k] === 'number' && Number.isFinite(o[k])) return o[k] as number;
  return undefined;
};
const str = (o: Loose, ...keys: string[]): string | undefined => {
  for (const k of keys) if (typeof o[k] === 'string') return o[k] as string;
  return undefined;
};
const bool = (o: Loose, ...keys: string[]): boolean => keys.some((k) => o[k] === true);

/** Normalise whatever `analysis.skills` is into a SkillsView (undefined when absent or unusable). */
export function skillsView(analysis: unknown): SkillsView | undefined {
  try {
    const s = (analysis as { skills?: unknown }).skills;
    if (!s || typeof s !== 'object') return undefined;
    const o = s as Loose;
    const list = Array.isArray(o.entries) ? o.entries : Array.isArray(o.skills) ? o.skills : Array.isArray(s) ? (s as unknown[]) : undefined;
    if (!list) return undefined;
    const entries: SkillView[] = [];
    for (const e of list) {
      if (!e || typeof e !== 'object') continue;
      const x = e as Loose;
      const name = str(x, 'name', 'dir', 'id');
      if (!name) continue;
      entries.push({
        name,
        path: str(x, 'path', 'file', 'skillFile', 'source'),
        demoted: bool(x, 'demoted', 'nameOnly'),
        cut: bool(x, 'cut', 'truncated', 'descriptionCut', 'descriptionTruncated'),
        bundled: bool(x, 'bundled'),
      });
    }
    const budgetObj = o.budget && typeof o.budget === 'object' ? (o.budget as Loose) : undefined;
    return {
      entries,
      text: str(o, 'text', 'listing'),
      used: num(o, 'used', 'width', 'total', 'totalWidth') ?? (budgetObj ? num(budgetObj, 'used', 'total') : undefined),
      budget: num(o, 'budget', 'charBudget', 'budgetChars') ?? (budgetObj ? num(budgetObj, 'budget', 'limit', 'max') : undefined),
      cap: num(o, 'cap', 'descriptionCap', 'maxDescChars'),
    };
  } catch {
    return undefined;
  }
}

export function skillsCheck(view: SkillsView | undefined): Diagnostic[] {
  if (!view) return [];
  const out: Diagnostic[] = [];
  const budget = view.budget !== undefined ? ` (listing budget ${view.budget.toLocaleString('en-US')})` : '';
  for (const e of view.entries) {
    if (e.bundled) continue;
    const where = e.path ?? '';
    if (e.demoted)
      out.push({
        path: where, line: e.path ? 1 : undefined, severity: 'error', rule: 'skill-demoted',
        message: `skill "${e.name}" is listed by name only: the skills listing is over budget${budget}, so its description is dropped and the model may never pick it; shorten descriptions or remove skills`,
      });
    else if (e.cut)
      out.push({
        path: where, line: e.path ? 1 : undefined, severity: 'warning', rule: 'skill-description-cut',
        message: `skill "${e.name}": its description is cut in the listing${view.cap ? ` at ${view.cap} characters` : ''} (ends with "…")`,
      });
  }
  return out;
}
