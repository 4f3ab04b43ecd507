// MCP findings with their cost in `lint` (engine: checks/mcp-check.ts, issue 32 point 3) on fixture trees: tool search
// off with the characters it costs, instructions cut at the cap and the variable behind it, one name in two scopes,
// a server configured and never connected in the user's own sessions; each message also through the editor's
// translation (the same English with the identity translation, Chinese from the bundle).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIRST_REQUESTS } from '../../src/engine/profiles.js';
import { analyze, grouped, fillMessage, lintWorkspace, mcpCheck, memoryKey, MCP_MESSAGES, nodeFileAccess, type Diagnostic, type McpDiagnostic } from '../../src/engine/index.js';
import { diagnosticMessage } from '../../src/host/editor/mcp-messages.js';
import { englishT } from '../../src/host/format.js';

function tree(files: Record<string, string>): { root: string; cwd: string; home: string; done(): void } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-mcp-lint-')));
  const cwd = path.join(root, 'repo');
  const home = path.join(root, 'home');
  fs.mkdirSync(cwd, { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    const p = path.join(root, rel.replace('{KEY}', memoryKey(cwd)));
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text.replace(/\{ROOT\}/g, root));
  }
  return { root, cwd, home, done: () => fs.rmSync(root, { recursive: true, force: true }) };
}

const J = (o: unknown) => JSON.stringify(o);
const byRule = (ds: Diagnostic[], rule: string) => ds.filter((d) => d.rule === rule) as McpDiagnostic[];
/** a transcript of our own with the deltas 2.1.335 writes: deferred tool names and a server's instructions */
const transcript = (names: string[], instructions?: [string, string]) =>
  [
    J({ type: 'user', uuid: 'p', version: '2.1.335', message: { role: 'user', content: 'hi' } }),
    J({ type: 'attachment', attachment: { type: 'deferred_tools_delta', addedNames: ['WebFetch', ...names], addedLines: ['WebFetch', ...names] } }),
    ...(instructions ? [J({ type: 'attachment', attachment: { type: 'mcp_instructions_delta', addedNames: [instructions[0]], addedBlocks: [`## ${instructions[0]}\n${instructions[1]}`] } })] : []),
  ].join('\n') + '\n';

test('tool search off: the characters of schemas sent at every start and how many more than with it on', () => {
  const t = tree({ 'repo/.claude/settings.json': J({ env: { ENABLE_TOOL_SEARCH: 'false' } }) });
  try {
    const a = analyze({ cwd: t.cwd, home: t.home, env: { ENABLE_TOOL_SEARCH: 'false' }, claudeVersion: '2.1.335' });
    const [d, ...rest] = byRule(mcpCheck(a, nodeFileAccess), 'tool-search-off');
    assert.equal(rest.length, 0);
    assert.ok(d, 'a finding');
    assert.equal(d.path, path.join(t.cwd, '.claude/settings.json'), 'names the settings file that sets it');
    // 2.1.335's measured widths (docs/profiles.md): off, its 23 built-in tools whole; on, the 12 not deferred, ToolSearch
    // and the placeholder (35,028)
    const tools = FIRST_REQUESTS['2.1.335']!.builtInTools;
    const off = tools.reduce((n, x) => n + x[1], 0) + 2 + tools.length - 1;
    assert.equal(d.message, `tool search is off (ENABLE_TOOL_SEARCH is false: every tool is sent whole): ${grouped(off)} characters of tool schemas are sent at the start of every session, ${grouped(off - 35_028)} more than with tool search on (11 tools would only be named); set ENABLE_TOOL_SEARCH=true (or auto) to defer them`);
    const on = analyze({ cwd: t.cwd, home: t.home, env: {}, claudeVersion: '2.1.335' });
    assert.deepEqual(byRule(mcpCheck(on, nodeFileAccess), 'tool-search-off'), [], 'on by default in 2.1.335: no finding');
  } finally {
    t.done();
  }
});

test('a server in two scopes: the finding on the shadowed definition, its line, which scope wins', () => {
  const t = tree({
    'repo/.mcp.json': `{\n  "mcpServers": {\n    "db": { "command": "project-db" }\n  }\n}\n`,
    'home/.claude.json': J({ projects: { '{ROOT}/repo': { mcpServers: { db: { command: 'local-db' } } } } }),
  });
  try {
    const a = analyze({ cwd: t.cwd, home: t.home, env: {}, claudeVersion: '2.1.335' });
    const [d] = byRule(mcpCheck(a, nodeFileAccess), 'mcp-server-shadowed');
    assert.ok(d);
    assert.equal(d.path, path.join(t.cwd, '.mcp.json'));
    assert.equal(d.line, 3);
    assert.equal(d.message, `MCP server "db" is defined in the project scope here and in the local scope (${path.join(t.home, '.claude.json')}): the local one wins, this one is never connected`);
  } finally {
    t.done();
  }
});

test('configured and never connected: only sessions written after the configuration count; a server they name is connected', () => {
  const t = tree({
    'repo/.mcp.json': J({ mcpServers: { demo: { command: 'd' }, ghost: { command: 'g' } } }),
    'home/.claude/projects/{KEY}/s1.jsonl': transcript(['mcp__demo__a'], ['demo', 'Use demo.']),
    'home/.claude/projects/{KEY}/s2.jsonl': transcript(['mcp__demo__a']),
  });
  try {
    const cfg = path.join(t.cwd, '.mcp.json');
    const dir = path.join(t.home, '.claude/projects', memoryKey(t.cwd));
    const old = new Date(Date.now() - 3_600_000);
    fs.utimesSync(cfg, old, old);
    const a = analyze({ cwd: t.cwd, home: t.home, env: {}, claudeVersion: '2.1.335' });
    const found = byRule(mcpCheck(a, nodeFileAccess), 'mcp-server-never-connected');
    assert.deepEqual(found.map((d) => d.message), ['MCP server "ghost" (project) is configured and was connected in none of the 2 newest sessions of this folder written since its configuration last changed: its tools and instructions never reached the model']);
    assert.equal(found[0]!.path, cfg);
    // the configuration changed after every session: nothing is known of the new one
    const now = new Date();
    fs.utimesSync(cfg, now, now);
    for (const f of ['s1.jsonl', 's2.jsonl']) fs.utimesSync(path.join(dir, f), old, old);
    assert.deepEqual(byRule(mcpCheck(analyze({ cwd: t.cwd, home: t.home, env: {}, claudeVersion: '2.1.335' }), nodeFileAccess), 'mcp-server-never-connected'), []);
  } finally {
    t.done();
  }
});

test('instructions cut: 2.1.235 at 2,048 (fixed); 2.1.335 at 4,096 or at CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH, which the message names', () => {
  const long = 'x'.repeat(3300);
  const t = tree({
    'repo/.mcp.json': J({ mcpServers: { big: { command: 'b' } } }),
    'home/.claude/projects/{KEY}/s1.jsonl': transcript(['mcp__big__a'], ['big', long]),
  });
  try {
    const old = analyze({ cwd: t.cwd, home: t.home, env: {}, claudeVersion: '2.1.235' });
    const [d] = byRule(mcpCheck(old, nodeFileAccess), 'mcp-text-cut');
    assert.equal(d?.message, 'MCP server "big": its instructions are 3,300 characters; Claude Code 2.1.235 sends the first 2,048 and "… [truncated]" (a fixed cap in this version)');
    assert.deepEqual(byRule(mcpCheck(analyze({ cwd: t.cwd, home: t.home, env: {}, claudeVersion: '2.1.335' }), nodeFileAccess), 'mcp-text-cut'), [], '3,300 is under 2.1.335\'s default cap of 4,096');
    const capped = analyze({ cwd: t.cwd, home: t.home, env: { CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH: '100' }, claudeVersion: '2.1.335' });
    const [c] = byRule(mcpCheck(capped, nodeFileAccess), 'mcp-text-cut');
    assert.equal(c?.message, 'MCP server "big": its instructions are 3,300 characters; Claude Code 2.1.335 sends the first 100 and "… [truncated]" (the cap comes from CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH=100)');
    const huge = tree({
      'repo/.mcp.json': J({ mcpServers: { big: { command: 'b' } } }),
      'home/.claude/projects/{KEY}/s1.jsonl': transcript(['mcp__big__a'], ['big', 'y'.repeat(5000)]),
    });
    try {
      const [h] = byRule(mcpCheck(analyze({ cwd: huge.cwd, home: huge.home, env: {}, claudeVersion: '2.1.335' }), nodeFileAccess), 'mcp-text-cut');
      assert.equal(h?.message, 'MCP server "big": its instructions are 5,000 characters; Claude Code 2.1.335 sends the first 4,096 and "… [truncated]" (the version\'s default cap; CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH changes it)');
    } finally {
      huge.done();
    }
  } finally {
    t.done();
  }
});

test('lint reports them; the editor shows the same English through the identity translation and the Chinese from the bundle', async () => {
  const t = tree({
    'repo/.mcp.json': J({ mcpServers: { db: { command: 'p' } } }),
    'home/.claude.json': J({ mcpServers: { db: { command: 'u' } } }),
  });
  try {
    const a = analyze({ cwd: t.cwd, home: t.home, env: { ENABLE_TOOL_SEARCH: 'false' }, claudeVersion: '2.1.335' });
    const r = await lintWorkspace(a, { secrets: false });
    const mine = r.diagnostics.filter((d) => (d as Partial<McpDiagnostic>).l10n) as McpDiagnostic[];
    assert.deepEqual(mine.map((d) => d.rule).sort(), ['mcp-server-shadowed', 'tool-search-off']);
    const zh = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../l10n/bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;
    const zhT = (m: string, ...args: unknown[]) => fillMessage(zh[m] ?? `MISSING ${m}`, args.map(String));
    for (const d of mine) {
      assert.equal(diagnosticMessage(d, englishT), d.message, `${d.rule}: the host's template is the engine's`);
      assert.equal(d.message, fillMessage(MCP_MESSAGES[d.l10n.key], [...d.l10n.args, d.l10n.suffix ? fillMessage(MCP_MESSAGES[d.l10n.suffix.key], d.l10n.suffix.args) : '']));
      const cn = diagnosticMessage(d, zhT);
      assert.ok(!cn.includes('MISSING') && /[\u4e00-\u9fff]/.test(cn), cn);
    }
  } finally {
    t.done();
  }
});
