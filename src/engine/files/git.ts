// The git facts Claude Code's loading depends on: the repository root (for the external-include
// approval key and the memory folder), and linked worktrees (whose main repository's project files
// are skipped). Read from `.git` files and folders directly; git itself is never run.
import * as path from 'node:path';
import type { FileAccess } from './file-access.js';
import { decodeUtf8 } from '../instructions/content.js';

export interface GitInfo {
  /** the folder holding `.git` at or above the launch directory */
  root: string;
  /** for a linked worktree: the main repository's work tree root */
  mainRoot?: string;
  isWorktree: boolean;
}

function readSmall(fs: FileAccess, p: string): string | undefined {
  const r = fs.readFile(p, 64 * 1024);
  return r.ok ? decodeUtf8(r.value) : undefined;
}

export function findGit(fs: FileAccess, start: string): GitInfo | undefined {
  let dir = path.resolve(start);
  for (let i = 0; i < 4096; i++) {
    const dotGit = path.join(dir, '.git');
    const st = fs.stat(dotGit);
    if (st.ok && st.value.kind === 'dir') return { root: dir, isWorktree: false };
    if (st.ok && st.value.kind === 'file') {
      const text = readSmall(fs, dotGit);
      const m = text ? /^gitdir:\s*(.+?)\s*$/m.exec(text) : null;
      if (!m) return { root: dir, isWorktree: false };
      const gitDir = path.resolve(dir, m[1]!);
      const common = readSmall(fs, path.join(gitDir, 'commondir'));
      if (common === undefined) return { root: dir, isWorktree: false };
      const commonDir = path.resolve(gitDir, common.trim());
      const mainRoot = path.basename(commonDir) === '.git' ? path.dirname(commonDir) : commonDir;
      return { root: dir, mainRoot, isWorktree: true };
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

/** The canonical project root: the main worktree's root (real path), else the launch directory. */
export function canonicalProjectRoot(fs: FileAccess, cwd: string): string {
  const g = findGit(fs, cwd);
  const root = g ? (g.mainRoot ?? g.root) : cwd;
  const real = fs.realpath(root);
  return real.ok ? real.value : root;
}
