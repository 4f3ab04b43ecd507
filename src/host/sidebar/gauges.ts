// The gauges: the startup instructions against the context window, MEMORY.md against its cut, the
// skills listing against its budget, the largest file, and the whole first request.
import * as path from 'node:path';
import { alwaysLoaded, LARGE_FILE_CHARS, type Analysis, type InstructionEntry, type SkillsView } from '../../engine/index.js';
import { DiagnosticSink, firstRequest, resolveMcpServers, type FirstRequest, type McpServerFacts } from '../../engine/index.js';
import type { Gauge, GaugeLevel } from '../../../webview/protocol.js';
import { memoryFigures } from './memory-view.js';
import type { Ctx } from './present-context.js';

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

/** what is known of the MCP servers, by name: their own answer when the user measured them (Measure MCP Servers) */
export type McpFactsByServer = Readonly<Record<string, McpServerFacts>>;

/** the whole first request split like `/context`: one source for the gauge and the status bar's tooltip */
export interface RequestSplit {
  request: FirstRequest;
  /** the parts in tokens, in the request's order; `yours` is the sum of the Startup rows */
  parts: { label: string; tokens: number }[];
  /** one line per MCP server: its tools (sent whole or named only) and instructions, or why they are unknown */
  servers: string[];
  totalTok: number;
  yoursTok: number;
}

export function requestSplit(c: Ctx, fig: StartupFigures, facts: McpFactsByServer = {}): RequestSplit {
  const { t, f, a } = c;
  const fr = firstRequest(a, { mcp: resolveMcpServers(a.env, a.settings, { version: a.version.requested ?? a.profile.version }, new DiagnosticSink()), facts });
  const sum = (...kinds: string[]) => fr.sections.filter((s) => kinds.includes(s.kind)).reduce((n, s) => n + s.chars, 0);
  const instr = new Map(fr.mcp.map((m) => [m.server, m.instructions?.length ?? 0]));
  // each server: its tool schemas when sent, its names in the deferred listing when deferred, its instructions
  const serverChars = (m: FirstRequest['mcp'][number]) => m.toolChars + (m.deferred ? m.toolNames.reduce((n, x) => n + x.length + 1, 0) : 0) + (instr.get(m.server) ?? 0);
  const mcpChars = fr.mcp.reduce((n, m) => n + serverChars(m), 0);
  const system = sum('system-prompt', 'memory-section');
  const builtIn = sum('tools-built-in');
  const yours = fig.total;
  const other = Math.max(0, fr.totalChars - system - builtIn - mcpChars - yours);
  const parts = [
    { label: t('system prompt'), tokens: f.tokens(system) },
    { label: t('built-in tools'), tokens: f.tokens(builtIn) },
    ...fr.mcp.map((m) => ({ label: t('MCP {0}', m.server), tokens: f.tokens(serverChars(m)) })),
    { label: t('other fixed parts'), tokens: f.tokens(other) },
    { label: t('yours'), tokens: f.tokens(yours) },
  ];
  const servers = fr.mcp.map((m) => {
    const tools = !m.from
      ? t('tools not known yet (run "Measure MCP Servers")')
      : m.error
        ? t('failed: {0}', m.error)
        : m.deferred
          ? m.toolNames.length === 1 ? t('1 tool named only (tool search)') : t('{0} tools named only (tool search)', m.toolNames.length)
          : m.toolNames.length === 1 ? t('1 tool sent whole, {0} chars', f.num(m.toolChars)) : t('{0} tools sent whole, {1} chars', m.toolNames.length, f.num(m.toolChars));
    const ins = m.instructions === undefined ? '' : ` · ${t('instructions {0} chars', f.num(m.instructions.length))}`;
    const src = m.from === 'server' ? ` · ${t('measured')}` : m.from === 'transcript' ? ` · ${t('from a transcript')}` : '';
    return `MCP ${m.server}: ${tools}${ins}${src}`;
  });
  return { request: fr, parts, servers, totalTok: parts.reduce((n, p) => n + p.tokens, 0), yoursTok: f.tokens(yours) };
}

/** "system prompt ≈3,1k · built-in tools ≈9k · MCP docs ≈120 · …": the split as one line */
export function splitLine(c: Ctx, r: RequestSplit): string {
  return r.parts.filter((p) => p.tokens > 0).map((p) => `${p.label} ≈${c.f.num(p.tokens)}`).join(' · ');
}

export function gauges(c: Ctx, fig: StartupFigures, skills: SkillsView | undefined, mcpFacts?: McpFactsByServer): Gauge[] {
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

  // the whole first request (engine/request): Claude Code's measured parts, the MCP servers the configuration
  // connects (their tools and instructions once the user measured them: the host runs no server on its own), the
  // user's files
  const rs = requestSplit(c, fig, mcpFacts);
  const fr = rs.request;
  const totalTok = rs.totalTok;
  const share = totalTok ? Math.round((rs.yoursTok / totalTok) * 100) : 0;
  out.push({
    id: 'request',
    label: t('Whole first request'),
    value: totalTok,
    max: win.tokens,
    text: t('≈{0} of {1} tokens · {2}% yours', f.num(totalTok), f.num(win.tokens), share),
    note: [t('fixed parts as measured on Claude Code {0}', fr.profileVersion), ...rs.servers].join('\n'),
    counts: splitLine(c, rs),
    detail: t('In tokens, in the order of the request: {0}. yours = the Startup rows. Claude Code\'s system prompt and tool schemas are widths measured on Claude Code {1}; MCP servers count their tool schemas (or only their names when tool search defers them) and their instructions.', splitLine(c, rs), fr.profileVersion),
    level: level(totalTok, win.tokens, 0.5),
    aria: t('Whole first request: about {0} of {1} tokens, {2} percent from your files', f.num(totalTok), f.num(win.tokens), share),
  });
  return out;
}
