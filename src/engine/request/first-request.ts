// The whole first request a session sends, predicted before it starts: the system blocks, the `tools` array, every
// text of the messages, section by section with its size, and MCP per server. Claude Code's own texts are measured
// widths (FIRST_REQUESTS in profiles.ts); what comes from the user's disk, settings and MCP servers is computed.
import type { Analysis } from '../analysis.js';
import { DEFERRED_TOOLS_LEAD, MCP_FAILED_HEAD, MCP_FAILED_LINE, MCP_INSTRUCTIONS_HEAD, MCP_LIST_FAILED_HEAD, MCP_PENDING_HEAD, MCP_SERVER_HEAD, SECTION_JOINER } from '../format-strings.js';
import { renderStartupBlock } from '../instructions/render.js';
import { skillsView } from '../checks/skills-check.js';
import { mcpToolName, type McpResolution, type McpScope } from '../mcp/config.js';
import { capText, toolJson, type McpServerFacts } from '../mcp/facts.js';
import { firstRequestProfile, type FirstRequestProfile } from '../profiles.js';
import type { TranscriptWidths } from './transcript-widths.js';

export type SectionKind =
  | 'system-prompt'
  | 'memory-section'
  | 'tools-built-in'
  | 'tools-mcp'
  | 'startup'
  | 'fixed-messages'
  | 'deferred-tools'
  | 'mcp-failed'
  | 'mcp-list-failed'
  | 'mcp-pending'
  | 'mcp-instructions'
  | 'skills'
  | 'prompt';

export interface RequestSection {
  kind: SectionKind;
  chars: number;
  /** the exact text, for the sections the engine computes */
  text?: string;
  /** tools-mcp: the server */
  server?: string;
  /** where it goes: the system blocks, the tools array, the messages */
  in: 'system' | 'tools' | 'messages';
}

export interface McpServerRequest {
  server: string;
  scope: McpScope;
  /** the instructions as sent (cut where Claude Code cuts them); undefined: none known */
  instructions?: string;
  /** Claude Code's names of its tools (`mcp__SERVER__TOOL`) */
  toolNames: string[];
  /** true: only named in the deferred-tools listing; false: schemas sent */
  deferred: boolean;
  /** characters its tools take in the `tools` array (0 when deferred or unknown) */
  toolChars: number;
  /** where its tools came from; undefined: unknown (not run, not in a transcript) */
  from?: McpServerFacts['from'];
  error?: string;
  /** the instructions were longer than the version's cap (characters before the cut) */
  cutFrom?: number;
  /** its tools whose descriptions were longer than the cap (the server's own names) */
  descriptionsCut?: string[];
  status?: McpServerFacts['status'];
}

export type ToolSearchMode = { kind: 'on' } | { kind: 'off' } | { kind: 'auto'; percent: number };

export interface FirstRequest {
  /** the measured profile the sizes come from */
  profileVersion: string;
  /** the version has no profile: the sizes of Claude Code's texts come from this transcript of the user's (its first
   *  request's `api-request-shape`) */
  widthsFrom?: string;
  exactProfile: boolean;
  toolSearch: ToolSearchMode & { active: boolean; why: string };
  sections: RequestSection[];
  system: { chars: number };
  tools: { builtIn: string[]; chars: number; count: number };
  mcp: McpServerRequest[];
  deferredToolNames: string[];
  /** the characters of the built-in and MCP tools tool search left out of the `tools` array (what turning it off adds) */
  deferredChars: number;
  totalChars: number;
  /** the cap on MCP instructions and tool descriptions that applies (undefined: none), and the variable that sets it */
  mcpTextCap?: number;
  mcpTextCapEnv?: string;
}

/** ENABLE_TOOL_SEARCH as Claude Code reads it (measured on 2.1.235 and 2.1.335): true on, false off, `auto[:N]`
 *  (plain `auto`: the profile's percentage, 10 on every version measured), unset as the version does it */
export function toolSearchMode(value: string | undefined, unset: 'on' | 'off' = 'on', autoPercent = 10): ToolSearchMode {
  const v = (value ?? '').trim().toLowerCase();
  if (!v) return { kind: unset };
  if (v === 'false' || v === '0' || v === 'no' || v === 'off') return { kind: 'off' };
  const m = /^auto(?::(\d+(?:\.\d+)?))?$/.exec(v);
  if (m) return { kind: 'auto', percent: m[1] === undefined ? autoPercent : Number(m[1]) };
  return { kind: 'on' };
}

export interface FirstRequestOptions {
  /** the MCP servers the session connects (resolveMcpServers) */
  mcp?: McpResolution;
  /** what is known of each server, by name */
  facts?: Readonly<Record<string, McpServerFacts>>;
  /** the prompt's text (its characters count in the total) */
  prompt?: string;
  /** YYYY-MM-DD, for the 2.1.235 context reminder */
  today?: string;
  /** ENABLE_TOOL_SEARCH as if set to this (what turning it on or off would change) */
  toolSearch?: string;
  /** the sizes of Claude Code's texts from the user's own transcript of the version (transcript-widths.ts): used when
   *  the version has no profile of its own */
  widths?: TranscriptWidths;
}

/** the cap on an MCP server's instructions and tool descriptions: the version's variable when set to a positive
 *  integer, else its fixed cap (undefined: none) */
export function mcpTextCap(fp: FirstRequestProfile, env: Readonly<Record<string, string | undefined>>): number | undefined {
  const v = fp.mcpTextCapEnv ? env[fp.mcpTextCapEnv]?.trim() : undefined;
  const n = v && /^\d+$/.test(v) ? Number(v) : NaN;
  return n > 0 ? n : fp.mcpTextCap;
}

const byCodeUnit = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
const arrayChars = (parts: number[]) => (parts.length ? 2 + parts.reduce((a, n) => a + n, 0) + parts.length - 1 : 2);

export function firstRequest(a: Analysis, o: FirstRequestOptions = {}): FirstRequest {
  const chosen = firstRequestProfile(a.version.requested ?? a.profile.version);
  const fromTranscript = !chosen.exact && o.widths ? o.widths : undefined;
  const fp = fromTranscript?.profile ?? chosen.profile;
  const profileVersion = fromTranscript?.version ?? chosen.version;
  const exact = chosen.exact || !!fromTranscript;
  const tsValue = o.toolSearch ?? a.env.env.ENABLE_TOOL_SEARCH;
  const mode = toolSearchMode(tsValue, fp.toolSearch?.unset, fp.toolSearch?.autoPercent);
  const cap = mcpTextCap(fp, a.env.env);
  const today = o.today ?? '2000-01-01';

  // MCP servers: names and schemas
  const servers: (McpServerRequest & { whole: string[]; alwaysLoad: boolean })[] = [];
  for (const s of o.mcp?.servers ?? []) {
    const f = o.facts?.[s.name];
    const whole = (f?.tools ?? []).map((t) => toolJson(mcpToolName(s.name, t.name), t, cap));
    const toolNames = f?.tools ? f.tools.map((t) => mcpToolName(s.name, t.name)) : (f?.toolNames ?? []);
    const instr = f?.instructions;
    servers.push({
      server: s.name, scope: s.scope, toolNames, deferred: false, toolChars: 0, from: f?.from, ...(f?.error && { error: f.error }), ...(f?.status && { status: f.status }),
      ...(instr !== undefined && { instructions: capText(instr, cap) }),
      ...(instr !== undefined && cap !== undefined && instr.length > cap && { cutFrom: instr.length }),
      ...(cap !== undefined && f?.tools?.some((t) => (t.description ?? '').length > cap) && { descriptionsCut: f.tools.filter((t) => (t.description ?? '').length > cap).map((t) => t.name) }),
      whole, alwaysLoad: s.config.alwaysLoad === true,
    });
  }

  const deferrableBuiltIns = fp.builtInTools.filter((t) => t[2]);
  const deferrableMcp = servers.filter((s) => !s.alwaysLoad);
  const deferrableChars = deferrableBuiltIns.reduce((n, t) => n + t[1], 0) + deferrableMcp.reduce((n, s) => n + s.whole.reduce((m, w) => m + w.length, 0), 0);
  let active = false;
  let why: string;
  if (!fp.toolSearch) why = `Claude Code ${profileVersion} has no tool search: every tool is sent whole`;
  else if (mode.kind === 'off') why = tsValue ? 'ENABLE_TOOL_SEARCH is false: every tool is sent whole' : `tool search is off in Claude Code ${profileVersion} unless ENABLE_TOOL_SEARCH turns it on: every tool is sent whole`;
  else if (mode.kind === 'on') {
    active = true;
    why = `tool search is on${tsValue ? '' : ' (the default)'}: deferred tools are named, their schemas loaded on demand`;
  } else {
    // Claude Code asks the count-tokens endpoint for the deferrable tools; estimated here at the model's ratio
    const tokens = Math.ceil(deferrableChars / a.model.bytesPerToken);
    const threshold = (mode.percent / 100) * a.model.contextWindow;
    active = tokens > threshold;
    why = `ENABLE_TOOL_SEARCH=auto:${mode.percent}: the deferrable tools are about ${tokens} tokens, ${active ? 'over' : 'not over'} ${mode.percent}% of the ${a.model.contextWindow}-token window (${Math.round(threshold)}): ${active ? 'deferred' : 'sent whole, still named in the deferred-tools listing'}`;
  }
  const listing = !!fp.toolSearch && (active || mode.kind === 'auto');

  // the tools array
  const toolWidths: number[] = [];
  const builtIn: string[] = [];
  let deferredChars = 0;
  for (const [name, chars, deferrable] of fp.builtInTools) {
    if (deferrable && active) {
      deferredChars += chars;
      continue;
    }
    builtIn.push(name);
    toolWidths.push(chars);
  }
  if (active && fp.toolSearch) {
    builtIn.push('ToolSearch');
    toolWidths.push(fp.toolSearch.tool, fp.toolSearch.placeholder);
  }
  for (const s of servers) {
    const chars = s.whole.reduce((n, w) => n + w.length, 0);
    if (active && !s.alwaysLoad) {
      s.deferred = true;
      deferredChars += chars;
    } else {
      s.toolChars = chars;
      toolWidths.push(...s.whole.map((w) => w.length));
    }
  }
  const toolsChars = arrayChars(toolWidths);
  // the built-in row takes the array's brackets and commas, so that the tools rows add up to the array
  const builtInChars = toolsChars - servers.reduce((n, s) => n + s.toolChars, 0);

  const deferredToolNames = listing
    ? [...deferrableBuiltIns.map((t) => t[0]), ...deferrableMcp.flatMap((s) => s.toolNames)].sort(byCodeUnit)
    : [];

  // system blocks
  const sections: RequestSection[] = [];
  const cwdSys = fp.cwdIn === 'system' ? a.env.cwd.length : 0;
  const main = (fp.systemMain[a.model.resolved.replace(/\[1m\]$/, '')] ?? fp.systemMain[fp.model]!) + cwdSys;
  const systemBlocks = fp.systemBlocks.reduce((n, w) => n + w, 0) + main;
  sections.push({ kind: 'system-prompt', chars: systemBlocks, in: 'system' });
  if (a.memory.systemSectionChars) sections.push({ kind: 'memory-section', chars: a.memory.systemSectionChars, in: 'system' });
  sections.push({ kind: 'tools-built-in', chars: builtInChars, in: 'tools' });
  for (const s of servers) if (s.toolChars) sections.push({ kind: 'tools-mcp', server: s.server, chars: s.toolChars, in: 'tools' });

  // messages
  const startup = (renderStartupBlock(a.profile, a.startup, today) ?? '').length - (renderStartupBlock(a.profile, [], today) ?? '').length;
  if (startup > 0) sections.push({ kind: 'startup', chars: startup, text: a.startupText, in: 'messages' });
  sections.push({ kind: 'fixed-messages', chars: fp.messagesFixed + (fp.cwdIn === 'messages' ? a.env.cwd.length : 0), in: 'messages' });
  if (listing) {
    const text = DEFERRED_TOOLS_LEAD + deferredToolNames.join('\n');
    sections.push({ kind: 'deferred-tools', chars: text.length + SECTION_JOINER.length, text, in: 'messages' });
  }
  // servers that did not make it, each kind a section of its own (measured on 2.1.335 in -p)
  const st = fp.mcpStatus;
  if (listing && st) {
    const kinds = [
      ['mcp-failed', 'failed', MCP_FAILED_HEAD, st.failedTail, MCP_FAILED_LINE],
      ['mcp-list-failed', 'list-failed', MCP_LIST_FAILED_HEAD, st.listFailedTail, (n: string) => n],
      ['mcp-pending', 'pending', MCP_PENDING_HEAD, st.pendingTail, (n: string) => n],
    ] as const;
    for (const [kind, status, head, tail, line] of kinds) {
      const names = servers.filter((s) => s.status === status).map((s) => s.server).sort(byCodeUnit);
      if (!names.length || tail === undefined) continue;
      const text = head + names.map(line).join('\n');
      sections.push({ kind, chars: text.length + tail + SECTION_JOINER.length, text, in: 'messages' });
    }
  }
  // servers in name order (measured: not the configuration's order)
  const withInstr = servers.filter((s) => s.instructions !== undefined && s.instructions !== '').sort((x, y) => byCodeUnit(x.server, y.server));
  if (withInstr.length) {
    const text = MCP_INSTRUCTIONS_HEAD + withInstr.map((s) => MCP_SERVER_HEAD(s.server) + s.instructions!).join(SECTION_JOINER);
    sections.push({ kind: 'mcp-instructions', chars: text.length + SECTION_JOINER.length, text, in: 'messages' });
  }
  // the listing as sent: a shipped skill's description counted at its measured length (its text is not kept)
  const sv = skillsView(a);
  if (sv.entries.length && sv.text) sections.push({ kind: 'skills', chars: sv.sentChars + SECTION_JOINER.length, in: 'messages' });
  if (o.prompt) sections.push({ kind: 'prompt', chars: o.prompt.length, text: o.prompt, in: 'messages' });

  const systemChars = sections.filter((s) => s.in === 'system').reduce((n, s) => n + s.chars, 0);
  const messageChars = sections.filter((s) => s.in === 'messages').reduce((n, s) => n + s.chars, 0);
  return {
    profileVersion,
    exactProfile: exact,
    toolSearch: { ...mode, active, why },
    sections,
    system: { chars: systemChars },
    tools: { builtIn, chars: toolsChars, count: toolWidths.length },
    mcp: servers.map(({ whole: _w, alwaysLoad: _a, ...s }) => s),
    deferredToolNames,
    deferredChars,
    totalChars: systemChars + toolsChars + messageChars,
    ...(cap !== undefined && { mcpTextCap: cap }),
    ...(fromTranscript && { widthsFrom: fromTranscript.file }),
    ...(fp.mcpTextCapEnv && { mcpTextCapEnv: fp.mcpTextCapEnv }),
  };
}

export type { FirstRequestProfile };
