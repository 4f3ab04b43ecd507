// The sections about files beyond the startup: what reading the open file injects, what loads
// later elsewhere (conditional rules, nested folders, path-gated skills), and what is not loaded.
import * as path from 'node:path';
import { compileMatcher, isStrictlyInside, type Diagnostic, type LazyInjection, type TouchTool } from '../../engine/index.js';
import type { Row, Section, Severity } from '../../../webview/protocol.js';
import { lazyHeadline, lazyRows } from './lazy-rows.js';
import { inWorkingDirs, type Ctx } from './present-context.js';
import { idPart, pathPart, RowIds } from './row-ids.js';

export function activeSection(c: Ctx, file: string | undefined): { section: Section; injected: Set<string> } {
  const { t, a } = c;
  const injected = new Set<string>();
  const base: Section = {
    id: 'active',
    title: t('When the open file is read'),
    rows: [],
    open: true,
    help: t('What reaches the request the first time Claude reads the active file: nested CLAUDE.md files of its folders, rules whose paths: match it, and skills that become listed. Each is sent once per session. The headline is the sum of the rows, framing included.'),
  };
  if (!file) return { section: { ...base, empty: t('Open a file to see what reading it injects.') }, injected };
  const name = path.basename(file);
  const title = t('When {0} is read', name);
  if (a.startup.some((e) => path.normalize(e.path) === path.normalize(file)))
    return { section: { ...base, title, headline: t('{0} is already in the first request (eager)', name) }, injected };
  if (!inWorkingDirs(a, file))
    return { section: { ...base, title, headline: t('{0} is outside the launch directory: touching it injects nothing', name) }, injected };
  const read = a.lazyFor(file, 'Read');
  for (const i of read) injected.add(i.path);
  const rows = lazyRows(c, 'active/read', read);
  const layers = a.skills.lazyFor(file);
  const skillChars = layers.reduce((n, l) => n + l.text.length, 0);
  const skillIds = new RowIds('active/skills');
  layers.forEach((l) => {
    const label = l.kind === 'path-gated' ? t('skills listed after this read (paths:)') : t('skills of a nested folder listed after this read');
    rows.push({
      id: skillIds.take(`${l.kind}/${l.paths[0] ? c.key(l.paths[0]) : idPart(l.names.join('\n'))}`),
      label: l.names.join(', '),
      description: label,
      badge: c.f.chars(l.text.length),
      aria: `${label}: ${l.names.join(', ')}, ${c.f.chars(l.text.length)}`,
      path: l.paths[0],
    });
  });
  const others = a.profile.lazyTriggers.filter((x) => x !== 'Read');
  let summary: string | undefined;
  if (others.length) {
    const sameAsRead = (list: LazyInjection[]) => list.length === read.length && list.every((x, k) => x.path === read[k]!.path);
    const differing: { tool: TouchTool; list: LazyInjection[] }[] = [];
    for (const tool of others) {
      const list = a.lazyFor(file, tool);
      if (!sameAsRead(list)) differing.push({ tool, list });
    }
    if (differing.length === 0) summary = t('{0} inject the same (Claude Code {1})', others.join(', '), a.profile.version);
    for (const d of differing) {
      rows.push({
        id: `active/${d.tool}`,
        label: lazyHeadline(c, d.tool, file, d.list),
        aria: lazyHeadline(c, d.tool, file, d.list),
        open: true,
        children: lazyRows(c, `active/${d.tool}`, d.list),
      });
    }
  }
  return {
    section: { ...base, title, headline: lazyHeadline(c, 'Read', file, read, skillChars), summary, rows, empty: rows.length ? undefined : t('Nothing new: no nested CLAUDE.md and no rule whose paths: match.') },
    injected,
  };
}

/** the folder whose `.claude`/CLAUDE.md a nested instruction file belongs to */
export function owningFolder(file: string): string {
  const norm = file.split(path.sep).join('/');
  const i = norm.lastIndexOf('/.claude/');
  const dir = i >= 0 ? norm.slice(0, i) : path.posix.dirname(norm);
  return dir.split('/').join(path.sep) || path.sep;
}

export function elsewhereSection(c: Ctx, file: string | undefined, injected: Set<string>, nested: readonly string[]): Section {
  const { t, a, rel, f } = c;
  const groups: Row[] = [];
  const rules = a.conditionalRules.filter((r) => !injected.has(r.path) && !(file && compileMatcher(r.base, r.patterns).matches(file)));
  if (rules.length) {
    const ruleIds = new RowIds('elsewhere/rules');
    groups.push({
      id: 'elsewhere/rules',
      label: t('Conditional rules'),
      badge: f.num(rules.length),
      aria: t('Conditional rules, {0}', rules.length),
      open: true,
      children: rules.map((r) => {
        const label = rel(r.path);
        const pats = r.rawPatterns.join(', ');
        return {
          id: ruleIds.take(c.key(r.path)),
          label,
          description: t('paths: {0}', pats),
          detail: t('{0}\nloaded when a touched file matches {1}, matched from {2}', r.path, pats, rel(r.base) === '.' ? r.base : rel(r.base)),
          aria: t('{0}, lazy rule, loaded when a file matching {1} is read', label, pats) + (c.mark(r.path) ? `, ${t('unsaved: the counts are of the saved file')}` : ''),
          path: r.path,
          line: r.line,
          mark: c.mark(r.path),
        };
      }),
    });
  }
  const byFolder = new Map<string, string[]>();
  for (const p of nested) {
    if (injected.has(p) || !isStrictlyInside(p, a.env.cwd)) continue;
    const d = owningFolder(p);
    if (!isStrictlyInside(d, a.env.cwd)) continue;
    const list = byFolder.get(d) ?? [];
    list.push(p);
    byFolder.set(d, list);
  }
  const folders = [...byFolder.keys()].sort();
  if (folders.length) {
    groups.push({
      id: 'elsewhere/nested',
      label: t('Nested folders'),
      badge: f.num(folders.length),
      aria: t('Nested folders, {0}', folders.length),
      open: folders.length <= 8,
      children: folders.map((d) => {
        const dl = `${rel(d)}/`;
        const id = `elsewhere/nested/${c.key(d)}`;
        const fileIds = new RowIds(id);
        return {
          id,
          label: dl,
          description: t('when a file under {0} is read', dl),
          aria: t('{0}, nested folder, loaded when a file under it is read', dl),
          open: folders.length <= 8,
          children: byFolder.get(d)!.sort().map((p) => ({
            id: fileIds.take(pathPart(d, p)),
            label: path.relative(d, p).split(path.sep).join('/'),
            aria: t('{0}, lazy, in {1}', rel(p), dl),
            detail: p,
            path: p,
          })),
        };
      }),
    });
  }
  const gated = a.skills.conditional.filter((sk) => !(file && sk.paths?.length && compileMatcher(a.env.cwd, sk.paths).matches(file)));
  if (gated.length) {
    const gatedIds = new RowIds('elsewhere/skills');
    groups.push({
      id: 'elsewhere/skills',
      label: t('Path-gated skills'),
      badge: f.num(gated.length),
      aria: t('Path-gated skills, {0}', gated.length),
      open: true,
      children: gated.map((sk) => ({
        id: gatedIds.take(idPart(sk.name)),
        label: sk.name,
        description: t('paths: {0}', (sk.paths ?? []).join(', ')),
        aria: t('skill {0}, listed after a file matching {1} is touched', sk.name, (sk.paths ?? []).join(', ')),
        path: sk.path,
      })),
    });
  }
  return {
    id: 'elsewhere',
    title: t('Lazy elsewhere'),
    rows: groups,
    open: true,
    empty: t('No conditional rules or nested instruction files.'),
    help: t('Files that load later, when Claude touches a matching file: rules with paths:, CLAUDE.md files in sub-folders, path-gated skills. Not in the request yet.'),
  };
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** engine diagnostics that are not about a file not loading */
const NOT_A_DROP = new Set(['large-file', 'unknown-version']);

export function notLoadedSection(c: Ctx, all: readonly Diagnostic[]): Section {
  const { t, rel } = c;
  const diags = all.filter((d) => d.path && !NOT_A_DROP.has(d.rule)).sort((x, y) => SEVERITY_ORDER[x.severity] - SEVERITY_ORDER[y.severity]);
  const ids = new RowIds('notLoaded');
  const rows: Row[] = diags.map((d: Diagnostic) => ({
    id: ids.take(`${idPart(d.rule)}/${c.key(d.path)}${d.line ? `/${d.line}` : ''}`),
    label: rel(d.path),
    description: d.message,
    detail: `${d.path}${d.line ? `:${d.line}` : ''}\n${d.message}\n(${d.rule})`,
    aria: t('{0}: {1}, {2}', d.severity, rel(d.path), d.message),
    severity: d.severity,
    path: d.path.startsWith('<') ? undefined : d.path,
    line: d.line,
  }));
  return {
    id: 'notLoaded',
    title: t('Not loaded and other problems'),
    summary: rows.length ? c.f.num(rows.length) : undefined,
    rows,
    open: rows.length > 0,
    empty: t('Nothing dropped: every instruction file found loads.'),
    help: t('Instruction files Claude Code never reads or reads differently than written (wrong name, globs: instead of paths:, a glob that matches nothing, MEMORY.md past its cut), and other findings of the workspace check. The Problems panel lists the same, with quick fixes.'),
  };
}
