// Advice with its price (src/engine/diff/advice.ts, `explain --advice`): the always-loaded texts in
// ≈tokens per session start and, over fixture transcripts written here (our own content, in the shape
// Claude Code records: one record per content block of an answer, `message.model`, `usage`, a
// `deferred_tools_delta` attachment), how many sessions paid, which of them needed the text (a rule
// against the files read, MEMORY.md's entries past the cut against the topic files read, skills and
// MCP servers against their calls), and the dollars at the sessions' model from the profile's table
// (cache write once per session, cache read per later request), modelPricing and --prices over it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MODEL_PRICES } from '../../src/engine/profiles.js';
import { costOf, priceOf } from '../../src/engine/transcript/pricing.js';
import { advicePrice, analyze, approxTokens, memoryKey, nodeFileAccess, priceAssumption, pricedAdvice, prefixCost, prefixCostOf, recentSessions, savingText, sessionDays } from '../../src/engine/index.js';
import { explainCommand } from '../../src/cli/explain-command.js';
import { makeStyle } from '../../src/cli/style.js';

function fixture() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-advice-')));
  const repo = path.join(root, 'repo');
  const home = path.join(root, 'home');
  const managed = path.join(root, 'managed');
  const files: Record<string, string> = {
    'CLAUDE.md': '# Shop\n\nUse pnpm. Money is in integer cents.\n',
    '.claude/rules/general.md': 'Write the changelog entry with every change.\n',
    '.claude/rules/api.md': 'When you change a handler in `src/api/`, update the OpenAPI description next to it.\n',
    '.claude/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploy the shop to staging with the release checklist.\n---\nSteps.\n',
    '.claude/skills/review/SKILL.md': '---\nname: review\ndescription: Review a change against the team conventions.\n---\nSteps.\n',
    '.mcp.json': JSON.stringify({ mcpServers: { db: { command: 'db-mcp' }, search: { command: 'search-mcp' } } }),
    'src/cart.ts': 'export {};\n',
    'src/api/orders.ts': 'export {};\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    fs.writeFileSync(path.join(repo, rel), text);
  }
  fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
  fs.mkdirSync(managed);
  const dir = path.join(home, '.claude', 'projects', memoryKey(repo));
  // MEMORY.md over its 200-line cut: the entry for deploy.md is on line 230
  const memDir = path.join(dir, 'memory');
  fs.mkdirSync(memDir, { recursive: true });
  const mem = Array.from({ length: 240 }, (_, i) => (i === 229 ? '- [Deploy notes](deploy.md) — how staging is deployed' : `- note ${i + 1}: keep the cart total in cents`));
  fs.writeFileSync(path.join(memDir, 'MEMORY.md'), mem.join('\n') + '\n');
  fs.writeFileSync(path.join(memDir, 'deploy.md'), 'Staging deploys from the release branch.\n');
  let uuid = 0;
  const line = (sessionId: string, type: 'user' | 'assistant', content: unknown[], at: string, msgId?: string) =>
    JSON.stringify({
      type, sessionId, uuid: `u-${++uuid}`, parentUuid: null, cwd: repo, version: '2.1.333', timestamp: at,
      message: { role: type, content, ...(type === 'assistant' && { id: msgId ?? `msg-${uuid}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 3, cache_creation_input_tokens: 100, cache_read_input_tokens: 0, output_tokens: 5 } }) },
    });
  const text = (t: string) => ({ type: 'text', text: t });
  const tool = (name: string, input: Record<string, unknown>) => ({ type: 'tool_use', id: `t-${uuid}`, name, input });
  const session = (id: string, day: string, assistant: unknown[][], mtime: number, head: string[] = []) => {
    const lines = [...head, line(id, 'user', [text('hello')], `${day}T10:00:00.000Z`)];
    // an answer of two content blocks is two records with one message id: one request
    assistant.forEach((c, i) => {
      const at = `${day}T10:0${i + 1}:00.000Z`;
      if (c.length === 2) for (const b of c) lines.push(line(id, 'assistant', [b], at, `${id}-m${i}`));
      else lines.push(line(id, 'assistant', c, at));
    });
    const f = path.join(dir, `${id}.jsonl`);
    fs.writeFileSync(f, lines.join('\n') + '\n');
    fs.utimesSync(f, mtime, mtime);
  };
  // the search server's tools as a session recorded them (deferred names)
  const delta = JSON.stringify({ type: 'attachment', uuid: 'u-delta', parentUuid: null, sessionId: 's1', timestamp: '2026-11-24T09:59:59.000Z', attachment: { type: 'deferred_tools_delta', addedNames: ['mcp__search__find_documents', 'mcp__search__reindex', 'mcp__db__query'], removedNames: [] } });
  // three sessions over 7 days: 4, 2 and 3 requests
  session('s1', '2026-11-24', [[tool('Skill', { skill: 'deploy' })], [text('running'), tool('mcp__db__query', { sql: 'select 1' })], [text('done')], [text('ok')]], 1_700_000_100, [delta]);
  session('s2', '2026-11-27', [[tool('Read', { file_path: path.join(memDir, 'deploy.md') })], [text('b')]], 1_700_000_200);
  session('s3', '2026-12-01', [[tool('Read', { file_path: path.join(repo, 'src', 'api', 'orders.ts') })], [tool('Edit', { file_path: path.join(repo, 'src', 'cart.ts') })], [text('d')]], 1_700_000_300);
  return { root, repo, home, managed, memDir, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

const opts = (f: ReturnType<typeof fixture>) => ({ cwd: f.repo, home: f.home, env: { HOME: f.home }, managedDir: f.managed, claudeVersion: '2.1.333' });

test('the sessions of the project, newest first: requests (one per answer), model, times, skills, MCP servers and files used', () => {
  const f = fixture();
  try {
    const a = analyze(opts(f));
    const s = recentSessions(nodeFileAccess, a.env.cwd, a.env.home, a.env.env, 30);
    assert.deepEqual(s.map((x) => [path.basename(x.file), x.requests]), [['s3.jsonl', 3], ['s2.jsonl', 2], ['s1.jsonl', 4]]);
    assert.ok(s.every((x) => x.model === 'claude-sonnet-4-5-20250929' && !x.cacheWrite1h));
    assert.deepEqual([...s[2]!.skills], ['deploy']);
    assert.deepEqual([...s[2]!.mcpServers], ['db']);
    assert.deepEqual([...s[0]!.files].sort(), [path.join(f.repo, 'src', 'api', 'orders.ts'), path.join(f.repo, 'src', 'cart.ts')]);
    assert.equal(s[0]!.startMs, Date.parse('2026-12-01T10:00:00.000Z'));
    assert.equal(sessionDays(s), (Date.parse('2026-12-01T10:03:00.000Z') - Date.parse('2026-11-24T09:59:59.000Z')) / 86_400_000);
    assert.equal(recentSessions(nodeFileAccess, a.env.cwd, a.env.home, a.env.env, 2).length, 2, 'the last N only');
  } finally {
    f.cleanup();
  }
});

test("the price: the sessions' model at the profile's list price, modelPricing over it, --prices over both", () => {
  const f = fixture();
  try {
    const a = analyze(opts(f));
    const sessions = recentSessions(nodeFileAccess, a.env.cwd, a.env.home, a.env.env, 30);
    const p = advicePrice(a, sessions)!;
    const list = MODEL_PRICES.find((x) => x.family === 'claude-sonnet-4-5')!;
    assert.deepEqual([p.model, p.from, p.cacheWrite, p.input, p.cacheWriteRate, p.cacheRead], ['claude-sonnet-4-5-20250929', 'list', '5m', list.input, list.cacheWrite5m, list.cacheRead]);
    assert.equal(priceAssumption(p), 'priced at claude-sonnet-4-5-20250929 (the model of 3 of the last 3 sessions), its list price: $3/MTok input, $3.75 cache write (5 minutes), $0.3 cache read; the startup block is cached: written once per session, then a cache read (10 % of the input price) for each later request');
    // no sessions: the model Claude Code runs here (the version's default)
    const bare = advicePrice(a, [])!;
    assert.equal(bare.model, a.model.resolved);
    assert.match(priceAssumption(bare), /\(the version's default model\)/);
    // one cache write and a cache read per later request, priced by the engine's one pricing (costOf)
    const price = priceOf('claude-sonnet-4-5-20250929', a.profile)!;
    assert.equal(prefixCostOf(1000, 4, p), costOf({ input: 0, output: 0, cacheRead: 3000, cacheCreation: 1000, cacheWrite5m: 1000, cacheWrite1h: 0 }, price));
    assert.ok(Math.abs(prefixCostOf(1000, 4, p) - (1000 * 3.75 + 3000 * 0.3) / 1e6) < 1e-12);
    // the managed modelPricing overrides the list
    fs.writeFileSync(path.join(f.managed, 'managed-settings.json'), JSON.stringify({ modelPricing: { overrides: { 'claude-sonnet-4-5': { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 } } } }));
    const mp = advicePrice(analyze(opts(f)), sessions)!;
    assert.deepEqual([mp.from, mp.input, mp.cacheWriteRate, mp.cacheRead], ['modelPricing', 2, 2.5, 0.2]);
    assert.match(priceAssumption(mp), /its price from the managed modelPricing setting: \$2\/MTok input/);
    const given = advicePrice(a, sessions, { input: 1, cacheWrite: 2, cacheRead: 0.5 })!;
    assert.deepEqual([given.from, given.input, given.cacheWriteRate, given.cacheRead], ['--prices', 1, 2, 0.5]);
  } finally {
    f.cleanup();
  }
});

test('priced advice: a rule against the files the sessions read, MEMORY.md past its cut, unused skills and MCP servers', () => {
  const f = fixture();
  try {
    const a = analyze(opts(f));
    const sessions = recentSessions(nodeFileAccess, a.env.cwd, a.env.home, a.env.env, 30);
    const price = advicePrice(a, sessions)!;
    const items = pricedAdvice(a, sessions, price, ["db", "search"], nodeFileAccess);
    // the rule naming src/api/: relevant to the one session that read src/api/orders.ts
    const api = items.find((i) => i.path.endsWith('api.md'))!;
    const tokens = approxTokens(a.startup.find((e) => e.path.endsWith('api.md'))!.text.length, a.model.bytesPerToken);
    assert.equal(api.kind, 'rule-no-paths');
    assert.deepEqual(api.sessions, { read: 3, used: 1 });
    // s1 (4 requests) and s2 (2) would not have paid: 2 cache writes, 3 + 1 cache reads
    const spared = (tokens * (2 * 3.75 + 4 * 0.3)) / 1e6;
    assert.equal(api.saving?.fix, 'paths: [src/api/**]');
    assert.ok(Math.abs(api.saving.dollarsPerSession! - spared / 3) < 1e-12);
    assert.ok(Math.abs(api.saving.dollarsPerWeek! - (spared / sessionDays(sessions)) * 7) < 1e-12);
    assert.equal(api.saving.tokensPerSession, (tokens * 2) / 3);
    assert.match(api.message, /^a rule without paths, ≈\d+ tokens at every session start \(\$0\.\d+ in the last 3 sessions\); relevant to 1 of the last 3 sessions \(they read src\/api\/orders\.ts\): `paths: \[src\/api\/\*\*\]` saves ≈\d+ tokens per session \(\$0\.\d+\), about \$0\.\d+ a week$/);
    assert.ok(api.message.endsWith(savingText(api.saving, 3)), 'one wording for the saving');
    // the rule that names nothing of the project: its cost, and why no saving can be told
    const general = items.find((i) => i.path.endsWith('general.md'))!;
    assert.equal(general.saving, undefined);
    const gTokens = approxTokens(a.startup.find((e) => e.path.endsWith('general.md'))!.text.length, a.model.bytesPerToken);
    assert.ok(Math.abs(general.dollars! - prefixCost(gTokens, sessions, price)) < 1e-12);
    assert.match(general.message, /names no file or folder of this project/);
    // MEMORY.md: the entry of deploy.md is past the cut, and s2 read deploy.md
    const mem = items.find((i) => i.kind === 'memory-cut')!;
    assert.equal(mem.path, path.join(f.memDir, 'MEMORY.md'));
    assert.deepEqual(mem.sessions, { read: 3, used: 1 });
    assert.match(mem.message, /^MEMORY\.md is over its cut \(200 lines\): it is cut at line 201, 40 index entries past the cut never reach the model; 1 of the last 3 sessions read a topic file only an entry past the cut points to \(deploy\.md\): move that entry above line 201$/);
    // skills: review never called, deploy called once
    const review = items.find((i) => i.kind === 'skill-unused' && i.message.includes('"review"'))!;
    assert.deepEqual(review.sessions, { read: 3, used: 0 });
    assert.match(review.message, /listed in each of the last 3 sessions, called in 0: removing it \(or a shorter description\) saves ≈\d+ tokens per session \(\$0\.\d+\), about \$0\.\d+ a week$/);
    const deploy = items.find((i) => i.kind === 'skill-unused' && i.message.includes('"deploy"'))!;
    assert.deepEqual(deploy.sessions, { read: 3, used: 1 });
    assert.equal(deploy.saving, undefined);
    // MCP: db was called; search never, and its two tool names are what the transcript recorded of it
    const mcp = items.filter((i) => i.kind === 'mcp-unused');
    assert.deepEqual(mcp.map((i) => i.path), ['search']);
    const chars = 'mcp__search__find_documents'.length + 1 + 'mcp__search__reindex'.length + 1;
    assert.equal(mcp[0]!.tokensPerStart, approxTokens(chars, a.model.bytesPerToken));
    assert.match(mcp[0]!.message, /its 2 tool names \(≈\d+ tokens, as the transcripts recorded them\) come with every session: removing it saves/);
    // no transcripts: tokens, and the price of one session start where the model has one
    const bare = pricedAdvice(a, [], advicePrice(a, []), ['db']);
    assert.ok(bare.every((i) => i.dollars === undefined && i.sessions === undefined));
    assert.equal(bare.filter((i) => i.kind === 'mcp-unused').length, 0);
    assert.match(bare.find((i) => i.path.endsWith('api.md'))!.message, /it names src\/api\/\*\*: `paths: \[src\/api\/\*\*\]` would load it only when a matching file is read/);
    assert.match(bare.find((i) => i.path.endsWith('CLAUDE.md'))!.message, /per session start as a cache write\)$/);
  } finally {
    f.cleanup();
  }
});

test('explain --advice: the text and the JSON with the price assumed; bad --prices is a usage error', async () => {
  const f = fixture();
  try {
    const flags = ['--cwd', f.repo, '--home', f.home, '--managed-dir', f.managed, '--claude-version', '2.1.333'];
    const r = await explainCommand([...flags, '--advice'], makeStyle(false));
    assert.match(r.text, /advice, priced\nover the last 3 sessions of this project/);
    assert.match(r.text, /priced at claude-sonnet-4-5-20250929 \(the model of 3 of the last 3 sessions\), its list price: \$3\/MTok input/);
    assert.match(r.text, /\.claude\/rules\/api\.md: a rule without paths,.*relevant to 1 of the last 3 sessions/);
    const g = await explainCommand([...flags, '--advice', '--prices', '3,3.75,0.3'], makeStyle(false));
    assert.match(g.text, /its price given with --prices: \$3\/MTok input, \$3\.75 cache write \(5 minutes\), \$0\.3 cache read/);
    const j = await explainCommand([...flags, '--advice', '--sessions', '1', '--json'], makeStyle(false));
    assert.equal(j.json.advice?.sessions, 1);
    assert.equal(j.json.advice?.price?.model, 'claude-sonnet-4-5-20250929');
    assert.equal(j.json.advice?.price?.from, 'list');
    assert.equal((j.json.advice?.price as unknown as Record<string, unknown>).price, undefined, 'no function in the JSON');
    await assert.rejects(() => explainCommand([...flags, '--advice', '--prices', '3,x'], makeStyle(false)), /--prices takes INPUT,CACHE_WRITE,CACHE_READ/);
    await assert.rejects(() => explainCommand([...flags, '--sessions', '3'], makeStyle(false)), /go with --advice/);
  } finally {
    f.cleanup();
  }
});

test("the README's advice example is this fixture's output, line for line", async () => {
  const readme = fs.readFileSync(path.resolve(__dirname, '..', '..', 'README.md'), 'utf8');
  const block = /### `explain --advice`[\s\S]*?```\n([\s\S]*?)```/.exec(readme);
  assert.ok(block, 'README has the advice example');
  const f = fixture();
  try {
    const r = await explainCommand(['--cwd', f.repo, '--home', f.home, '--managed-dir', f.managed, '--claude-version', '2.1.333', '--advice'], makeStyle(false));
    const lines = r.text.split('\n');
    for (const l of block[1]!.trimEnd().split('\n')) assert.ok(lines.includes(l), `not in the output: ${l}`);
  } finally {
    f.cleanup();
  }
});

test('bad transcripts: binary, cut, broken JSON lines and a FIFO are read around, never thrown on', () => {
  const f = fixture();
  try {
    const dir = path.join(f.home, '.claude', 'projects', memoryKey(f.repo));
    const good = JSON.stringify({ type: 'assistant', sessionId: 'bad', uuid: 'g1', timestamp: '2026-12-02T10:00:00.000Z', message: { id: 'm-g1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 't', name: 'Read', input: { file_path: path.join(f.repo, 'src', 'api', 'orders.ts') } }] } });
    fs.writeFileSync(path.join(dir, 'bad.jsonl'), Buffer.concat([Buffer.from([0, 0xff, 0xfe, 10]), Buffer.from('{"type":"assistant",\n{not json}\n' + good + '\n{"type":"assistant","message":{"id":"cut"')]));
    fs.utimesSync(path.join(dir, 'bad.jsonl'), 1_700_000_400, 1_700_000_400);
    if (process.platform !== 'win32') execFileSync('mkfifo', [path.join(dir, 'pipe.jsonl')]);
    const a = analyze(opts(f));
    const s = recentSessions(nodeFileAccess, a.env.cwd, a.env.home, a.env.env, 30);
    assert.deepEqual(s.map((x) => path.basename(x.file)), ['bad.jsonl', 's3.jsonl', 's2.jsonl', 's1.jsonl'], 'the FIFO is not a session');
    assert.equal(s[0]!.requests, 1);
    assert.deepEqual([...s[0]!.files], [path.join(f.repo, 'src', 'api', 'orders.ts')]);
    const items = pricedAdvice(a, s, advicePrice(a, s), ['search'], nodeFileAccess);
    assert.deepEqual(items.find((i) => i.path.endsWith('api.md'))?.sessions, { read: 4, used: 2 });
  } finally {
    f.cleanup();
  }
});
