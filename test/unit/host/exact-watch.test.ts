// Watching outside the workspace: the plan awaits each path through its nearest existing folder and
// filters events by name; an event about any other entry of a busy folder (/tmp) passes nothing on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExactWatcher, planWatches, type Exists, type PollFn, type WatchFn } from '../../../src/host/workspace/exact-watch.js';

const tree: Record<string, 'dir' | 'file'> = {
  '/': 'dir',
  '/tmp': 'dir',
  '/tmp/ws': 'dir',
  '/etc': 'dir',
  '/home/u': 'dir',
  '/home': 'dir',
  '/home/u/.claude': 'dir',
  '/home/u/.claude/CLAUDE.md': 'file',
  '/home/u/.claude/projects': 'dir',
  '/home/u/.claude/projects/k/memory': 'dir',
  '/home/u/.claude/projects/k': 'dir',
};
const exists: Exists = (p) => tree[p];

test('the plan: exact names in the nearest existing folder, every entry only in folders the engine listed', () => {
  const plan = planWatches(
    ['/tmp/CLAUDE.md', '/tmp/.claude/rules', '/tmp/CLAUDE.local.md', '/etc/claude-code/managed-settings.json', '/home/u/.claude/CLAUDE.md', '/tmp/ws/CLAUDE.md', '/.git'],
    ['/home/u/.claude/projects/k/memory', '/tmp/.claude/skills'],
    exists,
    (p) => p === '/tmp/ws' || p.startsWith('/tmp/ws/'),
  );
  const got = Object.fromEntries([...plan].map(([d, n]) => [d, [...n].sort()]));
  assert.deepEqual(got, {
    '/tmp': ['.claude', 'CLAUDE.local.md', 'CLAUDE.md'],
    '/etc': ['claude-code'],
    '/home/u/.claude': ['CLAUDE.md'],
    '/': ['.git'],
    '/home/u/.claude/projects/k': ['memory'],
    '/home/u/.claude/projects/k/memory': ['*'],
  });
  assert.ok(!plan.has('/tmp/ws'), 'the workspace is left to VS Code');
});

test('a busy /tmp is not watched at all: its planned names are polled; a listed folder is watched; a re-plan closes the rest', () => {
  const listeners = new Map<string, (e: string, n: string | null) => void>();
  const polled = new Map<string, () => void>();
  const closed: string[] = [];
  const watch: WatchFn = (dir, l) => {
    listeners.set(dir, l);
    return { close: () => closed.push(dir) };
  };
  const poll: PollFn = (file, l) => {
    polled.set(file, l);
    return { close: () => closed.push(file) };
  };
  const changed: string[][] = [];
  const w = new ExactWatcher((p) => changed.push(p), () => undefined, watch, poll);
  assert.equal(w.apply(planWatches(['/tmp/CLAUDE.md'], ['/home/u/.claude/projects/k/memory'], exists)), true);
  assert.deepEqual([...listeners.keys()], ['/home/u/.claude/projects/k/memory'], 'only the listed folder gets a folder watch: no event from /tmp ever reaches the extension');
  assert.deepEqual([...polled.keys()].sort(), ['/home/u/.claude/projects/k/memory', '/tmp/CLAUDE.md']);
  polled.get('/tmp/CLAUDE.md')!();
  assert.deepEqual(changed, [['/tmp/CLAUDE.md']]);
  const mem = listeners.get('/home/u/.claude/projects/k/memory')!;
  mem('change', 'topic.md');
  assert.deepEqual(changed.at(-1), ['/home/u/.claude/projects/k/memory/topic.md']);
  assert.deepEqual(w.stats, { events: 2, passed: 2 });
  assert.equal(w.apply(planWatches(['/tmp/CLAUDE.md'], [], exists)), true);
  assert.deepEqual(closed.sort(), ['/home/u/.claude/projects/k/memory', '/home/u/.claude/projects/k/memory']);
  assert.equal(w.apply(planWatches(['/tmp/CLAUDE.md'], [], exists)), false, 'the same plan: nothing to do');
  w.close();
  assert.ok(closed.includes('/tmp/CLAUDE.md'));
  assert.match(w.describe(), /files polled every 2 s: -$/);
});
