// Which files of the workspace (and of the user and managed folders) Claude Code treats as
// instruction files, rules or skills: the candidates every workspace check looks at.
import * as path from 'node:path';
import type { Environment } from '../environment.js';
import { listEntries, type FileAccess } from '../files/file-access.js';
import type { InstructionType } from '../model.js';
import type { DirNode } from '../globs/glob-count.js';
import type { WorkspaceIndex } from '../files/workspace-index.js';


export type CandidateKind = 'claude-md' | 'dot-claude-md' | 'local' | 'rule' | 'skill';

export interface Candidate {
  path: string;
  kind: CandidateKind;
  type: InstructionType;
  /** for rules: the `.claude/rules` folder it sits under, and the folder globs are matched from */
  rulesDir?: string;
  base?: string;
}

export interface Inventory {
  candidates: Candidate[];
  /** the file and folder paths whose names the naming check must look at (absolute) */
  names: { path: string; isDir: boolean }[];
  /** files of the workspace looked at (kept and git-ignored ones of the crawled folders) */
  files: number;
}

const MAX_SIDE_FILES = 5000;

/** folders of the user folder that hold no instructions and may be large */
const SIDE_SKIPPED = new Set(['projects', 'plugins', 'todos', 'shell-snapshots', '.git', 'node_modules']);

/**
 * files below a folder outside the workspace (user ~/.claude, managed), small and bounded: at most
 * MAX_SIDE_FILES files, `maxDepth` folders down; symbolic links are listed as files, not followed.
 * `dirs` holds the folder itself and every folder seen (entered or, at the depth limit, not).
 */
export function crawlSmall(fa: FileAccess, dir: string, maxDepth: number): { files: string[]; dirs: string[] } {
  const files: string[] = [];
  const dirs: string[] = [dir];
  const stack: { d: string; depth: number }[] = [{ d: dir, depth: 0 }];
  while (stack.length && files.length < MAX_SIDE_FILES) {
    const { d, depth } = stack.pop()!;
    const r = listEntries(fa, d);
    if (!r.ok) continue;
    for (const e of r.value) {
      const p = d + path.sep + e.name;
      if (e.isDirectory()) {
        if (SIDE_SKIPPED.has(e.name)) continue;
        dirs.push(p);
        if (depth < maxDepth) stack.push({ d: p, depth: depth + 1 });
      } else if (files.length < MAX_SIDE_FILES) files.push(p);
    }
  }
  return { files, dirs };
}

/** classify a file found under `cwd`, from its `/`-separated path relative to it */
function classifyProject(p: string, rel: string, cwd: string): Candidate | undefined {
  if (!rel.includes('CLAUDE') && !rel.includes('.claude') && !rel.includes('SKILL')) return undefined;
  const parts = rel.split('/');
  const name = parts[parts.length - 1]!;
  const dir = path.dirname(p);
  let ri = -1;
  for (let i = 0; i < parts.length - 2; i++) if (parts[i] === '.claude' && parts[i + 1] === 'rules') ri = i + 1;
  const ci = ri !== -1 ? ri - 1 : parts.lastIndexOf('.claude');
  if (ri !== -1) {
    const base = path.join(cwd, ...parts.slice(0, ci));
    return { path: p, kind: 'rule', type: 'Project', rulesDir: path.join(base, '.claude', 'rules'), base };
  }
  if (ci !== -1 && parts[ci + 1] === 'skills' && name === 'SKILL.md' && parts.length === ci + 4) return { path: p, kind: 'skill', type: 'Project' };
  if (name === 'CLAUDE.md' && path.basename(dir) === '.claude' && ci === parts.length - 2) return { path: p, kind: 'dot-claude-md', type: 'Project' };
  if (name === 'CLAUDE.md' && ci === -1) return { path: p, kind: 'claude-md', type: 'Project' };
  if (name === 'CLAUDE.local.md' && ci === -1) return { path: p, kind: 'local', type: 'Local' };
  return undefined;
}

/** lowercase names the naming check looks at (see file-checks.ts wrongCase) */
const NAME_CHECKED = new Set(['claude.md', 'claude.local.md', '.claude', 'rules', 'skills', 'settings.json', 'settings.local.json', 'skill.md']);

export function buildInventory(env: Environment, index: WorkspaceIndex): Inventory {
  const candidates: Candidate[] = [];
  const names: { path: string; isDir: boolean }[] = [];
  let files = 0;
  const root = index.root;
  // every folder the crawl listed: its files (kept or git-ignored) and its sub-folders; the naming
  // check needs only a few names, the inventory only instruction-like files
  const visit = (node: DirNode, abs: string, rel: string, inClaude: boolean) => {
    const file = (name: string) => {
      files++;
      if (name.length >= 8 && name.length <= 19 && NAME_CHECKED.has(name.toLowerCase())) names.push({ path: abs + path.sep + name, isDir: false });
      if (inClaude || name === 'CLAUDE.md' || name === 'CLAUDE.local.md') {
        const c = classifyProject(abs + path.sep + name, rel ? `${rel}/${name}` : name, root);
        if (c) candidates.push(c);
      }
    };
    for (const f of node.files) file(f);
    const hidden = index.hiddenEntries(node);
    if (hidden) for (const [name, kind] of hidden) if (kind !== 'dir') file(name);
    for (const c of node.dirs) {
      const a = abs + path.sep + c.name;
      if (c.name.length >= 5 && c.name.length <= 7 && NAME_CHECKED.has(c.name.toLowerCase())) names.push({ path: a, isDir: true });
      visit(c, a, rel ? `${rel}/${c.name}` : c.name, inClaude || c.name === '.claude');
    }
  };
  visit(index.tree, root, '', false);

  // user folder: CLAUDE.md, rules/**, skills/*/SKILL.md
  const user = crawlSmall(env.fs, env.userDir, 6);
  for (const p of user.files) {
    const rel = path.relative(env.userDir, p).split(path.sep);
    if (rel.length === 1 && rel[0] === 'CLAUDE.md') candidates.push({ path: p, kind: 'claude-md', type: 'User' });
    else if (rel[0] === 'rules' && rel.length > 1) candidates.push({ path: p, kind: 'rule', type: 'User', rulesDir: path.join(env.userDir, 'rules'), base: env.cwd });
    else if (rel[0] === 'skills' && rel.length === 3 && rel[2] === 'SKILL.md') candidates.push({ path: p, kind: 'skill', type: 'User' });
    if (rel.length <= 3) names.push({ path: p, isDir: false });
  }
  for (const d of user.dirs) if (path.relative(env.userDir, d).split(path.sep).length <= 2) names.push({ path: d, isDir: true });

  // managed folder: CLAUDE.md and .claude/rules/**
  const managed = crawlSmall(env.fs, env.managedDir, 6);
  for (const p of managed.files) {
    const rel = path.relative(env.managedDir, p).split(path.sep);
    if (rel.length === 1 && rel[0] === 'CLAUDE.md') candidates.push({ path: p, kind: 'claude-md', type: 'Managed' });
    else if (rel[0] === '.claude' && rel[1] === 'rules' && rel.length > 2)
      candidates.push({ path: p, kind: 'rule', type: 'Managed', rulesDir: path.join(env.managedDir, '.claude', 'rules'), base: env.cwd });
  }
  return { candidates, names, files };
}
