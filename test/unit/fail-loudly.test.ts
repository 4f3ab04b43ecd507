// A crashing check is a finding, not a footnote: an `error` (so `lint --fail-on error` fails) with its
// stack for `--verbose`; a text secretlint cannot scan is reported by its own file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFailed, guard, severityRank } from '../../src/engine/checks/index.js';
import { scanSecrets } from '../../src/engine/checks/secrets.js';
import { verboseDetails } from '../../src/cli/lint-command.js';
import type { Diagnostic } from '../../src/engine/index.js';

test('a check that throws becomes an error finding with the stack as detail; the others still run', () => {
  const sink: Diagnostic[] = [];
  const got = guard('glob', 'fallback', sink, () => {
    throw new Error('boom');
  });
  assert.equal(got, 'fallback');
  assert.equal(sink.length, 1);
  const d = sink[0]!;
  assert.deepEqual([d.severity, d.rule], ['error', 'check-failed']);
  assert.match(d.message, /^the glob check crashed and was skipped: boom/);
  assert.match(d.detail!, /^Error: boom\n\s+at /);
  assert.ok(severityRank(d.severity) <= severityRank('error'), 'lint --fail-on error fails on it');
  assert.equal(guard('x', 0, sink, () => 42), 42);
  assert.equal(sink.length, 1);
  // a thrown non-Error has no stack, and says what it was
  assert.deepEqual(checkFailed('memory', 'odd', '/w/MEMORY.md'), { path: '/w/MEMORY.md', severity: 'error', rule: 'check-failed', message: 'the memory check crashed and was skipped for this file: odd (a bug in claude-layers; the other checks ran)' });
});

test('--verbose prints each crash with its stack, control characters escaped', () => {
  const d = checkFailed('skills', new Error('bad\u001b[31m'));
  const out = verboseDetails([{ path: '/a', severity: 'info', rule: 'x', message: 'no detail' }, { ...d, path: '/w/\u0007x.md' }]);
  assert.match(out, /^check-failed \/w\/\\x07x\.md: the skills check crashed and was skipped: bad\\x1b\[31m/);
  assert.match(out, /\n {4}at /);
  assert.ok(!/no detail/.test(out));
  assert.equal(verboseDetails([]), '');
});

test('secretlint failing on one text: an error on that file, the other texts still scanned', async () => {
  // content that is not text makes secretlint itself throw on that source
  const bad = { path: '/w/bad.md', content: { length: 3 } as unknown as string, how: 'startup' };
  const good = { path: '/w/good.md', content: 'token ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8', how: 'startup' };
  const ds = await scanSecrets([bad, good]);
  const fail = ds.find((x) => x.rule === 'check-failed');
  assert.ok(fail, JSON.stringify(ds));
  assert.deepEqual([fail.path, fail.severity], ['/w/bad.md', 'error']);
  assert.match(fail.message, /^the secrets check crashed on this text \(startup\) and did not scan it: /);
  assert.ok(ds.some((x) => x.rule === 'likely-secret' && x.path === '/w/good.md'), 'the next text is still scanned');
});
