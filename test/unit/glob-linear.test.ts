// Glob matching that cannot backtrack: the engine's `paths:` matcher (globs.ts compileMatcher, on
// glob-count.ts and linear-regex.ts) must decide exactly what Claude Code's `ignore`-based matcher
// decides (globs.ts referenceMatcher) and must do it in time linear in the path and the pattern,
// also for the patterns that make JavaScript's backtracking engine take exponential time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import ignore from 'ignore';
import picomatch from 'picomatch';
import { prng } from '../../bench/generate.js';
import { compileLinear } from '../../src/engine/globs/linear-regex.js';
import { cannotCompile, compilePatterns, matchesPath, wildcardTest } from '../../src/engine/globs/glob-count.js';
import { compileMatcher, globsTooLong, MAX_GLOB_LENGTH, referenceMatcher } from '../../src/engine/globs/globs.js';

const A103 = `${'a'.repeat(103)}.ts`;

/** wall time of fn in ms */
function timed(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

// ---- the regular expressions `ignore` builds, run without backtracking ----------------------------

/** small random patterns over a small alphabet, with every construct `ignore` translates */
function randomPatterns(n: number, seed: number): string[] {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const atoms = ['a', 'b', 'A', '.', '*', '**', '?', '[ab]', '[!a]', '[a-c]', '[[:alpha:]]', '\\*', '\\ ', ' ', '#', '!', '[', ']', '-', '{', '(', '$', '^', '+', '|', '\\', 'ü'];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const segs = Array.from({ length: 1 + Math.floor(r() * 4) }, () => Array.from({ length: 1 + Math.floor(r() * 4) }, () => pick(atoms)).join(''));
    let p = segs.join('/');
    if (r() < 0.2) p = `/${p}`;
    if (r() < 0.2) p = `**/${p}`;
    if (r() < 0.15) p += '/';
    if (r() < 0.1) p += '/**';
    if (r() < 0.1) p = `!${p}`;
    out.push(p);
  }
  return out;
}

function randomPaths(n: number, seed: number): string[] {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const chars = ['a', 'b', 'A', 'B', '.', '*', '?', ' ', '#', '!', '[', ']', '-', 'ü', 'Ü', 'c', 'x'];
  return Array.from({ length: n }, () =>
    Array.from({ length: 1 + Math.floor(r() * 4) }, () => Array.from({ length: 1 + Math.floor(r() * 5) }, () => pick(chars)).join('')).join('/'),
  );
}

test('compileLinear decides what the native expression decides, for every rule `ignore` builds', () => {
  const paths = randomPaths(300, 3).flatMap((p) => [p, `${p}/`]);
  let checked = 0;
  for (const ignoreCase of [true, false])
    for (const pat of randomPatterns(1500, 11)) {
      const ig = ignore({ ignorecase: ignoreCase }).add([pat]) as unknown as { _rules: { _rules: { regex: RegExp; checkRegex?: RegExp }[] } };
      for (const rule of ig._rules._rules) {
        const re = rule.regex;
        const lin = compileLinear(re.source, re.flags);
        assert.ok(lin, `the expression of ${JSON.stringify(pat)} is in the dialect: /${re.source}/${re.flags}`);
        for (const p of paths) assert.equal(lin.test(p), re.test(p), `/${re.source}/${re.flags} (${JSON.stringify(pat)}) on ${JSON.stringify(p)}`);
        checked++;
      }
    }
  assert.ok(checked > 2000, `${checked} expressions checked`);
});

test('compileLinear handles the dialect picomatch writes too, and refuses what it does not know', () => {
  for (const g of ['*a*b', '?x*', '[ab]*', '[^a-c]x', '*.{ts,js}']) {
    const re = picomatch.makeRe(g, { dot: true, nocase: true });
    const lin = compileLinear(re.source, re.flags);
    assert.ok(lin, g);
    for (const s of ['ab', 'xab', 'axb', '.ab', '..', 'x.ts', 'A.JS', 'dx', 'bx']) assert.equal(lin.test(s), re.test(s), `${g} on ${s}`);
  }
  for (const src of ['(a)\\1', 'a{2,}b(?<=x)', '\\bfoo', 'x(?<n>y)']) assert.equal(compileLinear(src), undefined, src);
  assert.equal(compileLinear('a', 'g'), undefined);
});

test('wildcardTest decides a segment exactly as picomatch\'s expression does', () => {
  const r = prng(5);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const atoms = ['a', 'b', 'A', '.', '*', '?', '[ab]', '[^a]', '[a-c]', '[\\-a]', '[A-Z]', '[0-9]', '-', '_', ' ', '~', '1'];
  const names = Array.from({ length: 200 }, () => Array.from({ length: Math.floor(r() * 6) }, () => pick(['a', 'b', 'A', 'B', '.', '-', 'c', '1', ' ', 'ü', '_'])).join(''));
  for (let i = 0; i < 1500; i++) {
    const seg = Array.from({ length: 1 + Math.floor(r() * 4) }, () => pick(atoms)).join('').replace(/\*\*+/g, '*');
    for (const nocase of [true, false]) {
      const re = picomatch.makeRe(seg, { dot: true, nocase, nobrace: true, noextglob: true, nonegate: true, literalBrackets: false });
      const t = wildcardTest(seg, nocase);
      for (const name of names) {
        // a relative path never has an empty, `.` or `..` segment (`ignore` refuses such paths)
        if (name === '' || name === '.' || name === '..') continue;
        assert.equal(t(name), re.test(name), `${seg} (nocase ${nocase}) on ${JSON.stringify(name)}`);
      }
    }
  }
});

// ---- adversarial patterns: identical where the reference finishes, linear always ---------------

/** patterns built to make a backtracking engine explode, at size k */
function adversarial(k: number): string[] {
  return [
    `**/${'*a'.repeat(k)}*b`,
    `${'*a'.repeat(k)}*b`,
    `${'*a*'.repeat(k)}`,
    `${'?*'.repeat(k)}b`,
    `${'[ab]*'.repeat(k)}c`,
    `**/${'x/**/'.repeat(k)}y`,
    `${'**/'.repeat(k)}*.ts`,
    `x/${'**/x/'.repeat(k)}**/z`,
    `**/${'*a'.repeat(k)}*b/**`,
    `\\ ${'*a'.repeat(k)}*b`, // an escape: `ignore`'s own expression (regex mode)
    `x\\ /${'**/x/'.repeat(k)}y`, // regex mode with many globstars
    `${'*ab'.repeat(k)}*c`,
  ];
}

function adversarialPaths(n: number): string[] {
  return [
    `${'a'.repeat(n)}.ts`,
    'a'.repeat(n),
    `${'ab'.repeat(n)}`,
    Array(n).fill('x').join('/'),
    `${Array(n).fill('x').join('/')}/z`,
    `x/${'a'.repeat(n)}/z`,
    ` ${'a'.repeat(n)}`,
    `x /${Array(n).fill('x').join('/')}/y`,
  ];
}

test('adversarial patterns: identical to the reference at sizes where the reference finishes', () => {
  for (let k = 1; k <= 4; k++)
    for (const p of adversarial(k)) {
      const ours = compileMatcher('/w', [p]);
      const ref = referenceMatcher('/w', [p]);
      for (const rel of adversarialPaths(8).concat(adversarialPaths(3))) assert.equal(ours.matchesRelative(rel), ref.matchesRelative(rel), `${p} on ${rel}`);
      // and paths that do match
      for (const rel of ['ab', 'aab', 'x/y', 'x/x/y', 'x/x/z', 'a.ts', 'x/q.ts', ' ab', 'x /x/y', 'abc', 'ababc'])
        assert.equal(ours.matchesRelative(rel), ref.matchesRelative(rel), `${p} on ${rel}`);
    }
});

test('the issue\'s hang: `**/*a*a*a*a*a*a*a*b` against a name of 103 `a`s is decided at once', () => {
  const m = compileMatcher('/w', ['**/*a*a*a*a*a*a*a*b']);
  const ms = timed(() => assert.equal(m.matches(`/w/${A103}`), false));
  assert.ok(ms < 500, `${ms.toFixed(1)} ms`);
  assert.equal(m.matches('/w/src/xaaaaaaaab'), true);
});

test('adversarial patterns at size 12 on paths 200 long: every decision is fast', () => {
  let worst = 0;
  for (const p of adversarial(12)) {
    const m = compileMatcher('/w', [p]);
    for (const rel of adversarialPaths(200)) worst = Math.max(worst, timed(() => m.matchesRelative(rel)));
    // counting over a tree goes through the same automata
    const c = compilePatterns([p]);
    for (const rel of adversarialPaths(200)) worst = Math.max(worst, timed(() => matchesPath(c, rel)));
  }
  assert.ok(worst < 500, `slowest decision ${worst.toFixed(1)} ms`);
});

test('a pattern of `*a` × 8,000 (past what `ignore` can compile) neither throws nor hangs; one past MAX_GLOB_LENGTH matches nothing', () => {
  const long = '*a'.repeat(8000);
  assert.throws(() => ignore().add([long]).ignores('a'), /Invalid regular expression/, 'the reference cannot even compile it');
  const m = compileMatcher('/w', [long, 'src/**']);
  const ms = timed(() => {
    assert.equal(m.matches(`/w/${A103}`), false);
    assert.equal(m.matches(`/w/${'a'.repeat(9000)}`), true, 'as the pattern says');
    assert.equal(m.matches('/w/src/a.ts'), true, 'the other patterns of the list still work');
  });
  assert.ok(ms < 2000, `${ms.toFixed(1)} ms`);
  const over = '*a'.repeat(MAX_GLOB_LENGTH / 2 + 1);
  const m2 = compileMatcher('/w', [over, 'src/**']);
  const ms2 = timed(() => {
    assert.equal(m2.matches(`/w/${'a'.repeat(250)}`), false);
    assert.equal(m2.matches('/w/src/a.ts'), true);
  });
  assert.ok(ms2 < 2000, `${ms2.toFixed(1)} ms`);
  assert.deepEqual(globsTooLong([over, 'src/**']), [over]);
});

test('a long pattern in the subset is matched as Claude Code matches it (measured: 60,008 characters of `src/**/**/…/*.ts` load for src/a.ts)', () => {
  const long = `src/${'**/'.repeat(20000)}*.ts`;
  const m = compileMatcher('/w', [long]);
  const ms = timed(() => {
    assert.equal(m.matches('/w/src/a.ts'), true);
    assert.equal(m.matches('/w/src/x/y/a.ts'), true);
    assert.equal(m.matches('/w/lib/a.ts'), false);
  });
  assert.ok(ms < 1000, `${ms.toFixed(1)} ms`);
  assert.equal(cannotCompile(long), false);
  // outside the subset (an escaped space): `ignore`'s expression, 640,009 characters, which
  // JavaScript's engine refuses to run ("Regular expression too large"), runs without backtracking
  const odd = `\\ ${'*a'.repeat(40000)}`;
  const m2 = compileMatcher('/w', [odd, 'src/**']);
  const ms2 = timed(() => {
    assert.equal(m2.matches('/w/src/a.ts'), true);
    assert.equal(m2.matches(`/w/ ${'a'.repeat(250)}`), false);
  });
  assert.ok(ms2 < 5000, `${ms2.toFixed(1)} ms`);
  assert.equal(cannotCompile(odd), false);
});
