// The one model table (profile.models): what the engine, the CLI gauges and the editor all read.
// Figures measured with test/conformance/memory-skills/measure-models.ts (request model per alias,
// listing budget per model by demotion at budget and budget + 1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseProfile, modelFacts, PROFILES } from '../../src/engine/index.js';

const P = (v: string) => chooseProfile(v).profile;
const facts = (m: string, v: string) => {
  const f = modelFacts(m, P(v));
  return [f.resolved, f.contextWindow, f.bytesPerToken, f.measured];
};

test('model table: the figures the three tables used to disagree on', () => {
  // claude-sonnet-4-20250514 is claude-sonnet-4-0: 4 chars per token, 200k (measured budget 8,000 on every version)
  for (const p of PROFILES) assert.deepEqual(facts('claude-sonnet-4-20250514', p.version), ['claude-sonnet-4-20250514', 200_000, 4, true]);
  // fable, best and claude-opus-4-1 on 2.1.328 and 2.1.332: 1M × 3 (measured budget 30,000)
  for (const v of ['2.1.328', '2.1.332']) {
    assert.deepEqual(facts('fable', v), ['claude-fable-5-2', 1_000_000, 3, true]);
    assert.deepEqual(facts('best', v), ['claude-opus-5-5', 1_000_000, 3, true]);
    assert.deepEqual(facts('claude-opus-4-1', v), ['claude-opus-5-5', 1_000_000, 3, true]);
  }
  // 2.1.235: Claude 5 ids without [1m] get 200k (measured budget 6,000)
  assert.deepEqual(facts('fable', '2.1.235'), ['claude-fable-5', 200_000, 3, true]);
  assert.deepEqual(facts('claude-opus-5[1m]', '2.1.235'), ['claude-opus-5[1m]', 1_000_000, 3, true]);
  assert.deepEqual(facts('haiku', '2.1.235'), ['claude-haiku-4-5-20251001', 200_000, 4, true]);
  assert.deepEqual(facts('claude-sonnet-4-5[1m]', '2.1.332'), ['claude-sonnet-4-5[1m]', 1_000_000, 4, true]);
  // opusplan outside plan mode runs the sonnet model
  assert.equal(modelFacts('opusplan', P('2.1.332')).resolved, 'claude-sonnet-5-5');
});

test('model table: an unknown id is predicted with the default window and said to be unmeasured', () => {
  assert.deepEqual(facts('my-custom-model', '2.1.332'), ['my-custom-model', 1_000_000, 3, false]);
  assert.deepEqual(facts('my-custom-model', '2.1.235'), ['my-custom-model', 200_000, 3, false]);
});

test('model table: every profile has a default model, the usual aliases and measured fixed request sizes', () => {
  for (const p of PROFILES) {
    assert.ok(modelFacts(p.models.defaultModel, p).measured, p.version);
    for (const a of ['opus', 'sonnet', 'haiku', 'default']) assert.ok(a in p.models.aliases, `${p.version} ${a}`);
    for (const [k, n] of Object.entries(p.request)) assert.ok(Number.isInteger(n) && n > 0, `${p.version} request.${k}`);
  }
});

test('profile choice: a version without a profile is said plainly, the version asked for is what is shown', () => {
  const newest = PROFILES[PROFILES.length - 1]!.version;
  assert.deepEqual(chooseProfile('2.1.340'), { profile: P(newest), requested: '2.1.340', exact: false, shown: '2.1.340', note: `2.1.340: no profile yet; using ${newest}'s; \`claude-layers verify\` checks it against the installed claude`, fallback: { why: 'newer', requested: '2.1.340', using: newest } });
  for (const p of PROFILES) {
    const c = chooseProfile(` ${p.version} `);
    assert.deepEqual([c.profile.version, c.exact, c.shown, c.note], [p.version, true, p.version, undefined]);
  }
  assert.equal(chooseProfile('2.1.332 (Claude Code)').exact, true);
  assert.equal(chooseProfile('2.1.300').note, "2.1.300: no profile yet; using 2.1.235's; `claude-layers verify` checks it against the installed claude");
  assert.equal(chooseProfile('2.1.300').note!.match(/claude-layers verify/g)?.length, 1);
  assert.match(chooseProfile('2.0.1').note!, /^2\.0\.1: no profile \(older than every profile\); using 2\.1\.235's/);
  const bad = chooseProfile('latest');
  assert.deepEqual([bad.profile.version, bad.exact, bad.shown], [newest, false, newest]);
  assert.match(bad.note!, /"latest" is not a Claude Code version/);
  assert.deepEqual([chooseProfile(undefined).shown, chooseProfile(undefined).note], [newest, undefined]);
});
