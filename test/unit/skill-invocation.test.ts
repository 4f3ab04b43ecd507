// The re-invocation rule (src/engine/session/skill-invocation.ts, `invocation`), measured on every profiled version
// with the sess_reinvoke_* session scenarios: what a skill call puts into the conversation given the copy it holds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { simulateSession } from '../../src/engine/index.js';
import { invocation } from '../../src/engine/session/skill-invocation.js';
import { makeTree } from '../helpers/fixture.js';

const REINVOKED = '(Re-invocation of /s — the skill instructions were previously loaded; the arguments or dynamic output below are new.)\n';
const AFTER_CUT = '(Re-invocation of /s — the previously loaded copy was truncated by compaction; the full instructions follow.)\n';

describe('invocation: the body, a line instead of it, or a line before it', () => {
  it('no copy held: the body alone', () => {
    assert.deepEqual(invocation('s', 'A', 'BODY\n\n\nARGUMENTS: A', { cut: false }), { status: 'loaded', text: 'BODY\n\n\nARGUMENTS: A' });
  });
  it('the same body as the copy held: already loaded, naming the arguments', () => {
    assert.deepEqual(invocation('s', 'A', 'B', { last: 'B', cut: false }), { status: 'already-loaded', text: 'Skill /s is already loaded above; instructions unchanged. Arguments: A' });
    assert.equal(invocation('s', '', 'B', { last: 'B', cut: false }).text, 'Skill /s is already loaded above; instructions unchanged.');
  });
  it('another body (without a placeholder: another ARGUMENTS: tail): the re-invocation line, then the whole body', () => {
    assert.deepEqual(invocation('s', 'T2', 'BODY\n\n\nARGUMENTS: T2', { last: 'BODY\n\n\nARGUMENTS: T1', cut: false }), { status: 'reinvoked', text: `${REINVOKED}BODY\n\n\nARGUMENTS: T2` });
    assert.equal(invocation('s', '', 'BODY\n', { last: 'BODY\n\n\nARGUMENTS: T1', cut: false }).text, `${REINVOKED}BODY`);
  });
  it('after a compaction: the body it brought back is "loaded earlier", another one re-invoked', () => {
    assert.equal(invocation('s', 'A', 'B', { restored: 'B', cut: false }).status, 'loaded-earlier');
    assert.equal(invocation('s', 'A', 'B', { restored: 'B', cut: false }).text, 'Skill /s was loaded earlier (see the invoked-skills reminder above); this is a NEW invocation — follow those instructions now, including any setup steps. Arguments: A');
    assert.deepEqual(invocation('s', 'C', 'C2', { restored: 'B', cut: false }), { status: 'reinvoked', text: `${REINVOKED}C2` });
  });
  it('a copy the compaction cut: its own line and the whole body, with the same arguments too; a later copy in the conversation wins', () => {
    assert.deepEqual(invocation('s', '', 'B', { cut: true }), { status: 'reinvoked', text: `${AFTER_CUT}B` });
    assert.deepEqual(invocation('s', 'A', 'B', { last: 'B', cut: true }).status, 'already-loaded');
    assert.deepEqual(invocation('s', 'A', 'C', { last: 'B', cut: true }), { status: 'reinvoked', text: `${REINVOKED}C` });
  });
});

it('a session: a skill over the per-skill limit comes back cut from /compact; its next calls get the cut line, then "already loaded"', () => {
  const big = Array.from({ length: 1500 }, (_, i) => `skill line yyyyyyyyyy ${i + 1}`).join('\n') + '\n';
  const t = makeTree({
    'repo/.git/HEAD': 'ref: refs/heads/main\n',
    'repo/CLAUDE.md': 'ROOT\n',
    'repo/.claude/skills/big/SKILL.md': `---\ndescription: big\n---\n${big}`,
    'repo/.claude/skills/small/SKILL.md': '---\ndescription: small\n---\nSMALL\n',
  });
  try {
    for (const version of ['2.1.235', '2.1.335']) {
      const r = simulateSession({ cwd: t.p('repo'), home: t.p('home'), env: { HOME: t.p('home') }, claudeVersion: version }, [
        { prompt: 'one', calls: [{ name: 'Skill', input: { skill: 'big', args: 'A1' } }, { name: 'Skill', input: { skill: 'small' } }] },
        { prompt: '/compact' },
        { prompt: 'three', calls: [{ name: 'Skill', input: { skill: 'big', args: 'A1' } }, { name: 'Skill', input: { skill: 'big', args: 'A1' } }, { name: 'Skill', input: { skill: 'small' } }] },
      ]);
      const c = r.turns[2]!.calls;
      assert.ok(c[0]!.skillBody!.startsWith(`(Re-invocation of /big — the previously loaded copy was truncated by compaction; the full instructions follow.)\nBase directory for this skill: ${t.p('repo/.claude/skills/big')}\n\nskill line yyyyyyyyyy 1\n`), version);
      assert.ok(c[0]!.skillBody!.endsWith('skill line yyyyyyyyyy 1500\n\n\nARGUMENTS: A1'), version);
      assert.equal(c[1]!.skillBody, 'Skill /big is already loaded above; instructions unchanged. Arguments: A1', version);
      assert.match(c[2]!.skillBody!, /^Skill \/small was loaded earlier /, version);
    }
  } finally {
    t.cleanup();
  }
});
