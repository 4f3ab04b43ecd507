// The text edits behind the frontmatter quick fixes, pure so that they are tested without VS Code:
// a `paths:` value written as a YAML list (VS Code's own instructions validator wants an array, and
// the completion inserts one), a leading `./` removed, and the folder a dead glob most likely meant.
import * as path from 'node:path';

/** a YAML flow list of double-quoted patterns (JSON strings are valid YAML double-quoted scalars) */
export function yamlList(patterns: readonly string[]): string {
  return `[${patterns.map((p) => JSON.stringify(p)).join(', ')}]`;
}

/** the value after `key:` on its line is a scalar (not a flow list, not empty, not a comment) */
export function isScalarValue(line: string): boolean {
  const i = line.indexOf(':');
  if (i < 0) return false;
  const rest = line.slice(i + 1).trim();
  return rest !== '' && !rest.startsWith('[') && !rest.startsWith('#') && !rest.startsWith('|') && !rest.startsWith('>');
}

/** the line rewritten as `paths: [...]` (the key renamed too when it was `globs:`), keeping its indentation */
export function pathsListLine(line: string, patterns: readonly string[]): string {
  const indent = /^\s*/.exec(line)![0];
  return `${indent}paths: ${yamlList(patterns)}`;
}

/** the folders of a pattern before its first glob segment: `lib/legacy/**` → `lib/legacy` */
export function literalPrefix(pattern: string): string {
  const segs = pattern.replace(/^\/+/, '').split('/');
  const out: string[] = [];
  for (const s of segs.slice(0, -1)) {
    if (/[*?[\]{}!]/.test(s)) break;
    out.push(s);
  }
  // a last segment without glob characters and without an extension is a folder too (`docs` in `docs`)
  const last = segs[segs.length - 1] ?? '';
  if (out.length === segs.length - 1 && last && !/[*?[\]{}!.]/.test(last)) out.push(last);
  return out.join('/');
}

/**
 * The one existing folder a missing prefix most likely meant, when that is obvious: the same path in
 * another case, or the only folder whose path ends with the prefix (`lib/legacy` → `src/lib/legacy`),
 * or the only folder with the prefix's last name. `dirs` are relative with `/`; undefined when none or
 * several fit.
 */
export function nearestFolder(prefix: string, dirs: ReadonlySet<string>): string | undefined {
  if (!prefix || dirs.has(prefix)) return undefined;
  const lower = prefix.toLowerCase();
  const pick = (list: string[]) => (list.length === 1 ? list[0] : undefined);
  const all = [...dirs];
  const sameCase = pick(all.filter((d) => d.toLowerCase() === lower));
  if (sameCase) return sameCase;
  const suffix = pick(all.filter((d) => d.endsWith(`/${prefix}`)));
  if (suffix) return suffix;
  const name = path.posix.basename(prefix);
  return pick(all.filter((d) => path.posix.basename(d) === name));
}

/** every folder of a list of relative file paths */
export function foldersOf(files: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const f of files) {
    for (let d = path.posix.dirname(f); d !== '.' && d !== '/' && !out.has(d); d = path.posix.dirname(d)) out.add(d);
  }
  return out;
}

/** a line of MEMORY.md that links a topic file: `[title](file.md)` */
export const isTopicLink = (line: string): boolean => /\]\([^)\s]+\.md(#[^)]*)?\)/.test(line);

export interface MemoryMove {
  /** 0-based first line of the range the edit replaces (through the cut's last line) */
  start: number;
  /** the range's new text in MEMORY.md: the lines kept there, the lost topic links, then the pointer */
  index: string[];
  /** the lines that move into the topic file, in their order */
  topic: string[];
  /** topic links past the cut kept in the index */
  keptLinks: number;
  /** lines before the cut moved to make room for them and the pointer */
  madeRoom: number;
}

/**
 * The lines past MEMORY.md's cut (`from`–`to`, 1-based, the file's own lines) into a topic file, so
 * that the index fits: the topic links among them stay in the index (the model learns of a topic file
 * only from the index), and as many other lines just before the cut move too as the kept links and
 * the pointer line need. Undefined when there is not enough to move.
 */
export function memoryMove(lines: readonly string[], cut: { from: number; to: number }, pointer: string): MemoryMove | undefined {
  const from = cut.from - 1;
  const to = Math.min(cut.to, lines.length) - 1;
  if (from < 0 || to < from) return undefined;
  const past = lines.slice(from, to + 1);
  const kept = past.filter(isTopicLink);
  const moved = past.filter((l) => !isTopicLink(l));
  // room for the kept links and the pointer: the last non-link, non-blank lines before the cut
  let need = kept.length + 1;
  let start = from;
  const before: number[] = [];
  for (let i = from - 1; i >= 0 && need > 0; i--) {
    start = i;
    if (isTopicLink(lines[i]!) || !lines[i]!.trim() || /^#/.test(lines[i]!)) continue;
    before.unshift(i);
    need--;
  }
  if (need > 0) return undefined;
  const movedBefore = new Set(before);
  const stay: string[] = [];
  for (let i = start; i < from; i++) if (!movedBefore.has(i)) stay.push(lines[i]!);
  return { start, index: [...stay, ...kept, pointer], topic: [...before.map((i) => lines[i]!), ...moved], keptLinks: kept.length, madeRoom: before.length };
}
