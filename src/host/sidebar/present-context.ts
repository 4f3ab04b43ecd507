// What every section of the sidebar's presentation shares: the analysis, the formatter, the
// translation, how a path is shown and keyed (row ids), and which files have unsaved changes.
import { displayPath, isInside, type Analysis } from '../../engine/index.js';
import { Fmt, type Translate } from '../format.js';
import { pathPart } from './row-ids.js';

export interface Ctx {
  a: Analysis;
  f: Fmt;
  t: Translate;
  rel: (p: string) => string;
  model: string;
  /** a "unsaved" mark for files with unsaved changes */
  mark: (p: string) => string | undefined;
  /** a file's row id segment: its path relative to the launch directory, escaped (see row-ids.ts) */
  key: (p: string) => string;
}

export function makeCtx(a: Analysis, model: string, t: Translate, locale: string, dirty?: ReadonlySet<string>): Ctx {
  const f = new Fmt(t, locale, a.model.bytesPerToken);
  const unsaved = t('unsaved');
  return {
    a, f, t, model,
    rel: (p) => displayPath(p, a.env.cwd, a.env.home) || '.',
    mark: (p) => (dirty?.has(p) ? unsaved : undefined),
    key: (p) => pathPart(a.env.cwd, p),
  };
}

/** inside the launch directory or an added folder: where a touch can inject instructions */
export function inWorkingDirs(a: Analysis, p: string): boolean {
  return isInside(p, a.env.cwd) || a.env.addDirs.some((d) => isInside(p, d));
}
