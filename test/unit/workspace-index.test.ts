// workspace-index.ts: the file list must be what git lists (nested .gitignore files, negations,
// `dir/**`), updates from events must equal a fresh crawl, and the indexed FileAccess must answer
// exactly as the disk does for the paths the engine asks about.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodeFileAccess } from '../../src/engine/files/file-access.js';
import { WorkspaceIndex, indexedFileAccess } from '../../src/engine/files/workspace-index.js';
import { workspaceNames } from '../../src/engine/checks/glob-check.js';
import { mayMatch, nameIndex } from '../../src/engine/globs/glob-count.js';

function makeTree(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-index-'));
  const files: Record<string, string> = {
    '.gitignore': 'node_modules/\n*.log\n!keep.log\nbuild/**\n/tmp/\n.cache/\n# comment\n',
    'keep.log': '', 'x.log': '', 'README.md': '', 'CLAUDE.md': '# root\n', 'CLAUDE.local.md': 'local\n',
    '.claude/rules/a.md': '---\npaths: "src/**"\n---\nA\n', '.claude/rules/sub/b.md': 'B\n', '.claude/skills/s1/SKILL.md': '---\nname: s1\n---\n',
    'src/index.ts': '', 'src/lib/util.ts': '', 'src/lib/CLAUDE.md': 'nested\n', 'src/.gitignore': '*.gen.ts\n!keep.gen.ts\n',
    'src/a.gen.ts': '', 'src/keep.gen.ts': '', 'src/deep/x.gen.ts': '', 'build/out/x.js': '', 'build/y.js': '',
    'tmp/t.txt': '', 'src/tmp/t.txt': '', 'node_modules/dep/index.js': '', 'node_modules/dep/CLAUDE.md': 'dep\n',
    'packages/p/.gitignore': 'dist\n', 'packages/p/dist/d.js': '', 'packages/p/src/dist': '', 'packages/p/src/m.ts': '',
    '.cache/c': '', 'docs/guide.md': '',
  };
  for (const [rel, text] of Object.entries(files)) {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
  }
  fs.symlinkSync('src/lib', path.join(root, 'linked'));
  return root;
}

function gitList(root: string): string[] | undefined {
  try {
    execFileSync('git', ['init', '-q'], { cwd: root, stdio: 'ignore' });
    const out = execFileSync('git', ['ls-files', '-o', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
    return out.split('\n').filter(Boolean).sort();
  } catch {
    return undefined;
  }
}

test('the file list is what git lists', (t) => {
  const root = makeTree();
  try {
    const want = gitList(root);
    if (!want) return t.skip('git is not available');
    const ix = WorkspaceIndex.build(root);
    assert.deepEqual(ix.list().sort(), want);
    assert.ok(ix.instructions.has(path.join(root, 'CLAUDE.local.md')));
    assert.equal(ix.instructions.get(path.join(root, '.claude', 'rules', 'sub', 'b.md'))?.kind, 'rule');
    assert.equal(ix.instructions.get(path.join(root, '.claude', 'skills', 's1', 'SKILL.md'))?.kind, 'skill');
    assert.ok(!ix.instructions.has(path.join(root, 'node_modules', 'dep', 'CLAUDE.md')), 'ignored folders are not crawled');
    assert.equal(ix.count(root, ['src/**/*.ts']), want.filter((f) => f.startsWith('src/') && f.endsWith('.ts')).length);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('events keep the index equal to a fresh crawl', () => {
  const root = makeTree();
  try {
    const ix = WorkspaceIndex.build(root);
    const same = (label: string) => assert.deepEqual(ix.list().sort(), WorkspaceIndex.build(root).list().sort(), label);
    const p = (rel: string) => path.join(root, ...rel.split('/'));
    fs.writeFileSync(p('src/new.ts'), '');
    ix.apply([{ type: 'created', path: p('src/new.ts') }]);
    same('file created');
    fs.writeFileSync(p('src/new.gen.ts'), '');
    ix.apply([{ type: 'created', path: p('src/new.gen.ts') }]);
    same('ignored file created');
    fs.mkdirSync(p('src/feature/x'), { recursive: true });
    fs.writeFileSync(p('src/feature/x/CLAUDE.md'), 'x\n');
    fs.writeFileSync(p('src/feature/x/y.ts'), '');
    const r = ix.apply([{ type: 'created', path: p('src/feature') }]);
    assert.ok(r.instructions && r.files);
    same('folder created');
    fs.writeFileSync(p('src/.gitignore'), '*.ts\n');
    assert.ok(ix.apply([{ type: 'changed', path: p('src/.gitignore') }]).recrawled);
    same('.gitignore changed');
    fs.rmSync(p('src/feature'), { recursive: true });
    ix.apply([{ type: 'deleted', path: p('src/feature') }]);
    same('folder deleted');
    fs.rmSync(p('README.md'));
    ix.apply([{ type: 'deleted', path: p('README.md') }]);
    same('file deleted');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('the indexed FileAccess answers as the disk does', () => {
  const root = makeTree();
  try {
    const ix = WorkspaceIndex.build(root);
    const fa = indexedFileAccess(ix, nodeFileAccess);
    assert.ok(fa.prefetch() > 0);
    const rels = [
      '', 'CLAUDE.md', 'nope.md', 'src', 'src/lib', 'src/lib/CLAUDE.md', 'src/lib/missing/CLAUDE.md', 'src/index.ts/CLAUDE.md',
      '.claude', '.claude/rules', '.claude/rules/sub', '.claude/CLAUDE.md', 'node_modules/dep/CLAUDE.md', 'node_modules/dep/none.md',
      'node_modules/dep/index.js/x', 'linked', 'linked/CLAUDE.md', 'build/out/CLAUDE.md', 'x.log', 'src/a.gen.ts',
    ];
    const shape = (r: { ok: boolean; code?: string; value?: unknown }, withValue: boolean) => (r.ok ? (withValue ? { ok: true, value: r.value } : { ok: true }) : { ok: false, code: r.code });
    for (const rel of rels) {
      const p = rel ? path.join(root, ...rel.split('/')) : root;
      for (const op of ['stat', 'lstat', 'realpath', 'readDir'] as const) {
        const a = fa[op](p) as { ok: boolean; code?: string; value?: unknown };
        const b = nodeFileAccess[op](p) as { ok: boolean; code?: string; value?: unknown };
        if (op === 'stat' || op === 'lstat') {
          assert.deepEqual(shape(a, false), shape(b, false), `${op} ${rel}`);
          if (a.ok && b.ok) assert.equal((a.value as { kind: string }).kind, (b.value as { kind: string }).kind, `${op} ${rel} kind`);
        } else if (op === 'readDir' && a.ok && b.ok) {
          assert.deepEqual(a.value, b.value, `readDir ${rel} (raw order)`);
        } else assert.deepEqual(shape(a, op === 'realpath'), shape(b, op === 'realpath'), `${op} ${rel}`);
      }
      const fr = fa.readFile(p, 4 * 1024 * 1024);
      const nr = nodeFileAccess.readFile(p, 4 * 1024 * 1024);
      assert.deepEqual(fr.ok ? Buffer.from(fr.value).toString() : fr.code, nr.ok ? Buffer.from(nr.value).toString() : nr.code, `readFile ${rel}`);
    }
    assert.ok(fa.answered > 20, `${fa.answered} answered from memory`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('.claude folders are crawled whatever .gitignore says, and what it excludes there stays out of the list', (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-index-claude-'));
  try {
    const files: Record<string, string> = {
      '.gitignore': 'private/\nsub/.claude/\n',
      '.claude/rules/a.md': 'A\n', '.claude/rules/private/p.md': '---\npaths: "x/**"\n---\nP\n', '.claude/rules/private/deeper/q.md': 'Q\n',
      'sub/.claude/CLAUDE.md': 'S\n', 'sub/.claude/rules/r.md': 'R\n', 'sub/x.ts': '', 'x/y.ts': '',
    };
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    }
    const ix = WorkspaceIndex.build(root);
    const want = gitList(root);
    if (want) assert.deepEqual(ix.list().sort(), want);
    else t.diagnostic('git is not available: the list is checked against the expected one');
    assert.deepEqual(ix.list().sort(), ['.claude/rules/a.md', '.gitignore', 'sub/x.ts', 'x/y.ts']);
    for (const rel of ['.claude/rules/private/p.md', '.claude/rules/private/deeper/q.md', 'sub/.claude/CLAUDE.md', 'sub/.claude/rules/r.md']) {
      assert.equal(ix.instructions.get(path.join(root, rel))?.ignored, true, rel);
      assert.equal(ix.lookup(path.join(root, rel)).kind, 'file', rel);
    }
    // events inside an excluded folder of .claude keep the index equal to a fresh crawl
    fs.writeFileSync(path.join(root, '.claude/rules/private/new.md'), 'N\n');
    ix.apply([{ type: 'created', path: path.join(root, '.claude/rules/private/new.md') }]);
    fs.mkdirSync(path.join(root, 'sub/.claude/rules/more'));
    fs.writeFileSync(path.join(root, 'sub/.claude/rules/more/m.md'), 'M\n');
    ix.apply([{ type: 'created', path: path.join(root, 'sub/.claude/rules/more') }]);
    const fresh = WorkspaceIndex.build(root);
    assert.deepEqual(ix.list().sort(), fresh.list().sort());
    assert.deepEqual([...ix.instructions].sort(), [...fresh.instructions].sort());
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('absolute paths of an index of the root folder have one separator', () => {
  const root = path.parse(process.cwd()).root;
  // the crawl asks the clock every 64 folders: it lists 64 folders of the machine's root, then stops
  let calls = 0;
  const ix = WorkspaceIndex.build(root, { deadline: 1, now: () => (calls++ === 0 ? 0 : 2), maxFiles: 0 });
  assert.ok(ix.stoppedAt, 'stopped at its deadline');
  assert.ok(ix.firstLeftOut, 'a file was met (and left out: the cap is 0)');
  const doubled = `${path.sep}${path.sep}`;
  for (const p of [ix.stoppedAt.folder, ix.firstLeftOut, ...ix.instructions.keys()]) assert.ok(!p.startsWith(doubled) && p.startsWith(root), p);
  assert.equal(ix.abs(''), root);
  assert.equal(ix.abs('etc/x'), path.join(root, 'etc', 'x'));
});

test("a derived index's names are its base's and the changed paths' (no walk of its tree); once changed, or after a .gitignore changed, they are listed again", () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-names-')));
  try {
    fs.mkdirSync(path.join(root, 'src', 'api'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'api', 'client.ts'), 'x\n');
    fs.writeFileSync(path.join(root, 'README.md'), 'x\n');
    const base = WorkspaceIndex.build(root, { fs: nodeFileAccess });
    const baseNames = workspaceNames(base);
    assert.equal(workspaceNames(base), baseNames, 'kept while the index is unchanged');
    assert.ok(baseNames.names.has('client.ts') && !baseNames.names.has('billing'));
    // the head: a folder and a file added, one removed
    fs.mkdirSync(path.join(root, 'src', 'billing'));
    fs.writeFileSync(path.join(root, 'src', 'billing', 'Invoice.PY'), 'x\n');
    fs.rmSync(path.join(root, 'README.md'));
    const changes = [
      { path: path.join(root, 'src', 'billing'), before: 'absent', after: 'dir' },
      { path: path.join(root, 'src', 'billing', 'Invoice.PY'), before: 'absent', after: 'file' },
      { path: path.join(root, 'README.md'), before: 'file', after: 'absent' },
    ] as const;
    const head = base.derive(nodeFileAccess, changes)!;
    assert.ok(head.derivedFrom, 'derived, no .gitignore changed');
    const names = workspaceNames(head);
    for (const n of ['billing', 'invoice.py', 'client.ts', 'src']) assert.ok(names.names.has(n), n);
    assert.ok(names.suffixes.has('.py') && names.suffixes.has('.ts'));
    assert.ok(names.names.has('readme.md'), 'a superset: a name that went may stay (a walk decides)');
    assert.ok(mayMatch(names, ['src/billing/*.py']) && !mayMatch(names, ['src/shipping/**']));
    // every name a walk of the head finds is there
    const walked = nameIndex(head.tree);
    for (const n of ['billing', 'invoice.py', 'client.ts', 'api', 'src']) assert.equal(walked.names.has(n), true, n);
    // changed afterwards: listed again, the new name there
    fs.writeFileSync(path.join(root, 'src', 'Zeta.go'), 'x\n');
    head.apply([{ type: 'created', path: path.join(root, 'src', 'Zeta.go') }]);
    assert.equal(head.derivedFrom, undefined);
    const again = workspaceNames(head);
    assert.notEqual(again, names);
    assert.ok(again.names.has('zeta.go') && !again.names.has('readme.md'));
    // a .gitignore among the changes: not derived names (folders were listed again)
    fs.writeFileSync(path.join(root, '.gitignore'), 'src/api/\n');
    const ignored = base.derive(nodeFileAccess, [{ path: path.join(root, '.gitignore'), before: 'absent', after: 'file' }])!;
    assert.equal(ignored.derivedFrom, undefined);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
