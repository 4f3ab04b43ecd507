// Runner of the MCP conformance scenarios (issue 32): a git repository ROOT/repo with a fresh HOME ROOT/home, the
// test MCP server (test/fixtures/mcp/server.mjs) configured in .mcp.json, ~/.claude.json or --mcp-config; the engine
// (`render --json` with the same MCP flags) runs first on the pristine tree, then the real binary against the loopback
// stand-in. `firstRequestParts` splits the captured first main-loop request into the sections the engine predicts.
import fs from 'node:fs';
import path from 'node:path';
import { run } from '../../../src/ground-truth/process.js';
import { MockApi } from '../../../src/ground-truth/mock-api.js';
import { lastMainLoopBody } from '../../../src/engine/transcript/wire.js';
import { DEFERRED_TOOLS_LEAD, MCP_FAILED_HEAD, MCP_INSTRUCTIONS_HEAD, MCP_LIST_FAILED_HEAD, MCP_PENDING_HEAD, SKILLS_LISTING_HEADER } from '../../../src/engine/format-strings.js';
import { claudeBin, materialise, REPO_DIR, shq, subst } from '../capture.js';
import { memorySectionOf } from '../memory-skills/run.js';

export const FIXTURE_SERVER = path.join(REPO_DIR, 'test/fixtures/mcp/server.mjs');

export interface McpRun {
  version: string;
  /** files under ROOT ({ROOT}, {HOME} and {SERVER} substituted); the launch directory is ROOT/repo */
  files: Record<string, string>;
  env?: Record<string, string>;
  model?: string;
  /** arguments for both claude and the engine (--mcp-config FILE, --strict-mcp-config), substituted */
  mcpArgs?: string[];
  /** the stand-in's answer to count_tokens */
  countTokens?: number;
  /** run the engine CLI too (`render --json --mcp run`) */
  engine?: boolean;
  keep?: boolean;
}

export interface Captured {
  root: string;
  model: string;
  body: Body;
  claude: { code: number | null; stderr: string };
  engine: { code: number | null; stdout: string; stderr: string; json: unknown } | null;
  cleanup(): void;
}

interface Part {
  type: string;
  text?: string;
}
export interface Body {
  model: string;
  system: Part[];
  tools: { name: string; defer_loading?: boolean }[];
  messages: { role: string; content: string | Part[] }[];
}

/** a server entry running the fixture with CONFIG */
export function fixtureServer(config: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [FIXTURE_SERVER, JSON.stringify(config)], ...extra };
}

const sub = (s: string, root: string) => subst(s, root).replace(/\{SERVER\}/g, FIXTURE_SERVER);

export async function captureFirstRequest(r: McpRun): Promise<Captured> {
  const root = fs.realpathSync(fs.mkdtempSync('/tmp/ccl-mcp-'));
  const cleanup = () => {
    if (!r.keep) fs.rmSync(root, { recursive: true, force: true });
  };
  const mock = new MockApi([{ text: 'done' }]);
  mock.countTokens = r.countTokens;
  try {
    const files: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.files)) files[k] = sub(v, root);
    materialise({ name: 'mcp', spec: [], git: ['repo'], cwd: 'repo', files }, root);
    const cwd = path.join(root, 'repo');
    const home = path.join(root, 'home');
    const work = path.join(root, 'work');
    fs.mkdirSync(path.join(work, 'tmp'), { recursive: true });
    const mcpArgs = (r.mcpArgs ?? []).map((a) => sub(a, root));
    const port = await mock.start();
    const lines = ['#!/bin/bash', 'set -u'];
    if (r.engine) {
      const a = [process.execPath, '--import', 'tsx', path.join(REPO_DIR, 'src/cli/main.ts'), 'render', '--cwd', cwd, '--home', home, '--claude-version', r.version, '--json', '--mcp', 'run', ...mcpArgs];
      if (r.model) a.push('--model', r.model);
      for (const [k, v] of Object.entries(r.env ?? {})) a.push('--env', `${k}=${v}`);
      const argv = ['env', '-i', `PATH=${process.env.PATH}`, 'HOME=/nonexistent-conformance-home', `TMPDIR=${work}/tmp`, 'timeout', '60', ...a];
      lines.push(`cd ${shq(REPO_DIR)} && ${argv.map(shq).join(' ')} >${shq(work + '/engine.stdout')} 2>${shq(work + '/engine.stderr')}; echo $? >${shq(work + '/engine.rc')}`);
    }
    const env = [
      `PATH=${process.env.PATH}`, `HOME=${home}`, 'USER=root', 'LOGNAME=root', 'SHELL=/bin/bash', `TMPDIR=${work}/tmp`,
      `ANTHROPIC_BASE_URL=http://127.0.0.1:${port}`, 'ANTHROPIC_API_KEY=sk-conformance-dummy', 'DISABLE_TELEMETRY=1',
      'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1',
      // the binary waits for its servers up to this long before the first request (2.1.328 on): on a loaded machine a
      // server slow to start would otherwise be "still connecting"; the engine's probe gives up after 15 s
      'CLAUDE_CODE_MCP_STARTUP_WAIT_MS=20000',
      ...Object.entries(r.env ?? {}).map(([k, v]) => `${k}=${v}`),
    ];
    const args = ['-p', 'say hi', '--allowedTools', 'Read,Glob,Grep', ...mcpArgs];
    if (r.model) args.push('--model', r.model);
    const argv = ['env', '-i', ...env, 'timeout', '60', claudeBin(r.version as never), ...args];
    lines.push(`cd ${shq(cwd)} && ${argv.map(shq).join(' ')} </dev/null >${shq(work + '/claude.stdout')} 2>${shq(work + '/claude.stderr')}; echo $? >${shq(work + '/claude.rc')}`);
    fs.writeFileSync(path.join(work, 'run.sh'), lines.join('\n') + '\n');
    await run('bash', [path.join(work, 'run.sh')], { cwd: REPO_DIR, env: { PATH: process.env.PATH ?? '' }, timeoutMs: 150_000 });
    const read = (f: string) => {
      try {
        return fs.readFileSync(path.join(work, f), 'utf8');
      } catch {
        return '';
      }
    };
    const rc = (f: string) => (read(f).trim() === '' ? null : Number(read(f).trim()));
    const body = lastMainLoopBody(mock.requests.filter((q) => q.method === 'POST' && !q.url.includes('count_tokens')).map((q) => q.body)) as Body | null;
    if (!body) throw new Error(`no main-loop request (claude: ${read('claude.stdout').slice(0, 300)} ${read('claude.stderr').slice(0, 300)})`);
    let engine: Captured['engine'] = null;
    if (r.engine) {
      const stdout = read('engine.stdout');
      let json: unknown = null;
      try {
        json = JSON.parse(stdout);
      } catch {
        /* reported by the caller */
      }
      engine = { code: rc('engine.rc'), stdout, stderr: read('engine.stderr'), json };
    }
    return { root, model: body.model, body, claude: { code: rc('claude.rc'), stderr: read('claude.stderr') }, engine, cleanup };
  } catch (e) {
    cleanup();
    throw e;
  } finally {
    await mock.close();
  }
}

const texts = (c: string | Part[]): string[] => (typeof c === 'string' ? [c] : c.filter((p) => p.type === 'text' && typeof p.text === 'string').map((p) => p.text!));

/** the section of TEXT that starts with HEAD, up to the first of ENDS (exclusive) or the end */
function section(text: string, head: string, ends: string[]): string | undefined {
  const at = text.indexOf(head);
  if (at < 0) return undefined;
  let cut = text.length;
  for (const e of ends) {
    const k = text.indexOf(e, at + head.length);
    if (k >= 0 && k < cut) cut = k;
  }
  return text.slice(at, cut);
}

export interface Parts {
  /** widths of the system blocks without the one holding the memory section */
  systemBlocks: number[];
  /** the block holding the `# Memory` section, without it */
  systemMain: number;
  systemChars: number;
  tools: { name: string; chars: number }[];
  toolsChars: number;
  deferredListing?: string;
  deferredNames: string[];
  mcpInstructions?: string;
  /** the sections naming servers that did not make it, by kind: their text up to the closing paragraph, and their
   *  width with it and its joining blank line */
  status: Record<string, { text: string; chars: number }>;
  /** servers named in them */
  statusNames: string[];
  /** every message text besides the prompt, the skills listing, the deferred-tools listing, the MCP instructions
   *  (each with the blank line joining it) */
  messagesFixed: number;
  messagesChars: number;
}

const STATUS_HEADS = [['mcp-failed', MCP_FAILED_HEAD], ['mcp-list-failed', MCP_LIST_FAILED_HEAD], ['mcp-pending', MCP_PENDING_HEAD]] as const;
const SKILLS_ENDS = ["\n\nToday's date is ", '\n\n<total_tokens>'];

export function firstRequestParts(c: Captured): Parts {
  const unrooted = (s: string) => s.length - (s.split(c.root).length - 1) * c.root.length;
  const b = c.body;
  const memory = memorySectionOf(b) ?? '';
  const blocks = b.system.map((s) => s.text ?? '');
  const mi = memory ? blocks.findIndex((t) => t.includes(memory)) : blocks.length - 1;
  const systemMain = unrooted(blocks[mi]!) - unrooted(memory);
  const systemBlocks = blocks.filter((_t, i) => i !== mi).map(unrooted);
  const tools = b.tools.map((t) => ({ name: t.name, chars: unrooted(JSON.stringify(t)) }));
  const all = b.messages.flatMap((m) => texts(m.content));
  let fixed = 0;
  let deferredListing: string | undefined;
  let mcpInstructions: string | undefined;
  let messagesChars = 0;
  const status: Parts['status'] = {};
  const statusNames: string[] = [];
  for (const t of all) {
    messagesChars += t.length;
    if (t === 'say hi') continue;
    let n = unrooted(t);
    const d = section(t, DEFERRED_TOOLS_LEAD, ['\n\n']);
    if (d !== undefined) {
      deferredListing = d;
      n -= d.length + 2;
    }
    for (const [kind, head] of STATUS_HEADS) {
      const pAt = t.indexOf(head);
      if (pAt < 0) continue;
      const namesEnd = t.indexOf('\n\n', pAt);
      const end = t.indexOf('\n\n', namesEnd + 2);
      const whole = t.slice(pAt, end < 0 ? t.length : end);
      status[kind] = { text: t.slice(pAt, namesEnd), chars: whole.length + 2 };
      statusNames.push(...t.slice(pAt + head.length, namesEnd).split('\n').map((l) => l.replace(/ \(.*$/, '')));
      n -= whole.length + 2;
    }
    const m = section(t, MCP_INSTRUCTIONS_HEAD, ['\n\n' + SKILLS_LISTING_HEADER, ...SKILLS_ENDS]);
    if (m !== undefined) {
      mcpInstructions = m;
      n -= m.length + 2;
    }
    const l = section(t, SKILLS_LISTING_HEADER, SKILLS_ENDS);
    if (l !== undefined) n -= (l.endsWith('\n</system-reminder>') ? l.length - '\n</system-reminder>'.length : l.length) + (t.startsWith(SKILLS_LISTING_HEADER) ? 0 : 2);
    fixed += n;
  }
  return {
    systemBlocks,
    systemMain,
    systemChars: blocks.reduce((a, t) => a + t.length, 0),
    tools,
    toolsChars: JSON.stringify(b.tools).length,
    deferredListing,
    deferredNames: deferredListing ? deferredListing.slice(DEFERRED_TOOLS_LEAD.length).split('\n') : [],
    mcpInstructions,
    status,
    statusNames,
    messagesFixed: fixed,
    messagesChars,
  };
}
