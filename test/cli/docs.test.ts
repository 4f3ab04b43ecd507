// The example outputs of README.md and docs/cli.md are what the CLI prints on the demo workspace
// (scripts/docs-examples.ts produces them; `npm run docs:examples -- --write` refreshes them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { regenerate } from '../../scripts/docs-examples.js';
import { ensureBuilt } from './helpers.js';

test('README and docs/cli.md show what the CLI prints now', () => {
  ensureBuilt();
  const r = regenerate();
  assert.deepEqual(r.missing, [], 'every example has its block');
  for (const [doc, f] of Object.entries(r.files)) assert.equal(f.after, f.before, `${doc}: stale examples ${r.stale.join(', ')} (npm run docs:examples -- --write)`);
  for (const doc of Object.keys(r.files)) {
    const text = r.files[doc]!.before;
    assert.doesNotMatch(text, /not analysed by this build/, doc);
    assert.ok(/<!-- example: /.test(text), `${doc} has generated examples`);
  }
});
