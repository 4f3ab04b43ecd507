// The ASCII fast paths of the text clean-ups (skills/text.ts, memory/memory.ts) skip Unicode-property
// expressions for text they cannot change. Each character they let through is checked here against
// the full expressions (a non-ASCII character beside it sends the text down the full path). And the
// path fast path (environment.ts's `below`) against path.relative.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanShownText, isShowableName } from '../../src/engine/skills/text.js';
import { stripInvisible } from '../../src/engine/memory/memory.js';
import * as path from 'node:path';
import { below, isInside, isStrictlyInside } from '../../src/engine/environment.js';
import { displayPath } from '../../src/engine/checks/index.js';

const printable = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i));

test('cleanShownText: no printable ASCII character is hidden, on the full path', () => {
  for (const c of printable) {
    const full = cleanShownText(`${c}x\u00e9`, true, false);
    assert.equal(full, `${c}x\u00e9`, JSON.stringify(c));
    assert.equal(cleanShownText(`${c}x`, true, false), `${c}x`);
  }
  // the full path still does its work: controls and tabs become one space, `<` is escaped either way
  assert.equal(cleanShownText('a\t\u0007b\u00e9', true, false), 'a b\u00e9');
  assert.equal(cleanShownText('a\tb', true, false), 'a b');
  assert.equal(cleanShownText('<a>', true, true), '&lt;a&gt;');
});

test('stripInvisible: tabs, line ends and printable ASCII are kept on the full path; controls and format characters go', () => {
  for (const c of [...printable, '\t', '\n', '\r']) assert.equal(stripInvisible(`${c}\u00e9`), `${c}\u00e9`, JSON.stringify(c));
  assert.equal(stripInvisible('a\u0007b\u200bc\ue000d'), 'abcd');
  assert.equal(stripInvisible('a\u0007b'), 'ab');
});

test('isShowableName: the ASCII names it accepts at once are the ones the full expression accepts', () => {
  for (const c of printable) assert.equal(isShowableName(`${c}\u00e9`), isShowableName(`${c}`), JSON.stringify(c));
  assert.ok(isShowableName('my-skill_v2:x.y') && isShowableName('数据-skill') && !isShowableName('a b') && !isShowableName('a/b'));
});

test('below: a path relative to a folder by a slice gives what path.relative gives, and nothing where it cannot tell; isInside and isStrictlyInside agree with it', () => {
  const dirs = ['/w/repo', '/w/repo/', '/', '/w/./repo', 'w/repo', '/w/re po'];
  const tails = ['', 'a', 'a/b.md', '.claude/rules/r.md', '..x/y', '..', '../b', './a', 'a//b', 'a/', 'a/../..', '.hidden', 'a/./b', '文档/说明.md'];
  for (const dir of dirs)
    for (const t of tails) {
      for (const p of [`${dir}/${t}`, dir + t, `/w/repo-other/${t}`]) {
        const rel = path.relative(dir, p);
        const slice = below(p, dir);
        if (slice !== undefined) assert.equal(slice, rel, `${p} in ${dir}`);
        const up = rel === '..' || rel.startsWith('../');
        const inside = path.isAbsolute(dir) ? rel === '' || (!up && !path.isAbsolute(rel)) : undefined;
        if (inside !== undefined) {
          assert.equal(isInside(p, dir), inside, `isInside ${p} ${dir}`);
          assert.equal(isStrictlyInside(p, dir), inside && rel !== '', `isStrictlyInside ${p} ${dir}`);
        }
      }
    }
  // the common case takes the slice
  assert.equal(below('/w/repo/src/a.ts', '/w/repo'), 'src/a.ts');
  assert.equal(below('/w/repo/..x/y', '/w/repo'), '..x/y');
  assert.ok(isInside('/w/repo/..x/y', '/w/repo'), 'a name that starts with two dots is inside');
  assert.equal(displayPath('/w/repo/src/a.ts', '/w/repo', '/home/u'), 'src/a.ts');
  assert.equal(displayPath('/w/repo', '/w/repo', '/home/u'), '.');
  assert.equal(displayPath('/home/u/.claude/CLAUDE.md', '/w/repo', '/home/u'), '~/.claude/CLAUDE.md');
});
