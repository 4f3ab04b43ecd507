// Advice with its price in the editor: the engine's pricedAdvice (the same as `explain --advice`) over
// the last sessions of each launch directory, their transcripts read here (never sent anywhere) after
// the findings are first published and again at most every five minutes. A rule without `paths:` whose
// text names folders of the project gets an information finding that says what `paths:` would save
// (savingText, the CLI's wording, its templates translated), and the quick fix adding that `paths:`
// says it in its title.
import * as path from 'node:path';
import { advicePrice, nodeFileAccess, pricedAdvice, recentSessions, savingText, type AdviceItem, type Analysis, type Diagnostic, type SavingWords, type SessionUse } from '../../engine/index.js';
import type { Translate } from '../format.js';

/** the finding's rule id (the Problems panel's code) */
export const RULE_COST = 'rule-without-paths-cost';
const FRESH_MS = 5 * 60 * 1000;
const SESSIONS = 30;
/** the most of one transcript the editor reads (the CLI reads 64 MiB): the extension host stays responsive */
const MAX_BYTES = 16 * 1024 * 1024;

/** the saving's templates, translated (`{0}` kept for savingText to fill) */
export function savingWords(t: Translate): SavingWords {
  return { perSession: t('saves ≈{0} tokens per session', '{0}'), perStart: t('saves ≈{0} tokens at every session start', '{0}'), week: t('about {0} a week', '{0}') };
}

/** the finding's message for a rule without paths that has a saving */
export function ruleCostMessage(item: AdviceItem, t: Translate): string {
  const fix = item.saving!.fix;
  const saving = savingText(item.saving!, item.sessions?.read ?? 0, savingWords(t));
  return item.sessions
    ? t('A rule without paths: ≈{0} tokens at every session start, relevant to {1} of the last {2} sessions (the files they read); {3} {4}', item.tokensPerStart, item.sessions.used, item.sessions.read, fix, saving)
    : t('A rule without paths: ≈{0} tokens at every session start; {1} would load it only when a matching file is read', item.tokensPerStart, fix);
}

/** the quick fix's title */
export function ruleCostFixTitle(item: AdviceItem, t: Translate): string {
  const saving = savingText(item.saving!, item.sessions?.read ?? 0, savingWords(t));
  return item.sessions ? t('Add {0} ({1})', item.saving!.fix, saving) : t('Add {0}', item.saving!.fix);
}

/** the text the quick fix inserts: a `paths:` list in the frontmatter, or a frontmatter holding it */
export function pathsInsertion(globs: readonly string[], hasFrontmatter: boolean): string {
  const list = `paths:\n${globs.map((g) => `  - ${JSON.stringify(g)}\n`).join('')}`;
  return hasFrontmatter ? list : `---\n${list}---\n`;
}

export class AdviceSource {
  private readonly byCwd = new Map<string, { at: number; sessions: SessionUse[] }>();
  private readonly pending = new Set<string>();
  private readonly items = new WeakMap<Analysis, { sessions: SessionUse[] | undefined; items: AdviceItem[] }>();

  /** `ready` runs when a launch directory's sessions were (re)read: the findings are published again */
  constructor(private readonly ready: () => void) {}

  /** the sessions known for the analysis' launch directory; reads them in the background when stale */
  private sessionsOf(a: Analysis): SessionUse[] | undefined {
    const cwd = a.env.cwd;
    const hit = this.byCwd.get(cwd);
    if ((!hit || Date.now() - hit.at > FRESH_MS) && !this.pending.has(cwd)) {
      this.pending.add(cwd);
      setTimeout(() => {
        let sessions: SessionUse[] = [];
        try {
          sessions = recentSessions(nodeFileAccess, cwd, a.env.home, a.env.env, SESSIONS, MAX_BYTES);
        } catch {
          // a transcript that cannot be read is left out (recentSessions does not throw on bad input)
        }
        this.byCwd.set(cwd, { at: Date.now(), sessions });
        this.pending.delete(cwd);
        try {
          this.ready();
        } catch {
          // the window closed meanwhile: nothing to publish to
        }
      }, 0);
    }
    return hit?.sessions;
  }

  /** the advice of an analysis (tokens only until its sessions are read) */
  adviceFor(a: Analysis): AdviceItem[] {
    const sessions = this.sessionsOf(a);
    const hit = this.items.get(a);
    if (hit && hit.sessions === sessions) return hit.items;
    const s = sessions ?? [];
    let items: AdviceItem[] = [];
    try {
      items = pricedAdvice(a, s, advicePrice(a, s), [], nodeFileAccess);
    } catch {
      // no advice rather than no findings
    }
    this.items.set(a, { sessions, items });
    return items;
  }

  /** the rule without paths `file` is, with its saving, when the advice has one */
  ruleItem(a: Analysis, file: string): AdviceItem | undefined {
    const f = path.normalize(file);
    return this.adviceFor(a).find((i) => i.kind === 'rule-no-paths' && i.saving && i.paths?.length && path.normalize(i.path) === f);
  }

  /** information findings for the rules without paths that have a saving */
  diagnostics(a: Analysis, t: Translate): Diagnostic[] {
    return this.adviceFor(a)
      .filter((i) => i.kind === 'rule-no-paths' && i.saving && i.paths?.length)
      .map((i) => ({ path: i.path, line: 1, severity: 'info' as const, rule: RULE_COST, message: ruleCostMessage(i, t) }));
  }
}
