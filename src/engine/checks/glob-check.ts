// `paths:` patterns that match no file of the workspace: such a rule (or that part of it) never
// loads. Patterns are tested exactly as Claude Code matches them (compileMatcher: gitignore
// semantics, case-insensitive, relative to the rule's base folder) against every file the
// repository holds (git-ignored files aside, but one that matches is named to say so). Matching goes over the
// workspace index's folder tree with glob-count.ts (decides as `ignore` does, and stops at the first
// match), from each rule's base folder, so large repositories stay fast.
import * as path from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { compilePatterns, firstMatch as fm, firstMatchListing, mayMatch, nameIndex, nameIndexWith, type CompiledPatterns, type DirNode, type NameIndex } from '../globs/glob-count.js';
import { rulePatterns } from '../globs/globs.js';
import type { ConditionalRule } from '../model.js';
import type { WorkspaceIndex } from '../files/workspace-index.js';
import { ignoredListing, locateBase } from './workspace.js';

/** a rule gated by `paths:`: the engine's ConditionalRule */
export type GatedRule = ConditionalRule;

export interface GlobCheckResult {
  diagnostics: Diagnostic[];
  /** for each rule, the first workspace file it matches (to reach it in a session) */
  firstMatch: Map<string, string>;
  /** each rule's own verdict (its first match and its findings), by the rule's path: for `diff`'s other revision */
  perRule?: Map<string, RuleVerdict>;
}

export interface RuleVerdict {
  first?: string;
  diagnostics: Diagnostic[];
}

/** the names of an index's tree, kept while it is unchanged (its generation): an editor's lints ask again and again */
const namesOf = new WeakMap<WorkspaceIndex, { generation: number; names: NameIndex }>();

/** an index's names: kept, or (a diff's head, derived from its base's) the base's with the changed paths', or listed */
export function workspaceNames(index: WorkspaceIndex): NameIndex {
  const kept = namesOf.get(index);
  if (kept?.generation === index.generation) return kept.names;
  const from = index.derivedFrom;
  const base = from && namesOf.get(from.index);
  const names = from && base && base.generation === from.generation ? nameIndexWith(base.names, from.changed) : nameIndex(index.tree);
  namesOf.set(index, { generation: index.generation, names });
  return names;
}

/**
 * `reuse`: a rule's verdict known from elsewhere (diff's head: the base's, for a rule whose patterns, base and
 * line are the same and that no file that came or went can match), taken as it is rather than walked for.
 */
export function globCheck(rules: GatedRule[], index: WorkspaceIndex, display: (p: string) => string, truncated = index.truncated, reuse?: (r: GatedRule) => RuleVerdict | undefined): GlobCheckResult {
  const diagnostics: Diagnostic[] = [];
  const firstMatch = new Map<string, string>();
  const perRule = new Map<string, RuleVerdict>();
  // the names in the workspace: a pattern list that needs a name no file or folder has is not walked
  let names: NameIndex | undefined;
  // the index's tree holds the files git would list, root-relative; a rule's patterns are matched
  // from its base folder: the base's node (or the root, with the way down from a base above it)
  const first = (tree: DirNode, base: string, compiled: CompiledPatterns): string | undefined => {
    const at = locateBase(tree, index.root, base);
    if (!at?.node) return undefined;
    if (!at.at && !mayMatch((names ??= workspaceNames(index)), compiled.patterns)) return undefined;
    return fm(at.node, compiled, at.at);
  };
  // git-ignored files, listed only as far as the patterns of a rule that matches nothing reach (and
  // 500 folders in all: the note is a hint, its absence claims nothing)
  let ignored: ReturnType<typeof ignoredListing> | undefined;
  const ignoredExample = (base: string, compiled: CompiledPatterns): string | undefined => {
    const { tree, expand } = (ignored ??= ignoredListing(index));
    const at = locateBase(tree, index.root, base, expand);
    if (!at?.node) return undefined;
    const hit = firstMatchListing(at.node, compiled, expand, at.at);
    return hit === undefined ? undefined : path.join(base, ...hit.split('/'));
  };
  for (const r of rules) {
    const known = reuse?.(r);
    if (known) {
      if (known.first !== undefined) firstMatch.set(r.path, known.first);
      diagnostics.push(...known.diagnostics);
      perRule.set(r.path, known);
      continue;
    }
    const own: RuleVerdict = { diagnostics: [] };
    perRule.set(r.path, own);
    const pushOwn = (d: Diagnostic) => {
      diagnostics.push(d);
      own.diagnostics.push(d);
    };
    const whole = compilePatterns(r.patterns);
    const hit = first(index.tree, r.base, whole);
    if (hit !== undefined) firstMatch.set(r.path, (own.first = path.join(r.base, ...hit.split('/'))));
    if (truncated || r.type !== 'Project') continue; // user and managed rules serve many repositories
    const atRoot = display(r.base) === '.';
    const where = atRoot ? 'the workspace' : display(r.base) + '/';
    const relNote = atRoot ? '' : ` (patterns are relative to ${display(r.base)}/, the folder holding .claude)`;
    if (hit === undefined) {
      const example = ignoredExample(r.base, whole);
      const ig = example !== undefined ? ` (only git-ignored files match, such as ${display(example)})` : '';
      pushOwn({
        path: r.path, line: r.line, severity: 'warning', rule: 'glob-matches-nothing',
        message: `paths ${r.rawPatterns.map((p) => JSON.stringify(p)).join(', ')} match${r.rawPatterns.length === 1 ? 'es' : ''} no file in ${where}${ig}: this rule never loads${relNote}`,
      });
      continue;
    }
    if (r.rawPatterns.length < 2) continue;
    for (const raw of r.rawPatterns) {
      if (raw.trim().startsWith('!')) continue;
      const pats = rulePatterns(raw);
      if (!pats || first(index.tree, r.base, compilePatterns(pats)) !== undefined) continue;
      pushOwn({
        path: r.path, line: r.line, severity: 'warning', rule: 'glob-matches-nothing',
        message: `pattern ${JSON.stringify(raw)} matches no file in ${where} (the rule's other patterns do)${relNote}`,
      });
    }
  }
  return { diagnostics, firstMatch, perRule };
}
