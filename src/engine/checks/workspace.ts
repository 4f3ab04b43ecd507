// The files of the workspace, as a repository sees them, for the workspace checks: one
// WorkspaceIndex crawl from the launch directory (workspace-index.ts: `.gitignore` files at every
// level and `.git/info/exclude`, decided as git does, never following symlinks, never entering
// `.git`, stopping at a file cap). Git-ignored files of crawled folders are known to the index
// (hidden entries) because instruction files such as CLAUDE.local.md are usually git-ignored and
// Claude Code loads them all the same; `.claude` folders are crawled whatever .gitignore says.
// The git-ignored files below the folders the crawl skipped are listed only when a check asks
// (a `paths:` pattern that matches no tracked file: do git-ignored ones match?).
import * as path from 'node:path';
import { DirNode } from '../globs/glob-count.js';
import { listEntries, type FileAccess } from '../files/file-access.js';
import { WorkspaceIndex } from '../files/workspace-index.js';

export const DEFAULT_MAX_FILES = 200_000;

/** Build the index lint works on. */
export function indexWorkspace(root: string, maxFiles = DEFAULT_MAX_FILES, deadline?: { at: number; now: () => number }, fs?: FileAccess): WorkspaceIndex {
  return WorkspaceIndex.build(root, { maxFiles, deadline: deadline?.at, now: deadline?.now, fs });
}

/** how long lint's crawl of the workspace may take (ms) before it stops with scan-truncated */
export const CRAWL_BUDGET_MS = 8_000;

/**
 * The git-ignored files of the workspace as a tree (root-relative), listed on demand: the hidden
 * entries of crawled folders are in it from the start; a folder the crawl skipped (node_modules/,
 * dist/…) is listed when `expand` is called on it, so a first-match walk (firstMatchListing) lists
 * only the folders its patterns can reach. At most `maxFiles` files are taken in and `maxFolders`
 * folders listed (a pattern starting with a globstar reaches every folder of node_modules/): past
 * either, the tree is cut there and `truncated()` says so.
 */
export function ignoredListing(index: WorkspaceIndex, maxFiles = 50_000, maxFolders = 500): { tree: DirNode; expand: (d: DirNode) => void; truncated: () => boolean } {
  const root = new DirNode('', undefined);
  let n = 0;
  let truncated = false;
  // the index's folders that hold hidden entries (and the folders on their way), copied on demand
  const copies = new Map<DirNode, DirNode>([[index.tree, root]]);
  const copyOf = (src: DirNode): DirNode => {
    let c = copies.get(src);
    if (!c) c = copies.set(src, copyOf(src.parent!).ensureDir(src.name)).get(src)!;
    return c;
  };
  /** folders not listed yet, with their absolute paths */
  const unlisted = new Map<DirNode, string>();
  const visit = (src: DirNode, abs: string) => {
    const hidden = index.hiddenEntries(src);
    if (hidden) {
      const dst = copyOf(src);
      for (const [name, kind] of hidden) {
        if (kind === 'dir') {
          if (name !== '.git') unlisted.set(dst.ensureDir(name), abs + path.sep + name);
        } else if (n < maxFiles) {
          dst.files.push(name);
          n++;
        } else truncated = true;
      }
    }
    for (const c of src.dirs) visit(c, abs + path.sep + c.name);
  };
  visit(index.tree, index.root);
  let folders = 0;
  const expand = (d: DirNode) => {
    const abs = unlisted.get(d);
    if (abs === undefined) return;
    unlisted.delete(d);
    if (++folders > maxFolders) return void (truncated = true);
    const listing = listEntries(index.fs, abs);
    if (!listing.ok) return;
    for (const e of listing.value) {
      if (e.isDirectory()) {
        if (e.name !== '.git') unlisted.set(d.ensureDir(e.name), abs + path.sep + e.name);
      } else if (n < maxFiles) {
        d.files.push(e.name);
        n++;
      } else truncated = true;
    }
  };
  return { tree: root, expand, truncated: () => truncated };
}

/**
 * Where a rule's base folder stands in a root-relative tree: the folder's node (base inside the
 * root; undefined when the tree has no such folder) or the root with the way down from the base
 * (`at`, base above the root); undefined when the base is elsewhere. `expand`: a tree listed on
 * demand (ignoredListing), filled on the way down.
 */
export function locateBase(tree: DirNode, root: string, base: string, expand?: (d: DirNode) => void): { node: DirNode | undefined; at?: string } | undefined {
  const down = path.relative(root, base);
  if (down === '') return { node: tree };
  if (!down.startsWith('..') && !path.isAbsolute(down)) return { node: tree.find(down.split(path.sep).join('/'), expand) };
  const up = path.relative(base, root);
  if (up.startsWith('..') || path.isAbsolute(up)) return undefined;
  return { node: tree, at: up.split(path.sep).join('/') };
}
