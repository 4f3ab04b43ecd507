// `render --session` and `explain --skill/--agent` on the demo, as processes: the `session` key of the
// contract (docs/cli.md) and its refusals of bad scripts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RenderJson } from '../../src/cli/render-command.js';
import { assertNoStack, demo, ROOT, run } from './helpers.js';

let d: Awaited<ReturnType<typeof demo>>;
let tmp: string;
before(async () => {
  d = await demo();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-sess-cli-'));
});
after(() => {
  d.cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const SCRIPT = path.join(ROOT, 'examples', 'demo-session.json');

test('render --session: one entry per turn, with notes, the rebuilt block, restored files and per-call results', () => {
  const r = run(['render', ...d.flags, '--claude-version', '2.1.328', '--session', SCRIPT, '--json']);
  assertNoStack(r);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout) as RenderJson;
  const s = j.session!;
  assert.deepEqual(s.turns.map((t) => t.prompt), ['Fix the retry bug in the API client', 'Now add a test', '/compact', 'Carry on']);
  const [t1, t2, t3, t4] = s.turns;
  assert.equal(t1!.instructions, j.instructions!.text, 'the first turn carries the startup block');
  assert.deepEqual(t1!.calls.map((c) => c.name), ['Read', 'Skill', 'Agent', 'Agent']);
  assert.deepEqual(t1!.calls[0]!.injected.map((i) => path.relative(d.repo, i.path)), ['.claude/rules/api.md']);
  assert.ok(t1!.calls[1]!.skillBody!.startsWith(`Base directory for this skill: ${path.join(d.repo, '.claude/skills/release-check')}\n\n# Release check`));
  assert.ok(t1!.calls[1]!.skillBody!.endsWith('ARGUMENTS: v2.4.0'));
  assert.deepEqual(t1!.calls[2]!.agent, { type: 'api-reviewer', instructions: t1!.instructions });
  assert.deepEqual(t1!.calls[3]!.agent, { type: 'Explore', instructions: null });
  assert.match(t2!.changedNotes!, /^Note: .*\.claude\/rules\/api\.md changed on disk since you last read it\./);
  assert.ok(!t2!.changedNotes!.includes('CLAUDE.md changed'), 'the startup CLAUDE.md is never noted');
  assert.equal(t2!.instructions, t1!.instructions, 'the block stays until /compact');
  assert.ok(t2!.unnoticed.some((u) => u.path === path.join(d.repo, 'CLAUDE.md')));
  assert.equal(t3!.instructions, t1!.instructions, 'the compaction request carries the old block');
  assert.ok(t4!.instructions!.includes('Use pnpm. Run pnpm test before every commit.'), 'rebuilt from the disk after /compact');
  assert.ok(t4!.restored!.files.some((f) => f.path.endsWith('.claude/rules/api.md') && f.text.startsWith('1\t---\n2\tpaths:')));
  assert.match(t4!.restored!.skills!, /^The following skills were invoked EARLIER in this session/);
  assert.ok(t4!.restored!.skills!.includes('### Skill: release-check\nPath: projectSettings:release-check\n\n'));
  assert.deepEqual(s.agents.map((a) => a.name), ['claude', 'Explore', 'general-purpose', 'Plan', 'statusline-setup', 'api-reviewer']);
  assert.ok(fs.readFileSync(path.join(d.repo, 'CLAUDE.md'), 'utf8').startsWith('# Acme Gateway'), 'the disk is not written');
  assert.ok(!fs.readFileSync(path.join(d.repo, 'CLAUDE.md'), 'utf8').includes('Use pnpm. Run pnpm test before every commit.'));
});

test('render --session refuses what is not a session script, with exit 2 and the reason', () => {
  const fifo = path.join(tmp, 'fifo');
  execFileSync('mkfifo', [fifo]);
  fs.writeFileSync(path.join(tmp, 'bad.json'), '{ not json');
  fs.writeFileSync(path.join(tmp, 'obj.json'), '{"a":1}');
  for (const [file, msg] of [
    [fifo, /not a regular file/],
    [tmp, /not a regular file/],
    [path.join(tmp, 'bad.json'), /not valid JSON/],
    [path.join(tmp, 'missing.json'), /does not exist/],
  ] as const) {
    const r = run(['render', ...d.flags, '--session', file, '--json'], { timeoutMs: 20_000 });
    assertNoStack(r);
    assert.equal(r.code, 2, `${file}: ${r.stderr}`);
    assert.match(r.stderr, msg);
  }
  const r = run(['render', ...d.flags, '--session', path.join(tmp, 'obj.json'), '--json']);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout) as RenderJson;
  assert.deepEqual(j.session!.turns, []);
  assert.ok(j.diagnostics.some((x) => x.rule === 'session-invalid'));
});

test('explain --skill and --agent: what using one would cost', () => {
  const skill = run(['explain', ...d.flags, '--skill', 'release-check', '--args', 'v1', '--json']);
  assert.equal(skill.code, 0, skill.stderr);
  const use = (JSON.parse(skill.stdout) as { use: { kind: string; chars: number; text: string; error: string | null } }).use;
  assert.equal(use.kind, 'skill');
  assert.equal(use.error, null);
  assert.equal(use.chars, use.text.length);
  const agent = run(['explain', 'src/api/client.ts', ...d.flags, '--agent', 'api-reviewer']);
  assert.equal(agent.code, 0, agent.stderr);
  assert.match(agent.stdout, /Starting an api-reviewer subagent\n {2}its first request carries the startup instructions: [\d,]+ chars/);
  assert.match(agent.stdout, /not given: \.claude\/rules\/api\.md/);
  const explore = run(['explain', ...d.flags, '--agent', 'Explore']);
  assert.match(explore.stdout, /Starting an Explore subagent\n {2}its first request carries no instruction file/);
  const none = run(['explain', ...d.flags, '--skill', 'nope']);
  assert.match(none.stdout, /fails.*Unknown skill: nope/);
});
