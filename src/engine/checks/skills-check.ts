// Skills whose description is cut or dropped from the listing, read from the engine's skills analysis
// (its exported types: renaming a field breaks the build, not the diagnostics).
import type { Diagnostic } from '../diagnostics.js';
import type { SkillsAnalysis } from '../skills/index.js';

export interface SkillView {
  name: string;
  path?: string;
  demoted: boolean;
  cut: boolean;
  bundled: boolean;
}

export interface SkillsView {
  entries: SkillView[];
  /** listing text as sent ('' when nothing is listed) */
  text: string;
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
    entries: s.entries.map((e) => ({ name: e.name, path: e.path, demoted: e.demoted, cut: e.cut, bundled: e.bundled })),
    text: s.text,
    used: s.used,
    budget: s.budget,
    cap: s.cap,
  };
}

export function skillsCheck(view: SkillsView): Diagnostic[] {
  const out: Diagnostic[] = [];
  const budget = ` (listing budget ${view.budget.toLocaleString('en-US')})`;
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
