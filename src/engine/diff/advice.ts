// Advice with its price: what an always-loaded text costs, in tokens at every session start and in
// dollars over the sessions the user really ran in this project (their transcripts, found as
// `session --list` finds them and read locally through FileAccess; nothing leaves the machine).
//
// The price is the one pricing of the engine (transcript/pricing.ts): the profile's per-model list
// (MODEL_PRICES) or the managed `modelPricing` setting, at the model the sessions ran (the one most of
// their requests name), else the model Claude Code would run here. A text of the startup block (the
// CLAUDE.md block, the skills listing, MCP names and instructions) sits in the cached prefix: written
// to the cache once per session (the 1-hour write where the sessions' answers recorded 1-hour writes,
// else the 5-minute one), read from it by every later request of the session (a cache read, not the
// input price).
//
// What each finding is checked against, over the last N sessions:
// - a rule without `paths:`: the project's files and folders its text names, against the files the
//   sessions read, edited or wrote; the `paths:` those names give, and what it saves (the sessions
//   that touched none of them would not have paid for it);
// - MEMORY.md over its cut: the index entries past the cut, against the topic files the sessions read;
// - a skill: listed at every start, against the sessions that called it;
// - an MCP server of `.mcp.json`: its tool names and instructions (as the transcripts recorded them),
//   against the sessions that called one of its tools.
import * as path from 'node:path';
import type { Analysis } from '../analysis.js';
import type { FileAccess } from '../files/file-access.js';
import { approxTokens } from '../figures.js';
import { listTranscripts, transcriptDirs, configDir } from '../transcript/session.js';
import { parseTranscriptText, obj, arr, str, num } from '../transcript/records.js';
import { costOf, priceOf, pricingOverride, type Price } from '../transcript/pricing.js';
import { mcpFactsFromTranscripts } from '../mcp/transcript-facts.js';
import { skillsView } from '../checks/skills-check.js';

/** prices given by hand (`--prices`), dollars per million tokens */
export interface ModelPrices {
  input: number;
  cacheWrite: number;
  cacheRead: number;
}

/** what one past session did, as far as the advice needs */
export interface SessionUse {
  file: string;
  /** main-loop requests (distinct answers: Claude Code writes one record per content block of an answer) */
  requests: number;
  /** the model most of its requests name, when they name one */
  model?: string;
  /** its answers recorded 1-hour cache writes */
  cacheWrite1h: boolean;
  /** first and last record times (ms since the epoch), when recorded */
  startMs?: number;
  endMs?: number;
  /** skills the session invoked (Skill tool calls, by name) */
  skills: Set<string>;
  /** MCP servers whose tools the session called (`mcp__SERVER__tool`) */
  mcpServers: Set<string>;
  /** files the session read, edited or wrote (absolute) */
  files: Set<string>;
}

/** the price the advice assumes, said with it */
export interface AdvicePrice {
  /** the model priced */
  model: string;
  /** where the model comes from */
  modelFrom: { kind: 'sessions'; sessions: number; of: number } | { kind: 'here'; from: string };
  /** the list price of the profile, the managed `modelPricing`, or `--prices` */
  from: 'list' | 'modelPricing' | '--prices';
  /** the cache write a session start pays: 5-minute or 1-hour */
  cacheWrite: '5m' | '1h';
  /** dollars per million tokens (the multiplier of `modelPricing` applied) */
  input: number;
  cacheWriteRate: number;
  cacheRead: number;
  price: Price;
}

export interface Saving {
  /** what to change */
  fix: string;
  /** tokens a session saves on average over the sessions read (or at every start, without sessions) */
  tokensPerSession: number;
  dollarsPerSession?: number;
  /** over the sessions' span, scaled to 7 days */
  dollarsPerWeek?: number;
}

export interface AdviceItem {
  kind: 'always-loaded' | 'rule-no-paths' | 'memory-cut' | 'skill-unused' | 'mcp-unused';
  path: string;
  /** a rule without paths: the `paths:` patterns the folders and files its text names give */
  paths?: string[];
  /** what the text costs at every session start, ≈tokens (0 when unknown) */
  tokensPerStart: number;
  /** over the sessions read: how many paid it, how many needed (or used) what it is for */
  sessions?: { read: number; used: number };
  /** dollars that text cost over the sessions read (cache write once, cache reads per later request) */
  dollars?: number;
  /** what a fix saves, when it can be told */
  saving?: Saving;
  message: string;
}

/** the most of one transcript read (a longer one is read in its first 64 MiB; the editor reads less) */
const MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The last `n` sessions of the launch directory, newest first (by their newest record, as `session --list`);
 *  `fa` should read ranges (the CLI's node access): the analysis' snapshot would hold every transcript read. */
export function recentSessions(fa: FileAccess, cwd: string, home: string, env: Record<string, string | undefined>, n: number, maxBytes = MAX_TRANSCRIPT_BYTES): SessionUse[] {
  const files = listTranscripts(fa, transcriptDirs(fa, cwd, configDir(home, env))).slice(0, n);
  const out: SessionUse[] = [];
  for (const t of files) {
    const r = fa.readRange ? fa.readRange(t.file, 0, maxBytes) : fa.readFile(t.file, maxBytes);
    if (!r.ok) continue;
    const bytes = 'data' in r.value ? r.value.data : r.value;
    const parsed = parseTranscriptText(Buffer.from(bytes).toString('utf8'));
    const use: SessionUse = { file: t.file, requests: 0, cacheWrite1h: false, skills: new Set(), mcpServers: new Set(), files: new Set() };
    const answers = new Set<string>();
    const models = new Map<string, number>();
    for (const { type, rec } of parsed.records) {
      const at = Date.parse(str(rec.timestamp) ?? '');
      if (Number.isFinite(at)) {
        if (use.startMs === undefined || at < use.startMs) use.startMs = at;
        if (use.endMs === undefined || at > use.endMs) use.endMs = at;
      }
      if (type !== 'assistant' || rec.isSidechain === true) continue;
      const msg = obj(rec.message);
      const id = str(msg?.id) ?? str(rec.requestId) ?? str(rec.uuid) ?? `#${answers.size}`;
      if (!answers.has(id)) {
        answers.add(id);
        const model = str(msg?.model);
        if (model && model !== '<synthetic>') models.set(model, (models.get(model) ?? 0) + 1);
        if ((num(obj(obj(msg?.usage)?.cache_creation)?.ephemeral_1h_input_tokens) ?? 0) > 0) use.cacheWrite1h = true;
      }
      for (const c of arr(msg?.content)) {
        const block = obj(c);
        if (block?.type !== 'tool_use') continue;
        const name = str(block.name) ?? '';
        const input = obj(block.input);
        if (name === 'Skill') {
          const s = str(input?.skill) ?? str(input?.command);
          if (s) use.skills.add(s.replace(/^\//, ''));
        } else if (name.startsWith('mcp__')) use.mcpServers.add(name.split('__')[1] ?? '');
        else if (name === 'Read' || name === 'Edit' || name === 'Write' || name === 'MultiEdit' || name === 'NotebookEdit') {
          const f = str(input?.file_path) ?? str(input?.notebook_path);
          if (f && path.isAbsolute(f)) use.files.add(path.normalize(f));
        }
      }
    }
    use.requests = answers.size;
    let best: [string, number] | undefined;
    for (const m of models) if (!best || m[1] > best[1]) best = m;
    if (best) use.model = best[0];
    out.push(use);
  }
  return out;
}

/** The price the advice assumes: `--prices` when given, else the managed `modelPricing` or the profile's list
 *  price of the sessions' model (the model Claude Code would run here without sessions). Undefined when the
 *  model has no price. */
export function advicePrice(a: Analysis, sessions: readonly SessionUse[], given?: ModelPrices): AdvicePrice | undefined {
  const counts = new Map<string, number>();
  for (const s of sessions) if (s.model) counts.set(s.model, (counts.get(s.model) ?? 0) + 1);
  let top: [string, number] | undefined;
  for (const c of counts) if (!top || c[1] > top[1]) top = c;
  const model = top ? top[0] : a.model.resolved;
  const modelFrom: AdvicePrice['modelFrom'] = top ? { kind: 'sessions', sessions: top[1], of: sessions.length } : { kind: 'here', from: a.model.from };
  const cacheWrite = sessions.filter((s) => s.cacheWrite1h).length * 2 > sessions.length ? '1h' : '5m';
  if (given) {
    const rates = { input: given.input, output: 0, cacheWrite5m: given.cacheWrite, cacheWrite1h: given.cacheWrite, cacheRead: given.cacheRead };
    return { model, modelFrom, from: '--prices', cacheWrite, input: given.input, cacheWriteRate: given.cacheWrite, cacheRead: given.cacheRead, price: { rates: () => rates, multiplier: 1, from: 'list' } };
  }
  const price = priceOf(model, a.profile, pricingOverride(a.settings));
  if (!price) return undefined;
  const r = price.rates(0);
  const m = price.multiplier;
  return { model, modelFrom, from: price.from, cacheWrite, input: r.input * m, cacheWriteRate: (cacheWrite === '1h' ? r.cacheWrite1h : r.cacheWrite5m) * m, cacheRead: r.cacheRead * m, price };
}

/** dollars a text of `tokens` in the cached prefix costs one session of `requests` requests: one cache write,
 *  a cache read by each later request (priced by pricing.ts's costOf, the one pricing of the engine) */
export function prefixCostOf(tokens: number, requests: number, p: AdvicePrice): number {
  const writes = requests > 0 ? tokens : 0;
  return costOf({ input: 0, output: 0, cacheRead: tokens * Math.max(0, requests - 1), cacheCreation: writes, cacheWrite5m: p.cacheWrite === '5m' ? writes : 0, cacheWrite1h: p.cacheWrite === '1h' ? writes : 0 }, p.price);
}

/** dollars a text of `tokens` in the cached prefix cost over `sessions` */
export function prefixCost(tokens: number, sessions: readonly SessionUse[], p: AdvicePrice): number {
  let d = 0;
  for (const s of sessions) d += prefixCostOf(tokens, s.requests, p);
  return d;
}

/** the days the sessions span (first record of the oldest to last of the newest), at least one */
export function sessionDays(sessions: readonly SessionUse[]): number {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of sessions) {
    if (s.startMs !== undefined) lo = Math.min(lo, s.startMs);
    if (s.endMs !== undefined) hi = Math.max(hi, s.endMs);
  }
  return Number.isFinite(lo) && Number.isFinite(hi) ? Math.max(1, (hi - lo) / DAY_MS) : 1;
}

export const money = (d: number): string => (d >= 1 ? `$${d.toFixed(2)}` : d >= 0.01 ? `$${d.toFixed(3)}` : `$${d.toFixed(4)}`);
const n = (x: number) => Math.round(x).toLocaleString('en-US');
const plural = (k: number, one: string, many = `${one}s`) => `${k} ${k === 1 ? one : many}`;
const rate = (x: number) => `$${Number(x.toFixed(4))}`;

/** The assumption behind the dollars, in one line (the CLI and the editor show the same). */
export function priceAssumption(p: AdvicePrice): string {
  const who = p.modelFrom.kind === 'sessions' ? `the model of ${p.modelFrom.sessions} of the last ${plural(p.modelFrom.of, 'session')}` : p.modelFrom.from === 'default' ? "the version's default model" : `the model of ${p.modelFrom.from}`;
  const src = p.from === 'list' ? 'list price' : p.from === 'modelPricing' ? 'price from the managed modelPricing setting' : 'price given with --prices';
  const share = p.input > 0 ? ` (${Number(((p.cacheRead / p.input) * 100).toFixed(1))} % of the input price)` : '';
  return `priced at ${p.model} (${who}), its ${src}: ${rate(p.input)}/MTok input, ${rate(p.cacheWriteRate)} cache write (${p.cacheWrite === '1h' ? '1 hour' : '5 minutes'}), ${rate(p.cacheRead)} cache read; the startup block is cached: written once per session, then a cache read${share} for each later request`;
}

/** the templates of a saving in words (`{0}`: a number or an amount); the editor passes them translated */
export interface SavingWords {
  perSession: string;
  perStart: string;
  week: string;
}

export const SAVING_WORDS: SavingWords = { perSession: 'saves ≈{0} tokens per session', perStart: 'saves ≈{0} tokens at every session start', week: 'about {0} a week' };

const fill = (template: string, ...args: string[]) => template.replace(/\{(\d+)\}/g, (m, i: string) => args[Number(i)] ?? m);

/** A saving in words: the CLI's advice, the editor's finding and its quick fix say it alike. */
export function savingText(s: Saving, sessions: number, words: SavingWords = SAVING_WORDS): string {
  // (the host's translated templates keep their `{0}`: vscode.l10n.t was given '{0}' for it)
  const dollars = s.dollarsPerSession !== undefined ? ` (${money(s.dollarsPerSession)})` : '';
  const week = s.dollarsPerWeek !== undefined ? `, ${fill(words.week, money(s.dollarsPerWeek))}` : '';
  return `${fill(sessions ? words.perSession : words.perStart, n(s.tokensPerSession))}${dollars}${week}`;
}

/** the most path-like words of one text looked up on disk */
const MAX_NAMED = 64;

/** the project's files and folders a text names (`src/api/`, `packages/web/**`, `src/db.ts`), that exist */
export function namedPaths(a: Analysis, text: string): { abs: string; dir: boolean }[] {
  const out = new Map<string, boolean>();
  const root = a.env.cwd;
  let tried = 0;
  for (const m of text.matchAll(/(?:^|[\s`'"(\[])((?:\.\/)?[A-Za-z0-9_.@-]+(?:\/[A-Za-z0-9_.@-]+)*\/?(?:\*\*?(?:\/\*[^\s`'")\]]*)?)?)(?=$|[\s`'"),.:;\]])/gm)) {
    const p = m[1]!.replace(/^\.\//, '').replace(/\/?\*.*$/, '').replace(/\/$/, '');
    if (!p || p.startsWith('.') || p.includes('..') || (!p.includes('/') && !/\.[A-Za-z0-9]{1,6}$/.test(p)) || /^[a-z]+:/i.test(p)) continue;
    const abs = path.join(root, ...p.split('/'));
    if (out.has(abs)) continue;
    // a bounded number of looks at the disk, however long the text
    if (++tried > MAX_NAMED) break;
    const st = a.env.fs.stat(abs);
    if (st.ok) out.set(abs, st.value.kind === 'dir');
  }
  return [...out].map(([abs, dir]) => ({ abs, dir }));
}

const inside = (f: string, p: { abs: string; dir: boolean }) => (p.dir ? f.startsWith(p.abs + path.sep) : f === p.abs);

interface Ctx {
  a: Analysis;
  sessions: readonly SessionUse[];
  price?: AdvicePrice;
  days: number;
  ratio: number;
}

/** what a text of `tokens` paid by the sessions not in `needed` would have saved */
function savingOver(c: Ctx, tokens: number, needed: (s: SessionUse) => boolean, fix: string): Saving {
  if (!c.sessions.length) return { fix, tokensPerSession: tokens, ...(c.price && { dollarsPerSession: prefixCostOf(tokens, 1, c.price) }) };
  const spared = c.sessions.filter((s) => !needed(s));
  const tokensPerSession = (tokens * spared.length) / c.sessions.length;
  if (!c.price) return { fix, tokensPerSession };
  const total = prefixCost(tokens, spared, c.price);
  return { fix, tokensPerSession, dollarsPerSession: total / c.sessions.length, dollarsPerWeek: (total / c.days) * 7 };
}

function ruleAdvice(c: Ctx, e: Analysis['startup'][number], tokens: number, over: string): AdviceItem {
  const names = namedPaths(c.a, e.content);
  const rel = (p: string) => path.relative(c.a.env.cwd, p).split(path.sep).join('/');
  const base: Omit<AdviceItem, 'message'> = { kind: 'rule-no-paths', path: e.path, tokensPerStart: tokens };
  const head = `a rule without paths, ≈${n(tokens)} tokens at every session start`;
  if (!names.length) {
    const cost = c.sessions.length && c.price ? prefixCost(tokens, c.sessions, c.price) : undefined;
    return { ...base, ...(cost !== undefined && { dollars: cost }), message: `${head}${cost !== undefined ? `; it cost ${money(cost)}${over}` : ''}; its text names no file or folder of this project, so which sessions needed it cannot be told from the files they read` };
  }
  const globs = names.map((p) => (p.dir ? `${rel(p.abs)}/**` : rel(p.abs)));
  const paths = `paths: [${globs.join(', ')}]`;
  const needed = (s: SessionUse) => [...s.files].some((f) => names.some((p) => inside(f, p)));
  const saving = savingOver(c, tokens, needed, paths);
  const cost = c.sessions.length && c.price ? prefixCost(tokens, c.sessions, c.price) : undefined;
  base.paths = globs;
  if (!c.sessions.length) return { ...base, saving, message: `${head}; it names ${globs.join(', ')}: \`${paths}\` would load it only when a matching file is read` };
  const k = c.sessions.filter(needed).length;
  const touched = [...new Set(c.sessions.flatMap((s) => [...s.files].filter((f) => names.some((p) => inside(f, p))).map(rel)))].slice(0, 3);
  return {
    ...base,
    sessions: { read: c.sessions.length, used: k },
    ...(cost !== undefined && { dollars: cost }),
    saving,
    message: `${head}${cost !== undefined ? ` (${money(cost)}${over})` : ''}; relevant to ${k} of the last ${plural(c.sessions.length, 'session')}${touched.length ? ` (they read ${touched.join(', ')})` : ''}: \`${paths}\` ${savingText(saving, c.sessions.length)}`,
  };
}

function memoryAdvice(c: Ctx): AdviceItem | undefined {
  const idx = c.a.memory.index;
  if (!idx?.truncated || !c.a.memory.injected) return undefined;
  const dir = c.a.memory.location.dir;
  const lost = idx.lostEntries.flatMap((l) => [...l.text.matchAll(/\]\(([^)\s]+\.md)\)/g)].map((m) => ({ line: l.rawLine ?? l.line, abs: path.resolve(dir, m[1]!) })));
  const cutAt = idx.cut ? `line ${idx.cut.rawLine ?? idx.cut.line}` : 'its limit';
  const head = `MEMORY.md is over its cut (${idx.over === 'size' ? '25,000 characters' : idx.over === 'lines' ? '200 lines' : '200 lines and 25,000 characters'}): it is cut at ${cutAt}, ${plural(idx.lostEntries.length, 'index entry', 'index entries')} past the cut never reach the model`;
  if (!c.sessions.length) return { kind: 'memory-cut', path: idx.path, tokensPerStart: approxTokens(idx.keptUnits, c.ratio), message: `${head}; move the entries that matter above ${cutAt} or shorten the index` };
  const needed = (s: SessionUse) => lost.some((l) => s.files.has(l.abs));
  const k = c.sessions.filter(needed).length;
  const files = [...new Set(c.sessions.flatMap((s) => lost.filter((l) => s.files.has(l.abs)).map((l) => path.basename(l.abs))))].slice(0, 3);
  return {
    kind: 'memory-cut',
    path: idx.path,
    tokensPerStart: approxTokens(idx.keptUnits, c.ratio),
    sessions: { read: c.sessions.length, used: k },
    message: `${head}; ${k} of the last ${plural(c.sessions.length, 'session')} read a topic file only an entry past the cut points to${files.length ? ` (${files.join(', ')})` : ''}${k ? `: move ${k === 1 ? 'that entry' : 'those entries'} above ${cutAt}` : ': the cut cost them nothing they read'}`,
  };
}

/**
 * The always-loaded texts with their price: each rule without `paths:` (against the files the sessions
 * read), each other CLAUDE.md of the startup block, MEMORY.md over its cut (against the topic files the
 * sessions read), each skill of the listing (against the sessions that called it), each MCP server of
 * `.mcp.json` whose tools no session called. `sessions` may be empty (no transcripts) and `price`
 * undefined (a model without a price): then tokens only, no dollars. `transcripts` reads the sessions'
 * files (a FileAccess with ranges, not the analysis' snapshot, which would hold them).
 */
export function pricedAdvice(a: Analysis, sessions: readonly SessionUse[], price: AdvicePrice | undefined, mcpServers: readonly string[] = [], transcripts: FileAccess = a.env.fs): AdviceItem[] {
  const ratio = a.model.bytesPerToken;
  const c: Ctx = { a, sessions, price, days: sessionDays(sessions), ratio };
  const items: AdviceItem[] = [];
  const over = sessions.length ? ` in the last ${plural(sessions.length, 'session')}` : '';
  for (const e of a.startup) {
    const tokens = approxTokens(e.text.length, ratio);
    if (e.origin.kind === 'rule') {
      items.push(ruleAdvice(c, e, tokens, over));
      continue;
    }
    const dollars = sessions.length && price ? prefixCost(tokens, sessions, price) : undefined;
    const what = e.origin.kind === 'include' ? 'an @import' : e.type === 'AutoMem' ? 'MEMORY.md' : 'an instruction file';
    items.push({
      kind: 'always-loaded', path: e.path, tokensPerStart: tokens,
      ...(sessions.length && { sessions: { read: sessions.length, used: sessions.length } }),
      ...(dollars !== undefined && { dollars }),
      message: `${what}, ≈${n(tokens)} tokens at every session start${dollars !== undefined ? `; it cost ${money(dollars)}${over} (${n(sessions.reduce((k, s) => k + s.requests, 0))} requests)` : price ? ` (${money(prefixCostOf(tokens, 1, price))} per session start as a cache write)` : ''}`,
    });
  }
  const mem = memoryAdvice(c);
  if (mem) items.push(mem);
  const sv = skillsView(a);
  for (const s of sv.entries) {
    if (s.bundled) continue;
    const tokens = approxTokens(s.chars, ratio);
    const used = sessions.filter((x) => x.skills.has(s.name)).length;
    const dollars = sessions.length && price ? prefixCost(tokens, sessions, price) : undefined;
    const saving = sessions.length && !used ? savingOver(c, tokens, () => false, 'remove the skill or shorten its description') : undefined;
    items.push({
      kind: 'skill-unused', path: s.path ?? s.name, tokensPerStart: tokens,
      ...(sessions.length && { sessions: { read: sessions.length, used } }),
      ...(dollars !== undefined && { dollars }),
      ...(saving && { saving }),
      message: `skill "${s.name}": ≈${n(tokens)} tokens of the listing at every session start${sessions.length ? `; listed in each of the last ${plural(sessions.length, 'session')}, called in ${used}${saving ? `: removing it (or a shorter description) ${savingText(saving, sessions.length)}` : ''}` : ''}`,
    });
  }
  if (sessions.length && mcpServers.length) {
    const unused = mcpServers.filter((m) => !sessions.some((x) => x.mcpServers.has(m)));
    const facts = unused.length ? mcpFactsFromTranscripts(transcripts, sessions.map((s) => ({ file: s.file, mtimeMs: s.endMs ?? 0 })), unused) : {};
    for (const m of unused) {
      const f = facts[m];
      // what the transcripts recorded of it: its deferred tool names (one a line) and its instructions
      const chars = (f?.toolNames ?? []).reduce((k, t) => k + t.length + 1, 0) + (f?.instructions?.length ?? 0);
      const tokens = approxTokens(chars, ratio);
      const saving = chars ? savingOver(c, tokens, () => false, 'remove the server from .mcp.json (or disable it)') : undefined;
      items.push({
        kind: 'mcp-unused', path: m, tokensPerStart: tokens, sessions: { read: sessions.length, used: 0 },
        ...(saving && { saving }),
        message: `MCP server "${m}": none of its tools was called in the last ${plural(sessions.length, 'session')}; ${chars ? `its ${plural(f?.toolNames?.length ?? 0, 'tool name')}${f?.instructions ? ' and instructions' : ''} (≈${n(tokens)} tokens, as the transcripts recorded them) come with every session: removing it ${savingText(saving!, sessions.length)}` : 'its tools are sent with every session (their size is not in the transcripts: `explain --mcp run` measures them)'}`,
      });
    }
  }
  return items;
}
