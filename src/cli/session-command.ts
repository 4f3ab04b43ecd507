// `claude-layers session`: the Claude Code session running (or last run) in the launch directory,
// read from its transcript: the turns with what each request carried, real usage, the layers of the
// last request, what comes next, and the engine's prediction over the same tool calls.
import * as path from 'node:path';
import {
  analyze,
  chooseProfile,
  configDir,
  listTranscripts,
  grouped,
  nodeFileAccess,
  readLiveSessionState,
  isRunning,
  lastRecordTime,
  summarizeTranscript,
  sumCosts,
  agentsByCall,
  callTarget,
  groupHookRuns,
  transcriptDirs,
  LiveReader,
  type LiveSession,
  type LiveSessionState,
  type NextSteps,
  type PredictionFinding,
  type ContextCategory,
  type SessionContextSplit,
} from '../engine/index.js';
import { has, one, parseArgs, UsageError } from './args.js';
import { ENGINE_FLAGS, engineOptions } from './engine-options.js';
import { jsonText, jsonWrite } from './escape.js';
import { safe, type Style } from './style.js';

const FLAGS = { ...ENGINE_FLAGS, transcript: { value: true }, list: {}, watch: {}, check: {}, json: {} };


export interface SessionJson {
  session: {
    transcript: string;
    /** the launch folder the session was read against (its own `cwd` unless --cwd named one), and whether it is on this machine */
    cwd?: string;
    cwdOnDisk?: boolean;
    sessionId?: string;
    version?: string;
    profile: string;
    profileNote?: string;
    model?: string;
    source: LiveSession['source'];
    running: boolean;
    lastWritten?: string;
    /** the last record's own time (not the file's) */
    endedAt?: string;
    /** the versions that wrote the transcript, in order, when it was resumed by another binary */
    versions?: string[];
    /** marks before the first turn (a local command typed first) */
    marks: LiveSession['marks'];
    /** the transcript is a subagent's own */
    subagent?: LiveSession['subagent'];
    turns: LiveSession['turns'];
    requests: LiveSession['requests'];
    tokensPerChar: number | null;
    next: NextSteps;
    findings: PredictionFinding[];
    /** calls the engine does not model (bundled, plugin and claude.ai skills, MCP tools, …): never a difference, each listed once */
    notModelled: LiveSessionState['notModelled'];
    problems: LiveSession['problems'];
    unknownTypes: Record<string, number>;
    warnings: string[];
    // ---- issue 31 part B: cost, MCP servers, listings, derived breakdown (engine: transcript/turn-figures.ts)
    /** USD of every priced request, the main loop's and its subagents' and workflow agents' (list prices, or the managed
     *  modelPricing); null when none could be priced */
    cost: number | null;
    /** the subagents' and workflow agents' own transcripts summed (each one is under its turn: `turns[].agents`) */
    agents: LiveSession['figures']['agents'];
    /** every turn's requests and the agents', with their usage summed */
    totals: LiveSession['figures']['totals'];
    /** models without a price: their requests are left out of `cost` */
    unpriced: string[];
    mcp: LiveSession['figures']['listings']['mcp'];
    listings: { deferredBuiltIn: string[]; deferredChars: number; agents: { types: string[]; chars: number }; skills: { names: string[]; count: number; chars: number } | null };
    /** a version that records no request: the context by layer, every figure marked `derived` */
    breakdown: LiveSession['figures']['breakdown'];
    // ---- end of part B
    /** the last recorded request split like `/context` (issue 32; engine: transcript/context-split.ts) */
    context: SessionContextSplit | null;
  };
}

export interface SessionOutput {
  output: string;
  exitCode: number;
  /** the output handed to `write` in pieces (`--json`: a session of a million calls is never one string in memory) */
  writeTo?: (write: (s: string) => void) => void;
}

interface Resolved {
  file: string;
  options: ReturnType<typeof engineOptions>;
  /** the launch folder the user named (--cwd), on this machine or not; else the session's own is taken */
  cwdGiven?: string;
}

/** `YYYY-MM-DD HH:MM` of an ISO time, the date left out when it is `today` (YYYY-MM-DD) */
export function shortTime(iso: string, today?: string, seconds = false): string {
  const t = iso.replace('T', ' ').slice(0, seconds ? 19 : 16);
  return today && t.startsWith(today) ? t.slice(11) : t;
}

function resolve(argv: string[]): { p: ReturnType<typeof parseArgs>; r?: Resolved; list?: string } {
  const p = parseArgs(argv, FLAGS);
  if (p.positionals.length > 1) throw new UsageError(`session takes one transcript (a FILE or a session id), got ${p.positionals.length}: ${p.positionals.join(' ')}`);
  if (p.positionals.length && one(p, 'transcript') !== undefined) throw new UsageError(`give the transcript once: ${p.positionals[0]} and --transcript ${one(p, 'transcript')}`);
  // --cwd may name a launch folder that is not on this machine (a session copied from another one):
  // its transcripts are found by the folder's key; the engine's options are taken without it
  const cwdFlag = one(p, 'cwd');
  const cwdGiven = cwdFlag === undefined ? undefined : path.resolve(cwdFlag);
  let cwdOnDisk = true;
  if (cwdGiven !== undefined) {
    const st = nodeFileAccess.stat(cwdGiven);
    cwdOnDisk = st.ok && st.value.kind === 'dir';
    if (!cwdOnDisk && st.ok) throw new UsageError(`--cwd ${cwdFlag} is not a folder`);
  }
  const options = cwdOnDisk ? engineOptions(p) : { ...engineOptions({ ...p, flags: new Map([...p.flags].filter(([k]) => k !== 'cwd')) }), cwd: cwdGiven! };
  const launch = cwdGiven ?? options.cwd;
  const home = options.home ?? options.env?.HOME ?? '';
  const config = configDir(home, options.env ?? {});
  const dirs = transcriptDirs(nodeFileAccess, launch, config);
  if (has(p, 'list')) {
    const all = listTranscripts(nodeFileAccess, dirs);
    if (!all.length) return { p, list: `No Claude Code session found for ${safe(launch)} (looked in ${dirs.map(safe).join(', ')})\n` };
    const now = Date.now();
    const today = new Date(now).toISOString().slice(0, 10);
    const rows = all.map((t) => {
      // the last record's own time (a copied file's time says when it was copied)
      const ended = lastRecordTime(nodeFileAccess, t.file, t.size);
      const when = ended ? `ended ${shortTime(ended, today)}` : `written ${shortTime(new Date(t.mtimeMs).toISOString(), today)}`;
      // how a person knows it: its title or first prompt, its branch (summarizeTranscript: the picker's too)
      const sum = summarizeTranscript(nodeFileAccess, t.file, t.size);
      const what = sum.title ?? sum.firstPrompt;
      const known = [what ? JSON.stringify(short(what.replace(/\s+/g, ' '), 70)) : '(no prompt)', sum.title && sum.firstPrompt ? `first prompt ${JSON.stringify(short(sum.firstPrompt.replace(/\s+/g, ' '), 40))}` : '', sum.gitBranch ? `branch ${sum.gitBranch}` : ''].filter(Boolean).join(' · ');
      return `  ${safe(t.sessionId)}  ${safe(when).padEnd(22)}  ${String(Math.round(t.size / 1024)).padStart(7)} KB${isRunning(t.mtimeMs, ended, now) ? '  running' : ''}\n    ${safe(known)}\n    ${safe(t.file)}`;
    });
    return { p, list: `Claude Code sessions of ${safe(launch)}${cwdOnDisk ? '' : ' (not on this machine)'}, newest first:\n${rows.join('\n')}\n` };
  }
  const given = one(p, 'transcript');
  if (given) return { p, r: { file: path.resolve(given), options, cwdGiven } };
  const named = p.positionals[0];
  if (named !== undefined) {
    // a path (what people type first), else a session id or its first characters among the launch folder's sessions
    const st = nodeFileAccess.stat(path.resolve(named));
    if (st.ok || /[/\\]|\.jsonl$/i.test(named)) return { p, r: { file: path.resolve(named), options, cwdGiven } };
    const hits = listTranscripts(nodeFileAccess, dirs).filter((t) => t.sessionId.startsWith(named));
    if (hits.length === 1) return { p, r: { file: hits[0]!.file, options, cwdGiven } };
    if (hits.length > 1) throw new UsageError(`${named} names ${hits.length} sessions of ${launch}: ${hits.slice(0, 5).map((t) => t.sessionId).join(', ')}${hits.length > 5 ? ', …' : ''}`);
    throw new UsageError(`${named} is neither a file nor a session of ${launch} (looked in ${dirs.join(', ')}; \`--list\` shows them)`);
  }
  const newest = listTranscripts(nodeFileAccess, dirs)[0];
  if (!newest) throw new UsageError(`no Claude Code session found for ${launch} (looked in ${dirs.join(', ')}); give --transcript FILE`);
  return { p, r: { file: newest.file, options, cwdGiven } };
}

/** `follow`: for --watch, the reader and the last state (what comes next and the prediction are
 *  computed again only when the turns changed) */
export function sessionJson(r: Resolved, follow?: { reader: LiveReader; state?: LiveSessionState }): SessionJson {
  const versionFlag = r.options.claudeVersion;
  // the profile of the version that wrote the transcript, unless --claude-version says otherwise
  let choice = chooseProfile(versionFlag);
  const state = readLiveSessionState(nodeFileAccess, r.file, {
    profile: (v) => (choice = chooseProfile(versionFlag ?? v)).profile,
    analysis: (profile, cwd) => analyze({ ...r.options, cwd, claudeVersion: profile.version }),
    cwd: r.cwdGiven ?? r.options.cwd,
    cwdGiven: r.cwdGiven !== undefined,
    reader: follow?.reader,
    previous: follow?.state,
  });
  if (follow) follow.state = state;
  const { live, next, findings, notModelled } = state;
  const st = nodeFileAccess.stat(r.file);
  const mtime = st.ok ? st.value.mtimeMs : undefined;
  return {
    session: {
      transcript: live.transcript,
      ...(state.launch && { cwd: state.launch.cwd, cwdOnDisk: state.launch.onDisk }),
      sessionId: live.sessionId,
      version: live.version,
      profile: choice.profile.version,
      ...(choice.note && { profileNote: choice.note }),
      model: live.model,
      source: live.source,
      running: isRunning(mtime, live.lastTimestamp),
      lastWritten: mtime !== undefined ? new Date(mtime).toISOString() : undefined,
      endedAt: live.lastTimestamp,
      ...(live.versions.length > 1 && { versions: live.versions }),
      marks: live.marks,
      ...(live.subagent && { subagent: live.subagent }),
      turns: live.turns,
      requests: live.requests,
      tokensPerChar: live.tokensPerChar,
      next: next!,
      findings,
      notModelled,
      problems: live.problems,
      unknownTypes: live.unknownTypes,
      warnings: live.warnings,
      ...partB(live),
      context: state.context ?? null,
    },
  };
}

/** issue 31 part B's keys of `session` */
function partB(live: LiveSession): Pick<SessionJson['session'], 'cost' | 'agents' | 'totals' | 'unpriced' | 'mcp' | 'listings' | 'breakdown'> {
  const f = live.figures;
  const { mcp, ...listings } = f.listings;
  return { cost: f.cost, agents: f.agents, totals: f.totals, unpriced: f.unpriced, mcp, listings, breakdown: f.breakdown };
}

const n = grouped;
const usd = (x: number) => (x >= 0.995 || x === 0 ? `$${x.toFixed(2)}` : `$${x.toFixed(3)}`);

/** a turn's requests, tokens, cost, cache state and hooks (issue 31 part B) */
function turnFigures(t: SessionJson['session']['turns'][number], st: Style): string[] {
  const out: string[] = [];
  const u = t.usage;
  if (u && t.requests) {
    const hit = t.cache?.hitRatio;
    out.push(`  ${n(t.requests)} request${t.requests === 1 ? '' : 's'} · ${n(u.input)} in + ${n(u.cacheRead)} cache read + ${n(u.cacheCreation)} cache write, ${n(u.output)} out${t.cost !== undefined && t.cost !== null ? ` · ${usd(t.cost)}` : t.cost === null ? ' · no price for its model' : ''}${hit !== null && hit !== undefined ? ` · cache hit ${(hit * 100).toFixed(0)}%` : ''}`);
  }
  const b = t.cache?.break;
  if (b) out.push(st.yellow(`  cache break at request ${b.request + 1}: ${n(b.lost)} cached tokens not read, ${n(b.written)} written again · ${safe(b.why)}${b.also?.length ? ` (also: ${b.also.join(', ')})` : ''}`));
  // a hook that ran after each of many calls: one line, how many times
  for (const h of groupHookRuns(t.hooks ?? []))
    out.push(`  hook ${safe(h.event)}${h.command ? ` ${safe(short(h.command, 50))}${h.commandFrom ? ' (named from the settings)' : ''}` : ''}${h.runs > 1 ? ` ×${h.runs}` : ''}: ${h.chars === null ? 'ran (this version records no output)' : `${n(h.chars)} chars to the model`}${h.dropped ? st.yellow(' · output dropped (printed, nothing reached the model)') : ''}`);
  return out;
}
const short = (s: string, max = 60) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

type Agent = NonNullable<SessionJson['session']['turns'][number]['agents']>[number];
/** agents listed one a line under a call; past it, the rest summed */
const MAX_AGENT_LINES = 20;

const tokens = (u: Agent['usage']) => `${n(u.input)} in + ${n(u.cacheRead)} cache read + ${n(u.cacheCreation)} cache write, ${n(u.output)} out`;
const price = (c: number | null) => (c === null ? 'no price for its model' : usd(c));

/** the agents a call (or, without one, the turn) started: one line each, their requests, tokens and cost */
function agentLines(agents: Agent[], indent: string): string[] {
  const out = agents.slice(0, MAX_AGENT_LINES).map((a) => `${indent}agent ${safe(a.agentId)} (${a.workflow ? `workflow ${safe(a.workflow)}` : safe(a.agentType ?? 'subagent')}): ${n(a.requests)} request${a.requests === 1 ? '' : 's'} · ${tokens(a.usage)} · ${price(a.cost)}`);
  const rest = agents.slice(MAX_AGENT_LINES);
  if (rest.length) {
    out.push(`${indent}… ${rest.length} more agent(s): ${n(rest.reduce((x, a) => x + a.requests, 0))} requests · ${price(sumCosts(rest.map((a) => a.cost)))}`);
  }
  return out;
}

function rel(p: string, cwd: string): string {
  const r = path.relative(cwd, p);
  return r && !r.startsWith('..') && !path.isAbsolute(r) ? r : p;
}

/** how `/context` names each category */
export const CONTEXT_LABELS: Record<ContextCategory, string> = {
  'system-prompt': 'System prompt',
  'tools-built-in': 'Tools (built-in)',
  'tools-mcp': 'MCP tools',
  'mcp-instructions': 'MCP instructions',
  'memory-files': 'Memory files',
  skills: 'Skills',
  agents: 'Agents',
  'deferred-tools': 'Deferred tools listing',
  messages: 'Messages',
  'free-space': 'Free space',
  'autocompact-buffer': 'Autocompact buffer',
};

/** the last request split like `/context`, MCP per server with what ToolSearch loaded and when */
function contextText(c: SessionContextSplit, st: Style): string[] {
  const out = [`${st.bold('Context like /context')} (request ${safe(c.request.id)}, turn ${c.request.turn + 1}: ${n(c.totalChars)} chars${c.contextTokens !== null ? `, ${n(c.contextTokens)} tokens by its usage` : ''}; ${c.tokensPerChar.from === 'usage' ? "tokens at the request's own ratio" : "tokens at the model's assumed ratio"}, window ${n(c.window)}):`];
  const label = (r: SessionContextSplit['rows'][number]) => (r.server !== undefined ? `${CONTEXT_LABELS[r.category]}: ${safe(r.server)}` : CONTEXT_LABELS[r.category]);
  const w = Math.max(...c.rows.map((r) => label(r).length));
  for (const r of c.rows) out.push(`  ${label(r).padEnd(w)}  ${r.chars !== null ? `${n(r.chars).padStart(9)} chars` : ' '.repeat(15)}  ≈${n(r.tokens).padStart(9)} tokens  ${((r.tokens / c.window) * 100).toFixed(1).padStart(5)}%`);
  const when = (t: SessionContextSplit['loadedBuiltIn'][number]) => `${safe(t.tool)} (turn ${t.turn + 1}, ${n(t.chars)} chars${t.inLastRequest ? '' : ', no longer sent'})`;
  for (const m of c.mcp)
    out.push(`  MCP ${safe(m.server)}: tools ${n(m.toolChars)} chars sent · instructions ${n(m.instructionsChars)} chars · ${m.deferredTools.length} deferred${m.loaded.length ? ` · loaded by ToolSearch: ${m.loaded.map(when).join(', ')}` : ''}`);
  if (c.loadedBuiltIn.length) out.push(`  built-in tools loaded by ToolSearch: ${c.loadedBuiltIn.map(when).join(', ')}`);
  return out;
}

/** the timeline a person reads in one screen */
export function sessionText(j: SessionJson, cwd: string, st: Style): string {
  const s = j.session;
  const out: string[] = [];
  const ended = s.endedAt ?? s.lastWritten;
  const when = s.running ? st.green('running') : `ended ${ended ? safe(shortTime(ended)) : '?'}`;
  const versions = s.versions ? `Claude Code ${s.versions.map(safe).join(' → ')} (resumed by another binary)` : `Claude Code ${safe(s.version ?? '?')}`;
  const ag = s.agents;
  const ofAgents = ag.files ? `${ag.files} agent${ag.files === 1 ? '' : 's'}${ag.cost !== null ? ` ${usd(ag.cost)}` : ''}` : '';
  const notes = [ofAgents ? `with ${ofAgents}` : '', s.unpriced.length ? `no price for ${s.unpriced.map(safe).join(', ')}` : ''].filter(Boolean);
  const cost = s.cost !== null ? ` · ${usd(s.cost)}${notes.length ? ` (${notes.join('; ')})` : ''}` : '';
  out.push(`${st.bold(s.subagent ? 'Subagent transcript' : 'Session')} ${safe(s.sessionId ?? '?')} · ${versions}${s.profileNote ? ` (${safe(s.profileNote)})` : ''} · ${safe(s.model ?? 'model ?')}${cost} · ${when}`);
  out.push(`  ${safe(s.transcript)}${s.source === 'attachments' ? ' · this version records no requests: texts from its attachments, the startup block not recorded' : ''}`);
  for (const w of s.warnings) if (/^the session was launched in |^this is a subagent's own transcript/.test(w)) out.push(st.yellow(`  ${safe(w)}`));
  const c = s.next.context;
  if (c) {
    const pct = (c.fraction * 100).toFixed(1);
    const auto = c.autoCompactAt ? ` · auto-compacts at ${n(c.autoCompactAt)} (${n(Math.max(0, c.autoCompactAt - c.tokens))} to go)` : '';
    out.push(`  context now: ${n(c.tokens)} of ${n(c.window)} tokens (${pct}%, from the last request's usage)${auto}`);
    out.push(`  window: ${safe(c.windowWhy ?? "?")}${c.autoCompactWhy ? ` · auto-compaction: ${safe(c.autoCompactWhy)}` : ''}`);
  }
  for (const m of s.mcp) out.push(`  MCP ${safe(m.server)}: instructions ${n(m.instructionsChars)} chars${m.deferredTools.length ? ` · ${m.deferredTools.length} deferred tool(s)` : ''}${m.loadedToolChars !== null ? ` · tools ${n(m.loadedToolChars)} chars` : ''}`);
  out.push('');
  // a turn's time carries its date when the day changed since the turn before (or, first, when it is not today)
  const today = new Date().toISOString().slice(0, 10);
  let day = today;
  const at = (iso: string | undefined) => {
    if (!iso) return '';
    const d = iso.slice(0, 10);
    const t = d === day ? iso.slice(11, 19) : `${d} ${iso.slice(11, 19)}`;
    day = d;
    return safe(t);
  };
  const markLine = (m: SessionJson['session']['marks'][number]) => {
    const time = at(m.at);
    if (m.kind === 'local-command') return `  · ${safe(m.text ?? '/?')} (local command${m.output ? `: ${safe(short(m.output.replace(/\s+/g, ' '), 60))}` : ''}) ${time}`;
    if (m.kind === 'interrupt') return st.yellow(`  · interrupted by the user ${time}`);
    if (m.kind === 'notification') return `  · notification (sent to the model): ${safe(short((m.text ?? '').replace(/\s+/g, ' '), 80))} ${time}`;
    if (m.kind === 'withdrawn') return `  · typed while it worked, taken back unsent: ${safe(JSON.stringify(short(m.text ?? '', 60)))} ${time}`;
    if (m.kind === 'queued') return `  · typed while it worked (sent to the model in this turn): ${safe(JSON.stringify(short(m.text ?? '', 60)))} ${time}`;
    if (m.kind === 'resume') return st.yellow(`  · resumed by Claude Code ${safe(m.to ?? '?')} (was ${safe(m.from ?? '?')}) ${time}`);
    if (m.kind === 'compaction' && m.trigger === 'micro') return st.yellow(`  · old tool results cleared (microcompaction${m.cleared !== undefined ? `: ${n(m.cleared)} result(s)` : ''}${m.saved !== undefined ? `, ${n(m.saved)} tokens saved` : ''}${m.preTokens ? ` of ${n(m.preTokens)}` : ''}) ${time}`);
    if (m.kind === 'compaction') return st.yellow(`  · compacted${m.trigger ? ` (${safe(m.trigger)}${m.preTokens ? `, ${n(m.preTokens)} tokens before` : ''})` : ''}${m.summaryChars !== undefined ? ` · summary ${n(m.summaryChars)} chars` : ''} ${time}`);
    return st.yellow(`  · rewound: ${m.prompts?.length ?? 0} prompt(s) abandoned (${(m.prompts ?? []).slice(0, 3).map((p) => safe(JSON.stringify(short(p, 30)))).join(', ')}), ${m.calls ?? 0} call(s), ${m.requests ?? 0} request(s) ${time}`);
  };
  for (const m of s.marks) out.push(markLine(m));
  s.turns.forEach((t, k) => {
    const time = at(t.timestamp);
    const resumed = t.resumed ? st.yellow(' · resumed (a new claude process on this session)') : '';
    const comp = t.compacted && !t.marks.some((m) => m.kind === 'compaction' && m.trigger !== 'micro') ? st.yellow(` · compacted (${t.compacted.trigger}${t.compacted.preTokens ? `, ${n(t.compacted.preTokens)} tokens before` : ''})`) : '';
    const inst = t.instructions !== null ? ` · startup block ${n(t.instructions.length)} chars` : '';
    const label = t.kind === 'command' ? safe(short(t.prompt)) : safe(JSON.stringify(short(t.prompt)));
    const size = t.kind === 'command' && t.promptChars > t.prompt.length ? ` (command, ${n(t.promptChars)} chars sent)` : '';
    out.push(`${st.bold(`Turn ${k + 1}`)} ${label}${size} ${time}${inst}${resumed}${comp}`);
    out.push(...turnFigures(t, st));
    if (t.changedNotes) out.push(`  notes: ${[...t.changedNotes.matchAll(/^Note: (\/[^\n]*?) changed on disk/gm)].map((m) => safe(rel(m[1]!, cwd))).join(', ')} changed on disk`);
    if (t.restored) out.push(`  brought back: ${t.restored.files.map((f) => safe(rel(f.path, cwd))).join(', ') || 'no file'}${t.restored.skills ? ' · the invoked skills' : ''}`);
    const agents = agentsByCall(t.calls, t.agents);
    for (const call of t.calls) {
      // what the call was about (call-target.ts: its file, skill, agent, command, pattern, query, question, task…)
      const about = callTarget(call.input);
      const target = about.file !== undefined ? rel(about.file, cwd) : short(about.text, 40);
      const got: string[] = [];
      if (call.injected.length) got.push(call.injected.map((i) => `${safe(rel(i.path, cwd))} (${n(i.text.length)} chars)`).join(', '));
      if (call.skillBody !== null) got.push(`skill body ${n(call.skillBody.length)} chars`);
      if (call.agent) got.push(`subagent ${safe(call.agent.type)}: ${call.agent.instructions === null ? 'no instruction file' : `startup block ${n(call.agent.instructions.length)} chars`}`);
      if (call.error) got.push(st.red(`error: ${safe(short(call.error, 80))}`));
      const started = agents.ofCall.get(call.id) ?? [];
      const runs = [...new Set(started.map((a) => a.workflow).filter((w) => w !== null))];
      if (runs.length) {
        got.push(`workflow ${runs.map(safe).join(', ')}: ${started.length} agent${started.length === 1 ? '' : 's'}, ${n(started.reduce((x, a) => x + a.requests, 0))} requests, ${price(sumCosts(started.map((a) => a.cost)))}`);
      }
      out.push(`  ${safe(call.name)} ${safe(target)}${got.length ? ` → ${got.join(' · ')}` : ''}`);
      out.push(...agentLines(started, '    '));
    }
    // agents no call of the turn started (placed by the time they started)
    out.push(...agentLines(agents.unplaced, '  '));
    for (const m of t.marks) out.push(markLine(m));
  });
  const last = [...s.requests].reverse().find((r) => r.chars);
  if (last?.chars) {
    const l = last.chars;
    const tpc = s.tokensPerChar;
    const tok = (x: number) => (tpc ? ` ≈${n(Math.round(x * tpc))} tok` : '');
    const parts = [
      ['system', l.system],
      ['tools', l.tools],
      ...Object.entries(l.mcp).map(([k, v]) => [`MCP ${k}`, v] as const),
      ['startup instructions', l.instructions],
      ['skills listing', l.skillsListing],
      ['MCP instructions', l.mcpInstructions],
      ['agent listing', l.agents],
      ['deferred-tools listing', l.deferredListing],
      ["Claude Code's other texts", l.fixedTexts],
      ['lazy instructions', l.lazy],
      ['skill bodies', l.skillBodies],
      ['hook output', l.hooks],
      ['changed-on-disk notes', l.changedNotes],
      ['restored by /compact', l.restored],
      ['conversation', l.conversation],
    ].filter(([, v]) => (v as number) > 0);
    out.push('');
    out.push(`${st.bold('Last request')} (${n(l.total)} chars${last.contextTokens ? `, ${n(last.contextTokens)} tokens by its usage` : ''}; ≈tok from this session's own tokens per char):`);
    for (const [k, v] of parts) out.push(`  ${String(k).padEnd(22)} ${n(v as number).padStart(9)} chars${tok(v as number)}`);
  }
  if (s.context) out.push('', ...contextText(s.context, st));
  if (s.breakdown) {
    const tpc = s.breakdown.tokensPerChar;
    out.push('');
    out.push(`${st.bold('Context by layer')} (this version records no request: derived from the records and the first request's usage; ${tpc.value.toFixed(3)} tokens per char, ${tpc.from === 'session' ? "the session's own" : 'assumed'}):`);
    for (const l of s.breakdown.layers) out.push(`  ${safe(l.layer).padEnd(46)} ${l.chars !== null ? `${n(l.chars).padStart(9)} chars` : ' '.repeat(15)}${l.tokens !== null ? ` ≈${n(l.tokens)} tok` : ''}${l.derived ? ' (derived)' : ''}`);
  }
  const nx = s.next;
  out.push('');
  out.push(st.bold('Next'));
  const noted = nx.held.filter((h) => h.noted);
  const stale = nx.held.filter((h) => h.changedAt && !h.noted);
  out.push(`  next turn: ${noted.length ? `a "changed on disk" note for ${noted.map((h) => safe(rel(h.path, cwd))).join(', ')}` : 'no "changed on disk" note'}`);
  if (stale.length) out.push(`  changed since the model read them, never noted: ${stale.map((h) => safe(rel(h.path, cwd))).join(', ')}`);
  if (nx.startupEdited.length) out.push(`  startup files edited since the session started (not seen until /compact or /clear): ${nx.startupEdited.map((e) => safe(rel(e.path, cwd))).join(', ')}`);
  if (nx.compact) {
    const back = [...nx.compact.files.map((f) => safe(rel(f, cwd))), ...nx.compact.skills.map((k) => `skill ${safe(k)}`)];
    out.push(`  /compact now brings back: ${back.join(', ') || 'no file, no skill'}; the startup block rebuilt from the disk${nx.compact.instructionsChars !== null ? ` (${n(nx.compact.instructionsChars)} chars)` : ''}`);
    if (nx.compact.dropped.length) out.push(`  and drops: ${nx.compact.dropped.map((d) => `${safe(rel(d.path, cwd))} (${safe(d.why)})`).join(', ')}`);
  }
  out.push('');
  const real = s.findings.filter((f) => !f.explained);
  const modelled = s.notModelled.length ? ' it models' : '';
  if (!s.turns.length && !s.findings.length) out.push(`${st.bold('Prediction')}: no turn to compare yet`);
  else if (!s.findings.length) out.push(`${st.bold('Prediction')}: the engine predicts every lazy injection and skill call of this session${modelled}`);
  else {
    out.push(`${st.bold('Prediction')}: ${real.length} difference(s)${s.findings.length > real.length ? `, ${s.findings.length - real.length} explained by files changed since` : ''}`);
    const chars = (t: string | null) => (t === null ? 'none' : `${n(t.length)} chars`);
    for (const f of s.findings.slice(0, 12)) {
      // what was predicted and what came, with both sizes
      const what =
        f.kind === 'not-received'
          ? `predicted (${chars(f.predicted)}), never received`
          : f.kind === 'not-predicted'
            ? `received (${chars(f.actual)}), not predicted`
            : f.kind === 'text'
              ? `received with another text: predicted ${chars(f.predicted)}, came ${chars(f.actual)}`
              : `skill body predicted ${chars(f.predicted)}, came ${chars(f.actual)}`;
      out.push(`  turn ${f.turn + 1} call ${f.call + 1}: ${safe(rel(f.path, cwd))}: ${what}${f.explained ? ` (${safe(f.explained)})` : ''}`);
    }
  }
  if (s.notModelled.length) {
    out.push(`  not modelled (not compared): ${s.notModelled.map((m) => `${m.kind === 'skill' ? 'skill ' : m.kind === 'mcp-tool' ? 'MCP tool ' : ''}${safe(m.name)}${m.calls > 1 ? ` ×${m.calls}` : ''}`).join(', ')}`);
    for (const why of new Set(s.notModelled.map((m) => m.why))) out.push(`    ${safe(why)}: ${s.notModelled.filter((m) => m.why === why).map((m) => safe(m.name)).join(', ')}`);
  }
  if (s.problems.length || Object.keys(s.unknownTypes).length) {
    out.push('');
    // (line 0: the file as a whole, its reason names it)
    for (const p of s.problems.slice(0, 8)) out.push(st.yellow(`  ${p.file ? `${safe(path.basename(p.file))}${p.line ? ` line ${p.line}` : ''}: ` : p.line ? `line ${p.line}: ` : ''}${safe(p.reason)}`));
    if (s.problems.length > 8) out.push(st.yellow(`  … ${s.problems.length - 8} more`));
    const u = Object.entries(s.unknownTypes);
    if (u.length) out.push(`  record types this reader does not know: ${u.map(([k, v]) => `${safe(k)} (${v})`).join(', ')}`);
  }
  return out.join('\n') + '\n';
}

export function sessionCommand(argv: string[], st: Style): SessionOutput {
  const { p, r, list } = resolve(argv);
  if (list !== undefined) return { output: list, exitCode: 0 };
  const j = sessionJson(r!);
  const unexplained = j.session.findings.filter((f) => !f.explained).length;
  const exitCode = has(p, 'check') && unexplained ? 1 : 0;
  if (!has(p, 'json')) return { output: sessionText(j, j.session.cwd ?? r!.options.cwd, st), exitCode };
  return {
    get output() {
      return `${jsonText(j)}\n`;
    },
    exitCode,
    writeTo: (write) => {
      jsonWrite(j, write);
      write('\n');
    },
  };
}

/** --watch: the timeline again each time the transcript grows or an agent of it writes (polled; Ctrl-C ends it) */
export function watchSession(argv: string[], st: Style, write: (s: string) => void, intervalMs = 1000): { stop(): void } {
  const { p, r } = resolve(argv);
  if (!r) throw new UsageError('--watch with --list: choose one');
  const follow: { reader: LiveReader; state?: LiveSessionState } = { reader: new LiveReader(nodeFileAccess, r.file) };
  let last = '';
  const tick = () => {
    const j = sessionJson(r, follow);
    // the transcript grew, or an agent wrote (a workflow's agents write in the background while the session rests)
    const key = `${follow.reader.follower.parser.lines}:${JSON.stringify(j.session.agents)}`;
    if (key === last) return;
    last = key;
    write(has(p, 'json') ? `${jsonText(j, 0)}\n` : `\u001b[2J\u001b[H${sessionText(j, j.session.cwd ?? r.options.cwd, st)}`);
  };
  tick();
  const t = setInterval(tick, intervalMs);
  return { stop: () => clearInterval(t) };
}
