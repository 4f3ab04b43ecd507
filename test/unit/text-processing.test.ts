import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFrontmatter } from '../../src/engine/instructions/frontmatter.js';
import { processInstructionText } from '../../src/engine/instructions/content.js';
import { rulePatterns, splitPatterns, compileMatcher } from '../../src/engine/globs/globs.js';

const opts = (bom = true) => ({ stripBomBeforeFrontmatter: bom, collectIncludes: true, home: '/home/u' });
const proc = (text: string, file = '/r/CLAUDE.md', bom = true) => processInstructionText(text, file, opts(bom));

test('frontmatter is stripped, with the blank lines after it', () => {
  assert.equal(proc('---\npaths: "x/**"\n---\n\n\nMARK').content, 'MARK');
  assert.deepEqual(proc('---\npaths: "x/**"\n---\nMARK').globs, ['x']);
});

test('CRLF frontmatter is recognised; CRLF inside the body is kept', () => {
  const r = proc('---\r\npaths: a/*.ts\r\n---\r\nA\r\nB');
  assert.equal(r.content, 'A\r\nB');
  assert.deepEqual(r.globs, ['a/*.ts']);
});

test('indented --- is not frontmatter; a second block stays', () => {
  assert.equal(proc('  ---\nx: 1\n---\nT').content, '  ---\nx: 1\n---\nT');
  assert.equal(proc('---\na: 1\n---\n---\nSECOND\n---\n').content, '---\nSECOND\n---\n');
});

test('invalid YAML is stripped and its paths still honoured (lenient retry)', () => {
  const r = proc('---\npaths: src/**/*.ts\nbad: [unclosed\n---\nBODY');
  assert.equal(r.content, 'BODY');
  assert.deepEqual(r.globs, ['src/**/*.ts']);
});

test('fully broken YAML never throws and strips the block', () => {
  const r = proc('---\n: : :\n\t- [\n---\nBODY');
  assert.equal(r.content, 'BODY');
  assert.equal(r.globs, undefined);
});

test('BOM before frontmatter: 2.1.328 honours it, 2.1.235 keeps it as text', () => {
  const text = '\uFEFF---\npaths: "pkg/**"\n---\nM';
  assert.deepEqual(proc(text, '/r/x.md', true).globs, ['pkg']);
  const old = proc(text, '/r/x.md', false);
  assert.equal(old.globs, undefined);
  assert.equal(old.content, text);
});

test('block-level comments are removed, inline and code comments kept', () => {
  assert.equal(proc('a\n\n<!-- c -->\n\nb').content, 'a\n\nb');
  assert.equal(proc('Text line <!-- inline --> continues').content, 'Text line <!-- inline --> continues');
  assert.equal(proc('```\n<!-- in code -->\n```').content, '```\n<!-- in code -->\n```');
  assert.equal(proc('<!-- c1 --> trailing text').content, ' trailing text');
  assert.equal(proc('para\n<!--\nmulti\n-->\nafter').content, 'para\nafter');
  assert.equal(proc('<!-- unclosed\nstill here').content, '<!-- unclosed\nstill here');
  assert.equal(proc('<div>\n<!-- x -->\n</div>').content, '<div>\n<!-- x -->\n</div>');
});

test('@includes: only text tokens, path grammar, fragments and escapes', () => {
  const r = proc(
    [
      '@./dotslash.md @bare.md @/abs/x.md @~/home.md',
      '@inc/with\\ space.md and @inc/frag.md#section',
      'mid-sentence @midline.md here',
      '- @listitem.md',
      '> @quote.md',
      '`@codespan.md` foo@mail.md [l](@href.md) (@paren.md) @@double.md @"quoted.md"',
      '',
      '```',
      '@fenced.md',
      '```',
      '',
      '<!-- @comment.md -->',
    ].join('\n'),
  );
  assert.deepEqual(r.includeSpecs, ['./dotslash.md', 'bare.md', '/abs/x.md', '~/home.md', 'inc/with space.md', 'inc/frag.md', 'midline.md', 'listitem.md', 'quote.md']);
  assert.deepEqual(r.includes.slice(0, 4), ['/r/dotslash.md', '/r/bare.md', '/abs/x.md', '/home/u/home.md']);
});

test('paths: comma split outside braces, brace expansion, trailing /** removed, ** alone is unconditional', () => {
  assert.deepEqual(splitPatterns('a/*.py, b/*.py'), ['a/*.py', 'b/*.py']);
  assert.deepEqual(splitPatterns('br/{a,b}/*.ts'), ['br/a/*.ts', 'br/b/*.ts']);
  assert.deepEqual(splitPatterns(['lc1/*.ts, lc2/*.ts', 'x']), ['lc1/*.ts', 'lc2/*.ts', 'x']);
  assert.deepEqual(rulePatterns('lib/**'), ['lib']);
  assert.equal(rulePatterns('**'), undefined);
  assert.equal(rulePatterns([]), undefined);
});

test('matching: gitignore semantics, case-insensitive, relative to the base', () => {
  const m = (pats: string[], rel: string) => compileMatcher('/b', pats).matches(`/b/${rel}`);
  assert.ok(m(['*.md'], 'docs/deep/readme.md'));
  assert.ok(m(['lib'], 'src/lib/x.ts'));
  assert.ok(!m(['sub/*.ts'], 'sub/x/a.ts'));
  assert.ok(m(['/rooted/*.rs'], 'rooted/q.rs'));
  assert.ok(!m(['./dot/*.rb'], 'dot/a.rb'));
  assert.ok(m(['CASE/*.txt'], 'case/x.txt'));
  assert.ok(!m(['neg2/*.c', '!neg2/skip.c'], 'neg2/skip.c'));
  assert.ok(m(['neg', '!neg/skip'], 'neg/skip/x.c'));
  assert.ok(!compileMatcher('/b', ['*']).matches('/elsewhere/x'));
});

test('frontmatter parse of odd input never throws', () => {
  for (const s of ['---', '---\n---', '---\n', '\uFEFF', '---\n' + 'a: &x [*x]\n'.repeat(3) + '---\nb', '---\n\u0000\n---\n']) {
    assert.doesNotThrow(() => parseFrontmatter(s, true));
  }
});
