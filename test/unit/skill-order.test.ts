// compareSkillNames orders names as an en-US Intl.Collator does, without building one for plain names
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareSkillNames } from '../../src/engine/skills/discover.js';
import { prng } from '../../bench/generate.js';

const sign = (x: number) => Math.sign(x);

test('plain names (lowercase letters, digits, hyphens) are ordered exactly as the en-US collator orders them', () => {
  const collator = new Intl.Collator('en-US');
  const r = prng(5);
  const alphabet = 'abcxyz0189-';
  const names = ['', 'a', 'a-', 'a-b', 'ab', 'a0', 'a9', '0', '-', '--', 'pdf', 'code-review', 'codex', 'code', 'code1', 'z-9', 'z9-'];
  for (let i = 0; i < 600; i++) names.push(Array.from({ length: 1 + Math.floor(r() * 6) }, () => alphabet[Math.floor(r() * alphabet.length)]).join(''));
  let pairs = 0;
  for (const a of names)
    for (const b of names.slice(0, 120)) {
      assert.equal(sign(compareSkillNames(a, b)), sign(collator.compare(a, b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
      pairs++;
    }
  assert.ok(pairs > 70_000);
});

test('other names go to the collator', () => {
  const collator = new Intl.Collator('en-US');
  const names = ['Apple', 'apple', 'b_c', 'b-c', 'bc', 'éclair', 'eclair', 'Zed', 'z', '数据', 'a.b', 'A-b'];
  for (const a of names) for (const b of names) assert.equal(sign(compareSkillNames(a, b)), sign(collator.compare(a, b)), `${a} vs ${b}`);
  // where the collator and code units disagree, the collator wins
  assert.ok(compareSkillNames('apple', 'Banana') < 0 && 'apple' > 'Banana');
});
