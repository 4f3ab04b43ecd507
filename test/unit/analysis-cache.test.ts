// The editor asks the same analysis about many files: after the first look at a folder, answers
// come from memory, and a change re-reads only the changed path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { analyze } from '../../src/engine/index.js';
import { makeTree } from '../helpers/fixture.js';

test('repeat questions read nothing from disk; refresh re-reads only what changed', () => {
  const t = makeTree({
    'repo/CLAUDE.md': 'ROOT',
    'repo/.claude/rules/api.md': '---\npaths: ["src/api/**"]\n---\nAPI RULE',
    'repo/src/api/client.ts': 'x',
    'repo/src/api/server.ts': 'y',
    'repo/pkg/CLAUDE.md': 'PKG',
    'repo/pkg/a.ts': 'z',
  });
  try {
    const a = analyze({ cwd: t.p('repo'), home: t.p('home'), env: {}, managedDir: t.p('none') });
    assert.deepEqual(a.lazyFor(t.p('repo/src/api/client.ts')).map((i) => i.text), [`Contents of ${t.p('repo/.claude/rules/api.md')}:\n\nAPI RULE`]);
    a.lazyFor(t.p('repo/pkg/a.ts'));
    const ops = a.diskOps;
    for (let i = 0; i < 50; i++) {
      a.lazyFor(t.p('repo/src/api/server.ts'));
      a.lazyFor(t.p('repo/pkg/a.ts'));
      a.lazyFor(t.p('repo/src/api/client.ts'));
    }
    assert.equal(a.diskOps, ops, 'switching between known files touches no disk');

    fs.writeFileSync(t.p('repo/.claude/rules/api.md'), '---\npaths: ["src/web/**"]\n---\nAPI RULE');
    const b = a.refresh([t.p('repo/.claude/rules/api.md')]);
    assert.deepEqual(b.lazyFor(t.p('repo/src/api/client.ts')), []);
    assert.ok(b.diskOps - ops <= 6, `refresh re-read ${b.diskOps - ops} paths`);

    fs.writeFileSync(t.p('repo/src/api/CLAUDE.md'), 'NEW NESTED');
    const c = b.refresh([t.p('repo/src/api/CLAUDE.md')]);
    assert.deepEqual(c.lazyFor(t.p('repo/src/api/client.ts')).map((i) => i.path), [t.p('repo/src/api/CLAUDE.md')]);
  } finally {
    t.cleanup();
  }
});
