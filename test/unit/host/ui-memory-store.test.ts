// The host's copy of the sidebar's UI memory (src/host/sidebar/ui-memory-store.ts): a file written at once
// beside the workspace state, the newer copy loaded.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { describe, it } from 'node:test';
import { UiMemoryStore } from '../../../src/host/sidebar/ui-memory-store.js';
import { makeTree } from '../../helpers/fixture.js';

describe('UI memory on the host', () => {
  it('keeps a copy in a file at once and loads the newer copy', () => {
    const t = makeTree({ 'x/.keep': '' });
    try {
      const kept = new Map<string, unknown>();
      const memento = { get: <T>(k: string) => kept.get(k) as T | undefined, update: (k: string, v: unknown) => (kept.set(k, v), Promise.resolve()) };
      const store = new UiMemoryStore(memento, t.p('storage'));
      store.save({ open: { 'section/notLoaded': false }, savedAt: 5 });
      assert.ok(fs.existsSync(t.p('storage/ui-memory.json')), 'written at once');
      kept.clear(); // the workspace state lost on a reload
      assert.deepEqual(new UiMemoryStore(memento, t.p('storage')).load(), { open: { 'section/notLoaded': false }, savedAt: 5 });
      kept.set('claudeLayers.uiMemory', { open: { 'section/notLoaded': true }, savedAt: 9 });
      assert.equal(new UiMemoryStore(memento, t.p('storage')).load()!.savedAt, 9, 'the newer copy wins');
      fs.writeFileSync(t.p('storage/ui-memory.json'), '{ broken');
      assert.equal(new UiMemoryStore(memento, t.p('storage')).load()!.savedAt, 9, 'a broken file is ignored');
    } finally {
      t.cleanup();
    }
  });
});
