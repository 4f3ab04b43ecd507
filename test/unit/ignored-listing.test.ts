// The git-ignored files the dead-glob check looks into are listed on demand (ignoredListing): only
// the folders a pattern can reach, and no more than its folder budget (the note it feeds is a hint).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { makeTree } from '../helpers/fixture.js';
import { compilePatterns, firstMatchListing } from '../../src/engine/globs/glob-count.js';
import { ignoredListing, indexWorkspace } from '../../src/engine/checks/workspace.js';

test('a git-ignored match is found by listing only the folders on its way; past the folder budget the search stops, said by truncated()', () => {
  const t = makeTree({
    'repo/.gitignore': 'node_modules/\ndist/\n',
    'repo/src/a.ts': 'x',
    'repo/dist/out.js': 'x',
    'repo/node_modules/p1/index.js': 'x',
    'repo/node_modules/p2/lib/deep/q.sql': 'x',
    'repo/node_modules/p3/x/y/z/w.txt': 'x',
  });
  try {
    const index = indexWorkspace(fs.realpathSync(t.p('repo')));
    // dist/** reaches dist/ only
    const a = ignoredListing(index);
    const listed: string[] = [];
    const expand = (d: Parameters<typeof a.expand>[0]) => {
      listed.push(d.rel);
      a.expand(d);
    };
    assert.equal(firstMatchListing(a.tree, compilePatterns(['dist/**']), expand), 'dist/out.js');
    assert.ok(!listed.some((r) => r.startsWith('node_modules')), listed.join(', '));
    // a globstar pattern walks node_modules/ and finds the .sql file
    assert.equal(firstMatchListing(a.tree, compilePatterns(['**/*.sql']), a.expand), 'node_modules/p2/lib/deep/q.sql');
    assert.equal(a.truncated(), false);
    // with a budget of 3 folders it stops before reaching it
    const b = ignoredListing(index, 50_000, 3);
    assert.equal(firstMatchListing(b.tree, compilePatterns(['**/*.sql']), b.expand), undefined);
    assert.equal(b.truncated(), true);
  } finally {
    t.cleanup();
  }
});
