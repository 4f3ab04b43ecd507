// Advice with its price (src/engine/diff/advice.ts, `explain --advice`): the always-loaded texts in
// ≈tokens per session start, and over fixture transcripts written here (our own content, in the
// shape Claude Code records): how many sessions paid, which skills and MCP servers they used, and
// the dollars at the prices given (cache write once per session, cache read per later request).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { analyze, approxTokens, memoryKey, pricedAdvice, recentSessions, prefixCost } from '../../src/engine/index.js';
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
    '.claude/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploy the shop to staging with the release checklist.\n---\nSteps.\n',
    '.claude/skills/review/SKILL.md': '---\nname: review\ndescription: Review a change against the team conventions.\n---\nSteps.\n',
    '.mcp.json': JSON.stringify({ mcpServers: { db: { command: 'db-mcp' }, search: { command: 'search-mcp' } } }),
    'src/cart.ts': 'export {};\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    fs.writeFileSync(path.join(repo, rel), text);
  }
  fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
  fs.mkdirSync(managed);
  const dir = path.join(home, '.claude', 'projects', memoryKey(repo));
  fs.mkdirSync(dir, { recursive: true });
  let uuid = 0;
  const line = (sessionId: string, type: 'user' | 'assistant', content: unknown[]) =>
    JSON.stringify({ type, sessionId, uuid: `u-${++uuid}`, parentUuid: null, cwd: repo, version: '2.1.333', timestamp: '2026-12-01T10:00:00.000Z', message: { role: type, content } });
  const text = (t: string) => ({ type: 'text', text: t });
  const tool = (name: string, input: Record<string, unknown>) => ({ type: 'tool_use', id: `t-${uuid}`, name, input });
  const session = (id: string, assistant: unknown[][], mtime: number) => {
    const lines = [line(id, 'user', [text('hello')])];
    for (const c of assistant) lines.push(line(id, 'assistant', c));
    const f = path.join(dir, `${id}.jsonl`);
    fs.writeFileSync(f, lines.join('\n') + '\n');
    fs.utimesSync(f, mtime, mtime);
  };
  // three sessions: 4, 2 and 3 requests
  session('s1', [[tool('Skill', { skill: 'deploy' })], [tool('mcp__db__query', { sql: 'select 1' })], [text('done')], [text('ok')]], 1_700_000_300);
  session('s2', [[text('a')], [text('b')]], 1_700_000_200);
  session('s3', [[tool('Read', { file_path: path.join(repo, 'src', 'cart.ts') })], [text('c')], [text('d')]], 1_700_000_100);
  return { root, repo, home, managed, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

const PRICES = { input: 3, cacheWrite: 3.75, cacheRead: 0.3 };

test('the sessions of the project, newest first: requests, skills, MCP servers and files used', () => {
  const f = fixture();
  try {
    const a = analyze({ cwd: f.repo, home: f.home, env: { HOME: f.home }, managedDir: f.managed, claudeVersion: '2.1.333' });
    const s = recentSessions(a.env.fs, a.env.cwd, a.env.home, a.env.env, 30);
    assert.deepEqual(s.map((x) => [path.basename(x.file), x.requests]), [['s1.jsonl', 4], ['s2.jsonl', 2], ['s3.jsonl', 3]]);
    assert.deepEqual([...s[0]!.skills], ['deploy']);
    assert.deepEqual([...s[0]!.mcpServers], ['db']);
    assert.deepEqual([...s[2]!.files], [path.join(f.repo, 'src', 'cart.ts')]);
    assert.equal(recentSessions(a.env.fs, a.env.cwd, a.env.home, a.env.env, 2).length, 2, 'the last N only');
  } finally {
    f.cleanup();
  }
});

test('priced advice: tokens per start, sessions that paid or used, dollars at the prices given', () => {
  const f = fixture();
  try {
    const a = analyze({ cwd: f.repo, home: f.home, env: { HOME: f.home }, managedDir: f.managed, claudeVersion: '2.1.333' });
    const sessions = recentSessions(a.env.fs, a.env.cwd, a.env.home, a.env.env, 30);
    const items = pricedAdvice(a, sessions, PRICES, ['db', 'search']);
    const rule = items.find((i) => i.path.endsWith('general.md'))!;
    const entry = a.startup.find((e) => e.path.endsWith('general.md'))!;
    const tokens = approxTokens(entry.text.length, a.model.bytesPerToken);
    assert.equal(rule.tokensPerStart, tokens);
    // one cache write per session, a cache read for each later request: 3 writes, 3 + 1 + 2 reads
    assert.equal(prefixCost(tokens, sessions, PRICES), (tokens * (3 * 3.75 + 6 * 0.3)) / 1e6);
    assert.equal(rule.dollars, (tokens * (3 * 3.75 + 6 * 0.3)) / 1e6);
    assert.match(rule.message, /^a rule without paths, ≈\d+ tokens at every session start; it cost \$0\.\d{3} in the last 3 sessions \(9 requests\); `paths:` would load it/);
    const review = items.find((i) => i.kind === 'skill-unused' && i.message.includes('"review"'))!;
    assert.deepEqual(review.sessions, { read: 3, used: 0 });
    assert.match(review.message, /called in 0 of the last 3 sessions: removing it \(or a shorter description\) saves \$/);
    const deploy = items.find((i) => i.kind === 'skill-unused' && i.message.includes('"deploy"'))!;
    assert.deepEqual(deploy.sessions, { read: 3, used: 1 });
    assert.deepEqual(items.filter((i) => i.kind === 'mcp-unused').map((i) => i.path), ['search']);
    // no transcripts, no prices: tokens only
    const bare = pricedAdvice(a, [], undefined, ['db']);
    assert.ok(bare.every((i) => i.dollars === undefined && i.sessions === undefined));
    assert.equal(bare.filter((i) => i.kind === 'mcp-unused').length, 0);
  } finally {
    f.cleanup();
  }
});

test('explain --advice: the text and the JSON, prices shown as assumed; bad --prices is a usage error', async () => {
  const f = fixture();
  try {
    const flags = ['--cwd', f.repo, '--home', f.home, '--managed-dir', f.managed, '--claude-version', '2.1.333'];
    const r = await explainCommand([...flags, '--advice', '--prices', '3,3.75,0.3'], makeStyle(false));
    assert.match(r.text, /advice, priced\nover the last 3 sessions of this project/);
    assert.match(r.text, /prices assumed: \$3\/MTok input, \$3\.75 cache write, \$0\.3 cache read \(--prices\)/);
    assert.match(r.text, /\.claude\/rules\/general\.md: a rule without paths,/);
    const j = await explainCommand([...flags, '--advice', '--sessions', '1', '--json'], makeStyle(false));
    assert.equal(j.json.advice?.sessions, 1);
    assert.equal(j.json.advice?.prices, undefined);
    await assert.rejects(() => explainCommand([...flags, '--advice', '--prices', '3,x'], makeStyle(false)), /--prices takes INPUT,CACHE_WRITE,CACHE_READ/);
    await assert.rejects(() => explainCommand([...flags, '--sessions', '3'], makeStyle(false)), /go with --advice/);
  } finally {
    f.cleanup();
  }
});
