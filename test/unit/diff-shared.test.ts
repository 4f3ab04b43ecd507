// `claude-layers diff BASE HEAD` analyses the head from what it shares with the base: the head's workspace
// index is the base's with the paths `git diff-tree` names applied (WorkspaceIndex.derive), and a rule that
// the changed files do not touch keeps the base's reach. Each case here holds that path to the reference,
// the head analysed from scratch (`fromScratch`): the same report, the same facts, the same index as a crawl.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runDiff, WorkspaceIndex, type DiffOutcome } from '../../src/engine/index.js';
import { revisionIndex, type RevisionFacts } from '../../src/engine/diff/revision.js';
import { compilePatterns, firstMatches, listMatches, treeFromPaths, type DirNode } from '../../src/engine/globs/glob-count.js';
import { nodeGitRunner } from '../../src/cli/git-runner.js';
import { commitFiles, emptyRepo, FIXTURES, fixtureRepo, git, type TempRepo } from '../cli/diff-repos.js';
import { blobFeed, blobStore, deriveTree, prefetchBlobs, readTree, readTreeStreamed, type GitRunner } from '../../src/engine/files/git-tree.js';

/** every fact of the index a check can see: folders in order, their files, hidden entries, raw listings, lookups */
function shape(ix: WorkspaceIndex): unknown {
  const folders: unknown[] = [];
  const visit = (d: DirNode) => {
    const abs = ix.abs(d.rel);
    folders.push({
      rel: d.rel,
      total: d.total,
      files: d.files.map((f) => `${f}:${ix.lookup(path.join(abs, f)).kind}`),
      dirs: d.dirs.map((c) => c.name),
      hidden: [...(ix.hiddenEntries(d) ?? [])],
      raw: ix.rawListing(d)?.map((e) => `${e.name}:${e.kind}`),
      ignoredAll: ix.ignoredAll(d),
      listed: ix.listed(d),
    });
    for (const c of d.dirs) visit(c);
  };
  visit(ix.tree);
  return { folders, instructions: [...ix.instructions].sort(([a], [b]) => (a < b ? -1 : 1)), files: ix.fileCount, truncated: ix.truncated, unreadable: ix.unreadableDirs };
}

/** a revision's facts without the analysis object (compared field by field) */
function plain(f: RevisionFacts): unknown {
  return Object.fromEntries(Object.entries(f).filter(([k]) => k !== 'analysis'));
}

/** diff main..pr twice, shared and from scratch: the same outcome; the derived index is what a crawl gives */
async function sameAsFromScratch(t: TempRepo, base = 'main', head = 'pr'): Promise<DiffOutcome> {
  const options = { cwd: t.repo, home: t.home, env: { HOME: t.home }, managedDir: t.managed, claudeVersion: '2.1.333' };
  const derived: (WorkspaceIndex | undefined)[] = [];
  const proto = WorkspaceIndex.prototype;
  const derive = Object.getOwnPropertyDescriptor(proto, 'derive')!.value as WorkspaceIndex['derive'];
  proto.derive = function (this: WorkspaceIndex, ...args: Parameters<WorkspaceIndex['derive']>) {
    const ix = derive.apply(this, args);
    derived.push(ix);
    return ix;
  };
  let shared;
  try {
    shared = await runDiff(nodeGitRunner(t.repo), { options, base, head, secrets: false, allow: { renames: true, submodules: true } });
  } finally {
    proto.derive = derive;
  }
  const scratch = await runDiff(nodeGitRunner(t.repo), { options, base, head, secrets: false, fromScratch: true, allow: { renames: true, submodules: true } });
  assert.ok(shared.ok && scratch.ok, `${shared.ok ? '' : shared.message} ${scratch.ok ? '' : scratch.message}`);
  assert.equal(derived.length, 1, 'the head was derived from the base, not crawled');
  assert.ok(derived[0], 'the derivation applied');
  assert.deepEqual(shared.report, scratch.report);
  assert.deepEqual(shared.violations, scratch.violations);
  assert.deepEqual(plain(shared.before), plain(scratch.before));
  assert.deepEqual(plain(shared.after), plain(scratch.after));
  const a = revisionIndex(shared.after);
  const b = revisionIndex(scratch.after);
  assert.ok(a && b && a !== b);
  assert.equal(a, derived[0]);
  assert.deepEqual(shape(a), shape(b), 'the derived index is the one a crawl of the head builds');
  return shared;
}

for (const name of ['startup', 'rules', 'nested', 'skills', 'findings', 'unchanged'])
  test(`fixture ${name}: the head derived from the base gives the report of a from-scratch analysis`, async () => {
    const t = fixtureRepo(name);
    try {
      await sameAsFromScratch(t);
    } finally {
      t.cleanup();
    }
  });

const BASE: Record<string, string> = {
  'CLAUDE.md': '# Project\n\nUse the make targets.\n',
  '.gitignore': 'build/\n*.log\n',
  'src/api/handler.ts': 'export {};\n',
  'src/api/routes.ts': 'export {};\n',
  'src/web/page.tsx': 'export {};\n',
  'src/web/a.tsx': 'export {};\n',
  'src/gen/out.ts': 'export {};\n',
  'docs/guide.md': '# Guide\n',
  'packages/a/CLAUDE.md': '# Package a\n\nIts own rules.\n',
  'packages/a/index.ts': 'export {};\n',
  'packages/b/index.ts': 'export {};\n',
  '.claude/rules/api.md': '---\npaths:\n  - "src/api/**"\n---\nAPI rules.\n',
  '.claude/rules/docs.md': '---\npaths: "docs/**/*.md"\n---\nDocs rules.\n',
  '.claude/rules/web.md': '---\npaths:\n  - "src/web/*.tsx"\n---\nWeb rules.\n',
  '.claude/rules/all.md': 'Everywhere.\n',
  '.claude/rules/gen.md': '---\npaths: "src/gen/**"\n---\nGenerated code.\n',
  '.claude/rules/multi.md': '---\npaths:\n  - "src/api/**"\n  - "tools/*.ts"\n  - "!tools/x.ts"\n---\nTools, and the API.\n',
  'turns/file.md': 'a file that becomes a folder\n',
  'z-last.ts': 'export {};\n',
};

/** a repository of BASE on main, then `change` committed on the branch pr */
async function caseOf(change: (t: TempRepo) => void): Promise<DiffOutcome> {
  const t = emptyRepo();
  try {
    commitFiles(t.repo, BASE, 'base');
    fs.mkdirSync(path.join(t.repo, 'build'), { recursive: true });
    fs.writeFileSync(path.join(t.repo, 'build', 'out.js'), '// built\n');
    git(t.repo, 'checkout', '-q', '-b', 'pr');
    change(t);
    return await sameAsFromScratch(t);
  } finally {
    t.cleanup();
  }
}

test('a .gitignore changed: files move in and out of the index beyond the changed paths', async () => {
  const r = await caseOf((t) => {
    commitFiles(t.repo, { '.gitignore': '*.log\nsrc/gen/\n', 'src/api/.gitignore': 'routes.ts\n' });
  });
  const gen = (f: RevisionFacts) => f.rules.find((x) => x.path.endsWith('gen.md'))?.matches;
  assert.deepEqual([gen(r.before), gen(r.after)], [1, 0], 'the root .gitignore takes src/gen/ out of the rule reach, and no changed file is in it');
});

test("a rule's paths: widened, another narrowed, files added where a rule reaches and where none does", async () => {
  const r = await caseOf((t) => {
    commitFiles(t.repo, {
      '.claude/rules/api.md': '---\npaths:\n  - "src/**"\n---\nAPI rules.\n',
      '.claude/rules/web.md': '---\npaths:\n  - "src/web/page.tsx"\n---\nWeb rules.\n',
      'src/web/b.tsx': 'export {};\n',
      'docs/more/deep.md': '# Deep\n',
      'elsewhere/new/file.ts': 'export {};\n',
      'a.ts': 'export {};\n',
      // matched by one of multi.md's patterns alone (the list as a whole leaves it out)
      'tools/x.ts': 'export {};\n',
    });
  });
  const multi = (f: RevisionFacts) => f.findings.filter((x) => x.path.endsWith('multi.md')).map((x) => x.message);
  assert.equal(multi(r.before).length, 1, 'the base: "tools/*.ts" matches no file');
  assert.deepEqual(multi(r.after), [], 'the head: it matches tools/x.ts');
  const api = r.after.rules.find((x) => x.path.endsWith('api.md'));
  assert.ok(api && api.matches > 2, 'the widened rule reaches more');
});

test('a nested CLAUDE.md added and one removed, a folder emptied, a file turned into a folder', async () => {
  await caseOf((t) => {
    commitFiles(t.repo, { 'packages/b/CLAUDE.md': '# Package b\n', 'packages/a/CLAUDE.md': null, 'src/gen/out.ts': null, 'turns/file.md': null });
    fs.mkdirSync(path.join(t.repo, 'turns', 'file.md'), { recursive: true });
    fs.writeFileSync(path.join(t.repo, 'turns', 'file.md', 'inside.ts'), 'export {};\n');
    fs.mkdirSync(path.join(t.repo, 'packages', 'c', '.claude', 'rules'), { recursive: true });
    fs.writeFileSync(path.join(t.repo, 'packages', 'c', '.claude', 'rules', 'c.md'), '---\npaths: "**/*.ts"\n---\nC rules.\n');
    fs.writeFileSync(path.join(t.repo, 'packages', 'c', 'x.ts'), 'export {};\n');
    git(t.repo, 'add', '-A');
    git(t.repo, 'commit', '-q', '-m', 'nested');
  });
});

test('a rename of a rule and of files it reaches, a symbolic link added, files a rule reaches edited', async () => {
  await caseOf((t) => {
    fs.writeFileSync(path.join(t.repo, 'src', 'web', 'a.tsx'), 'export const edited = 1;\n');
    fs.writeFileSync(path.join(t.repo, 'docs', 'guide.md'), '# Guide, edited\n');
    git(t.repo, 'mv', '.claude/rules/api.md', '.claude/rules/server.md');
    git(t.repo, 'mv', 'src/api/routes.ts', 'src/web/routes.tsx');
    fs.symlinkSync('handler.ts', path.join(t.repo, 'src', 'api', 'link.ts'));
    git(t.repo, 'add', '-A');
    git(t.repo, 'commit', '-q', '-m', 'rename');
  });
});

test('a personal file the base holds and the head no longer does is read from the disk on both sides', async () => {
  const t = emptyRepo();
  try {
    commitFiles(t.repo, { ...BASE, 'CLAUDE.local.md': '# Mine\n\nPersonal notes.\n' }, 'base');
    git(t.repo, 'checkout', '-q', '-b', 'pr');
    git(t.repo, 'rm', '-q', '--cached', 'CLAUDE.local.md');
    git(t.repo, 'commit', '-q', '-m', 'untrack the personal file');
    assert.ok(fs.existsSync(path.join(t.repo, 'CLAUDE.local.md')));
    const r = await sameAsFromScratch(t);
    assert.ok(r.after.startupFiles.some((f) => f.path === 'CLAUDE.local.md'));
  } finally {
    t.cleanup();
  }
});

test('the prefetch reads the instruction and Markdown files in one run, and by their sizes first when that run is refused', () => {
  const t = fixtureRepo('nested');
  try {
    const runner = nodeGitRunner(t.repo);
    const tree = readTree(runner, 'main');
    assert.ok(tree.ok);
    const wanted = [...tree.tree.entries].filter(([rel, e]) => e.kind === 'file' && (rel.endsWith('.md') || rel.startsWith('.claude/')));
    for (const refuseFirst of [false, true]) {
      const calls: string[] = [];
      let refused = false;
      const git = {
        run: (args: readonly string[], input?: string, max?: number) => {
          calls.push(args.slice(0, 2).join(' '));
          if (refuseFirst && !refused && args[1] === '--batch') return (refused = true), { ok: false as const, message: 'output over maxBuffer' };
          return runner.run(args, input, max);
        },
      };
      const store = blobStore();
      assert.equal(prefetchBlobs(git, [tree.tree], store), 1);
      assert.deepEqual(calls, refuseFirst ? ['cat-file --batch', 'cat-file --batch-check', 'cat-file --batch'] : ['cat-file --batch']);
      for (const [rel, e] of wanted) {
        assert.equal(Buffer.from(store.blobs.get(e.oid)!).toString('utf8'), fs.readFileSync(path.join(FIXTURES, 'nested', 'base', ...rel.split('/')), 'utf8'), rel);
        assert.equal(store.sizes.get(e.oid), store.blobs.get(e.oid)!.length);
      }
    }
  } finally {
    t.cleanup();
  }
});

test("the diff's prefetch, fed while the base's tree is listed: one git run written in pieces as the listing goes, the store prefetchBlobs fills for both revisions, and sizes first when its output is refused", async () => {
  const t = emptyRepo();
  try {
    // past one piece of oids (64): Markdown files, instruction files, a .claude folder's files of any kind, files not read
    const files: Record<string, string> = { 'CLAUDE.md': '# root\n', '.gitignore': 'dist/\n', '.claude/settings.json': '{}\n', '.claude/rules/r.md': 'rule\n' };
    for (let i = 0; i < 150; i++) files[`docs/d${i % 5}/p${i}.md`] = `page ${i}\n`;
    for (let i = 0; i < 150; i++) files[`src/m${i % 5}/f${i}.ts`] = `export const v${i} = ${i};\n`;
    commitFiles(t.repo, files);
    git(t.repo, 'checkout', '-q', '-b', 'pr');
    commitFiles(t.repo, { 'docs/d0/p0.md': 'page 0, changed\n', 'docs/new.md': 'new\n', '.claude/rules/r.md': null, 'src/m0/f0.ts': 'changed\n' });
    const runner = nodeGitRunner(t.repo);
    const base = readTree(runner, 'main');
    const head = base.ok ? deriveTree(runner, base.tree, 'pr') : undefined;
    assert.ok(base.ok && head?.ok);
    const reference = blobStore();
    prefetchBlobs(runner, [base.tree, head.tree], reference);
    assert.equal(reference.blobs.size, 4 + 150 + 2, "the base's instruction-like and Markdown files (its .gitignore and settings.json among them), and the head's changed and added one");
    for (const refuse of [false, true]) {
      const calls: string[] = [];
      const written: string[] = [];
      let listing = false;
      const git: GitRunner = {
        run: (args, input, max) => (calls.push(args.slice(0, 2).join(' ')), runner.run(args, input, max)),
        stream: (args, onChunk, max) => {
          listing = true;
          return runner.stream!(args, onChunk, max).finally(() => (listing = false));
        },
        open: (args, max) => {
          calls.push(`open ${args.join(' ')}${listing ? ' (while listed)' : ''}`);
          // refused: an output bound no blob fits in
          const inner = runner.open!(args, refuse ? 16 : max);
          return { write: (s) => (written.push(s), inner.write(s)), end: () => inner.end() };
        },
      };
      const store = blobStore();
      const feed = blobFeed(git, store);
      const listed = await readTreeStreamed(git, 'main', undefined, feed);
      assert.ok(listed.ok);
      const derived = deriveTree(git, listed.tree, 'pr');
      assert.ok(derived?.ok);
      feed.addTree(derived.tree);
      assert.equal(await feed.done(), 1);
      const expected = ['rev-parse --verify', 'open cat-file --batch --buffer (while listed)', 'rev-parse --verify', 'diff-tree -r'];
      assert.deepEqual(calls, refuse ? [...expected, 'cat-file --batch-check', 'cat-file --batch'] : expected);
      assert.ok(written.length >= 3, `written in pieces (${written.length})`);
      // every object once, each asked of the one run
      const oids = written.join('').split('\n').filter(Boolean);
      assert.equal(new Set(oids).size, oids.length);
      assert.deepEqual(new Set(oids), new Set(reference.sizes.keys()));
      assert.deepEqual(store.blobs, reference.blobs);
      assert.deepEqual(store.sizes, reference.sizes);
    }
  } finally {
    t.cleanup();
  }
});

test("the head's settings exclude a nested CLAUDE.md the base loads: nothing the base read for it is taken over", async () => {
  const r = await caseOf((t) => {
    commitFiles(t.repo, { '.claude/settings.json': JSON.stringify({ claudeMdExcludes: ['**/packages/a/CLAUDE.md'] }) });
  });
  assert.ok(r.before.nested.some((n) => n.path === path.join('packages', 'a', 'CLAUDE.md')));
  assert.ok(!r.after.nested.some((n) => n.path === path.join('packages', 'a', 'CLAUDE.md')), 'excluded in the head');
});

test("firstMatches is listMatches' list, the walk stopped at the limit", () => {
  const paths: string[] = [];
  for (let i = 0; i < 30; i++) paths.push(`src/m${i % 4}/f${i}.ts`, `docs/d${i % 3}/p${i}.md`, `r${i}.md`);
  const tree = treeFromPaths(paths);
  for (const pats of [['*.md'], ['src/**/*.ts'], ['docs'], ['**/*', '!docs/**'], ['src/m1/*.ts', 'r1*.md']])
    for (const limit of [1, 5, 50]) {
      const c = compilePatterns(pats);
      assert.deepEqual(firstMatches(tree, c, limit), listMatches(tree, c, limit).files, `${pats.join(', ')} / ${limit}`);
    }
});
