// Watching outside the workspace: the plan awaits each path through its nearest existing folder and
// filters events by name; an event about any other entry of a busy folder (/tmp) passes nothing on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExactWatcher, planWatches, type Exists, type WatchFn } from '../../../src/host/exact-watch.js';

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

test('events: a busy /tmp passes nothing on; a planned name does; a re-plan closes what is no longer needed', () => {
  const listeners = new Map<string, (e: string, n: string | null) => void>();
  const closed: string[] = [];
  const watch: WatchFn = (dir, l) => {
    listeners.set(dir, l);
    return { close: () => closed.push(dir) };
  };
  const changed: string[][] = [];
  const w = new ExactWatcher((p) => changed.push(p), () => undefined, watch);
  assert.equal(w.apply(planWatches(['/tmp/CLAUDE.md'], ['/home/u/.claude/projects/k/memory'], exists)), true);
  const tmp = listeners.get('/tmp')!;
  for (let i = 0; i < 1000; i++) tmp('rename', `chromium-log-${i}.txt`);
  assert.deepEqual(changed, [], '1000 events about other files: nothing recomputed');
  tmp('rename', 'CLAUDE.md');
  assert.deepEqual(changed, [['/tmp/CLAUDE.md']]);
  listeners.get('/home/u/.claude/projects/k/memory')!('change', 'topic.md');
  assert.deepEqual(changed.at(-1), ['/home/u/.claude/projects/k/memory/topic.md']);
  assert.deepEqual(w.stats, { events: 1002, passed: 2 });
  assert.equal(w.apply(planWatches(['/tmp/CLAUDE.md'], [], exists)), true);
  assert.deepEqual(closed.sort(), ['/home/u/.claude/projects/k', '/home/u/.claude/projects/k/memory']);
  assert.equal(w.apply(planWatches(['/tmp/CLAUDE.md'], [], exists)), false, 'the same plan: nothing to do');
  w.close();
  assert.ok(closed.includes('/tmp'));
});
