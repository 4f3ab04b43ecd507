// `paths:` patterns as Claude Code turns them into a matcher, and the matching itself
// (gitignore semantics through the `ignore` package, case-insensitive, relative to a base folder).
import ignore from 'ignore';
import * as path from 'node:path';
import { compilePatterns, matchesPath } from './glob-count.js';
import { grouped } from '../diagnostics.js';

const MAX_EXPANSIONS = 1000;
const MAX_BYTES = 4 * 1024 * 1024;

/** Split on commas outside braces, trim, drop empties, expand braces. */
export function splitPatterns(value: unknown): string[] {
  const budget = { results: MAX_EXPANSIONS, bytes: MAX_BYTES };
  return split(value, budget);
}

function split(value: unknown, budget: { results: number; bytes: number }): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => split(v, budget));
  if (typeof value !== 'string') return [];
  const parts: string[] = [];
  let cur = '';
  let depth = 0;
  for (const ch of value) {
    if (ch === '{') {
      depth++;
      cur += ch;
    } else if (ch === '}') {
      depth--;
      cur += ch;
    } else if (ch === ',' && depth === 0) {
      const t = cur.trim();
      if (t) parts.push(t);
      cur = '';
    } else cur += ch;
  }
  const last = cur.trim();
  if (last) parts.push(last);
  return parts.flatMap((p) => expandBraces(p, budget));
}

function expandBraces(pattern: string, budget: { results: number; bytes: number }): string[] {
  if (!pattern.includes('{')) return [pattern];
  const out: string[] = [];
  const stack = [pattern];
  for (let cur = stack.pop(); cur !== undefined; cur = stack.pop()) {
    const m = /^([^{]*)\{([^}]+)\}(.*)$/.exec(cur);
    if (!m) {
      out.push(cur);
      continue;
    }
    const alts = m[2]!.split(',').map((s) => s.trim());
    budget.bytes -= cur.length;
    const n = out.length + stack.length + alts.length;
    if (budget.bytes < 0 || n > budget.results || n * pattern.length > budget.bytes) return [pattern];
    for (let i = alts.length - 1; i >= 0; i--) stack.push(m[1]! + (alts[i] ?? '') + m[3]!);
  }
  budget.results -= out.length;
  budget.bytes -= out.length * pattern.length;
  return out;
}

/**
 * The most `paths:` patterns of one rule the engine matches (the rest are dropped: diagnostic
 * `glob-list-capped`). 140,000 patterns, just under the 4 MiB file cap, took 5 s and 400 MB per run.
 */
export const MAX_RULE_PATTERNS = 10_000;

/** The patterns of a `paths:` value as used for gating; undefined means the rule is unconditional. */
export function rulePatterns(value: unknown): string[] | undefined {
  if (value === undefined || value === null || value === false || value === '') return undefined;
  const pats = splitPatterns(value)
    .map((p) => (p.endsWith('/**') ? p.slice(0, -3) : p))
    .filter((p) => p.length > 0)
    .slice(0, MAX_RULE_PATTERNS);
  if (pats.length === 0 || pats.every((p) => p === '**')) return undefined;
  return pats;
}

export interface GlobMatcher {
  /** does the absolute path match (relative to the base)? */
  matches(absPath: string): boolean;
  /** does a path already relative to the base (with `/`) match? */
  matchesRelative(rel: string): boolean;
}

const compiled = new Map<string, ReturnType<typeof ignore>>();
const MAX_COMPILED = 4096;

/** `ignore` instances are costly to build; rules keep the same patterns, so keep them */
function compiledIgnore(patterns: string[]): ReturnType<typeof ignore> {
  const key = patterns.join('\0');
  let ig = compiled.get(key);
  if (!ig) {
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
    ig = ignore({ ignorecase: true }).add(patterns);
    compiled.set(key, ig);
  }
  return ig;
}

function relativeMatcher(base: string, test: (rel: string) => boolean): GlobMatcher {
  const matchesRelative = (rel: string): boolean => {
    if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return false;
    try {
      return test(rel);
    } catch {
      return false;
    }
  };
  return {
    matchesRelative,
    matches(absPath: string) {
      return matchesRelative(path.relative(base, absPath).split(path.sep).join('/'));
    },
  };
}

/**
 * The matcher as Claude Code builds it: the `ignore` package, path by path. It backtracks
 * (`**\/x/**\/x/**\/x/**\/y` on a deep path takes seconds, an over-long pattern throws), so the
 * engine never runs it on files it reads: it is the reference the linear matcher below is proven
 * identical to (test/unit/glob-count.test.ts, test/unit/glob-linear.test.ts).
 */
export function referenceMatcher(base: string, patterns: string[]): GlobMatcher {
  const ig = compiledIgnore(patterns);
  return relativeMatcher(base, (rel) => ig.ignores(rel));
}

/**
 * Claude Code's `paths:` matcher, decided in time linear in the path and the patterns
 * (glob-count.ts matchesPath: segment automata, and the non-backtracking linear-regex.ts for the
 * forms it leaves to `ignore`'s expressions). Patterns longer than MAX_GLOB_LENGTH match nothing
 * (see globTooLong).
 */
export function compileMatcher(base: string, patterns: string[]): GlobMatcher {
  const c = compilePatterns(usablePatterns(patterns));
  return relativeMatcher(base, (rel) => matchesPath(c, rel));
}

/**
 * The longest `paths:` pattern the engine matches (longer ones match nothing: diagnostic
 * `glob-too-long`). Claude Code has no such bound (measured on 2.1.235 and 2.1.332: a rule of
 * 60,008 characters, `src/**\/**\/…/*.ts`, loads for src/a.ts; `*a` × 8,000 neither hangs nor
 * throws); the bound keeps one decision within O(name × 131,072).
 */
export const MAX_GLOB_LENGTH = 131072;

/** the patterns of a list the engine matches (the over-long ones dropped: see MAX_GLOB_LENGTH) */
export function usablePatterns(patterns: readonly string[]): string[] {
  return patterns.some((p) => p.length > MAX_GLOB_LENGTH) ? patterns.filter((p) => p.length <= MAX_GLOB_LENGTH) : (patterns as string[]);
}

/** the over-long patterns of a list */
export function globsTooLong(patterns: readonly string[]): string[] {
  return patterns.filter((p) => p.length > MAX_GLOB_LENGTH);
}

/** a pattern for a message: at most 80 characters */
function shown(p: string): string {
  return p.length > 80 ? `${p.slice(0, 60)}… (${grouped(p.length)} characters)` : p;
}

/** the most `*` wildcards in one segment of a pattern (a run of `*`s counts once), and the `**` segments after the first */
export function wildcardLoad(p: string): { stars: number; globstars: number } {
  let stars = 0;
  let globstars = 0;
  for (const seg of p.split('/')) {
    if (/^\*{2,}$/.test(seg)) {
      globstars++;
      continue;
    }
    stars = Math.max(stars, (seg.replace(/\\./g, 'x').match(/\*+/g) ?? []).length);
  }
  return { stars, globstars: Math.max(0, globstars - 1) };
}

/**
 * What is hazardous in a `paths:` list, as diagnostics without a path: patterns past
 * MAX_GLOB_LENGTH (`glob-too-long`), and patterns that make Claude Code's backtracking matcher
 * take exponential time (`glob-backtracks`: four or more `*` in one segment, or four or more `**`
 * after the first; measured: `**\/*a*a*a*a*a*a*a*b` and a file named with 103 `a`s hang 2.1.235 and
 * 2.1.332 at full CPU, with no request sent for over 60 s, and 2.1.332 ignores SIGTERM).
 */
export function globHazards(patterns: readonly string[]): { rule: 'glob-too-long' | 'glob-backtracks' | 'glob-list-capped'; message: string }[] {
  const out: { rule: 'glob-too-long' | 'glob-backtracks' | 'glob-list-capped'; message: string }[] = [];
  if (patterns.length > MAX_RULE_PATTERNS)
    out.push({
      rule: 'glob-list-capped',
      message: `paths: has ${grouped(patterns.length)} patterns: the engine matches the first ${grouped(MAX_RULE_PATTERNS)} only, so a file only a later one matches is shown as not loading this rule`,
    });
  for (const p of patterns.slice(0, MAX_RULE_PATTERNS)) {
    if (p.length > MAX_GLOB_LENGTH) {
      out.push({
        rule: 'glob-too-long',
        message: `paths: pattern ${shown(p)} is over ${grouped(MAX_GLOB_LENGTH)} characters: the engine treats it as matching nothing; Claude Code has no such bound (it matches a 60,008-character pattern) and may load this rule`,
      });
      continue;
    }
    const { stars, globstars } = wildcardLoad(p);
    if (stars >= 4 || globstars >= 4) {
      const what = stars >= 4 ? `${stars} \`*\` in one segment` : `${globstars + 1} \`**\``;
      out.push({
        rule: 'glob-backtracks',
        message: `paths: pattern ${shown(p)} has ${what}: Claude Code's matcher backtracks on it, and reading a file whose path nearly matches can hang Claude Code (measured: **/*a*a*a*a*a*a*a*b with a file named with 103 "a"s hangs every measured version); the engine decides it at once`,
      });
    }
  }
  return out;
}
