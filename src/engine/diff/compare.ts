// `claude-layers diff`: two revisions' facts (revision.ts) compared into the report the CLI prints
// as text, JSON, Markdown and SARIF. Every size is in UTF-16 units; ≈tokens at the head's model.
import type { Analysis } from '../analysis.js';
import { displayPath } from '../checks/index.js';
import { readAdds } from '../figures.js';
import { sameReach, type FindingFact, type RevisionFacts, type Unreadable } from './revision.js';

export type Change = 'added' | 'removed' | 'grown' | 'shrunk';

export interface DiffReport {
  base: string;
  head: string;
  version: string;
  /** characters per token of the head's model (for ≈tokens) */
  charsPerToken: number;
  startup: { before: number; after: number; files: { path: string; change: Change; beforeChars: number; afterChars: number }[] };
  rules: { path: string; paths: string[]; beforePaths?: string[]; beforeMatches: number; afterMatches: number; chars: number; examples: string[] }[];
  nested: { path: string; change: 'added' | 'grown'; chars: number; beforeChars: number; folder: string }[];
  skills: {
    added: string[];
    removed: string[];
    demoted: string[];
    cut: string[];
    budget: { before: { used: number; budget: number; chars: number }; after: { used: number; budget: number; chars: number } };
  };
  imports: { from: string; path: string; chars: number }[];
  findings: { added: FindingFact[]; removed: FindingFact[] };
  /** the files the change touches: what a first Read of each injects, before and after */
  touched: { path: string; beforeChars: number; afterChars: number }[];
  /** what the diff could not look into (submodules, renames…) */
  notes: string[];
  /** files of each side's workspace */
  filesScanned: { before: number; after: number };
}

function change(before: number | undefined, after: number | undefined): Change | undefined {
  if (before === undefined && after !== undefined) return 'added';
  if (before !== undefined && after === undefined) return 'removed';
  if (before === undefined || after === undefined || before === after) return undefined;
  return after > before ? 'grown' : 'shrunk';
}

const findingKey = (f: FindingFact) => `${f.rule}\0${f.path}\0${f.message}`;

/** at most this many touched files get their injection computed */
const MAX_TOUCHED = 200;

export interface CompareOptions {
  base: string;
  head: string;
  /** files the change adds or modifies (absolute paths in the head's tree) */
  changed?: readonly string[];
  notes?: readonly string[];
}

export function compareRevisions(before: RevisionFacts, after: RevisionFacts, o: CompareOptions): DiffReport {
  const files: DiffReport['startup']['files'] = [];
  const bMap = new Map(before.startupFiles.map((f) => [f.path, f.chars]));
  const aMap = new Map(after.startupFiles.map((f) => [f.path, f.chars]));
  for (const p of new Set([...bMap.keys(), ...aMap.keys()])) {
    const c = change(bMap.get(p), aMap.get(p));
    if (c) files.push({ path: p, change: c, beforeChars: bMap.get(p) ?? 0, afterChars: aMap.get(p) ?? 0 });
  }

  const rules: DiffReport['rules'] = [];
  const bRules = new Map(before.rules.map((r) => [r.path, r]));
  for (const r of after.rules) {
    const b = bRules.get(r.path);
    const samePaths = b && b.paths.join('\0') === r.paths.join('\0');
    // (a rule that took the base's reach is not walked on either side)
    if (b && samePaths && (sameReach(b, r) || b.matches === r.matches)) continue;
    const was = new Set(b?.sample ?? []);
    const fresh = r.sample.filter((f) => !was.has(f));
    rules.push({
      path: r.path, paths: r.paths, ...(b && !samePaths && { beforePaths: b.paths }),
      beforeMatches: b?.matches ?? 0, afterMatches: r.matches, chars: r.chars,
      examples: (fresh.length ? fresh : r.sample).slice(0, 3),
    });
  }
  const aRules = new Set(after.rules.map((r) => r.path));
  for (const b of before.rules)
    if (!aRules.has(b.path)) rules.push({ path: b.path, paths: [], beforePaths: b.paths, beforeMatches: b.matches, afterMatches: 0, chars: 0, examples: [] });

  const bNested = new Map(before.nested.map((n) => [n.path, n.chars]));
  const nested: DiffReport['nested'] = [];
  for (const n of after.nested) {
    const was = bNested.get(n.path);
    if (was === undefined) nested.push({ path: n.path, change: 'added', chars: n.chars, beforeChars: 0, folder: n.folder });
    else if (n.chars > was) nested.push({ path: n.path, change: 'grown', chars: n.chars, beforeChars: was, folder: n.folder });
  }

  const bSkills = new Map(before.listing.skills.map((s) => [s.name, s]));
  const aSkills = new Map(after.listing.skills.map((s) => [s.name, s]));
  const skills: DiffReport['skills'] = {
    added: [...aSkills.keys()].filter((n) => !bSkills.has(n)),
    removed: [...bSkills.keys()].filter((n) => !aSkills.has(n)),
    demoted: [...aSkills.values()].filter((s) => s.demoted && !bSkills.get(s.name)?.demoted).map((s) => s.name),
    cut: [...aSkills.values()].filter((s) => s.cut && !bSkills.get(s.name)?.cut).map((s) => s.name),
    budget: {
      before: { used: before.listing.used, budget: before.listing.budget, chars: before.listing.sentChars },
      after: { used: after.listing.used, budget: after.listing.budget, chars: after.listing.sentChars },
    },
  };

  const bImports = new Set(before.imports.map((i) => `${i.from}\0${i.path}`));
  const imports = after.imports.filter((i) => !bImports.has(`${i.from}\0${i.path}`));

  const bFind = new Set(before.findings.map(findingKey));
  const aFind = new Set(after.findings.map(findingKey));
  const findings = { added: after.findings.filter((f) => !bFind.has(findingKey(f))), removed: before.findings.filter((f) => !aFind.has(findingKey(f))) };

  const touched = touchedFiles(before.analysis, after.analysis, o.changed ?? []);
  return {
    base: o.base, head: o.head, version: after.version, charsPerToken: after.charsPerToken,
    startup: { before: before.startup, after: after.startup, files },
    rules, nested, skills, imports, findings, touched,
    notes: [...(o.notes ?? [])],
    filesScanned: { before: before.files, after: after.files },
  };
}

function touchedFiles(before: Analysis, after: Analysis, changed: readonly string[]): DiffReport['touched'] {
  const out: DiffReport['touched'] = [];
  for (const f of changed.slice(0, MAX_TOUCHED)) {
    const b = readAdds(before, f).chars;
    const a = readAdds(after, f).chars;
    if (a || b) out.push({ path: displayPath(f, after.env.cwd, after.env.home), beforeChars: b, afterChars: a });
  }
  return out;
}

/** the instruction files that cannot be compared, with the side they are on */
export function unreadableFiles(before: RevisionFacts, after: RevisionFacts): (Unreadable & { side: 'base' | 'head' })[] {
  return [...before.unreadable.map((u) => ({ ...u, side: 'base' as const })), ...after.unreadable.map((u) => ({ ...u, side: 'head' as const }))];
}
