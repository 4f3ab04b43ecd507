// One side of `claude-layers diff`: what Claude Code loads for a revision of the repository, as
// facts that compare by path. Reads through the FileAccess of the options (a commit's tree from
// git-tree.ts, or the working tree) with the shared HOME; runs the same analysis and lint as
// `claude-layers lint`, then the sizes the diff reports: the startup block and its files, the
// skills listing, each conditional rule's reach over the workspace's files, nested instruction
// files, @imports, and the findings.
import * as path from 'node:path';
import { analyze, type Analysis } from '../analysis.js';
import type { EngineOptions } from '../environment.js';
import { isStrictlyInside } from '../environment.js';
import type { Diagnostic } from '../diagnostics.js';
import { displayPath, lintPrepare, lintWorkspace } from '../checks/index.js';
import type { Inventory } from '../checks/inventory.js';
import { locateBase } from '../checks/workspace.js';
import type { GatedRule, RuleVerdict } from '../checks/glob-check.js';
import { rulePatterns } from '../globs/globs.js';
import { skillsView } from '../checks/skills-check.js';
import { compilePatterns, firstMatches, listMatches, matchesPath, type CompiledPatterns } from '../globs/glob-count.js';
import { renderStartupBlock } from '../instructions/render.js';
import { MAX_INSTRUCTION_BYTES } from '../instructions/content.js';
import type { WorkspaceIndex } from '../files/workspace-index.js';
import type { LazyInjection } from '../model.js';

/** a date that stands for "today" in both blocks, so that the date does not differ between them */
const SAME_DAY = '2000-01-01';

export interface StartupFileFact {
  /** display path (relative to the launch directory, `~/…` under HOME) */
  path: string;
  /** the entry as it stands in the block (`Contents of …` header included), UTF-16 units */
  chars: number;
}

export interface RuleFact {
  path: string;
  /** the patterns as written */
  paths: string[];
  /** the rule's text as injected, UTF-16 units */
  chars: number;
  /** files of the workspace it matches (git-ignored ones aside); walked for on first read (ruleFact) */
  readonly matches: number;
  /** up to 50 of them, workspace-relative */
  readonly sample: string[];
}

/** rules of a head whose reach is the base's rule's, known without a walk (sameReach) */
const reachOf = new WeakMap<RuleFact, RuleFact>();

/** does `after` reach the same files as `before`, known without walking either (the head's rule took the base's reach)? */
export function sameReach(before: RuleFact, after: RuleFact): boolean {
  return reachOf.get(after) === before;
}

/** a rule's fact whose reach (`matches`, `sample`) is walked for on first read: a diff reads only the reach that can have changed */
function ruleFact(fixed: { path: string; paths: string[]; chars: number }, reach: () => { matches: number; sample: string[] }): RuleFact {
  let r: { matches: number; sample: string[] } | undefined;
  const get = () => (r ??= reach());
  return Object.defineProperties({ ...fixed } as RuleFact, {
    matches: { get: () => get().matches, enumerable: true },
    sample: { get: () => get().sample, enumerable: true },
  });
}

export interface NestedFact {
  path: string;
  /** what the first read below `folder` injects for this file, UTF-16 units */
  chars: number;
  /** the folder it loads for, relative to the launch directory */
  folder: string;
}

export interface ImportFact {
  from: string;
  path: string;
  chars: number;
}

export interface SkillFact {
  name: string;
  path?: string;
  demoted: boolean;
  cut: boolean;
  chars: number;
}

export interface FindingFact {
  rule: string;
  severity: Diagnostic['severity'];
  path: string;
  line?: number;
  message: string;
}

/** an instruction file the diff cannot compare: too large to load, or not text */
export interface Unreadable {
  path: string;
  reason: string;
}

export interface RevisionFacts {
  version: string;
  /** characters per token of the session's model */
  charsPerToken: number;
  /** the startup block as sent (framing included) */
  startup: number;
  startupFiles: StartupFileFact[];
  listing: { sentChars: number; used: number; budget: number; skills: SkillFact[] };
  rules: RuleFact[];
  nested: NestedFact[];
  imports: ImportFact[];
  findings: FindingFact[];
  unreadable: Unreadable[];
  analysis: Analysis;
  files: number;
}

export interface RevisionOptions {
  secrets?: boolean;
  /** `options.fs` is a commit's tree (exact, case-sensitive): lint may answer from its index over it */
  treeFs?: boolean;
  /** the whole run's deadline */
  deadline?: { at: number; now: () => number };
  /** the launch directory's index, already built over `options.fs` (diff's head: derived from the base's) */
  index?: WorkspaceIndex;
  /**
   * the other revision's facts and the paths that came, went or changed kind since it (absolute; every file of a
   * folder added or removed, as `git diff-tree -r` lists them): a rule whose base folder and patterns are the same
   * there and that matches none of those files reaches the same files, and its reach is not walked again.
   * Only when the two indexes differ by those files alone (no .gitignore changed, no crawl cut short).
   */
  prior?: { facts: RevisionFacts; changed: readonly string[] };
  /** the other revision's facts and every path whose content or existence differs from it (absolute; a folder
   *  for all below it): the analysis takes over what that one's read and processed for the other paths */
  shared?: { facts: RevisionFacts; changed: readonly string[] };
}

/** what one revision's facts keep for the other's (revisionIndex, RevisionOptions.prior) */
interface Kept {
  index?: WorkspaceIndex;
  /** the conditional rules lint checked, and its glob verdict of each, by path */
  gated: Map<string, GatedRule>;
  globs?: Map<string, RuleVerdict>;
  /** each conditional rule with its fact, by absolute path */
  reach: Map<string, { base: string; patterns: readonly string[]; fact: RuleFact }>;
}
const kept = new WeakMap<RevisionFacts, Kept>();

/** the workspace index a revision's facts were made over (the start of the other revision's: WorkspaceIndex.derive) */
export function revisionIndex(facts: RevisionFacts): WorkspaceIndex | undefined {
  return kept.get(facts)?.index;
}

const samePatterns = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((p, i) => p === b[i]);

const NUL_PROBE = 8000;

/** binary (a NUL byte in the first 8,000 bytes, as git decides) or over Claude Code's 4 MiB limit */
function unreadable(a: Analysis, inv: Inventory, display: (p: string) => string): Unreadable[] {
  const out: Unreadable[] = [];
  for (const c of inv.candidates) {
    if (c.type !== 'Project' && c.type !== 'Local') continue;
    const st = a.env.fs.stat(c.path);
    if (!st.ok || st.value.kind !== 'file') continue;
    if (st.value.size > MAX_INSTRUCTION_BYTES) {
      out.push({ path: display(c.path), reason: `${st.value.size} bytes, over Claude Code's 4 MiB limit for an instruction file` });
      continue;
    }
    const r = a.env.fs.readFile(c.path, MAX_INSTRUCTION_BYTES);
    if (!r.ok) continue;
    const probe = r.value.subarray(0, NUL_PROBE);
    if (probe.includes(0)) out.push({ path: display(c.path), reason: 'a binary file (a NUL byte in its first 8,000 bytes)' });
  }
  return out;
}

export async function revisionFacts(options: EngineOptions, o: RevisionOptions = {}): Promise<RevisionFacts> {
  const { options: opts, index } = lintPrepare(options, undefined, o.deadline, o.treeFs === true, o.index);
  // the other revision's texts, read and processed, but for what differs (`shared`)
  const a = analyze(opts, o.shared && { analysis: o.shared.facts.analysis, changed: o.shared.changed });
  const env = a.env;
  const display = (p: string) => displayPath(p, env.cwd, env.home);
  const prior = o.prior && kept.get(o.prior.facts);
  const changed = o.prior?.changed ?? [];
  // a rule that matched in the other revision and that no file that came or went can match, with its
  // patterns one by one (a finding names a pattern that matches nothing), keeps its verdict there
  const globReuse = prior?.globs && ((r: GatedRule): RuleVerdict | undefined => {
    const v = prior.globs!.get(r.path);
    const g = prior.gated.get(r.path);
    if (!v || v.first === undefined || !g || g.base !== r.base || g.type !== r.type || g.line !== r.line) return undefined;
    if (!samePatterns(g.patterns, r.patterns) || !samePatterns(g.rawPatterns, r.rawPatterns) || reachesAny(compilePatterns(r.patterns), r.base, changed)) return undefined;
    for (const raw of r.rawPatterns) {
      const pats = rulePatterns(raw);
      if (pats && reachesAny(compilePatterns(pats), r.base, changed)) return undefined;
    }
    return v;
  });
  const lint = await lintWorkspace(a, { index, secrets: o.secrets !== false, runDeadline: o.deadline, ...(globReuse && { globReuse }) });
  const findings: FindingFact[] = lint.diagnostics.map((d) => ({ rule: d.rule, severity: d.severity, path: display(d.path), ...(d.line !== undefined && { line: d.line }), message: d.message }));

  const block = renderStartupBlock(a.profile, a.startup, SAME_DAY) ?? '';
  const startupFiles = a.startup.map((e) => ({ path: display(e.path), chars: e.text.length }));
  const imports: ImportFact[] = a.startup
    .filter((e) => e.origin.kind === 'include')
    .map((e) => ({ from: display(e.origin.kind === 'include' ? e.origin.parent : e.parent ?? ''), path: display(e.path), chars: e.text.length }));

  const sv = skillsView(a);
  const listing = {
    sentChars: sv.entries.length && sv.text ? sv.sentChars : 0,
    used: sv.used,
    budget: sv.budget,
    skills: sv.entries.map((e) => ({ name: e.name, path: e.path === undefined ? undefined : display(e.path), demoted: e.demoted, cut: e.cut, chars: e.chars })),
  };

  // the inventory and the conditional rules lint worked on (the same files, no second pass)
  const inv: Inventory = lint.inventory ?? { candidates: [], names: [], files: 0 };
  const session = a.session();
  const rules: RuleFact[] = [];
  const nested: NestedFact[] = [];
  const reach: Kept['reach'] = new Map();
  if (index) {
    for (const r of lint.gated ?? []) {
      const compiled = compilePatterns(r.patterns);
      const text = env.fs.readFile(r.path, MAX_INSTRUCTION_BYTES);
      const chars = text.ok ? session.processText(r.path, Buffer.from(text.value).toString('utf8')).content.trim().length : 0;
      const fixed = { path: display(r.path), paths: r.rawPatterns, chars };
      const before = prior?.reach.get(r.path);
      // the same patterns from the same folder as in the other revision (a folder inside the tree)
      const same = before && !locateBase(index.tree, index.root, r.base)?.at && before.base === r.base && samePatterns(before.patterns, r.patterns) ? before.fact : undefined;
      let fact: RuleFact;
      if (same && !reachesAny(compiled, r.base, changed)) {
        // the same files as in the other revision: none that differs is one it matches
        fact = ruleFact(fixed, () => ({ matches: same.matches, sample: same.sample }));
        reachOf.set(fact, same);
      } else if (same && prior?.index) {
        // files that came or went that it matches: the other revision's count moved by those files, the examples
        // from a walk that stops at the 50th
        const was = prior.index;
        fact = ruleFact(fixed, () => {
          const at = locateBase(index.tree, index.root, r.base);
          if (!at?.node) return { matches: 0, sample: [] };
          const moved = countIn(index, compiled, r.base, changed) - countIn(was, compiled, r.base, changed);
          return { matches: same.matches + moved, sample: firstMatches(at.node, compiled, 50).map((f) => display(path.join(r.base, ...f.split('/')))) };
        });
      } else {
        fact = ruleFact(fixed, () => {
          const at = locateBase(index.tree, index.root, r.base);
          if (!at?.node) return { matches: 0, sample: [] };
          // one walk: the count, and the first 50 as examples
          const m = listMatches(at.node, compiled, 50, at.at);
          return { matches: m.total, sample: m.files.map((f) => display(path.join(r.base, ...f.split('/')))) };
        });
      }
      reach.set(r.path, { base: r.base, patterns: r.patterns, fact });
      rules.push(fact);
    }
    nested.push(...nestedFacts(a, inv, index, display, lint.injected));
  }
  const facts: RevisionFacts = {
    version: a.version.shown,
    charsPerToken: a.model.bytesPerToken,
    startup: block.length,
    startupFiles,
    listing,
    rules,
    nested,
    imports,
    findings,
    unreadable: unreadable(a, inv, display),
    analysis: a,
    files: lint.filesScanned,
  };
  kept.set(facts, { index, reach, gated: new Map((lint.gated ?? []).map((r) => [r.path, r])), globs: lint.globVerdicts });
  return facts;
}

/** the files (absolute paths) below `base` that the rule (patterns relative to `base`) matches */
function* matchedBelow(compiled: CompiledPatterns, base: string, files: readonly string[]): Generator<string> {
  const under = base.endsWith(path.sep) ? base : base + path.sep;
  for (const f of files) if (f.startsWith(under) && matchesPath(compiled, f.slice(under.length).split(path.sep).join('/'))) yield f;
}

/** how many of the files (absolute paths) are files of the index's tree (not git-ignored) that the rule matches */
function countIn(index: WorkspaceIndex, compiled: CompiledPatterns, base: string, files: readonly string[]): number {
  let n = 0;
  for (const f of matchedBelow(compiled, base, files)) {
    const rel = index.rel(f);
    if (rel === undefined || rel === '') continue;
    const cut = rel.lastIndexOf('/');
    if (index.tree.find(cut < 0 ? '' : rel.slice(0, cut))?.files.includes(rel.slice(cut + 1))) n++;
  }
  return n;
}

/** does the rule (patterns relative to `base`) match any of the files (absolute paths)? */
function reachesAny(compiled: CompiledPatterns, base: string, files: readonly string[]): boolean {
  return !matchedBelow(compiled, base, files).next().done;
}

/** each nested CLAUDE.md, .claude/CLAUDE.md and CLAUDE.local.md below the launch directory, with what
 *  the first read below its folder injects for it: as lint's session injected it (`injected`: a file's entry
 *  is its own text, whichever touch brought it), else from a read of its own (a file that session never
 *  injected: read before, or past the touches' cap) */
function nestedFacts(a: Analysis, inv: Inventory, index: WorkspaceIndex, display: (p: string) => string, injected?: ReadonlyMap<string, string>): NestedFact[] {
  const cwd = a.env.cwd;
  const byFolder = new Map<string, string[]>();
  for (const c of inv.candidates) {
    if (c.kind !== 'claude-md' && c.kind !== 'dot-claude-md' && c.kind !== 'local') continue;
    const folder = c.kind === 'dot-claude-md' ? path.dirname(path.dirname(c.path)) : path.dirname(c.path);
    if (!isStrictlyInside(folder, cwd)) continue;
    const list = byFolder.get(folder) ?? [];
    list.push(c.path);
    byFolder.set(folder, list);
  }
  const out: NestedFact[] = [];
  for (const [folder, files] of byFolder) {
    let own: LazyInjection[] | undefined;
    for (const f of files) {
      let text = injected?.get(f);
      if (text === undefined) {
        // a Read of a path in the folder (one that need not exist) loads the chain down to it
        if (!own) {
          const node = index.node(folder);
          own = a.lazyFor(path.join(folder, node?.files.find((n) => !/^(CLAUDE\.md|CLAUDE\.local\.md|AGENTS\.md)$/.test(n)) ?? '.claude-layers-probe'), 'Read');
        }
        text = own.find((i) => i.path === f)?.text;
      }
      if (text !== undefined) out.push({ path: display(f), chars: text.length, folder: display(folder) });
    }
  }
  return out;
}
