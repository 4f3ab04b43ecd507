// What a tool touching a path injects later in the session (instructions spec §6, §7):
// managed and user conditional rules, then every folder strictly below the launch directory down
// to the file's folder (CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md, unconditional rules,
// matching conditional rules), then matching conditional rules of the launch directory and its
// ancestors. Each file once per session; files the model read itself count as seen.
//
// The lazy plan: what each folder contributes (its CLAUDE.md files and rules, with their includes,
// and the compiled `paths:` matchers) is loaded once and kept in the loader's unit cache
// (loader.ts, LoadUnit), which Analysis.refresh invalidates for the changed paths (and for what
// includes or resolves to them); a touch then replays the plans of the folders on its way and
// matches the conditional rules with glob-count.ts (the decisions of the `ignore` package, as
// Claude Code makes them, in O(depth) per rule).
import * as path from 'node:path';
import { entryText } from '../format-strings.js';
import { isInside, isStrictlyInside, type Environment } from '../environment.js';
import { compilePatterns, matchesPath, type CompiledPatterns } from '../globs/glob-count.js';
import { Loader, normalized, unitCacheSwitch, type LoadedFile } from './loader.js';
import type { ProcessedFile } from './content.js';
import type { FileAccess } from '../files/file-access.js';
import type { InstructionType, LazyInjection, Origin, TouchTool } from '../model.js';
import { hasClaudeMdInChain, instructionsDisabled, loadAgentsFiles, type StartupResult } from './startup.js';

export interface LazyPlan {
  files: LoadedFile[];
}

function inWorkingDirs(env: Environment, p: string): boolean {
  return isInside(p, env.cwd) || env.addDirs.some((a) => isInside(p, a));
}

const compiledOf = new WeakMap<LoadedFile, CompiledPatterns>();

/** does a conditional rule match the target, as globs.ts compileMatcher(base, globs).matches(target) decides */
function matchesTarget(f: LoadedFile, target: string): boolean {
  if (!f.globs || f.origin.kind !== 'rule') return false;
  let c = compiledOf.get(f);
  if (!c) compiledOf.set(f, (c = compilePatterns(f.globs)));
  const base = f.origin.base;
  let rel = target.length > base.length + 1 && target.startsWith(base) && target[base.length] === path.sep ? target.slice(base.length + 1) : path.relative(base, target);
  if (path.sep !== '/') rel = rel.split(path.sep).join('/');
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return false;
  return matchesPath(c, rel);
}

/**
 * One load of a touch's plan: a unit of the loader's cache (key, and how to load it) and what the
 * touch keeps of it: every file ('all'), the conditional rules that match the target
 * ('conditional'), or, for a nested folder's rules walk, the unconditional files and then the
 * matching conditional ones ('nested').
 */
interface Spec {
  key: string;
  mode: 'all' | 'conditional' | 'nested';
  run: (l: Loader, processed: Set<string>) => LoadedFile[];
  /**
   * what the load is of, when the loader can tell cheaply that it brings nothing (most folders of a
   * touch's chain have no CLAUDE.md and no rules): then no unit is recorded or replayed for it
   */
  probe?: { file: string; type: InstructionType } | { rulesDir: string };
}

/**
 * a `.claude/rules` walk (all files, with and without `paths:`); a project folder's walk is keyed
 * by its path (its base is the folder holding `.claude`), the managed and user ones by type too
 */
function rulesSpec(rulesDir: string, type: InstructionType, base: string, mode: Spec['mode']): Spec {
  return { key: type === 'Project' ? rulesDir : `${type}\0${base}\0${rulesDir}`, mode, run: (l, set) => l.walkRules(rulesDir, type, set, base, 'all'), probe: { rulesDir } };
}

/** one instruction file and its includes, keyed by its path (the name tells its type and kind) */
function fileSpec(p: string, type: InstructionType, origin: Origin): Spec {
  return { key: p, mode: 'all', run: (l, set) => l.loadFile(p, type, set, origin), probe: { file: p, type } };
}

/** what one folder strictly below the launch directory contributes, in order */
function folderSpecs(env: Environment, d: string): Spec[] {
  const src = env.settingSources;
  const out: Spec[] = [];
  if (src.has('project')) {
    out.push(fileSpec(path.join(d, 'CLAUDE.md'), 'Project', { kind: 'claude-md', dir: d }));
    out.push(fileSpec(path.join(d, '.claude', 'CLAUDE.md'), 'Project', { kind: 'dot-claude-md', dir: d }));
  }
  if (src.has('local')) out.push(fileSpec(path.join(d, 'CLAUDE.local.md'), 'Local', { kind: 'local', dir: d }));
  // one walk (one dedupe pass): unconditional files first, then the matching conditional ones
  if (src.has('project')) out.push(rulesSpec(path.join(d, '.claude', 'rules'), 'Project', d, 'nested'));
  return out;
}

/**
 * The plans' specs, kept per unit cache and its copies (its lineage: a diff's head shares its base's): they hold
 * paths only, never what is on disk, so nothing invalidates them but the launch directory and the setting
 * sources they are made for (`made`). Per folder, and per target folder the chain from the launch directory down.
 */
interface SpecCache {
  made: string;
  folders: Map<string, FolderPlan>;
  chains: Map<string, FolderPlan[]>;
}

/** one folder of a touch's chain and its loads, in order */
interface FolderPlan {
  dir: string;
  specs: Spec[];
}
const specCaches = new WeakMap<object, SpecCache>();
const MAX_CHAINS = 20_000;

function chainFor(loader: Loader, targetDir: string): FolderPlan[] {
  const { env } = loader.ctx;
  const made = `${env.cwd}\0${[...env.settingSources].sort().join(',')}`;
  let cache = specCaches.get(loader.texts.units.lineage);
  if (!cache || cache.made !== made) specCaches.set(loader.texts.units.lineage, (cache = { made, folders: new Map(), chains: new Map() }));
  const hit = cache.chains.get(targetDir);
  if (hit) return hit;
  const rel = path.relative(env.cwd, targetDir);
  const parts = rel ? rel.split(path.sep) : [];
  const chain: FolderPlan[] = [];
  let d = env.cwd;
  for (const part of parts) {
    d = path.join(d, part);
    let plan = cache.folders.get(d);
    if (!plan) {
      if (cache.folders.size >= MAX_CHAINS) cache.folders.clear();
      cache.folders.set(d, (plan = { dir: d, specs: folderSpecs(env, d) }));
    }
    chain.push(plan);
  }
  if (cache.chains.size >= MAX_CHAINS) cache.chains.clear();
  cache.chains.set(targetDir, chain);
  return chain;
}

/** the loads before and after the nested folders: managed and user rules; the ancestors' rules */
const edgeSpecs = new WeakMap<StartupResult, { head: Spec[]; tail: Spec[] }>();

function edgesFor(env: Environment, startup: StartupResult): { head: Spec[]; tail: Spec[] } {
  let e = edgeSpecs.get(startup);
  if (e) return e;
  const src = env.settingSources;
  const head = [rulesSpec(path.join(env.managedDir, '.claude', 'rules'), 'Managed', env.cwd, 'conditional')];
  if (src.has('user')) head.push(rulesSpec(path.join(env.userDir, 'rules'), 'User', env.cwd, 'conditional'));
  const tail: Spec[] = [];
  if (src.has('project'))
    for (const d of startup.ancestors) if (!startup.worktreeSkipped.has(d)) tail.push(rulesSpec(path.join(d, '.claude', 'rules'), 'Project', d, 'conditional'));
  edgeSpecs.set(startup, (e = { head, tail }));
  return e;
}

/**
 * What a folder of the chain did in a session's first touch below it: the keys its loads added to
 * the pass's dedupe set, and its conditional rules. A later touch below it in the same session
 * brings nothing else of it: every other file it gave was injected then (or was already gone), and
 * every touch applies the same folders above it first, so its loads would decide as they did.
 * The touch then adds those keys (later loads of the pass are deduped as before) and matches the
 * conditional rules against its own target, without loading the folder again.
 */
export interface FolderDone {
  added: string[];
  conditional: LoadedFile[];
}

/**
 * Every instruction file a touch of `target` would bring in, in order, before once-per-session
 * filtering. `processed` seeds the pass's dedupe set. `settled(f)`: a conditional file the caller
 * will drop anyway (already injected in its session) is not matched against the target. `done`:
 * the session's record of the chain folders already applied (FolderDone), read and filled here;
 * only for a caller that injects every file returned that is not settled.
 */
export function collectLazy(loader: Loader, startup: StartupResult, target: string, processed: Set<string>, settled?: (f: LoadedFile) => boolean, done?: Map<string, FolderDone>): LoadedFile[] {
  const { env } = loader.ctx;
  if (instructionsDisabled(env) || !inWorkingDirs(env, target)) return [];
  // with the unit cache off (the tests' reference), every touch loads everything again: no shortcut
  const planned = unitCacheSwitch.enabled;
  if (!planned) done = undefined;
  const out: LoadedFile[] = [];
  const matching = (files: LoadedFile[]) => {
    for (const f of files) if (!settled?.(f) && matchesTarget(f, target)) out.push(f);
  };
  /** applies a load; returns its conditional files (those matched against the target) */
  const apply = (spec: Spec): LoadedFile[] => {
    const pr = spec.probe;
    if (planned && pr && ('file' in pr ? loader.missingChainFile(pr.file, pr.type, processed) : loader.rulesDirAbsent(pr.rulesDir))) return NONE;
    const files = loader.loadUnit(spec.key, processed, spec.run);
    if (spec.mode === 'all') {
      for (const f of files) out.push(f);
      return NONE;
    }
    // (a walk keeping only the files with `paths:` and then the matching ones keeps the matching ones)
    if (spec.mode === 'nested') for (const f of files) if (!f.globs) out.push(f);
    matching(files);
    return files;
  };
  const { head, tail } = edgesFor(env, startup);
  for (const spec of head) apply(spec);
  const nested = isStrictlyInside(target, env.cwd);
  if (nested)
    for (const plan of chainFor(loader, path.dirname(target))) {
      const was = done?.get(plan.dir);
      if (was) {
        for (const k of was.added) processed.add(k);
        matching(was.conditional);
        continue;
      }
      const before = processed.size;
      const conditional: LoadedFile[] = [];
      for (const spec of plan.specs) for (const f of apply(spec)) if (f.globs) conditional.push(f);
      if (done) {
        // a Set iterates in insertion order: what this folder added is its tail
        const added: string[] = [];
        let i = 0;
        for (const k of processed) if (i++ >= before) added.push(k);
        done.set(plan.dir, { added, conditional });
      }
    }
  for (const spec of tail) apply(spec);

  // AGENTS.md of nested folders without their own CLAUDE.md, while the fallback is in force;
  // they arrive after the tool result as one hook message
  if (startup.agentsFallback && nested) {
    const rel = path.relative(env.cwd, path.dirname(target));
    let d = env.cwd;
    for (const part of rel ? rel.split(path.sep) : []) {
      d = path.join(d, part);
      if (hasClaudeMdInChain(env, [d])) continue;
      for (const f of loadAgentsFiles(loader, d, processed)) out.push({ ...f, viaHook: true });
    }
  }
  return out;
}

const NONE: LoadedFile[] = [];

export function describeReason(f: LoadedFile, env: Environment): string {
  const o = f.origin;
  const rel = (p: string) => path.relative(env.cwd, p) || '.';
  switch (o.kind) {
    case 'rule':
      return f.globs ? `rule ${path.basename(f.path)}: paths ${(f.processed.rawGlobs ?? f.globs).join(', ')} matched` : `rule of nested folder ${rel(o.base)}/`;
    case 'include':
      return `@-included by ${path.basename(o.parent)}`;
    case 'claude-md':
    case 'dot-claude-md':
    case 'local':
      return `nested folder ${rel(o.dir)}/`;
    case 'agents-md':
      return `AGENTS.md of nested folder ${rel(o.dir)}/`;
    default:
      return o.kind;
  }
}

/** what a session has injected or seen read (normalized paths) */
export interface LazyMemory {
  injected: string[];
  read: string[];
}

/** One Claude Code session: what has been injected or read so far. */
/** `p` with the symlinks of its folders resolved (Claude Code injects by real path, e.g. for a file reached
 *  through a linked launch directory): the real path of its nearest existing folder plus the rest. Folders
 *  only, so that files of a known folder cost no disk operation (the snapshot keeps folder real paths). */
function realTarget(fs: FileAccess, p: string): string {
  const rest = [path.basename(p)];
  for (let d = path.dirname(p), i = 0; i < 256; i++) {
    const r = fs.realpath(d);
    if (r.ok) return path.join(r.value, ...rest.reverse());
    const up = path.dirname(d);
    if (up === d) break;
    rest.push(path.basename(d));
    d = up;
  }
  return p;
}

export class LazySession {
  private readonly injected = new Set<string>();
  private readonly read = new Set<string>();
  /** the chain folders this session has applied (see FolderDone) */
  private readonly done = new Map<string, FolderDone>();

  /** lazy loads never follow external includes on the strength of the project's approval (measured) */
  private readonly lazyLoader: Loader;

  constructor(
    private readonly loader: Loader,
    private readonly startup: StartupResult,
    private readonly startupPaths: ReadonlySet<string>,
  ) {
    this.lazyLoader = new Loader({ ...loader.ctx, externalApproved: false }, loader.texts);
  }

  touch(tool: TouchTool, target: string): LazyInjection[] {
    const { env, profile } = this.loader.ctx;
    const abs = realTarget(env.fs, path.resolve(env.cwd, target));
    if (tool === 'Read') this.read.add(path.normalize(abs));
    if (!profile.lazyTriggers.includes(tool)) return [];
    const gone = (key: string) => this.injected.has(key) || this.read.has(key) || (profile.dedupeLazyAgainstStartup && this.startupPaths.has(key));
    const files = collectLazy(this.lazyLoader, this.startup, abs, new Set<string>(), (f) => gone(normalized(f.path)), this.done);
    const out: LazyInjection[] = [];
    for (const f of files) {
      const key = normalized(f.path);
      if (gone(key)) continue;
      this.injected.add(key);
      out.push({ path: f.path, content: f.content, text: entryText(f.path, '', f.content), origin: f.origin, reason: describeReason(f, env), ...(f.viaHook && { viaHook: true }) });
    }
    return out;
  }

  /** what this session has injected or seen read, to carry into a session over a changed tree */
  memory(): LazyMemory {
    return { injected: [...this.injected], read: [...this.read] };
  }

  /** takes over what another session (or an earlier one over the same tree) injected or saw read */
  remember(m: LazyMemory): void {
    for (const k of m.injected) this.injected.add(k);
    for (const k of m.read) this.read.add(k);
  }

  /** forgets a file (deleted on disk): a later touch injects it again */
  forget(p: string): void {
    const k = path.normalize(p);
    // a folder's record assumes what it gave was injected: a file that comes back is loaded again
    this.done.clear();
    this.injected.delete(k);
    this.read.delete(k);
  }

  /** the lazy plan's counters: loads recorded, replayed, and done for real (see loader.ts LoadUnit) */
  planStats(): { recorded: number; replayed: number; loaded: number; units: number } {
    const u = this.loader.texts.units;
    return { ...u.stats, units: u.size };
  }

  /** a file's text as the engine processes it (frontmatter, comments, includes), kept for later loads */
  processText(p: string, text: string): ProcessedFile {
    return this.lazyLoader.process(p, text, true);
  }

  /** what a touch would inject now, without recording it */
  peek(tool: TouchTool, target: string): LazyInjection[] {
    const copy = new LazySession(this.loader, this.startup, this.startupPaths);
    for (const k of this.injected) copy.injected.add(k);
    for (const k of this.read) copy.read.add(k);
    return copy.touch(tool, target);
  }
}
