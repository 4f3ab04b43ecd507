// What the user's own transcripts say of MCP servers, without running anything: the `deferred_tools_delta`
// attachments name each server's tools (`mcp__SERVER__TOOL`, 2.1.101 on), the `mcp_instructions_delta` ones carry
// the instructions as sent (`## NAME\n…`, 2.1.101 to 2.1.156). Only names and instructions: never schemas.
import type { FileAccess } from '../files/file-access.js';
import { decodeUtf8 } from '../instructions/content.js';
import type { McpServerFacts } from './facts.js';

/** the newest transcripts read, and the bytes read of each (the deltas come early in a session) */
const MAX_TRANSCRIPTS = 5;
const MAX_BYTES = 8 * 1024 * 1024;

const norm = (x: string) => x.replace(/[^A-Za-z0-9_-]/g, '_');

interface Delta {
  type?: unknown;
  addedNames?: unknown;
  removedNames?: unknown;
  addedBlocks?: unknown;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** facts per configured server name, from the newest transcripts that mention it */
export function mcpFactsFromTranscripts(fa: FileAccess, transcripts: readonly { file: string; mtimeMs: number }[], servers: readonly string[]): Record<string, McpServerFacts> {
  const out: Record<string, McpServerFacts> = {};
  const byNorm = new Map(servers.map((s) => [norm(s), s]));
  const newest = [...transcripts].sort((a, b) => b.mtimeMs - a.mtimeMs).slice(0, MAX_TRANSCRIPTS);
  for (const t of newest) {
    // the first MAX_BYTES (a FileAccess without ranges, the analysis' snapshot, refuses a longer file whole)
    const r = fa.readRange ? fa.readRange(t.file, 0, MAX_BYTES) : fa.readFile(t.file, MAX_BYTES);
    if (!r.ok) continue;
    const text = decodeUtf8('data' in r.value ? r.value.data : r.value);
    const names = new Map<string, Set<string>>();
    const instructions = new Map<string, string>();
    for (const line of text.split('\n')) {
      if (!line.includes('tools_delta') && !line.includes('instructions_delta')) continue;
      let rec: { attachment?: Delta };
      try {
        rec = JSON.parse(line) as typeof rec;
      } catch {
        continue; // a cut line
      }
      const d = rec?.attachment;
      if (!d || typeof d !== 'object') continue;
      if (d.type === 'deferred_tools_delta') {
        for (const n of strings(d.addedNames)) {
          const m = /^mcp__(.+?)__(.+)$/.exec(n);
          const server = m && byNorm.get(m[1]!);
          if (!server) continue;
          if (!names.has(server)) names.set(server, new Set());
          names.get(server)!.add(n);
        }
        for (const n of strings(d.removedNames)) for (const s of names.values()) s.delete(n);
      } else if (d.type === 'mcp_instructions_delta') {
        for (const b of strings(d.addedBlocks)) {
          const m = /^## ([^\n]*)\n([\s\S]*)$/.exec(b);
          if (m && servers.includes(m[1]!)) instructions.set(m[1]!, m[2]!);
        }
      }
    }
    for (const s of servers) {
      if (out[s] || (!names.has(s) && !instructions.has(s))) continue;
      out[s] = { from: 'transcript', toolNames: [...(names.get(s) ?? [])].sort(), ...(instructions.has(s) && { instructions: instructions.get(s) }) };
    }
  }
  return out;
}

/** what the user's newest transcripts say of each configured server's connection: `sessions` counts the transcripts
 *  read that were written after `since` (the server's configuration file's time, ms) and that record a connected
 *  server's tools (a `deferred_tools_delta`, which names every MCP tool while tool search is on, or an
 *  `api-request-shape`, whose tools carry them while it is off); `seen`: one of them names the server's tools
 *  (`mcp__SERVER__`) or its instructions (`## SERVER`) */
export function mcpConnectionsInTranscripts(
  fa: FileAccess,
  transcripts: readonly { file: string; mtimeMs: number }[],
  servers: readonly { name: string; since: number }[],
): Map<string, { sessions: number; seen: boolean }> {
  const out = new Map(servers.map((s) => [s.name, { sessions: 0, seen: false }]));
  const newest = [...transcripts].sort((a, b) => b.mtimeMs - a.mtimeMs).slice(0, MAX_TRANSCRIPTS);
  for (const t of newest) {
    const r = fa.readRange ? fa.readRange(t.file, 0, MAX_BYTES) : undefined;
    if (!r || !r.ok) continue;
    const text = decodeUtf8(r.value.data);
    // a transcript whose version records none of this says nothing of MCP
    if (!text.includes('"deferred_tools_delta"') && !text.includes('"api-request-shape"')) continue;
    for (const s of servers) {
      if (t.mtimeMs <= s.since) continue;
      const o = out.get(s.name)!;
      o.sessions++;
      const key = norm(s.name);
      if (text.includes(`mcp__${key}__`) || text.includes(JSON.stringify(`## ${s.name}`).slice(1, -1) + '\\n')) o.seen = true;
    }
  }
  return out;
}
