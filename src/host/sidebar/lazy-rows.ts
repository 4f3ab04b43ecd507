// The rows of what a touch injects later (nested CLAUDE.md files, rules whose paths: match), with
// Claude Code's own framing around them as a row of its own, and the one-line headline of a touch.
import * as path from 'node:path';
import { renderLazy, type LazyInjection, type TouchTool } from '../../engine/index.js';
import type { Row } from '../../../webview/protocol.js';
import { firstLine, lineCount } from '../format.js';
import type { Ctx } from './present-context.js';
import { RowIds } from './row-ids.js';

function lazyRow(c: Ctx, id: string, i: LazyInjection): Row {
  const { t, f, rel } = c;
  const label = rel(i.path);
  const size = f.size(i.text.length, lineCount(i.content));
  const preview = firstLine(i.content);
  return {
    id,
    label,
    description: `${i.reason}${i.viaHook ? ` · ${t('sent as hook context')}` : ''}`,
    badge: c.f.chars(i.text.length),
    detail: `${i.path}\n${size}\n${i.reason}${preview ? `\n${preview}` : ''}`,
    aria: t('{0}, {1}, injected because: {2}', label, size, i.reason) + (c.mark(i.path) ? `, ${t('unsaved: the counts are of the saved file')}` : ''),
    path: i.path,
    mark: c.mark(i.path),
  };
}

/** Claude Code's own text around injected files (reminder tags, separators, the hook prefix) */
export function lazyFraming(c: Ctx, inj: LazyInjection[]): number {
  const total = renderLazy(c.a.profile, inj).join('').length;
  return total - inj.reduce((n, i) => n + i.text.length, 0);
}

/** a row for Claude Code's own text around the files: with it, a section's rows add up to its headline */
export function framingRow(c: Ctx, id: string, chars: number, what: string): Row {
  const { t, f } = c;
  const label = t("Claude Code's framing");
  return { id, label, description: what, badge: f.chars(chars), detail: `${label}: ${what}\n${f.charsTokens(chars)}`, aria: t('{0}, {1}: {2}', label, f.chars(chars), what) };
}

/** the rows of one tool call's injections, the framing last */
export function lazyRows(c: Ctx, idPrefix: string, inj: LazyInjection[]): Row[] {
  const ids = new RowIds(`${idPrefix}/file`);
  const rows = inj.map((i) => lazyRow(c, ids.take(c.key(i.path)), i));
  const framing = lazyFraming(c, inj);
  if (inj.length && framing > 0) rows.push(framingRow(c, `${idPrefix}/framing`, framing, c.t('reminder tags around each file')));
  return rows;
}

/** "Reading client.ts injects 3 files, 2,140 chars" */
export function lazyHeadline(c: Ctx, tool: TouchTool, file: string, inj: LazyInjection[], extraChars = 0): string {
  const { t, f } = c;
  const name = path.basename(file);
  const chars = renderLazy(c.a.profile, inj).join('').length + extraChars;
  const verb: Record<TouchTool, string> = { Read: t('Reading {0}', name), Edit: t('Editing {0}', name), Write: t('Writing {0}', name), Bash: t('A command on {0}', name) };
  if (inj.length === 0 && chars === 0) return t('{0} injects nothing', verb[tool]);
  if (inj.length === 0) return t('{0} injects no file, {1} chars, ≈{2} tokens', verb[tool], f.num(chars), f.num(f.tokens(chars)));
  if (inj.length === 1) return t('{0} injects 1 file, {1} chars, ≈{2} tokens', verb[tool], f.num(chars), f.num(f.tokens(chars)));
  return t('{0} injects {1} files, {2} chars, ≈{3} tokens', verb[tool], inj.length, f.num(chars), f.num(f.tokens(chars)));
}
