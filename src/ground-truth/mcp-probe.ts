// Asks an MCP server itself for its instructions and tools (`--mcp run`, the editor's command): the server's command,
// arguments and environment as Claude Code would start it, newline-delimited JSON-RPC over stdio (initialize, then
// tools/list, following nextCursor), under one timeout. A server that fails, hangs, or answers something that is not
// MCP gives an error naming it, never a hang: the process group is killed when the time is up.
import { spawn } from 'node:child_process';
import { expandEnv, type McpServer, type McpServerFacts, type McpTool } from '../engine/index.js';

export interface ProbeOptions {
  /** the environment Claude Code runs with (the server inherits it, plus its own `env`) */
  env: Record<string, string | undefined>;
  cwd: string;
  timeoutMs?: number;
}

const MAX_OUTPUT = 32 * 1024 * 1024;
const MAX_PAGES = 50;
const PROTOCOL = '2025-06-18';

function validTools(v: unknown): McpTool[] | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const tools = (v as { tools?: unknown }).tools;
  if (!Array.isArray(tools)) return undefined;
  const out: McpTool[] = [];
  for (const t of tools) {
    if (!t || typeof t !== 'object' || typeof (t as { name?: unknown }).name !== 'string') return undefined;
    const o = t as { name: string; description?: unknown; inputSchema?: unknown };
    out.push({ name: o.name, ...(typeof o.description === 'string' && { description: o.description }), ...(o.inputSchema !== undefined && { inputSchema: o.inputSchema }) });
  }
  return out;
}

export function probeMcpServer(server: McpServer, o: ProbeOptions): Promise<McpServerFacts> {
  const c = server.config;
  const fail = (error: string, status: McpServerFacts['status'] = 'failed'): McpServerFacts => ({ from: 'server', status, error: `MCP server "${server.name}" (${server.scope}): ${error}` });
  if (!c.command || (c.type && c.type !== 'stdio')) return Promise.resolve(fail(`a ${c.type ?? 'remote'} server at ${c.url ?? '?'}: only stdio servers are run`));
  const vars = { ...o.env };
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.env)) if (v !== undefined) env[k] = v;
  for (const [k, v] of Object.entries(c.env ?? {})) env[k] = expandEnv(v, vars);
  const command = expandEnv(c.command, vars);
  const args = (c.args ?? []).map((a) => expandEnv(a, vars));
  return new Promise((resolve) => {
    let done = false;
    let out = '';
    let size = 0;
    let stderr = '';
    let instructions: string | undefined;
    const tools: McpTool[] = [];
    let pages = 0;
    const child = spawn(command, args, { cwd: o.cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const finish = (r: McpServerFacts) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
      resolve(r);
    };
    let notJson = 0;
    const timer = setTimeout(
      () => finish(fail(`no answer within ${o.timeoutMs ?? 10_000} ms (${pages ? 'tools/list' : 'initialize'})${notJson ? `; it wrote ${notJson} lines that are not JSON-RPC` : ''}`, 'pending')),
      o.timeoutMs ?? 10_000,
    );
    const send = (m: unknown) => {
      try {
        child.stdin.write(JSON.stringify(m) + '\n');
      } catch {
        /* reported through exit */
      }
    };
    child.on('error', (e) => finish(fail(`cannot start ${command}: ${e.message}`)));
    child.on('exit', (code, signal) => finish(fail(`exited (${signal ?? `code ${code}`}) before answering${stderr ? `: ${stderr.trim().slice(0, 200)}` : ''}`, pages ? 'list-failed' : 'failed')));
    child.stdin.on('error', () => undefined);
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 4096) stderr += d.toString('utf8');
    });
    child.stdout.on('data', (d: Buffer) => {
      size += d.length;
      if (size > MAX_OUTPUT) return finish(fail('wrote more than 32 MiB'));
      out += d.toString('utf8');
      let i;
      while ((i = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, i).trim();
        out = out.slice(i + 1);
        if (!line) continue;
        let msg: { id?: unknown; result?: unknown; error?: { message?: unknown } };
        try {
          msg = JSON.parse(line) as typeof msg;
        } catch {
          notJson++; // Claude Code skips such a line and keeps waiting: so does this
          continue;
        }
        if (msg.id === 1) {
          if (msg.error) return finish(fail(`initialize failed: ${typeof msg.error.message === 'string' ? msg.error.message.slice(0, 200) : 'no message'}`));
          const r = msg.result as { instructions?: unknown } | undefined;
          if (typeof r?.instructions === 'string') instructions = r.instructions;
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
          pages = 1;
        } else if (typeof msg.id === 'number' && msg.id >= 2) {
          if (msg.error) return finish(fail(`tools/list failed: ${typeof msg.error.message === 'string' ? msg.error.message.slice(0, 200) : 'no message'}`, 'list-failed'));
          const list = validTools(msg.result);
          if (!list) return finish(fail('answered tools/list with something that is not a list of tools', 'list-failed'));
          tools.push(...list);
          const next = (msg.result as { nextCursor?: unknown }).nextCursor;
          if (typeof next === 'string' && next && pages < MAX_PAGES) {
            pages++;
            send({ jsonrpc: '2.0', id: pages + 1, method: 'tools/list', params: { cursor: next } });
          } else finish({ from: 'server', tools, ...(instructions !== undefined && { instructions }) });
        }
      }
    });
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'claude-layers', version: '1' } } });
  });
}

/** every server at once, each under the timeout */
export async function probeMcpServers(servers: readonly McpServer[], o: ProbeOptions): Promise<Record<string, McpServerFacts>> {
  const out: Record<string, McpServerFacts> = {};
  const results = await Promise.all(servers.map((s) => probeMcpServer(s, o)));
  servers.forEach((s, i) => (out[s.name] = results[i]!));
  return out;
}
