// What is known of an MCP server's side of the request: its instructions and tools, as the server answered
// (`--mcp run`: src/ground-truth/mcp-probe.ts) or as the user's own transcripts recorded them (names only).
import { MCP_TRUNCATED } from '../format-strings.js';

export interface McpTool {
  /** the server's own name of the tool (Claude Code sends `mcp__SERVER__NAME`) */
  name: string;
  description?: string;
  inputSchema?: unknown;
}

export interface McpServerFacts {
  /** where the facts come from: the server itself, or the user's transcripts (tool names only) */
  from: 'server' | 'transcript';
  instructions?: string;
  /** full definitions (from the server) */
  tools?: McpTool[];
  /** Claude Code's names of the tools (`mcp__SERVER__TOOL`) when only the names are known */
  toolNames?: string[];
  /** the server failed, hung or answered something that is not MCP: why */
  error?: string;
  /** how it failed: exited before answering `initialize` (failed), answered tools/list with an error or what is not a
   *  tool list (list-failed), or no answer in time (pending) */
  status?: 'failed' | 'list-failed' | 'pending';
}

/** one tool's definition as the request carries it, as compact JSON: `{"name","description","input_schema"}` */
export function toolJson(name: string, tool: McpTool, cap: number | undefined): string {
  const description = capText(tool.description ?? '', cap);
  return JSON.stringify({ name, description, input_schema: tool.inputSchema ?? { type: 'object', properties: {} } });
}

/** Claude Code's cut of an MCP text (2.1.235: over `cap` characters, the first `cap` and MCP_TRUNCATED) */
export function capText(text: string, cap: number | undefined): string {
  return cap !== undefined && text.length > cap ? text.slice(0, cap) + MCP_TRUNCATED : text;
}
