// Skills (memory spec B5–B7): discovery and order, frontmatter effects per version, the listing
// text, the per-description cap, the budget from the model table, display width, and demotion.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../src/engine/index.js';
import { chooseProfile } from '../../src/engine/profiles.js';
import { canonicalModel, displayWidth, resolveModel } from '../../src/engine/skills/index.js';
import { buildListing, usageScore } from '../../src/engine/skills/listing.js';
import { cleanShownText, descriptionFromBody, isOfferableName } from '../../src/engine/skills/text.js';
import { resolveEnvironment } from '../../src/engine/environment.js';
import { loadSettings } from '../../src/engine/settings.js';
import { DiagnosticSink } from '../../src/engine/diagnostics.js';
import { makeTree } from '../helpers/fixture.js';

const P328 = chooseProfile('2.1.328').profile;
const P235 = chooseProfile('2.1.235').profile;
const NO_BUNDLED = { CLAUDE_CODE_DISABLE_BUNDLED_SKILLS: '1' };
const skill = (d: string, extra = '') => `---\ndescription: ${JSON.stringify(d)}${extra ? `\n${extra}` : ''}\n---\nbody\n`;

function run(files: Record<string, string | { symlink: string }>, cwd: string, o: { version?: string; env?: Record<string, string>; model?: string; addDirs?: string[]; git?: string[] } = {}) {
  const t = makeTree({ 'home/.keep': '', ...files });
  for (const g of o.git ?? []) execFileSync('git', ['init', '-q', t.p(g)], { stdio: 'pipe' });
  const a = analyze({
    cwd: t.p(cwd), home: t.p('home'), env: { HOME: t.p('home'), ...(o.env ?? {}) }, claudeVersion: o.version ?? '2.1.328', model: o.model,
    addDirs: (o.addDirs ?? []).map((d) => t.p(d)),
  });
  t.cleanup();
  return a;
}

const names = (a: ReturnType<typeof run>) => a.skills.entries.map((e) => e.name);

test('order: user, project from the launch folder up to the git root, --add-dir, then legacy commands merged by name', () => {
  const a = run(
    {
      'home/.claude/skills/uskill/SKILL.md': skill('u'),
      'home/.claude/commands/zcmd.md': 'z\n',
      'repo/.claude/skills/pskill/SKILL.md': skill('p'),
      'repo/.claude/commands/bcmd.md': 'b\n',
      'repo/.claude/commands/ns/inner.md': 'i\n',
      'repo/.claude/commands/cskill/SKILL.md': skill('c'),
      'repo/sub/.claude/skills/subskill/SKILL.md': skill('s'),
      'extra/.claude/skills/added/SKILL.md': skill('a'),
      'extra/.claude/commands/aaa-add.md': 'a\n',
      '.claude/skills/above/SKILL.md': skill('never'),
    },
    'repo/sub',
    { git: ['repo'], addDirs: ['extra'], env: NO_BUNDLED },
  );
  assert.deepEqual(names(a), ['uskill', 'subskill', 'pskill', 'added', 'aaa-add', 'bcmd', 'cskill', 'ns:inner', 'zcmd', 'plugin-authoring']);
});

test('outside git the walk stops below HOME; with HOME elsewhere it goes to /', () => {
  const a = run({ 'home/proj/sub/.claude/skills/leaf/SKILL.md': skill('l'), 'home/proj/.claude/skills/mid/SKILL.md': skill('m'), '.claude/skills/top/SKILL.md': skill('t') }, 'home/proj/sub', { env: NO_BUNDLED, version: '2.1.235' });
  assert.deepEqual(names(a), ['leaf', 'mid']);
  const b = run({ 'w/a/.claude/skills/leaf/SKILL.md': skill('l'), '.claude/skills/top/SKILL.md': skill('t') }, 'w/a', { env: NO_BUNDLED, version: '2.1.235' });
  assert.deepEqual(names(b), ['leaf', 'top']);
});

test('clashes: the first wins; dmi and path-gated skills do not shadow shipped ones; overrides act on names', () => {
  const a = run(
    {
      'home/.claude/skills/dup/SKILL.md': skill('user'),
      'home/.claude/skills/loop/SKILL.md': skill('user loop'),
      'home/.claude/skills/simplify/SKILL.md': skill('dmi', 'disable-model-invocation: true'),
      'home/.claude/skills/run/SKILL.md': skill('gated', 'paths: "src/**"'),
      'repo/.claude/skills/dup/SKILL.md': skill('project'),
      'repo/.claude/commands/dup.md': 'command\n',
      'repo/.claude/settings.json': JSON.stringify({ skillOverrides: { dataviz: 'name-only', 'code-review': 'off' } }),
    },
    'repo',
    { git: ['repo'] },
  );
  const n = names(a);
  assert.equal(n.filter((x) => x === 'dup').length, 1);
  assert.equal(a.skills.entries.find((e) => e.name === 'dup')!.text, '- dup: user');
  assert.equal(a.skills.entries.find((e) => e.name === 'loop')!.bundled, false);
  assert.ok(n.includes('simplify') && a.skills.entries.find((e) => e.name === 'simplify')!.bundled);
  assert.ok(n.includes('run') && a.skills.entries.find((e) => e.name === 'run')!.bundled);
  assert.equal(a.skills.entries.find((e) => e.name === 'dataviz')!.text, '- dataviz');
  assert.ok(!n.includes('code-review'));
  assert.deepEqual(a.skills.conditional.map((c) => c.name), ['run']);
});

test('folder order is localeCompare order', () => {
  const list = ['ezra', 'éclair', 'a2', 'a10', 'ab', 'A1', 'a-b', 'a_b', 'Upper_Case Dir', 'p-zeta', 'Caps-Name'];
  const a = run(Object.fromEntries(list.map((n) => [`r/.claude/skills/${n}/SKILL.md`, skill(n)])), 'r', { git: ['r'], env: NO_BUNDLED, version: '2.1.235' });
  assert.deepEqual(names(a), ['a_b', 'a-b', 'A1', 'a10', 'a2', 'ab', 'Caps-Name', 'éclair', 'ezra', 'p-zeta', 'Upper_Case Dir']);
});

test('only SKILL.md counts; symlinked skill folders work', () => {
  const a = run(
    {
      'r/.claude/skills/lower/skill.md': skill('x'),
      'r/.claude/skills/loose.md': skill('x'),
      'r/.claude/skills/good/SKILL.md': skill('good'),
      'out/target/SKILL.md': skill('linked'),
      'r/.claude/skills/linked': { symlink: '../../../out/target' },
    },
    'r',
    { git: ['r'], env: NO_BUNDLED, version: '2.1.235' },
  );
  assert.deepEqual(names(a), ['good', 'linked']);
});

test('frontmatter: fallbacks, when_to_use, numbers, the 328 label and text clean-up, dmi, paths', () => {
  const files = {
    'r/.claude/skills/f1/SKILL.md': '---\nname: other\ndescription: D\n---\n',
    'r/.claude/skills/f2/SKILL.md': '---\nname: help\ndescription: D\n---\n',
    'r/.claude/skills/f3/SKILL.md': '\n\n# Heading   line  \nmore\n',
    'r/.claude/skills/f4/SKILL.md': '---\ndescription: 42\nwhen_to_use: 3.5\n---\n',
    'r/.claude/skills/f5/SKILL.md': '---\ndescription: "a <b>\\tc\\n\\nd"\n---\n',
    'r/.claude/skills/f6/SKILL.md': '---\ndescription: x\ndisable-model-invocation: "yes"\n---\n',
    'r/.claude/skills/f7/SKILL.md': '---\ndescription: [unclosed\nname: x\n---\nFirst\n',
    'r/.claude/skills/f8/SKILL.md': '---\ndescription: never closed\n',
    'r/.claude/skills/f9/SKILL.md': '',
  };
  const a = run(files, 'r', { git: ['r'], env: NO_BUNDLED });
  const t = (n: string) => a.skills.entries.find((e) => e.name === n)?.text;
  assert.equal(t('f1'), '- f1 (other): D');
  assert.equal(t('f2'), '- f2: D');
  assert.equal(t('f3'), '- f3: Heading   line');
  assert.equal(t('f4'), '- f4: 42 - 3.5');
  assert.equal(t('f5'), '- f5: a &lt;b&gt; c d');
  assert.equal(t('f6'), undefined);
  assert.equal(t('f7'), '- f7 (x): [unclosed');
  assert.equal(t('f8'), '- f8: ---');
  assert.equal(t('f9'), '- f9: Skill');
  const b = run(files, 'r', { git: ['r'], env: NO_BUNDLED, version: '2.1.235' });
  const u = (n: string) => b.skills.entries.find((e) => e.name === n)?.text;
  assert.equal(u('f1'), '- f1: D');
  assert.equal(u('f5'), '- f5: a <b>\tc\n\nd');
});

test('text clean-up keeps emoji joiners and conjunct joiners, replaces other hidden runs by one space', () => {
  assert.equal(cleanShownText('family 👨‍👩‍👧 x\ufe0f y', true, true), 'family 👨‍👩‍👧 x  y');
  assert.equal(cleanShownText('क्\u200dष', true, false), 'क्\u200dष');
  assert.equal(cleanShownText('a\u200b\u200bb', true, false), 'a b');
  assert.equal(cleanShownText('e\u0301', true, false), 'e\u0301');
  assert.equal(descriptionFromBody('x'.repeat(101), 'Skill'), `${'x'.repeat(97)}...`);
  assert.equal(descriptionFromBody('```js\n', 'Skill'), '```js');
  assert.equal(isOfferableName('zz<bad>'), false);
  assert.equal(isOfferableName('ok name'), true);
});

test('names with < or > are not offered on 2.1.328 (2.1.235 lists them)', () => {
  const f = { 'r/.claude/skills/zz<bad>/SKILL.md': skill('x') };
  assert.deepEqual(names(run(f, 'r', { git: ['r'], env: NO_BUNDLED })), ['plugin-authoring']);
  assert.deepEqual(names(run(f, 'r', { git: ['r'], env: NO_BUNDLED, version: '2.1.235' })), ['zz<bad>']);
});

test('per-description cap: 1,535 and 1,536 whole, 1,537 cut to 1,535 + …; when_to_use counts; the setting', () => {
  const a = run(
    {
      'r/.claude/skills/a/SKILL.md': skill('a'.repeat(1535)),
      'r/.claude/skills/b/SKILL.md': skill('b'.repeat(1536)),
      'r/.claude/skills/c/SKILL.md': skill('c'.repeat(1537)),
      'r/.claude/skills/d/SKILL.md': skill('d'.repeat(1000), `when_to_use: ${'e'.repeat(1000)}`),
    },
    'r',
    { git: ['r'], env: NO_BUNDLED, version: '2.1.235' },
  );
  const e = (n: string) => a.skills.entries.find((x) => x.name === n)!;
  assert.equal(e('a').text, `- a: ${'a'.repeat(1535)}`);
  assert.equal(e('b').text, `- b: ${'b'.repeat(1536)}`);
  assert.equal(e('c').text, `- c: ${'c'.repeat(1535)}…`);
  assert.equal(e('c').cut, true);
  assert.equal(e('d').text, `- d: ${'d'.repeat(1000)} - ${'e'.repeat(532)}…`);
  const b = run({ 'r/.claude/skills/a/SKILL.md': skill('g'.repeat(150)), 'r/.claude/settings.json': JSON.stringify({ skillListingMaxDescChars: 100 }) }, 'r', { git: ['r'], env: NO_BUNDLED, version: '2.1.235' });
  assert.equal(b.skills.entries[0]!.text, `- a: ${'g'.repeat(99)}…`);
});

test('model table: budgets per version', () => {
  const budget = (v: string, model?: string, env: Record<string, string> = {}) => {
    const e = resolveEnvironment({ cwd: '/', home: '/nonexistent', env, model });
    const s = loadSettings(e, new DiagnosticSink());
    const m = resolveModel(e, s, chooseProfile(v).profile);
    return Math.floor(m.contextWindow * m.bytesPerToken * 0.01);
  };
  assert.equal(budget('2.1.328'), 30000);
  assert.equal(budget('2.1.328', 'claude-haiku-4-5'), 8000);
  assert.equal(budget('2.1.328', 'claude-sonnet-4-20250514'), 8000);
  assert.equal(budget('2.1.328', 'us.anthropic.claude-haiku-4-5-20251001-v1:0'), 8000);
  assert.equal(budget('2.1.328', 'claude-sonnet-4-5[1m]'), 40000);
  assert.equal(budget('2.1.328', 'claude-opus-4-7'), 30000);
  assert.equal(budget('2.1.328', 'haiku'), 30000);
  assert.equal(budget('2.1.328', 'claude-opus-4-1-20250805'), 30000);
  assert.equal(budget('2.1.235'), 30000);
  assert.equal(budget('2.1.235', 'opus'), 6000);
  assert.equal(budget('2.1.235', 'haiku'), 8000);
  assert.equal(budget('2.1.235', 'my-custom-model'), 6000);
  assert.equal(budget('2.1.235', 'claude-sonnet-4-5[1m]'), 40000);
  assert.equal(canonicalModel('claude-3-5-sonnet-20241022'), 'claude-3-5-sonnet');
});

test('display width: wide CJK, narrow ambiguous, emoji sequences, Indic spacing marks (328 correction)', () => {
  for (const p of [P235, P328]) {
    assert.equal(displayWidth('漢字かな', p), 8);
    assert.equal(displayWidth('…—→', p), 3);
    assert.equal(displayWidth('👨‍👩‍👧', p), 2);
    assert.equal(displayWidth('a\nb', p), 2);
  }
  assert.equal(displayWidth('ক্ষিকা', P235), 3);
  assert.equal(displayWidth('ক্ষিকা', P328), 5);
  assert.equal(displayWidth('☝', P235), 1);
  assert.equal(displayWidth('☝', P328), 2);
});

test('demotion: fixed shipped entries, greedy by usage score, listing order kept, later smaller ones still fit', () => {
  const now = Date.UTC(2026, 0, 1);
  const sk = (name: string, len: number) => ({ name, source: 'project' as const, description: 'x'.repeat(len), hasDescription: true, disableModelInvocation: false, userInvocable: true });
  const shipped = { name: 'fixed', source: 'bundled' as const, description: '', hasDescription: true, disableModelInvocation: false, userInvocable: true, fixed: true, shipped: { descriptionChars: 50, zeroWidthAt: [] } };
  const skills = [sk('a1', 100), sk('a2', 100), sk('a3', 20), shipped];
  const usage = { a2: { usageCount: 5, lastUsedAt: now } };
  const l = buildListing({ profile: P235, skills, knownCommands: skills, budget: 190, cap: 1536, overrides: {}, score: (n) => usageScore(usage, n, now) });
  // base = 4 + 4 + 4 + (9 + 50) + 3 newlines = 74; a2 first (score 5): +102 → 176; a1 +102 too much; a3 +22 too much? 176 + 22 = 198 > 190
  assert.deepEqual(l.entries.map((e) => e.demoted), [true, false, true, false]);
  assert.equal(l.entries[3]!.text, '- fixed: [description of a skill shipped with Claude Code]');
  const l2 = buildListing({ profile: P235, skills, knownCommands: skills, budget: 200, cap: 1536, overrides: {}, score: (n) => usageScore(usage, n, now) });
  assert.deepEqual(l2.entries.map((e) => e.demoted), [true, false, false, false]);
  assert.equal(usageScore({ s: { usageCount: 50, lastUsedAt: now - 14 * 86400000 } }, 's', now), 12.5);
  assert.equal(usageScore({ s: { usageCount: 1, lastUsedAt: now - 365 * 86400000 } }, 's', now), 0.1);
});

test('40 skills on claude-haiku-4-5: 328 keeps sk01–sk04 and demotes init and security-review; 235 keeps sk01–sk08', () => {
  const files: Record<string, string> = {};
  for (let i = 1; i <= 40; i++) files[`r/.claude/skills/sk${String(i).padStart(2, '0')}/SKILL.md`] = skill(`SK ${'w'.repeat(395)}`);
  const a = run(files, 'r', { git: ['r'], model: 'claude-haiku-4-5' });
  const full = a.skills.entries.filter((e) => !e.demoted).map((e) => e.name);
  assert.deepEqual(full.slice(0, 4), ['sk01', 'sk02', 'sk03', 'sk04']);
  assert.ok(!full.includes('sk05') && !full.includes('init') && !full.includes('security-review'));
  const b = run(files, 'r', { git: ['r'], model: 'claude-haiku-4-5', version: '2.1.235' });
  assert.deepEqual(b.skills.entries.filter((e) => !e.demoted && !e.bundled).map((e) => e.name), ['sk01', 'sk02', 'sk03', 'sk04', 'sk05', 'sk06', 'sk07', 'sk08']);
});

test('--bare: no listing; disableBundledSkills: 235 lists nothing when there is nothing else', () => {
  assert.equal(run({ 'r/x': '' }, 'r', { git: ['r'] }).skills.text.startsWith('The following skills are available for use with the Skill tool:\n\n- dataviz: '), true);
  const t = makeTree({ 'r/x': '' });
  try {
    assert.equal(analyze({ cwd: t.p('r'), home: t.p('home'), env: {}, bare: true }).skills.text, '');
    assert.equal(analyze({ cwd: t.p('r'), home: t.p('home'), env: NO_BUNDLED, claudeVersion: '2.1.235' }).skills.text, '');
    assert.deepEqual(analyze({ cwd: t.p('r'), home: t.p('home'), env: NO_BUNDLED }).skills.entries.map((e) => e.name), ['plugin-authoring']);
  } finally {
    t.cleanup();
  }
});

test('lazy skills: a path-gated skill after a matching touch, a nested folder with the clash prefix', () => {
  const t = makeTree({
    'r/.claude/skills/paths/SKILL.md': skill('PATHS', 'paths: ["src/**/*.ts"]'),
    'r/.claude/skills/deploy/SKILL.md': skill('ROOT'),
    'r/pkg/.claude/skills/deploy/SKILL.md': skill('NESTED'),
    'r/pkg/.claude/skills/nested-skill/SKILL.md': skill('NESTED2'),
  });
  try {
    const a = analyze({ cwd: t.p('r'), home: t.p('home'), env: NO_BUNDLED });
    assert.deepEqual(a.skills.lazyFor(t.p('r/src/a/b.ts')).map((l) => l.text), ['The following skills are available for use with the Skill tool:\n\n- paths: PATHS']);
    assert.deepEqual(a.skills.lazyFor(t.p('r/src/a/b.js')), []);
    const [n] = a.skills.lazyFor(t.p('r/pkg/lib.py'));
    assert.deepEqual(n!.names, ['pkg:deploy', 'nested-skill']);
    assert.ok(n!.text.startsWith('New skills discovered in pkg/.claude/skills, now available via the Skill tool:\n- pkg:deploy\n- nested-skill\n\n'));
  } finally {
    t.cleanup();
  }
});

test('profile figures: every shipped width is its name and description length', () => {
  for (const p of [P235, P328])
    for (const b of p.skills.bundled) assert.equal(b.width, b.name.length + 4 + b.descriptionChars - (b.zeroWidthAt?.length ?? 0), `${p.version} ${b.name}`);
  void path;
});

test('hostile trees: link loops, a FIFO named SKILL.md, unreadable files, huge and odd descriptions never throw', () => {
  const t = makeTree({
    'r/.claude/skills/loop-a': { symlink: 'loop-b' },
    'r/.claude/skills/loop-b': { symlink: 'loop-a' },
    'r/.claude/skills/huge/SKILL.md': skill('h'.repeat(3_000_000)),
    'r/.claude/skills/odd\nname/SKILL.md': skill('newline in the folder name'),
    'r/.claude/skills/quote"name/SKILL.md': skill('quote'),
    'r/.claude/skills/unreadable/SKILL.md': skill('x'),
    'r/.claude/commands/cycle': { symlink: '.' },
    'r/.claude/commands/a.md': 'A\n',
    'home/.claude.json': '{"skillUsage": {"huge": {"usageCount": "many", "lastUsedAt": null}}}',
  });
  try {
    fs.mkdirSync(t.p('r/.claude/skills/fifo-dir'));
    execFileSync('mkfifo', [t.p('r/.claude/skills/fifo-dir/SKILL.md')], { stdio: 'pipe' });
    fs.chmodSync(t.p('r/.claude/skills/unreadable/SKILL.md'), 0o000);
    for (const v of ['2.1.235', '2.1.328']) {
      const a = analyze({ cwd: t.p('r'), home: t.p('home'), env: NO_BUNDLED, claudeVersion: v });
      const n = a.skills.entries.map((e) => e.name);
      assert.ok(n.includes('huge') && n.includes('a'), v);
      assert.ok(!n.includes('fifo-dir'));
      assert.equal(a.skills.entries.find((e) => e.name === 'huge')!.text.length, '- huge: '.length + 1536);
      assert.equal(n.includes('odd\nname'), v === '2.1.235');
    }
  } finally {
    fs.chmodSync(t.p('r/.claude/skills/unreadable/SKILL.md'), 0o644);
    t.cleanup();
  }
});

test('protected shipped names (2.1.333): project, --add-dir and command skills cannot take claude-api or workflow-authoring; ~/.claude ones can', () => {
  const files = {
    'home/.claude/commands/workflow-authoring.md': '---\ndescription: MKU user command\n---\nb\n',
    'repo/.claude/skills/Claude-API/SKILL.md': skill('MKP folder in another case'),
    'repo/.claude/skills/x-wa/SKILL.md': '---\nname: workflow-authoring\ndescription: MKP fm\n---\nb\n',
    'repo/.claude/commands/ns/claude-api.md': 'MKC namespaced\n',
    'extra/.claude/skills/claude-api/SKILL.md': skill('MKA added'),
    'repo/.claude/skills/gated/SKILL.md': '---\nname: claude-api\ndescription: MKG\npaths: src/**\n---\nb\n',
  };
  const a = run(files, 'repo', { version: '2.1.333', addDirs: ['extra'], git: ['repo'] });
  const text = a.skills.text;
  assert.doesNotMatch(text, /MKP|MKA/);
  assert.match(text, /\n- ns:claude-api: MKC namespaced/);
  assert.match(text, /\n- workflow-authoring: MKU user command/, 'a ~/.claude command replaces the shipped skill');
  assert.match(text, /\n- claude-api: \[description/, 'the shipped claude-api stays');
  assert.deepEqual(a.skills.conditional.map((s) => s.name), [], 'a path-gated skill with the name is never offered');
  assert.ok(a.diagnostics.some((d) => d.rule === 'skill-name-protected' && d.path.endsWith('Claude-API/SKILL.md')));
  // 2.1.332: the first one wins, the shipped entry is dropped
  const b = run(files, 'repo', { version: '2.1.332', addDirs: ['extra'], git: ['repo'] });
  assert.match(b.skills.text, /\n- Claude-API: MKP folder/);
  assert.ok(!b.diagnostics.some((d) => d.rule === 'skill-name-protected'));
  // CLAUDE_CODE_DISABLE_WORKFLOWS frees workflow-authoring; bundled skills off frees neither
  const c = run(files, 'repo', { version: '2.1.333', addDirs: ['extra'], git: ['repo'], env: { CLAUDE_CODE_DISABLE_WORKFLOWS: '1', ...NO_BUNDLED } });
  assert.match(c.skills.text, /\n- x-wa: MKP fm/, 'listed (no label: the user command holds the name)');
  assert.doesNotMatch(c.skills.text, /MKP folder|MKA added/);
});

test('--add-dir clashes: DIR:name after the bundled skills (328+, dropped on 235); a frontmatter-name clash too on 2.1.333', () => {
  const files = {
    'repo/.claude/skills/e1/SKILL.md': '---\nname: pfm\ndescription: MKP e1\n---\nb\n',
    'a/extra/.claude/skills/e1/SKILL.md': skill('MKA e1'),
    'a/extra/.claude/skills/f1/SKILL.md': '---\nname: PFM\ndescription: MKA f1\n---\nb\n',
    'repo/sub/inner/.claude/skills/e1/SKILL.md': skill('MKB e1'),
  };
  const tail = (v: string) => {
    const a = run(files, 'repo', { version: v, addDirs: ['a/extra', 'repo/sub/inner'], git: ['repo'] });
    const lines = a.skills.text.split('\n');
    return lines.slice(lines.findIndex((l) => l.startsWith('- plugin-authoring')) + 1).map((l) => l.replace(/ \((scoped|from) .*$/, ' ($1 …)').replace(/: \[description.*$/, ''));
  };
  assert.deepEqual(tail('2.1.333'), ['- extra:e1: MKA e1 (scoped …)', '- extra:f1: MKA f1 (from …)', '- sub/inner:e1: MKB e1 (scoped …)', '- init', '- security-review']);
  assert.deepEqual(tail('2.1.332'), ['- extra:e1: MKA e1 (scoped …)', '- sub/inner:e1: MKB e1 (scoped …)', '- init', '- security-review']);
  const old = run(files, 'repo', { version: '2.1.235', addDirs: ['a/extra', 'repo/sub/inner'], git: ['repo'] });
  assert.doesNotMatch(old.skills.text, /MKA e1|MKB e1/);
  assert.match(old.skills.text, /\n- f1: MKA f1/);
});
