// Reading shipped skills' descriptions out of a Claude Code binary's embedded JavaScript: literals,
// constants defined before the registration, conditionals, whenToUse, and nothing of another length.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findDescription, parseLiteral, readShippedDescriptions } from '../../../src/host/workspace/shipped-skills.js';

test('string literals: quotes, escapes, templates without substitutions; none with ${}', () => {
  assert.equal(parseLiteral(String.raw`x="a\"b\u2014c\n"`, 2), 'a"b\u2014c\n');
  assert.equal(parseLiteral("'it\\'s'", 0), "it's");
  assert.equal(parseLiteral('`two\nlines`', 0), 'two\nlines');
  assert.equal(parseLiteral('`a${b}`', 0), undefined);
  assert.equal(parseLiteral('"unterminated', 0), undefined);
});

test('a registration with a literal, a constant name and description, a getter, whenToUse', () => {
  const js = [
    'var Q="dataviz",z="Charts and plots.";function f(){rc({name:Q,menuDescription:"m",description:z,userInvocable:!0})}',
    'rc({name:"run",description:"Launch the app",isEnabled:x});',
    'x={type:"prompt",name:"init",get description(){return s.NEW?"New init, longer text":"Init"},y:1}',
    'rc({name:"code-review",description:d,whenToUse:w}),d="Review",w="when asked";',
  ].join('\n');
  assert.equal(findDescription(js, 'dataviz', 17), 'Charts and plots.');
  assert.equal(findDescription(js, 'run', 14), 'Launch the app');
  assert.equal(findDescription(js, 'init', 4), 'Init');
  assert.equal(findDescription(js, 'init', 21), 'New init, longer text');
  assert.equal(findDescription(js, 'run', 15), undefined, 'another length: not taken');
  assert.equal(findDescription(js, 'code-review', 18), undefined, 'constants defined after the registration are not guessed');
  const js2 = 'var d="Review",w="when asked";rc({name:"code-review",description:d,whenToUse:w})';
  assert.equal(findDescription(js2, 'code-review', 19), 'Review - when asked');
});

test('the file is read in chunks; what is not found is named', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-shipped-'));
  try {
    const f = path.join(dir, 'claude');
    fs.writeFileSync(f, Buffer.concat([Buffer.alloc(1000, 0), Buffer.from('rc({name:"loop",description:"Run a prompt on an interval — repeatedly"})'), Buffer.alloc(1000, 0)]));
    const r = await readShippedDescriptions(f, [{ name: 'loop', chars: 40 }, { name: 'dataviz', chars: 10 }]);
    assert.deepEqual(r.texts, { loop: 'Run a prompt on an interval — repeatedly' });
    assert.deepEqual(r.missing, ['dataviz']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
