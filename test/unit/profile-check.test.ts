// The parsers of scripts/profile-check.ts: the failing scenarios of a TAP stream with their two texts, and the
// draft profile entry for each known kind of difference, on outputs of the real measurement scripts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseProfile } from '../../src/engine/index.js';
import { draftFixedSizes, draftModels, draftReserved, draftWidths, tapResults } from '../../scripts/profile-check.js';

const P = chooseProfile('2.1.332').profile;

test('profile:check: failing subtests with the first lines of their difference, not the next subtest', () => {
  const tap = [
    '    # Subtest: sk_a @ 2.1.333',
    '    ok 1 - sk_a @ 2.1.333',
    '    # Subtest: sk_b @ 2.1.333',
    '    not ok 2 - sk_b @ 2.1.333',
    '      ---',
    '      error: |-',
    '        skills listing: entry 11 (r011) differs:',
    '        - "- r012: MK clear"',
    '        + "- r011: MK claude-api"',
    '    # Subtest: sk_c @ 2.1.333',
    '    ok 3 - sk_c @ 2.1.333 # SKIP needs root',
  ].join('\n');
  const r = tapResults(tap);
  assert.deepEqual([r.pass, r.fail, r.skip], [1, 1, 1]);
  assert.equal(r.failures.length, 1);
  assert.match(r.failures[0]!, /^sk_b @ 2\.1\.333\n {6}skills listing: entry 11 \(r011\) differs:/);
  assert.match(r.failures[0]!, /MK clear[\s\S]*MK claude-api/);
  assert.doesNotMatch(r.failures[0]!, /sk_c/);
});

test('profile:check drafts: fixed sizes, widths, models, reserved and protected names', () => {
  assert.deepEqual(draftFixedSizes('# 2.1.340: measured {"system":5090,"tools":35100,"messages":4050,"defaultSkillsListing":6275}, profile {"system":5083,"tools":35031,"messages":4044,"defaultSkillsListing":6275}', P).lines, [
    'request: { ...PREV.request, tools: 35100 }, // measured (fixed-sizes.test.ts); profile had tools 35031',
  ]);
  assert.deepEqual(draftFixedSizes('# 2.1.340: measured {"system":5083,"tools":35031,"messages":4044,"defaultSkillsListing":6275}, profile {"system":5083,"tools":35031,"messages":4044,"defaultSkillsListing":6275}', P).lines, []);
  const w = draftWidths('2.1.340 loop: 350 (profile 344 DIFFERS; 3 runs)\n2.1.340 run: 368 (profile 368; 2 runs)\n', P).lines;
  assert.equal(w.length, 1);
  assert.match(w[0]!, /^skills\.bundled: .*"loop": \{ width: 350, descriptionChars: 342 \}/);
  const m = draftModels('2.1.340 --model opus: request model claude-opus-6 (profile 2.1.332: claude-opus-5-5), budget 30000: whole at 30000, demotes at 30001  DIFFERS\n2.1.340 --model (none): request model claude-opus-6 (profile 2.1.332: claude-opus-5-5), budget 30000: whole at 30000, demotes at 30001  DIFFERS\n', P).lines;
  assert.deepEqual(m.map((l) => l.split(',')[0]), ['models.aliases["opus"]: "claude-opus-6"', 'models.defaultModel: "claude-opus-6"']);
  const r = draftReserved('not in profile 2.1.332: ["newcmd"]\nin profile 2.1.332, not reserved: ["bug"]\nnot listed at all, not protected in profile 2.1.332: ["claude-api","workflow-authoring"]\nprotected in profile 2.1.332, listed: []\n', P).lines;
  assert.match(r[0]!, /^skills\.reservedNames: \[\.\.\.PREV\.skills\.reservedNames\.filter\(\(n\) => !\["bug"\]\.includes\(n\)\), \.\.\.\["newcmd"\]\]\.sort\(\)/);
  assert.match(r[1]!, /^skills\.protectedNames: \[\.\.\.PREV\.skills\.protectedNames, \.\.\.\["claude-api","workflow-authoring"\]\]/);
});
