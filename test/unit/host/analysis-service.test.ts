// The editor's engine over the workspace index: first questions about any folder read nothing from
// disk (the index answers, git-ignored folders included once pre-listed), answers equal the engine
// over the disk, and a watcher event (index first, then pathsChanged) shows in the next answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analyze, nodeFileAccess, type EngineOptions, type FileAccess } from '../../../src/engine/index.js';
import { PathTree, SnapshotFileAccess } from '../../../src/engine/files/snapshot.js';
import { WorkspaceIndex } from '../../../src/engine/files/workspace-index.js';
import { AnalysisService } from '../../../src/host/workspace/analysis-service.js';
import { makeTree } from '../../helpers/fixture.js';

function counting(inner: FileAccess): FileAccess & { ops: number } {
  const c = { ops: 0 } as FileAccess & { ops: number };
  for (const k of ['stat', 'lstat', 'readDir', 'readFile', 'realpath'] as const)
    (c as unknown as Record<string, unknown>)[k] = (...a: unknown[]) => {
      c.ops++;
      return (inner[k] as (...x: unknown[]) => unknown)(...a);
    };
  return c;
}

test('AnalysisService over the workspace index: no disk on first touches, same answers, events applied', () => {
  const t = makeTree({
    'repo/.gitignore': 'node_modules/\ndist/\n',
    'repo/CLAUDE.md': 'ROOT @docs/inc.md',
    'repo/docs/inc.md': 'INCLUDED',
    'repo/.claude/rules/api.md': '---\npaths: ["src/api/**"]\n---\nAPI RULE',
    'repo/src/api/client.ts': 'x',
    'repo/src/web/deep/er/page.ts': 'x',
    'repo/pkg/CLAUDE.md': 'PKG',
    'repo/pkg/a.ts': 'z',
    'repo/node_modules/dep/CLAUDE.md': 'DEP',
    'repo/node_modules/dep/lib/index.js': 'x',
    'repo/dist/out.js': 'x',
  });
  try {
    const opts: EngineOptions = { cwd: t.p('repo'), home: t.p('home'), env: { HOME: t.p('home') }, managedDir: t.p('none') };
    const disk = counting(nodeFileAccess);
    const svc = new AnalysisService(() => opts, 10, disk);
    const ix = WorkspaceIndex.build(t.p('repo'));
    const fa = svc.attachIndex(ix, { home: t.p('home') });
    assert.ok(fa, 'a case-sensitive file system: the index answers');
    fa.prefetch();
    fa.prelistIgnored();
    const a = svc.get('k').analysis!;
    const plain = analyze(opts);
    const files = ['src/api/client.ts', 'src/web/deep/er/page.ts', 'pkg/a.ts', 'pkg/new/never.ts', 'node_modules/dep/lib/index.js', 'dist/out.js', 'docs/inc.md'].map((f) => t.p(`repo/${f}`));
    assert.deepEqual(plain.lazyFor(files[4]!).map((i) => i.content), ['DEP'], 'git-ignored folders count for lazy loading');
    const before = disk.ops;
    for (const f of files) assert.deepEqual(a.lazyFor(f).map((i) => i.text), plain.lazyFor(f).map((i) => i.text), f);
    const inside = disk.ops - before;
    assert.equal(inside, 0, `first touches inside the workspace read ${inside} times from disk`);

    // an event: the index hears it first, then the service
    fs.writeFileSync(t.p('repo/src/web/CLAUDE.md'), 'WEB');
    ix.apply([{ type: 'created', path: t.p('repo/src/web/CLAUDE.md') }]);
    assert.equal(svc.pathsChanged([t.p('repo/src/web/CLAUDE.md')]), true, 'the engine had seen it absent');
    svc.flush();
    assert.deepEqual(svc.get('k').analysis!.lazyFor(t.p('repo/src/web/deep/er/page.ts')).map((i) => i.path), [t.p('repo/src/web/CLAUDE.md')]);
    // a change of an included file's content
    fs.writeFileSync(t.p('repo/docs/inc.md'), 'INCLUDED v2');
    ix.apply([{ type: 'changed', path: t.p('repo/docs/inc.md') }]);
    assert.equal(svc.pathsChanged([t.p('repo/docs/inc.md')]), true);
    svc.flush();
    assert.ok(svc.get('k').analysis!.startup.some((e) => e.content.includes('INCLUDED v2')), 'the prefetched text was forgotten');
    svc.dispose();
  } finally {
    t.cleanup();
  }
});

test('the snapshot files what it caches by folder: an event forgets exactly that subtree', () => {
  const tree = new PathTree();
  for (const p of ['/a/b/c', '/a/b/d/e', '/a/x', '/a/bb']) tree.add(p);
  assert.deepEqual(tree.take('/a/b').sort(), ['/a/b', '/a/b/c', '/a/b/d', '/a/b/d/e']);
  assert.deepEqual(tree.take('/a/b'), []);
  assert.deepEqual(tree.take('/a/bb'), ['/a/bb']);

  const t = makeTree({ 'r/a/f.md': 'x', 'r/b/g.md': 'y', 'r/link': { symlink: 'a' } });
  try {
    const disk = counting(nodeFileAccess);
    const s = new SnapshotFileAccess(disk);
    const ask = () => {
      s.stat(t.p('r/a/f.md'));
      s.readDir(t.p('r/a'));
      s.stat(t.p('r/b/g.md'));
      s.realpath(t.p('r/link/f.md'));
    };
    ask();
    const n = disk.ops;
    ask();
    assert.equal(disk.ops, n, 'memoized');
    s.invalidate(t.p('r/a'));
    ask();
    assert.equal(disk.ops - n, 3, 'r/a/f.md, the listing of r/a, and the real path that leads into r/a; not r/b');
    s.invalidate(t.p('r/b/g.md'));
    ask();
    assert.equal(disk.ops - n, 4);
    assert.equal(path.basename(t.root).length > 0, true);
  } finally {
    t.cleanup();
  }
});
