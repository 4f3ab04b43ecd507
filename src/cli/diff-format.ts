// Output formats of `claude-layers diff`: text (people), json (scripts; documented in docs/cli.md),
// markdown (a pull request comment: a one-line verdict, a table, details folded) and sarif (the
// findings the change adds, through lint's SARIF writer).
import * as path from 'node:path';
import { approxTokens, grouped, type BudgetViolation, type DiffReport, type FindingFact, type Diagnostic } from '../engine/index.js';
import { jsonText } from './escape.js';
import { formatSarif } from './lint-format.js';
import { safe, type Style } from './style.js';
import { TOOL } from './tool.js';

export const DIFF_FORMATS = ['text', 'json', 'markdown', 'sarif'] as const;
export type DiffFormat = (typeof DIFF_FORMATS)[number];

/** the hidden marker of the sticky pull request comment */
export const COMMENT_MARKER = '<!-- claude-context-layers -->';

export interface DiffView {
  report: DiffReport;
  violations: BudgetViolation[];
  exitCode: number;
  cwd: string;
  home: string;
}

const signed = (n: number) => (n > 0 ? `+${grouped(n)}` : n < 0 ? `−${grouped(-n)}` : '0');
const tok = (r: DiffReport, chars: number) => approxTokens(Math.abs(chars), r.charsPerToken) * Math.sign(chars);
const signedTok = (r: DiffReport, chars: number) => `≈${signed(tok(r, chars))} tokens`;
const pct = (before: number, after: number) => (before > 0 ? `${after >= before ? '+' : '−'}${(Math.abs(after - before) / before * 100).toFixed(1)} %` : after > 0 ? 'new' : '0 %');

/** one line: what the change does to every session */
export function verdict(v: DiffView, md = false): string {
  const r = v.report;
  const d = r.startup.after - r.startup.before;
  const parts: string[] = [];
  if (d !== 0) parts.push(`the startup block ${d > 0 ? 'grows' : 'shrinks'} by ${grouped(Math.abs(d))} characters (${signedTok(r, d)} at every session start, ${pct(r.startup.before, r.startup.after)})`);
  const widened = r.rules.filter((x) => x.afterMatches > x.beforeMatches).length;
  if (widened) parts.push(`${widened} conditional rule${widened === 1 ? '' : 's'} reach${widened === 1 ? 'es' : ''} more files`);
  if (r.nested.length) parts.push(`${r.nested.length} nested instruction file${r.nested.length === 1 ? '' : 's'} added or grown`);
  if (r.skills.demoted.length || r.skills.cut.length) parts.push(`${r.skills.demoted.length + r.skills.cut.length} skill description${r.skills.demoted.length + r.skills.cut.length === 1 ? '' : 's'} demoted or cut`);
  if (r.findings.added.length) parts.push(`${r.findings.added.length} new finding${r.findings.added.length === 1 ? '' : 's'}`);
  const head = v.violations.length ? `${md ? '❌ ' : ''}over budget (${v.violations.length})` : parts.length ? `${md ? '⚠️ ' : ''}context changes` : `${md ? '✅ ' : ''}no change to what Claude Code loads`;
  return `${head}${parts.length ? `: ${parts.join('; ')}` : ''}`;
}

// ---- text

export function formatDiffText(v: DiffView, st: Style): string {
  const r = v.report;
  const out: string[] = [];
  out.push(st.bold(`claude-layers diff ${safe(r.base)}..${safe(r.head)} (Claude Code ${r.version})`));
  out.push(verdict(v));
  out.push('');
  out.push(`startup block: ${grouped(r.startup.before)} → ${grouped(r.startup.after)} characters (${signed(r.startup.after - r.startup.before)}, ${signedTok(r, r.startup.after - r.startup.before)})`);
  for (const f of r.startup.files) out.push(`  ${f.change.padEnd(7)} ${safe(f.path)}  ${grouped(f.beforeChars)} → ${grouped(f.afterChars)} (${signed(f.afterChars - f.beforeChars)})`);
  const s = r.skills;
  out.push(`skills listing: ${grouped(s.budget.before.chars)} → ${grouped(s.budget.after.chars)} characters; budget use ${grouped(s.budget.before.used)}/${grouped(s.budget.before.budget)} → ${grouped(s.budget.after.used)}/${grouped(s.budget.after.budget)}`);
  for (const [k, list] of [['added', s.added], ['removed', s.removed], ['demoted', s.demoted], ['cut', s.cut]] as const) if (list.length) out.push(`  ${k.padEnd(7)} ${list.map(safe).join(', ')}`);
  if (r.rules.length) out.push('conditional rules whose reach changed:');
  for (const x of r.rules)
    out.push(`  ${safe(x.path)}  paths ${x.paths.length ? x.paths.map((p) => safe(JSON.stringify(p))).join(', ') : '(removed)'}${x.beforePaths ? ` (was ${x.beforePaths.map((p) => safe(JSON.stringify(p))).join(', ')})` : ''}: ${grouped(x.beforeMatches)} → ${grouped(x.afterMatches)} files${x.examples.length ? `, e.g. ${x.examples.map(safe).join(', ')}` : ''}`);
  if (r.nested.length) out.push('nested instruction files added or grown:');
  for (const n of r.nested) out.push(`  ${n.change.padEnd(7)} ${safe(n.path)}  ${grouped(n.beforeChars)} → ${grouped(n.chars)} characters on the first read in ${safe(n.folder)}/`);
  if (r.imports.length) out.push('@imports added:');
  for (const i of r.imports) out.push(`  ${safe(i.from)} → ${safe(i.path)}  ${grouped(i.chars)} characters`);
  if (r.touched.length) out.push('what a first read of each changed file injects:');
  for (const t of r.touched) out.push(`  ${safe(t.path)}  ${grouped(t.beforeChars)} → ${grouped(t.afterChars)} characters`);
  const finding = (f: FindingFact) => `${safe(f.path || '(workspace)')}${f.line ? `:${f.line}` : ''}  ${f.severity}  ${f.rule}  ${safe(f.message)}`;
  if (r.findings.added.length) out.push('new findings:');
  for (const f of r.findings.added) out.push(`  + ${finding(f)}`);
  if (r.findings.removed.length) out.push('findings gone:');
  for (const f of r.findings.removed) out.push(`  - ${finding(f)}`);
  for (const n of r.notes) out.push(st.dim(`note: ${safe(n)}`));
  for (const x of v.violations) out.push(st.red(`budget: ${safe(x.message)}`));
  return out.join('\n') + '\n';
}

// ---- json

export function formatDiffJson(v: DiffView): string {
  const { charsPerToken, ...r } = v.report;
  return jsonText({ tool: TOOL, ...r, charsPerToken, budget: { exceeded: v.violations }, exitCode: v.exitCode }) + '\n';
}

// ---- markdown

/** text from a file name or message, inert in GitHub Markdown (no HTML, no links, no table breaks) */
export function md(s: string): string {
  return safe(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|#!~])/g, '\\$1')
    .replace(/(https?):/gi, '$1&#58;');
}

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;

function details(summary: string, body: string[]): string[] {
  return ['', `<details><summary>${summary}</summary>`, '', ...body, '', '</details>'];
}

export function formatDiffMarkdown(v: DiffView): string {
  const r = v.report;
  const out: string[] = [COMMENT_MARKER, `**Claude context** · ${md(verdict(v, true))}`, ''];
  const s = r.skills;
  out.push(row(['', 'before', 'after', 'change']), row(['---', '---:', '---:', '---:']));
  const d = r.startup.after - r.startup.before;
  out.push(row(['Startup block (chars)', grouped(r.startup.before), grouped(r.startup.after), `${signed(d)} (${signedTok(r, d)})`]));
  out.push(row(['Skills listing (chars)', grouped(s.budget.before.chars), grouped(s.budget.after.chars), signed(s.budget.after.chars - s.budget.before.chars)]));
  out.push(row(['Listing budget use', `${grouped(s.budget.before.used)} / ${grouped(s.budget.before.budget)}`, `${grouped(s.budget.after.used)} / ${grouped(s.budget.after.budget)}`, signed(s.budget.after.used - s.budget.before.used)]));
  out.push(row(['Rules with a changed reach', '', '', String(r.rules.length)]));
  out.push(row(['Nested files added or grown', '', '', String(r.nested.length)]));
  out.push(row(['@imports added', '', '', String(r.imports.length)]));
  out.push(row(['Lint findings', '', '', `+${r.findings.added.length} / −${r.findings.removed.length}`]));
  if (v.violations.length) out.push('', '**Budgets exceeded**', '', ...v.violations.map((x) => `- ${md(x.message)}`));
  if (r.startup.files.length)
    out.push(...details(`Startup files (${r.startup.files.length})`, [row(['file', 'change', 'before', 'after']), row(['---', '---', '---:', '---:']), ...r.startup.files.map((f) => row([md(f.path), f.change, grouped(f.beforeChars), grouped(f.afterChars)]))]));
  if (r.rules.length)
    out.push(...details(`Conditional rules whose reach changed (${r.rules.length})`, [row(['rule', 'paths', 'files before', 'files after', 'e.g.']), row(['---', '---', '---:', '---:', '---']),
      ...r.rules.map((x) => row([md(x.path), `${x.paths.map(md).join(', ') || '(removed)'}${x.beforePaths ? ` (was ${x.beforePaths.map(md).join(', ')})` : ''}`, grouped(x.beforeMatches), grouped(x.afterMatches), x.examples.map(md).join(', ')]))]));
  if (r.nested.length)
    out.push(...details(`Nested instruction files (${r.nested.length})`, [row(['file', 'change', 'chars', 'loads on the first read in']), row(['---', '---', '---:', '---']), ...r.nested.map((n) => row([md(n.path), n.change, `${grouped(n.beforeChars)} → ${grouped(n.chars)}`, `${md(n.folder)}/`]))]));
  if (s.added.length || s.removed.length || s.demoted.length || s.cut.length)
    out.push(...details('Skills listing', [s.added.length ? `- added: ${s.added.map(md).join(', ')}` : '', s.removed.length ? `- removed: ${s.removed.map(md).join(', ')}` : '', s.demoted.length ? `- demoted (name only, over the listing budget): ${s.demoted.map(md).join(', ')}` : '', s.cut.length ? `- description cut: ${s.cut.map(md).join(', ')}` : ''].filter(Boolean)));
  if (r.imports.length) out.push(...details(`@imports added (${r.imports.length})`, r.imports.map((i) => `- ${md(i.from)} → ${md(i.path)}: ${grouped(i.chars)} chars`)));
  if (r.touched.length)
    out.push(...details(`What a first read of each changed file injects (${r.touched.length})`, [row(['file', 'before', 'after']), row(['---', '---:', '---:']), ...r.touched.map((t) => row([md(t.path), grouped(t.beforeChars), grouped(t.afterChars)]))]));
  const f = (x: FindingFact) => `- ${x.severity} \`${md(x.rule)}\` ${md(x.path || '(workspace)')}${x.line ? `:${x.line}` : ''}: ${md(x.message)}`;
  if (r.findings.added.length || r.findings.removed.length)
    out.push(...details(`Lint findings (+${r.findings.added.length} / −${r.findings.removed.length})`, [...r.findings.added.map((x) => f(x).replace(/^- /, '- new: ')), ...r.findings.removed.map((x) => f(x).replace(/^- /, '- gone: '))]));
  if (r.notes.length) out.push('', ...r.notes.map((n) => `> ${md(n)}`));
  out.push('', `<sub>${md(r.base)}..${md(r.head)} · Claude Code ${md(r.version)} · sizes in UTF-16 characters, ≈tokens at ${r.charsPerToken} characters per token · ${TOOL.name}</sub>`);
  return out.join('\n') + '\n';
}

// ---- sarif

/** the findings the change adds, as lint's SARIF (paths back to absolute under the launch directory) */
export function formatDiffSarif(v: DiffView): string {
  const abs = (p: string) => (!p ? '' : p.startsWith('~/') ? path.join(v.home, p.slice(2)) : path.isAbsolute(p) ? p : path.join(v.cwd, p));
  const diagnostics: Diagnostic[] = v.report.findings.added.map((x) => ({ path: abs(x.path), severity: x.severity, rule: x.rule, message: x.message, ...(x.line !== undefined && { line: x.line }) }));
  return formatSarif({ tool: TOOL, claudeVersion: v.report.version, cwd: v.cwd, home: v.home, failOn: 'error', diagnostics, filesScanned: v.report.filesScanned.after, exitCode: v.exitCode });
}
