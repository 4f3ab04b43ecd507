// `paths:` patterns as Claude Code turns them into a matcher, and the matching itself
// (gitignore semantics through the `ignore` package, case-insensitive, relative to a base folder).
import ignore from 'ignore';
import * as path from 'node:path';

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
    if (ch === '{') depth++, (cur += ch);
    else if (ch === '}') depth--, (cur += ch);
    else if (ch === ',' && depth === 0) {
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

/** The patterns of a `paths:` value as used for gating; undefined means the rule is unconditional. */
export function rulePatterns(value: unknown): string[] | undefined {
  if (value === undefined || value === null || value === false || value === '') return undefined;
  const pats = splitPatterns(value)
    .map((p) => (p.endsWith('/**') ? p.slice(0, -3) : p))
    .filter((p) => p.length > 0);
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

export function compileMatcher(base: string, patterns: string[]): GlobMatcher {
  const ig = compiledIgnore(patterns);
  const matchesRelative = (rel: string): boolean => {
    if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return false;
    try {
      return ig.ignores(rel);
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
