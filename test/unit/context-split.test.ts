// The live session split like `/context` (src/engine/transcript/context-split.ts, issue 32 point 4): a synthetic
// 2.1.335-shaped transcript (texts of our own, Claude Code's section heads only) whose system message holds the
// environment, the deferred-tools listing, the agent listing, the MCP instructions and the skills listing in one text
// block, and a ToolSearch that loads one MCP tool in the second turn.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseTranscriptText, PREAMBLE, PROFILES, SessionReplayer, sessionContextSplit } from '../../src/engine/index.js';
import { AGENT_LISTING_HEAD, DEFERRED_TOOLS_LEAD, MCP_INSTRUCTIONS_HEAD, SKILLS_LISTING_HEADER } from '../../src/engine/format-strings.js';
import { sessionListings } from '../../src/engine/transcript/attachment-layers.js';
import { messageHash } from '../../src/engine/transcript/requests.js';

const profile = PROFILES[PROFILES.length - 1]!;
const J = (o: unknown) => JSON.stringify(o);

const env = '# Environment\nOUR_ENV_LINES';
const deferred = `${DEFERRED_TOOLS_LEAD}WebFetch\nmcp__db__query\nmcp__db__schema`;
const agents = `${AGENT_LISTING_HEAD}- helper: OUR_AGENT\n\nOUR_AGENT_ADVICE`;
const mcpInstr = `${MCP_INSTRUCTIONS_HEAD}## db\nOUR_DB_INSTRUCTIONS`;
const skills = `${SKILLS_LISTING_HEADER}- one: OUR_SKILL`;
const date = "Today's date is 2026-12-01.";
const systemMessage = [env, deferred, agents, mcpInstr, skills, date].join('\n\n');
const startup = `<system-reminder>\n${PREAMBLE}\n\nContents of /w/CLAUDE.md (project instructions, checked into the codebase):\n\nOUR_RULES\n</system-reminder>`;
const queryTool = { name: 'mcp__db__query', description: 'OUR_QUERY', input_schema: { type: 'object' }, defer_loading: true };
const placeholder = { name: 'DeferredToolPlaceholder', description: 'x', defer_loading: true };

function transcript(): string {
  const first = { role: 'user', content: [{ type: 'text', text: startup }, { type: 'text', text: 'find it' }] };
  const sys = { role: 'user', content: [{ type: 'text', text: systemMessage }] };
  const use = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'ToolSearch', input: { query: 'select:mcp__db__query' } }] };
  const res = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'tool_reference', tool_name: 'mcp__db__query' }] }] };
  const u = (input: number) => ({ usage: { input_tokens: input, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 1 } });
  const base = [{ name: 'Read', description: 'OUR_READ' }, { name: 'ToolSearch', description: 'OUR_SEARCH' }, placeholder];
  const lines = [
    { type: 'user', uuid: 'p1', sessionId: 'S', version: '2.1.335', cwd: '/w', timestamp: '2026-12-01T10:00:00.000Z', message: { role: 'user', content: 'find it' } },
    { type: 'attachment', uuid: 'd1', attachment: { type: 'deferred_tools_delta', addedNames: ['WebFetch', 'mcp__db__query', 'mcp__db__schema'], addedLines: ['WebFetch', 'mcp__db__query', 'mcp__db__schema'], removedNames: [] } },
    { type: 'attachment', uuid: 'm1', attachment: { type: 'mcp_instructions_delta', addedNames: ['db'], addedBlocks: ['## db\nOUR_DB_INSTRUCTIONS'], removedNames: [] } },
    { type: 'api-request-shape', shapeHash: 'sh1', shape: { system: [{ type: 'text', text: 'OUR_SYSTEM' }], tools: base } },
    { type: 'api-request-blob', hash: messageHash(first), message: first },
    { type: 'api-request-blob', hash: messageHash(sys), message: sys },
    { type: 'api-request', id: 'r1', shapeHash: 'sh1', params: { model: 'claude-opus-5-5' }, keep: 0, tail: [messageHash(first), messageHash(sys)], timestamp: '2026-12-01T10:00:01.000Z' },
    { type: 'assistant', uuid: 'a1', requestRef: 'r1', message: { ...use, ...u(600) } },
    { type: 'user', uuid: 't1', message: res },
    { type: 'api-request-shape', shapeHash: 'sh2', shape: { system: [{ type: 'text', text: 'OUR_SYSTEM' }], tools: [...base, queryTool] } },
    { type: 'api-request', id: 'r2', base: 'r1', keep: 2, shapeHash: 'sh2', params: { model: 'claude-opus-5-5' }, tail: [messageHash(use), messageHash(res)], timestamp: '2026-12-01T10:00:02.000Z' },
    { type: 'assistant', uuid: 'a2', requestRef: 'r2', message: { role: 'assistant', content: [{ type: 'text', text: 'done' }], ...u(700) } },
  ];
  return lines.map(J).join('\n') + '\n';
}

function split() {
  const p = parseTranscriptText(transcript());
  const r = new SessionReplayer();
  r.add(p.records);
  const live = r.result([], profile);
  const listings = sessionListings([live.leadingRecords, ...live.turnRecords], live.requests);
  return { live, c: sessionContextSplit(live, listings.mcp, profile, { tokens: 700, window: 200_000, model: 'claude-opus-5-5', fraction: 0.0035, autoCompactAt: 167_000 })! };
}

describe('the live session split like /context', () => {
  test('the system message is split by its sections, each counted once, the rest as Claude Code\'s other texts', () => {
    const { live } = split();
    const c = live.requests[1]!.chars!;
    assert.equal(c.deferredListing, deferred.length);
    assert.equal(c.agents, agents.length);
    assert.equal(c.mcpInstructions, mcpInstr.length);
    assert.equal(c.skillsListing, skills.length);
    assert.equal(c.fixedTexts, systemMessage.length - deferred.length - agents.length - mcpInstr.length - skills.length);
    assert.equal(c.instructions, startup.length);
    assert.equal(c.system, 'OUR_SYSTEM'.length);
    assert.equal(c.mcp.db, JSON.stringify(queryTool).length);
  });

  test('categories of /context, tokens at the request\'s own ratio, free space and the auto-compact buffer from the window', () => {
    const { c } = split();
    const row = (k: string) => c.rows.find((x) => x.category === k)!;
    assert.deepEqual(c.rows.map((x) => x.category), ['system-prompt', 'tools-built-in', 'tools-mcp', 'mcp-instructions', 'memory-files', 'skills', 'agents', 'deferred-tools', 'messages', 'free-space', 'autocompact-buffer']);
    assert.equal(row('tools-mcp').server, 'db');
    assert.equal(c.request.id, 'r2');
    const chars = c.rows.reduce((n, x) => n + (x.chars ?? 0), 0);
    assert.equal(chars, c.totalChars, 'the rows add up to the request');
    assert.deepEqual(c.tokensPerChar, { value: 700 / c.totalChars, from: 'usage' });
    assert.equal(row('autocompact-buffer').tokens, 200_000 - 167_000);
    assert.equal(row('free-space').tokens, 200_000 - 700 - 33_000);
  });

  test('MCP per server: its tools sent, its instructions, its deferred names, and what ToolSearch loaded in which turn', () => {
    const { c } = split();
    assert.equal(c.mcp.length, 1);
    const db = c.mcp[0]!;
    assert.equal(db.server, 'db');
    assert.equal(db.instructionsChars, '## db\nOUR_DB_INSTRUCTIONS'.length);
    assert.deepEqual(db.deferredTools, ['mcp__db__query', 'mcp__db__schema']);
    assert.deepEqual(db.loaded, [{ tool: 'mcp__db__query', turn: 0, request: 'r2', at: '2026-12-01T10:00:02.000Z', chars: JSON.stringify(queryTool).length, inLastRequest: true }]);
    assert.deepEqual(c.loadedBuiltIn, [], "Claude Code's placeholder is not a loaded tool");
  });

  test('a version that records no request has no split (its breakdown is derived elsewhere)', () => {
    const r = new SessionReplayer();
    r.add(parseTranscriptText(J({ type: 'user', uuid: 'p', version: '2.1.235', message: { role: 'user', content: 'hi' } }) + '\n').records);
    assert.equal(sessionContextSplit(r.result([], profile), [], profile, null), null);
  });
});
