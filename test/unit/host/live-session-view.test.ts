// The This Session (live) view's rows over turn objects as the engine's reader gives them, and with
// the fields issue 31 adds to them (requests, usage, cost, cache, hooks, marks, kind; the session's MCP
// servers, cost and versions): rows lead with the file name, labels are one line, a turn without
// anything under it has no expander, a compaction says its size before and after and what it dropped,
// each layer of the last request opens its text, the header names what the followed session runs.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { l10n } from './vscode-fake.js';
import { analyze, memoryKey, nodeFileAccess, type LiveSession, type LiveTurn } from '../../../src/engine/index.js';
import type { LiveModel } from '../../../src/host/session/live-session.js';
import { summarizeTranscript } from '../../../src/engine/transcript/session-summary.js';
import { docName, LiveSessionView, oneLine, type SessionExtras, type TurnExtras } from '../../../src/host/session/live-session-view.js';
import { englishT } from '../../../src/host/format.js';
import { present } from '../../../src/host/sidebar/present.js';
import { makeTree } from '../../helpers/fixture.js';

const CWD = '/home/me/projects/app';

function turn(over: Partial<LiveTurn & TurnExtras>): LiveTurn & TurnExtras {
  return { prompt: 'p', kind: 'prompt', promptChars: 1, marks: [], instructions: null, changedNotes: null, restored: null, calls: [], requests: 1, compacted: null, resumed: false, instructionsFrom: null, timestamp: new Date().toISOString(), ...over };
}

function model(turns: LiveTurn[], extra: Partial<LiveSession & SessionExtras> = {}, next?: LiveModel['next']): LiveModel {
  const session = {
    cwd: CWD, version: '2.1.144', model: 'claude-opus-4-7', source: 'requests', turns, requests: [], tokensPerChar: 0.25, lastUsage: null, warnings: [],
    transcript: '/t/s.jsonl', bytes: 0, lines: 0, problems: [], unknownTypes: {}, partialLine: false, ...extra,
  } as LiveSession & SessionExtras;
  return { file: '/t/s.jsonl', running: true, lastWritten: Date.now(), pinned: false, session, next, findings: [], others: [], state: { live: session, next: next ?? null, findings: [], notModelled: [], profile: {} as never } };
}

function view(): LiveSessionView {
  return new LiveSessionView(l10n.t, 'en', { where: () => undefined, analysis: () => undefined, log: () => undefined, watch: () => undefined });
}

const call = (name: string, input: Record<string, unknown>, over: Partial<LiveTurn['calls'][number]> = {}): LiveTurn['calls'][number] => ({ name, input, id: 'toolu_1', injected: [], skillBody: null, agent: null, unknownCommands: [], error: null, ...over });

test('turn rows: one-line labels, no expander without children, the file name first, tooltips that add to the label', () => {
  const v = view();
  try {
    const rule = `${CWD}/.claude/rules/api.md`;
    const m = model([
      turn({ prompt: 'fix\n\nthe   bug\tnow', calls: [call('Read', { file_path: `${CWD}/src/api/client.ts` }, { injected: [{ path: rule, text: 'Contents of api.md' }] })] }),
      turn({ prompt: 'just a question' }),
    ]);
    const [t1, t2] = v.roots(m)[0]!.children!();
    assert.equal(t1!.label, 'Turn 1: fix the bug now', 'whitespace runs are one space (no ⏎⏎)');
    assert.ok(t1!.children, 'a turn with a call can be opened');
    assert.equal(t2!.children, undefined, 'a turn without calls or anything else has no expander');
    assert.equal(t2!.expanded, undefined);
    const read = t1!.children()[0]!;
    assert.equal(read.label, 'Read client.ts', 'the file name leads');
    assert.equal(read.description, 'src/api · +1 instruction file', 'the folder is the dimmed description');
    assert.match(read.tooltip!, /^Read \/home\/me\/projects\/app\/src\/api\/client\.ts/);
    const injected = read.children!()[0]!;
    assert.equal(injected.label, 'api.md');
    assert.match(injected.description!, /^arrived after this call · 18 chars · \.claude\/rules$/);
    assert.match(injected.tooltip!, /added this file to the context after the Read call/);
    assert.ok(injected.tooltip !== injected.label);
    assert.equal(oneLine('a\n\n\n b', 80), 'a b');
  } finally {
    v.dispose();
  }
});

test('the fields the reader gains: requests, usage, cost, cache break, hooks, marks, kind, MCP servers, the session cost and versions', () => {
  const v = view();
  try {
    const t1 = turn({
      prompt: '/review src',
      kind: 'command',
      requests: 3,
      usage: { input: 1_200, cacheRead: 40_000, cacheCreation: 2_000, output: 512 },
      cost: 0.1234,
      cache: { hitRatio: 0.948, break: { cause: 'pause', why: 'a pause longer than the cache\'s life (5 min)', request: 2, lost: 40_000, written: 42_000 } },
      hooks: [
        { event: 'SessionStart', command: 'cat notes.md', chars: 5_783, dropped: false },
        { event: 'UserPromptSubmit', command: 'echo hi', chars: 0, dropped: true },
      ],
      marks: [{ kind: 'local-command', at: new Date().toISOString(), text: '/theme\n dark' }],
    });
    const t2 = turn({ prompt: '', kind: 'image', requests: 1 });
    const m = model([t1, t2], {
      cost: 1.5,
      versions: ['2.1.7', '2.1.12'],
      mcp: [{ server: 'db', instructionsChars: 400, deferredTools: Array.from({ length: 12 }, (_, i) => `mcp__db__t${i}`), loadedToolChars: 3_000 }],
    }, { held: [], startupEdited: [], compact: null, context: { tokens: 48_120, window: 200_000, model: 'claude-opus-4-7', fraction: 0.2406, autoCompactAt: null } });
    const roots = v.roots(m);
    assert.equal(roots[0]!.description, '2 turns · $1.50 · Claude Code 2.1.7 → 2.1.12', 'the cost before the version: a narrow view cuts the end');
    const mcp = roots.find((r) => r.label === 'MCP servers')!;
    assert.equal(mcp.description, '1 server');
    assert.equal(mcp.children!()[0]!.description, 'instructions 400 chars · ≈100 tokens · 12 deferred tools · loaded tools 3,000 chars · ≈750 tokens');
    const [r1, r2] = roots[0]!.children!();
    assert.equal(r1!.icon, 'warning', 'a turn whose cache broke is flagged');
    assert.equal(r1!.warn, true);
    assert.match(r1!.description!, /· 0 tool calls · \$0\.12 · cache broken$/);
    const kids = r1!.children!();
    const req = kids.find((k) => k.icon === 'pulse')!;
    // the cost and the cache in the label (a narrow view cuts the description), the tokens after them
    assert.equal(req.label, '3 requests · $0.12 · cache hit 95%');
    assert.equal(req.description, '43,200 in (40,000 cache read, 2,000 cache write) · 512 out');
    assert.match(req.tooltip!, /95% of the input came from the prompt cache/);
    const brk = kids.find((k) => k.label.startsWith('Cache broken'))!;
    assert.equal(brk.warn, true);
    assert.equal(brk.label, 'Cache broken: a pause longer than the cache\'s life (5 min)', 'the cause in the label: a narrow view cuts the description');
    // a hook leads with its event and what became of its output; its command after
    const hooks = kids.filter((k) => / hook · /.test(k.label));
    assert.deepEqual(hooks.map((h) => [h.label, h.description, !!h.warn]), [
      ['SessionStart hook · 5,783 chars to the model', 'cat notes.md', false],
      ['UserPromptSubmit hook · output dropped', 'echo hi', true],
    ]);
    const mark = kids.find((k) => k.icon === 'bookmark')!;
    assert.equal(mark.label, '/theme dark');
    assert.match(mark.description!, /^local command · /);
    assert.equal(r2!.label, 'Turn 2: [image]');
    assert.equal(r2!.icon, 'file-media');
    assert.equal(r2!.children, undefined, 'one request, nothing under it');
    assert.equal(v.headline(m), 'This session: 48,120 of 200,000 tokens (24.1%) · $1.50 so far');
    assert.equal(v.gaugeLine(m), '48,120 of 200,000 tokens (24.1%) · $1.50 so far', 'the view\'s message does not repeat its title');
  } finally {
    v.dispose();
  }
});

test('a compaction says its size before and after and what it dropped; each layer of the last request opens its text; token counts read right', () => {
  const v = view();
  try {
    const a = `${CWD}/src/a.ts`;
    const b = `${CWD}/src/b.ts`;
    const turns = [
      turn({ prompt: 'read both', calls: [call('Read', { file_path: a }), call('Read', { file_path: b }, { id: 'toolu_2' })], instructions: 'STARTUP TEXT' }),
      turn({ prompt: '/compact', compacted: { trigger: 'manual', preTokens: 155_577 }, restored: { files: [{ path: a, text: 'A' }], references: [], skills: null }, marks: [{ kind: 'compaction', trigger: 'manual', preTokens: 155_577, summaryChars: 900 }] }),
      turn({ prompt: 'go on', marks: [{ kind: 'compaction', trigger: 'micro', preTokens: 80_000, cleared: 12, saved: 30_500, at: '2026-12-03T10:00:00.000Z' }] }),
    ];
    const chars = { system: 1, tools: 0, mcp: {}, instructions: 12, skillsListing: 0, mcpInstructions: 0, agents: 0, deferredListing: 0, fixedTexts: 0, lazy: 0, skillBodies: 0, hooks: 0, changedNotes: 0, restored: 4, conversation: 40, total: 57 };
    const requests = [
      { id: 'r1', turn: 0, complete: true, usage: null, contextTokens: 150_000, chars: null },
      { id: 'r2', turn: 1, complete: true, usage: null, contextTokens: 155_577, chars: null },
      { id: 'r3', turn: 2, complete: true, usage: null, contextTokens: 12_300, chars },
    ];
    const m = model(turns, { requests, tokensPerChar: 0.25 });
    const roots = v.roots(m);
    const comp = roots[0]!.children!()[1]!.children!()[0]!;
    assert.equal(comp.label, 'Compacted (/compact)');
    assert.equal(comp.description, '155,577 → 12,300 tokens · 1 file dropped');
    assert.deepEqual(comp.children!().map((x) => [x.label, x.description]), [['b.ts', 'src · dropped: not brought back']]);
    // the turn's compaction is that one row (its mark is not a second); a microcompaction is a row of its figures
    assert.equal(roots[0]!.children!()[1]!.children!().filter((x) => /Compacted/.test(x.label)).length, 1);
    const micro = roots[0]!.children!()[2]!.children!().find((x) => /microcompaction/.test(x.label))!;
    assert.equal(micro.label, 'Old tool results cleared (microcompaction)');
    assert.match(micro.description!, /^12 old tool results cleared · 30,500 tokens saved · 80,000 tokens before · /);
    const layers = roots.find((r) => r.label === 'Last request by layer')!.children!();
    assert.deepEqual(layers.map((l) => [l.label, l.description]), [
      ['System prompt', '1 chars · <1 token'],
      ['Startup instructions', '12 chars · ≈3 tokens'],
      ['Brought back by /compact', '4 chars · ≈1 token'],
      ['Conversation', '40 chars · ≈10 tokens'],
    ]);
    const opened = (label: string) => layers.find((l) => l.label === label)!.open as { text: string; title: string } | undefined;
    assert.equal(opened('Startup instructions')?.text, 'STARTUP TEXT');
    assert.equal(opened('Brought back by /compact')?.text, 'A');
    assert.match(opened('Conversation')!.text, /\/compact[\s\S]*go on/);
    assert.equal(opened('System prompt'), undefined, 'sizes only: nothing to open');
    // a read-only document's tab: no double extension
    assert.equal(docName('api.md'), 'api.md');
    assert.equal(docName('turn-1-startup'), 'turn-1-startup.md');
    assert.equal(docName('../x y'), 'x-y.md');
  } finally {
    v.dispose();
  }
});

test('the session picker: first prompt, time, size, branch, running, newest first; the header names the followed session', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-pick-')));
  const v = view();
  try {
    const J = (o: unknown) => JSON.stringify(o) + '\n';
    const now = Date.parse('2026-12-03T12:00:00Z');
    const older = path.join(root, 'old.jsonl');
    const newer = path.join(root, 'new.jsonl');
    fs.writeFileSync(older, J({ type: 'user', isMeta: true, message: { role: 'user', content: 'caveat' } }) + J({ type: 'user', gitBranch: 'feat/x', message: { role: 'user', content: '<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>src</command-args>' } }));
    fs.writeFileSync(newer, J({ type: 'user', gitBranch: 'main', message: { role: 'user', content: 'fix the\nlogin\x1b[31m bug please' } }) + 'not json\n');
    const list = [
      { file: older, sessionId: 'old', mtimeMs: now - 3 * 86_400_000, size: 2_048 },
      { file: newer, sessionId: 'new', mtimeMs: now - 60_000, size: 3 * 1024 * 1024 },
    ];
    const items = v.pickItems(list, now, nodeFileAccess);
    assert.equal(items[0]!.file, undefined, 'first: follow the newest');
    assert.equal(items[1]!.label, 'fix the login\\x1b[31m bug please', 'escaped, one line');
    assert.match(items[1]!.description!, /^running · \d{1,2}:\d\d( [AP]M)? · 3\.0 MB · branch main$/);
    assert.equal(items[1]!.detail, 'new');
    assert.equal(items[2]!.label, '/review src');
    assert.match(items[2]!.description!, /2026.* · 2 KB · branch feat\/x$/, 'the date when not today');
    assert.deepEqual(summarizeTranscript(nodeFileAccess, path.join(root, 'missing.jsonl')), {});
    // the sidebar's header: the followed session's version and model, the installed one in the note and tooltip
    const t = makeTree({ 'repo/CLAUDE.md': 'x\n' });
    const a = analyze({ cwd: t.p('repo'), home: t.p('home'), env: {}, managedDir: t.p('none'), claudeVersion: '2.1.333' });
    const base = { analysis: a, version: { source: 'setting' as const, requested: '2.1.333' }, model: 'claude-opus-5-5', trusted: true, t: englishT, locale: 'en', today: '2026-12-03' };
    const live = { tokens: 1, window: 200_000, label: 'This session: …', version: '2.1.144', model: 'claude-opus-4-7' };
    const followed = present({ ...base, live }).header;
    assert.equal(followed.version, 'Claude Code 2.1.144');
    assert.equal(followed.model, 'claude-opus-4-7');
    assert.equal(followed.versionNote, 'as the followed session runs it; predictions use the profile of 2.1.333');
    assert.match(followed.source!, /runs Claude Code 2\.1\.144 on claude-opus-4-7\. Predictions use the profile of 2\.1\.333/);
    const ended = present({ ...base, live: { ...live, ended: 'ended 1 h ago' } }).header;
    assert.equal(ended.version, 'Claude Code 2.1.333', 'a session no longer running: the installed version again');
    assert.equal(present(base).header.model, 'claude-opus-5-5');
  } finally {
    v.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a redraw sends the rows before the message, and the message only when its text changed (VS Code delays the second change event of a spell by 200 ms)', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-order-')));
  const cwd = path.join(root, 'repo');
  const home = path.join(root, 'home');
  fs.mkdirSync(cwd);
  const dir = path.join(home, '.claude', 'projects', memoryKey(cwd));
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 's.jsonl');
  const J = (o: unknown) => JSON.stringify(o) + '\n';
  const prompt = (i: number) => J({ type: 'user', uuid: `p${i}`, sessionId: 'S', version: '2.1.333', cwd, timestamp: new Date().toISOString(), message: { role: 'user', content: `prompt ${i}` } });
  fs.writeFileSync(file, prompt(1));
  const v = new LiveSessionView(l10n.t, 'en', { where: () => ({ cwd, home, env: {} }), analysis: () => undefined, log: (m) => assert.fail(m), watch: () => undefined });
  const log: string[] = [];
  let message = '';
  (v as unknown as { view: unknown }).view = { get message() { return message; }, set message(x: string) { log.push('message'); message = x; }, description: '' };
  v.onDidChangeTreeData(() => log.push('rows'));
  try {
    v.tracker.tick(true);
    assert.deepEqual(log, ['rows', 'message']);
    v.getChildren(); // VS Code draws the roots
    log.length = 0;
    fs.appendFileSync(file, prompt(2));
    v.tracker.tick();
    assert.deepEqual(log, ['rows'], 'the message did not change: not set again');
  } finally {
    v.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('the session figures where the engine keeps them (figures.cost, figures.listings.mcp) and the derived breakdown of a version that records no request', () => {
  const v = view();
  try {
    const figures = {
      cost: 0.2431, unpriced: [], pricing: 'list', cacheLife: '5m', maxContext: 27_959, autoCompactions: [],
      listings: { mcp: [{ server: 'docs', instructionsChars: 131, deferredTools: ['mcp__docs__search', 'mcp__docs__fetch_page'], loadedToolChars: null }], deferredBuiltIn: [], deferredChars: 67, agents: { types: [], chars: 0 }, skills: null },
      breakdown: {
        tokensPerChar: { value: 0.25, derived: true, from: 'assumed' },
        layers: [
          { layer: 'system prompt, tools and startup instructions', chars: null, tokens: 23_708, derived: true },
          { layer: 'hook output', chars: 348, tokens: 87, derived: true },
          { layer: 'MCP server instructions', chars: 131, tokens: 33, derived: true },
        ],
      },
    };
    const m = model([turn({ prompt: 'hello', hooks: [{ event: 'SessionStart', command: 'bash rules.sh', chars: 348, dropped: false }] })], { version: '2.1.181', source: 'attachments', figures } as never, { held: [], startupEdited: [], compact: null, context: { tokens: 27_959, window: 200_000, model: 'claude-sonnet-4-6', fraction: 0.1398, autoCompactAt: null } });
    const roots = v.roots(m);
    assert.equal(roots[0]!.description, '1 turn · $0.24 · Claude Code 2.1.181');
    assert.equal(v.gaugeLine(m), '27,959 of 200,000 tokens (14.0%) · $0.24 so far');
    const mcp = roots.find((r) => r.label === 'MCP servers')!;
    const docs = mcp.children!()[0]!;
    assert.equal(docs.label, 'docs');
    assert.match(docs.tooltip!, /mcp__docs__search, mcp__docs__fetch_page/);
    assert.equal(docs.description, 'instructions 131 chars · ≈33 tokens · 2 deferred tools', 'no "loaded tools ?" where the version records none; tokens at the derived ratio');
    const layers = roots.find((r) => r.label === 'Last request by layer')!;
    assert.equal(layers.description, '≈23,828 tokens · derived');
    const rows = layers.children!();
    assert.deepEqual(rows.map((r) => [r.label, r.description]), [
      ['System prompt, tools and startup instructions', '≈23,708 tokens · derived'],
      ['Hook output', '348 chars · ≈87 tokens · derived'],
      ['MCP server instructions', '131 chars · ≈33 tokens · derived'],
    ]);
    assert.ok(rows.every((r) => r.tooltip && r.tooltip !== r.label), 'each layer says what it is beyond its label');
    assert.ok(rows[1]!.open, 'the hook output opens its text');
  } finally {
    v.dispose();
  }
});

test('an interrupt is a mark in words; a startup block rebuilt from the disk is shown once, and a turn with nothing else under it has no expander', () => {
  const v = view();
  try {
    const block = '<system-reminder>CLAUDE.md</system-reminder>';
    const t1 = turn({ prompt: 'one', requests: 0, instructions: block, instructionsFrom: 'disk', marks: [{ kind: 'interrupt', at: new Date().toISOString(), text: '[Request interrupted by user for tool use]' }] } as never);
    const t2 = turn({ prompt: 'two', requests: 0, instructions: block, instructionsFrom: 'disk' } as never);
    const m = model([t1, t2], { source: 'attachments' } as never);
    const [r1, r2] = v.roots(m)[0]!.children!();
    const kids = r1!.children!();
    const mark = kids.find((k) => k.icon === 'debug-pause')!;
    assert.equal(mark.label, 'Interrupted by the user');
    assert.match(mark.tooltip!, /\[Request interrupted by user for tool use\]/);
    assert.ok(kids.some((k) => k.label === 'Startup block'), 'the first turn shows the block');
    assert.equal(r2!.children, undefined, 'the same block again under turn 2 is not repeated, and turn 2 has nothing else: no expander');
  } finally {
    v.dispose();
  }
});

test('the last request split like /context: a row per category with chars, tokens and share, MCP with what ToolSearch loaded and when', () => {
  const v = view();
  try {
    const m = model([turn({})]);
    const loaded = { tool: 'mcp__db__query', turn: 1, request: 'r2', chars: 221, inLastRequest: true };
    m.state.context = {
      request: { id: 'r2', turn: 1 }, tokensPerChar: { value: 0.5, from: 'usage' }, contextTokens: 500, window: 200_000, totalChars: 1000,
      rows: [
        { category: 'system-prompt', chars: 600, tokens: 300 },
        { category: 'tools-mcp', server: 'db', chars: 400, tokens: 200 },
        { category: 'free-space', chars: null, tokens: 166_500 },
        { category: 'autocompact-buffer', chars: null, tokens: 33_000 },
      ],
      mcp: [{ server: 'db', toolChars: 400, instructionsChars: 20, deferredTools: ['mcp__db__query'], loaded: [loaded] }],
      loadedBuiltIn: [],
    };
    const node = v.roots(m).find((x) => x.label === 'Context like /context')!;
    assert.ok(node, 'the node');
    assert.equal(node.description, '1,000 chars · window 200,000 tokens');
    const rows = node.children!();
    assert.deepEqual(rows.map((r) => [r.label, r.description]), [
      ['System prompt', '600 chars · ≈300 tokens · 0.1%'],
      ['MCP tools: db', '400 chars · ≈200 tokens · 0.1%'],
      ['Free space', '≈166,500 tokens · 83.3%'],
      ['Autocompact buffer', '≈33,000 tokens · 16.5%'],
    ]);
    assert.deepEqual(rows[1]!.children!().map((r) => [r.label, r.description]), [['mcp__db__query', 'loaded by ToolSearch in turn 2 · 221 chars']]);
  } finally {
    v.dispose();
  }
});

test("the agents a turn counts: a Workflow call's run holds its agents, an Agent call its subagent, an agent no call started is the turn's own row; each opens its transcript", () => {
  const v = view();
  try {
    const u = (input: number) => ({ input, cacheRead: 1_000, cacheCreation: 200, output: 50 });
    const agent = (agentId: string, workflow: string | null, toolUseId: string | null, cost: number | null) => ({ agentId, agentType: workflow ? 'workflow-subagent' : 'Explore', workflow, toolUseId, transcript: `/t/s/subagents/${workflow ? `workflows/${workflow}/` : ''}agent-${agentId}.jsonl`, requests: 2, usage: u(3_000), cost });
    const t1 = turn({
      prompt: 'survey',
      calls: [call('Workflow', { description: 'Survey plugins' }, { id: 'toolu_W' }), call('Agent', { subagent_type: 'Explore' }, { id: 'toolu_A', agent: { type: 'Explore', instructions: null } })],
      agents: [agent('a1', 'wf_1', 'toolu_W', 0.5), agent('a2', 'wf_1', 'toolu_W', 0.25), agent('a3', null, 'toolu_A', 0.1), agent('a4', 'wf_orphan', null, null)],
    });
    const [r1] = v.roots(model([t1]))[0]!.children!();
    const kids = r1!.children!();
    const wf = kids.find((k) => k.label === 'Workflow Survey plugins')!;
    const run = wf.children!()[0]!;
    assert.equal(run.label, 'Workflow run wf_1 · $0.75');
    assert.equal(run.description, '2 agents · 4 requests');
    assert.deepEqual(run.children!().map((a) => [a.label, a.description, a.open]), [
      ['Agent a1 · 2 requests · $0.50', '4,200 in (1,000 cache read, 200 cache write) · 50 out', { file: '/t/s/subagents/workflows/wf_1/agent-a1.jsonl' }],
      ['Agent a2 · 2 requests · $0.25', '4,200 in (1,000 cache read, 200 cache write) · 50 out', { file: '/t/s/subagents/workflows/wf_1/agent-a2.jsonl' }],
    ]);
    const sub = kids.find((k) => k.label === 'Agent Explore')!.children!();
    assert.deepEqual(sub.map((a) => a.label), ['Subagent Explore', 'Agent a3 · 2 requests · $0.10']);
    const own = kids.find((k) => k.label.startsWith('Agent a4'))!;
    assert.equal(own.label, 'Agent a4 (workflow wf_orphan) · 2 requests', 'no price: no cost shown');
    assert.match(own.tooltip!, /^workflow-subagent: the API requests of its own transcript, counted under this turn/);
    const bare = turn({ prompt: 'only an agent', requests: 1, agents: [agent('a5', 'wf_2', null, 0.2)] });
    assert.ok(v.roots(model([bare]))[0]!.children!()[0]!.children, 'a turn whose only row is an agent can be opened');
  } finally {
    v.dispose();
  }
});
