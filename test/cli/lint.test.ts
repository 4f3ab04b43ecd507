// `claude-layers lint` as a process: the demo's planted problems, every format (SARIF validated
// against the published 2.1.0 schema), every exit code, and each workspace check on its own tree.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTree, type Node } from '../helpers/fixture.js';
import { ANSI, assertNoStack, demo, lintJson, run, type JsonDiagnostic } from './helpers.js';
import { validateSarif } from './sarif-schema.js';

/** a git repository `repo/` with an empty HOME and managed folder beside it */
function workspace(files: Record<string, Node>) {
  const t = makeTree({ 'repo/.git/HEAD': 'ref: refs/heads/main\n', 'home/.keep': '', 'managed/.keep': '', ...files });
  return { ...t, flags: ['--cwd', t.p('repo'), '--home', t.p('home'), '--managed-dir', t.p('managed')] };
}

const rules = (ds: JsonDiagnostic[]) => ds.map((d) => `${d.severity} ${d.rule} ${path.basename(d.path)}${d.line ? `:${d.line}` : ''}`);

describe('lint on the demo', () => {
  let d: Awaited<ReturnType<typeof demo>>;
  before(async () => {
    d = await demo();
  });
  after(() => d.cleanup());

  test('text: the planted problems, exit 1', () => {
    const r = run(['lint', ...d.flags]);
    assertNoStack(r);
    assert.equal(r.code, 1);
    assert.doesNotMatch(r.stdout, ANSI);
    assert.match(r.stdout, /^\.claude\/rules\/legacy\.md:2 {2}warning {2}glob-matches-nothing {2}paths "lib\/legacy\/\*\*" matches no file in the workspace: this rule never loads$/m);
    assert.match(r.stdout, /^\.claude\/rules\/testing\.md:2 {2}warning {2}frontmatter-key-ignored {2}"globs:" is not read by Claude Code/m);
    assert.match(r.stdout, /MEMORY\.md:201 {2}error {4}memory-over-budget {2}MEMORY\.md is 228 lines \(limit 200\).*Gateway retry policy \(gateway-retry\.md\)/);
    assert.match(r.stdout, /1 error, 2 warnings, 0 info in .*fail-on error: exit 1\)$/m);
  });

  test('json: the same findings with file, line, rule and severity', () => {
    const { code, diagnostics, json } = lintJson(d.flags);
    assert.equal(code, 1);
    assert.deepEqual(rules(diagnostics).sort(), ['error memory-over-budget MEMORY.md:201', 'warning frontmatter-key-ignored testing.md:2', 'warning glob-matches-nothing legacy.md:2']);
    assert.deepEqual(json.counts, { error: 1, warning: 2, info: 0 });
    assert.equal(json.exitCode, 1);
    for (const x of diagnostics) assert.ok(path.isAbsolute(x.path));
  });

  test('sarif: valid against the SARIF 2.1.0 schema, one result per finding', () => {
    const r = run(['lint', ...d.flags, '--format', 'sarif']);
    assert.equal(r.code, 1);
    const doc = JSON.parse(r.stdout) as { runs: { results: { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region?: { startLine: number } } }[] }[] }[] };
    const v = validateSarif(doc);
    assert.ok(v.ok, v.errors);
    const results = doc.runs[0]!.results;
    assert.equal(results.length, 3);
    const legacy = results.find((x) => x.ruleId === 'glob-matches-nothing')!;
    assert.equal(legacy.level, 'warning');
    assert.deepEqual(legacy.locations[0]!.physicalLocation, { artifactLocation: { uri: '.claude/rules/legacy.md', uriBaseId: 'PROJECTROOT' }, region: { startLine: 2 } });
    const mem = results.find((x) => x.ruleId === 'memory-over-budget')!;
    assert.match(mem.locations[0]!.physicalLocation.artifactLocation.uri, /^file:\/\/\/.*\/memory\/MEMORY\.md$/, 'outside the workspace: an absolute file URI');
  });

  test('github: workflow annotations', () => {
    const r = run(['lint', ...d.flags, '--format', 'github'], { cwd: d.repo });
    assert.equal(r.code, 1);
    const lines = r.stdout.trim().split('\n');
    assert.ok(lines.includes('::warning file=.claude/rules/legacy.md,line=2,title=claude-layers glob-matches-nothing::paths "lib/legacy/**" matches no file in the workspace: this rule never loads'), r.stdout);
    assert.ok(lines.some((l) => /^::warning file=\.claude\/rules\/testing\.md,line=2,title=claude-layers frontmatter-key-ignored::/.test(l)));
    assert.match(lines.at(-1)!, /^claude-layers lint: 1 error, 2 warnings/);
  });

  test('--fail-on: only findings at or above it fail', () => {
    const w = workspace({ 'repo/.claude/rules/dead.md': '---\npaths: ["nowhere/**"]\n---\nnever', 'repo/CLAUDE.md': 'fine' });
    try {
      assert.deepEqual(rules(lintJson(w.flags).diagnostics), ['warning glob-matches-nothing dead.md:2']);
      assert.equal(run(['lint', ...w.flags]).code, 0, 'a warning does not fail by default');
      assert.equal(run(['lint', ...w.flags, '--fail-on', 'error']).code, 0);
      assert.equal(run(['lint', ...w.flags, '--fail-on', 'warning']).code, 1);
      assert.equal(run(['lint', ...w.flags, '--fail-on', 'info']).code, 1);
    } finally {
      w.cleanup();
    }
    const info = workspace({ 'repo/CLAUDE.md': 'x'.repeat(40_000) });
    try {
      assert.deepEqual(rules(lintJson(info.flags).diagnostics), ['info large-file CLAUDE.md']);
      assert.equal(run(['lint', ...info.flags, '--fail-on', 'warning']).code, 0);
      assert.equal(run(['lint', ...info.flags, '--fail-on', 'info']).code, 1);
    } finally {
      info.cleanup();
    }
  });
});

describe('lint on a clean workspace', () => {
  test('exit 0 in every format, SARIF still valid', () => {
    const w = workspace({ 'repo/CLAUDE.md': 'Use pnpm.', 'repo/src/a.ts': 'x', 'repo/.claude/rules/ts.md': '---\npaths: "src/**/*.ts"\n---\nTS' });
    try {
      const text = run(['lint', ...w.flags]);
      assert.equal(text.code, 0, text.stdout);
      assert.match(text.stdout, /^No findings\. 0 errors, 0 warnings, 0 info/m);
      assert.equal(lintJson(w.flags).code, 0);
      const sarif = run(['lint', ...w.flags, '--format', 'sarif']);
      assert.equal(sarif.code, 0);
      const v = validateSarif(JSON.parse(sarif.stdout));
      assert.ok(v.ok, v.errors);
      const gh = run(['lint', ...w.flags, '--format', 'github']);
      assert.equal(gh.code, 0);
      assert.doesNotMatch(gh.stdout, /^::/m);
    } finally {
      w.cleanup();
    }
  });
});

describe('workspace checks', () => {
  test('rule-like files not ending in .md, wrongly cased names', () => {
    const w = workspace({
      'repo/CLAUDE.md': 'root',
      'repo/.claude/rules/UP.MD': 'upper',
      'repo/.claude/rules/x.markdown': 'markdown',
      'repo/.claude/RULES/a.md': 'a',
      'repo/.Claude/CLAUDE.md': 'dot',
      'repo/pkg/Claude.md': 'nested',
      'repo/pkg/claude.local.md': 'local',
    });
    try {
      const got = rules(lintJson(w.flags).diagnostics).sort();
      assert.deepEqual(got, [
        'error wrong-case-name .Claude',
        'error wrong-case-name Claude.md',
        'error wrong-case-name RULES',
        'error wrong-case-name claude.local.md',
        'warning rule-not-md UP.MD',
        'warning rule-not-md x.markdown',
      ]);
    } finally {
      w.cleanup();
    }
  });

  test('globs:/Paths: instead of paths:, paths: in CLAUDE.md, invalid frontmatter (also in nested, lazily loaded files)', () => {
    const w = workspace({
      'repo/src/a.ts': 'x',
      'repo/.claude/rules/g.md': '---\nglobs: src/**\n---\nG',
      'repo/.claude/rules/cap.md': '---\nPaths: ["src/**"]\n---\nC',
      'repo/.claude/rules/both.md': '---\npaths: src/**\nglobs: src/**\n---\nB',
      'repo/CLAUDE.md': '---\npaths: src/**\n---\nroot',
      'repo/pkg/.claude/rules/bad.md': '---\npaths: [unclosed\n  - : :\n---\nBAD',
      'repo/pkg/x.ts': 'x',
    });
    try {
      const got = rules(lintJson(w.flags).diagnostics).sort();
      assert.deepEqual(got, [
        'info frontmatter-key-ignored both.md:3',
        'warning frontmatter-key-ignored cap.md:2',
        'warning frontmatter-key-ignored g.md:2',
        'warning invalid-frontmatter bad.md:1',
        'warning paths-ignored CLAUDE.md:2',
      ]);
    } finally {
      w.cleanup();
    }
  });

  test('globs that match nothing, in the root and in a nested package; git-ignored matches only warn', () => {
    const w = workspace({
      'repo/.gitignore': 'build/\n',
      'repo/src/a.ts': 'x',
      'repo/build/out.js': 'x',
      'repo/.claude/rules/dead.md': '---\npaths: "lib/**"\n---\nD',
      'repo/.claude/rules/half.md': '---\npaths: ["src/**/*.ts", "docs/**/*.md"]\n---\nH',
      'repo/.claude/rules/ignored.md': '---\npaths: "build/**"\n---\nI',
      'repo/.claude/rules/fine.md': '---\npaths: "**/*.ts"\n---\nF',
      'repo/pkg/.claude/rules/nested.md': '---\npaths: "src/**"\n---\nN',
      'repo/pkg/other/b.ts': 'x', // (a "lib/**" rule would match pkg/lib/: a pattern without inner slash matches at any depth)
    });
    try {
      const ds = lintJson(w.flags).diagnostics;
      assert.deepEqual(rules(ds).sort(), ['warning glob-matches-nothing dead.md:2', 'warning glob-matches-nothing half.md:2', 'warning glob-matches-nothing ignored.md:2', 'warning glob-matches-nothing nested.md:2']);
      assert.match(ds.find((x) => x.path.endsWith('nested.md'))!.message, /no file in pkg\/.*relative to pkg\//);
      assert.match(ds.find((x) => x.path.endsWith('half.md'))!.message, /pattern "docs\/\*\*\/\*\.md" matches no file/);
      assert.match(ds.find((x) => x.path.endsWith('ignored.md'))!.message, /\(only git-ignored files match, such as build\/out\.js\): this rule never loads/);
    } finally {
      w.cleanup();
    }
  });

  test('BOM before frontmatter: a warning on 2.1.235, advice on 2.1.328', () => {
    const w = workspace({ 'repo/src/a.ts': 'x', 'repo/.claude/rules/bom.md': '\uFEFF---\npaths: "src/**"\n---\nBOM' });
    try {
      assert.deepEqual(rules(lintJson(w.flags, ['--claude-version', '2.1.235']).diagnostics), ['warning bom-before-frontmatter bom.md:1']);
      assert.deepEqual(rules(lintJson(w.flags, ['--claude-version', '2.1.328']).diagnostics), ['info bom-before-frontmatter bom.md:1']);
    } finally {
      w.cleanup();
    }
  });

  test('files over 4 MiB (skipped) and of 40,000 characters (advice), also when they load only lazily', () => {
    const w = workspace({ 'repo/CLAUDE.md': 'root', 'repo/pkg/CLAUDE.md': 'y'.repeat(41_000), 'repo/pkg/a.ts': 'x' });
    fs.mkdirSync(w.p('repo/big'), { recursive: true });
    fs.writeFileSync(w.p('repo/big/CLAUDE.md'), Buffer.alloc(4 * 1024 * 1024 + 1, 0x61));
    try {
      assert.deepEqual(rules(lintJson(w.flags).diagnostics).sort(), ['error over-4mib CLAUDE.md', 'info large-file CLAUDE.md']);
      const ds = lintJson(w.flags).diagnostics;
      assert.ok(ds.find((x) => x.rule === 'over-4mib')!.path.endsWith('big/CLAUDE.md'));
      assert.ok(ds.find((x) => x.rule === 'large-file')!.path.endsWith('pkg/CLAUDE.md'));
    } finally {
      w.cleanup();
    }
  });

  test('--verbose prints the time of each phase to stderr, in order, and nothing without it', () => {
    const w = workspace({ 'repo/CLAUDE.md': 'root', 'repo/pkg/CLAUDE.md': 'pkg', 'repo/pkg/a.ts': 'x' });
    try {
      const verbose = run(['lint', ...w.flags, '--verbose']);
      const m = /^phases \(ms\): (.*)$/m.exec(verbose.stderr);
      assert.ok(m, verbose.stderr);
      assert.deepEqual(m[1]!.split(', ').map((x) => x.replace(/ [\d.]+$/, '')), ['index the workspace', 'analyze', 'inventory', 'file checks', 'globs', 'mcp', 'touches', 'secrets']);
      assert.equal(run(['lint', ...w.flags]).stderr, '');
    } finally {
      w.cleanup();
    }
  });

  test('includes dropped by nested files are reported (found through a session touch)', () => {
    const w = workspace({ 'repo/CLAUDE.md': 'root', 'repo/pkg/CLAUDE.md': 'see @../../outside.md and @missing.md', 'repo/pkg/a.ts': 'x', 'outside.md': 'out' });
    try {
      const got = rules(lintJson(w.flags).diagnostics).sort();
      assert.deepEqual(got, ['error include-outside-cwd CLAUDE.md:1', 'warning include-missing CLAUDE.md:1']);
    } finally {
      w.cleanup();
    }
  });

  test('likely secrets in text that reaches the request, masked; not in stripped comments; --no-secrets', () => {
    // fake credentials are assembled at run time so that no scanner flags this source file
    const gh = 'ghp_' + 'R8x2Lq9ZtV4mWc7Ka1Jd5Nf3Hp6Ys0Ub2Ge8';
    const pem = ['-----BEGIN RSA PRIVATE KEY-----', 'MIIEowIBAAKCAQEA' + 'q'.repeat(48), 'r'.repeat(64), '-----END RSA PRIVATE KEY-----'].join('\n');
    const w = workspace({
      'repo/CLAUDE.md': `Deploy token: ${gh}\n\n<!--\nold token ${'ghp_' + 'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8'}\n-->\n`,
      'repo/pkg/CLAUDE.md': `# pkg\n\n${pem}\n`,
      'repo/pkg/a.ts': 'x',
      'repo/.claude/rules/db.md': '---\npaths: "src/**"\n---\npassword: Sup3rS3cretValue!\n',
      'repo/src/x.ts': 'x',
      'repo/notes.md': `not an instruction file: ${gh}`,
    });
    try {
      const ds = lintJson(w.flags).diagnostics.filter((x) => x.rule === 'likely-secret');
      assert.deepEqual(ds.map((x) => `${path.relative(w.p('repo'), x.path)}:${x.line}`).sort(), ['.claude/rules/db.md:4', 'CLAUDE.md:1', 'pkg/CLAUDE.md:3']);
      for (const x of ds) {
        assert.equal(x.severity, 'error');
        assert.ok(!x.message.includes(gh) && !x.message.includes('Sup3rS3cretValue') && !x.message.includes('MIIEow'), `masked: ${x.message}`);
      }
      assert.match(ds.find((x) => x.path.endsWith('pkg/CLAUDE.md'))!.message, /injected after a Read of pkg\/a\.ts/);
      assert.match(ds.find((x) => x.path.endsWith('db.md'))!.message, /injected after a Read of src\/x\.ts/);
      const text = run(['lint', ...w.flags]);
      assert.equal(text.code, 1);
      assert.ok(!text.stdout.includes(gh));
      assert.deepEqual(lintJson(w.flags, ['--no-secrets']).diagnostics.filter((x) => x.rule === 'likely-secret'), []);
    } finally {
      w.cleanup();
    }
  });
});
