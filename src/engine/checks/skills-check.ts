// Skills whose description is cut or dropped from the listing, read from the engine's skills analysis
// (its exported types: renaming a field breaks the build, not the diagnostics).
import { grouped, type Diagnostic } from '../diagnostics.js';
import { BUNDLED_DESCRIPTION_PLACEHOLDER } from '../format-strings.js';
import type { SkillsAnalysis } from '../skills/index.js';

export interface SkillView {
  name: string;
  path?: string;
  demoted: boolean;
  cut: boolean;
  bundled: boolean;
  /** the entry's length as sent, UTF-16 units (a placeholder counted as its measured description) */
  chars: number;
}

export interface SkillsView {
  entries: SkillView[];
  /** listing text as sent ('' when nothing is listed); shipped skills' descriptions are placeholders
   *  unless the installed binary's text was given (EngineOptions.shippedSkillText) */
  text: string;
  /** the listing's length as sent, UTF-16 units (each placeholder counted as its measured description) */
  sentChars: number;
  /** entries whose description is a placeholder */
  placeholders: number;
  /** listing size and budget, in Claude Code's width units */
  used: number;
  budget: number;
  /** per-description cap */
  cap: number;
}

/** The skills listing as the checks, `explain` and the editor show it, from the engine's typed analysis. */
export function skillsView(a: { skills: SkillsAnalysis }): SkillsView {
  const s = a.skills;
  return {
    entries: s.entries.map((e) => ({
      name: e.name, path: e.path, demoted: e.demoted, cut: e.cut, bundled: e.bundled,
      chars: e.bundled && !e.demoted && e.text.endsWith(`: ${BUNDLED_DESCRIPTION_PLACEHOLDER}`) ? e.text.length - BUNDLED_DESCRIPTION_PLACEHOLDER.length + Math.min(e.descriptionChars, s.cap) : e.text.length,
    })),
    text: s.text,
    sentChars: s.listing.sentChars,
    placeholders: s.listing.placeholders,
    used: s.used,
    budget: s.budget,
    cap: s.cap,
  };
}

export function skillsCheck(view: SkillsView): Diagnostic[] {
  const out: Diagnostic[] = [];
  const budget = ` (listing budget ${grouped(view.budget)})`;
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
        path: where, line: e.path ? 1 : undefined, severity: 'error', rule: 'skill-description-cut',
        message: `skill "${e.name}": its description is cut in the listing at ${view.cap} characters (ends with "…")`,
      });
  }
  return out;
}
