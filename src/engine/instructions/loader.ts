// Loading one instruction file as Claude Code does: dedupe by path and real path, excludes, the
// 4 MiB skip, processing, and its @includes depth-first (depth 4 loads, 5 does not), each include
// inheriting the parent's type. Also the `.claude/rules` walk in raw directory order.
import * as path from 'node:path';
import { MAX_YAML_DEPTH } from './frontmatter.js';
import { globHazards } from '../globs/globs.js';
import { decodeUtf8, hasTextExtension, MAX_INSTRUCTION_BYTES, processInstructionText, type ProcessedFile } from './content.js';
import { DiagnosticSink, type Diagnostic } from '../diagnostics.js';
import { isInside, type Environment } from '../environment.js';
import type { ExcludeMatcher } from './excludes.js';
import type { InstructionType, Origin } from '../model.js';
import type { ClaudeProfile } from '../profiles.js';

export const MAX_INCLUDE_DEPTH = 5;

export interface LoadedFile {
  path: string;
  type: InstructionType;
  /** processed content, untrimmed */
  content: string;
  globs?: string[];
  origin: Origin;
  parent?: string;
  processed: ProcessedFile;
  isRule?: boolean;
  /** nested AGENTS.md (and its includes) delivered through the plugin's hook message */
  viaHook?: boolean;
}

export interface LoadContext {
  env: Environment;
  profile: ClaudeProfile;
  sink: DiagnosticSink;
  excluded: ExcludeMatcher;
  /** hasClaudeMdExternalIncludesApproved for the git root */
  externalApproved: boolean;
  /** where a conditional rule found by a walk matches from; set by the caller of walkRules */
}

export type FileRead =
  | { kind: 'text'; text: string; size: number }
  | { kind: 'missing' }
  | { kind: 'skipped'; reason: string; rule: string };

/**
 * What one load gives — a file and its includes (loadFile), or a `.claude/rules` walk (walkRules) —
 * recorded on a fresh dedupe set, so that later passes replay it instead of loading again (the
 * lazy plan of a folder, lazy.ts). A replay is exact when the pass's dedupe set holds none of the
 * keys the load looked up: the load then decides everything as it did when recorded.
 */
export interface LoadUnit {
  files: LoadedFile[];
  /** keys the load looked up in the dedupe set */
  checked: string[];
  /** keys the load added to it */
  added: string[];
  /** what the load reported */
  diagnostics: Diagnostic[];
  /** paths the load depends on: a change at, below or above one of them invalidates the unit */
  deps: string[];
}

/** a Set that records lookups and additions (the recording pass of a LoadUnit) */
class RecordingSet extends Set<string> {
  readonly checked: string[] = [];
  readonly added: string[] = [];
  override has(k: string): boolean {
    this.checked.push(k);
    return super.has(k);
  }
  override add(k: string): this {
    this.added.push(k);
    return super.add(k);
  }
}

/**
 * Recorded loads by key, with a reverse map from the paths they depend on (the files, the includes
 * they follow, the real paths they resolve to, the rules folders they list) to the units, so that
 * a change forgets exactly the units it can alter.
 */
export class UnitCache {
  private readonly units = new Map<string, LoadUnit>();
  /** dependency path -> unit keys */
  private readonly byDep = new Map<string, Set<string>>();
  /** folder of a dependency path -> unit keys (for changes to a folder above dependencies) */
  private readonly byDir = new Map<string, Set<string>>();
  /** the load context the units were recorded under (excludes, external includes, profile) */
  ctxKey: string | undefined;
  /** loads recorded, replayed, and done for real because a replay would not have been exact */
  readonly stats = { recorded: 0, replayed: 0, loaded: 0 };
  /** one object for this cache and its copies: what holds paths only (lazy.ts's plans) is kept by it, shared by
   *  the revisions of a diff */
  readonly lineage: object;

  constructor(lineage?: object) {
    this.lineage = lineage ?? {};
  }

  get(key: string): LoadUnit | undefined {
    return this.units.get(key);
  }

  set(key: string, u: LoadUnit): void {
    this.units.set(key, u);
    const add = (m: Map<string, Set<string>>, k: string) => {
      let s = m.get(k);
      if (!s) m.set(k, (s = new Set()));
      s.add(key);
    };
    for (const d of u.deps) {
      add(this.byDep, d);
      add(this.byDir, path.dirname(d));
    }
  }

  get size(): number {
    return this.units.size;
  }

  /** a copy (the other revision of a diff starts from it; each then records and forgets on its own) */
  copy(): UnitCache {
    const c = new UnitCache(this.lineage);
    for (const [k, u] of this.units) c.units.set(k, u);
    for (const [from, to] of [[this.byDep, c.byDep], [this.byDir, c.byDir]] as const) for (const [k, keys] of from) to.set(k, new Set(keys));
    c.ctxKey = this.ctxKey;
    return c;
  }

  /** forget the units a change at `p` (a file or folder, created, changed or deleted) can alter */
  invalidate(changed: string): void {
    if (this.units.size === 0) return;
    let p = path.normalize(changed);
    if (p.length > 1 && p.endsWith(path.sep)) p = p.slice(0, -1);
    const drop = (keys: Set<string> | undefined) => {
      if (keys) for (const k of keys) this.units.delete(k);
    };
    // p is a dependency, or lies below one (a file in a rules folder)
    for (let a = p; ; ) {
      drop(this.byDep.get(a));
      const up = path.dirname(a);
      if (up === a) break;
      a = up;
    }
    // dependencies below p (a folder created, deleted or renamed)
    const under = p.endsWith(path.sep) ? p : p + path.sep;
    for (const [dir, keys] of this.byDir) if (dir === p || dir.startsWith(under)) drop(keys);
  }

  clear(): void {
    this.units.clear();
    this.byDep.clear();
    this.byDir.clear();
  }
}

/** one answer for every absent file (an editor session asks about tens of thousands) */
const MISSING: FileRead = Object.freeze({ kind: 'missing' });

/** Processed-text cache keyed by path; the snapshot layer invalidates it on change. */
export class TextCache {
  private readonly texts = new Map<string, FileRead>();
  /** processed forms of cached texts, keyed by path and whether includes were collected */
  readonly processed = new Map<string, ProcessedFile>();
  /** recorded loads (lazy plans), kept across refreshes and invalidated with the texts */
  readonly units: UnitCache;
  constructor(
    private readonly env: Environment,
    units?: UnitCache,
  ) {
    this.units = units ?? new UnitCache();
  }

  /**
   * The cache of another view of the same files (diff's head revision over its base's): what this one read,
   * processed and recorded, but for the `changed` paths (and whatever lies below them), which `env` reads anew.
   */
  derive(env: Environment, changed: readonly string[]): TextCache {
    const c = new TextCache(env, this.units.copy());
    for (const [k, v] of this.texts) c.texts.set(k, v);
    for (const [k, v] of this.processed) c.processed.set(k, v);
    for (const p of changed) c.invalidate(p);
    return c;
  }

  read(p: string): FileRead {
    const hit = this.texts.get(p);
    if (hit) return hit;
    const r = this.load(p);
    this.texts.set(p, r);
    return r;
  }

  invalidate(p?: string): void {
    if (p === undefined) {
      this.texts.clear();
      this.processed.clear();
      this.units.clear();
      return;
    }
    this.units.invalidate(p);
    const under = p.endsWith(path.sep) ? p : p + path.sep;
    for (const map of [this.texts, this.processed] as Map<string, unknown>[])
      for (const k of map.keys()) if (k === p || k.startsWith(under) || k.startsWith(p + '\0')) map.delete(k);
  }

  private load(p: string): FileRead {
    const fs = this.env.fs;
    const st = fs.stat(p);
    if (!st.ok) {
      if (st.code === 'ENOENT' || st.code === 'ENOTDIR') return MISSING;
      if (st.code === 'ELOOP') return { kind: 'skipped', reason: 'symlink loop', rule: 'symlink-loop' };
      return { kind: 'skipped', reason: `cannot stat (${st.code})`, rule: 'unreadable' };
    }
    if (st.value.kind === 'dir') return { kind: 'skipped', reason: 'is a directory', rule: 'not-a-file' };
    if (st.value.kind !== 'file') return { kind: 'skipped', reason: 'not a regular file (device, FIFO or socket)', rule: 'not-a-file' };
    if (st.value.size > MAX_INSTRUCTION_BYTES)
      return { kind: 'skipped', reason: `${st.value.size} bytes is over Claude Code's 4 MiB limit: the file is skipped whole`, rule: 'over-4mib' };
    const r = fs.readFile(p, MAX_INSTRUCTION_BYTES);
    if (!r.ok) {
      if (r.code === 'EFBIG') return { kind: 'skipped', reason: "over Claude Code's 4 MiB limit: the file is skipped whole", rule: 'over-4mib' };
      if (r.code === 'ENOENT') return MISSING;
      return { kind: 'skipped', reason: `cannot read (${r.code})`, rule: 'unreadable' };
    }
    return { kind: 'text', text: decodeUtf8(r.value), size: r.value.byteLength };
  }
}

const NONE: LoadedFile[] = [];
const NO_DIAGNOSTICS: Diagnostic[] = [];
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** `.` or `..` segments, doubled or trailing separators: path.normalize would change the path */
const NOT_NORMAL = /[\\/]\.{1,2}(?:[\\/]|$)|[\\/]{2}|.[\\/]$/;

/** path.normalize, without a copy when the path already is normal (POSIX) */
export function normalized(p: string): string {
  return path.sep === '/' && path.isAbsolute(p) && !NOT_NORMAL.test(p) ? p : path.normalize(p);
}

/** tests compare answers with and without the unit cache */
export const unitCacheSwitch = { enabled: true };

let anonymousExcludes = 0;
const excludeIds = new WeakMap<object, string>();

export class Loader {
  /** while recording a LoadUnit: the paths the load depends on */
  private deps: string[] | undefined;

  constructor(
    readonly ctx: LoadContext,
    readonly texts: TextCache,
  ) {}

  private realpath(p: string): string | undefined {
    const r = this.ctx.env.fs.realpath(p);
    if (this.deps && r.ok && r.value !== p) this.deps.push(r.value);
    return r.ok ? r.value : undefined;
  }

  /** what the recorded loads depend on besides the file system: equal keys, equal loads */
  private ctxKey(): string {
    const ex = this.ctx.excluded;
    let exKey = ex.key;
    if (exKey === undefined) {
      exKey = excludeIds.get(ex);
      if (exKey === undefined) excludeIds.set(ex, (exKey = `#${++anonymousExcludes}`));
    }
    return `${this.ctx.profile.version}\0${this.ctx.externalApproved ? 1 : 0}\0${exKey}`;
  }

  /**
   * Load through the unit cache: `run` (a loadFile or walkRules call on the loader and dedupe set
   * it is given) is recorded once under `key` on a fresh dedupe set, then replayed — its files,
   * its diagnostics into this loader's sink, its keys into `processed` — whenever the replay is
   * exact (see LoadUnit); otherwise `run` is done on `processed` for real.
   */
  loadUnit(key: string, processed: Set<string>, run: (loader: Loader, processed: Set<string>) => LoadedFile[]): LoadedFile[] {
    if (!unitCacheSwitch.enabled) return run(this, processed);
    const cache = this.texts.units;
    const ck = this.ctxKey();
    if (cache.ctxKey !== ck) {
      cache.clear();
      cache.ctxKey = ck;
    }
    let u = cache.get(key);
    if (!u) {
      const rec = new RecordingSet();
      const sink = new DiagnosticSink();
      const l = new Loader({ ...this.ctx, sink }, this.texts);
      l.deps = [];
      const files = run(l, rec);
      // most loads look up, add and depend on the same one path (a CLAUDE.md that is not there): share the arrays
      const added = sameList(rec.added, rec.checked) ? rec.checked : rec.added;
      const deps = sameList(l.deps, rec.checked) ? rec.checked : l.deps;
      const diagnostics = sink.all();
      u = { files: files.length ? files : NONE, checked: rec.checked, added, diagnostics: diagnostics.length ? diagnostics : NO_DIAGNOSTICS, deps };
      cache.set(key, u);
      cache.stats.recorded++;
    }
    for (const k of u.checked)
      if (processed.has(k)) {
        cache.stats.loaded++;
        return run(this, processed);
      }
    cache.stats.replayed++;
    for (const d of u.diagnostics) this.ctx.sink.add(d);
    for (const k of u.added) processed.add(k);
    return u.files;
  }

  private isSymlink(p: string): boolean {
    const r = this.ctx.env.fs.lstat(p);
    return r.ok && r.value.isSymlink;
  }

  /** may includes of a file of this type leave the launch directory? */
  private externalAllowed(type: InstructionType): boolean {
    return type === 'User' || this.ctx.externalApproved;
  }

  process(p: string, text: string, collectIncludes = true): ProcessedFile {
    if (!path.isAbsolute(p)) return this.processUncached(p, text, collectIncludes); // e.g. <managed-settings>
    const key = `${p}\0${collectIncludes ? 1 : 0}`;
    const hit = this.texts.processed.get(key);
    if (hit) return hit;
    const r = this.processUncached(p, text, collectIncludes);
    this.texts.processed.set(key, r);
    return r;
  }

  private processUncached(p: string, text: string, collectIncludes: boolean): ProcessedFile {
    return processInstructionText(text, p, {
      stripBomBeforeFrontmatter: this.ctx.profile.stripBomBeforeFrontmatter,
      collectIncludes,
      home: this.ctx.env.home,
    });
  }

  /**
   * A file of a touch's chain (depth 0) that is not there: does what loadFile would (it counts as
   * processed unless excluded; nothing is reported) and says so, so that the caller records no
   * unit for it. False when the file is there (or cannot be read): load it.
   */
  missingChainFile(p: string, type: InstructionType, processed: Set<string>): boolean {
    if (this.texts.read(p).kind !== 'missing') return false;
    const key = normalized(p);
    if (!processed.has(key) && this.ctx.excluded(p, type) === undefined) processed.add(key);
    return true;
  }

  /** a rules folder that is not there: walkRules would bring nothing and report nothing */
  rulesDirAbsent(rulesDir: string): boolean {
    const st = this.ctx.env.fs.stat(rulesDir);
    return !st.ok && (st.code === 'ENOENT' || st.code === 'ENOTDIR');
  }

  /**
   * Load `p` and its includes. `processed` is the load pass's dedupe set.
   * Returns the file (if it yields content) followed by its includes, depth-first.
   */
  loadFile(p: string, type: InstructionType, processed: Set<string>, origin: Origin, depth = 0, parent?: string, line?: number): LoadedFile[] {
    const { env, sink } = this.ctx;
    const key = normalized(p);
    if (this.deps) this.deps.push(key);
    if (processed.has(key)) return [];
    if (depth >= MAX_INCLUDE_DEPTH) {
      sink.add({ path: parent ?? p, line, severity: 'error', rule: 'include-too-deep', message: `@${p} is not loaded: includes are followed to depth 4 only` });
      return [];
    }
    const excludedBy = this.ctx.excluded(p, type);
    if (excludedBy !== undefined) {
      if (this.texts.read(p).kind === 'text')
        sink.add({ path: p, severity: 'info', rule: 'excluded', message: `excluded by claudeMdExcludes pattern ${excludedBy}` });
      return [];
    }
    if (!hasTextExtension(p)) {
      sink.add({ path: parent ?? p, line, severity: 'error', rule: 'include-not-text', message: `@${p} is not loaded: Claude Code includes only text files (extension ${path.extname(p)})` });
      return [];
    }
    // a file of the chain itself (not an include) that is not there: nothing more to decide (most
    // folders of a touch's chain have no CLAUDE.md; their real path is not needed)
    if (depth === 0 && this.texts.read(p).kind === 'missing') {
      processed.add(key);
      return [];
    }
    const real = this.realpath(p) ?? p;
    const external = this.externalAllowed(type);
    if (depth > 0 && !external && !isInside(real, env.cwd)) {
      sink.add({
        path: parent ?? p, line, severity: 'error', rule: 'include-outside-cwd',
        message: `@${p} is not loaded: it is outside the launch directory ${env.cwd} and external includes are not approved for this project`,
      });
      return [];
    }
    const realKey = real !== key ? path.normalize(real) : undefined;
    if (realKey !== undefined && processed.has(realKey)) return [];
    processed.add(key);
    const read = this.texts.read(p);
    if (read.kind === 'missing') {
      if (depth > 0) sink.add({ path: parent ?? p, line, severity: 'warning', rule: 'include-missing', message: `@${p} is not loaded: no such file` });
      return [];
    }
    if (read.kind === 'skipped') {
      sink.add({ path: p, severity: read.rule === 'over-4mib' ? 'error' : 'warning', rule: read.rule, message: `not loaded: ${read.reason}` });
      return [];
    }
    if (realKey !== undefined) processed.add(realKey);
    const proc = this.process(p, read.text);
    if (proc.yamlTooDeep) sink.add({ path: p, line: 1, severity: 'warning', rule: 'frontmatter-too-deep', message: `frontmatter nests deeper than ${MAX_YAML_DEPTH} levels: not parsed as YAML (a parser runs out of stack there); read as Claude Code's fallback reads a value it cannot parse, as text` });
    if (proc.rawGlobs) for (const h of globHazards(proc.rawGlobs)) sink.add({ path: p, line: proc.pathsLine, severity: 'warning', ...h });
    if (proc.yamlError) sink.add({ path: p, line: 1, severity: 'warning', rule: 'invalid-frontmatter', message: `frontmatter is not valid YAML (${proc.yamlError}); Claude Code strips it and ignores its keys` });
    if (!proc.content.trim()) {
      sink.add({ path: p, severity: 'info', rule: 'empty', message: 'empty after frontmatter and comments are removed: Claude Code skips it (and its includes)' });
      return [];
    }
    const file: LoadedFile = { path: p, type, content: proc.content, globs: proc.globs, origin, parent, processed: proc };
    const out: LoadedFile[] = [file];
    for (const [k, inc] of proc.includes.entries()) {
      const line = proc.includeLines[k];
      if (!external && !isInside(inc, env.cwd)) {
        sink.add({
          path: p, line, severity: 'error', rule: 'include-outside-cwd',
          message: `@${path.relative(path.dirname(p), inc) || inc} is not loaded: ${inc} is outside the launch directory ${env.cwd} and external includes are not approved for this project`,
        });
        continue;
      }
      out.push(...this.loadFile(inc, type, processed, { kind: 'include', parent: p, depth: depth + 1, line }, depth + 1, p, line));
    }
    return out;
  }

  /**
   * Walk a `.claude/rules` folder (raw readdir order, recursing where folders appear), loading
   * every `*.md`. `want` keeps the files that have `paths:` (true), those without (false), or both.
   */
  walkRules(rulesDir: string, type: InstructionType, processed: Set<string>, base: string, want: boolean | 'all', visited = new Set<string>()): LoadedFile[] {
    const { env, sink } = this.ctx;
    if (visited.has(rulesDir)) return [];
    if (this.deps) this.deps.push(rulesDir);
    const st = env.fs.stat(rulesDir);
    if (!st.ok || st.value.kind !== 'dir') {
      if (st.ok === false && st.code === 'ELOOP') sink.add({ path: rulesDir, severity: 'warning', rule: 'symlink-loop', message: 'rules folder is a symlink loop' });
      return [];
    }
    const external = this.externalAllowed(type);
    const realDir = this.realpath(rulesDir) ?? rulesDir;
    if (this.isSymlink(rulesDir) && !external && !isInside(realDir, env.cwd)) {
      sink.add({ path: rulesDir, severity: 'warning', rule: 'rules-link-outside-cwd', message: `rules folder links to ${realDir}, outside the launch directory: Claude Code skips it` });
      return [];
    }
    visited.add(rulesDir);
    visited.add(realDir);
    if (this.deps && realDir !== rulesDir) this.deps.push(realDir);
    const list = env.fs.readDir(realDir);
    if (!list.ok) {
      if (list.code !== 'ENOENT' && list.code !== 'ENOTDIR')
        sink.add({ path: rulesDir, severity: 'warning', rule: 'unreadable', message: `rules folder cannot be read (${list.code}): Claude Code skips it` });
      return [];
    }
    const out: LoadedFile[] = [];
    for (const ent of list.value) {
      const linkPath = path.join(rulesDir, ent.name);
      let target = linkPath;
      let kind = ent.kind;
      if (ent.kind === 'symlink') {
        const real = this.realpath(linkPath);
        const s = env.fs.stat(linkPath);
        if (!real || !s.ok) {
          if (s.ok === false && s.code === 'ELOOP') sink.add({ path: linkPath, severity: 'warning', rule: 'symlink-loop', message: 'symlink loop: skipped' });
          continue;
        }
        target = real;
        kind = s.value.kind;
        if (!external && !isInside(real, env.cwd)) {
          if (kind === 'dir' || ent.name.endsWith('.md'))
            sink.add({ path: linkPath, severity: 'warning', rule: 'rules-link-outside-cwd', message: `links to ${real}, outside the launch directory: Claude Code skips it` });
          continue;
        }
      } else if (realDir !== rulesDir) {
        target = path.join(realDir, ent.name);
      }
      if (this.ctx.excluded(linkPath, type) !== undefined && linkPath !== target) continue;
      if (kind === 'dir') {
        out.push(...this.walkRules(target, type, processed, base, want, visited));
      } else if (kind === 'file') {
        if (!ent.name.endsWith('.md')) {
          if (/\.(md|markdown|mdx)$/i.test(ent.name))
            sink.add({ path: target, severity: 'warning', rule: 'rule-not-md', message: `rule files must end in lowercase ".md": Claude Code ignores ${ent.name}` });
          continue;
        }
        const files = this.loadFile(target, type, processed, { kind: 'rule', rulesDir, base }, 0);
        if (files[0]) files[0].isRule = true;
        for (const f of files) {
          if (f.globs && f.origin.kind !== 'rule') f.origin = { kind: 'rule', rulesDir, base, globs: f.globs };
          else if (f.origin.kind === 'rule') f.origin = { ...f.origin, globs: f.globs };
        }
        out.push(...(want === 'all' ? files : files.filter((f) => (want ? !!f.globs : !f.globs))));
      }
    }
    return out;
  }
}
