// Workspace lint: every diagnostic of the analysis, plus the checks that need the whole workspace
// (files that only load lazily, globs against the repository's files, names, memory, skills,
// secrets). Pure TypeScript, no vscode: the CLI's `lint` and the editor share it. Never throws:
// a check that fails is reported as an info diagnostic and the others go on.
import * as os from 'node:os';
import * as path from 'node:path';
import type { Analysis } from '../analysis.js';
import { grouped, type Diagnostic, type Severity } from '../diagnostics.js';
import { below, isInside } from '../environment.js';
import { fileChecks, nameChecks, readText } from './file-checks.js';
import { globCheck, type GatedRule, type RuleVerdict } from './glob-check.js';
import { buildInventory, type Inventory } from './inventory.js';
import { mcpCheck } from './mcp-check.js';
import { memoryCheck, memoryReport } from './memory-check.js';
import { reachableTexts } from './reachable.js';
import { scanSecrets, type SecretSource } from './secrets.js';
import { skillsCheck, skillsView } from './skills-check.js';
import { nodeFileAccess, type FileAccess } from '../files/file-access.js';
import type { EngineOptions } from '../environment.js';
import { caseSensitive, indexedFileAccess, WorkspaceIndex } from '../files/workspace-index.js';
import { DEFAULT_MAX_FILES, indexWorkspace } from './workspace.js';

export { RULES, ruleInfo, type RuleInfo } from './rules.js';
export { memoryReport, describeEntry, type MemoryReport, type LostEntry } from './memory-check.js';
export { skillsView, type SkillsView, type SkillView } from './skills-check.js';
export { mcpCheck, mcpFindings, neverConnected, fillMessage, MCP_MESSAGES, type McpDiagnostic, type McpMessageKey } from './mcp-check.js';
export { indexWorkspace, ignoredListing, CRAWL_BUDGET_MS } from './workspace.js';
export { mask } from './secrets.js';

export interface LintOptions {
  /** stop listing the workspace after this many files (default 200,000) */
  maxFiles?: number;
  /** scan for secrets (default true) */
  secrets?: boolean;
  /**
   * the workspace index of the launch directory, when the caller has one (lintPrepare, the
   * editor's index); built here otherwise
   */
  index?: WorkspaceIndex;
  /** told how long each phase took (for the benchmark) */
  onPhase?: (phase: string, ms: number) => void;
  /** the crawl stops at this time (`now()`, ms), with scan-truncated naming where */
  deadline?: { at: number; now: () => number };
  /** the whole run's limit: past it, the checks not yet run are skipped (scan-truncated says which) */
  runDeadline?: { at: number; now: () => number };
  /** a rule's glob verdict known from another revision (diff's head; see globCheck's `reuse`) */
  globReuse?: (r: GatedRule) => RuleVerdict | undefined;
}

/**
 * Lint and the analysis it reports on share one crawl: index the launch directory first, then let
 * the analysis answer from the index (no stat of a CLAUDE.md that the listing shows is absent, no
 * listing of a folder twice). The index FileAccess is used only where it is exact: a
 * case-sensitive file system and a crawl that was not cut at the file cap.
 */
export function lintPrepare(
  options: EngineOptions,
  maxFiles = DEFAULT_MAX_FILES,
  deadline?: { at: number; now: () => number },
  /** answer from the index over the caller's FileAccess too (diff's view of a commit, exact and case-sensitive) */
  indexGivenFs = false,
  /** the launch directory's index, already built over `options.fs` (diff's head, derived from its base's) */
  built?: WorkspaceIndex,
): { options: EngineOptions; index?: WorkspaceIndex } {
  let index: WorkspaceIndex | undefined = built;
  if (!index) {
    try {
      // the engine works in the launch directory's real path (environment.ts): index that
      const given = path.resolve(options.cwd);
      const real = (options.fs ?? nodeFileAccess).realpath(given);
      // a caller's FileAccess (diff's view of a commit) is crawled as it is
      index = indexWorkspace(real.ok ? real.value : given, maxFiles, deadline, options.fs);
    } catch {
      return { options };
    }
  }
  const inner: FileAccess = options.fs ?? nodeFileAccess;
  if (index.truncated || (options.fs && !indexGivenFs) || (!options.fs && !caseSensitive(index.root))) return { options, index };
  return { options: { ...options, fs: indexedFileAccess(index, inner, { home: options.home, listIgnored: false }) }, index };
}

export interface LintResult {
  diagnostics: Diagnostic[];
  filesScanned: number;
  truncated: boolean;
  /** what the checks worked on, for `diff` (which reports on the same files without a second pass) */
  inventory?: Inventory;
  /** the conditional rules checked: the analysis' and the nested ones below the launch directory */
  gated?: GatedRule[];
  /** what the session's touches injected (each file once, as its first touch injected it), by path: for `diff` */
  injected?: Map<string, string>;
  /** each conditional rule's glob verdict, by path: for `diff`'s other revision */
  globVerdicts?: Map<string, RuleVerdict>;
}

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
export const severityRank = (s: Severity): number => SEVERITY_RANK[s];

/** display form of a path: relative to the launch directory, `~/…` under HOME, else absolute */
export function displayPath(p: string, cwd: string, home: string = os.homedir()): string {
  if (!p) return p;
  const rel = below(p, cwd);
  if (rel !== undefined) return rel;
  if (isInside(p, cwd)) return path.relative(cwd, p) || '.';
  if (home && isInside(p, home)) return `~/${path.relative(home, p)}`;
  return p;
}

/** engine and check ids that mean the same finding on the same file */
const SAME_FINDING = new Set(['invalid-frontmatter', 'over-4mib', 'large-file', 'rule-not-md']);

function merge(engine: Diagnostic[], checks: Diagnostic[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const exact = new Set<string>();
  const byFile = new Set<string>();
  const add = (d: Diagnostic) => {
    const k = `${d.path}\0${d.line ?? ''}\0${d.rule}\0${d.message}`;
    if (exact.has(k)) return;
    if (SAME_FINDING.has(d.rule) && byFile.has(`${d.path}\0${d.rule}`)) return;
    exact.add(k);
    byFile.add(`${d.path}\0${d.rule}`);
    out.push(d);
  };
  engine.forEach(add);
  checks.forEach(add);
  return out;
}

/** a failed check names the launch directory rather than an empty path */
function located(ds: Diagnostic[], cwd: string): Diagnostic[] {
  return ds.map((d) => (d.path === '' && d.rule === 'check-failed' ? { ...d, path: cwd } : d));
}

/** A check that throws is a bug: an `error` finding (so `lint --fail-on error` fails), with the stack in
 *  `detail` (`lint --verbose` prints it); the other checks still run. */
export function checkFailed(name: string, e: unknown, where = ''): Diagnostic {
  const err = e instanceof Error ? e : undefined;
  return {
    path: where, severity: 'error', rule: 'check-failed',
    message: `the ${name} check crashed and was skipped${where ? ' for this file' : ''}: ${err?.message ?? String(e)} (a bug in claude-layers; the other checks ran)`,
    ...(err?.stack && { detail: err.stack }),
  };
}

export function guard<T>(name: string, fallback: T, sink: Diagnostic[], f: () => T): T {
  try {
    return f();
  } catch (e) {
    sink.push(checkFailed(name, e));
    return fallback;
  }
}

export async function lintWorkspace(a: Analysis, opts: LintOptions = {}): Promise<LintResult> {
  const env = a.env;
  const checks: Diagnostic[] = [];
  let t0 = performance.now();
  const phase = (name: string) => {
    if (!opts.onPhase) return;
    const t = performance.now();
    opts.onPhase(name, t - t0);
    t0 = t;
  };
  const display = (p: string) => displayPath(p, env.cwd, env.home);
  const given = opts.index && opts.index.root === path.resolve(env.cwd) ? opts.index : undefined;
  const index = given ?? guard<WorkspaceIndex | undefined>('workspace listing', undefined, checks, () => indexWorkspace(env.cwd, opts.maxFiles ?? DEFAULT_MAX_FILES, opts.deadline, env.fs));
  if (!index) return { diagnostics: merge(a.diagnostics, located(checks, env.cwd)), filesScanned: 0, truncated: false };
  if (index.stoppedAt)
    checks.push({
      path: env.cwd, severity: 'info', rule: 'scan-truncated',
      message: `the listing of the workspace stopped at its time limit, at ${display(index.stoppedAt.folder)} (${grouped(index.dirsListed)} folders listed, ${grouped(index.stoppedAt.pending)} not): instruction files in the folders not listed are not checked, and "glob matches nothing" verdicts were skipped`,
    });
  else if (index.truncated)
    checks.push({ path: env.cwd, severity: 'info', rule: 'scan-truncated', message: `more than ${grouped(opts.maxFiles ?? DEFAULT_MAX_FILES)} files${index.firstLeftOut ? ` (the first left out: ${display(index.firstLeftOut)})` : ''}: "glob matches nothing" verdicts were skipped` });
  for (const d of index.unreadableDirs)
    checks.push({ path: d, severity: 'info', rule: 'unreadable', message: 'folder cannot be read: neither this lint nor Claude Code (run as this user) sees the instruction files inside it' });
  if (given) t0 = performance.now();
  else phase('index the workspace');
  const inv = guard<Inventory>('inventory', { candidates: [], names: [], files: 0 }, checks, () => buildInventory(env, index));
  phase('inventory');

  checks.push(...guard('naming', [], checks, () => nameChecks(inv, display)));
  // the session processes each text once for the file checks and the touches below
  const session = a.session();
  const files = guard('file', { diagnostics: [], conditional: [] }, checks, () => fileChecks(env, a.profile, inv, (p, text) => session.processText(p, text)));
  checks.push(...files.diagnostics);
  phase('file checks');

  // conditional rules: those the analysis knows (managed, user, ancestors) and nested ones found here
  const gated: GatedRule[] = [];
  const seen = new Set<string>();
  for (const r of a.conditionalRules) {
    seen.add(r.path);
    gated.push({ path: r.path, type: r.type, base: r.base, patterns: r.patterns, rawPatterns: r.rawPatterns, line: r.line });
  }
  for (const r of files.conditional) {
    if (seen.has(r.path)) continue;
    // only nested rules below the launch directory: the others are in the analysis (or never load)
    if (r.type === 'Project' && !isInside(r.base, env.cwd)) continue;
    if (r.type !== 'Project') continue;
    seen.add(r.path);
    gated.push(r);
  }
  // past the run's time limit, the remaining checks are skipped, and said so
  const late = (skipping: string): boolean => {
    const d = opts.runDeadline;
    if (!d || d.now() <= d.at) return false;
    checks.push({ path: env.cwd, severity: 'info', rule: 'scan-truncated', message: `lint's time limit passed: ${skipping} skipped` });
    return true;
  };
  const globs = late('the glob, memory, skills, reachability and secrets checks were')
    ? { diagnostics: [], firstMatch: new Map<string, string>() }
    : guard('glob', { diagnostics: [], firstMatch: new Map<string, string>() }, checks, () => globCheck(gated, index, display, undefined, opts.globReuse));
  checks.push(...globs.diagnostics);
  phase('globs');

  const mem = guard('memory', undefined, checks, () => memoryReport(env, a.memory.index));
  checks.push(...memoryCheck(mem));
  checks.push(...guard('skills', [], checks, () => skillsCheck(skillsView(a))));
  // MCP servers: their cost in the first request, cuts, scopes, and the user's own sessions (read only); the
  // transcripts are read in ranges, which the workspace index's FileAccess does not offer
  checks.push(...guard('MCP', [], checks, () => mcpCheck(a, env.fs.readRange ? env.fs : nodeFileAccess)));
  phase('mcp');

  // what reaches the request (the touches also surface the engine's findings on nested files)
  const reachable = late('the reachability (nested files, conditional rules) and secrets checks were') ? [] : guard('reachability', [], checks, () => reachableTexts(a, index, inv, globs.firstMatch.values(), session));
  phase('touches');
  if (opts.secrets !== false && !late('the secrets check was')) {
    const sources: SecretSource[] = [];
    const seenText = new Set<string>();
    const rawCache = new Map<string, string | undefined>();
    const raw = (p: string) => {
      if (!rawCache.has(p)) {
        const r = readText(env, p);
        rawCache.set(p, r.ok ? r.text : undefined);
      }
      return rawCache.get(p);
    };
    for (const r of reachable) {
      const k = `${r.path}\0${r.content}`;
      if (seenText.has(k)) continue;
      seenText.add(k);
      sources.push({ path: r.path, content: r.content, raw: raw(r.path), how: r.how });
    }
    for (const c of inv.candidates) {
      if (c.kind !== 'skill') continue;
      const text = raw(c.path);
      if (text !== undefined) sources.push({ path: c.path, content: text, raw: text, how: 'skill listing and body on invocation' });
    }
    try {
      checks.push(...(await scanSecrets(sources)));
    } catch (e) {
      checks.push(checkFailed('secrets', e));
    }
  }

  phase('secrets');
  // the analysis' own diagnostics, read after the touches so nested files' problems are in
  const diagnostics = merge(a.diagnostics, located(checks, env.cwd));
  const injected = new Map<string, string>();
  for (const r of reachable) if (r.text !== undefined && !injected.has(r.path)) injected.set(r.path, r.text);
  return { diagnostics, filesScanned: inv.files, truncated: index.truncated, inventory: inv, gated, injected, ...('perRule' in globs && { globVerdicts: globs.perRule }) };
}

/** stable order for output: by path, then line, then severity */
export function sortDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  return ds
    .map((d, i) => ({ d, i }))
    .sort((x, y) => {
      if (x.d.path !== y.d.path) return x.d.path === '' ? -1 : y.d.path === '' ? 1 : x.d.path < y.d.path ? -1 : 1;
      const lx = x.d.line ?? 0;
      const ly = y.d.line ?? 0;
      if (lx !== ly) return lx - ly;
      const s = SEVERITY_RANK[x.d.severity] - SEVERITY_RANK[y.d.severity];
      return s !== 0 ? s : x.i - y.i;
    })
    .map((x) => x.d);
}
