// The whole first request with MCP servers (issue 32), the engine (`render --json --mcp run`, its `request`) against
// the real binary: the fixture server (test/fixtures/mcp/server.mjs) configured every way Claude Code reads it, tool
// search on, off and `auto:N` on both sides, `alwaysLoad`, instructions over the 2,048 cap, two servers, scopes,
// `--mcp-config`, `--strict-mcp-config`, a project server nobody approved, servers that crash or lie. Compared: the
// deferred-tools listing's names and the MCP instructions section byte for byte, the tools sent whole by name, the
// `tools` array, the system blocks and the whole request within 0.5 %.
//   node --import tsx --test test/conformance/mcp.test.ts     (MCP_VERSIONS=2.1.336 MCP_FILTER=substring MCP_CONCURRENCY=2)
import { before, describe, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import assert from 'node:assert/strict';
import { captureFirstRequest, firstRequestParts, fixtureServer, type McpRun } from './mcp/run.js';
import { VERSIONS } from './scenario.js';
import { REPO_DIR } from './capture.js';

// every supported version once (2.1.334 is profiled once, not supported: `profile:check` runs it on demand)
const versions = process.env.MCP_VERSIONS?.split(',') ?? [...VERSIONS];
const concurrency = Math.max(1, Number(process.env.MCP_CONCURRENCY) || 2);
const filter = process.env.MCP_FILTER;
const SLACK = 0.005;

interface McpScenario extends Omit<McpRun, 'version' | 'engine'> {
  name: string;
  /** a server that must show an error in the engine's answer */
  failing?: string[];
  /** versions the scenario is compared on (default: all) */
  versions?: string[];
}

/** Versions that wait for their servers when told (CLAUDE_CODE_MCP_STARTUP_WAIT_MS, 2.1.328 on). 2.1.235 sends its
 *  first request when a short wait ends: on this loaded 2-core machine, with three servers or with failing ones beside
 *  a healthy one, the healthy one was left out in 5 of 6 runs and included in 1 (docs/profiles.md). What it sends
 *  then depends on timing, not on the configuration: those scenarios are compared on the versions that wait. */
const WAITS = ['2.1.328', '2.1.332', '2.1.333', '2.1.334', '2.1.335', '2.1.336'];

const mcpJson = (servers: Record<string, unknown>) => JSON.stringify({ mcpServers: servers });
const demo = fixtureServer({ tools: 5, instructions: 'Use the demo tools for widgets.\nNever guess a widget id.' });

const SCENARIOS: McpScenario[] = [
  { name: 'search-on', files: { 'repo/.mcp.json': mcpJson({ demo }) } },
  { name: 'search-off', files: { 'repo/.mcp.json': mcpJson({ demo }) }, env: { ENABLE_TOOL_SEARCH: 'false' } },
  { name: 'auto-under', files: { 'repo/.mcp.json': mcpJson({ demo }) }, env: { ENABLE_TOOL_SEARCH: 'auto:50' } },
  {
    name: 'auto-over',
    files: { 'repo/.mcp.json': mcpJson({ big: fixtureServer({ tools: 40, descriptionChars: 1000 }) }) },
    env: { ENABLE_TOOL_SEARCH: 'auto:1' },
  },
  {
    name: 'always-load',
    files: { 'repo/.mcp.json': mcpJson({ pinned: fixtureServer({ tools: 2, instructions: 'pinned server' }, { alwaysLoad: true }), demo }) },
  },
  {
    name: 'long-instructions-off',
    files: { 'repo/.mcp.json': mcpJson({ long: fixtureServer({ tools: 2, instructionsChars: 3300, descriptionChars: 3000 }) }) },
    env: { ENABLE_TOOL_SEARCH: 'false' },
  },
  {
    // past 2.1.328's cap of 4,096 (2.1.235's 2,048): instructions and a description cut, the marker added
    name: 'over-cap',
    files: { 'repo/.mcp.json': mcpJson({ huge: fixtureServer({ tools: 1, instructionsChars: 5000, descriptionChars: 4500 }) }) },
    env: { ENABLE_TOOL_SEARCH: 'false' },
  },
  {
    // CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH sets the cap (2.1.328 on; 2.1.235 ignores it)
    name: 'cap-variable',
    files: { 'repo/.mcp.json': mcpJson({ long: fixtureServer({ tools: 2, instructionsChars: 600, descriptionChars: 500 }) }) },
    env: { ENABLE_TOOL_SEARCH: 'false', CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH: '300' },
  },
  {
    // a plugin's server (issue 32, Tests): a marketplace folder on disk (extraKnownMarketplaces, a directory source), the
    // plugin enabled in the user's settings, its server in the plugin's .mcp.json with ${CLAUDE_PLUGIN_ROOT}; named
    // plugin:demo:pserver. 2.1.235 connects no plugin server this way (measured twice; it did with --plugin-dir): on it
    // both sides have none
    name: 'plugin',
    files: {
      'market/.claude-plugin/marketplace.json': JSON.stringify({ name: 'local', owner: { name: 'us' }, plugins: [{ name: 'demo', source: './demo', description: 'ours' }] }),
      'market/demo/.claude-plugin/plugin.json': JSON.stringify({ name: 'demo', version: '1.0.0', description: 'ours' }),
      'market/demo/server.mjs': "import('{SERVER}');\n",
      'market/demo/.mcp.json': mcpJson({ pserver: { command: process.execPath, args: ['${CLAUDE_PLUGIN_ROOT}/server.mjs', JSON.stringify({ tools: 2, instructions: 'from a plugin' })] } }),
      'home/.claude/settings.json': JSON.stringify({ enabledPlugins: { 'demo@local': true }, extraKnownMarketplaces: { local: { source: { source: 'directory', path: '{ROOT}/market' } } } }),
    },
  },
  {
    name: 'two-servers',
    files: {
      'repo/.mcp.json': mcpJson({ zeta: fixtureServer({ tools: 2, instructions: 'zeta first in the file' }), alpha: fixtureServer({ tools: 3, instructions: 'alpha second' }) }),
      'home/.claude.json': JSON.stringify({ mcpServers: { mid: fixtureServer({ tools: 1, instructions: 'user scope' }) } }),
    },
    versions: WAITS,
  },
  {
    name: 'unapproved-and-disabled',
    files: {
      'repo/.mcp.json': mcpJson({ demo, off: fixtureServer({ tools: 1, instructions: 'disabled' }) }),
      'repo/.claude/settings.json': JSON.stringify({ enableAllProjectMcpServers: false, disabledMcpjsonServers: ['off'] }),
    },
  },
  {
    name: 'scopes-precedence',
    files: {
      'repo/.mcp.json': mcpJson({ same: fixtureServer({ tools: 1, instructions: 'project' }) }),
      'home/.claude.json': JSON.stringify({
        mcpServers: { same: fixtureServer({ tools: 3, instructions: 'user' }), onlyuser: fixtureServer({ tools: 1 }) },
        projects: { '{ROOT}/repo': { mcpServers: { same: fixtureServer({ tools: 2, instructions: 'local' }) } } },
      }),
      'flag.json': mcpJson({ flagged: fixtureServer({ tools: 2, instructions: 'from --mcp-config' }) }),
    },
    mcpArgs: ['--mcp-config', '{ROOT}/flag.json'],
  },
  {
    name: 'strict',
    files: {
      'repo/.mcp.json': mcpJson({ demo }),
      'flag.json': mcpJson({ flagged: fixtureServer({ tools: 2, instructions: 'strict only' }) }),
    },
    mcpArgs: ['--mcp-config', '{ROOT}/flag.json', '--strict-mcp-config'],
  },
  {
    name: 'failing-servers',
    files: {
      'repo/.mcp.json': mcpJson({
        demo,
        crash: fixtureServer({ crash: 'start' }),
        liar: fixtureServer({ lie: 'shape' }),
        garbage: fixtureServer({ lie: 'garbage' }),
        hang: fixtureServer({ lie: 'hang' }),
      }),
    },
    failing: ['crash', 'liar', 'garbage', 'hang'],
    versions: WAITS,
  },
];

interface EngineRequest {
  system: { chars: number };
  tools: { builtIn: string[]; chars: number };
  mcp: { server: string; scope: string; instructions: string | null; toolNames: string[]; deferred: boolean; toolChars: number; error?: string }[];
  deferredToolNames: string[];
  sections: { kind: string; chars: number; text?: string }[];
  totalChars: number;
}

/** servers the engine found healthy (tools known) that the binary's request shows no trace of */
function missing(c: Awaited<ReturnType<typeof captureFirstRequest>>): string[] {
  const req = (c.engine?.json as { request?: EngineRequest } | null)?.request;
  if (!req) return [];
  const body = JSON.stringify(c.body);
  return req.mcp.filter((m) => !m.error && m.toolNames.length && !body.includes(m.toolNames[0]!)).map((m) => m.server);
}

const near = (got: number, want: number, what: string) => assert.ok(Math.abs(got - want) <= want * SLACK, `${what}: engine ${got}, binary ${want} (${(((got - want) / want) * 100).toFixed(2)} %)`);

before(() => {
  // the binaries, into the cache (nothing happens for those already there)
  execFileSync('bash', [path.join(REPO_DIR, 'scripts/install-claude.sh'), ...versions], { stdio: ['ignore', 'ignore', 'inherit'] });
});

describe('mcp conformance', { concurrency }, () => {
  for (const v of versions) {
    for (const s of SCENARIOS) {
      if (filter && !s.name.includes(filter)) continue;
      if (s.versions && !s.versions.includes(v)) continue;
      test(`mcp ${v} ${s.name}`, async (t) => {
        // 2.1.235 sends its request without waiting for a server slow to start (on this loaded machine, now and then a
        // healthy fixture); later versions are given CLAUDE_CODE_MCP_STARTUP_WAIT_MS. Such a run is taken again.
        let c = await captureFirstRequest({ ...s, version: v, engine: true });
        for (let i = 0; i < 2 && missing(c).length; i++) {
          t.diagnostic(`${v} ${s.name}: ${missing(c).join(', ')} not connected yet when the binary sent its request: run again`);
          c.cleanup();
          c = await captureFirstRequest({ ...s, version: v, engine: true });
        }
        try {
          assert.equal(c.engine?.code, 0, `engine failed: ${c.engine?.stderr.slice(0, 500)}`);
          const req = (c.engine.json as { request: EngineRequest }).request;
          const got = firstRequestParts(c);
          const sentWhole = c.body.tools.filter((x) => x.name.startsWith('mcp__')).map((x) => x.name).sort();
          const engineWhole = req.mcp.filter((m) => !m.deferred).flatMap((m) => m.toolNames).sort();
          t.diagnostic(`${v} ${s.name}: binary tools ${got.toolsChars} (${c.body.tools.length}), system ${got.systemChars}, messages ${got.messagesChars}; engine tools ${req.tools.chars}, system ${req.system.chars}, total ${req.totalChars}`);
          assert.deepEqual(engineWhole, sentWhole, 'MCP tools sent whole');
          assert.deepEqual(req.deferredToolNames, got.deferredNames, 'the deferred-tools listing');
          for (const kind of ['mcp-failed', 'mcp-list-failed', 'mcp-pending']) {
            const e = req.sections.find((x) => x.kind === kind);
            assert.equal(e?.text, got.status[kind]?.text, `${kind}: the servers named`);
            assert.equal(e?.chars, got.status[kind]?.chars, `${kind}: the section's width`);
          }
          const mi = req.sections.find((x) => x.kind === 'mcp-instructions');
          assert.equal(mi?.text, got.mcpInstructions, 'the MCP instructions section, byte for byte');
          near(req.tools.chars, got.toolsChars, 'tools array');
          near(req.system.chars, got.systemChars, 'system blocks');
          near(req.totalChars, got.systemChars + got.toolsChars + got.messagesChars - 'say hi'.length, 'whole request');
          for (const f of s.failing ?? []) assert.ok(req.mcp.find((m) => m.server === f)?.error, `server ${f} reported as failing`);
        } finally {
          c.cleanup();
        }
      });
    }
  }
});
