// From an engine Analysis (and the active file) to the sidebar's presentation model: every text
// localized and every number formatted here, so that the webview only draws. Pure: no vscode, no
// disk (the Analysis answers from its cache).
import * as path from 'node:path';
import {
  compileMatcher, renderLazy, renderStartupBlock, type Analysis, type Diagnostic, type InstructionEntry, type LazyInjection,
  type Origin, type TouchTool,
} from '../engine/index.js';
import { alwaysLoaded, decodeUtf8, LARGE_FILE_CHARS, MAX_INSTRUCTION_BYTES, readAdds } from '../engine/index.js';
import type { Gauge, GaugeLevel, LiveHeadline, Row, Section, Severity, TopAnswer, ViewState } from '../../webview/protocol.js';
import { displayPath, skillsView, type SkillsView } from '../engine/index.js';
import { isInside, isStrictlyInside } from '../engine/index.js';
import { checkedSummary, type Checked, type CheckedSuite } from '../engine/index.js';
import { firstLine, Fmt, lineCount, type Translate } from './format.js';
import { memoryFigures } from './memory-view.js';
import { RowIds, idPart, pathPart } from './row-ids.js';
import { agentRows, buildTimeline, type TimelineStep } from './session-timeline.js';


export interface VersionInfo {
  /** the version asked for (setting or detection), if any */
  requested?: string;
  source: 'setting' | 'detected' | 'newest';
  /** for 'newest': why no version was detected (undefined while the detection runs) */
  why?: 'untrusted' | 'not-found' | 'not-absolute' | 'failed';
  /** the executable that failed, and how */
  executable?: string;
  error?: string;
}

export interface PresentInput {
  analysis: Analysis;
  folderName?: string;
  activeFile?: string;
  version: VersionInfo;
  model: string;
  trusted: boolean;
  /** instruction files strictly below the launch directory, found in the workspace */
  nestedFiles?: readonly string[];
  /** the steps of the session timeline, in order */
  sessionSteps?: readonly TimelineStep[];
  /** files with unsaved changes in an editor: Claude Code reads the saved text, the rows say so */
  dirtyFiles?: ReadonlySet<string>;
  /** diagnostics to list under "Not loaded" (the workspace lint's, when it has run); else the analysis' own */
  diagnostics?: readonly Diagnostic[];
  t: Translate;
  locale: string;
  today: string;
  /** the live session's headline, when a Claude Code session runs in the workspace (the live-session view fills it) */
  live?: LiveHeadline;
  /** what each hook (hookKey) printed when a session of this launch directory last ran it (its transcript) */
  hookOutputs?: ReadonlyMap<string, { chars: number }>;
}

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

function entryRow(c: Ctx, id: string, e: InstructionEntry): Row {
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

export { readAdds, type ReadAdds } from '../engine/index.js';

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

function inWorkingDirs(a: Analysis, p: string): boolean {
  return isInside(p, a.env.cwd) || a.env.addDirs.some((d) => isInside(p, d));
}

function activeSection(c: Ctx, file: string | undefined): { section: Section; injected: Set<string> } {
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

function elsewhereSection(c: Ctx, file: string | undefined, injected: Set<string>, nested: readonly string[]): Section {
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

function notLoadedSection(c: Ctx, all: readonly Diagnostic[]): Section {
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

function level(value: number, max: number, warnAt = 0.8): GaugeLevel {
  if (value > max) return 'over';
  return value >= max * warnAt ? 'warn' : 'ok';
}

/** the Startup section's figures: one source for its summary, its gauge and the status bar */
export interface StartupFigures {
  /** the CLAUDE.md block as sent (files, preamble, wrapper) */
  block: number;
  /** Σ of the file rows */
  files: number;
  /** Claude Code's text around the files in the block */
  framing: number;
  /** the skills listing text (0 when none) */
  skills: number;
  /** block + skills: the sum of the section's rows */
  total: number;
}

export function startupFigures(a: Analysis, block: string): StartupFigures {
  return alwaysLoaded(a, '', block);
}

function gauges(c: Ctx, fig: StartupFigures, skills: SkillsView | undefined): Gauge[] {
  const { t, f, a, model } = c;
  const win = { tokens: a.model.contextWindow, known: a.model.measured };
  const out: Gauge[] = [];
  const tok = f.tokens(fig.total);
  out.push({
    id: 'startup',
    label: t('Startup instructions'),
    value: tok,
    max: win.tokens,
    text: t('≈{0} of {1} tokens ({2} chars)', f.num(tok), f.num(win.tokens), f.num(fig.total)),
    note: t('{0} chars per token · {1}', f.ratio, model),
    counts: t("the sum of the Startup rows (files, Claude Code's framing, the skills listing); Claude Code's system prompt and tools are not in it"),
    detail: `${f.ratioNote(model)}${win.known ? '' : `\n${t('context window of an unknown model assumed')}`}`,
    level: level(tok, win.tokens, 0.05),
    aria: t('Startup instructions: about {0} of {1} tokens', f.num(tok), f.num(win.tokens)),
  });

  const mem = a.memory;
  const memEntry = a.startup.find((e) => e.type === 'AutoMem');
  if (!mem.enabled) {
    out.push({ id: 'memory', label: 'MEMORY.md', value: 0, max: 200, text: t('auto-memory is off'), note: mem.why, level: 'ok', aria: t('MEMORY.md: auto-memory is off, {0}', mem.why) });
  } else if (!mem.index) {
    const p = path.join(mem.location.dir, 'MEMORY.md');
    out.push({ id: 'memory', label: 'MEMORY.md', value: 0, max: 200, text: t('no MEMORY.md yet'), note: c.rel(p), level: 'ok', aria: t('MEMORY.md: none in {0}', c.rel(p)) });
  } else {
    const fm = memoryFigures(a)!;
    const state = fm.truncated && fm.cut ? t('lines {0}-{1} are not loaded', fm.cut.from, fm.cut.to) : fm.truncated ? t('cut') : t('loaded in full');
    const lost = fm.lostLinks.length ? ` · ${fm.lostLinks.length === 1 ? t('1 topic link lost') : t('{0} topic links lost', fm.lostLinks.length)}` : '';
    const lvLines: GaugeLevel = fm.lines > fm.maxLines ? 'over' : level(fm.lines, fm.maxLines, 0.85);
    const lvUnits: GaugeLevel = fm.units > fm.maxUnits ? 'over' : level(fm.units, fm.maxUnits, 0.85);
    const why = t('MEMORY.md is cut at 200 lines or 25,000 chars (UTF-16 units), counted after frontmatter and comments are removed; line numbers here are the file\'s own');
    const sent = memEntry ? t('the whole index before the cut; its Startup row counts the {0} chars sent', f.num(memEntry.text.length)) : t('the whole index before the cut');
    out.push({
      id: 'memory-lines',
      label: t('MEMORY.md lines'),
      value: fm.lines,
      max: fm.maxLines,
      text: `${f.num(fm.lines)}/${f.num(fm.maxLines)}`,
      note: state + lost,
      counts: sent,
      detail: fm.lostLinks.length ? `${why}\n${t('Topic files the model no longer learns about: {0}', fm.lostLinks.join(', '))}` : why,
      level: fm.truncated ? 'over' : lvLines,
      aria: t('MEMORY.md: {0} of {1} lines, {2}', f.num(fm.lines), f.num(fm.maxLines), state + lost),
      path: fm.path,
      line: fm.cut?.from,
    });
    out.push({
      id: 'memory-units',
      label: t('MEMORY.md size'),
      value: fm.units,
      max: fm.maxUnits,
      text: t('{0}/{1} chars', f.num(fm.units), f.num(fm.maxUnits)),
      note: t('after frontmatter and comments'),
      detail: `${why}\n${sent}`,
      level: lvUnits,
      aria: t('MEMORY.md: {0} of {1} chars', f.num(fm.units), f.num(fm.maxUnits)),
      path: fm.path,
    });
  }

  if (skills && skills.budget !== undefined && skills.used !== undefined) {
    const cut = skills.entries.filter((s) => s.cut).length;
    const demoted = skills.entries.filter((s) => s.demoted).length;
    out.push({
      id: 'skills',
      label: t('Skills listing'),
      value: skills.used,
      max: skills.budget,
      text: t('{0}/{1} of the budget', f.num(skills.used), f.num(skills.budget)),
      note: t('{0} descriptions cut, {1} skills name only', cut, demoted),
      counts:
        skills.used === fig.skills
          ? t('the listing as sent, the same {0} chars as its Startup row', f.num(fig.skills))
          : t("as Claude Code measures its budget: the entries without the listing's first line, wide characters (CJK, emoji) counted 2; {0} here, {1} chars in its Startup row", f.num(skills.used), f.num(fig.skills)),
      level: demoted ? 'over' : level(skills.used, skills.budget),
      aria: t('Skills listing: {0} of {1}, {2} cut, {3} name only', f.num(skills.used), f.num(skills.budget), cut, demoted),
    });
  } else {
    out.push({ id: 'skills', label: t('Skills listing'), value: 0, max: 1, text: t('not computed by this engine'), level: 'ok', aria: t('Skills listing: not computed by this engine') });
  }

  const largest = a.startup.reduce<InstructionEntry | undefined>((m, e) => (e.type !== 'AutoMem' && (!m || e.content.length > m.content.length) ? e : m), undefined);
  if (largest) {
    const n = largest.content.length;
    out.push({
      id: 'largest',
      label: t('Largest instruction file'),
      value: n,
      max: LARGE_FILE_CHARS,
      text: `${f.num(n)}/${f.num(LARGE_FILE_CHARS)} · ${c.rel(largest.path)}`,
      note: t('/memory flags 40,000 chars and more; still loads in full'),
      counts: t("the file's content only; its Startup row ({0} chars) adds the \"Contents of …\" line", f.num(largest.text.length)),
      detail: t("Claude Code's /memory view flags files of 40,000 chars and more; they still load in full"),
      level: n >= LARGE_FILE_CHARS ? 'warn' : 'ok',
      aria: t('Largest instruction file {0}: {1} chars', c.rel(largest.path), f.num(n)),
      path: largest.path.startsWith('<') ? undefined : largest.path,
    });
  }

  const fx = a.profile.request;
  const memSection = mem.systemSectionChars;
  const fixed = fx.system + fx.tools + fx.messages + memSection + (fig.skills ? 0 : fx.defaultSkillsListing);
  const yours = fig.total;
  // the total is the sum of its two rounded parts, so that the line below adds up
  const totalTok = f.tokens(yours) + f.tokens(fixed);
  const share = totalTok ? Math.round((f.tokens(yours) / totalTok) * 100) : 0;
  out.push({
    id: 'request',
    label: t('Whole first request'),
    value: totalTok,
    max: win.tokens,
    text: t('≈{0} of {1} tokens · {2}% yours', f.num(totalTok), f.num(win.tokens), share),
    note: t('fixed parts as measured on Claude Code {0}', a.profile.version),
    counts: t("yours = the Startup rows (≈{0} tokens); the rest (≈{1} tokens) is Claude Code's system prompt and tools", f.num(f.tokens(yours)), f.num(f.tokens(fixed))),
    detail: t('fixed parts measured on Claude Code {0}: system prompt {1}, tools {2}, other parts {3} chars', a.profile.version, f.num(fx.system + memSection), f.num(fx.tools), f.num(fx.messages + (fig.skills ? 0 : fx.defaultSkillsListing))),
    level: level(totalTok, win.tokens, 0.5),
    aria: t('Whole first request: about {0} of {1} tokens, {2} percent from your files', f.num(totalTok), f.num(win.tokens), share),
  });
  return out;
}

function sessionSection(c: Ctx, steps: readonly TimelineStep[], read: (file: string) => string | undefined, fig: StartupFigures, hookOutputs?: ReadonlyMap<string, { chars: number }>): Section {
  const { t, f, a, rel } = c;
  const win = { tokens: a.model.contextWindow };
  const format = {
    t, num: (n: number) => f.num(n), tokens: (n: number) => f.tokens(n), rel, window: win.tokens,
    injectionRows: (id: string, inj: LazyInjection[]) => lazyRows(c, id, inj),
    // the timeline starts from the Startup section's own figure: the CLAUDE.md block and the skills listing
    startupChars: fig.total,
    listingChars: fig.skills,
    hookOutputs,
  };
  const tl = buildTimeline(a, steps, format, read);
  const agents = agentRows(tl.result, a.startupText?.length ?? 0, format);
  const rows: Row[] = [...tl.rows];
  if (agents.length)
    rows.push({
      id: 'session/agents',
      label: t('Subagents'),
      description: t('what each agent type gets in its first request'),
      badge: f.num(agents.length),
      aria: t('Subagents: what each agent type gets in its first request, {0} types', agents.length),
      children: agents,
      open: false,
    });
  const share = win.tokens ? Math.round((tl.total / win.tokens) * 1000) / 10 : 0;
  const startTok = f.tokens(fig.total);
  // what the timeline is for, in one sentence, until it has a step (the Subagents row is there from the start)
  const purpose = t('Play a task step by step (a read, a skill, a subagent, your edit, /compact) to see what each step adds to the context and what the model still holds.');
  return {
    id: 'session',
    title: t('Session what-if (simulated)'),
    summary: steps.length ? t('≈{0} tokens · {1}%', f.num(tl.total), share) : undefined,
    headline: steps.length
      ? steps.length === 1
        ? t('After 1 step the conversation holds ≈{0} tokens of your instructions, notes and skill bodies ({1}% of {2}; Claude Code\'s system prompt and tools not counted). It started from the Startup figure, ≈{3}.', f.num(tl.total), share, f.num(win.tokens), f.num(startTok))
        : t('After {0} steps the conversation holds ≈{1} tokens of your instructions, notes and skill bodies ({2}% of {3}; Claude Code\'s system prompt and tools not counted). It started from the Startup figure, ≈{4}.', steps.length, f.num(tl.total), share, f.num(win.tokens), f.num(startTok))
      : purpose,
    rows,
    open: true,
    empty: purpose,
    help: t('A what-if: nothing here comes from a real session (the This Session (live) view follows the one you run). Each step is simulated with the measured rules of Claude Code {0}: a file is injected once per session; an edited rule or nested CLAUDE.md the session loaded gets one "changed on disk" note at the next turn, a startup file is not seen until /compact or /clear; /compact brings back the five most recently modified files and the skills used. Numbers are the characters Claude Code adds; ≈tokens = chars ÷ {1}.', a.profile.version, f.ratio),
    actions: [
      { command: 'sessionAddActive', label: t('Add a read of the open file') },
      { command: 'sessionAddStep', label: t('Add a step…') },
      ...(steps.length ? [{ command: 'sessionClear' as const, label: t('Clear') }] : []),
    ],
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

/** where the version came from, for the "Change…" picker and the header's tooltip */
export function versionSource(t: Translate, v: VersionInfo): string {
  const newestWhy: Record<NonNullable<VersionInfo['why']>, string> = {
    untrusted: t('newest known profile: the workspace is not trusted, so claude --version is not run (set claudeLayers.claudeVersion to choose)'),
    'not-found': t('newest known profile: claude is not on PATH and claudeLayers.claudePath is not set'),
    'not-absolute': t('newest known profile: claudeLayers.claudePath must be an absolute path'),
    failed: t('newest known profile: {0} --version failed: {1}', v.executable ?? 'claude', v.error ?? ''),
  };
  const sourceNote: Record<VersionInfo['source'], string> = {
    setting: t('from the setting claudeLayers.claudeVersion'),
    detected: t('detected with claude --version'),
    newest: v.why ? newestWhy[v.why] : t('newest known profile (detecting the installed version…)'),
  };
  return sourceNote[v.source];
}

/** the view's first two lines: what is always loaded, and what reading the active file adds */
export function topAnswer(c: Ctx, fig: StartupFigures, file: string | undefined): TopAnswer {
  const { t, f, a } = c;
  const alwaysTok = f.tokens(fig.total);
  const always = fig.skills
    ? t('Always loaded: ≈{0} tokens ({1} files and the skills listing)', f.num(alwaysTok), a.startup.length)
    : t('Always loaded: ≈{0} tokens ({1} files)', f.num(alwaysTok), a.startup.length);
  if (!file) return { always, aria: always };
  const name = path.basename(file);
  let line: string;
  if (a.startup.some((e) => path.normalize(e.path) === path.normalize(file))) line = t('{0} is always loaded: reading it adds nothing', name);
  else if (!inWorkingDirs(a, file)) line = t('{0} is outside the launch directory: reading it adds nothing', name);
  else {
    const r = readAdds(a, file);
    const what = [...r.injected.map((i) => path.basename(i.path)), ...a.skills.lazyFor(file).flatMap((l) => l.names)];
    line = r.chars === 0 ? t('Reading {0} adds nothing', name) : t('Reading {0} adds +{1} tokens: {2}', name, f.num(f.tokens(r.chars)), what.join(', '));
  }
  return { always, file: line, aria: `${always}; ${line}` };
}

export function present(input: PresentInput): ViewState {
  const { analysis: a, t } = input;
  const c = makeCtx(a, input.model, t, input.locale, input.dirtyFiles);
  const { f } = c;
  const block = renderStartupBlock(a.profile, a.startup, input.today) ?? '';
  const skills = skillsView(a);

  const fig = startupFigures(a, block);
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
  const startup: Section = {
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
  const { section: active, injected } = activeSection(c, input.activeFile);
  const elsewhere = elsewhereSection(c, input.activeFile, injected, input.nestedFiles ?? []);
  const notLoaded = notLoadedSection(c, input.diagnostics ?? a.diagnostics);
  // the saved text of a file, through the analysis' own file access (no new disk read on an editor switch)
  const saved = (file: string) => {
    const r = a.env.fs.readFile(file, MAX_INSTRUCTION_BYTES);
    return r.ok ? decodeUtf8(r.value) : undefined;
  };
  const session = sessionSection(c, input.sessionSteps ?? [], saved, fig, input.hookOutputs);

  const suiteName: Record<CheckedSuite, string> = { instructions: t('instructions'), 'memory-skills': t('memory and skills'), sessions: t('sessions'), 'fixed-sizes': t('fixed sizes') };
  const passedSuites = (c: Checked) => checkedSummary(c, (s) => suiteName[s]);
  const fb = a.version.fallback;
  const fallbackNote: Record<NonNullable<typeof fb>['why'], (f: NonNullable<typeof fb>) => string> = {
    'not-a-version': (f) => t('"{0}" is not a Claude Code version; using {1}\'s profile', f.requested, f.using),
    newer: (f) => t('{0}: no profile yet; using {1}\'s (checked on {2} scenarios; {1} passed {3} on {4})', f.requested, f.using, f.checkedScenarios, passedSuites(f.usingChecked), f.usingChecked.on),
    older: (f) => t('{0}: no profile (older than every profile); using {1}\'s (checked on {2} scenarios; {1} passed {3} on {4})', f.requested, f.using, f.checkedScenarios, passedSuites(f.usingChecked), f.usingChecked.on),
  };
  // shown: only what needs the user (another profile is used, claude not found); where the version came
  // from and the launch folder are behind "Change…"
  const versionNote = fb ? fallbackNote[fb.why](fb) : a.version.note;
  const v = input.version;
  const source = versionSource(t, v);
  const versionAction = v.source === 'newest' && v.why && v.why !== 'untrusted' ? { command: 'setClaudePath' as const, label: t('Set the path to claude…') } : undefined;
  // while a session is followed (This Session), the header names what that session runs: the first
  // line a newcomer reads must not contradict the session; the installed or assumed version, which the
  // predictions use, moves to the note and the tooltip
  const live = input.live && !input.live.ended && (input.live.version || input.live.model) ? input.live : undefined;
  const followed = live
    ? {
        version: t('Claude Code {0}', live.version ?? a.version.shown),
        model: live.model ?? input.model,
        note: live.version && live.version !== a.version.shown ? t('as the followed session runs it; predictions use the profile of {0}', a.version.shown) : undefined,
        source: t('The session followed in This Session runs Claude Code {0} on {1}. Predictions use the profile of {2} ({3}).', live.version ?? '?', live.model ?? '?', a.version.shown, source),
      }
    : undefined;
  return {
    header: {
      version: followed?.version ?? t('Claude Code {0}', a.version.shown),
      versionNote: followed ? followed.note : versionNote ?? (v.source === 'newest' && v.why ? source : undefined),
      versionAction: versionNote ? undefined : versionAction,
      verify: versionNote && input.trusted ? { command: 'verify', label: t('Verify…') } : undefined,
      model: followed?.model ?? input.model,
      launchDir: a.env.cwd,
      source: followed?.source ?? source,
      folder: input.folderName,
      restricted: input.trusted ? undefined : t('Restricted mode: reading only, nothing is run'),
      change: { command: 'configure', label: t('Change…') },
    },
    top: topAnswer(c, fig, input.activeFile),
    ...(input.live ? { live: input.live } : {}),
    gaugesTitle: t('Gauges'),
    gaugesHelp: t('Budgets and limits. Each gauge says in its last line what it counts and how that differs from the rows above: MEMORY.md is measured before its cut, the skills listing as Claude Code measures its budget, the largest file without its "Contents of" line.'),
    helpLabel: t('About {0}'),
    gauges: gauges(c, fig, skills),
    // the open file first, then the session it starts, then what is always there
    sections: [active, session, startup, notLoaded, elsewhere],
  };
}

/** The status bar item: what a Read of the active file injects, and the startup instructions' tokens. */
export interface StatusFigures {
  text: string;
  tooltip: string;
  aria: string;
}

export function statusFigures(input: Pick<PresentInput, 'analysis' | 'activeFile' | 'model' | 't' | 'locale' | 'today'>): StatusFigures {
  const { analysis: a, t } = input;
  const c = makeCtx(a, input.model, t, input.locale);
  const { f } = c;
  const block = renderStartupBlock(a.profile, a.startup, input.today) ?? '';
  const fig = startupFigures(a, block);
  const tok = f.tokens(fig.total);
  const win = { tokens: a.model.contextWindow };
  const share = win.tokens ? (tok / win.tokens) * 100 : 0;
  // the sidebar's own two top lines, and the share of the context window they are
  const top = topAnswer(c, fig, input.activeFile);
  const startup = t("{0}: {1}% of the {2}-token context window (Claude Code's system prompt and tools not counted)", top.always, share < 10 ? share.toFixed(1) : Math.round(share), f.num(win.tokens));
  const file = input.activeFile;
  let read = '';
  if (file) {
    if (a.startup.some((e) => path.normalize(e.path) === path.normalize(file))) read = t('always loaded');
    else if (inWorkingDirs(a, file)) {
      const inj = a.lazyFor(file, 'Read');
      read = inj.length === 1 ? t('+1 file') : t('+{0} files', inj.length);
    } else read = t('+{0} files', 0);
  }
  const tokText = t('{0} tok', f.compact(tok));
  return {
    text: `$(layers) ${read ? `${read} · ` : ''}${tokText}`,
    tooltip: [top.file, startup, t('Click to show the Claude Context Layers sidebar')].filter(Boolean).join('\n'),
    aria: [top.file, startup].filter(Boolean).join('; '),
  };
}
