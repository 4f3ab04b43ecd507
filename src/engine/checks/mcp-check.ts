// MCP findings with their cost (issue 32, point 3), for `lint` (and so the editor's diagnostics) and for `render` /
// `explain`: tool search turned off with the characters of schemas it sends at every start; a server's instructions or
// tool descriptions cut at the version's cap (and the variable that changes it); one server name defined in two scopes
// (which one wins); a server configured and never connected in the user's own sessions of this folder (their
// transcripts, read only). Each message is an English template with {0}-style arguments, so that the editor shows it
// in the user's language (MCP_MESSAGES; the host translates by rule and `args`).
import type { Analysis } from '../analysis.js';
import { DiagnosticSink, grouped, type Diagnostic } from '../diagnostics.js';
import type { FileAccess } from '../files/file-access.js';
import { resolveMcpServers, type McpResolution, type McpServer } from '../mcp/config.js';
import { mcpConnectionsInTranscripts, mcpFactsFromTranscripts } from '../mcp/transcript-facts.js';
import type { McpServerFacts } from '../mcp/facts.js';
import { firstRequest, type FirstRequest } from '../request/first-request.js';
import { transcriptWidthsFor } from '../request/transcript-widths.js';
import { configDir, sessionFilesIn, transcriptDirs, type TranscriptFile } from '../transcript/session.js';

/** the English templates, by rule and case; {0}… are `args` */
export const MCP_MESSAGES = {
  toolSearchOff: 'tool search is off ({0}): {1} characters of tool schemas are sent at the start of every session, {2} more than with tool search on ({3} tools would only be named); set ENABLE_TOOL_SEARCH=true (or auto) to defer them',
  instructionsCut: 'MCP server "{0}": its instructions are {1} characters; Claude Code {2} sends the first {3} and "… [truncated]"{4}',
  descriptionsCut: 'MCP server "{0}": the descriptions of {1} of its tools are over {2} characters and cut with "… [truncated]" ({3}){4}',
  capFixed: ' (a fixed cap in this version)',
  capEnv: ' (the cap comes from {0})',
  capDefault: " (the version's default cap; {0} changes it)",
  shadowed: 'MCP server "{0}" is defined in the {1} scope here and in the {2} scope ({3}): the {2} one wins, this one is never connected',
  neverConnected: 'MCP server "{0}" ({1}) is configured and was connected in none of the {2} newest sessions of this folder written since its configuration last changed: its tools and instructions never reached the model',
  off: 'MCP server "{0}" ({1}) is configured and never connected: {2}',
} as const;

export type McpMessageKey = keyof typeof MCP_MESSAGES;

/** a template filled with its arguments */
export function fillMessage(template: string, args: readonly string[]): string {
  return template.replace(/\{(\d+)\}/g, (m, i: string) => args[Number(i)] ?? m);
}

/** a finding whose message is MCP_MESSAGES[key] filled; `args` kept for the editor's translation (`suffix`: the cap's
 *  own sentence, also a template) */
export interface McpDiagnostic extends Diagnostic {
  l10n: { key: McpMessageKey; args: string[]; suffix?: { key: McpMessageKey; args: string[] } };
}

function finding(d: Omit<Diagnostic, 'message'>, key: McpMessageKey, args: string[], suffix?: { key: McpMessageKey; args: string[] }): McpDiagnostic {
  const tail = suffix ? fillMessage(MCP_MESSAGES[suffix.key], suffix.args) : '';
  return { ...d, message: fillMessage(MCP_MESSAGES[key], [...args, tail]), l10n: { key, args, ...(suffix && { suffix }) } };
}

/** the 1-based line of `"NAME":` in a configuration file, when the file reads */
function lineOf(env: Analysis['env'], file: string, name: string): number | undefined {
  const r = env.fs.readFile(file, 4 * 1024 * 1024);
  if (!r.ok) return undefined;
  const text = new TextDecoder().decode(r.value);
  const m = new RegExp(`${JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:`).exec(text);
  return m ? text.slice(0, m.index).split('\n').length : undefined;
}

/** where ENABLE_TOOL_SEARCH is set: the settings file whose `env` sets it, else the launch directory */
function toolSearchSource(a: Analysis): string {
  for (const l of a.settings.layers) {
    const e = l.data.env;
    if (e && typeof e === 'object' && 'ENABLE_TOOL_SEARCH' in (e)) return l.path;
  }
  return a.env.cwd;
}

/** the cost findings of a predicted first request (render, explain and lint share them) */
export function mcpFindings(a: Analysis, request: FirstRequest, resolution: McpResolution, withSearch: FirstRequest | undefined): McpDiagnostic[] {
  const out: McpDiagnostic[] = [];
  const src = (name: string) => resolution.servers.find((x) => x.name === name)!;
  // the user turned it off (or `auto:N` left it off), or the version has it off and MCP servers add to what it costs
  const chose = a.env.env.ENABLE_TOOL_SEARCH !== undefined || request.mcp.length > 0;
  if (chose && withSearch && !request.toolSearch.active && withSearch.toolSearch.active) {
    const more = request.tools.chars - withSearch.tools.chars;
    if (more > 0)
      out.push(finding({ path: toolSearchSource(a), severity: 'info', rule: 'tool-search-off' }, 'toolSearchOff', [request.toolSearch.why, grouped(request.tools.chars), grouped(more), grouped(withSearch.deferredToolNames.length)]));
  }
  const envCap = request.mcpTextCapEnv;
  const capSuffix: { key: McpMessageKey; args: string[] } = envCap && a.env.env[envCap] ? { key: 'capEnv', args: [`${envCap}=${a.env.env[envCap]}`] } : envCap ? { key: 'capDefault', args: [envCap] } : { key: 'capFixed', args: [] };
  for (const s of request.mcp) {
    const server = src(s.server);
    const line = lineOf(a.env, server.source, server.name);
    if (s.cutFrom !== undefined && request.mcpTextCap !== undefined)
      out.push(finding({ path: server.source, line, severity: 'warning', rule: 'mcp-text-cut' }, 'instructionsCut', [s.server, grouped(s.cutFrom), request.profileVersion, grouped(request.mcpTextCap)], capSuffix));
    if (s.descriptionsCut?.length && request.mcpTextCap !== undefined)
      out.push(finding({ path: server.source, line, severity: 'warning', rule: 'mcp-text-cut' }, 'descriptionsCut', [s.server, String(s.descriptionsCut.length), grouped(request.mcpTextCap), s.descriptionsCut.join(', ')], capSuffix));
  }
  for (const { server, by } of resolution.shadowed)
    out.push(finding({ path: server.source, line: lineOf(a.env, server.source, server.name), severity: 'warning', rule: 'mcp-server-shadowed' }, 'shadowed', [server.name, server.scope, by.scope, by.source]));
  for (const { server, why } of resolution.off)
    out.push(finding({ path: server.source, line: lineOf(a.env, server.source, server.name), severity: 'info', rule: 'mcp-server-off' }, 'off', [server.name, server.scope, why]));
  return out;
}

/** servers configured and connected in none of the newest sessions of the launch directory written since their
 *  configuration file last changed (a server added after the last session is not one) */
export function neverConnected(a: Analysis, fa: FileAccess, servers: readonly McpServer[], transcripts: readonly { file: string; mtimeMs: number }[]): McpDiagnostic[] {
  if (!servers.length || !transcripts.length) return [];
  const since = (s: McpServer) => {
    const st = fa.stat(s.source);
    return st.ok ? st.value.mtimeMs : Infinity;
  };
  const seen = mcpConnectionsInTranscripts(fa, transcripts, servers.map((s) => ({ name: s.name, since: since(s) })));
  const out: McpDiagnostic[] = [];
  for (const s of servers) {
    const o = seen.get(s.name);
    if (!o || o.seen || o.sessions === 0) continue;
    out.push(finding({ path: s.source, line: lineOf(a.env, s.source, s.name), severity: 'info', rule: 'mcp-server-never-connected' }, 'neverConnected', [s.name, s.scope, String(o.sessions)]));
  }
  return out;
}

/** the session transcripts of these folders with their file times (subagents' files aside) */
function sessionFiles(fa: FileAccess, dirs: readonly string[]): TranscriptFile[] {
  const out: TranscriptFile[] = [];
  for (const d of dirs) sessionFilesIn(fa, d, out);
  return out;
}

/** `lint`'s MCP findings: the servers the session connects (no flag: lint takes none), what the user's transcripts
 *  know of them, the first request predicted with and without tool search, and the transcripts' connections. Nothing
 *  is run. */
export function mcpCheck(a: Analysis, fa: FileAccess): Diagnostic[] {
  const sink = new DiagnosticSink();
  const resolution = resolveMcpServers(a.env, a.settings, { version: a.version.requested ?? a.profile.version }, sink);
  const names = resolution.servers.map((s) => s.name);
  // the launch directory's transcripts, by file time only (no record is read unless a server is configured)
  const transcripts = names.length ? sessionFiles(fa, transcriptDirs(fa, a.env.cwd, configDir(a.env.home, a.env.env))) : [];
  const facts: Record<string, McpServerFacts> = names.length && transcripts.length ? mcpFactsFromTranscripts(fa, transcripts, names) : {};
  const widths = transcriptWidthsFor(a, fa);
  const request = firstRequest(a, { mcp: resolution, facts, widths });
  const withSearch = request.toolSearch.active ? undefined : firstRequest(a, { mcp: resolution, facts, toolSearch: 'true', widths });
  return [...sink.all(), ...mcpFindings(a, request, resolution, withSearch), ...neverConnected(a, fa, resolution.servers, transcripts)];
}
