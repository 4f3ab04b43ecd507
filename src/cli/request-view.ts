// The whole first request for `render --json` (`request`) and `explain` (its split like `/context`): the MCP servers
// the session connects (--mcp-config, --strict-mcp-config), what is known of them (their own answer with `--mcp run`,
// else the user's transcripts), and the engine's firstRequest over the analysis.
import { DiagnosticSink, approxTokens, firstRequest, grouped, mcpFactsFromTranscripts, mcpFindings, resolveMcpServers, type Analysis, type Diagnostic, type FirstRequest, type McpResolution, type McpServerFacts } from '../engine/index.js';
import { nodeFileAccess, configDir, listTranscripts, transcriptDirs, transcriptWidthsFor } from '../engine/index.js';
import { probeMcpServers } from '../ground-truth/mcp-probe.js';
import { many, has, one, UsageError, type FlagSpec, type ParsedArgs } from './args.js';
import { safe, type Style } from './style.js';

export const MCP_FLAGS: Record<string, FlagSpec> = {
  'mcp-config': { value: true, repeat: true },
  'strict-mcp-config': {},
  mcp: { value: true },
};

export interface RequestJson {
  sections: { kind: string; chars: number; text?: string; server?: string }[];
  system: { chars: number };
  tools: { builtIn: string[]; chars: number };
  mcp: { server: string; scope: string; instructions: string | null; toolNames: string[]; deferred: boolean; toolChars: number; from: string | null; error?: string }[];
  deferredToolNames: string[];
  totalChars: number;
  toolSearch: { mode: string; active: boolean; why: string };
  /** `transcript`: the version has no profile and the sizes come from this transcript of the user's */
  profile: { version: string; exact: boolean; transcript?: string };
}

export interface RequestResult {
  request: FirstRequest;
  resolution: McpResolution;
  diagnostics: Diagnostic[];
}

/** the MCP part of the flags, the servers, their facts, the request, and the findings with their cost */
export async function buildRequest(p: ParsedArgs, a: Analysis, prompt?: string): Promise<RequestResult> {
  const mode = one(p, 'mcp');
  if (mode !== undefined && mode !== 'run') throw new UsageError(`--mcp takes "run" (ask the servers themselves); got ${JSON.stringify(mode)}`);
  const sink = new DiagnosticSink();
  const resolution = resolveMcpServers(a.env, a.settings, { mcpConfigFiles: many(p, 'mcp-config'), strictMcpConfig: has(p, 'strict-mcp-config'), version: a.version.requested ?? a.profile.version }, sink);
  let facts: Record<string, McpServerFacts> = {};
  if (mode === 'run') {
    facts = await probeMcpServers(resolution.servers, { env: a.env.env, cwd: a.env.cwd, timeoutMs: 15_000 });
  } else if (resolution.servers.length) {
    const config = configDir(a.env.home, a.env.env);
    facts = mcpFactsFromTranscripts(nodeFileAccess, listTranscripts(nodeFileAccess, transcriptDirs(nodeFileAccess, a.env.cwd, config)), resolution.servers.map((s) => s.name));
  }
  // a version without a profile: the sizes of Claude Code's texts from the user's own transcript of it, when one exists
  const widths = transcriptWidthsFor(a, nodeFileAccess);
  const request = firstRequest(a, { mcp: resolution, facts, prompt, today: new Date().toISOString().slice(0, 10), widths });
  for (const s of request.mcp) {
    const src = resolution.servers.find((x) => x.name === s.server)!;
    if (s.error) sink.add({ path: src.source, severity: 'warning', rule: 'mcp-server-failed', message: s.error });
    else if (!s.from) sink.add({ path: src.source, severity: 'info', rule: 'mcp-tools-unknown', message: `MCP server "${s.server}" (${s.scope}): its tools and instructions are not known (no transcript of this folder names them): run with --mcp run to ask the server` });
  }
  // the cost findings lint gives too (engine: checks/mcp-check.ts)
  const withSearch = request.toolSearch.active ? undefined : firstRequest(a, { mcp: resolution, facts, prompt, toolSearch: 'true', widths });
  for (const d of mcpFindings(a, request, resolution, withSearch)) sink.add(d);
  return { request, resolution, diagnostics: sink.all() };
}

export function requestJson(r: FirstRequest): RequestJson {
  return {
    sections: r.sections.map((s) => ({ kind: s.kind, chars: s.chars, ...(s.text !== undefined && { text: s.text }), ...(s.server !== undefined && { server: s.server }) })),
    system: r.system,
    tools: { builtIn: r.tools.builtIn, chars: r.tools.chars },
    mcp: r.mcp.map((m) => ({ server: m.server, scope: m.scope, instructions: m.instructions ?? null, toolNames: m.toolNames, deferred: m.deferred, toolChars: m.toolChars, from: m.from ?? null, ...(m.error && { error: m.error }) })),
    deferredToolNames: r.deferredToolNames,
    totalChars: r.totalChars,
    toolSearch: { mode: r.toolSearch.kind === 'auto' ? `auto:${r.toolSearch.percent}` : r.toolSearch.kind, active: r.toolSearch.active, why: r.toolSearch.why },
    profile: { version: r.profileVersion, exact: r.exactProfile, ...(r.widthsFrom && { transcript: r.widthsFrom }) },
  };
}

export interface ContextRow {
  label: string;
  chars: number;
  tokens: number;
}

/** the request split like `/context`: system prompt, built-in tools, each MCP server's tools, MCP instructions,
 *  memory files, skills, agents and the other fixed texts, messages, then free space and the auto-compact buffer */
export function contextRows(r: FirstRequest, a: Analysis, ratio: number): { rows: ContextRow[]; window: number } {
  const sum = (k: string) => r.sections.filter((s) => s.kind === k).reduce((n, s) => n + s.chars, 0);
  const row = (label: string, chars: number): ContextRow => ({ label, chars, tokens: approxTokens(chars, ratio) });
  const rows = [row('System prompt', sum('system-prompt') + sum('memory-section')), row('Tools (built-in)', sum('tools-built-in'))];
  for (const s of r.sections.filter((x) => x.kind === 'tools-mcp')) rows.push(row(`MCP tools: ${s.server}`, s.chars));
  rows.push(row('Deferred tools listing', sum('deferred-tools')), row('MCP instructions', sum('mcp-instructions')), row('Memory files', sum('startup')));
  rows.push(row('Skills', sum('skills')), row('Environment, git status, agents, date', sum('fixed-messages')), row('Messages (prompt)', sum('prompt')));
  const window = a.model.contextWindow;
  const used = rows.reduce((n, x) => n + x.tokens, 0);
  const buffer = a.profile.session.autoCompact.reserveTokens + a.profile.session.autoCompact.bufferTokens;
  rows.push({ label: 'Free space', chars: 0, tokens: Math.max(0, window - used - buffer) }, { label: 'Autocompact buffer', chars: 0, tokens: buffer });
  return { rows, window };
}

export function renderRequestText(r: FirstRequest, a: Analysis, st: Style): string {
  const ratio = a.model.bytesPerToken;
  const { rows, window } = contextRows(r, a, ratio);
  const out: string[] = [];
  out.push(st.bold(`The whole first request (Claude Code ${r.profileVersion}${r.widthsFrom ? ', sizes from your own transcript of it' : r.exactProfile ? '' : ', nearest measured'}): ${grouped(r.totalChars)} chars, ≈${grouped(approxTokens(r.totalChars, ratio))} of ${grouped(window)} tokens`));
  if (r.widthsFrom) out.push(`  no profile for ${safe(r.profileVersion)}: the system prompt and tool sizes are exact, read from ${safe(r.widthsFrom)} (its first request); deferred tools and Claude Code's message texts are the nearest profile's`);
  out.push(`  tool search: ${safe(r.toolSearch.why)}`);
  const w = Math.max(...rows.map((x) => x.label.length));
  for (const x of rows) out.push(`  ${safe(x.label).padEnd(w)}  ${x.chars ? `${grouped(x.chars).padStart(9)} chars` : ' '.repeat(15)}  ≈${grouped(x.tokens).padStart(9)} tokens  ${((x.tokens / window) * 100).toFixed(1).padStart(5)}%`);
  for (const m of r.mcp) {
    const tools = m.toolNames.length ? `${m.toolNames.length} tools ${m.deferred ? 'deferred (named only)' : `sent whole, ${grouped(m.toolChars)} chars`}` : 'tools unknown';
    out.push(`  MCP ${safe(m.server)} (${m.scope}): ${tools}; instructions ${m.instructions === undefined ? 'none known' : `${grouped(m.instructions.length)} chars`}${m.error ? `; ${safe(m.error)}` : ''}`);
  }
  return out.join('\n') + '\n';
}
