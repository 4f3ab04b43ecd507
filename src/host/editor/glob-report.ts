// What one `paths:` pattern does, for the hover: the pattern as Claude Code uses it (the engine's
// rulePatterns: comma split, brace expansion, `/**` trimmed), its base folder, the workspace files
// it matches, whether other open files match, and the traps (never-matching `./` prefixes, paths
// outside the launch directory, patterns that match at any depth, case-insensitive matching).
// The count comes from the workspace index (host/workspace-index.ts: glob-count.ts over the files
// .gitignore and files.exclude leave, deciding as Claude Code's matcher does), and says so.
import * as path from 'node:path';
import { compileMatcher, rulePatterns } from '../../engine/index.js';
import { isInside, isStrictlyInside } from '../../engine/index.js';
import type { Translate } from '../format.js';

export interface GlobReport {
  written: string;
  /** patterns as used for matching; undefined when the value makes the rule unconditional */
  used: string[] | undefined;
  base: string;
  count: number;
  /** up to `limit` matching files (absolute) */
  sample: string[];
  /** other files asked about (the active editor), with the answer */
  probes: { file: string; matches: boolean }[];
  warnings: string[];
  notes: string[];
}

export interface GlobReportInput {
  raw: string;
  base: string;
  launchDir: string;
  home: string;
  /**
   * the workspace's matching files from `base`: the first `limit` (absolute) and the total, from
   * the workspace index (which honours .gitignore and files.exclude)
   */
  match?: (base: string, patterns: readonly string[], limit: number) => { files: string[]; total: number } | undefined;
  /** or: absolute paths of the workspace's files, matched one by one */
  files?: Iterable<string>;
  probes?: string[];
  limit?: number;
  t: Translate;
  rel: (p: string) => string;
}

export function globReport(i: GlobReportInput): GlobReport {
  const { t, raw, base } = i;
  const used = rulePatterns(raw);
  const warnings: string[] = [];
  const notes: string[] = [];
  const limit = i.limit ?? 10;
  const sample: string[] = [];
  let count = 0;
  const baseLabel = i.rel(base) === '.' ? base : `${i.rel(base)}/`;
  if (!used) {
    warnings.push(t('{0} matches everything: the rule is unconditional and loads at startup', raw));
    return { written: raw, used, base, count: 0, sample, probes: [], warnings, notes };
  }
  const matcher = compileMatcher(base, used);
  const indexed = i.match?.(base, used, limit);
  if (indexed) {
    count = indexed.total;
    sample.push(...indexed.files);
    notes.push(t('counted over the files of the workspace as git lists them: .gitignore and files.exclude are honoured (Claude Code itself matches any path it touches, git-ignored ones too)'));
  } else {
    for (const f of i.files ?? []) {
      const rel = path.relative(base, f);
      if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) continue;
      if (matcher.matchesRelative(rel.split(path.sep).join('/'))) {
        count++;
        if (sample.length < limit) sample.push(f);
      }
    }
  }
  sample.sort();
  const probes = (i.probes ?? []).map((file) => ({ file, matches: matcher.matches(file) }));

  for (const p of used) {
    if (p.startsWith('./')) warnings.push(t('{0} never matches: patterns are relative to {1} and a leading ./ is never stripped; write {2}', p, baseLabel, p.replace(/^(\.\/)+/, '')));
    else if (p.startsWith('../') || p === '..') warnings.push(t('{0} never matches: it points outside {1}', p, baseLabel));
    else if (p.startsWith('~')) warnings.push(t('{0} never matches: ~ is not expanded', p));
    else if (p.startsWith('/') && (p.startsWith(`${i.launchDir}/`) || p.startsWith(`${i.home}/`) || p.startsWith(`${base}/`) || /^\/(home|Users|root|tmp|var|etc|opt|usr|mnt|srv|workspace|work)\//.test(p)))
      warnings.push(t('{0} never matches: an absolute path is read relative to {1} (a leading / only anchors the pattern)', p, baseLabel));
    else if (!p.replace(/\/+$/, '').includes('/')) notes.push(t('{0} has no folder part, so it matches at any depth below {1}', p, baseLabel));
  }
  if (!isInside(base, i.launchDir)) {
    if (isStrictlyInside(i.launchDir, base)) notes.push(t('matched from {0}, above the launch directory: only files inside {1} can trigger it', base, i.launchDir));
    else warnings.push(t('the base folder {0} is outside the launch directory {1}: no touched file can match', base, i.launchDir));
  }
  if (count === 0) warnings.push(t('no workspace file matches'));
  const first = used[0];
  if (first !== undefined) notes.push(t('matching ignores case: {0} also matches {1}', first, first.toUpperCase() === first ? first.toLowerCase() : first.toUpperCase()));
  return { written: raw, used, base, count, sample, probes, warnings, notes };
}
