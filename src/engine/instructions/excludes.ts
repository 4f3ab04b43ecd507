// claudeMdExcludes: absolute-path globs (picomatch, dot: true, case-sensitive) that drop User,
// Project and Local instruction files; Managed files are immune. A pattern whose literal folder
// prefix crosses a symlink also matches through the link's real path, as Claude Code does.
import picomatch from 'picomatch';
import * as path from 'node:path';
import type { FileAccess } from '../files/file-access.js';
import { linearTest } from '../globs/glob-count.js';
import type { InstructionType } from '../model.js';

export type ExcludeMatcher = ((filePath: string, type: InstructionType) => string | undefined) & {
  /** the patterns as matched (with real-path expansions): equal keys, equal decisions */
  key?: string;
};

export function compileExcludes(patterns: string[], fs: FileAccess): ExcludeMatcher {
  const pats = patterns.map((p) => p.replaceAll('\\', '/')).filter((p) => p.length > 0);
  if (pats.length === 0) return Object.assign(() => undefined, { key: '' });
  const expanded = [...pats];
  for (const p of pats) {
    if (!p.startsWith('/')) continue;
    const star = p.search(/[*?{[]/);
    const literal = star === -1 ? p : p.slice(0, star);
    const dir = path.posix.dirname(literal);
    const real = fs.realpath(dir);
    if (real.ok && real.value !== dir) expanded.push(real.value + p.slice(dir.length));
  }
  const matchers = expanded.map((p) => {
    try {
      // picomatch's matcher (the path equal to the glob, or its expression), without backtracking
      const t = linearTest(picomatch.makeRe(p, { dot: true }));
      return { p, m: (f: string) => f === p || t(f) };
    } catch {
      return undefined;
    }
  });
  const match = (filePath: string, type: InstructionType): string | undefined => {
    if (type !== 'User' && type !== 'Project' && type !== 'Local') return undefined;
    const f = filePath.replaceAll('\\', '/');
    for (const x of matchers) if (x && x.m(f)) return x.p;
    return undefined;
  };
  return Object.assign(match, { key: expanded.join('\n') });
}
