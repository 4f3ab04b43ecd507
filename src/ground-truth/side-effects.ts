// What a `claude -p` run leaves behind in the user's Claude Code folders, observed around the run:
// the session transcript (deleted again: only the file of this run's session id), the memory folder
// it creates eagerly (removed again when it is new and still empty), ~/.claude.json (updated by
// every run: which top-level keys changed is reported, never the values), and any other file created
// or changed under ~/.claude (backups, plugin state…), listed within a budget.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface Snapshot {
  claudeJson: { path: string; existed: boolean; keys?: Record<string, string>; projects?: Record<string, string> };
  /** files under the config folder (projects/ excluded), relative path → size:mtime */
  files: Map<string, string>;
  /** the walk stopped at the budget */
  partial: boolean;
  dirsExisting: Map<string, boolean>;
}

const FILE_BUDGET = 20_000;
const CLAUDE_JSON_MAX = 16 * 1024 * 1024;

function readClaudeJson(p: string): Snapshot['claudeJson'] {
  try {
    const st = fs.statSync(p);
    if (!st.isFile() || st.size > CLAUDE_JSON_MAX) return { path: p, existed: true };
    const v = JSON.parse(fs.readFileSync(p, 'utf8')) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return { path: p, existed: true };
    const keys: Record<string, string> = {};
    for (const [k, x] of Object.entries(v)) keys[k] = JSON.stringify(x) ?? '';
    const projects: Record<string, string> = {};
    const pr = (v as Record<string, unknown>).projects;
    if (pr && typeof pr === 'object') for (const [k, x] of Object.entries(pr)) projects[k] = JSON.stringify(x) ?? '';
    return { path: p, existed: true, keys, projects };
  } catch (e) {
    return { path: p, existed: (e as NodeJS.ErrnoException).code !== 'ENOENT' };
  }
}

function walk(root: string): { files: Map<string, string>; partial: boolean } {
  const files = new Map<string, string>();
  let partial = false;
  const stack: string[] = [''];
  while (stack.length) {
    const rel = stack.pop()!;
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const d of names) {
      const r = rel ? path.join(rel, d.name) : d.name;
      if (r === 'projects') continue; // transcripts and memory folders: handled precisely
      if (files.size >= FILE_BUDGET) {
        partial = true;
        return { files, partial };
      }
      if (d.isDirectory()) {
        if (r.split(path.sep).length < 6) stack.push(r);
        continue;
      }
      try {
        const st = fs.lstatSync(path.join(root, r));
        files.set(r, `${st.size}:${st.mtimeMs}`);
      } catch {
        /* gone */
      }
    }
  }
  return { files, partial };
}

function exists(p: string): boolean {
  try {
    fs.statSync(p);
    return true;
  } catch {
    return false;
  }
}

export function snapshot(userDir: string, claudeJsonPath: string, watchDirs: string[]): Snapshot {
  const w = walk(userDir);
  return { claudeJson: readClaudeJson(claudeJsonPath), files: w.files, partial: w.partial, dirsExisting: new Map(watchDirs.map((d) => [d, exists(d)])) };
}

export interface SideEffects {
  /** transcripts of this run that were deleted */
  transcriptsDeleted: string[];
  /** transcripts of this run that could not be deleted */
  transcriptsLeft: string[];
  memoryDir: { path: string; existedBefore: boolean; existsAfter: boolean; removed: boolean };
  claudeJson: { path: string; created: boolean; changedKeys: string[]; changedProjects: string[] };
  /** other files under the config folder, relative to it */
  created: string[];
  modified: string[];
  partial: boolean;
}

function rmdirIfEmpty(d: string): boolean {
  try {
    fs.rmdirSync(d); // only ever succeeds on an empty folder
    return true;
  } catch {
    return false;
  }
}

/**
 * Deletes this run's transcript (`<dir>/<sessionId>.jsonl` and a `<dir>/<sessionId>/` folder) in
 * each transcript folder, removes folders the run created that are left empty, and compares.
 */
export function cleanUpAndCompare(before: Snapshot, o: { userDir: string; sessionId: string; transcriptDirs: string[]; memoryDir: string }): SideEffects {
  const deleted: string[] = [];
  const left: string[] = [];
  for (const d of o.transcriptDirs) {
    for (const p of [path.join(d, `${o.sessionId}.jsonl`), path.join(d, o.sessionId)]) {
      if (!exists(p)) continue;
      try {
        fs.rmSync(p, { recursive: true, force: true });
        deleted.push(p);
      } catch {
        left.push(p);
      }
    }
    if (before.dirsExisting.get(d) === false) rmdirIfEmpty(d);
  }
  const mem = o.memoryDir.replace(/[\\/]+$/, '');
  const memBefore = before.dirsExisting.get(mem) ?? true;
  let removed = false;
  if (!memBefore && exists(mem)) {
    removed = rmdirIfEmpty(mem);
    const parent = path.dirname(mem);
    if (removed && before.dirsExisting.get(parent) === false) rmdirIfEmpty(parent);
  }
  const after = readClaudeJson(before.claudeJson.path);
  const changedKeys: string[] = [];
  const changedProjects: string[] = [];
  const bk = before.claudeJson.keys ?? {};
  const ak = after.keys ?? {};
  for (const k of new Set([...Object.keys(bk), ...Object.keys(ak)])) if (bk[k] !== ak[k]) changedKeys.push(k);
  const bp = before.claudeJson.projects ?? {};
  const ap = after.projects ?? {};
  for (const k of new Set([...Object.keys(bp), ...Object.keys(ap)])) if (bp[k] !== ap[k]) changedProjects.push(k);
  const w = walk(o.userDir);
  const created: string[] = [];
  const modified: string[] = [];
  for (const [f, sig] of w.files) {
    const b = before.files.get(f);
    if (b === undefined) created.push(f);
    else if (b !== sig) modified.push(f);
  }
  return {
    transcriptsDeleted: deleted,
    transcriptsLeft: left,
    memoryDir: { path: mem, existedBefore: memBefore, existsAfter: exists(mem), removed },
    claudeJson: { path: before.claudeJson.path, created: !before.claudeJson.existed && after.existed, changedKeys: changedKeys.sort(), changedProjects: changedProjects.sort() },
    created: created.sort(),
    modified: modified.sort(),
    partial: before.partial || w.partial,
  };
}
