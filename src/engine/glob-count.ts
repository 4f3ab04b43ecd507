// Fast counting of the files a gitignore-style pattern list matches, for glob hovers, lint and the
// workspace index. It decides exactly what the `ignore` package decides (as Claude Code uses it in
// compileMatcher: case-insensitive, relative to a base folder, a path is matched when the list
// "ignores" it), but over a tree of folders instead of one path at a time:
//
// - a folder is tested once, as `dir/` (as `ignore` tests every parent of a path), and when it is
//   matched every file below it counts without being looked at (a parent that is excluded cannot
//   be re-included);
// - patterns without an inner slash are tested against the entry's name only (git does the same);
// - when every positive pattern starts with literal folders (`src/**/*.ts`, `packages/x/**`), only
//   those subtrees are walked.
//
// Each pattern is turned into a picomatch matcher when it lies in a subset whose meaning is the same
// in both (literals, `*`, `?`, `**` segments, simple `[...]` classes, trailing `/`, leading `/`).
// A pattern outside that subset (escapes, odd brackets, trailing spaces, `***`, ...) is matched with
// the regular expression the `ignore` package itself compiles for it, and if that is out of reach a
// whole list falls back to `ignore`, path by path. test/unit/glob-count.test.ts holds the proof of
// identity over a generated tree.
import ignore from 'ignore';
import picomatch from 'picomatch';

// ---- the tree ---------------------------------------------------------------------------------

/** A folder of a file tree; names are single path segments, `rel` is relative to the tree root. */
export class DirNode {
  readonly dirs: DirNode[] = [];
  readonly files: string[] = [];
  /** files in this folder and below */
  total = 0;
  constructor(
    readonly name: string,
    readonly parent: DirNode | undefined,
  ) {}

  /** path relative to the tree root, `/`-separated, '' for the root */
  get rel(): string {
    const parts: string[] = [];
    for (let d: DirNode | undefined = this; d && d.parent; d = d.parent) parts.push(d.name);
    return parts.reverse().join('/');
  }

  dir(name: string): DirNode | undefined {
    for (const d of this.dirs) if (d.name === name) return d;
    return undefined;
  }

  /** the folder at `rel` ('' or 'a/b') below this one */
  find(rel: string): DirNode | undefined {
    if (!rel) return this;
    let d: DirNode | undefined = this;
    for (const part of rel.split('/')) {
      if (!part) continue;
      d = d.dir(part);
      if (!d) return undefined;
    }
    return d;
  }

  /** create (or get) the folder `name` */
  ensureDir(name: string): DirNode {
    const hit = this.dir(name);
    if (hit) return hit;
    const d = new DirNode(name, this);
    this.dirs.push(d);
    return d;
  }

  addFile(name: string): void {
    this.files.push(name);
    for (let d: DirNode | undefined = this; d; d = d.parent) d.total++;
  }

  removeFile(name: string): boolean {
    const i = this.files.indexOf(name);
    if (i < 0) return false;
    this.files.splice(i, 1);
    for (let d: DirNode | undefined = this; d; d = d.parent) d.total--;
    return true;
  }

  removeDir(name: string): boolean {
    const i = this.dirs.findIndex((d) => d.name === name);
    if (i < 0) return false;
    const [gone] = this.dirs.splice(i, 1);
    for (let d: DirNode | undefined = this; d; d = d.parent) d.total -= gone!.total;
    return true;
  }

  /** every file below, relative to this folder */
  *walkFiles(prefix = ''): Generator<string> {
    for (const f of this.files) yield prefix + f;
    for (const d of this.dirs) yield* d.walkFiles(`${prefix}${d.name}/`);
  }
}

/** Build a tree from `/`-separated relative file paths. */
export function treeFromPaths(paths: Iterable<string>): DirNode {
  const root = new DirNode('', undefined);
  const cache = new Map<string, DirNode>([['', root]]);
  for (const p of paths) {
    const cut = p.lastIndexOf('/');
    const dirRel = cut < 0 ? '' : p.slice(0, cut);
    let d = cache.get(dirRel);
    if (!d) {
      d = root;
      let acc = '';
      for (const part of dirRel.split('/')) {
        acc = acc ? `${acc}/${part}` : part;
        const hit = cache.get(acc);
        if (hit) {
          d = hit;
          continue;
        }
        d = d.ensureDir(part);
        cache.set(acc, d);
      }
    }
    d.files.push(cut < 0 ? p : p.slice(cut + 1));
  }
  const sum = (d: DirNode): number => (d.total = d.files.length + d.dirs.reduce((s, c) => s + sum(c), 0));
  sum(root);
  return root;
}

// ---- compiling a pattern list -------------------------------------------------------------------

export interface CompileOptions {
  /** case-insensitive matching; Claude Code's `paths:` matching is, git on Linux is not (default true) */
  ignoreCase?: boolean;
  /**
   * Claude Code's matcher returns "no match" for any relative path starting with `..` (also a
   * folder named `..x`); keep that quirk for `paths:` counts (default true), drop it for .gitignore.
   */
  dotDotGuard?: boolean;
  /** reuse an earlier compilation of the same list (default true) */
  cache?: boolean;
}

type Test = (s: string) => boolean;

interface Rule {
  negative: boolean;
  /** the pattern only matches folders (trailing slash) */
  dirOnly: boolean;
  /**
   * how the rule is tested:
   * - 'name': against the entry's name (pattern with no inner slash)
   * - 'path': against the path relative to the base, without trailing slash
   * - 'under': matches entries strictly below a folder that `test` matches as a whole (`x/**`)
   * - 'regex': the `ignore` package's own expression, against the path (`dir/` for folders)
   */
  mode: 'name' | 'path' | 'under' | 'regex';
  test: Test;
  /**
   * for pruning ('path', 'under', plain 'regex'): tests for the leading path segments a match must
   * start with, one per segment, up to the first `**`
   */
  segs?: Test[];
  /** 'path' without `**`: a match has exactly this many segments */
  fixedLen?: number;
  /** 'path': the last segment's test, when it is not `**` (a cheap necessary condition) */
  last?: Test;
  /**
   * 'path' shaped `L1/…/Lk/**​/T` (the L without `**`): an entry deeper than k whose leading
   * segments match is matched exactly when its name matches T
   */
  tail?: Test;
}

export interface CompiledPatterns {
  readonly patterns: readonly string[];
  readonly ignoreCase: boolean;
  readonly dotDotGuard: boolean;
  /** undefined when the list had to fall back to `ignore` path by path */
  readonly rules: readonly Rule[] | undefined;
  /** how many rules are matched by picomatch (the rest by `ignore`'s own expression) */
  readonly picomatchRules: number;
  /** the slow path: the `ignore` matcher */
  readonly fallback?: (rel: string) => boolean;
}

const PM_BASE = { dot: true, nobrace: true, noextglob: true, nonegate: true, literalBrackets: false } as const;

/**
 * picomatch's expression, tested directly: its matcher function also accepts a path equal to the
 * glob text itself (`a[b]` would match a file named `a[b]`), which gitignore semantics do not.
 */
function pm(glob: string, opts: picomatch.PicomatchOptions): Test {
  const re = picomatch.makeRe(glob, opts);
  return (s) => re.test(s);
}

/** characters a literal part of a pattern may hold for the picomatch translation */
const SAFE_LITERAL = /^[A-Za-z0-9._\-~#%=,@+ &']$/;

/** Translate a `[...]` class at `s[i]`; returns [picomatch source, end index] or undefined. */
function translateClass(s: string, i: number): [string, number] | undefined {
  let j = i + 1;
  let neg = false;
  if (s[j] === '!' || s[j] === '^') {
    neg = true;
    j++;
  }
  let body = '';
  let first = true;
  for (; j < s.length; j++) {
    const c = s[j]!;
    if (c === ']' && !first) return [`[${neg ? '^' : ''}${body}]`, j];
    first = false;
    if (/[A-Za-z0-9._]/.test(c)) {
      if (s[j + 1] === '-' && s[j + 2] !== undefined && s[j + 2] !== ']') {
        const to = s[j + 2]!;
        const same = (/[a-z]/.test(c) && /[a-z]/.test(to)) || (/[A-Z]/.test(c) && /[A-Z]/.test(to)) || (/[0-9]/.test(c) && /[0-9]/.test(to));
        if (!same || c > to) return undefined;
        body += `${c}-${to}`;
        j += 2;
      } else body += c;
    } else if (c === '-' && (s[j + 1] === ']' || body === '')) body += '\\-';
    else return undefined;
  }
  return undefined;
}

/** Is `seg` (one path segment of a pattern) in the subset picomatch matches as `ignore` does? */
function translateSegment(seg: string): string | undefined {
  if (seg === '**') return seg;
  if (seg === '' || seg === '.' || seg === '..') return undefined;
  let out = '';
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!;
    if (c === '*') {
      if (seg[i + 1] === '*') return undefined; // `**` beside other characters
      out += c;
    } else if (c === '?') out += c;
    else if (c === '[') {
      const t = translateClass(seg, i);
      if (!t) return undefined;
      out += t[0];
      i = t[1];
    } else if (SAFE_LITERAL.test(c)) out += c;
    else return undefined;
  }
  return out;
}

interface IgnoreRuleInternals {
  pattern: string;
  body: string;
  negative: boolean;
  regex: RegExp;
}

/** the rules `ignore` builds from the list, if its internals are where version 7 keeps them */
function ignoreRules(patterns: readonly string[], ignoreCase: boolean): IgnoreRuleInternals[] | undefined {
  try {
    const ig = ignore({ ignorecase: ignoreCase }).add(patterns as string[]) as unknown as { _rules?: { _rules?: unknown } };
    const rules = ig._rules?._rules;
    if (!Array.isArray(rules)) return undefined;
    for (const r of rules as Partial<IgnoreRuleInternals>[]) {
      if (typeof r.body !== 'string' || typeof r.negative !== 'boolean' || !(r.regex instanceof RegExp)) return undefined;
    }
    return rules as IgnoreRuleInternals[];
  } catch {
    return undefined;
  }
}

/** A rule from one pattern in the picomatch subset, or undefined. `raw` is the pattern as written. */
function translate(raw: string, ignoreCase: boolean): Rule | undefined {
  let body = raw;
  let negative = false;
  if (body[0] === '!') {
    negative = true;
    body = body.slice(1);
  }
  if (!body || body[0] === '#' || /\s$/.test(body) || body.includes('\\')) return undefined;
  let dirOnly = false;
  if (body.endsWith('/')) {
    dirOnly = true;
    body = body.slice(0, -1);
  }
  if (!body || body.endsWith('/')) return undefined;
  if (body === '/**' || body === '**') return { negative, dirOnly, mode: 'name', test: () => true };
  const anchoredBySlash = body.startsWith('/');
  if (anchoredBySlash) body = body.slice(1);
  let segs = body.split('/');
  const parts: string[] = [];
  for (const s of segs) {
    const t = translateSegment(s);
    if (t === undefined) return undefined;
    parts.push(t);
  }
  const opts = { ...PM_BASE, nocase: ignoreCase };
  // a leading `**/` (also after `/`) makes the pattern match at any depth
  let lead = 0;
  while (parts[lead] === '**' && lead < parts.length - 1) lead++;
  if (lead > 0) {
    segs = segs.slice(lead);
    parts.splice(0, lead);
    if (parts.length === 1) return { negative, dirOnly, mode: 'name', test: pm(parts[0]!, opts) };
    const trailing = parts[parts.length - 1] === '**';
    if (trailing) return undefined; // `**/x/**`: rare, leave to `ignore`
    const lastPart = parts[parts.length - 1]!;
    return { negative, dirOnly, mode: 'path', test: pm(`**/${parts.join('/')}`, opts), last: lastPart === '**' ? undefined : pm(lastPart, opts) };
  }
  if (parts.length === 1 && !anchoredBySlash) return { negative, dirOnly, mode: 'name', test: pm(parts[0]!, opts) };
  const leading: Test[] = [];
  for (const part of parts) {
    if (part === '**') break;
    leading.push(pm(part, opts));
  }
  if (parts[parts.length - 1] === '**') {
    // `x/**`: everything strictly below a folder matching `x` (ignore: `^x\/[\s\S]`)
    // `x/**/**` is `x/**`: below a folder below `x` is below `x`
    const baseParts = parts.slice(0, -1);
    while (baseParts[baseParts.length - 1] === '**') baseParts.pop();
    if (baseParts.length === 0) return undefined;
    return { negative, dirOnly, mode: 'under', test: pm(baseParts.join('/'), opts), segs: leading.slice(0, baseParts.length) };
  }
  const fixedLen = parts.includes('**') ? undefined : parts.length;
  const lastPart = parts[parts.length - 1]!;
  const tailShape = parts.length === leading.length + 2 && parts[leading.length] === '**' && lastPart !== '**';
  return {
    negative, dirOnly, mode: 'path', test: pm(parts.join('/'), opts), segs: leading, fixedLen,
    last: lastPart === '**' ? undefined : pm(lastPart, opts),
    tail: tailShape ? pm(lastPart, opts) : undefined,
  };
}

/** the literal folder prefix of an `ignore` rule body (for pruning a regex-mode rule), if plain */
function regexPrefix(body: string): string[] | undefined {
  let b = body.endsWith('/') ? body.slice(0, -1) : body;
  const anchored = b.startsWith('/') || b.includes('/');
  if (!anchored) return undefined;
  if (b.startsWith('/')) b = b.slice(1);
  const segs = b.split('/');
  const out: string[] = [];
  for (let i = 0; i < segs.length - 1; i++) {
    const s = segs[i]!;
    if (!s || !/^[A-Za-z0-9._\-~@+ ]+$/.test(s) || s === '.' || s === '..') break;
    out.push(s);
  }
  return out.length ? out : undefined;
}

const compileCache = new Map<string, CompiledPatterns>();

/** Compile a pattern list once; the result is reused for every count over any tree. */
export function compilePatterns(patterns: readonly string[], options: CompileOptions = {}): CompiledPatterns {
  const ignoreCase = options.ignoreCase ?? true;
  const dotDotGuard = options.dotDotGuard ?? true;
  if (options.cache === false) return compileUncached(patterns, ignoreCase, dotDotGuard);
  const key = `${ignoreCase ? 'i' : 'c'}${dotDotGuard ? 'g' : 'n'}\0${patterns.join('\0')}`;
  const hit = compileCache.get(key);
  if (hit) return hit;
  const made = compileUncached(patterns, ignoreCase, dotDotGuard);
  if (compileCache.size > 2000) compileCache.clear();
  compileCache.set(key, made);
  return made;
}

function compileUncached(patterns: readonly string[], ignoreCase: boolean, dotDotGuard: boolean): CompiledPatterns {
  const internals = ignoreRules(patterns, ignoreCase);
  const slow = (): CompiledPatterns => {
    const ig = ignore({ ignorecase: ignoreCase }).add(patterns as string[]);
    const fallback = (rel: string) => {
      if (!rel || (dotDotGuard && rel.startsWith('..'))) return false;
      try {
        return ig.ignores(rel);
      } catch {
        return false;
      }
    };
    return { patterns, ignoreCase, dotDotGuard, rules: undefined, picomatchRules: 0, fallback };
  };
  // Every pattern of the list must become exactly one rule, in order, as in `ignore`. Patterns that
  // yield no rule (comments, blank, a lone `!`) are dropped by both.
  const rules: Rule[] = [];
  let pm = 0;
  if (internals) {
    for (const ir of internals) {
      const t = ir.pattern === (ir.negative ? `!${ir.body}` : ir.body) ? translate(ir.pattern, ignoreCase) : undefined;
      if (t && t.negative === ir.negative) {
        rules.push(t);
        pm++;
      } else {
        const re = ir.regex;
        const lit = regexPrefix(ir.body);
        const segs = lit?.map((x): Test => (ignoreCase ? (n) => n.toLowerCase() === x.toLowerCase() : (n) => n === x));
        rules.push({ negative: ir.negative, dirOnly: false, mode: 'regex', test: (s) => re.test(s), segs });
      }
    }
  } else {
    // without the internals, only lists wholly in the subset (and with no droppable lines)
    for (const p of patterns) {
      const t = typeof p === 'string' && p !== '!' ? translate(p, ignoreCase) : undefined;
      if (!t) return slow();
      rules.push(t);
      pm++;
    }
  }
  return { patterns, ignoreCase, dotDotGuard, rules, picomatchRules: pm };
}

// ---- matching ---------------------------------------------------------------------------------

/**
 * The verdict of the rule list on one entry whose parents it does not exclude: 1 matched, -1
 * re-included by a `!` pattern, 0 no rule matches. The entry is `pre + name` relative to the
 * base (`pre` empty or ending in `/`), `depth` its number of segments; `under` tells for each
 * 'under' rule whether a strict ancestor folder matches its base, `ok` (when known) for each rule
 * with segment tests whether the ancestors pass them.
 */
function verdict(rules: readonly Rule[], pre: string, name: string, isDir: boolean, depth: number, under: readonly boolean[] | undefined, ok: readonly boolean[] | undefined): 1 | -1 | 0 {
  let rel: string | undefined;
  for (let i = rules.length - 1; i >= 0; i--) {
    const r = rules[i]!;
    let hit: boolean;
    if (r.dirOnly && !isDir) continue;
    switch (r.mode) {
      case 'name':
        hit = r.test(name);
        break;
      case 'path':
        if (ok && r.segs && !ok[i]) hit = false;
        else if (r.fixedLen !== undefined && depth !== r.fixedLen) hit = false;
        else if (r.last && !r.last(name)) hit = false;
        else if (ok && r.tail && depth > r.segs!.length) hit = true;
        else hit = r.test((rel ??= pre + name));
        break;
      case 'under':
        hit = !!under?.[i];
        break;
      default:
        hit = ok && r.segs && !ok[i] ? false : r.test(isDir ? `${(rel ??= pre + name)}/` : (rel ??= pre + name));
    }
    if (hit) return r.negative ? -1 : 1;
  }
  return 0;
}

interface WalkState {
  rules: readonly Rule[];
  underIdx: number[];
  /** indices of the positive rules */
  positives: number[];
  /** indices of the rules with leading-segment tests */
  segIdx: number[];
  prune: boolean;
  count: number;
  list?: string[];
  limit: number;
  guard: boolean;
}

/** the `under` flags for the children of folder `rel`, given the flags that hold for `rel` itself */
function underFor(st: WalkState, flags: readonly boolean[] | undefined, rel: string): readonly boolean[] | undefined {
  if (st.underIdx.length === 0) return undefined;
  let out: boolean[] | undefined;
  for (const i of st.underIdx) {
    if (flags?.[i]) continue;
    if (rel && st.rules[i]!.test(rel)) {
      out ??= flags ? [...flags] : [];
      out[i] = true;
    }
  }
  return out ?? flags;
}

/**
 * For each rule with leading-segment tests: do the leading segments of folder `name` (at `depth`,
 * 1 for a child of the base) still match, given its parent's answers? Undefined entries mean "no
 * such test" (always true).
 */
function okFor(st: WalkState, ok: readonly boolean[], name: string, depth: number): boolean[] {
  const out = ok.slice();
  for (const i of st.segIdx) {
    if (!out[i]) continue;
    const seg = st.rules[i]!.segs![depth - 1];
    if (seg && !seg(name)) out[i] = false;
  }
  return out;
}

/** can a positive rule still match something strictly below a folder at `depth` with these answers? */
function anyAlive(st: WalkState, ok: readonly boolean[], depth: number, flags: readonly boolean[] | undefined): boolean {
  for (const i of st.positives) {
    const r = st.rules[i]!;
    if (r.mode === 'under' && flags?.[i]) return true;
    if (r.fixedLen !== undefined && depth + 1 > r.fixedLen) continue;
    if (r.segs && !ok[i]) continue;
    return true;
  }
  return false;
}

function addAll(st: WalkState, d: DirNode, rel: string): void {
  st.count += d.total;
  if (st.list && st.list.length < st.limit) for (const f of d.walkFiles(`${rel}/`)) if (st.list.length < st.limit) st.list.push(f);
}

/** walk folder `d` (at `rel`, `depth` segments below the base, not itself matched) */
function walk(st: WalkState, d: DirNode, rel: string, depth: number, flags: readonly boolean[] | undefined, ok: readonly boolean[]): void {
  const pre = rel ? `${rel}/` : '';
  const top = depth === 0;
  const rules = st.rules;
  for (const f of d.files) {
    if (top && st.guard && f.startsWith('..')) continue;
    if (verdict(rules, pre, f, false, depth + 1, flags, ok) === 1) {
      st.count++;
      if (st.list && st.list.length < st.limit) st.list.push(pre + f);
    }
  }
  for (const c of d.dirs) {
    if (top && st.guard && c.name.startsWith('..')) continue;
    const p = pre + c.name;
    if (verdict(rules, pre, c.name, true, depth + 1, flags, ok) === 1) {
      addAll(st, c, p);
      continue;
    }
    const childFlags = underFor(st, flags, p);
    const childOk = st.segIdx.length ? okFor(st, ok, c.name, depth + 1) : ok;
    if (st.prune && !anyAlive(st, childOk, depth + 1, childFlags)) continue;
    walk(st, c, p, depth + 1, childFlags, childOk);
  }
}

function run(base: DirNode, c: CompiledPatterns, list: string[] | undefined, limit: number): number {
  if (!c.rules) {
    let n = 0;
    for (const f of base.walkFiles()) {
      if (c.fallback!(f)) {
        n++;
        if (list && list.length < limit) list.push(f);
      }
    }
    return n;
  }
  const rules = c.rules;
  const underIdx: number[] = [];
  const positives: number[] = [];
  rules.forEach((r, i) => {
    if (r.mode === 'under') underIdx.push(i);
    if (!r.negative) positives.push(i);
  });
  if (positives.length === 0) return 0;
  const segIdx: number[] = [];
  rules.forEach((r, i) => r.segs?.length && segIdx.push(i));
  const st: WalkState = {
    rules,
    underIdx,
    positives,
    segIdx,
    // pruning pays when no positive rule can match at any depth by name alone
    prune: positives.every((i) => rules[i]!.mode !== 'name'),
    count: 0,
    list,
    limit,
    guard: c.dotDotGuard,
  };
  walk(st, base, '', 0, undefined, rules.map(() => true));
  return st.count;
}

/** How many files below `base` the pattern list matches (paths relative to `base`). */
export function countMatches(base: DirNode, compiled: CompiledPatterns): number {
  return run(base, compiled, undefined, 0);
}

/** The first `limit` files below `base` the list matches, relative to `base`, and the total. */
export function listMatches(base: DirNode, compiled: CompiledPatterns, limit = 50): { files: string[]; total: number } {
  const files: string[] = [];
  const total = run(base, compiled, files, limit);
  return { files, total };
}

/**
 * The verdict of one pattern list on one entry whose parents it does not exclude, for walks that
 * combine several lists (nested .gitignore files): 1 excluded, -1 re-included by a `!` pattern,
 * 0 no pattern matches. `under` comes from `underFlags` of the entry's folder.
 */
export function entryState(compiled: CompiledPatterns, rel: string, name: string, isDir: boolean, under: readonly boolean[] | undefined): 1 | -1 | 0 {
  if (!compiled.rules) return compiled.fallback!(isDir ? `${rel}/` : rel) ? 1 : 0;
  const pre = rel.slice(0, rel.length - name.length);
  let depth = 1;
  for (let i = 0; i < pre.length; i++) if (pre.charCodeAt(i) === 47) depth++;
  return verdict(compiled.rules, pre, name, isDir, depth, under, undefined);
}

/** the `under` flags for the entries of folder `dirRel` (relative to the list's folder), from its parent's */
export function underFlags(compiled: CompiledPatterns, parentFlags: readonly boolean[] | undefined, dirRel: string): readonly boolean[] | undefined {
  const rules = compiled.rules;
  if (!rules || !dirRel) return parentFlags;
  let out: boolean[] | undefined;
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i]!;
    if (r.mode !== 'under' || parentFlags?.[i]) continue;
    if (r.test(dirRel)) {
      out ??= parentFlags ? [...parentFlags] : [];
      out[i] = true;
    }
  }
  return out ?? parentFlags;
}

/** does the list have a rule that needs `underFlags` (a `x/**` pattern)? */
export function needsUnderFlags(compiled: CompiledPatterns): boolean {
  return !!compiled.rules?.some((r) => r.mode === 'under');
}

/**
 * Is one entry matched, given its parents are not (the per-level test of a .gitignore): `rel` is
 * relative to the pattern file's folder, without trailing slash.
 */
export function matchesEntry(compiled: CompiledPatterns, rel: string, isDir: boolean): boolean {
  if (!compiled.rules) return compiled.fallback!(isDir ? `${rel}/` : rel);
  if (!rel || (compiled.dotDotGuard && rel.startsWith('..'))) return false;
  const cut = rel.lastIndexOf('/');
  const name = cut < 0 ? rel : rel.slice(cut + 1);
  const rules = compiled.rules;
  let under: boolean[] | undefined;
  for (let i = 0; i < rules.length; i++) {
    if (rules[i]!.mode !== 'under') continue;
    // a strict ancestor folder matches the rule's base
    let parts = rel.split('/');
    parts = parts.slice(0, -1);
    for (let k = 1; k <= parts.length; k++) {
      if (rules[i]!.test(parts.slice(0, k).join('/'))) {
        under ??= [];
        under[i] = true;
        break;
      }
    }
  }
  return entryState(compiled, rel, name, isDir, under) === 1;
}
