import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { grouped } from '../../src/engine/diagnostics.js';

test('grouped writes integers as toLocaleString("en-US") does', () => {
  const cases = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 9999, 12345, 100000, 999999, 1000000, 1234567, 25000, 200000, Number.MAX_SAFE_INTEGER];
  for (let k = 1; k < 1e15; k = k * 7 + 3) cases.push(k);
  for (const n of [...cases, ...cases.map((x) => -x).filter((x) => x !== 0)]) assert.equal(grouped(n), n.toLocaleString('en-US'), String(n));
});

test('grouped leaves what is not a safe integer to toLocaleString', () => {
  for (const n of [1.5, 1234.5678, 2 ** 60, Infinity, NaN]) assert.equal(grouped(n), n.toLocaleString('en-US'));
});
