// Comparison of the engine's output with the binary's capture, the scenario expectation checks, and a
// readable diff of the first difference.
import type { RunOutcome } from './capture.js';
import { subst } from './capture.js';
import { PREAMBLE } from '../../src/engine/transcript/wire.js';
import { expectFor, type ExpectList } from './scenario.js';

const SUFFIXES: [string, string][] = [
  ['P', ' (project instructions, checked into the codebase)'],
  ['L', " (user's private project instructions, not checked in)"],
  ['U', " (user's private global instructions for all projects)"],
  ['M', ' (organization-managed policy instructions)'],
  ['A', " (user's auto-memory, persists across conversations)"],
];

const STARTUP_SPLIT = /\n\n(?=Contents of [^\n]*:\n\n)/;

function relPath(p: string, root: string): string {
  return p.startsWith(root + '/') ? p.slice(root.length + 1) : p;
}

/** Startup text → ["KIND path", …] (path ROOT-relative when under ROOT). */
export function startupEntryIds(text: string, root: string): string[] {
  if (!text.startsWith(PREAMBLE)) return ['?no-preamble'];
  const rest = text.slice(PREAMBLE.length);
  if (rest === '') return [];
  return rest
    .replace(/^\n\n/, '')
    .split(STARTUP_SPLIT)
    .map((e) => {
      const header = e.slice(0, e.indexOf(':\n\n') >= 0 ? e.indexOf(':\n\n') : e.length);
      if (!header.startsWith('Contents of ')) return `?${header.slice(0, 60)}`;
      const h = header.slice('Contents of '.length);
      for (const [k, suf] of SUFFIXES) if (h.endsWith(suf)) return `${k} ${relPath(h.slice(0, -suf.length), root)}`;
      return `? ${relPath(h, root)}`;
    });
}

/** Lazy entry → its path (ROOT-relative when under ROOT). */
export function lazyEntryId(entry: string, root: string): string {
  const path = /^Contents of (.*?):\n\n/s.exec(entry)?.[1];
  return path !== undefined ? relPath(path, root) : `?${entry.slice(0, 60)}`;
}

/** Does `got` match the expectation list (groups = any order)? */
export function matchList(got: string[], want: ExpectList, root: string): boolean {
  let i = 0;
  for (const w of want) {
    if (typeof w === 'string') {
      if (got[i++] !== subst(w, root)) return false;
    } else {
      const part = got.slice(i, i + w.length).sort();
      i += w.length;
      if (JSON.stringify(part) !== JSON.stringify(w.map((x) => subst(x, root)).sort())) return false;
    }
  }
  return i === got.length;
}

function fmtWant(want: ExpectList, root: string): string {
  return want.length === 0
    ? '  (none)'
    : want.map((w) => (typeof w === 'string' ? `  ${subst(w, root)}` : `  { any order: ${w.map((x) => subst(x, root)).join(', ')} }`)).join('\n');
}

function fmtList(a: string[]): string {
  return a.length === 0 ? '  (none)' : a.map((x) => `  ${x}`).join('\n');
}

/** Problems with the binary run itself and with the scenario's expectations (spec claims). */
export function checkBinary(o: RunOutcome): string[] {
  const errs: string[] = [];
  const s = o.scenario;
  if (o.claude.exitCode !== 0) errs.push(`claude exited with ${o.claude.exitCode}\nstdout: ${o.claude.stdout.slice(0, 2000)}\nstderr: ${o.claude.stderr.slice(0, 2000)}`);
  const x = o.extracted;
  if (!x) {
    errs.push('no main-loop request was captured');
    return errs;
  }
  for (const w of x.warnings) errs.push(`extraction: ${w}`);
  const touches = s.touches ?? [];
  if (x.touches.length !== touches.length) {
    errs.push(`expected ${touches.length} tool calls in the last main-loop request, found ${x.touches.length}`);
    return errs;
  }
  touches.forEach((t, i) => {
    const got = x.touches[i]!; // same length, checked above
    if (got.tool !== t.tool) errs.push(`touch ${i}: tool ${got.tool}, expected ${t.tool}`);
    if ((t.tool === 'Edit' || t.tool === 'Write') && got.isError) errs.push(`touch ${i} (${t.tool}) failed: ${got.result.slice(0, 300)}`);
  });
  const e = expectFor(s, o.version);
  const root = o.root;
  if (e.startup !== undefined) {
    const got = x.startup === null ? null : startupEntryIds(x.startup, root);
    const want = e.startup;
    const ok = want === null ? got === null : got !== null && matchList(got, want, root);
    if (!ok)
      errs.push(`startup entries differ from the scenario's expectation\n expected:\n${want === null ? '  (no startup block)' : fmtWant(want, root)}\n binary:\n${got === null ? '  (no startup block)' : fmtList(got)}`);
  }
  if (e.touches) {
    e.touches.forEach((want, i) => {
      const got = (x.touches[i]?.injected ?? []).map((t) => lazyEntryId(t, root));
      if (!matchList(got, want, root))
        errs.push(`touch ${i} (${touches[i]?.tool}) injections differ from the scenario's expectation\n expected:\n${fmtWant(want, root)}\n binary:\n${fmtList(got)}`);
    });
  }
  const all = [x.startup ?? '', ...x.touches.flatMap((t) => t.injected)].join('\n\n');
  for (const c of e.contains ?? []) if (!all.includes(subst(c, root))) errs.push(`expected text not found: ${JSON.stringify(subst(c, root))}`);
  for (const c of e.absent ?? []) if (all.includes(subst(c, root))) errs.push(`unexpected text found: ${JSON.stringify(subst(c, root))}`);
  // Glob/Grep (not modelled by the engine) must inject nothing
  touches.forEach((t, i) => {
    const n = x.touches[i]?.injected.length ?? 0;
    if ((t.tool === 'Glob' || t.tool === 'Grep') && n) errs.push(`touch ${i} (${t.tool}) injected ${n} entries`);
  });
  return errs;
}

function vis(s: string, max = 240): string {
  const j = JSON.stringify(s);
  return j.length > max ? j.slice(0, max) + '…' : j;
}

/** A unified-ish diff of the first difference between two texts (line-based, with context). */
export function firstDiff(expected: string, actual: string, label = 'text', context = 3): string {
  if (expected === actual) return '';
  const a = expected.split('\n');
  const b = actual.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  // common suffix, to show the changed hunk only
  let ea = a.length - 1;
  let eb = b.length - 1;
  while (ea >= i && eb >= i && a[ea] === b[eb]) {
    ea--;
    eb--;
  }
  const out = [`--- ${label} (claude)`, `+++ ${label} (engine)`, `@@ line ${i + 1} (expected ${a.length} lines, engine ${b.length} lines; ${expected.length} vs ${actual.length} chars) @@`];
  for (const line of a.slice(Math.max(0, i - context), i)) out.push(`  ${vis(line)}`);
  const shown = 12;
  for (const line of a.slice(i, Math.min(ea + 1, i + shown))) out.push(`- ${vis(line)}`);
  if (ea - i + 1 > shown) out.push(`- … ${ea - i + 1 - shown} more`);
  for (const line of b.slice(i, Math.min(eb + 1, i + shown))) out.push(`+ ${vis(line)}`);
  if (eb - i + 1 > shown) out.push(`+ … ${eb - i + 1 - shown} more`);
  for (const line of a.slice(ea + 1, ea + 1 + context)) out.push(`  ${vis(line)}`);
  const x = a[i];
  const y = b[i];
  if (x !== undefined && y !== undefined) {
    // the first differing character of the first differing line
    let c = 0;
    while (c < x.length && c < y.length && x[c] === y[c]) c++;
    out.push(`first differing char at column ${c + 1}: claude ${vis(x.slice(c, c + 40), 60)} vs engine ${vis(y.slice(c, c + 40), 60)}`);
  }
  return out.join('\n');
}

/** Strict comparison of the engine output with the capture. Returns '' when equal, else a report. */
export function compareEngine(o: RunOutcome): string {
  const x = o.extracted;
  const eng = o.engine;
  if (!x) return 'no capture to compare with';
  if (!eng) return 'engine not run';
  if (eng.exitCode !== 0 || !eng.json)
    return `engine CLI failed (exit ${eng.exitCode}${eng.parseError ? `, bad JSON: ${eng.parseError}` : ''})\nstderr: ${eng.stderr.slice(0, 3000)}\nstdout: ${eng.stdout.slice(0, 1000)}`;
  const j = eng.json;
  const reports: string[] = [];
  const want = x.startup;
  const got = j.instructions ? j.instructions.text : null;
  if (want !== got) {
    if (want === null || got === null)
      reports.push(`startup: claude ${want === null ? 'has no startup block' : `has ${vis(want, 300)}`}; engine ${got === null ? 'reports instructions: null' : `reports ${vis(got, 300)}`}`);
    else {
      reports.push('startup text differs:\n' + firstDiff(want, got, 'startup'));
      const wi = startupEntryIds(want, o.root);
      const gi = startupEntryIds(got, o.root);
      if (JSON.stringify(wi) !== JSON.stringify(gi)) reports.push(`startup entries:\n claude:\n${fmtList(wi)}\n engine:\n${fmtList(gi)}`);
    }
  }
  const et = o.engineTouches;
  if (!Array.isArray(j.touches) || j.touches.length !== et.length) {
    reports.push(`engine reported ${Array.isArray(j.touches) ? j.touches.length : 'no'} touches, expected ${et.length}`);
  } else {
    et.forEach((t, k) => {
      const w = x.touches[t.index]?.injected ?? [];
      const g = (j.touches[k]?.injected ?? []).map((e) => e.text);
      if (JSON.stringify(w) === JSON.stringify(g)) return;
      const wi = w.map((e) => lazyEntryId(e, o.root));
      const gi = g.map((e) => lazyEntryId(e, o.root));
      let r = `touch ${k} (${t.tool} ${t.path}) injections differ:\n claude:\n${fmtList(wi)}\n engine:\n${fmtList(gi)}`;
      const n = Math.min(w.length, g.length);
      for (let q = 0; q < n; q++) {
        const wq = w[q];
        const gq = g[q];
        if (wq !== undefined && gq !== undefined && wq !== gq) {
          r += `\n entry ${q}:\n` + firstDiff(wq, gq, `touch ${k} entry ${q}`);
          break;
        }
      }
      reports.push(r);
    });
  }
  return reports.join('\n\n');
}

