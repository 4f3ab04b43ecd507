// The sidebar's session timeline and the save notice (src/host/session/session-timeline.ts, running-session.ts)
// on fixture trees: steps → session script → rows; what a running session will see of a saved file.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { analyze } from '../../../src/engine/index.js';
import { englishT } from '../../../src/host/format.js';
import { findRunningSession, mayNotice, saveNotice } from '../../../src/host/session/running-session.js';
import { agentRows, buildTimeline, stepsToScript, validSteps, type TimelineFormat, type TimelineStep } from '../../../src/host/session/session-timeline.js';
import { makeTree } from '../../helpers/fixture.js';

const fm = (yaml: string, body: string) => `---\n${yaml}\n---\n${body}`;
const F: TimelineFormat = {
  t: englishT,
  num: (n) => n.toLocaleString('en-US'),
  tokens: (c) => Math.ceil(c / 3),
  rel: (p) => p.replace(/^.*\/repo\//, ''),
  window: 1_000_000,
  injectionRows: (id, inj) => inj.map((x, k) => ({ id: `${id}/${k}`, label: x.path, aria: x.path, path: x.path })),
};

function tree() {
  return makeTree({
    'home/.claude/CLAUDE.md': 'USER\n',
    'repo/.git/HEAD': 'ref: refs/heads/main\n',
    'repo/CLAUDE.md': 'ROOT\n',
    'repo/.claude/rules/api.md': fm('paths:\n  - "src/api/**"', 'API RULE\n'),
    'repo/.claude/skills/rel/SKILL.md': fm('description: release', 'REL $ARGUMENTS\n'),
    'repo/.claude/agents/rev.md': fm('name: rev\ndescription: r', 'You review.\n'),
    'repo/src/api/c.ts': 'c\n',
  });
}

describe('session timeline', () => {
  it('a hook row shows what the hook printed when a session here last ran it; else its size is unknown', () => {
    const t = makeTree({
      'home/.claude/CLAUDE.md': 'USER\n',
      'repo/.git/HEAD': 'ref: refs/heads/main\n',
      'repo/.claude/settings.json': JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'our-fmt' }] }], UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'our-date' }] }] } }),
      'repo/src/a.ts': 'a\n',
    });
    try {
      const a = analyze({ cwd: t.p('repo'), home: t.p('home'), env: { HOME: t.p('home') }, claudeVersion: '2.1.333' });
      const steps: TimelineStep[] = [{ kind: 'read', file: t.p('repo/src/a.ts') }];
      const rows = buildTimeline(a, steps, { ...F, hookOutputs: new Map([['PostToolUse\nour-fmt', { chars: 1234 }]]) }, () => undefined).rows;
      const hooks = rows[0]!.children!.filter((r) => r.label.startsWith('hook: '));
      const fmt = hooks.find((r) => r.label === 'hook: our-fmt')!;
      assert.equal(fmt.badge, '1,234 chars');
      // measured: a PostToolUse hook's plain output is recorded, never sent (its recorded size is what reached the model)
      assert.match(fmt.description!, /^PostToolUse in .*: only a JSON additionalContext it prints joins the context \(plain output is recorded, not sent\)$/);
      const date = hooks.find((r) => r.label === 'hook: our-date')!;
      assert.equal(date.badge, undefined);
      assert.match(date.description!, /size unknown \(never run here\)$/);
    } finally {
      t.cleanup();
    }
  });

  it('places steps in turns: calls in the open turn, an edit between turns and /compact start new ones', () => {
    const { turns, placed } = stepsToScript(
      [{ kind: 'read', file: '/r/a' }, { kind: 'change', file: '/r/b', content: 'B' }, { kind: 'skill', name: 's' }, { kind: 'compact' }, { kind: 'agent', type: 'Explore' }],
      () => 'x',
    );
    assert.deepEqual(turns.map((t) => t.prompt), ['task', 'next turn', '/compact', 'go on']);
    assert.deepEqual(placed, [{ turn: 0, call: 0 }, { turn: 1 }, { turn: 1, call: 0 }, { turn: 2 }, { turn: 3, call: 0 }]);
    assert.deepEqual(turns[1]!.before, [{ write: '/r/b', content: 'B' }]);
  });

  it('drops malformed stored steps', () => {
    assert.deepEqual(validSteps([{ kind: 'read', file: '/a' }, { kind: 'read' }, 5, null, { kind: 'nope' }, { kind: 'compact' }, { kind: 'skill', name: 'x', args: 3 }]), [
      { kind: 'read', file: '/a' },
      { kind: 'compact' },
      { kind: 'skill', name: 'x' },
    ]);
    assert.deepEqual(validSteps('x'), []);
  });

  it('shows what each step adds, the notes, what /compact brings back, and the running total', () => {
    const t = tree();
    try {
      const a = analyze({ cwd: t.p('repo'), home: t.p('home'), env: { HOME: t.p('home') }, claudeVersion: '2.1.328' });
      const rule = t.p('repo/.claude/rules/api.md');
      const steps: TimelineStep[] = [
          { kind: 'read', file: t.p('repo/src/api/c.ts') },
          { kind: 'skill', name: 'rel', args: 'v1' },
          { kind: 'agent', type: 'Explore' },
          { kind: 'agent', type: 'rev' },
          { kind: 'change', file: rule, content: fm('paths:\n  - "src/api/**"', 'API RULE v2\n') },
          { kind: 'change', file: t.p('repo/CLAUDE.md'), content: 'ROOT v2\n' },
          { kind: 'compact' },
          { kind: 'clear' },
        ];
      const readText = (p: string) => fs.readFileSync(p, 'utf8');
      const tl = buildTimeline(a, steps, F, readText);
      assert.equal(buildTimeline(a, [...steps], F, readText), tl, 'the same analysis and steps: no second simulation (an editor switch)');
      const [read, skill, explore, rev, change, startupChange, compact, clear] = tl.rows;
      assert.equal(read!.label, '1. Read src/api/c.ts');
      assert.equal(read!.description, '+1 file');
      assert.equal(read!.children![0]!.path, rule);
      assert.match(skill!.badge!, /^\+\d+ chars$/);
      assert.equal(explore!.description, 'its own context: no instruction files');
      assert.match(rev!.description!, /the CLAUDE\.md block of Startup, ≈\d+ tokens/);
      assert.equal(change!.description, 'a "changed on disk" note at the start of the next turn');
      assert.equal(startupChange!.description, 'not told to the model');
      assert.match(startupChange!.children!.map((c) => c.description).join('\n'), /the model keeps the earlier text: a startup file/);
      // a file row leads with the file's name; its folder leads the (dimmed) description; the tooltip has the whole path
      const noteRow = change!.children!.find((c) => c.path === rule)!;
      assert.equal(noteRow.label, 'api.md');
      assert.equal(noteRow.description, '.claude/rules · note with the changed lines');
      assert.equal(noteRow.detail, '.claude/rules/api.md\nnote with the changed lines');
      const rootRow = startupChange!.children!.find((c) => c.path === t.p('repo/CLAUDE.md'))!;
      assert.equal(rootRow.label, 'CLAUDE.md');
      assert.match(rootRow.description!, /^the model keeps the earlier text/, 'a file at the root has no folder to show');
      assert.match(compact!.description!, /starts over: the startup block rebuilt from disk; back: \d+ files? · 1 skill$/);
      assert.equal(clear!.description, 'starts over: only the startup block, rebuilt from disk');
      assert.match(read!.detail!, /Running total ≈\d+ tokens/);
      assert.equal(fs.readFileSync(rule, 'utf8').includes('v2'), false, 'the timeline never writes the disk');
      const agents = agentRows(tl.result, a.startupText!.length, F);
      assert.deepEqual(agents.map((r) => r.label), ['claude', 'Explore', 'general-purpose', 'Plan', 'statusline-setup', 'rev']);
      assert.equal(agents[1]!.description, 'built-in · gets no instruction file');
      assert.match(agents[0]!.description!, /built-in · gets the CLAUDE\.md block of Startup/);
    } finally {
      t.cleanup();
    }
  });
});

describe('save notice for a running session', () => {
  it('says what a session whose transcript is fresh will see, by the kind of file', () => {
    const t = tree();
    try {
      const a = analyze({ cwd: t.p('repo'), home: t.p('home'), env: { HOME: t.p('home') }, claudeVersion: '2.1.328' });
      const userDir = t.p('home/.claude');
      const now = 10_000_000_000;
      assert.equal(findRunningSession(t.p('repo'), userDir, now), undefined, 'no transcript: no running session');
      const key = t.p('repo').replace(/[^A-Za-z0-9]/g, '-');
      const dir = path.join(userDir, 'projects', key);
      fs.mkdirSync(dir, { recursive: true });
      const transcript = path.join(dir, 'abc.jsonl');
      const rule = t.p('repo/.claude/rules/api.md');
      fs.writeFileSync(transcript, JSON.stringify({ type: 'attachment', uuid: 'u1', parentUuid: null, attachment: { type: 'nested_memory', path: rule, content: { type: 'Project', content: 'API RULE', globs: ['src/api'] } } }) + '\n');
      fs.utimesSync(transcript, (now - 3 * 60_000) / 1000, (now - 3 * 60_000) / 1000);
      assert.equal(findRunningSession(t.p('repo'), userDir, now + 60 * 60_000), undefined, 'an old transcript is not a running session');
      const running = findRunningSession(t.p('repo'), userDir, now)!;
      assert.ok(running);
      const startup = saveNotice(t.p('repo/CLAUDE.md'), a, running, now, englishT)!;
      assert.equal(startup.kind, 'startup');
      assert.equal(startup.message, 'The Claude Code session running here keeps the CLAUDE.md it started with: it sees this edit only after /compact or /clear (transcript written 3 min ago).');
      assert.equal(saveNotice(rule, a, running, now, englishT)!.kind, 'noted');
      assert.equal(saveNotice(t.p('repo/.claude/skills/rel/SKILL.md'), a, running, now, englishT)!.kind, 'skill-pending');
      assert.equal(saveNotice(t.p('repo/pkg/CLAUDE.md'), a, running, now, englishT)!.kind, 'pending');
      assert.equal(saveNotice(t.p('repo/src/api/c.ts'), a, running, now, englishT), undefined);
      assert.deepEqual([t.p('repo/CLAUDE.md'), rule, t.p('repo/.claude/skills/rel/SKILL.md'), t.p('repo/pkg/CLAUDE.md'), t.p('repo/src/api/c.ts')].map((p) => mayNotice(p, a)), [true, true, true, true, false], 'the cheap check agrees');
    } finally {
      t.cleanup();
    }
  });
});
