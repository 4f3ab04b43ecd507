// MCP servers (issue 32): which servers a session connects, the first request's MCP sections, the probe of a server
// (the fixture crashing, lying, hanging, writing garbage), and the transcripts' deltas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { analyze, DiagnosticSink, firstRequest, mcpFactsFromTranscripts, mcpToolName, nodeFileAccess, resolveMcpServers, toolSearchMode, capText, type McpServer } from '../../src/engine/index.js';
import { MCP_INSTRUCTIONS_HEAD, MCP_TRUNCATED } from '../../src/engine/format-strings.js';
import { probeMcpServer } from '../../src/ground-truth/mcp-probe.js';
import { FIRST_REQUESTS } from '../../src/engine/profiles.js';

const SERVER = path.resolve(__dirname, '../fixtures/mcp/server.mjs');
const fixture = (cfg: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [SERVER, JSON.stringify(cfg)], ...extra });

function tree(files: Record<string, string>): { root: string; cwd: string; home: string; done(): void } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-mcp-unit-')));
  const cwd = path.join(root, 'repo');
  const home = path.join(root, 'home');
  fs.mkdirSync(cwd, { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    const p = path.join(root, rel.replace('{ROOT}', root));
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text.replace(/\{ROOT\}/g, root));
  }
  return { root, cwd, home, done: () => fs.rmSync(root, { recursive: true, force: true }) };
}

test('scopes: --mcp-config > local > project > user; strict keeps the flag scope; disabledMcpjsonServers', () => {
  const t = tree({
    'repo/.mcp.json': JSON.stringify({ mcpServers: { same: { command: 'p' }, proj: { command: 'p2' }, off: { command: 'x' } } }),
    'repo/.claude/settings.json': JSON.stringify({ disabledMcpjsonServers: ['off'] }),
    'home/.claude.json': JSON.stringify({ mcpServers: { same: { command: 'u' }, usr: { url: 'https://example.invalid/mcp', type: 'http' } }, projects: { '{ROOT}/repo': { mcpServers: { same: { command: 'l' } } } } }),
    'flag.json': JSON.stringify({ mcpServers: { same: { command: 'f' } } }),
  });
  try {
    const a = analyze({ cwd: t.cwd, home: t.home, env: {} });
    const sink = new DiagnosticSink();
    const r = resolveMcpServers(a.env, a.settings, { mcpConfigFiles: [path.join(t.root, 'flag.json')] }, sink);
    assert.deepEqual(r.servers.map((s) => `${s.name}:${s.scope}:${s.config.command ?? s.config.url}`), ['same:flag:f', 'proj:project:p2', 'usr:user:https://example.invalid/mcp']);
    assert.deepEqual(r.shadowed.map((x) => `${x.server.scope}>${x.by.scope}`), ['local>flag', 'project>flag', 'user>flag']);
    assert.deepEqual(r.off.map((x) => x.server.name), ['off']);
    const strict = resolveMcpServers(a.env, a.settings, { mcpConfigFiles: [path.join(t.root, 'flag.json')], strictMcpConfig: true }, sink);
    assert.deepEqual(strict.servers.map((s) => s.name), ['same']);
    const noFlag = resolveMcpServers(a.env, a.settings, {}, sink);
    assert.equal(noFlag.servers.find((s) => s.name === 'same')?.scope, 'local');
  } finally {
    t.done();
  }
});

test('broken configuration: a finding naming the file, never a throw', () => {
  const t = tree({ 'repo/.mcp.json': '{"mcpServers": {', 'home/.claude.json': JSON.stringify({ mcpServers: { bad: { args: ['x'] } } }) });
  try {
    const a = analyze({ cwd: t.cwd, home: t.home, env: {} });
    const sink = new DiagnosticSink();
    const r = resolveMcpServers(a.env, a.settings, { mcpConfigFiles: [path.join(t.root, 'missing.json')] }, sink);
    assert.deepEqual(r.servers, []);
    const msgs = sink.all().map((d) => `${path.basename(d.path)}: ${d.rule}`);
    assert.ok(msgs.includes('.mcp.json: mcp-config-unreadable'), msgs.join('; '));
    assert.ok(msgs.includes('missing.json: mcp-config-unreadable'), msgs.join('; '));
    assert.ok(msgs.includes('.claude.json: mcp-config-unreadable'), msgs.join('; '));
  } finally {
    t.done();
  }
});

test('tool names, tool search modes, the 2.1.235 cap', () => {
  assert.equal(mcpToolName('my.server', 'get item'), 'mcp__my_server__get_item');
  assert.deepEqual(toolSearchMode(undefined), { kind: 'on' });
  assert.deepEqual(toolSearchMode(undefined, 'off'), { kind: 'off' });
  assert.deepEqual(toolSearchMode('false'), { kind: 'off' });
  assert.deepEqual(toolSearchMode('auto:5'), { kind: 'auto', percent: 5 });
  // plain `auto`: the profile's measured percentage, 10 on every version (docs/profiles.md)
  for (const [v, fr] of Object.entries(FIRST_REQUESTS)) {
    assert.equal(fr.toolSearch?.autoPercent, 10, v);
    assert.deepEqual(toolSearchMode('auto', fr.toolSearch.unset, fr.toolSearch.autoPercent), { kind: 'auto', percent: 10 });
  }
  assert.equal(capText('x'.repeat(3000), 2048), 'x'.repeat(2048) + MCP_TRUNCATED);
  assert.equal(capText('x'.repeat(3000), undefined).length, 3000);
});

test('the first request: deferred on 2.1.335, whole with tool search off, instructions in name order', () => {
  const t = tree({});
  try {
    const servers: McpServer[] = [
      { name: 'zeta', scope: 'project', source: '.mcp.json', config: { command: 'z' } },
      { name: 'alpha', scope: 'user', source: '.claude.json', config: { command: 'a' } },
    ];
    const facts = {
      zeta: { from: 'server' as const, instructions: 'Z', tools: [{ name: 't', description: 'd', inputSchema: { type: 'object' } }] },
      alpha: { from: 'server' as const, instructions: 'A', tools: [{ name: 'u', description: 'e' }] },
    };
    const on = firstRequest(analyze({ cwd: t.cwd, home: t.home, env: {}, claudeVersion: '2.1.335' }), { mcp: { servers, shadowed: [], off: [] }, facts });
    assert.equal(on.toolSearch.active, true);
    assert.ok(on.deferredToolNames.includes('mcp__zeta__t') && on.deferredToolNames.includes('WebFetch'));
    assert.equal(on.sections.find((s) => s.kind === 'mcp-instructions')?.text, `${MCP_INSTRUCTIONS_HEAD}## alpha\nA\n\n## zeta\nZ`);
    assert.equal(on.tools.chars, 35_028, 'the tools array measured on 2.1.335 with tool search on');
    const off = firstRequest(analyze({ cwd: t.cwd, home: t.home, env: { ENABLE_TOOL_SEARCH: 'false' }, claudeVersion: '2.1.335' }), { mcp: { servers, shadowed: [], off: [] }, facts });
    const zeta = '{"name":"mcp__zeta__t","description":"d","input_schema":{"type":"object"}}'.length;
    const alpha = '{"name":"mcp__alpha__u","description":"e","input_schema":{"type":"object","properties":{}}}'.length;
    assert.equal(off.tools.chars, 65_022 - 5 * 200 - 5 + zeta + alpha + 2, 'measured on 2.1.335 with five 200-character tools: the built-ins whole, plus the two tools and their commas');
    assert.deepEqual(off.deferredToolNames, []);
    assert.equal(off.mcp.every((m) => !m.deferred), true);
  } finally {
    t.done();
  }
});

test('the probe: instructions and tools; crash, lie, garbage and hang are errors naming the server, within the timeout', async () => {
  const s = (name: string, cfg: Record<string, unknown>): McpServer => ({ name, scope: 'project', source: '.mcp.json', config: fixture(cfg) });
  const ok = await probeMcpServer(s('ok', { tools: 2, instructions: 'hello' }), { env: { PATH: process.env.PATH }, cwd: os.tmpdir(), timeoutMs: 10_000 });
  assert.equal(ok.error, undefined);
  assert.equal(ok.instructions, 'hello');
  assert.deepEqual(ok.tools?.map((x) => x.name), ['tool_0', 'tool_1']);
  const started = Date.now();
  const [crash, liar, garbage, hang] = await Promise.all([
    probeMcpServer(s('crash', { crash: 'start' }), { env: {}, cwd: os.tmpdir(), timeoutMs: 3000 }),
    probeMcpServer(s('liar', { lie: 'shape' }), { env: {}, cwd: os.tmpdir(), timeoutMs: 3000 }),
    probeMcpServer(s('garbage', { lie: 'garbage' }), { env: {}, cwd: os.tmpdir(), timeoutMs: 1500 }),
    probeMcpServer(s('hang', { slowStartMs: 60_000 }), { env: {}, cwd: os.tmpdir(), timeoutMs: 1500 }),
  ]);
  assert.ok(Date.now() - started < 8000, 'no hang');
  assert.equal(crash.status, 'failed');
  assert.match(crash.error!, /"crash".*exited/);
  assert.equal(liar.status, 'list-failed');
  assert.match(liar.error!, /"liar".*not a list of tools/);
  assert.equal(garbage.status, 'pending');
  assert.match(garbage.error!, /"garbage".*not JSON-RPC/);
  assert.equal(hang.status, 'pending');
  const missing = await probeMcpServer({ name: 'nope', scope: 'user', source: 'x', config: { command: '/nonexistent/server' } }, { env: {}, cwd: os.tmpdir(), timeoutMs: 3000 });
  assert.match(missing.error!, /"nope"/);
});

test('transcripts: tool names and instructions from the deltas, a cut line skipped', () => {
  const t = tree({
    'home/t.jsonl': [
      JSON.stringify({ type: 'attachment', attachment: { type: 'deferred_tools_delta', addedNames: ['WebFetch', 'mcp__demo__a', 'mcp__demo__b', 'mcp__other__x'] } }),
      JSON.stringify({ type: 'attachment', attachment: { type: 'mcp_instructions_delta', addedNames: ['demo'], addedBlocks: ['## demo\nUse demo.'] } }),
      '{"type":"attachment","attachment":{"type":"deferred_tools_delta","addedNa',
      JSON.stringify({ type: 'attachment', attachment: { type: 'deferred_tools_delta', removedNames: ['mcp__demo__b'] } }),
    ].join('\n'),
  });
  try {
    const f = mcpFactsFromTranscripts(nodeFileAccess, [{ file: path.join(t.home, 't.jsonl'), mtimeMs: 1 }], ['demo', 'absent']);
    assert.deepEqual(f.demo, { from: 'transcript', toolNames: ['mcp__demo__a'], instructions: 'Use demo.' });
    assert.equal(f.absent, undefined);
  } finally {
    t.done();
  }
});

test('plugin servers: an enabled plugin of a marketplace folder on disk, read in place (2.1.328 on), named plugin:PLUGIN:SERVER', () => {
  const t = tree({
    'market/.claude-plugin/marketplace.json': JSON.stringify({ name: 'local', plugins: [{ name: 'demo', source: './demo' }, { name: 'inline', source: './inline' }, { name: 'off', source: './off' }] }),
    'market/demo/.claude-plugin/plugin.json': JSON.stringify({ name: 'demo' }),
    'market/demo/.mcp.json': JSON.stringify({ mcpServers: { pserver: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/s.mjs'] } } }),
    'market/inline/.claude-plugin/plugin.json': JSON.stringify({ name: 'inline', mcpServers: { own: { command: 'x' } } }),
    'market/off/.mcp.json': JSON.stringify({ mcpServers: { never: { command: 'y' } } }),
    'home/.claude/settings.json': JSON.stringify({ enabledPlugins: { 'demo@local': true, 'inline@local': true, 'off@local': false, 'ghost@nowhere': true }, extraKnownMarketplaces: { local: { source: { source: 'directory', path: '{ROOT}/market' } } } }),
    'home/.claude.json': JSON.stringify({ mcpServers: { usr: { command: 'u' } } }),
  });
  try {
    const a = analyze({ cwd: t.cwd, home: t.home, env: {} });
    const sink = new DiagnosticSink();
    const r = resolveMcpServers(a.env, a.settings, { version: '2.1.335' }, sink);
    assert.deepEqual(r.servers.map((s) => `${s.name}:${s.scope}`), ['usr:user', 'plugin:demo:pserver:plugin', 'plugin:inline:own:plugin']);
    assert.deepEqual(r.servers[1]!.config.args, [`${t.root}/market/demo/s.mjs`]);
    assert.equal(r.servers[1]!.source, `${t.root}/market/demo/.mcp.json`);
    assert.equal(mcpToolName('plugin:demo:pserver', 'tool_0'), 'mcp__plugin_demo_pserver__tool_0');
    assert.deepEqual(sink.all(), []);
    // measured: 2.1.235 connected no such server
    assert.deepEqual(resolveMcpServers(a.env, a.settings, { version: '2.1.235' }, sink).servers.map((s) => s.name), ['usr']);
  } finally {
    t.done();
  }
});

test('managed-mcp.json in the managed folder takes exclusive control: only its servers; the others configured and never connected', () => {
  const t = tree({
    'managed/managed-mcp.json': JSON.stringify({ mcpServers: { corp: { command: 'c' } } }),
    'repo/.mcp.json': JSON.stringify({ mcpServers: { proj: { command: 'p' } } }),
    'home/.claude.json': JSON.stringify({ mcpServers: { usr: { command: 'u' } } }),
  });
  try {
    const a = analyze({ cwd: t.cwd, home: t.home, env: {}, managedDir: path.join(t.root, 'managed') });
    const r = resolveMcpServers(a.env, a.settings, { version: '2.1.335' }, new DiagnosticSink());
    assert.deepEqual(r.servers.map((s) => `${s.name}:${s.scope}`), ['corp:managed']);
    assert.deepEqual(r.off.map((x) => x.server.name), ['proj', 'usr']);
    assert.match(r.off[0]!.why, /managed-mcp\.json defines the MCP servers: only its own are connected$/);
    const none = analyze({ cwd: t.cwd, home: t.home, env: {}, managedDir: path.join(t.root, 'no-such') });
    assert.deepEqual(resolveMcpServers(none.env, none.settings, {}, new DiagnosticSink()).servers.map((s) => s.name), ['proj', 'usr']);
  } finally {
    t.done();
  }
});
