// The session model (src/engine/session) on fixture trees: the overlay, the changed-file snippet,
// skill bodies, compaction, hooks, and whole scripted sessions. The byte-for-byte checks against the
// real binaries are in test/conformance/session.test.ts; these pin the rules measured there and the
// engine's behaviour on bad scripts.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { describe, it } from 'node:test';
import { changeSnippet, chooseProfile, nodeFileAccess, OverlayFileAccess, parseTurns, simulateSession } from '../../src/engine/index.js';
import { restoreFiles, restoreSkills } from '../../src/engine/session/compaction.js';
import { hookMatches, readHooks } from '../../src/engine/session/hooks.js';
import { splitArgs, substitute } from '../../src/engine/session/skill-invocation.js';
import { makeTree } from '../helpers/fixture.js';

const P = chooseProfile('2.1.328').profile.session;
const fm = (yaml: string, body: string) => `---\n${yaml}\n---\n${body}`;

function project(extra: Record<string, string> = {}) {
  return makeTree({
    'home/.claude/CLAUDE.md': 'USER\n',
    'repo/CLAUDE.md': 'ROOT\n',
    'repo/.git/HEAD': 'ref: refs/heads/main\n',
    'repo/.claude/rules/api.md': fm('paths:\n  - "src/api/**"', 'API RULE\n'),
    'repo/pkg/CLAUDE.md': 'PKG\n',
    'repo/pkg/x.ts': 'x\n',
    'repo/src/api/c.ts': 'c\n',
    'repo/src/a.ts': 'a\n',
    ...extra,
  });
}

function sim(t: ReturnType<typeof project>, turns: unknown, version = '2.1.328') {
  return simulateSession({ cwd: t.p('repo'), home: t.p('home'), env: { HOME: t.p('home') }, claudeVersion: version }, turns);
}

describe('overlay file access', () => {
  it('layers writes and deletes over the disk without writing it', () => {
    const t = project();
    try {
      const o = new OverlayFileAccess(nodeFileAccess);
      o.write(t.p('repo/new/deep/f.md'), 'NEW', 5);
      o.delete(t.p('repo/pkg'));
      assert.equal(fs.existsSync(t.p('repo/new')), false, 'the disk is untouched');
      assert.equal(o.stat(t.p('repo/new/deep')).ok && o.stat(t.p('repo/new/deep')).ok, true);
      const r = o.readFile(t.p('repo/new/deep/f.md'), 100);
      assert.ok(r.ok && Buffer.from(r.value).toString() === 'NEW');
      assert.equal(o.stat(t.p('repo/pkg/x.ts')).ok, false, 'a deleted folder hides its files');
      const list = o.readDir(t.p('repo'));
      assert.ok(list.ok);
      const names = list.value.map((e) => e.name).sort();
      assert.ok(names.includes('new') && !names.includes('pkg'), names.join(','));
      o.write(t.p('repo/pkg/again.md'), 'A', 6);
      assert.equal(o.stat(t.p('repo/pkg/x.ts')).ok, false, 'a folder made again after a delete holds only what the session wrote');
      assert.ok(o.stat(t.p('repo/pkg/again.md')).ok);
      assert.equal(o.readFile(t.p('repo/new/deep/f.md'), 2).ok, false, 'the size cap holds for overlay files too');
    } finally {
      t.cleanup();
    }
  });
});

describe('changed-on-disk snippet', () => {
  it('shows each hunk with 8 lines of context, numbered from the old start, joined by ...', () => {
    const before = Array.from({ length: 40 }, (_, i) => `l${i + 1}`).join('\n') + '\n';
    const after = before.replace('l3\n', 'L3\n').replace('l30\n', 'L30\n');
    const s = changeSnippet(before, after, P);
    const lines = s.split('\n');
    assert.equal(lines[0], '1\tl1');
    assert.ok(lines.includes('3\tL3') && lines.includes('30\tL30'));
    assert.ok(lines.includes('...'), 'two hunks');
    assert.equal(lines[lines.indexOf('...') - 1], '11\tl11', '8 lines after the change');
    assert.equal(lines[lines.indexOf('...') + 1], '22\tl22', '8 lines before the change');
  });
  it('is empty when nothing changed, and cut at 8,192 characters with a line count', () => {
    assert.equal(changeSnippet('a\n', 'a\n', P), '');
    const big = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n');
    const s = changeSnippet('', big, P);
    assert.ok(s.length < 8300 && /\n\n\.\.\. \[\d+ lines truncated\] \.\.\.$/.test(s), s.slice(-80));
  });
});

describe('skill bodies', () => {
  it('splits arguments like a shell and substitutes every placeholder', () => {
    assert.deepEqual(splitArgs(`"hello world" second 'third x' ""`), ['hello world', 'second', 'third x', '']);
    assert.equal(substitute('all [$ARGUMENTS] 0 [$0] 1 [$1] i [$ARGUMENTS[1]] d ${CLAUDE_SKILL_DIR}', 'a "b c"', '/s'), 'all [a "b c"] 0 [a] 1 [b c] i [b c] d /s');
    assert.equal(substitute('no placeholder\n', 'A B', '/s'), 'no placeholder\n\n\nARGUMENTS: A B');
    assert.equal(substitute('first $0\n', 'A B', '/s'), 'first A\n', 'a positional placeholder counts as one (measured)');
    assert.equal(substitute('x [$ARGUMENTS]', '', '/s'), 'x []');
  });
});

describe('compaction', () => {
  it('brings back the five newest files, a large one as a reference', () => {
    const held = [1, 2, 3, 4, 5, 6, 7].map((i) => ({ path: `/f${i}`, mtimeMs: [4, 7, 1, 6, 2, 5, 3][i - 1]!, current: `f${i}\n` }));
    held[1]!.current = 'x'.repeat(30_000);
    const r = restoreFiles(held, P);
    assert.deepEqual(r.files.map((f) => f.path), ['/f4', '/f6', '/f1', '/f7']);
    assert.deepEqual(r.references, ['/f2']);
    assert.equal(r.files[0]!.text, '1\tf4\n2\t');
    assert.equal(r.left.length, 2);
  });
  it('restores invoked skills most recent first, cuts a long body, keeps within the total', () => {
    const r = restoreSkills([{ name: 'a', source: 'projectSettings', content: 'A'.repeat(30_000), at: 0 }, { name: 'b', source: 'userSettings', content: 'B\n', at: 1 }], P);
    assert.ok(r.skills!.indexOf('### Skill: b\nPath: userSettings:b') < r.skills!.indexOf('### Skill: a'));
    assert.ok(r.skills!.endsWith('[... skill content truncated for compaction; use Read on the skill path if you need the full text]'));
    assert.deepEqual(r.skillEntries.map((e) => [e.name, e.truncated]), [['b', false], ['a', true]]);
    const many = restoreSkills(Array.from({ length: 8 }, (_, i) => ({ name: `s${i}`, source: 'projectSettings', content: 'S'.repeat(25_000), at: i })), P);
    assert.equal(many.skillEntries.length, 5, '25,000 tokens hold five skills cut to 5,000');
    assert.deepEqual(many.skillsLeft, ['s2', 's1', 's0']);
  });
});

describe('hooks', () => {
  it('reads command hooks of every settings source and matches tool names', () => {
    assert.equal(hookMatches('Edit|Write', 'Write'), true);
    assert.equal(hookMatches('Edit|Write', 'Read'), false);
    assert.equal(hookMatches(undefined, 'Read'), true);
    assert.equal(hookMatches('Ed.*', 'Edit'), true);
    assert.equal(hookMatches('(', 'Edit'), false, 'an invalid pattern matches nothing and does not throw');
    const hooks = readHooks({ layers: [{ name: 'project', path: '/p/settings.json', data: { hooks: { PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'fmt' }, { type: 'other' }] }], UserPromptSubmit: 'bad' } } }], get: () => undefined, value: () => undefined, claudeMdExcludes: [], globalConfig: {} });
    assert.deepEqual(hooks.map((h) => [h.event, h.matcher, h.command]), [['PostToolUse', 'Edit', 'fmt']]);
  });
});

describe('session scripts from untrusted files', () => {
  it('reports every problem and never throws', () => {
    for (const bad of [null, 5, 'x', {}, [1], [{ prompt: 3 }], [{ prompt: 'p', calls: 'x' }], [{ prompt: 'p', before: [{ write: 1 }] }]]) {
      const r = parseTurns(bad);
      assert.ok(r.problems.length > 0, JSON.stringify(bad));
    }
    const t = project();
    try {
      const r = sim(t, { not: 'a list' });
      assert.equal(r.turns.length, 0);
      assert.equal(r.diagnostics[0]!.rule, 'session-invalid');
    } finally {
      t.cleanup();
    }
  });
  it('bounds the number of turns, calls and edits', () => {
    const r = parseTurns(Array.from({ length: 600 }, () => ({ prompt: 'p' })));
    assert.equal(r.turns.length, 500);
    assert.match(r.problems[0]!, /only the first 500/);
    const many = parseTurns(Array.from({ length: 10 }, () => ({ prompt: 'p', before: Array.from({ length: 300 }, () => ({ delete: '/x' })), calls: Array.from({ length: 400 }, () => ({ name: 'Read', input: { file_path: '/x' } })) })));
    assert.equal(many.turns.reduce((n, t) => n + t.calls.length, 0), 2000);
    assert.equal(many.turns.reduce((n, t) => n + t.before.length, 0), 1000);
    assert.ok(many.problems.some((p) => /past 2000 calls/.test(p)) && many.problems.some((p) => /past 1000 edits/.test(p)));
  });
  it('simulates the largest script it accepts in bounded time', () => {
    const t = project();
    try {
      const t0 = Date.now();
      const script = Array.from({ length: 20 }, (_, i) => ({ prompt: `p${i}`, before: i ? [{ write: t.p('repo/pkg/CLAUDE.md'), content: `PKG ${i}\n` }] : [], calls: Array.from({ length: 100 }, (_, k) => ({ name: k % 2 ? 'Write' : 'Read', input: { file_path: t.p(`repo/pkg/f${k}.ts`), content: 'x' } })) }));
      const r = sim(t, script);
      assert.equal(r.turns.length, 20);
      assert.ok(Date.now() - t0 < 120_000, `${Date.now() - t0} ms`);
    } finally {
      t.cleanup();
    }
  });
});

describe('a whole session', () => {
  it('notes an edited rule once, never the startup CLAUDE.md or a file only read', () => {
    const t = project();
    try {
      const r = sim(t, [
        { prompt: 'one', calls: [{ name: 'Read', input: { file_path: t.p('repo/src/api/c.ts') } }, { name: 'Read', input: { file_path: t.p('repo/src/a.ts') } }] },
        { prompt: 'two', before: [{ write: t.p('repo/.claude/rules/api.md'), content: fm('paths:\n  - "src/api/**"', 'API RULE v2\n') }, { write: t.p('repo/CLAUDE.md'), content: 'ROOT v2\n' }, { write: t.p('repo/src/a.ts'), content: 'a2\n' }] },
        { prompt: 'three', before: [{ write: t.p('repo/.claude/rules/api.md'), content: fm('paths:\n  - "src/api/**"', 'API RULE v3\n') }] },
      ]);
      assert.equal(r.turns[0]!.calls[0]!.injected[0]!.path, t.p('repo/.claude/rules/api.md'));
      assert.match(r.turns[1]!.changedNotes!, /^Note: .*api\.md changed on disk since you last read it\./);
      assert.match(r.turns[1]!.changedNotes!, /5\tAPI RULE v2$/);
      assert.ok(!r.turns[1]!.changedNotes!.includes('CLAUDE.md'));
      assert.ok(r.turns[1]!.instructions!.includes('ROOT\n') || r.turns[1]!.instructions!.endsWith('ROOT'), 'the block stays as the session started');
      const why = Object.fromEntries(r.turns[1]!.unnoticed.map((u) => [u.path, u.why]));
      assert.match(why[t.p('repo/CLAUDE.md')]!, /startup file/);
      assert.match(why[t.p('repo/src/a.ts')]!, /only read/);
      assert.equal(r.turns[2]!.changedNotes, null, 'a noted file is not noted again');
      assert.match(r.turns[2]!.unnoticed[0]!.why, /once/);
      assert.ok(fs.readFileSync(t.p('repo/CLAUDE.md'), 'utf8') === 'ROOT\n', 'the disk is never written');
    } finally {
      t.cleanup();
    }
  });

  it('rebuilds the block after /compact and brings back held files, newest first', () => {
    const t = project();
    try {
      fs.utimesSync(t.p('repo/src/a.ts'), 1000, 1000);
      fs.utimesSync(t.p('repo/pkg/x.ts'), 2000, 2000);
      const r = sim(t, [
        { prompt: 'one', calls: [{ name: 'Read', input: { file_path: t.p('repo/src/a.ts') } }, { name: 'Read', input: { file_path: t.p('repo/pkg/x.ts') } }] },
        { prompt: 'two', before: [{ write: t.p('repo/CLAUDE.md'), content: 'ROOT v2\n' }] },
        { prompt: '/compact' },
        { prompt: 'four', calls: [{ name: 'Read', input: { file_path: t.p('repo/pkg/x.ts') } }] },
      ]);
      assert.ok(r.turns[2]!.instructions!.includes('ROOT') && !r.turns[2]!.instructions!.includes('v2'), 'the compaction request carries the old block');
      assert.ok(r.turns[3]!.instructions!.includes('ROOT v2'));
      assert.equal(r.turns[3]!.rebuilt, true);
      assert.deepEqual(r.turns[3]!.restored!.files.map((f) => f.path), [t.p('repo/pkg/CLAUDE.md'), t.p('repo/pkg/x.ts'), t.p('repo/src/a.ts')]);
      assert.deepEqual(r.turns[3]!.calls[0]!.injected, [], 'a restored nested file is not injected again');
    } finally {
      t.cleanup();
    }
  });

  it('/clear forgets what was injected and invoked; /compact of a single exchange does nothing on 2.1.235', () => {
    const t = project({ 'repo/.claude/skills/s/SKILL.md': fm('description: s', 'BODY $ARGUMENTS\n') });
    try {
      const r = sim(t, [
        { prompt: 'one', calls: [{ name: 'Read', input: { file_path: t.p('repo/pkg/x.ts') } }, { name: 'Skill', input: { skill: 's', args: 'A' } }, { name: 'Skill', input: { skill: 's' } }] },
        { prompt: '/clear' },
        { prompt: 'three', calls: [{ name: 'Read', input: { file_path: t.p('repo/pkg/x.ts') } }, { name: 'Skill', input: { skill: 's' } }] },
      ]);
      assert.equal(r.turns[0]!.calls[1]!.skillBody, `Base directory for this skill: ${t.p('repo/.claude/skills/s')}\n\nBODY A`);
      // no arguments after "A": another body, so the re-invocation line and the body (measured)
      assert.equal(r.turns[0]!.calls[2]!.skillBody, `(Re-invocation of /s — the skill instructions were previously loaded; the arguments or dynamic output below are new.)\nBase directory for this skill: ${t.p('repo/.claude/skills/s')}\n\nBODY`);
      assert.equal(r.turns[1]!.instructions, null, '/clear sends no request');
      assert.equal(r.turns[2]!.calls[0]!.injected.length, 1);
      assert.match(r.turns[2]!.calls[1]!.skillBody!, /BODY/);
      const short = sim(t, [{ prompt: 'one' }, { prompt: '/compact' }, { prompt: 'three' }], '2.1.235');
      assert.equal(short.turns[1]!.instructions, null);
      assert.equal(short.turns[2]!.restored, null);
    } finally {
      t.cleanup();
    }
  });

  it('a local command (/cost, /status, /context, /usage) sends no request and forgets nothing; a custom command is a prompt', () => {
    const t = project({ 'repo/.claude/commands/greet.md': 'HELLO [$ARGUMENTS]\n' });
    try {
      const r = sim(t, [
        { prompt: 'one', calls: [{ name: 'Read', input: { file_path: t.p('repo/pkg/x.ts') } }] },
        { prompt: '/cost' },
        { prompt: '/status' },
        { prompt: '/greet Bob', calls: [{ name: 'Read', input: { file_path: t.p('repo/pkg/x.ts') } }] },
      ]);
      assert.deepEqual(r.turns.map((x) => x.command ?? null), [null, 'local', 'local', null]);
      assert.equal(r.turns[1]!.instructions, null, 'a local command sends no request');
      assert.equal(r.turns[2]!.instructions, null);
      assert.match(r.turns[3]!.instructions ?? '', /ROOT/, 'the command is a turn with the startup block');
      assert.equal(r.turns[3]!.calls[0]!.injected.length, 0, 'pkg/CLAUDE.md is still held: the local commands forgot nothing');
    } finally {
      t.cleanup();
    }
  });

  it('skills as the session loaded them; repeats told apart by their body; nested skills found by a touch', () => {
    const t = project({
      'repo/.claude/skills/s/SKILL.md': fm('description: s', 'BODY [$0]\n'),
      'repo/.claude/skills/deploy/SKILL.md': fm('description: top', 'TOP\n'),
      'repo/pkg/.claude/skills/deploy/SKILL.md': fm('description: nested', 'NESTED\n'),
    });
    try {
      const r = sim(t, [
        { prompt: 'one', calls: [{ name: 'Skill', input: { skill: 's', args: 'X Y' } }, { name: 'Skill', input: { skill: 's', args: 'X Z' } }, { name: 'Skill', input: { skill: 'pkg:deploy' } }, { name: 'Read', input: { file_path: t.p('repo/pkg/x.ts') } }, { name: 'Skill', input: { skill: 'pkg:deploy' } }, { name: 'Skill', input: { skill: 'deploy' } }] },
        { prompt: 'two', before: [{ write: t.p('repo/.claude/skills/late/SKILL.md'), content: fm('description: l', 'LATE\n') }, { write: t.p('repo/.claude/skills/s/SKILL.md'), content: 'EDITED\n' }], calls: [{ name: 'Skill', input: { skill: 'late' } }] },
        { prompt: '/compact' },
        { prompt: 'four', calls: [{ name: 'Skill', input: { skill: 's', args: 'X W' } }, { name: 'Skill', input: { skill: 's', args: 'Q' } }] },
        { prompt: '/clear' },
        { prompt: 'six', calls: [{ name: 'Skill', input: { skill: 'late' } }] },
      ]);
      const c = r.turns[0]!.calls;
      assert.equal(c[1]!.skillBody, 'Skill /s is already loaded above; instructions unchanged. Arguments: X Z', 'the same body: already loaded');
      assert.equal(c[2]!.skillBody, null, 'a nested skill is unknown before a touch');
      assert.match(c[4]!.skillBody!, /NESTED$/);
      assert.match(c[5]!.skillBody!, /TOP$/);
      assert.match(c[5]!.skillNote!, /^Directory-scoped variants of the "deploy" skill exist in this repo:\n- `pkg:deploy` — for files under pkg\//);
      assert.equal(r.turns[1]!.calls[0]!.skillBody, null, 'a SKILL.md created mid-session is unknown');
      assert.match(r.turns[3]!.calls[0]!.skillBody!, /^Skill \/s was loaded earlier .* Arguments: X W$/, 'the body the compaction brought back, with its text as the session started');
      assert.match(r.turns[3]!.calls[1]!.skillBody!, /^\(Re-invocation of \/s .*\n.*\n\nBODY \[Q\]$/);
      assert.match(r.turns[5]!.calls[0]!.skillBody!, /LATE$/, '/clear loads the skills again');
    } finally {
      t.cleanup();
    }
  });

  it('compacts on its own from the reported usage, per model and version; a restart replays or rebuilds', () => {
    const t = project();
    try {
      const big = { input: 100, cacheRead: 989_900, cacheCreation: 0 };
      const turns = [
        { prompt: 'one', usage: big, calls: [{ name: 'Read', input: { file_path: t.p('repo/src/a.ts') } }, { name: 'Read', input: { file_path: t.p('repo/pkg/x.ts') } }] },
        { prompt: 'two' },
        { prompt: 'three' },
      ];
      const r = sim(t, turns, '2.1.332');
      assert.deepEqual(r.turns.map((x) => x.autoCompactions.map((a) => a.at)), [[1, 2], [0], []]);
      assert.deepEqual(r.turns[0]!.autoCompactions[0]!.restored.files.map((f) => f.path), [t.p('repo/src/a.ts')]);
      // 2.1.235's default (claude-opus-5[1m]) never compacts on its own; claude-opus-5 stops the turn, then compacts
      assert.deepEqual(sim(t, turns, '2.1.235').turns.map((x) => x.autoCompactions.length), [0, 0, 0]);
      const small = simulateSession({ cwd: t.p('repo'), home: t.p('home'), env: { HOME: t.p('home'), ANTHROPIC_MODEL: 'claude-opus-5' }, claudeVersion: '2.1.235' }, [{ ...turns[0], usage: { input: 190_000, cacheRead: 0, cacheCreation: 0 } }, turns[1]]);
      assert.equal(small.turns[0]!.calls.length, 1);
      assert.match(small.turns[0]!.stopped!, /Prompt is too long/);
      assert.deepEqual(small.turns[1]!.autoCompactions.map((a) => a.at), [0]);
      const sonnet = simulateSession({ cwd: t.p('repo'), home: t.p('home'), env: { HOME: t.p('home'), ANTHROPIC_MODEL: 'claude-sonnet-4-5' }, claudeVersion: '2.1.332' }, turns);
      assert.deepEqual(sonnet.turns.map((x) => x.autoCompactions.length), [0, 0, 0], 'a 4-characters-per-token model never compacts on its own');
      // a restart after CLAUDE.md and pkg/CLAUDE.md changed
      const restart = [
        { prompt: 'one', calls: [{ name: 'Read', input: { file_path: t.p('repo/pkg/x.ts') } }, { name: 'Read', input: { file_path: t.p('repo/src/api/c.ts') } }] },
        { prompt: 'two', restart: 'continue', before: [{ write: t.p('repo/CLAUDE.md'), content: 'ROOT2\n' }, { write: t.p('repo/pkg/CLAUDE.md'), content: 'PKG2\n' }], calls: [{ name: 'Read', input: { file_path: t.p('repo/pkg/x.ts') } }, { name: 'Read', input: { file_path: t.p('repo/src/api/c.ts') } }] },
      ];
      const replay = sim(t, restart, '2.1.332').turns[1]!;
      assert.match(replay.instructions!, /ROOT\n?$/m);
      assert.match(replay.resumeReminder!, /^Instruction files were re-read when this session started;.*\n\nContents of .*CLAUDE\.md \(project instructions, checked into the codebase\):\n\nROOT2$/s);
      assert.equal(replay.changedNotes, null);
      assert.deepEqual(replay.calls.map((x) => x.injected.length), [1, 0], 'only the changed nested file comes again');
      const rebuild = sim(t, restart, '2.1.235').turns[1]!;
      assert.match(rebuild.instructions!, /ROOT2/);
      assert.equal(rebuild.resumeReminder, null);
      assert.deepEqual(rebuild.calls.map((x) => x.injected.length), [1, 1], '2.1.235 forgets everything held');
      assert.match(parseTurns([{ prompt: 'a', restart: 'continue' }, { prompt: 'b', restart: 'later', usage: { input: -1 } }]).problems.join('\n'), /first turn cannot restart[\s\S]*"usage" must be[\s\S]*"restart" must be/);
    } finally {
      t.cleanup();
    }
  });

  it('tells what each agent type gets, marks !`cmd` unknown, names the hooks that fire', () => {
    const t = project({
      'repo/.claude/agents/rev.md': fm('name: rev\ndescription: reviewer', 'You review.\n'),
      'repo/.claude/skills/bang/SKILL.md': fm('description: b', 'now !`date` end\n'),
      'repo/.claude/skills/gated/SKILL.md': fm('description: g\npaths:\n  - "src/**"', 'G\n'),
      'repo/.claude/settings.json': JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo ctx' }] }], PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'audit' }] }] } }),
    });
    try {
      const r = sim(t, [
        {
          prompt: 'one',
          calls: [
            { name: 'Agent', input: { subagent_type: 'Explore', prompt: 'p' } },
            { name: 'Agent', input: { subagent_type: 'rev', prompt: 'p' } },
            { name: 'Agent', input: { subagent_type: 'nope', prompt: 'p' } },
            { name: 'Skill', input: { skill: 'bang' } },
            { name: 'Skill', input: { skill: 'gated' } },
            { name: 'Read', input: { file_path: t.p('repo/src/a.ts') } },
            { name: 'Skill', input: { skill: 'gated' } },
          ],
        },
      ]);
      const c = r.turns[0]!.calls;
      assert.equal(c[0]!.agent!.instructions, null);
      assert.equal(c[1]!.agent!.instructions, r.turns[0]!.instructions);
      assert.equal(c[1]!.agent!.systemPromptChars, 'You review.'.length);
      assert.equal(c[2]!.agent!.known, false);
      assert.deepEqual(c[3]!.skill!.unknownCommands, ['date']);
      assert.match(c[4]!.error!, /Unknown skill/, 'a path-gated skill before a matching touch');
      assert.match(c[6]!.skillBody!, /G$/);
      assert.deepEqual(r.turns[0]!.hooks.map((h) => h.command), ['echo ctx']);
      assert.deepEqual(c[5]!.hooks.map((h) => h.command), ['audit']);
      assert.deepEqual(r.agents.map((a) => a.name), ['claude', 'Explore', 'general-purpose', 'Plan', 'statusline-setup', 'rev']);
    } finally {
      t.cleanup();
    }
  });
});
