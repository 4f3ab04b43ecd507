// The files of the workspace, as a repository sees them: one fdir crawl from the launch directory
// that honours `.gitignore` files (every level, plus `.git/info/exclude`) through the `ignore`
// package, never follows symlinks, never enters `.git` and stops at a file cap. Ignored files
// are still listed (flagged) when they sit in a folder that is crawled, because instruction files
// such as CLAUDE.local.md are usually git-ignored and Claude Code loads them all the same.
// Ignored folders are skipped whole, except `.claude` folders, which Claude Code reads regardless.
// fdir's CommonJS build: its ES module build calls createRequire(import.meta.url), which a CJS bundle lacks
import fdirPkg = require('fdir');
import ignore, { type Ignore } from 'ignore';
import * as fs from 'node:fs';
import * as path from 'node:path';

const { fdir } = fdirPkg;

export const DEFAULT_MAX_FILES = 200_000;

export interface WorkspaceFile {
  /** absolute path */
  path: string;
  /** relative to the crawl root, with `/` separators */
  rel: string;
  /** matched by a .gitignore (or .git/info/exclude) */
  ignored: boolean;
}

export interface WorkspaceListing {
  root: string;
  files: WorkspaceFile[];
  /** folders seen (absolute), including ignored `.claude` folders */
  dirs: Set<string>;
  /** the crawl stopped at the file cap: "matches nothing" verdicts are unsafe */
  truncated: boolean;
  /** git-ignored folders the crawl skipped (absolute) */
  ignoredDirs: string[];
  /** folders that cannot be listed (no read or search permission) */
  unreadableDirs: string[];
}

/** Files below the skipped git-ignored folders, bounded: only asked for when a glob matches nothing. */
export function listIgnoredFiles(listing: WorkspaceListing, maxFiles = 50_000): { files: string[]; truncated: boolean } {
  const files: string[] = [];
  let truncated = false;
  for (const d of listing.ignoredDirs) {
    if (files.length >= maxFiles) {
      truncated = true;
      break;
    }
    try {
      const got = new fdir().withFullPaths().withMaxFiles(maxFiles - files.length).exclude((name) => name === '.git').crawl(d).sync() as string[];
      files.push(...got);
      if (files.length >= maxFiles) truncated = true;
    } catch {
      /* unreadable: nothing to add */
    }
  }
  return { files, truncated };
}

function readSmallText(p: string): string | undefined {
  try {
    const st = fs.statSync(p);
    if (!st.isFile() || st.size > 1024 * 1024) return undefined;
    return fs.readFileSync(p, 'utf8');
  } catch {
    return undefined;
  }
}

/** `.gitignore` matchers per folder, read on demand and cached. */
class GitignoreStack {
  private readonly cache = new Map<string, Ignore | null>();
  constructor(private readonly root: string) {
    const exclude = readSmallText(path.join(root, '.git', 'info', 'exclude'));
    const top = readSmallText(path.join(root, '.gitignore'));
    const text = [exclude, top].filter((t): t is string => t !== undefined).join('\n');
    this.cache.set(root, text.trim() ? safeIgnore(text) : null);
  }

  private matcher(dir: string): Ignore | null {
    const hit = this.cache.get(dir);
    if (hit !== undefined) return hit;
    const text = readSmallText(path.join(dir, '.gitignore'));
    const m = text && text.trim() ? safeIgnore(text) : null;
    this.cache.set(dir, m);
    return m;
  }

  /** is `abs` (a file, or a folder when isDir) ignored, judged from the root down to its parent? */
  ignored(abs: string, isDir: boolean): boolean {
    const rel = path.relative(this.root, abs);
    if (!rel || rel.startsWith('..')) return false;
    return this.ignoredRel(rel.split(path.sep), isDir);
  }

  /** the same for a path already split into segments relative to the root */
  ignoredRel(parts: string[], isDir: boolean): boolean {
    let state = false;
    let dir = this.root;
    for (let i = 0; i < parts.length; i++) {
      const m = this.matcher(dir);
      if (m) {
        const sub = parts.slice(i).join('/') + (isDir ? '/' : '');
        try {
          const r = m.test(sub);
          if (r.ignored) state = true;
          else if (r.unignored) state = false;
        } catch {
          /* a path the ignore package refuses: treat as not ignored */
        }
      }
      dir = dir.endsWith(path.sep) ? dir + parts[i]! : dir + path.sep + parts[i]!;
    }
    return state;
  }
}

function safeIgnore(text: string): Ignore | null {
  try {
    return ignore().add(text);
  } catch {
    return null;
  }
}

export function listWorkspace(root: string, maxFiles = DEFAULT_MAX_FILES): WorkspaceListing {
  const abs = path.resolve(root);
  const gi = new GitignoreStack(abs);
  const dirs = new Set<string>([abs]);
  const ignoredDirs: string[] = [];
  const unreadableDirs: string[] = [];
  let count = 0;
  let truncated = false;
  const crawler = new fdir()
    .withFullPaths()
    .withDirs()
    .exclude((name, dirPath) => {
      if (name === '.git') return true;
      const d = dirPath.endsWith(path.sep) ? dirPath.slice(0, -1) : dirPath;
      try {
        fs.accessSync(d, fs.constants.R_OK | fs.constants.X_OK);
      } catch {
        unreadableDirs.push(d);
        return true;
      }
      if (name === '.claude' || d.split(path.sep).includes('.claude')) return false;
      const ig = gi.ignored(d, true);
      if (ig) ignoredDirs.push(d);
      return ig;
    })
    .filter((p, isDir) => {
      if (isDir) return true;
      if (count >= maxFiles) {
        truncated = true;
        return false;
      }
      count++;
      return true;
    });
  let out: string[] = [];
  try {
    out = crawler.crawl(abs).sync() as string[];
  } catch {
    out = [];
  }
  const files: WorkspaceFile[] = [];
  const prefix = abs.endsWith(path.sep) ? abs : abs + path.sep;
  for (const p of out) {
    if (p.endsWith(path.sep)) {
      dirs.add(p.slice(0, -1));
      continue;
    }
    if (!p.startsWith(prefix)) continue;
    const parts = p.slice(prefix.length).split(path.sep);
    files.push({ path: p, rel: parts.join('/'), ignored: gi.ignoredRel(parts, false) });
  }
  return { root: abs, files, dirs, truncated, ignoredDirs, unreadableDirs };
}
