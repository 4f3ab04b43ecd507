// `claude-layers explain [FILE]`: what Claude Code loads, in order, with sizes and reasons: the
// startup layers, what touching FILE injects later (Read; Edit/Write/Bash where the version
// triggers on them), and gauges for the instruction total, MEMORY.md and the skills listing.
import { adviceFor, renderAdvice, ADVICE_FLAGS, type AdviceOut } from './advice.js';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type StringWidth from 'string-width';
import { analyze, compileMatcher, type Analysis, type InstructionEntry, type LazyInjection, type TouchTool } from '../engine/index.js';
import { grouped, alwaysLoaded, approxTokens, describeEntry, displayPath, memoryReport, readAdds, skillsView, type MemoryReport } from '../engine/index.js';
import { has, parseArgs, UsageError } from './args.js';
import { ENGINE_FLAGS, engineOptions } from './engine-options.js';
import { checkPathFlags } from './path-flags.js';
import { safe, type Style } from './style.js';
import { explainUse, renderUse, USE_FLAGS, type UseJson } from './explain-use.js';
import { buildRequest, contextRows, MCP_FLAGS, renderRequestText, requestJson, type RequestJson } from './request-view.js';

export interface SizedLayer {
  path: string;
  /** path as shown: relative to the launch directory, ~/… under HOME */
  display: string;
  why: string;
  chars: number;
  lines: number;
  tokens: number;
}

export interface ExplainJson {
  /** `--advice`: each always-loaded text with its price over the last sessions */
  advice?: AdviceOut;
  /** the version asked for (--claude-version), else the newest profile's */
  claudeVersion: string;
  /** the profile the prediction uses, and why when it is not the version's own */
  profile: { version: string; exact: boolean; note?: string };
  cwd: string;
  home: string;
  model: string;
  contextWindow: number;
  charsPerToken: number;
  startup: { chars: number; lines: number; tokens: number; entries: (SizedLayer & { type: string; depth: number })[] };
  /** what is always loaded, as the sidebar's first line and Startup section count it: the startup block as
   *  sent (wrapper included) and the skills listing as sent (src/engine/figures.ts) */
  alwaysLoaded: { chars: number; tokens: number; block: number; skillsListing: number };
  conditionalRules: { path: string; display: string; type: string; patterns: string[] }[];
  file: null | {
    path: string;
    display: string;
    inWorkingDirs: boolean;
    touches: { tool: TouchTool; triggers: boolean; sameAsRead: boolean; injected: SizedLayer[] }[];
    /** what the first Read adds as sent: the files with Claude Code's framing, and skills it lists */
    readAdds: { chars: number; tokens: number };
    notMatched: { path: string; display: string; patterns: string[] }[];
  };
  gauges: {
    instructions: { tokens: number; contextWindow: number; percent: number };
    memory: null | {
      path: string; display: string; enabled: boolean; why: string; lines: number; maxLines: number; chars: number; maxChars: number;
      truncated: boolean; keptLines: number; cutLine: number | null; lostLines: number; lostEntries: { line: number | null; text: string; title: string | null; target: string | null }[];
    };
    skills: null | { entries: number; demoted: number; cut: number; used: number | null; budget: number | null };
    /** MEMORY.md exists but is not read (why), when so */
    memoryUnreadable?: string;
  };
  diagnostics: { error: number; warning: number; info: number };
  /** with --skill NAME or --agent TYPE */
  use?: UseJson;
  /** the whole first request (render --json's `request`) and its split like `/context`, in tokens at the model's ratio */
  request?: RequestJson & { context: { window: number; rows: { label: string; chars: number; tokens: number }[] } };
}

const lineCount = (s: string) => (s ? s.split('\n').length : 0);

function why(e: InstructionEntry, a: Analysis, mem: MemoryReport | undefined, disp: (p: string) => string): string {
  const o = e.origin;
  const cwd = a.env.cwd;
  const where = (dir: string) =>
    dir === cwd ? 'the launch directory' : a.env.addDirs.includes(dir) ? `--add-dir ${disp(dir)}` : cwd.startsWith(dir + path.sep) ? `parent folder ${disp(dir)}` : disp(dir);
  switch (o.kind) {
    case 'managed-claude-md':
      return 'managed policy file';
    case 'managed-settings':
      return 'claudeMd key of managed-settings.json';
    case 'user-claude-md':
      return 'your instructions for all projects';
    case 'claude-md':
      return `CLAUDE.md of ${where(o.dir)}`;
    case 'dot-claude-md':
      return `.claude/CLAUDE.md of ${where(o.dir)}`;
    case 'local':
      return `personal CLAUDE.local.md of ${where(o.dir)}`;
    case 'rule':
      return `unconditional rule (no paths:) in ${disp(o.rulesDir)}/`;
    case 'include':
      return `@-included by ${disp(o.parent)}${o.line ? ` line ${o.line}` : ''}`;
    case 'agents-md':
      return `AGENTS.md fallback of ${where(o.dir)} (no CLAUDE.md on the path)`;
    case 'auto-memory':
      return mem?.truncated ? `auto-memory index: first ${mem.keptLines} of ${mem.lines} lines, then a warning` : 'auto-memory index';
    default:
      return '';
  }
}

function includeDepth(e: InstructionEntry): number {
  return e.origin.kind === 'include' ? e.origin.depth : 0;
}

export function buildExplain(a: Analysis, file: string | undefined, counts: ExplainJson['diagnostics']): ExplainJson {
  const mi = { model: a.model.requested, contextWindow: a.model.contextWindow, charsPerToken: a.model.bytesPerToken };
  const disp = (p: string) => displayPath(p, a.env.cwd, a.env.home);
  const tok = (chars: number) => approxTokens(chars, mi.charsPerToken);
  const sized = (p: string, text: string, w: string): SizedLayer => ({ path: p, display: disp(p), why: w, chars: text.length, lines: lineCount(text), tokens: tok(text.length) });
  const mem = memoryReport(a.env, a.memory.index);
  const total = a.startupText ?? '';
  const entries = a.startup.map((e) => ({ ...sized(e.path, e.text, why(e, a, mem, disp)), type: e.type, depth: includeDepth(e) }));

  let fileOut: ExplainJson['file'] = null;
  if (file !== undefined) {
    const inWorkingDirs = [a.env.cwd, ...a.env.addDirs].some((d) => file === d || file.startsWith(d.endsWith(path.sep) ? d : d + path.sep));
    const tools: TouchTool[] = ['Read', 'Edit', 'Write', 'Bash'];
    const read = a.lazyFor(file, 'Read');
    const key = (l: LazyInjection[]) => l.map((i) => i.path).join('\0');
    const touches = tools.map((tool) => {
      const triggers = a.profile.lazyTriggers.includes(tool);
      const injected = tool === 'Read' ? read : a.lazyFor(file, tool);
      return { tool, triggers, sameAsRead: tool !== 'Read' && triggers && key(injected) === key(read), injected: injected.map((i) => sized(i.path, i.text, i.reason)) };
    });
    const notMatched = a.conditionalRules
      .filter((r) => !compileMatcher(r.base, r.patterns).matches(file))
      .map((r) => ({ path: r.path, display: disp(r.path), patterns: r.rawPatterns }));
    const adds = inWorkingDirs ? readAdds(a, file).chars : 0;
    fileOut = { path: file, display: disp(file), inWorkingDirs, touches, readAdds: { chars: adds, tokens: tok(adds) }, notMatched };
  }

  const sv = skillsView(a);
  const m = a.memory;
  const always = alwaysLoaded(a, new Date().toISOString().slice(0, 10));
  return {
    claudeVersion: a.version.shown,
    profile: { version: a.profile.version, exact: a.version.exact || a.version.requested === undefined, note: a.version.note },
    cwd: a.env.cwd,
    home: a.env.home,
    model: mi.model,
    contextWindow: mi.contextWindow,
    charsPerToken: mi.charsPerToken,
    startup: { chars: total.length, lines: lineCount(total), tokens: tok(total.length), entries },
    alwaysLoaded: { chars: always.total, tokens: tok(always.total), block: always.block, skillsListing: always.skills },
    conditionalRules: a.conditionalRules.map((r) => ({ path: r.path, display: disp(r.path), type: r.type, patterns: r.rawPatterns })),
    file: fileOut,
    gauges: {
      instructions: { tokens: tok(always.total), contextWindow: mi.contextWindow, percent: Math.round((tok(always.total) / mi.contextWindow) * 10000) / 100 },
      memory: mem
        ? {
            path: mem.path, display: disp(mem.path), enabled: m.enabled, why: m.why, lines: mem.lines, maxLines: mem.maxLines, chars: mem.units, maxChars: mem.maxUnits,
            truncated: mem.truncated, keptLines: mem.keptLines, cutLine: mem.cutLine ?? null, lostLines: mem.lost.length,
            lostEntries: mem.lostEntries.map((e) => ({ line: e.line ?? null, text: e.text, title: e.title ?? null, target: e.target ?? null })),
          }
        : null,
      memoryUnreadable: a.diagnostics.find((d) => d.rule === 'memory-unreadable')?.message,
      skills: sv
        ? { entries: sv.entries.length, demoted: sv.entries.filter((e) => e.demoted).length, cut: sv.entries.filter((e) => e.cut).length, used: sv.used ?? null, budget: sv.budget ?? null }
        : null,
    },
    diagnostics: counts,
  };
}

// ---------------------------------------------------------------- text rendering

const n = grouped;

let stringWidth: typeof StringWidth | undefined;

function pad(s: string, w: number, right = false): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, from its chunk in the bundle (esbuild.config.mjs)
  stringWidth ??= (require('string-width') as { default: typeof StringWidth }).default;
  const gap = Math.max(0, w - stringWidth(s));
  return right ? ' '.repeat(gap) + s : s + ' '.repeat(gap);
}

function bar(ratio: number, width: number, st: Style): string {
  const r = Math.max(0, ratio);
  const filled = Math.min(width, Math.round(Math.min(r, 1) * width));
  const text = '█'.repeat(filled) + '░'.repeat(width - filled);
  const color = r > 1 ? st.red : r > 0.8 ? st.yellow : st.green;
  return color(text);
}

function typeColor(t: string, st: Style): (s: string) => string {
  switch (t) {
    case 'Managed':
      return st.red;
    case 'User':
      return st.magenta;
    case 'Project':
      return st.cyan;
    case 'Local':
      return st.blue;
    case 'AutoMem':
      return st.yellow;
    default:
      return (s: string) => s;
  }
}

export function renderExplainText(x: ExplainJson, st: Style): string {
  const out: string[] = [];
  const p = (s = '') => out.push(s);
  p(`${st.bold('Claude Code ' + x.claudeVersion)} · launch directory ${safe(x.cwd)} · HOME ${safe(x.home)}`);
  if (x.profile.note) p(st.yellow(safe(x.profile.note)));
  p(st.dim(`model ${safe(x.model)}: context window ${n(x.contextWindow)} tokens; ≈tok = chars ÷ ${x.charsPerToken} (Claude Code's own ratio for this model; the real count depends on the tokenizer)`));
  p();

  // startup
  const s = x.startup;
  if (!s.entries.length) {
    p(st.bold('Startup: no instruction file loads'));
  } else {
    p(`${st.bold('Startup')} (first request, in this order): ${s.entries.length} file${s.entries.length === 1 ? '' : 's'}, ${n(s.chars)} chars, ${n(s.lines)} lines, ≈${n(s.tokens)} tokens`);
    const rows = s.entries.map((e, i) => ({
      idx: String(i + 1), type: e.type, chars: n(e.chars), lines: n(e.lines), tok: n(e.tokens),
      file: (e.depth ? '  '.repeat(e.depth - 1) + '↳ ' : '') + safe(e.display), why: e.why,
    }));
    const w = {
      idx: Math.max(1, ...rows.map((r) => r.idx.length)),
      type: Math.max(4, ...rows.map((r) => r.type.length)),
      chars: Math.max(5, ...rows.map((r) => r.chars.length)),
      lines: Math.max(5, ...rows.map((r) => r.lines.length)),
      tok: Math.max(4, ...rows.map((r) => r.tok.length)),
    };
    p(st.dim(`  ${pad('#', w.idx, true)}  ${pad('type', w.type)}  ${pad('chars', w.chars, true)}  ${pad('lines', w.lines, true)}  ${pad('≈tok', w.tok, true)}  file — why it is there`));
    for (const r of rows)
      p(`  ${pad(r.idx, w.idx, true)}  ${typeColor(r.type, st)(pad(r.type, w.type))}  ${pad(r.chars, w.chars, true)}  ${pad(r.lines, w.lines, true)}  ${pad(r.tok, w.tok, true)}  ${r.file} ${st.dim('— ' + safe(r.why))}`);
    const entryChars = s.entries.reduce((t, e) => t + e.chars, 0);
    p(st.dim(`  (the preamble and separators add ${n(s.chars - entryChars)} chars; the block's wrapper is not counted)`));
  }
  const al = x.alwaysLoaded;
  p(`${st.bold('Always loaded')}: ${n(al.chars)} chars, ≈${n(al.tokens)} tokens (the startup block as sent, ${n(al.block)} chars with its wrapper${al.skillsListing ? `, and the skills listing, ${n(al.skillsListing)} chars` : ''}; Claude Code's system prompt and tools not counted)`);
  if (x.conditionalRules.length && !x.file) {
    p();
    p(`${st.bold('Conditional rules')} (loaded later, when a matching file is touched):`);
    for (const r of x.conditionalRules) p(`  ${typeColor(r.type, st)(r.type)}  ${safe(r.display)} ${st.dim('— paths: ' + r.patterns.map(safe).join(', '))}`);
  }

  // lazy
  if (x.file) {
    const f = x.file;
    p();
    p(`${st.bold('Touching ' + safe(f.display))} (what a session injects on its first touch of this file):`);
    if (!f.inWorkingDirs) {
      p(`  ${st.yellow('outside the working directories')} (launch directory and --add-dir folders): nothing is injected`);
    } else {
      const read = f.touches.find((t) => t.tool === 'Read')!;
      const list = (items: SizedLayer[], indent: string) => {
        const wc = Math.max(...items.map((i) => n(i.chars).length));
        const wl = Math.max(...items.map((i) => n(i.lines).length));
        const wt = Math.max(...items.map((i) => n(i.tokens).length));
        items.forEach((i, k) =>
          p(`${indent}${k + 1}  ${pad(n(i.chars), wc, true)} chars  ${pad(n(i.lines), wl, true)} lines  ≈${pad(n(i.tokens), wt, true)} tok  ${safe(i.display)} ${st.dim('— ' + safe(i.why))}`),
        );
      };
      const head = (t: { tool: string; injected: SizedLayer[] }) => {
        const chars = t.injected.reduce((a, i) => a + i.chars, 0);
        return t.injected.length
          ? `${st.green(t.tool)} → ${t.injected.length} file${t.injected.length === 1 ? '' : 's'}, ${n(chars)} chars, ≈${n(t.injected.reduce((a, i) => a + i.tokens, 0))} tokens`
          : `${t.tool} → nothing new`;
      };
      p(`  ${head(read)}${f.readAdds.chars ? st.dim(` (as sent, with Claude Code's framing: ${n(f.readAdds.chars)} chars, ≈${n(f.readAdds.tokens)} tokens)`) : ''}`);
      if (read.injected.length) list(read.injected, '    ');
      const others = f.touches.filter((t) => t.tool !== 'Read');
      const same = others.filter((t) => t.sameAsRead).map((t) => t.tool);
      const none = others.filter((t) => !t.triggers).map((t) => t.tool);
      if (same.length) p(`  ${same.join(', ')} → the same files (${x.profile.version} loads nested files after these too; once per session, so only the first touch injects)`);
      for (const t of others.filter((o) => o.triggers && !o.sameAsRead)) {
        p(`  ${head(t)}`);
        if (t.injected.length) list(t.injected, '    ');
      }
      if (none.length) p(`  ${none.join(', ')} → nothing: Claude Code ${x.profile.version} loads nested files only after a Read`);
      if (f.notMatched.length) {
        p(st.dim(`  not injected for this file (paths: do not match):`));
        for (const r of f.notMatched) p(st.dim(`    ${safe(r.display)} — paths: ${r.patterns.map(safe).join(', ')}`));
      }
    }
  }

  // gauges
  p();
  p(st.bold('Gauges'));
  const W = 24;
  const g = x.gauges;
  const label = (s: string) => pad(s, 13);
  p(`  ${label('instructions')} ${bar(g.instructions.tokens / g.instructions.contextWindow, W, st)}  ≈${n(g.instructions.tokens)} / ${n(g.instructions.contextWindow)} tokens (${g.instructions.percent}% of the context window, at startup: what is always loaded, without Claude Code's system prompt and tools)`);
  const m = g.memory;
  if (!m && g.memoryUnreadable) {
    p(`  ${label('MEMORY.md')} ${st.yellow(safe(g.memoryUnreadable))}`);
  } else if (!m) {
    p(`  ${label('MEMORY.md')} ${st.dim('none in the memory folder')}`);
  } else {
    const cut = m.truncated ? st.red(` — cut: ${n(m.lostLines)} line${m.lostLines === 1 ? '' : 's'} lost${m.cutLine ? ` from line ${m.cutLine}` : ''}`) : '';
    p(`  ${label('MEMORY.md')} ${bar(m.lines / m.maxLines, W, st)}  ${n(m.lines)} / ${n(m.maxLines)} lines${cut}`);
    p(`  ${label('')} ${bar(m.chars / m.maxChars, W, st)}  ${n(m.chars)} / ${n(m.maxChars)} chars`);
    const links = m.lostEntries.filter((e) => e.target !== null);
    const others = m.lostEntries.length - links.length;
    if (links.length) {
      const shown = links.slice(0, 3).map((e) => `${e.title} → ${e.target}${e.line ? ` (line ${e.line})` : ''}`);
      p(`  ${label('')} ${st.red('lost links')}: ${shown.map(safe).join('; ')}${links.length > 3 ? `; +${links.length - 3} more` : ''}`);
    }
    if (others) {
      const first = m.lostEntries.find((e) => e.target === null)!;
      p(`  ${label('')} ${st.red('lost entries')}: ${others}, from ${safe(JSON.stringify(describeEntry({ text: first.text })))}${first.line ? ` (line ${first.line})` : ''}`);
    }
    if (!m.enabled) p(`  ${label('')} ${st.dim('auto-memory is off: ' + m.why)}`);
  }
  const sk = g.skills;
  if (!sk) p(`  ${label('skills')} ${st.dim('not analysed by this build')}`);
  else if (sk.used !== null && sk.budget !== null)
    p(`  ${label('skills')} ${bar(sk.used / sk.budget, W, st)}  ${n(sk.used)} / ${n(sk.budget)} listing budget, ${sk.entries} skills${sk.demoted ? st.red(`, ${sk.demoted} name-only`) : ''}${sk.cut ? st.yellow(`, ${sk.cut} cut`) : ''}`);
  else p(`  ${label('skills')} ${sk.entries} skills${sk.demoted ? st.red(`, ${sk.demoted} name-only`) : ''}${sk.cut ? st.yellow(`, ${sk.cut} cut`) : ''}`);

  const d = x.diagnostics;
  const total = d.error + d.warning + d.info;
  p();
  if (total)
    p(`${st.bold('Findings')}: ${d.error ? st.red(`${d.error} error${d.error === 1 ? '' : 's'}`) : '0 errors'}, ${d.warning ? st.yellow(`${d.warning} warning${d.warning === 1 ? '' : 's'}`) : '0 warnings'}, ${d.info} info — run ${st.bold('claude-layers lint')} for details`);
  else p(`${st.bold('Findings')}: none at startup (run ${st.bold('claude-layers lint')} for the whole workspace)`);
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------- command

export const EXPLAIN_FLAGS = { ...ENGINE_FLAGS, ...USE_FLAGS, ...MCP_FLAGS, ...ADVICE_FLAGS, json: {} };

/** the first folder on the way to `p` that this user cannot enter */
function blockedFolder(p: string): string | undefined {
  for (let d = path.parse(p).root, rest = path.relative(d, p).split(path.sep); rest.length > 1; rest = rest.slice(1)) {
    d = path.join(d, rest[0]!);
    try {
      fs.accessSync(d, fs.constants.X_OK);
    } catch {
      return d;
    }
  }
  return undefined;
}

export function resolveFile(arg: string, cwd: string): string {
  if (arg === '') throw new UsageError('FILE is empty');
  const candidates = path.isAbsolute(arg) ? [arg] : [path.resolve(cwd, arg), path.resolve(arg)];
  let denied: string | undefined;
  for (const c of candidates) {
    try {
      fs.lstatSync(c);
      return c;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException)?.code;
      if ((code === 'EACCES' || code === 'EPERM') && denied === undefined) denied = c;
    }
  }
  if (denied !== undefined) throw new UsageError(`FILE ${arg} cannot be reached: ${blockedFolder(denied) ?? 'a folder on the way'} cannot be read (permission denied)`);
  throw new UsageError(`FILE ${arg} does not exist${path.isAbsolute(arg) ? '' : ` (looked in ${cwd}${path.resolve(arg) !== path.resolve(cwd, arg) ? ` and ${process.cwd()}` : ''})`}`);
}

export async function explainCommand(argv: string[], style: Style): Promise<{ text: string; json: ExplainJson; asJson: boolean }> {
  const p = parseArgs(argv, EXPLAIN_FLAGS);
  if (p.positionals.length > 1) throw new UsageError(`explain takes one FILE at most (got ${p.positionals.length}: ${p.positionals.map((x) => JSON.stringify(x)).join(' ')})`);
  checkPathFlags(p);
  const opts = engineOptions(p);
  const file = p.positionals[0] === undefined ? undefined : resolveFile(p.positionals[0], opts.cwd);
  const a = analyze(opts);
  const counts = { error: 0, warning: 0, info: 0 };
  const json = buildExplain(a, file, counts);
  for (const d of a.diagnostics) counts[d.severity]++; // after the touches: nested files' findings count too
  const use = explainUse(p, opts, file, json.charsPerToken);
  if (use) json.use = use;
  const req = await buildRequest(p, a);
  for (const d of req.diagnostics) counts[d.severity]++;
  const { rows, window } = contextRows(req.request, a, a.model.bytesPerToken);
  json.request = { ...requestJson(req.request), context: { window, rows } };
  const asJson = has(p, 'json');
  const advice = adviceFor(p, a);
  if (advice) json.advice = advice;
  const disp = (x: string) => displayPath(x, a.env.cwd, a.env.home);
  const findings = req.diagnostics.map((d) => `  ${d.severity}: ${safe(d.message)}`).join('\n');
  const whole = renderRequestText(req.request, a, style) + (findings ? `${findings}\n` : '');
  return { json, asJson, text: asJson ? '' : renderExplainText(json, style) + '\n' + whole + (use ? renderUse(use, style, disp) + '\n' : '') + (advice ? renderAdvice(advice, a, style) : '') };
}
