// A short run of `npm run fuzz` (scripts/fuzz.ts) inside the suite: random workspaces through the
// engine and every output format, seeded (FUZZ_SEED, default a fixed one), for FUZZ_SECONDS
// (default 20). Any throw, hang or raw control character fails with the seed to reproduce it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runFuzz } from '../../scripts/fuzz.js';

const SECONDS = Number(process.env.FUZZ_SECONDS ?? 20);
const SEED = Number(process.env.FUZZ_SEED ?? 20261201);

test(`fuzz: ${SECONDS} s of random workspaces from seed ${SEED}: no throw, no hang, no raw control character`, { timeout: (SECONDS + 60) * 1000 }, async () => {
  const r = await runFuzz({ seconds: SECONDS, seed: SEED, caseTimeoutMs: 15_000 });
  console.log(`# fuzz: ${r.cases} cases in ${(r.ms / 1000).toFixed(1)} s, slowest seed ${r.slowest.seed} (${r.slowest.ms} ms)`);
  assert.ok(r.cases >= 10, `only ${r.cases} cases ran`);
  assert.deepEqual(r.failures.map((f) => `${f.kind} seed=${f.seed}: ${f.detail} (npm run fuzz -- --seed ${f.seed} --cases 1)`), []);
});
