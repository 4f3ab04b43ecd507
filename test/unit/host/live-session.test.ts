// The host's live-session tracker on node:test's fake clock: it follows the newest transcript of the
// launch directory, updates when the transcript grows (and only then), moves to a newer session when
// one appears, and keeps to a session the user pinned.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { mock, test } from 'node:test';
import { analyze, memoryKey } from '../../../src/engine/index.js';
import { DERIVE_MAX_MS, DERIVE_QUIET_MS, LiveSessionTracker, TICK_MS, WATCH_DELAY_MS, type LiveModel } from '../../../src/host/session/live-session.js';
import { l10n } from './vscode-fake.js';
import { LiveSessionView } from '../../../src/host/session/live-session-view.js';

const J = (o: unknown) => JSON.stringify(o);
const prompt = (i: number, text: string) => J({ type: 'user', uuid: `p${i}`, sessionId: 'S', version: '2.1.333', cwd: '/w', timestamp: new Date().toISOString(), message: { role: 'user', content: text } }) + '\n';

test('follows the newest transcript, updates on growth only, moves to a newer session, keeps a pinned one', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-live-')));
  const cwd = path.join(root, 'repo');
  const home = path.join(root, 'home');
  fs.mkdirSync(cwd);
  const dir = path.join(home, '.claude', 'projects', memoryKey(cwd));
  fs.mkdirSync(dir, { recursive: true });
  const first = path.join(dir, 'aaaa.jsonl');
  fs.writeFileSync(first, prompt(1, 'first prompt'));
  mock.timers.enable({ apis: ['setInterval'] });
  const seen: (LiveModel | undefined)[] = [];
  const t = new LiveSessionTracker({ where: () => ({ cwd, home, env: {} }), analysis: () => undefined, changed: (m) => seen.push(m), log: (m) => assert.fail(m) });
  try {
    t.start();
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.session.turns.length, 1);
    assert.equal(seen[0]?.running, true);
    mock.timers.tick(TICK_MS * 3);
    assert.equal(seen.length, 1, 'nothing changed: no update');
    fs.appendFileSync(first, prompt(2, 'second prompt'));
    mock.timers.tick(TICK_MS);
    assert.equal(seen.length, 2);
    assert.deepEqual(seen[1]?.session.turns.map((x) => x.prompt), ['first prompt', 'second prompt']);
    // a newer session: found at the next listing (every 5 ticks at most)
    const second = path.join(dir, 'bbbb.jsonl');
    fs.writeFileSync(second, prompt(3, 'other session'));
    fs.utimesSync(first, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    mock.timers.tick(TICK_MS * 5);
    assert.equal(t.current?.file, second);
    assert.equal(t.sessions.length, 2);
    t.pin(first);
    assert.equal(t.current?.file, first);
    assert.equal(t.current?.pinned, true);
    fs.appendFileSync(second, prompt(4, 'more of the other'));
    mock.timers.tick(TICK_MS * 10);
    assert.equal(t.current?.file, first, 'a pinned session stays');
    fs.rmSync(dir, { recursive: true });
    mock.timers.tick(TICK_MS * 5);
    assert.equal(t.current?.session.problems.some((p) => /cannot read/.test(p.reason)), true, 'a transcript that vanished says so');
  } finally {
    t.dispose();
    mock.timers.reset();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('This Session in English: one turn, one file, one call are singular; the headline is a plain percentage', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-live-view-')));
  const cwd = path.join(root, 'repo');
  const home = path.join(root, 'home');
  fs.mkdirSync(cwd);
  fs.writeFileSync(path.join(cwd, 'a.ts'), 'x\n');
  const dir = path.join(home, '.claude', 'projects', memoryKey(cwd));
  fs.mkdirSync(dir, { recursive: true });
  const lines = [
    { type: 'user', uuid: 'p1', sessionId: 'S', version: '2.1.235', cwd, timestamp: new Date().toISOString(), message: { role: 'user', content: 'one turn' } },
    { type: 'assistant', uuid: 'a1', timestamp: new Date().toISOString(), message: { id: 'm1', role: 'assistant', model: 'claude-opus-5-5', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: path.join(cwd, 'a.ts') } }], usage: { input_tokens: 1000, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 1 } } },
    { type: 'user', uuid: 't1', timestamp: new Date().toISOString(), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '1\tx' }] } },
  ];
  fs.writeFileSync(path.join(dir, 'aaaa.jsonl'), lines.map((l) => J(l)).join('\n') + '\n');
  const view = new LiveSessionView(l10n.t, 'en', { where: () => ({ cwd, home, env: {} }), analysis: () => undefined, log: (m) => assert.fail(m) });
  try {
    view.tracker.tick(true);
    const m = view.tracker.current!;
    const roots = view.roots(m);
    assert.equal(roots[0]!.description, '1 turn · $0.004 · Claude Code 2.1.235', 'the session cost (figures.cost), before the version');
    const turn = roots[0]!.children!()[0]!;
    assert.match(turn.description!, /· 1 tool call · \$0\.004$/);
    // without an analysis there is nothing next and no context to gauge; with them: one file, and a plain percentage
    assert.equal(view.headline(m), 'This session: no usage recorded yet');
    const next: LiveModel = { ...m, next: { held: [{ path: path.join(cwd, 'a.ts'), how: 'read', noted: false }], startupEdited: [], compact: { files: [path.join(cwd, 'a.ts')], references: [], skills: [], dropped: [], instructionsChars: null }, context: { tokens: 48_120, window: 200_000, model: 'claude-opus-5-5', fraction: 0.2406, autoCompactAt: null } } };
    const withNext = view.roots(next);
    assert.equal(withNext.find((r) => r.label === 'Files the session holds')?.description, '1 file · 0 changed on disk since');
    assert.equal(withNext.find((r) => r.label === 'If you /compact now')?.description, '1 file and 0 skills come back');
    assert.equal(view.headline(next), 'This session: 48,120 of 200,000 tokens (24.1%) · $0.004 so far', 'a plain percentage, and the session cost');
  } finally {
    view.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('an append is shown at once and only its rows are redrawn; what comes next and the prediction follow once the transcript rests', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-live-incr-')));
  const cwd = path.join(root, 'repo');
  const home = path.join(root, 'home');
  fs.mkdirSync(cwd);
  fs.writeFileSync(path.join(cwd, 'CLAUDE.md'), 'OUR_ROOT\n');
  fs.writeFileSync(path.join(cwd, 'a.ts'), 'x\n');
  const dir = path.join(home, '.claude', 'projects', memoryKey(cwd));
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'aaaa.jsonl');
  let k = 0;
  const call = () => {
    const id = `toolu_${k++}`;
    return (
      J({ type: 'assistant', uuid: `a${id}`, timestamp: new Date().toISOString(), message: { id: `m${id}`, role: 'assistant', model: 'claude-opus-5-5', content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: path.join(cwd, 'a.ts') } }], usage: { input_tokens: 1000 + k, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 1 } } }) +
      '\n' +
      J({ type: 'user', uuid: `t${id}`, timestamp: new Date().toISOString(), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: '1\tx' }] } }) +
      '\n'
    );
  };
  const p = (i: number, text: string) => J({ type: 'user', uuid: `p${i}`, sessionId: 'S', version: '2.1.235', cwd, timestamp: new Date().toISOString(), message: { role: 'user', content: text } }) + '\n';
  fs.writeFileSync(file, p(1, 'first') + call() + p(2, 'second') + call());
  const a = analyze({ cwd, home, env: {}, claudeVersion: '2.1.235' });
  let clock = Date.now();
  let watched: (() => void) | undefined;
  mock.timers.enable({ apis: ['setInterval', 'setTimeout'] });
  const view = new LiveSessionView(l10n.t, 'en', { where: () => ({ cwd, home, env: {} }), analysis: () => a, log: (m) => assert.fail(m), now: () => clock, watch: (_f, changed) => ((watched = changed), { dispose: () => (watched = undefined) }) });
  const fired: unknown[] = [];
  view.onDidChangeTreeData((e) => fired.push(e));
  const calls = () => view.tracker.current!.state.derivedFor?.key.split(':').pop();
  try {
    view.tracker.start();
    // VS Code draws the roots and the open Turns group
    const roots = view.getChildren();
    const turnsGroup = roots.find((r) => r.label === 'Turns')!;
    const turnRows = view.getChildren(turnsGroup);
    assert.equal(turnRows.length, 2);
    assert.equal(calls(), '2');
    fired.length = 0;
    // a call appended to the last turn: the watcher reports it, read WATCH_DELAY_MS later
    fs.appendFileSync(file, call());
    assert.ok(watched, 'the followed transcript is watched');
    watched();
    mock.timers.tick(WATCH_DELAY_MS);
    const m = view.tracker.current!;
    assert.equal(m.session.turns[1]!.calls.length, 2, 'the appended call is shown at once');
    assert.equal(m.pending, true, 'what comes next and the prediction wait');
    assert.equal(calls(), '2');
    assert.equal(m.next?.context?.tokens, 1003, 'the gauge follows at once');
    assert.equal(fired.length, 1);
    assert.ok(Array.isArray(fired[0]), `only changed rows are redrawn, not the whole tree (${String(fired[0])})`);
    // the rows the appended call changed: its turn, the Turns row (the session's cost) and the derived layers (the
    // version records no request: the breakdown grows with the call)
    assert.deepEqual((fired[0] as { id: string }[]).map((x) => x.id), [turnRows[1]!.id, turnsGroup.id, roots.find((r) => r.label === 'Last request by layer')!.id]);
    assert.equal((fired[0] as unknown[])[0], turnRows[1], 'the same object VS Code holds, updated in place');
    assert.match(turnRows[1]!.description!, /2 tool calls · \$0\.0081$/);
    // the transcript rests: computed again after DERIVE_QUIET_MS
    mock.timers.tick(DERIVE_QUIET_MS - 1);
    assert.equal(view.tracker.current!.pending, true);
    mock.timers.tick(1);
    assert.equal(view.tracker.current!.pending, undefined);
    assert.equal(calls(), '3');
    // appends that never rest: computed at the latest DERIVE_MAX_MS after the first one
    const step = DERIVE_QUIET_MS / 2;
    let waited = 0;
    while (view.tracker.current!.pending || waited === 0) {
      fs.appendFileSync(file, call());
      watched();
      clock += step;
      mock.timers.tick(step);
      waited += step;
      assert.ok(waited <= DERIVE_MAX_MS + step, `computed again within ${DERIVE_MAX_MS} ms of appends (waited ${waited})`);
    }
    assert.ok(waited >= DERIVE_MAX_MS - step, `not before the quiet time or the longest wait (${waited})`);
  } finally {
    view.dispose();
    mock.timers.reset();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("a workflow's agent that writes while the session's own file rests is counted at the next listing tick (every 5 s), not before; nothing changed: no update", () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-live-')));
  const cwd = path.join(root, 'repo');
  const home = path.join(root, 'home');
  fs.mkdirSync(cwd);
  const dir = path.join(home, '.claude', 'projects', memoryKey(cwd));
  fs.mkdirSync(dir, { recursive: true });
  const main = path.join(dir, 'aaaa.jsonl');
  fs.writeFileSync(main, prompt(1, 'survey the plugins'));
  const run = path.join(dir, 'aaaa', 'subagents', 'workflows', 'wf_0a0b0c0d-111');
  fs.mkdirSync(run, { recursive: true });
  const answer = (id: string) => J({ type: 'assistant', uuid: `u-${id}`, isSidechain: true, agentId: 'a1', sessionId: 'S', version: '2.1.167', timestamp: new Date().toISOString(), message: { id, role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'text', text: 'x' }], usage: { input_tokens: 100, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 10 } } }) + '\n';
  mock.timers.enable({ apis: ['setInterval'] });
  const seen: (LiveModel | undefined)[] = [];
  const t = new LiveSessionTracker({ where: () => ({ cwd, home, env: {} }), analysis: () => undefined, changed: (m) => seen.push(m), log: (m) => assert.fail(m) });
  try {
    t.start();
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.session.turns[0]?.agents?.length, 0);
    fs.writeFileSync(path.join(run, 'agent-a1.jsonl'), answer('msg_1'));
    mock.timers.tick(TICK_MS * 3);
    assert.equal(seen.length, 1, 'between listings only the session file is looked at');
    mock.timers.tick(TICK_MS * 2);
    assert.equal(seen.length, 2, 'the listing tick finds the agent');
    assert.deepEqual(seen[1]?.session.turns[0]?.agents?.map((a) => [a.agentId, a.workflow, a.requests]), [['a1', 'wf_0a0b0c0d-111', 1]]);
    mock.timers.tick(TICK_MS * 10);
    assert.equal(seen.length, 2, 'nothing changed since: no update');
    fs.appendFileSync(path.join(run, 'agent-a1.jsonl'), answer('msg_2'));
    mock.timers.tick(TICK_MS * 5);
    assert.equal(seen.length, 3);
    assert.equal(seen[2]?.session.turns[0]?.agents?.[0]?.requests, 2);
  } finally {
    t.dispose();
    mock.timers.reset();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('the analysis moved on (an instruction file changed) while the transcript rests: what comes next and the prediction are computed again at the next tick, then nothing more', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-live-')));
  const cwd = path.join(root, 'repo');
  const home = path.join(root, 'home');
  fs.mkdirSync(cwd);
  fs.writeFileSync(path.join(cwd, 'CLAUDE.md'), 'Use the make targets.\n');
  const dir = path.join(home, '.claude', 'projects', memoryKey(cwd));
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'aaaa.jsonl');
  fs.writeFileSync(file, J({ type: 'user', uuid: 'p1', sessionId: 'S', version: '2.1.333', cwd, timestamp: new Date(Date.now() - 120_000).toISOString(), message: { role: 'user', content: 'one prompt' } }) + '\n');
  fs.utimesSync(file, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
  const opts = { cwd, home, env: { HOME: home }, managedDir: path.join(root, 'managed') };
  let current = analyze(opts);
  const first = current;
  mock.timers.enable({ apis: ['setInterval', 'setTimeout'] });
  const seen: (LiveModel | undefined)[] = [];
  const t = new LiveSessionTracker({ where: () => ({ cwd, home, env: {} }), analysis: () => current, changed: (m) => seen.push(m), log: (m) => assert.fail(m) });
  try {
    t.start();
    assert.equal(t.current?.state.derivedFor?.analysis, first);
    mock.timers.tick(TICK_MS * 3);
    const before = seen.length;
    fs.writeFileSync(path.join(cwd, 'CLAUDE.md'), 'Use the make targets. Never push to main.\n');
    current = current.refresh([path.join(cwd, 'CLAUDE.md')]);
    mock.timers.tick(TICK_MS);
    assert.equal(t.current?.state.derivedFor?.analysis, current, 'read again with the new analysis');
    assert.ok(seen.length > before);
    const after = seen.length;
    mock.timers.tick(TICK_MS * 3);
    assert.equal(seen.length, after, 'nothing changed since: no update');
  } finally {
    t.dispose();
    mock.timers.reset();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
