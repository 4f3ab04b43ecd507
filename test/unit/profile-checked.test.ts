// Every profile's `checked` (what the fallback note says last passed on the nearest profile) must be the
// scenarios the conformance suites hold for that version: `npm test` runs them all, so the counts are what
// passed. A scenario added to a suite, or a version a scenario leaves out, changes the figures here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHECKED_SUITES, PROFILES } from '../../src/engine/index.js';
import { scenarios } from '../conformance/scenarios/index.js';
import { memorySkillScenarios } from '../conformance/memory-skills/scenarios.js';
import { sessionScenarios } from '../conformance/session/scenarios.js';
import { VERSIONS } from '../conformance/scenario.js';

const runsOn = (v: string) => (s: { versions?: readonly string[] }) => !s.versions || s.versions.includes(v);

/** profiles of releases measured once with `npm run profile:check -- V` and left out of the suites' VERSIONS (a newer
 *  release followed at once); their `checked` is what that run passed */
const MEASURED_ONCE = ['2.1.334', '2.1.335'];

test('profiles: every supported version has a profile of its own, every other profile was measured once', () => {
  assert.deepEqual(PROFILES.map((p) => p.version).sort(), [...VERSIONS, ...MEASURED_ONCE].sort());
});

test('profiles: checked counts are the scenarios each suite runs on the version', () => {
  for (const p of PROFILES) {
    const v = p.version;
    const want = { instructions: scenarios.filter(runsOn(v)).length, 'memory-skills': memorySkillScenarios.filter(runsOn(v)).length, sessions: sessionScenarios.filter(runsOn(v)).length, 'fixed-sizes': 1 };
    assert.deepEqual(Object.keys(p.checked.suites).sort(), [...CHECKED_SUITES].sort(), v);
    assert.deepEqual(p.checked.suites, want, `${v}: update checked in src/engine/profiles.ts (the suites changed)`);
    assert.match(p.checked.on, /^\d{4}-\d\d-\d\d$/);
  }
});
