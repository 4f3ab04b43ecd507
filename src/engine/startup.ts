// The first request's instruction files, in Claude Code's order (instructions spec §2):
// managed, user, the ancestor chain from just below `/` to the launch directory, --add-dir
// folders, the AGENTS.md fallback (where the profile has it), and AutoMem last.
import * as path from 'node:path';
import { MANAGED_SETTINGS_PATH } from './format-strings.js';
import { isInside, isTruthyEnv, type Environment } from './environment.js';
import { findGit } from './git.js';
import type { LoadedFile, Loader } from './loader.js';
import type { Settings } from './settings.js';

export interface StartupResult {
  files: LoadedFile[];
  /** the startup load pass's dedupe set (paths and real paths) */
  processed: Set<string>;
  /** folders from just below `/` down to the launch directory */
  ancestors: string[];
  /** ancestors whose project files are skipped (main repository around a linked worktree) */
  worktreeSkipped: Set<string>;
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
  if (instructionsDisabled(env)) return { files, processed, ancestors, worktreeSkipped };
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
  if (profile.agentsMdFallback && src.has('project')) insertAgentsFallback(loader, files, projectStart, ancestors, worktreeSkipped, processed);

  return { files, processed, ancestors, worktreeSkipped };
}

function insertAgentsFallback(loader: Loader, files: LoadedFile[], projectStart: number, ancestors: string[], skipped: Set<string>, processed: Set<string>): void {
  const { env } = loader.ctx;
  const hasClaudeMd = ancestors.some((d) =>
    ['CLAUDE.md', path.join('.claude', 'CLAUDE.md'), 'CLAUDE.local.md'].some((n) => {
      const s = env.fs.stat(path.join(d, n));
      return s.ok && s.value.kind === 'file';
    }),
  );
  if (hasClaudeMd) return;
  for (const d of ancestors) {
    if (skipped.has(d)) continue;
    for (const name of ['AGENTS.md', path.join('.claude', 'AGENTS.md')]) {
      const p = path.join(d, name);
      const got = loader.loadFile(p, 'Project', processed, { kind: 'agents-md', dir: d }, 0);
      const file = got[0];
      if (!file) continue;
      // includes of AGENTS.md are not followed
      const entry: LoadedFile = { ...file, origin: { kind: 'agents-md', dir: d } };
      let at = files.length;
      for (let i = projectStart; i < files.length; i++) {
        const t = files[i]!.type;
        if ((t === 'Project' || t === 'Local') && files[i]!.origin.kind !== 'agents-md' && entryDir(files[i]!.path) !== d && isInside(entryDir(files[i]!.path), d)) {
          at = i;
          break;
        }
      }
      files.splice(at, 0, entry);
    }
  }
}
