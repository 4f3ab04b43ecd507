// The Startup section: the files Claude Code puts into the first request, each with why it is
// there, Claude Code's framing, and the skills listing with each skill's state.
import * as path from 'node:path';
import { type InstructionEntry, type Origin, type SkillsView } from '../../engine/index.js';
import type { Row, Section } from '../../../webview/protocol.js';
import { firstLine, lineCount } from '../format.js';
import type { StartupFigures } from './gauges.js';
import { framingRow } from './lazy-rows.js';
import type { Ctx } from './present-context.js';
import { idPart, RowIds } from './row-ids.js';

/** why a startup entry is in the request */
export function whyEager(c: Ctx, e: { origin: Origin; path: string }): string {
  const { t, rel } = c;
  const o = e.origin;
  const folder = (d: string) => (d === c.a.env.cwd ? t('the launch directory') : `${rel(d)}/`);
  switch (o.kind) {
    case 'managed-claude-md':
      return t('organization policy');
    case 'managed-settings':
      return t('claudeMd in the managed settings');
    case 'user-claude-md':
      return t('your instructions for all projects');
    case 'claude-md':
      return c.a.env.addDirs.includes(o.dir) ? t('CLAUDE.md of the added folder {0}', rel(o.dir)) : t('CLAUDE.md of {0}', folder(o.dir));
    case 'dot-claude-md':
      return t('.claude/CLAUDE.md of {0}', folder(o.dir));
    case 'local':
      return t('private instructions of {0}', folder(o.dir));
    case 'rule':
      return o.globs ? t('rule with paths: {0}', o.globs.join(', ')) : t('rule without paths: (always loaded)');
    case 'include':
      return t('@-included by {0}', path.basename(o.parent));
    case 'agents-md':
      return t('AGENTS.md fallback (no CLAUDE.md in the folder chain)');
    case 'auto-memory':
      return t('auto-memory index');
  }
}

export function entryRow(c: Ctx, id: string, e: InstructionEntry): Row {
  const { t, f, rel } = c;
  const why = whyEager(c, e);
  const label = e.type === 'AutoMem' ? t('{0} (auto-memory)', path.basename(e.path)) : rel(e.path);
  const preview = firstLine(e.content);
  const size = f.size(e.text.length, lineCount(e.content));
  // plain words: Claude Code's own type names but its auto-memory one
  const kind = e.type === 'AutoMem' ? t('auto-memory') : e.type;
  return {
    id,
    label,
    description: `${kind} · ${why}${preview ? ` · ${preview}` : ''}`,
    badge: c.f.chars(e.text.length),
    detail: `${e.path}\n${size}\n${why}${preview ? `\n${preview}` : ''}`,
    aria: t('{0}, {1}, {2}, eager: {3}', label, kind, size, why) + (c.mark(e.path) ? `, ${t('unsaved: the counts are of the saved file')}` : ''),
    path: e.path.startsWith('<') ? undefined : e.path,
    mark: c.mark(e.path),
  };
}

function skillRows(c: Ctx, skills: SkillsView): Row[] {
  const { t } = c;
  const ids = new RowIds('startup/skills');
  return skills.entries.map((s) => {
    const state = s.demoted ? t('name only (over the listing budget)') : s.cut ? t('description cut') : t('listed');
    return {
      id: ids.take(idPart(s.name)),
      label: s.name,
      description: `${t('skill')}${s.bundled ? ` · ${t('shipped with Claude Code')}` : ''} · ${state}`,
      badge: c.f.chars(s.chars),
      aria: t('skill {0}, {1}', s.name, state) + `, ${c.f.chars(s.chars)}`,
      severity: s.demoted || s.cut ? 'warning' : undefined,
      path: s.path,
    };
  });
}

export function startupSection(c: Ctx, fig: StartupFigures, skills: SkillsView | undefined): Section {
  const { t, f, a } = c;
  const startupIds = new RowIds('startup/file');
  const startupRows = a.startup.map((e) => entryRow(c, startupIds.take(c.key(e.path)), e));
  if (fig.framing > 0) startupRows.push(framingRow(c, 'startup/framing', fig.framing, t('preamble, separators and the reminder around the files')));
  if (skills?.entries.length) {
    const listed = skillRows(c, skills);
    const label = t('Skills listing');
    const shippedNote = skills.placeholders
      ? ` · ${skills.placeholders === 1 ? t('1 shipped description not readable here (counted at its measured length)') : t('{0} shipped descriptions not readable here (counted at their measured length)', skills.placeholders)}`
      : '';
    startupRows.push({
      id: 'startup/skills',
      label,
      description: (listed.length === 1 ? t('1 skill, a message of its own') : t('{0} skills, a message of their own', listed.length)) + shippedNote,
      badge: fig.skills ? f.chars(fig.skills) : undefined,
      aria: t('{0}, {1} skills, {2}', label, listed.length, f.chars(fig.skills)),
      open: false,
      children: listed,
    });
  }
  return {
    id: 'startup',
    title: t('Startup: always loaded'),
    summary: t('{0} files · {1} · ≈{2} tokens', a.startup.length, f.chars(fig.total), f.num(f.tokens(fig.total))),
    rows: startupRows,
    // a one-line summary until opened: the open file's answer comes first
    open: false,
    help: t(
      'What Claude Code puts into the first request, before you type anything: CLAUDE.md files, rules without paths:, @imports, MEMORY.md, the skills listing.\nchars = UTF-16 units, as Claude Code counts its limits; ≈tokens = chars ÷ {0} ({1}). The section total is the sum of its rows; "framing" is Claude Code\'s own text around the files.\nWords: eager = loaded at startup; lazy = loaded when Claude first touches a matching file; User = from ~/.claude; Project = from the project; auto-memory = Claude Code\'s own notes (MEMORY.md).',
      f.ratio,
      c.model,
    ),
    empty: t('Nothing: no CLAUDE.md, rule or MEMORY.md reaches the first request.'),
  };
}
