// Watching exactly the paths the engine looked at outside the workspace (~/.claude/CLAUDE.md,
// /etc/claude-code/managed-settings.json, CLAUDE.md of the folders above the launch directory, the
// memory folder, …), most of which do not exist. A path that does not exist can only be awaited
// through its nearest existing folder; chokidar does that by watching and re-listing (readdir + stat)
// that whole folder on every event in it, so a busy /tmp or /etc kept the extension busy. Here:
// - a folder the engine listed itself (the memory folder, a skills folder) gets one fs.watch: every
//   entry's events matter there;
// - every other path is polled by name (fs.watchFile: one stat per path and interval), so that a
//   busy /tmp, /etc or ancestor folder sends the extension no event at all; a change to such a file
//   shows after at most one interval (2 s).
import * as fs from 'node:fs';
import * as path from 'node:path';

/** folder → the entry names whose events matter ('*' = every entry) */
export type WatchPlan = Map<string, Set<string>>;

export type Exists = (p: string) => 'dir' | 'file' | undefined;

export const nodeExists: Exists = (p) => {
  try {
    return fs.statSync(p).isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
};

/**
 * The folders to watch for `paths` (looked at: files or folders, existing or not) and `listed`
 * (folders whose entries were read), leaving out what `skip` says (inside the workspace, which
 * VS Code's own watcher covers).
 */
export function planWatches(paths: Iterable<string>, listed: Iterable<string>, exists: Exists, skip: (p: string) => boolean = () => false): WatchPlan {
  const plan: WatchPlan = new Map();
  const add = (dir: string, name: string) => {
    if (skip(dir)) return;
    let s = plan.get(dir);
    if (!s) plan.set(dir, (s = new Set()));
    s.add(name);
  };
  const cache = new Map<string, ReturnType<Exists>>();
  const ex = (p: string) => {
    if (!cache.has(p)) cache.set(p, exists(p));
    return cache.get(p);
  };
  const awaitPath = (p0: string) => {
    const p = path.resolve(p0);
    if (skip(p)) return;
    // the nearest existing folder at or above p, and the name of p's first missing part under it
    let d = p;
    let child: string | undefined;
    while (ex(d) !== 'dir') {
      const up = path.dirname(d);
      if (up === d) return;
      child = path.basename(d);
      d = up;
    }
    if (child !== undefined) add(d, child);
    else if (path.dirname(p) !== p) add(path.dirname(p), path.basename(p)); // p itself: its replacement or deletion
  };
  for (const p of paths) {
    const r = path.resolve(p);
    if (ex(r) === 'file') {
      if (!skip(r)) add(path.dirname(r), path.basename(r));
    } else awaitPath(r);
  }
  for (const d0 of listed) {
    const d = path.resolve(d0);
    awaitPath(d);
    if (ex(d) === 'dir') add(d, '*');
  }
  return plan;
}

export interface WatchHandle {
  close(): void;
  on?(event: 'error', fn: (err: unknown) => void): unknown;
}
export type WatchFn = (dir: string, listener: (event: string, name: string | Buffer | null) => void) => WatchHandle;
/** calls `listener` when the path appears, changes or goes */
export type PollFn = (file: string, listener: () => void) => WatchHandle;

const nodeWatch: WatchFn = (dir, listener) => fs.watch(dir, { persistent: false }, listener);
export const POLL_MS = 2000;
const nodePoll: PollFn = (file, listener) => {
  const fn = (cur: fs.Stats, prev: fs.Stats) => {
    if (cur.mtimeMs !== prev.mtimeMs || cur.size !== prev.size || cur.ino !== prev.ino || cur.nlink !== prev.nlink) listener();
  };
  fs.watchFile(file, { persistent: false, interval: POLL_MS }, fn);
  return { close: () => fs.unwatchFile(file, fn) };
};

/** keeps one watcher per planned folder; `changed` hears the full path of each event that matters */
export class ExactWatcher {
  private readonly watchers = new Map<string, { handle: WatchHandle; names: Set<string> }>();
  private readonly polls = new Map<string, WatchHandle>();
  /** events seen, and events passed on (for the log and the tests) */
  readonly stats = { events: 0, passed: 0 };

  constructor(
    private readonly changed: (paths: string[]) => void,
    private readonly log: (msg: string) => void = () => undefined,
    private readonly watch: WatchFn = nodeWatch,
    private readonly poll: PollFn = nodePoll,
  ) {}

  /** applies a plan; returns whether the watched folders changed */
  apply(full: WatchPlan): boolean {
    let moved = false;
    // exact names are polled; folders whose every entry matters are watched
    const files = new Set<string>();
    const plan: WatchPlan = new Map();
    for (const [dir, names] of full) {
      if (names.has('*')) plan.set(dir, names);
      else for (const n of names) files.add(path.join(dir, n));
    }
    for (const [f, h] of this.polls) {
      if (!files.has(f)) {
        h.close();
        this.polls.delete(f);
        moved = true;
      }
    }
    for (const f of files) {
      if (this.polls.has(f)) continue;
      try {
        this.polls.set(
          f,
          this.poll(f, () => {
            this.stats.events++;
            this.stats.passed++;
            this.changed([f]);
          }),
        );
        moved = true;
      } catch (e) {
        this.log(`cannot poll ${f}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    for (const [dir, w] of this.watchers) {
      if (!plan.has(dir)) {
        w.handle.close();
        this.watchers.delete(dir);
        moved = true;
      }
    }
    for (const [dir, names] of plan) {
      const w = this.watchers.get(dir);
      if (w) {
        w.names = names;
        continue;
      }
      try {
        const entry = { handle: undefined as unknown as WatchHandle, names };
        entry.handle = this.watch(dir, (_event, raw) => {
          this.stats.events++;
          const name = raw === null || raw === undefined ? undefined : String(raw);
          const cur = this.watchers.get(dir)?.names ?? entry.names;
          if (name === undefined) {
            // no name given: every planned entry of the folder may have changed
            this.stats.passed++;
            this.changed(cur.has('*') ? [dir] : [...cur].map((n) => path.join(dir, n)));
          } else if (cur.has('*') || cur.has(name)) {
            this.stats.passed++;
            this.changed([path.join(dir, name)]);
          }
        });
        entry.handle.on?.('error', (err) => {
          this.log(`watcher ${dir}: ${err instanceof Error ? err.message : String(err)}`);
          entry.handle.close();
          this.watchers.delete(dir);
        });
        this.watchers.set(dir, entry);
        moved = true;
      } catch (e) {
        this.log(`cannot watch ${dir}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return moved;
  }

  /** what is watched, for the log */
  describe(): string {
    const dirs = [...this.watchers.keys()].sort();
    const files = [...this.polls.keys()].sort();
    return `folders (every entry): ${dirs.join(', ') || '-'}; files polled every ${POLL_MS / 1000} s: ${files.join(', ') || '-'}`;
  }

  close(): void {
    for (const w of this.watchers.values()) w.handle.close();
    for (const h of this.polls.values()) h.close();
    this.watchers.clear();
    this.polls.clear();
  }
}
