// The first request's instruction files, in Claude Code's order (instructions spec §2):
// managed, user, the ancestor chain from just below `/` to the launch directory, --add-dir
// folders, the AGENTS.md fallback (where the profile has it), and AutoMem last.
import * as path from 'node:path';
import { MANAGED_SETTINGS_PATH } from '../format-strings.js';
import { isInside, isTruthyEnv, type Environment } from '../environment.js';
import { findGit } from '../files/git.js';
import type { LoadedFile, Loader } from './loader.js';
import type { Settings } from '../settings.js';

export interface StartupResult {
  files: LoadedFile[];
  /** the startup load pass's dedupe set (paths and real paths) */
  processed: Set<string>;
  /** folders from just below `/` down to the launch directory */
  ancestors: string[];
  /** ancestors whose project files are skipped (main repository around a linked worktree) */
  worktreeSkipped: Set<string>;
  /** the AGENTS.md fallback is in force (no CLAUDE.md in the ancestor chain, on a profile that has it) */
  agentsFallback: boolean;
}

export function instructionsDisabled(env: Environment): boolean {
  return env.bare || isTruthyEnv(env.env.CLAUDE_CODE_DISABLE_CLAUDE_MDS);
}

/** folders from just below `/` down to `dir`, top-down (`/` itself is never one) */
export function ancestorChain(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; d !== path.parse(d).root; d = path.dirname(d)) out.unshift(d);
  return out;
}

export function worktreeSkippedDirs(env: Environment, ancestors: string[]): Set<string> {
  const git = findGit(env.fs, env.cwd);
  const skipped = new Set<string>();
  if (git?.isWorktree && git.mainRoot && isInside(git.root, git.mainRoot) && git.root !== git.mainRoot) {
    for (const d of ancestors) if (isInside(d, git.mainRoot) && !isInside(d, git.root)) skipped.add(d);
  }
  return skipped;
}

/** directory an entry belongs to, for AGENTS.md placement: the folder holding `.claude`, else the file's folder */
function entryDir(p: string): string {
  const norm = p.replaceAll('\\', '/');
  const i = norm.lastIndexOf('/.claude/');
  const j = i === -1 ? norm.lastIndexOf('/') : i;
  return j <= 0 ? '/' : norm.slice(0, j);
}

export function loadStartup(loader: Loader, settings: Settings): StartupResult {
  const { env, profile } = loader.ctx;
  const processed = new Set<string>();
  const files: LoadedFile[] = [];
  const ancestors = ancestorChain(env.cwd);
  const worktreeSkipped = worktreeSkippedDirs(env, ancestors);
  if (instructionsDisabled(env)) return { files, processed, ancestors, worktreeSkipped, agentsFallback: false };
  const src = env.settingSources;

  // 1. managed
  const m = env.managedDir;
  files.push(...loader.loadFile(path.join(m, 'CLAUDE.md'), 'Managed', processed, { kind: 'managed-claude-md' }));
  const policy = settings.layers.find((l) => l.name === 'policy');
  const mgdText = policy?.data.claudeMd;
  if (typeof mgdText === 'string' && mgdText.trim()) {
    const proc = loader.process(MANAGED_SETTINGS_PATH, mgdText, false);
    if (proc.content.trim())
      files.push({ path: MANAGED_SETTINGS_PATH, type: 'Managed', content: proc.content, origin: { kind: 'managed-settings' }, processed: proc });
  }
  files.push(...loader.walkRules(path.join(m, '.claude', 'rules'), 'Managed', processed, env.cwd, false));

  // 2. user
  if (src.has('user')) {
    files.push(...loader.loadFile(path.join(env.userDir, 'CLAUDE.md'), 'User', processed, { kind: 'user-claude-md' }));
    files.push(...loader.walkRules(path.join(env.userDir, 'rules'), 'User', processed, env.cwd, false));
  }

  // 3. ancestor chain
  const projectStart = files.length;
  for (const d of ancestors) {
    const project = src.has('project') && !worktreeSkipped.has(d);
    if (project) {
      files.push(...loader.loadFile(path.join(d, 'CLAUDE.md'), 'Project', processed, { kind: 'claude-md', dir: d }));
      files.push(...loader.loadFile(path.join(d, '.claude', 'CLAUDE.md'), 'Project', processed, { kind: 'dot-claude-md', dir: d }));
      files.push(...loader.walkRules(path.join(d, '.claude', 'rules'), 'Project', processed, d, false));
    }
    if (src.has('local')) files.push(...loader.loadFile(path.join(d, 'CLAUDE.local.md'), 'Local', processed, { kind: 'local', dir: d }));
  }

  // 4. --add-dir folders, only with the environment switch
  if (env.addDirs.length && isTruthyEnv(env.env.CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD)) {
    for (const a of env.addDirs) {
      if (src.has('project')) {
        files.push(...loader.loadFile(path.join(a, 'CLAUDE.md'), 'Project', processed, { kind: 'claude-md', dir: a }));
        files.push(...loader.loadFile(path.join(a, '.claude', 'CLAUDE.md'), 'Project', processed, { kind: 'dot-claude-md', dir: a }));
        files.push(...loader.walkRules(path.join(a, '.claude', 'rules'), 'Project', processed, a, false));
      }
      if (src.has('local')) files.push(...loader.loadFile(path.join(a, 'CLAUDE.local.md'), 'Local', processed, { kind: 'local', dir: a }));
    }
  }

  // 6. AGENTS.md fallback (placed among the project entries)
  const agentsFallback = profile.agentsMdFallback && src.has('project') && !hasClaudeMdInChain(env, ancestors);
  if (agentsFallback) insertAgentsFallback(loader, files, projectStart, ancestors, worktreeSkipped, processed);

  return { files, processed, ancestors, worktreeSkipped, agentsFallback };
}

/** is some ancestor a "Claude project" (has CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md)? */
export function hasClaudeMdInChain(env: Environment, ancestors: string[]): boolean {
  return ancestors.some((d) =>
    ['CLAUDE.md', path.join('.claude', 'CLAUDE.md'), 'CLAUDE.local.md'].some((n) => {
      const s = env.fs.lstat(path.join(d, n));
      return s.ok;
    }),
  );
}

/** AGENTS.md and .claude/AGENTS.md of a folder, each followed by its includes */
export function loadAgentsFiles(loader: Loader, d: string, processed: Set<string>): LoadedFile[] {
  const out: LoadedFile[] = [];
  for (const name of ['AGENTS.md', path.join('.claude', 'AGENTS.md')]) {
    const got = loader.loadFile(path.join(d, name), 'Project', processed, { kind: 'agents-md', dir: d });
    if (got[0]) got[0].origin = { kind: 'agents-md', dir: d };
    out.push(...got);
  }
  return out;
}

const isProjectOrLocal = (f: LoadedFile) => f.type === 'Project' || f.type === 'Local';

/** the folder an entry belongs to: that of the top-level file that brought it in */
function groupDir(f: LoadedFile, byPath: Map<string, LoadedFile>): string {
  let cur = f;
  const seen = new Set<string>();
  while (cur.parent !== undefined && !seen.has(cur.parent)) {
    seen.add(cur.path);
    const up = byPath.get(cur.parent);
    if (!up) break;
    cur = up;
  }
  return entryDir(cur.path);
}

function insertAgentsFallback(loader: Loader, files: LoadedFile[], _projectStart: number, ancestors: string[], skipped: Set<string>, processed: Set<string>): void {
  const { env } = loader.ctx;
  if (hasClaudeMdInChain(env, ancestors)) return;
  const candidates: LoadedFile[] = [];
  for (const d of ancestors) if (!skipped.has(d)) candidates.push(...loadAgentsFiles(loader, d, processed));
  // an AGENTS file whose path or trimmed text is already among the instruction files is left out
  const paths = new Set(files.map((f) => path.normalize(f.path)));
  const texts = new Set(files.filter(isProjectOrLocal).map((f) => f.content.trim()));
  const agents: LoadedFile[] = [];
  for (const f of candidates) {
    const t = f.content.trim();
    if (paths.has(path.normalize(f.path)) || (t !== '' && texts.has(t))) continue;
    paths.add(path.normalize(f.path));
    agents.push(f);
  }
  if (agents.length === 0) return;
  const byPath = new Map(agents.map((f) => [f.path, f]));
  const groups = new Map<string, LoadedFile[]>();
  for (const f of agents) {
    const g = groupDir(f, byPath);
    groups.set(g, [...(groups.get(g) ?? []), f]);
  }
  for (const [dir, group] of groups) {
    const all = new Map(files.map((f) => [f.path, f]));
    let at = files.findIndex((f) => isProjectOrLocal(f) && isStrictlyBelow(groupDir(f, all), dir));
    if (at === -1) {
      const last = findLastIndex(files, isProjectOrLocal);
      at = last !== -1 ? last + 1 : files.length;
    }
    files.splice(at, 0, ...group);
  }
}

function isStrictlyBelow(p: string, dir: string): boolean {
  const a = p.replaceAll('\\', '/');
  const b = dir.replaceAll('\\', '/').replace(/(?<=.)\/+$/, '');
  return a.startsWith(`${b}/`);
}

function findLastIndex<T>(list: T[], pred: (t: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (pred(list[i]!)) return i;
  return -1;
}
