// claudeLayers.lint.severity: the user's severity per rule, "off" leaves a rule out, unknown words are ignored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applySeverity, parseSeverityOverrides } from '../../../src/host/editor/severity.js';
import type { Diagnostic } from '../../../src/engine/index.js';

const d = (rule: string, severity: Diagnostic['severity']): Diagnostic => ({ path: '/w/x.md', line: 2, rule, severity, message: rule });

test('the setting maps rule ids to severities; unknown words and non-strings are ignored', () => {
  const o = parseSeverityOverrides({ 'glob-matches-nothing': 'Error', 'frontmatter-key-ignored': 'off', 'large-file': 'information', x: 3, y: 'loud' });
  assert.deepEqual([...o], [['glob-matches-nothing', 'error'], ['frontmatter-key-ignored', 'off'], ['large-file', 'info']]);
  assert.equal(parseSeverityOverrides(['error']).size, 0);
  assert.equal(parseSeverityOverrides(undefined).size, 0);
});

test('overrides change the severity, "off" drops the finding, other rules keep theirs', () => {
  const ds = [d('glob-matches-nothing', 'warning'), d('frontmatter-key-ignored', 'warning'), d('memory-over-budget', 'error')];
  const out = applySeverity(ds, parseSeverityOverrides({ 'glob-matches-nothing': 'error', 'frontmatter-key-ignored': 'off' }));
  assert.deepEqual(out.map((x) => `${x.severity} ${x.rule}`), ['error glob-matches-nothing', 'error memory-over-budget']);
  assert.equal(ds[0]!.severity, 'warning', 'the engine finding itself is not changed');
  assert.equal(applySeverity(ds, new Map()), ds);
});
