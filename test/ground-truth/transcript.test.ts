// Last session: transcript parsing on the transcripts the real binaries wrote (fixtures/, recorded
// by record-fixtures.ts, redacted), checked against what the same run's request showed
// (fixtures/VERSION.capture.json); tolerance of partial lines, unknown records and huge files;
// finding the newest session under the transcript key (not the memory key); and the comparison
// with the engine's prediction.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { memoryKey } from '../../src/engine/memory/memory.js';
import { describeTime, lastSessionReport, parseTranscript, readBounded, renderLastSession, transcriptDirs } from '../../src/ground-truth/index.js';
import { lastSession } from '../../src/ground-truth/transcript.js';
import { run as runCli } from '../cli/helpers.js';
import { tempDir } from './helpers.js';
import { materialise, RECORDS_STARTUP, SCENARIO_STEPS, VERSIONS, type Workspace } from './scenario.js';

const FIXTURES = path.join(__dirname, 'fixtures');

interface Capture {
  startup: string[];
  touches: { tool: string; input: Record<string, unknown>; injected: string[] }[];
}

function fixture(v: string, ws?: Workspace): string {
  const raw = fs.readFileSync(path.join(FIXTURES, `${v}.jsonl`), 'utf8');
  return ws ? raw.split('{ROOTKEY}').join(memoryKey(ws.root)).split('{ROOT}').join(ws.root) : raw;
}

function capture(v: string): Capture {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, `${v}.capture.json`), 'utf8')) as Capture;
}

/** puts a fixture where Claude Code would have written it for ws.repo */
function install(ws: Workspace, v: string, name = 'session.jsonl', launch = ws.repo): string {
  const dir = path.join(ws.home, '.claude', 'projects', memoryKey(launch));
  fs.mkdirSync(dir, { recursive: true });
  const f = path.join(dir, name);
  fs.writeFileSync(f, fixture(v, ws));
  return f;
}

for (const v of VERSIONS) {
  test(`transcript ${v}: what it records agrees with the request of the same run`, () => {
    const s = parseTranscript(fixture(v), { file: 'f' });
    const c = capture(v);
    assert.equal(s.version, v);
    assert.equal(s.partialLines, 0);
    assert.deepEqual(s.otherTypes, {}, 'every record type of the recorded versions is known');
    // the scripted tool calls, in order
    assert.deepEqual(s.toolCalls.map((t) => t.name), SCENARIO_STEPS.map((x) => x.tool));
    // startup: 2.1.328 and later record the files (same list as the request), 2.1.235 records none
    const startup = s.instructions.filter((i) => i.when.kind === 'startup');
    if (RECORDS_STARTUP.has(v)) {
      assert.equal(s.startupRecorded, true);
      assert.deepEqual(startup.map((i) => i.path), c.startup);
      assert.deepEqual(startup.map((i) => i.type), ['User', 'User', 'Project', 'Project', 'Project', 'Local', 'AutoMem']);
      assert.equal(startup.at(-1)!.content, '- MARK_GT_MEMORY index line');
    } else {
      assert.equal(s.startupRecorded, false);
      assert.deepEqual(startup, []);
      assert.match(s.warnings.join('\n'), /does not record the startup instruction files/);
    }
    // lazy: per tool call, the same files the request carried after it
    s.toolCalls.forEach((call, i) => {
      const loaded = s.instructions.filter((x) => x.when.kind === 'tool' && x.when.call.id === call.id).map((x) => x.path);
      assert.deepEqual(loaded, c.touches[i]!.injected, `tool call ${i} (${call.summary})`);
    });
    const rule = s.instructions.find((x) => x.path.endsWith('/.claude/rules/api.md'))!;
    assert.equal(rule.isRule, true);
    assert.deepEqual(rule.globs, ['src/api']);
    assert.equal(describeTime(rule.when), 'after tool call #1 (Read {ROOT}/repo/src/api/client.ts)');
    // skills: the startup listing, the nested skills folder found by the Edit, the Skill call
    const listed = s.skills.find((k) => k.kind === 'listed' && k.when.kind === 'startup')!;
    assert.equal(listed.names[0], 'gt-skill');
    const found = s.skills.find((k) => k.kind === 'discovered')!;
    assert.deepEqual(found.names, ['web-skill']);
    assert.equal(found.path, '{ROOT}/repo/packages/web/.claude/skills');
    assert.equal(describeTime(found.when), 'after tool call #3 (Edit {ROOT}/repo/packages/web/App.tsx)');
    const invoked = s.skills.find((k) => k.kind === 'invoked')!;
    assert.deepEqual([invoked.names, invoked.by, invoked.path], [['gt-skill'], 'model', '{ROOT}/repo/.claude/skills/gt-skill']);
  });

  test(`transcript ${v}: partial lines, garbage and unknown record types are skipped, the rest is read`, () => {
    const good = parseTranscript(fixture(v), { file: 'f' });
    const lines = fixture(v).trimEnd().split('\n');
    const mid = Math.floor(lines.length / 2);
    const noisy = [
      '{"type":"from-the-future","payload":{"x":1}}',
      ...lines.slice(0, mid),
      'not json at all',
      '{"type":"attachment","attachment":{"type":"hologram","data":1},"uuid":"u-x","parentUuid":null}',
      '',
      '[1,2,3]',
      ...lines.slice(mid),
      lines[3]!.slice(0, 40), // a write in progress
    ].join('\n');
    const s = parseTranscript(noisy, { file: 'f' });
    assert.equal(s.partialLines, 3);
    assert.deepEqual(s.otherTypes, { 'from-the-future': 1, 'attachment:hologram': 1 });
    assert.deepEqual(s.instructions.map((i) => [i.path, describeTime(i.when)]), good.instructions.map((i) => [i.path, describeTime(i.when)]));
    assert.equal(s.toolCalls.length, good.toolCalls.length);
  });
}

test('transcript: a huge file is read within the bound (head and tail), newest loads and startup still found', () => {
  const { dir, cleanup } = tempDir();
  try {
    const lines = fixture('2.1.328').trimEnd().split('\n');
    // startup records first, then 3 MB of filler, then the rest (the lazy loads)
    const firstCall = lines.findIndex((l) => l.includes('"tool_use"'));
    const filler = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ type: 'progress', n: i, pad: 'x'.repeat(1000) }));
    const f = path.join(dir, 'big.jsonl');
    fs.writeFileSync(f, [...lines.slice(0, firstCall), ...filler, ...lines.slice(firstCall)].join('\n') + '\n');
    const size = fs.statSync(f).size;
    const r = readBounded(f, 1024 * 1024);
    assert.equal(r.truncated, true);
    assert.ok(r.bytesRead <= 1024 * 1024);
    assert.equal(r.size, size);
    const s = parseTranscript(r.text, { file: f, size: r.size, bytesRead: r.bytesRead, truncated: r.truncated });
    assert.equal(s.instructions.filter((i) => i.when.kind === 'startup').length, 7);
    assert.deepEqual(s.instructions.filter((i) => i.when.kind === 'tool').map((i) => path.basename(path.dirname(i.path)) + '/' + path.basename(i.path)), ['api/CLAUDE.md', 'rules/api.md', 'web/CLAUDE.md']);
    assert.ok(s.partialLines <= 2);
    assert.match(s.warnings.join('\n'), /only its first and last parts/);
  } finally {
    cleanup();
  }
});

test('last session: the newest transcript under the launch directory key (not the memory key), beside the prediction', async (t) => {
  for (const v of VERSIONS) {
    await t.test(v, () => {
      const ws = materialise();
      try {
        const older = install(ws, v, 'older.jsonl');
        fs.writeFileSync(older, '{"type":"user","message":{"role":"user","content":"old"},"uuid":"a","version":"2.1.1"}\n');
        fs.utimesSync(older, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
        const newest = install(ws, v, 'newest.jsonl');
        const r = lastSessionReport({ cwd: ws.repo, engine: { home: ws.home, env: { HOME: ws.home }, managedDir: path.join(ws.root, 'none') } });
        assert.equal(r.session!.file, newest);
        assert.equal(r.profile!.version, v);
        assert.equal(r.agrees, true, renderLastSession(r));
        if (RECORDS_STARTUP.has(v)) assert.ok(r.startup.every((row) => row.inSession === true && row.predicted && row.changedSince === false));
        else assert.ok(r.startup.every((row) => row.inSession === null && row.predicted));
        const calls = r.calls.map((c) => [c.call.name, c.actual.length, c.agree]);
        assert.deepEqual(calls, RECORDS_STARTUP.has(v) ? [['Read', 2, true], ['Edit', 1, true]] : [['Read', 2, true]]);
        const text = renderLastSession(r);
        assert.match(text, /after tool call #1 Read .*src\/api\/client\.ts {2}\[as predicted\]/);
        assert.match(text, /discovered after tool call #3 .*: web-skill in /);
        assert.match(text, /invoked by the model \(tool call #4\): gt-skill from /);
      } finally {
        ws.cleanup();
      }
    });
  }
  await t.test('a launch directory below the git root has its own transcript key', () => {
    const ws = materialise();
    try {
      const sub = path.join(ws.repo, 'src');
      assert.notEqual(memoryKey(sub), memoryKey(ws.repo));
      install(ws, '2.1.328', 'root-session.jsonl', ws.repo);
      assert.equal(lastSession({ cwd: sub, userDir: path.join(ws.home, '.claude') }).session, undefined, 'the session launched at the root is not the one of src/');
      assert.deepEqual(transcriptDirs(sub, path.join(ws.home, '.claude')), [path.join(ws.home, '.claude', 'projects', memoryKey(sub))]);
      // a symlink to the launch directory finds it through the real path
      const link = path.join(ws.root, 'link');
      fs.symlinkSync(ws.repo, link);
      assert.ok(lastSession({ cwd: link, userDir: path.join(ws.home, '.claude') }).session);
    } finally {
      ws.cleanup();
    }
  });
  await t.test('a workspace changed since the session: the report says where they differ', () => {
    const ws = materialise();
    try {
      install(ws, '2.1.328');
      fs.rmSync(path.join(ws.repo, 'src/api/CLAUDE.md'));
      fs.writeFileSync(path.join(ws.repo, 'CLAUDE.local.md'), 'MARK_GT_LOCAL changed\n');
      const r = lastSessionReport({ cwd: ws.repo, engine: { home: ws.home, env: { HOME: ws.home }, managedDir: path.join(ws.root, 'none') } });
      assert.equal(r.agrees, false);
      assert.equal(r.startup.find((x) => x.path.endsWith('CLAUDE.local.md'))!.changedSince, true);
      const read = r.calls.find((c) => c.call.name === 'Read')!;
      assert.equal(read.agree, false);
      assert.match(renderLastSession(r), /loaded {5}.*src\/api\/CLAUDE\.md {2}\(not predicted\)/);
    } finally {
      ws.cleanup();
    }
  });
});

test('CLI: claude-layers last-session (text and JSON; exit 0 agrees, 1 differs; no session is not an error)', () => {
  const ws = materialise();
  try {
    const none = runCli(['last-session', '--cwd', ws.repo, '--home', ws.home]);
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stdout, /^No Claude Code session found for /);
    install(ws, '2.1.328');
    const text = runCli(['last-session', '--cwd', ws.repo, '--home', ws.home]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^Last session .* \(Claude Code 2\.1\.328\)/);
    assert.match(text.stdout, /= User {5}.*\/home\/\.claude\/CLAUDE\.md {2}\[loaded, predicted\]/);
    const json = runCli(['last-session', '--cwd', ws.repo, '--home', ws.home, '--json']);
    const j = JSON.parse(json.stdout) as { agrees: boolean; session: { instructions: Record<string, unknown>[] } };
    assert.equal(j.agrees, true);
    assert.equal('content' in j.session.instructions[0]!, false, 'contents are left out of the JSON');
    fs.rmSync(path.join(ws.repo, 'src/api/CLAUDE.md'));
    assert.equal(runCli(['last-session', '--cwd', ws.repo, '--home', ws.home]).code, 1);
  } finally {
    ws.cleanup();
  }
});
