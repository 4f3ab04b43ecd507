// What a tool touching a path injects later in the session (instructions spec §6, §7):
// managed and user conditional rules, then every folder strictly below the launch directory down
// to the file's folder (CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md, unconditional rules,
// matching conditional rules), then matching conditional rules of the launch directory and its
// ancestors. Each file once per session; files the model read itself count as seen.
import * as path from 'node:path';
import { entryText } from './format-strings.js';
import { isInside, isStrictlyInside, type Environment } from './environment.js';
import { compileMatcher } from './globs.js';
import { Loader, type LoadedFile } from './loader.js';
import type { LazyInjection, TouchTool } from './model.js';
import { hasClaudeMdInChain, instructionsDisabled, loadAgentsFiles, type StartupResult } from './startup.js';

export interface LazyPlan {
  files: LoadedFile[];
}

function inWorkingDirs(env: Environment, p: string): boolean {
  return isInside(p, env.cwd) || env.addDirs.some((a) => isInside(p, a));
}

function matchesTarget(f: LoadedFile, target: string): boolean {
  if (!f.globs || f.origin.kind !== 'rule') return false;
  return compileMatcher(f.origin.base, f.globs).matches(target);
}

/**
 * Every instruction file a touch of `target` would bring in, in order, before once-per-session
 * filtering. `processed` seeds the pass's dedupe set.
 */
export function collectLazy(loader: Loader, startup: StartupResult, target: string, processed: Set<string>): LoadedFile[] {
  const { env } = loader.ctx;
  if (instructionsDisabled(env) || !inWorkingDirs(env, target)) return [];
  const src = env.settingSources;
  const out: LoadedFile[] = [];
  const conditional = (files: LoadedFile[]) => files.filter((f) => matchesTarget(f, target));

  out.push(...conditional(loader.walkRules(path.join(env.managedDir, '.claude', 'rules'), 'Managed', processed, env.cwd, true)));
  if (src.has('user')) out.push(...conditional(loader.walkRules(path.join(env.userDir, 'rules'), 'User', processed, env.cwd, true)));

  if (isStrictlyInside(target, env.cwd)) {
    const targetDir = path.dirname(target);
    const rel = path.relative(env.cwd, targetDir);
    const parts = rel ? rel.split(path.sep) : [];
    let d = env.cwd;
    for (const part of parts) {
      d = path.join(d, part);
      if (src.has('project')) {
        out.push(...loader.loadFile(path.join(d, 'CLAUDE.md'), 'Project', processed, { kind: 'claude-md', dir: d }));
        out.push(...loader.loadFile(path.join(d, '.claude', 'CLAUDE.md'), 'Project', processed, { kind: 'dot-claude-md', dir: d }));
      }
      if (src.has('local')) out.push(...loader.loadFile(path.join(d, 'CLAUDE.local.md'), 'Local', processed, { kind: 'local', dir: d }));
      if (src.has('project')) {
        // one walk (one dedupe pass): unconditional files first, then the matching conditional ones
        const all = loader.walkRules(path.join(d, '.claude', 'rules'), 'Project', processed, d, 'all');
        out.push(...all.filter((f) => !f.globs));
        out.push(...conditional(all));
      }
    }
  }

  if (src.has('project')) {
    for (const d of startup.ancestors) {
      if (startup.worktreeSkipped.has(d)) continue;
      out.push(...conditional(loader.walkRules(path.join(d, '.claude', 'rules'), 'Project', processed, d, true)));
    }
  }

  // AGENTS.md of nested folders without their own CLAUDE.md, while the fallback is in force;
  // they arrive after the tool result as one hook message
  if (startup.agentsFallback && isStrictlyInside(target, env.cwd)) {
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

/** One Claude Code session: what has been injected or read so far. */
export class LazySession {
  private readonly injected = new Set<string>();
  private readonly read = new Set<string>();

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
    const abs = path.resolve(env.cwd, target);
    if (tool === 'Read') this.read.add(path.normalize(abs));
    if (!profile.lazyTriggers.includes(tool)) return [];
    const files = collectLazy(this.lazyLoader, this.startup, abs, new Set<string>());
    const out: LazyInjection[] = [];
    for (const f of files) {
      const key = path.normalize(f.path);
      if (this.injected.has(key) || this.read.has(key)) continue;
      if (profile.dedupeLazyAgainstStartup && this.startupPaths.has(key)) continue;
      this.injected.add(key);
      out.push({ path: f.path, content: f.content, text: entryText(f.path, '', f.content), origin: f.origin, reason: describeReason(f, env), ...(f.viaHook && { viaHook: true }) });
    }
    return out;
  }

  /** what a touch would inject now, without recording it */
  peek(tool: TouchTool, target: string): LazyInjection[] {
    const copy = new LazySession(this.loader, this.startup, this.startupPaths);
    for (const k of this.injected) copy.injected.add(k);
    for (const k of this.read) copy.read.add(k);
    return copy.touch(tool, target);
  }
}
