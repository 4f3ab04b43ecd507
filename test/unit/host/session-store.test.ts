// The session timelines kept per folder in the workspace state: what earlier versions stored (plain
// paths) reads as Read steps, invalid entries are dropped, a timeline keeps its last 200 steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionStore } from '../../../src/host/session/session-store.js';

function memento(initial: Record<string, unknown> = {}) {
  const data = new Map(Object.entries(initial));
  return { data, get: <T>(k: string) => data.get(k) as T | undefined, update: (k: string, v: unknown) => (data.set(k, v), Promise.resolve()) };
}

test('session store: old plain paths are reads, junk is dropped, 200 steps kept, saved at once', () => {
  const m = memento({ 'claudeLayers.sessions': { a: ['/w/src/x.ts', { kind: 'read', file: '/w/y.ts' }, { kind: 'nonsense' }, 42], b: 'not a list' } });
  const s = new SessionStore(m);
  assert.deepEqual(s.get('a'), [{ kind: 'read', file: '/w/src/x.ts' }, { kind: 'read', file: '/w/y.ts' }]);
  assert.deepEqual(s.get('b'), []);
  for (let i = 0; i < 250; i++) s.add('c', { kind: 'read', file: `/w/f${i}.ts` });
  const c = s.get('c');
  assert.equal(c.length, 200);
  assert.deepEqual(c[0], { kind: 'read', file: '/w/f50.ts' });
  const saved = m.data.get('claudeLayers.sessions') as Record<string, unknown[]>;
  assert.equal(saved.c?.length, 200, 'written through to the workspace state');
  s.clear('a');
  assert.deepEqual(s.get('a'), []);
  assert.equal((m.data.get('claudeLayers.sessions') as Record<string, unknown>).a, undefined);
  assert.deepEqual(new SessionStore(m).get('c'), c, 'a reload reads the same steps');
});
