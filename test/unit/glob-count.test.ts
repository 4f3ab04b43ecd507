// glob-count.ts must count exactly what Claude Code's matcher (compileMatcher: the `ignore`
// package, case-insensitive, relative to the rule's base) decides, file by file. Proved here over a
// generated monorepo (bench/generate.ts, in memory) plus hostile names, for the pattern forms of the
// instructions spec §6 and a seeded fuzz set; and, for .gitignore use, against `ignore` itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import ignore from 'ignore';
import { defaultParams, generateInMemory, prng } from '../../bench/generate.js';
import { compilePatterns, countMatches, DirNode as Dir, firstMatch, firstMatchListing, listMatches, mayMatch, nameIndex, matchesEntry, matchesPath, treeFromPaths, type DirNode } from '../../src/engine/globs/glob-count.js';
import { referenceMatcher as compileMatcher, rulePatterns } from '../../src/engine/globs/globs.js';

// ---- the tree -------------------------------------------------------------------------------------

const generated = generateInMemory({ ...defaultParams(6000, 11), packages: 6 })
  .filter((f) => f.path.startsWith('repo/'))
  .map((f) => f.path.slice('repo/'.length));

/** names that stress the edges: dotfiles, case, `..x` folders, brackets, spaces, `#`, `!` */
const hostile = [
  '.env', '.hidden/x.ts', 'conf/.hidden', 'CASE/x.txt', 'case/y.TXT', 'Up/x.txt', 'up/z.TXT', '..dots/a.ts', '..file',
  'a[b]/c.ts', '[ab]x.md', 'sp ace/f i.ts', '#hash/x.md', '!bang/x.md', 'neg/skip/x.c', 'neg/ok/x.c', 'neg2/skip.c',
  'neg2/ok.c', 'rooted/q.rs', 'deep/rooted/q.rs', 'sub/x.ts', 'sub/x/a.ts', 'onlydir/x', 'deep/onlydir/x.ts', 'lib/x.ts',
  'src/lib/x.ts', 'ts/a/b.ts', 'x/ts', 'docs/deep/readme.md', 'a/b/c/d.xyz', 'web/c/d.tsx', 'br/a/x.ts', 'br/b/y.ts',
  'br/c/z.ts', 'a.test.ts', 'q/a.test.ts', 'x/a.spec.ts', 'fmt/d.txt', 'a/b', 'a/x/b', 'a/x/y/b', 'abc', 'abc.d', 'a-z/1',
  'A/B/C/D/E/F/G/H/deep.ts', 'packages/pkg-001/x/y.ts', 'PACKAGES/pkg-001/z.ts', 'node_modules/a/b.js', 'n/node_modules/c.js',
  'foo', 'foo/bar', 'x/foo', 'x/foo/bar', 'x.ts/y', 'dir.md/inner.txt', 'tmp/a', 'x/tmp/b', 'keep.log', 'a.log', 'z/b.log',
  '*star/x', 'q?/x', 'lit/[ab]*', 'lit/*.md', '?x', 'lit/a[b]', 'e\u0301/x.ts', 'ünï/côde.md',
];
const files = [...new Set([...generated, ...hostile])];
const tree = treeFromPaths(files);

// ---- patterns -------------------------------------------------------------------------------------

/** the pattern forms of the spec §6 (after Claude Code's splitting, as rule lists) */
const SPEC: string[][] = [
  ['lib/*.js'], ['a/*.py', 'b/*.py'], ['br/{a,b}/*.ts'], ['web/**/*.{ts,tsx}'], ['lib/**'], ['*.md'], ['*.xyz'], ['onlydir'],
  ['sub/*.ts'], ['/rooted/*.rs'], ['./dot/*.rb'], ['ts/'], ['src/?ndex.ts'], ['[ab]*'], ['*'], ['conf/*'], ['CASE/*.txt'],
  ['Up/*.TXT'], ['neg2/*.c', '!neg2/skip.c'], ['**/*.ts, !**/*.test.ts'], ['neg/**', '!neg/skip/**'], ['**'], ['**/*.ts'],
  ['src/**/*.ts'], ['packages/pkg-001/**'], ['{apps,packages}/*/src/**/*.{ts,tsx}'], ['docs/'], ['API/'], ['.*'], ['README.md'],
  ['**/Generated/**/*.TS'], ['node_modules/**'], ['**/__tests__/**'], ['*.{json,yaml}'], ['[!a]*.ts'], ['[a-c]*/**'],
  ['src/**', '!src/**/*.test.ts'], ['*.ts', '!sub/**'], ['!*.ts'], ['a/**/b'], ['**/foo'], ['**/foo/bar'], ['foo/**/'],
  ['a?c'], ['x/**/*.js', 'x/**'], ['*/'], ['**/'], ['/**'], ['/**/'], ['/*'], ['/*.log'], ['*.log', '!keep.log'],
];

/** forms the picomatch subset does not cover: they must fall back and still agree */
const ODD: string[][] = [
  ['\\*star/*'], ['q\\?/*'], ['a\\ b'], ['foo '], ['#hash/*'], ['\\#hash/*'], ['!bang/*'], ['\\!bang/*'], ['[[:alpha:]]*'],
  ['***'], ['a**'], ['**.ts'], ['x/***/y'], ['[z-a]*'], ['[]ab]*'], ['[!]]*'], ['a[b]/*'], ['a\\[b]/*'], ['x//y'], ['./x'],
  ['..dots/*'], ['..*'], ['**/..dots/**'], ['e\u0301/*'], ['ünï/*'], ['a{b'], ['(x)'], ['a|b'], ['$x'], ['^x'], ['[a-'],
  ['**/x/**'], ['sp ace/*'], ['*.TS\r'], ['\uFEFF*.md'], ['!'], ['', '*.md'], ['*.md', '#c', '!README.md'],
];

/** seeded fuzz: random lists of random patterns over names that occur in the tree */
function fuzz(n: number, seed: number): string[][] {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const names = [...new Set(files.flatMap((f) => f.split('/')))].slice(0, 400);
  const flipCase = (s: string) => [...s].map((c) => (r() < 0.3 ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join('');
  const seg = (): string => {
    const k = r();
    if (k < 0.3) return r() < 0.5 ? pick(names) : flipCase(pick(names));
    if (k < 0.45) return '*';
    if (k < 0.55) return '**';
    if (k < 0.65) return `*${pick(['.ts', '.md', '.json', '.tsx', '.js', '.test.ts', 's', '-1'])}`;
    if (k < 0.72) return `${pick(names).slice(0, 2)}*`;
    if (k < 0.78) return `${pick(['[ab]', '[a-m]', '[!a-c]', '[0-9]', '[.]', '[A-Z]'])}*`;
    if (k < 0.84) {
      const nm = pick(names);
      return nm.length > 2 ? `${nm[0]}?${nm.slice(2)}` : '?';
    }
    if (k < 0.9) return `.${pick(['env', 'hidden', 'eslintrc.json', '*'])}`;
    if (k < 0.96) return pick(names.filter((x) => x.includes('.'))) ?? 'x.ts';
    // forms outside the picomatch subset: escapes, POSIX classes, star runs, odd brackets, spaces
    return pick(['\\*star', 'q\\?', '[[:digit:]]*', '[[:upper:]]*', '***', '**x', 'a**', '[z-a]*', '[]ab]*', 'sp ace', '..dots', '..*', '[!.]*', 'x\\ ', '#hash', '\\#hash', 'a[b]', 'e\u0301']);
  };
  const pattern = (): string => {
    const segs = Array.from({ length: 1 + Math.floor(r() * 4) }, seg);
    let p = segs.join('/');
    if (r() < 0.15) p = `/${p}`;
    if (r() < 0.15) p = `**/${p}`;
    if (r() < 0.1) p += '/';
    if (r() < 0.08) p += '/**';
    if (r() < 0.15) p = `!${p}`;
    return p;
  };
  return Array.from({ length: n }, () => Array.from({ length: 1 + Math.floor(r() * 3) }, pattern));
}

// ---- the reference: Claude Code's matcher, path by path ---------------------------------------

function expectedList(base: string, patterns: string[]): string[] {
  const m = compileMatcher(`/w/${base}`, patterns);
  const pre = base ? `${base}/` : '';
  const out: string[] = [];
  for (const f of files) {
    if (base && !f.startsWith(pre)) continue;
    if (m.matchesRelative(f.slice(pre.length))) out.push(f.slice(pre.length));
  }
  return out.sort();
}

function check(base: string, patterns: string[], label: string): void {
  const node = tree.find(base) as DirNode;
  const c = compilePatterns(patterns);
  const want = expectedList(base, patterns);
  const got = listMatches(node, c, Number.MAX_SAFE_INTEGER);
  assert.equal(got.total, want.length, `${label}: count of ${JSON.stringify(patterns)} under ${base || '.'}`);
  assert.deepEqual(got.files.sort(), want, `${label}: files of ${JSON.stringify(patterns)} under ${base || '.'}`);
  assert.equal(countMatches(node, c), want.length);
  const one = firstMatch(node, c);
  assert.equal(one === undefined, want.length === 0, `${label}: firstMatch of ${JSON.stringify(patterns)} under ${base || '.'}`);
  if (one !== undefined) assert.ok(want.includes(one), `${label}: firstMatch ${one} is a match`);
}

const BASES = ['', 'packages', 'packages/pkg-001', 'neg', 'apps/app-00'];

test('the tree is big enough to mean something', () => {
  assert.ok(files.length > 6000, `${files.length} files`);
  for (const b of BASES) assert.ok(tree.find(b), `base ${b} exists`);
});

test('spec §6 forms: identical to compileMatcher, raw lists and as Claude Code splits them', () => {
  for (const base of BASES)
    for (const pats of SPEC) {
      check(base, pats, 'raw');
      const split = rulePatterns(pats.length === 1 ? pats[0] : pats);
      if (split) check(base, split, 'rulePatterns');
    }
});

test('odd forms fall back and still agree', () => {
  for (const base of ['', 'packages'])
    for (const pats of ODD) check(base, pats, 'odd');
});

test('seeded fuzz: 1,500 random lists agree', () => {
  const lists = fuzz(Number(process.env.FUZZ_N ?? 1500), Number(process.env.FUZZ_SEED ?? 20260301));
  lists.forEach((pats, i) => check(BASES[i % BASES.length]!, pats, `fuzz #${i}`));
});

test('each positive pattern alone (the hover case) agrees', () => {
  for (const pats of [...SPEC, ...fuzz(300, 99)])
    for (const p of pats) if (!p.startsWith('!')) check('', [p], 'single');
});

test('the fast path is used for the common forms', () => {
  for (const pats of SPEC.slice(0, 30)) {
    const split = rulePatterns(pats.length === 1 ? pats[0] : pats) ?? pats;
    const c = compilePatterns(split);
    assert.ok(c.rules, `${JSON.stringify(split)} compiles to rules`);
  }
  const common = ['src/**/*.ts', '*.md', 'packages/x', 'docs/', '**/*.test.ts', '!**/fixtures', 'src/?ndex.ts', '[ab]*.ts'];
  for (const p of common) assert.equal(compilePatterns([p]).picomatchRules, 1, `${p} is matched by picomatch`);
});

test('gitignore mode (case-sensitive, no `..` guard) agrees with ignore, entry by entry', () => {
  const lists = [['node_modules/', 'dist/', '*.log', '!keep.log', '/tmp/', '.cache/'], ['build/', '*.tmp'], ['*', '!*/', '!*.ts'], ...fuzz(200, 7)];
  for (const pats of lists) {
    const c = compilePatterns(pats, { ignoreCase: false, dotDotGuard: false });
    const ig = ignore({ ignorecase: false }).add(pats);
    let want = 0;
    for (const f of files) if (ig.ignores(f)) want++;
    assert.equal(countMatches(tree, c), want, JSON.stringify(pats));
    // single-level decisions as a .gitignore walk uses them
    for (const f of files.slice(0, 400)) {
      const parts = f.split('/');
      for (let k = 1; k <= parts.length; k++) {
        const rel = parts.slice(0, k).join('/');
        const isDir = k < parts.length;
        const t = ig.test(isDir ? `${rel}/` : rel);
        // `test` recurses into parents; compare only where no parent decides
        const parentIgnored = k > 1 && ig.ignores(`${parts.slice(0, k - 1).join('/')}/`);
        if (!parentIgnored) assert.equal(matchesEntry(c, rel, isDir), t.ignored, `${JSON.stringify(pats)} on ${rel}${isDir ? '/' : ''}`);
      }
    }
  }
});

test('a tree mounted below the patterns\' base (`at`) counts as the whole tree would', () => {
  for (const sub of ['packages', 'packages/pkg-001', 'neg', '..dots', 'A/B/C']) {
    const node = tree.find(sub) as DirNode;
    for (const pats of [...SPEC, ...fuzz(200, 5)]) {
      const want = expectedList('', pats).filter((f) => f.startsWith(`${sub}/`));
      const c = compilePatterns(pats);
      assert.equal(countMatches(node, c, sub), want.length, `${JSON.stringify(pats)} with the tree at ${sub}`);
      assert.deepEqual(listMatches(node, c, Number.MAX_SAFE_INTEGER, sub).files.sort(), want, `${JSON.stringify(pats)} files with the tree at ${sub}`);
    }
  }
});

/** the tree again, listed on demand from `tree`: which folders a walk listed, by their rel */
function onDemand(): { root: Dir; expand: (d: Dir) => void; listed: Set<string> } {
  const listed = new Set<string>();
  const source = new Map<Dir, DirNode>();
  const root = new Dir('', undefined);
  source.set(root, tree);
  const expand = (d: Dir) => {
    const src = source.get(d);
    if (!src) return;
    source.delete(d);
    listed.add(d.rel);
    d.files.push(...src.files);
    for (const c of src.dirs) source.set(d.ensureDir(c.name), c);
  };
  return { root, expand, listed };
}

test('firstMatchListing over a tree listed on demand: a match exactly when there is one, and a file the list matches', () => {
  for (const base of ['', 'packages', 'neg', 'A/B']) {
    for (const pats of [...SPEC, ...fuzz(300, 9)]) {
      const want = expectedList(base, pats);
      const { root, expand } = onDemand();
      let node: Dir | undefined = root;
      for (const part of base ? base.split('/') : []) {
        if (!node) break;
        expand(node);
        node = node.dir(part);
      }
      const c = compilePatterns(pats);
      const hit = node && firstMatchListing(node, c, expand);
      const label = `${JSON.stringify(pats)} from ${base || '(root)'}`;
      assert.equal(hit !== undefined, want.length > 0, label);
      if (hit !== undefined) assert.ok(want.includes(hit), `${label}: ${hit} is not one of the matches`);
    }
  }
});

test('firstMatchListing lists only the folders the patterns can reach, and a folder matched whole down to its first file', () => {
  const { root, expand, listed } = onDemand();
  assert.equal(firstMatchListing(root, compilePatterns(['packages/pkg-001/**/*.nothing']), expand), undefined);
  // (matching is case-insensitive, as Claude Code's: PACKAGES/ is reached too)
  assert.ok([...listed].every((rel) => rel === '' || rel.toLowerCase() === 'packages' || rel.toLowerCase().startsWith('packages/pkg-001')), [...listed].join(', '));
  const again = onDemand();
  const hit = firstMatchListing(again.root, compilePatterns(['node_modules/**']), again.expand);
  assert.ok(hit?.startsWith('node_modules/'), hit);
  // only the folders on the way down to that first file were listed
  const way = hit!.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'));
  assert.deepEqual([...again.listed].sort(), ['', ...way].sort());
});

test('mayMatch: a list it rules out matches nothing, from any base folder of the tree', () => {
  const idx = nameIndex(tree);
  let ruledOut = 0;
  const lists = [...SPEC, ...ODD, ...fuzz(1500, 21), ['**/nowhere-at-all/**/*.sql'], ['*.nothing'], ['NODE_MODULES/**'], ['x/*.TS'], ['!*.ts']];
  for (const pats of lists) {
    if (mayMatch(idx, pats)) continue;
    ruledOut++;
    for (const base of ['', 'packages', 'neg', 'A/B', 'node_modules']) {
      const node = tree.find(base);
      if (node) assert.equal(countMatches(node, compilePatterns(pats)), 0, `${JSON.stringify(pats)} from ${base || '(root)'} was ruled out but matches`);
    }
  }
  assert.ok(ruledOut >= 50, `the condition rules out lists that match nothing (${ruledOut} of ${lists.length})`);
  // and it does not rule out what matches: case-insensitive names and suffixes
  assert.equal(mayMatch(idx, ['NODE_MODULES/**']), true);
  assert.equal(mayMatch(idx, ['x/*.TS']), true);
  assert.equal(mayMatch(idx, ['**/nowhere-at-all/**/*.sql']), false);
});

test('matchesPath decides single paths exactly as compileMatcher().matchesRelative', () => {
  const sample = files.filter((_, i) => i % 7 === 0).concat(hostile);
  for (const pats of [...SPEC, ...ODD, ...fuzz(400, 77)]) {
    const m = compileMatcher('/w', pats);
    const c = compilePatterns(pats);
    for (const f of sample) assert.equal(matchesPath(c, f), m.matchesRelative(f), `${JSON.stringify(pats)} on ${f}`);
  }
});
