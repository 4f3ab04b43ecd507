// `paths:` patterns that match no file of the workspace: such a rule (or that part of it) never
// loads. Patterns are tested exactly as Claude Code matches them (compileMatcher: gitignore
// semantics, case-insensitive, relative to the rule's base folder) against every file the
// repository holds (git-ignored files aside, but they are counted to say so). Counting goes over a
// folder tree with glob-count.ts (decides as `ignore` does), so large repositories stay fast.
import * as path from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { compilePatterns, countMatches, listMatches, treeFromPaths, type DirNode } from '../glob-count.js';
import { rulePatterns } from '../globs.js';
import type { InstructionType } from '../model.js';
import { listIgnoredFiles, type WorkspaceListing } from './workspace.js';

export interface GatedRule {
  path: string;
  type: InstructionType;
  base: string;
  patterns: string[];
  rawPatterns: string[];
  line?: number;
}

export interface GlobCheckResult {
  diagnostics: Diagnostic[];
  /** for each rule, the first workspace file it matches (to reach it in a session) */
  firstMatch: Map<string, string>;
}

function relTo(base: string, abs: string): string | undefined {
  const rel = path.relative(base, abs);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join('/');
}

export function globCheck(rules: GatedRule[], listing: WorkspaceListing, display: (p: string) => string): GlobCheckResult {
  const diagnostics: Diagnostic[] = [];
  const firstMatch = new Map<string, string>();
  // paths relative to a rule's base, from the listing's root-relative ones (string work only)
  const rebase = (base: string): ((rel: string) => string | undefined) => {
    const down = path.relative(listing.root, base);
    if (down === '') return (rel) => rel;
    if (!down.startsWith('..') && !path.isAbsolute(down)) {
      const pre = down.split(path.sep).join('/') + '/';
      return (rel) => (rel.startsWith(pre) ? rel.slice(pre.length) : undefined);
    }
    const up = path.relative(base, listing.root);
    if (up.startsWith('..') || path.isAbsolute(up)) return () => undefined;
    const pre = up.split(path.sep).join('/') + '/';
    return (rel) => pre + rel;
  };
  const trees = new Map<string, DirNode>();
  const trackedFor = (base: string): DirNode => {
    let t = trees.get(base);
    if (!t) {
      const map = rebase(base);
      const rels: string[] = [];
      for (const f of listing.files) {
        if (f.ignored) continue;
        const rel = map(f.rel);
        if (rel !== undefined) rels.push(rel);
      }
      t = treeFromPaths(rels);
      trees.set(base, t);
    }
    return t;
  };
  let ignoredDeep: string[] | undefined;
  const ignoredTrees = new Map<string, DirNode>();
  /** git-ignored files below base, including those in the folders the crawl skipped (crawled on demand) */
  const ignoredFor = (base: string): DirNode => {
    let t = ignoredTrees.get(base);
    if (!t) {
      ignoredDeep ??= listIgnoredFiles(listing).files;
      const map = rebase(base);
      const rels: string[] = [];
      for (const f of listing.files) {
        if (!f.ignored) continue;
        const rel = map(f.rel);
        if (rel !== undefined) rels.push(rel);
      }
      for (const p of ignoredDeep) {
        const rel = relTo(base, p);
        if (rel !== undefined) rels.push(rel);
      }
      t = treeFromPaths(rels);
      ignoredTrees.set(base, t);
    }
    return t;
  };
  for (const r of rules) {
    const tracked = trackedFor(r.base);
    const whole = compilePatterns(r.patterns);
    const hit = listMatches(tracked, whole, 1);
    if (hit.files[0] !== undefined) firstMatch.set(r.path, path.join(r.base, ...hit.files[0].split('/')));
    if (listing.truncated || r.type !== 'Project') continue; // user and managed rules serve many repositories
    const atRoot = display(r.base) === '.';
    const where = atRoot ? 'the workspace' : display(r.base) + '/';
    const relNote = atRoot ? '' : ` (patterns are relative to ${display(r.base)}/, the folder holding .claude)`;
    if (hit.total === 0) {
      const ignoredHits = countMatches(ignoredFor(r.base), whole);
      const ig = ignoredHits ? ` (only ${ignoredHits} git-ignored file${ignoredHits === 1 ? '' : 's'} match)` : '';
      diagnostics.push({
        path: r.path, line: r.line, severity: ignoredHits ? 'warning' : 'error', rule: 'glob-matches-nothing',
        message: `paths ${r.rawPatterns.map((p) => JSON.stringify(p)).join(', ')} match${r.rawPatterns.length === 1 ? 'es' : ''} no file in ${where}${ig}: this rule never loads${relNote}`,
      });
      continue;
    }
    if (r.rawPatterns.length < 2) continue;
    for (const raw of r.rawPatterns) {
      if (raw.trim().startsWith('!')) continue;
      const pats = rulePatterns(raw);
      if (!pats || countMatches(tracked, compilePatterns(pats)) > 0) continue;
      diagnostics.push({
        path: r.path, line: r.line, severity: 'warning', rule: 'glob-matches-nothing',
        message: `pattern ${JSON.stringify(raw)} matches no file in ${where} (the rule's other patterns do)${relNote}`,
      });
    }
  }
  return { diagnostics, firstMatch };
}
