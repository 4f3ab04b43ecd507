// The frontmatter fast path (src/engine/instructions/frontmatter.ts fastYaml) against the `yaml`
// package it stands in for: wherever it gives an answer, the answer is yaml's, on hand-written
// cases and on many generated ones that mix the simple subset with what it must refuse.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'yaml';
import { fastYaml, parseFrontmatter } from '../../src/engine/instructions/frontmatter.js';

const OPTS = { prettyErrors: false, maxAliasCount: 100, uniqueKeys: false, logLevel: 'error' } as const;

function viaYaml(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parse(text, OPTS) as unknown };
  } catch {
    return { ok: false };
  }
}

function same(text: string): boolean {
  const fast = fastYaml(text);
  if (fast === undefined) return true;
  const y = viaYaml(text);
  assert.ok(y.ok, `fastYaml read ${JSON.stringify(text)}, which yaml refuses`);
  assert.deepEqual(fast, y.value, `fastYaml and yaml differ on ${JSON.stringify(text)}`);
  assert.deepEqual(Object.keys(fast), Object.keys(y.value as object), `key order differs on ${JSON.stringify(text)}`);
  return false;
}

test('the common frontmatter of rules and skills is read by the fast path, as yaml reads it', () => {
  const common = [
    'paths: "*.md"\n',
    'paths:\n  - "**/*.py"\n  - "src/**/*.ts"\n',
    'paths:\n- "a/**"\n',
    'name: skill-00\ndescription: always module never module errors (skill-00-0)\n',
    "description: Don't use it when the user asks for \"help\"; use it for 修复 中文 文档\n",
    'name: x\n\n# a comment\ndescription: y   \n',
    'paths:\n  # the sources\n  - "src/**"\n',
    "paths: 'src/**/*.ts'\n",
    'a:\nb: c\n',
    'description: a:b and c.d/e\n',
    'allowed-tools: Read, Grep, Bash(git status)\n',
    'description: ends in an ideographic space\u3000\n',
    'paths: ["packages/pkg-012/**", "!packages/pkg-016/src/**"]\n',
    "paths: [ 'a' ,\"{b,c}/*.ts\" ]\n",
    'paths: []\n',
  ];
  for (const t of common) {
    assert.ok(fastYaml(t), `not read by the fast path: ${JSON.stringify(t)}`);
    same(t);
  }
});

test('what the fast path must leave to yaml, it leaves', () => {
  const refused = [
    'a: 1', 'a: 0x1f', 'a: .5', 'a: -x', 'a: ~', 'a: null', 'a: Null', 'a: true', 'a: FALSE', 'a: 1e3', 'a: +1',
    'a: *x', 'a: &x y', 'a: !tag y', 'a: [1, 2]', 'a: [x]', 'a: ["x",]', 'a: ["x"] # c', 'a: ["x" "y"]', 'a: ["x\\"y"]', 'a: {b: c}', 'a: b: c', 'a: b #c', 'a: "x" # c', 'a: "a\\nb"', "a: 'it''s'",
    'a: |\n  text', 'a: >\n  text', 'a: b\n  continued', 'a: b\na: c', '__proto__: x', 'true: x', 'a:\n  - x\n    - y',
    'a:\n  - x\n - y', '- x', 'a:\tb', 'a: b\r\n', '  a: b', 'a: b\n---\nc: d', 'a: b\n...', '? a\n: b', 'a: %x', 'a: @x', 'a: `x`',
    'a: \u3000b', '\u3000', 'a:\n  - x:', 'a:\n  - k: v', 'a: x:', '', '# only a comment',
  ];
  for (const t of refused) {
    assert.equal(fastYaml(t), undefined, `the fast path read ${JSON.stringify(t)}`);
  }
});

test('on generated frontmatter the fast path, wherever it answers, answers as yaml does', () => {
  let seed = 20261201;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const chars = ['a', 'Z', '0', '9', ' ', ' ', '-', '_', '.', '/', '*', ':', '#', '"', "'", '!', '&', '%', '@', '`', '~', '+', '?', ',', '[', ']', '{', '}', '|', '>', '<', '=', '\\', '(', ')', '中', '文', 'é', '\u00a0', '\u3000', '\t', '\u2028', '\ufeff', '\u0085', 'n', 'u', 'l', 't', 'r', 'e', 'y'];
  const words = ['null', 'true', 'False', 'yes', 'no', 'on', '0', '1.5', '.inf', '-', '- ', ': ', ' #', 'x:', '~', '0x1', '0o7', '1e5'];
  const safe = ['a', 'Z', ' ', '/', '*', '中', 'é', '(', ')', '.', '-', '_', ',', "'", '"'];
  const scalarLite = (): string => {
    const s = Array.from({ length: Math.floor(rnd() * 4) }, () => pick(rnd() < 0.7 ? safe : chars)).join('');
    return rnd() < 0.8 ? `"${s}"` : rnd() < 0.5 ? `'${s}'` : s;
  };
  const scalar = (): string => {
    let s = '';
    const n = Math.floor(rnd() * 8);
    const clean = docClean || rnd() < 0.5;
    for (let i = 0; i < n; i++) s += clean ? pick(safe) : rnd() < 0.2 ? pick(words) : pick(chars);
    const q = rnd();
    return q < 0.2 ? `"${s}"` : q < 0.35 ? `'${s}'` : q < 0.45 ? `[${[s, scalarLite()].join(rnd() < 0.8 ? ', ' : ' ')}]` : s;
  };
  const keys = ['paths', 'name', 'description', 'a', 'b', 'true', 'null', '__proto__', 'x-y', '_z', '9k'];
  let docClean = false;
  let answered = 0;
  const total = 20000;
  for (let i = 0; i < total; i++) {
    const lines: string[] = [];
    docClean = rnd() < 0.5;
    const n = 1 + Math.floor(rnd() * 4);
    for (let k = 0; k < n; k++) {
      const r = rnd();
      if (r < 0.1) lines.push(pick(['', '  ', '# c', '  # c', '\t']));
      else if (r < 0.45) {
        lines.push(`${docClean ? `${pick(keys.slice(0, 5))}${k}` : pick(keys)}:${rnd() < 0.1 ? '' : ' '}`);
        const ind = pick(['', '  ', '  ', '    ']);
        const m = Math.floor(rnd() * 3);
        for (let j = 0; j < m; j++) lines.push(`${rnd() < 0.1 ? pick(['', ' ', '   ']) : ind}-${rnd() < 0.1 ? '' : ' '}${scalar()}`);
      } else lines.push(`${docClean ? `${pick(keys.slice(0, 5))}${k}` : pick(keys)}: ${scalar()}${rnd() < 0.1 ? '  ' : ''}`);
    }
    if (!same(`${lines.join('\n')}\n`)) answered++;
  }
  // the generator is meant to reach both sides: a good share answered fast, a good share refused
  assert.ok(answered > total * 0.1 && answered < total * 0.9, `${answered} of ${total} answered by the fast path`);
});

test('parseFrontmatter gives the same data through the fast path as through yaml', () => {
  const text = '---\npaths:\n  - "src/**/*.ts"\ndescription: text with \'quotes\'\n---\n# body\n';
  const fm = parseFrontmatter(text, true);
  assert.deepEqual(fm.data, viaYaml(fm.yaml!).ok ? parse(fm.yaml!, OPTS) : undefined);
  assert.equal(fm.body, '# body\n');
  assert.equal(fm.lenient, false);
});
