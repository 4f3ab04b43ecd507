// The one-line answers shown above an instruction file (CodeLens): is it eager, lazy (and when), or
// not loaded, and for MEMORY.md where the 200-line / 25,000-unit cut falls in the file's own lines.
import * as path from 'node:path';
import type { Analysis } from '../../engine/index.js';
import { processInstructionText } from '../../engine/index.js';
import { parseFrontmatter } from '../../engine/index.js';
import { isStrictlyInside } from '../../engine/index.js';
import { lineCount } from '../format.js';
import { skillsView } from '../../engine/index.js';
import { makeCtx, memoryFigures, owningFolder, whyEager } from '../sidebar/index.js';
import type { Translate } from '../format.js';

export interface Lens {
  /** 0-based line */
  line: number;
  title: string;
}

const INSTRUCTION_NAME = /^(CLAUDE\.md|CLAUDE\.local\.md|AGENTS\.md)$/;

export function isRuleFile(p: string): boolean {
  return /[\\/]\.claude[\\/]rules[\\/].+\.md$/.test(p);
}

export function isSkillFile(p: string): boolean {
  return path.basename(p) === 'SKILL.md' && /[\\/]skills[\\/]/.test(p);
}

/** files this extension has something to say about */
export function isInstructionLike(p: string): boolean {
  const b = path.basename(p);
  return INSTRUCTION_NAME.test(b) || /^(claude|agents)(\.local)?\.md$/i.test(b) || b === 'MEMORY.md' || isRuleFile(p) || isSkillFile(p) || /[\\/]\.claude[\\/]CLAUDE\.md$/.test(p);
}

const DROP_RULES = new Set(['large-file', 'unknown-version']);

export function fileLenses(a: Analysis, file: string, raw: string, model: string, t: Translate, locale: string): Lens[] {
  const c = makeCtx(a, model, t, locale);
  const { f } = c;
  const touchVerb = (pats: string) => (a.profile.lazyTriggers.length > 1 ? t('lazy: when {0} is read or edited', pats) : t('lazy: when {0} is read', pats));
  const lenses: Lens[] = [];
  const norm = path.normalize(file);

  // MEMORY.md: figures of the file on disk (what Claude Code reads)
  if (path.basename(file) === 'MEMORY.md') {
    const fig = memoryFigures(a, file);
    if (!fig) return lenses;
    const head = t('{0}/{1} lines · {2}/{3} chars', f.num(fig.lines), f.num(fig.maxLines), f.num(fig.units), f.num(fig.maxUnits));
    const own = !!a.memory.index && path.normalize(a.memory.index.path) === norm;
    if (!own) {
      lenses.push({ line: 0, title: `${head} · ${t("not this project's memory index ({0})", c.rel(a.memory.location.dir))}` });
      return lenses;
    }
    if (!fig.truncated) lenses.push({ line: 0, title: `${head} · ${t('loaded in full')}` });
    else {
      lenses.push({ line: 0, title: `${head} · ${fig.cut ? t('cut at line {0}', fig.cut.from) : t('cut')}` });
      if (fig.cut) lenses.push({ line: fig.cut.from - 1, title: fig.cut.from === fig.cut.to ? t('line {0} is not loaded', fig.cut.from) : t('lines {0}-{1} are not loaded', fig.cut.from, fig.cut.to) });
    }
    return lenses;
  }
  if (isStrictlyInside(file, a.memory.location.dir)) {
    lenses.push({ line: 0, title: t('memory topic file · lazy: loaded only if Claude reads it · {0}', f.chars(raw.length)) });
    return lenses;
  }

  // eager
  const entry = a.startup.find((e) => path.normalize(e.path) === norm);
  if (entry) {
    const inc = entry.origin.kind === 'include' ? ` · ${whyEager(c, entry)}` : '';
    lenses.push({ line: 0, title: t('eager · {0} chars · ≈{1} tokens', f.num(entry.text.length), f.num(f.tokens(entry.text.length))) + inc });
    return lenses;
  }

  // conditional rules known at startup
  const rule = a.conditionalRules.find((r) => path.normalize(r.path) === norm);
  if (rule) {
    lenses.push({ line: 0, title: touchVerb(rule.rawPatterns.join(', ')) });
    return lenses;
  }

  // skills
  if (isSkillFile(file)) {
    const sk = skillsView(a)?.entries.find((s) => s.path && path.normalize(s.path) === norm);
    if (sk) {
      const parts = [t('skill {0}', sk.name)];
      if (sk.demoted) parts.push(t('name only: over the listing budget'));
      else if (sk.cut) parts.push(t('description cut'));
      else parts.push(t('listed in full'));
      lenses.push({ line: 0, title: parts.join(' · ') });
      return lenses;
    }
    const fm = parseFrontmatter(raw, a.profile.stripBomBeforeFrontmatter);
    const d = fm.data;
    const desc = (typeof d.description === 'string' ? d.description : '') + (typeof d.when_to_use === 'string' && d.when_to_use ? ` - ${d.when_to_use}` : '');
    const capSetting = a.settings.value<unknown>('skillListingMaxDescChars');
    const cap = typeof capSetting === 'number' && capSetting > 0 ? capSetting : 1536;
    const shown = Math.min(desc.length, cap);
    const parts = [t('skill · description {0}/{1}', f.num(shown), f.num(cap)) + (desc.length > cap ? t(', cut') : '')];
    if (d.paths !== undefined) parts.push(touchVerb(Array.isArray(d.paths) ? d.paths.join(', ') : typeof d.paths === 'string' ? d.paths : JSON.stringify(d.paths)));
    if (d['disable-model-invocation'] === true) parts.push(t('not listed (disable-model-invocation)'));
    lenses.push({ line: 0, title: parts.join(' · ') });
    return lenses;
  }

  // not loaded: what the engine found about this file
  const diag = a.diagnostics.find((d) => path.normalize(d.path) === norm && !DROP_RULES.has(d.rule));
  if (diag) {
    lenses.push({ line: diag.line ? diag.line - 1 : 0, title: t('not loaded: {0}', diag.message) });
    return lenses;
  }

  // nested instruction files below the launch directory
  const b = path.basename(file);
  const nestedKind = isRuleFile(file) || INSTRUCTION_NAME.test(b) || /[\\/]\.claude[\\/]CLAUDE\.md$/.test(file);
  if (nestedKind && isStrictlyInside(file, a.env.cwd)) {
    const d = owningFolder(file);
    if (isStrictlyInside(d, a.env.cwd)) {
      if (b === 'AGENTS.md' && !a.profile.agentsMdFallback) {
        lenses.push({ line: 0, title: t('not loaded: Claude Code {0} does not read AGENTS.md', a.profile.version) });
        return lenses;
      }
      const proc = processInstructionText(raw, file, { stripBomBeforeFrontmatter: a.profile.stripBomBeforeFrontmatter, collectIncludes: false, home: a.env.home });
      const dl = `${c.rel(d)}/`;
      if (!proc.content.trim()) lenses.push({ line: 0, title: t('not loaded: empty after frontmatter and comments are removed') });
      else if (isRuleFile(file) && proc.globs) lenses.push({ line: 0, title: `${touchVerb((proc.rawGlobs ?? proc.globs).join(', '))} · ${t('matched from {0}', dl)}` });
      else lenses.push({ line: 0, title: t('lazy: when a file under {0} is read · {1} chars, {2} lines', dl, f.num(proc.content.length), f.num(lineCount(proc.content))) });
      return lenses;
    }
  }
  const wrongCase = /^(claude|agents)(\.local)?\.md$/i.test(b) && !INSTRUCTION_NAME.test(b);
  if (INSTRUCTION_NAME.test(b) || isRuleFile(file) || wrongCase) {
    if (wrongCase) lenses.push({ line: 0, title: t('not loaded: Claude Code reads this name only as {0}', b.toUpperCase().replace(/\.MD$/, '.md').replace('.LOCAL.', '.local.')) });
    else lenses.push({ line: 0, title: t('not loaded from the launch directory {0}', a.env.cwd) });
  }
  return lenses;
}
