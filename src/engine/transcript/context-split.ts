// The live session split like `/context` (issue 32, point 4): the last request the transcript records (2.1.328 on:
// `api-request`, its `api-request-shape` and messages) by category, the same categories as the first request's split
// (system prompt, built-in tools, each MCP server's tools, MCP instructions, memory files, skills, agents, the
// deferred-tools listing, messages, free space, the auto-compact buffer), in characters and in tokens at the request's
// own ratio (its usage over its characters) or the model's; MCP per server, with what ToolSearch loaded and when.
// One function for `claude-layers session` and the This Session view.
import type { ClaudeProfile } from '../profiles.js';
import { modelFacts } from '../skills/models.js';
import { mcpKey, type McpServerLayer } from './attachment-layers.js';
import type { LayerChars, LiveRequest, Replay } from './replay.js';
import type { ContextEvidence } from './window.js';

export type ContextCategory =
  | 'system-prompt'
  | 'tools-built-in'
  | 'tools-mcp'
  | 'mcp-instructions'
  | 'memory-files'
  | 'skills'
  | 'agents'
  | 'deferred-tools'
  | 'messages'
  | 'free-space'
  | 'autocompact-buffer';

export interface ContextSplitRow {
  category: ContextCategory;
  /** tools-mcp: the server */
  server?: string;
  /** characters of the request; null for free space and the buffer */
  chars: number | null;
  tokens: number;
}

export interface LoadedTool {
  /** the tool's name as sent (`mcp__SERVER__TOOL`, or a built-in one such as WebFetch) */
  tool: string;
  /** the turn (0-based, as `turns[]`) and the request whose `tools` array first carried it */
  turn: number;
  request: string;
  at?: string;
  /** characters of its definition as compact JSON */
  chars: number;
  /** the last request still carries it (a compaction or a new process drops what was loaded) */
  inLastRequest: boolean;
}

export interface SessionMcpSplit {
  server: string;
  /** characters of its tools in the last request's `tools` array (loaded by ToolSearch, `alwaysLoad`, or tool search off) */
  toolChars: number;
  /** characters of its `## NAME` block of the MCP instructions, as the attachments record it */
  instructionsChars: number;
  /** its tools offered by name only */
  deferredTools: string[];
  /** its tools ToolSearch loaded during the session */
  loaded: LoadedTool[];
}

export interface SessionContextSplit {
  /** the request split: the last one the transcript records whole */
  request: { id: string; turn: number; timestamp?: string };
  /** tokens per character: the request's usage over its characters (`usage`), else (not answered, or a ratio outside
   *  0.1 to 1) the model's assumed ratio */
  tokensPerChar: { value: number; from: 'usage' | 'model' };
  /** the request's context by its usage (input + cache read + cache creation); null when not answered yet */
  contextTokens: number | null;
  window: number;
  rows: ContextSplitRow[];
  mcp: SessionMcpSplit[];
  /** built-in tools ToolSearch loaded */
  loadedBuiltIn: LoadedTool[];
  /** characters of the request (system, tools, every message text) */
  totalChars: number;
}

/** each tool a ToolSearch loaded, at the first request that carried it */
function loadedTools(requests: readonly LiveRequest[], last: LiveRequest): LoadedTool[] {
  const out = new Map<string, LoadedTool>();
  const now = new Set((last.loadedTools ?? []).map((t) => t.name));
  for (const r of requests)
    for (const t of r.loadedTools ?? []) if (!out.has(t.name)) out.set(t.name, { tool: t.name, turn: r.turn, request: r.id, ...(r.timestamp && { at: r.timestamp }), chars: t.chars, inLastRequest: now.has(t.name) });
  return [...out.values()];
}

/**
 * The last recorded request by category. `context`: the session's window and auto-compaction threshold (contextOf in
 * session.ts), null when no request was answered yet (then the model's window and no buffer). Null for a version that
 * records no request (attachment-layers.ts derives its breakdown instead).
 */
export function sessionContextSplit(r: Replay, listings: readonly McpServerLayer[], profile: ClaudeProfile, context: ContextEvidence | null): SessionContextSplit | null {
  if (r.source !== 'requests') return null;
  const last = [...r.requests].reverse().find((q) => q.chars);
  if (!last?.chars) return null;
  const c: LayerChars = last.chars;
  const facts = modelFacts(last.model ?? r.model ?? profile.models.defaultModel, profile);
  // a ratio outside 0.1 to 1 token per character is not text's (a stand-in's usage, a request cut): the model's serves
  const own = last.contextTokens && c.total ? last.contextTokens / c.total : 0;
  const tokensPerChar = own >= 0.1 && own <= 1 ? { value: own, from: 'usage' as const } : { value: 1 / facts.bytesPerToken, from: 'model' as const };
  const tok = (chars: number) => Math.round(chars * tokensPerChar.value);
  const row = (category: ContextCategory, chars: number, server?: string): ContextSplitRow => ({ category, ...(server !== undefined && { server }), chars, tokens: tok(chars) });
  const nameOf = (key: string) => listings.find((s) => mcpKey(s.server) === key)?.server ?? key;
  const rows: ContextSplitRow[] = [row('system-prompt', c.system), row('tools-built-in', c.tools)];
  for (const [k, v] of Object.entries(c.mcp)) rows.push(row('tools-mcp', v, nameOf(k)));
  rows.push(
    row('mcp-instructions', c.mcpInstructions),
    row('memory-files', c.instructions + c.lazy),
    row('skills', c.skillsListing + c.skillBodies),
    row('agents', c.agents),
    row('deferred-tools', c.deferredListing),
    row('messages', c.fixedTexts + c.hooks + c.changedNotes + c.restored + c.conversation),
  );
  const window = context?.window ?? facts.contextWindow;
  const buffer = context?.autoCompactAt != null ? Math.max(0, window - context.autoCompactAt) : 0;
  const used = tokensPerChar.from === 'usage' && last.contextTokens !== null ? last.contextTokens : rows.reduce((n, x) => n + x.tokens, 0);
  rows.push({ category: 'free-space', chars: null, tokens: Math.max(0, window - used - buffer) }, { category: 'autocompact-buffer', chars: null, tokens: buffer });

  const loaded = loadedTools(r.requests, last);
  const servers = new Map<string, SessionMcpSplit>();
  const server = (key: string) => {
    let s = servers.get(key);
    if (!s) servers.set(key, (s = { server: nameOf(key), toolChars: 0, instructionsChars: 0, deferredTools: [], loaded: [] }));
    return s;
  };
  for (const l of listings) Object.assign(server(mcpKey(l.server)), { instructionsChars: l.instructionsChars, deferredTools: l.deferredTools });
  for (const [k, v] of Object.entries(c.mcp)) server(k).toolChars = v;
  const loadedBuiltIn: LoadedTool[] = [];
  for (const t of loaded) {
    const m = /^mcp__(.+?)__/.exec(t.tool);
    if (m) server(m[1]!).loaded.push(t);
    else loadedBuiltIn.push(t);
  }
  return {
    request: { id: last.id, turn: last.turn, ...(last.timestamp && { timestamp: last.timestamp }) },
    tokensPerChar,
    contextTokens: last.contextTokens,
    window,
    rows,
    mcp: [...servers.values()],
    loadedBuiltIn,
    totalChars: c.total,
  };
}
