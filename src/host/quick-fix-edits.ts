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
