// Every output format escapes control characters, with one function per format (src/cli/escape.ts),
// tested on the same hostile names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { githubData, githubProp, jsonText, safe } from '../../src/cli/escape.js';
import { formatGithub, formatJson, formatSarif, formatText, type LintReport } from '../../src/cli/lint-format.js';
import { makeStyle } from '../../src/cli/style.js';

/** every character a terminal acts on: C0 (ESC, BEL, CR...), DEL, C1 (U+009B is a one-character CSI) */
const HOSTILE = ['ev\u001b]0;pwned\u0007il', 'csi\u009b2J', 'del\u007f', 'bs\u0008', 'cr\rline', 'nul\u0000', 'c1\u0085\u0090\u009f', 'nl\nx', 'tab\tx'];
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

test('text: safe() leaves no control character and shows each as \\xNN', () => {
  for (const h of HOSTILE) assert.doesNotMatch(safe(h), RAW, JSON.stringify(h));
  assert.equal(safe('a\u001bb\u009bc\u007f'), 'a\\x1bb\\x9bc\\x7f');
});

test('json: jsonText() escapes C0 (JSON does), DEL and C1 (JSON.stringify leaves them raw) and stays the same JSON', () => {
  for (const h of HOSTILE) {
    const out = jsonText({ name: h });
    assert.doesNotMatch(out, RAW, JSON.stringify(h));
    assert.deepEqual(JSON.parse(out), { name: h }, 'parses back to the same value');
  }
  assert.match(jsonText('\u001b\u009b'), /\\u001b\\u009b/);
  assert.match(JSON.stringify('\u009b'), /\u009b/, 'JSON.stringify alone leaves C1 raw');
});

test('github: data and properties carry no control character and no unescaped newline, % or property separator', () => {
  for (const h of HOSTILE) {
    assert.doesNotMatch(githubData(h), RAW);
    assert.doesNotMatch(githubData(h), /\n|\r/);
    assert.doesNotMatch(githubProp(h + ':,'), /[:,]/);
  }
  assert.equal(githubData('50%\nx'), '50%25%0Ax');
});

test('lint formats: hostile paths, rules and messages reach no output raw', () => {
  const r: LintReport = {
    tool: { name: 'claude-layers', version: '0' }, claudeVersion: '2.1.332', cwd: '/w', home: '/h', failOn: 'error', filesScanned: 1, exitCode: 1,
    diagnostics: HOSTILE.map((h, i) => ({ path: `/w/${h}.md`, line: i + 1, severity: 'error' as const, rule: 'glob-matches-nothing', message: `message ${h}` })),
  };
  for (const [name, out] of [['text', formatText(r, makeStyle(false))], ['json', formatJson(r)], ['sarif', formatSarif(r)], ['github', formatGithub(r, '/w')]] as const) {
    assert.doesNotMatch(out.replace(/\n/g, ''), RAW, name);
    if (name === 'github') for (const line of out.trimEnd().split('\n').slice(0, -1)) assert.match(line, /^::error file=[^:]*,line=\d+,title=[^:]*::/, 'one annotation per line, none retitled');
  }
});
