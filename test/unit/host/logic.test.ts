// The host's pure logic over real engine analyses of fixture trees: the sidebar model, the lenses,
// the MEMORY.md cut mapped onto the file's lines, frontmatter spans, glob reports, @import links,
// and the cache that keeps editor switches off the disk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analyze, nodeFileAccess, type EngineOptions } from '../../../src/engine/index.js';
import { AnalysisService } from '../../../src/host/workspace/analysis-service.js';
import { fileLenses } from '../../../src/host/editor/file-lens.js';
import { displayPath } from '../../../src/engine/checks/index.js';
import { englishT, firstLine } from '../../../src/host/format.js';
import { scanFrontmatter } from '../../../src/host/editor/frontmatter-scan.js';
import { globReport } from '../../../src/host/editor/glob-report.js';
import { includeLinks } from '../../../src/host/editor/include-links.js';
import { memoryFigures } from '../../../src/host/sidebar/memory-view.js';
import { present } from '../../../src/host/sidebar/present.js';
import { statusFigures } from '../../../src/host/sidebar/status-figures.js';
import { reportText } from '../../../src/host/sidebar/report.js';
import { parseVersion, findOnPath } from '../../../src/host/workspace/version-detect.js';
import { isViewState } from '../../../webview/protocol.js';
import { makeTree } from '../../helpers/fixture.js';

function demo() {
  const t = makeTree({
    'repo/.git/HEAD': 'ref: refs/heads/main\n',
    'repo/CLAUDE.md': '# Demo\n\nUse pnpm, never npm.\n\n@docs/testing.md\n@docs/gone.md\n',
    'repo/docs/testing.md': 'Run pnpm test.\n',
    'repo/.claude/rules/api.md': '---\npaths: ["src/api/**"]\n---\nAPI RULE body\n',
    'repo/.claude/rules/style.md': 'STYLE always\n',
    'repo/src/api/client.ts': 'x',
    'repo/src/api/retry.ts': 'y',
    'repo/README.md': '# readme',
    'repo/pkg/CLAUDE.md': 'PKG nested',
    'repo/pkg/.claude/rules/pkgrule.md': '---\npaths: src/**\n---\nPKG RULE',
    'repo/pkg/a.ts': 'z',
  });
  const opts: EngineOptions = { cwd: t.p('repo'), home: t.p('home'), env: {}, managedDir: t.p('none'), claudeVersion: '2.1.328' };
  return { t, opts };
}

const input = (a: ReturnType<typeof analyze>, extra: Partial<Parameters<typeof present>[0]> = {}) =>
  present({ analysis: a, version: { source: 'setting', requested: '2.1.328' }, model: 'claude-opus-5-5', trusted: true, t: englishT, locale: 'en', today: '2026-01-01', ...extra });

test('sidebar model: eager entries with sizes and reasons, the lazy headline, lazy elsewhere, not loaded', () => {
  const { t, opts } = demo();
  try {
    const a = analyze(opts);
    const s = input(a, { activeFile: t.p('repo/src/api/client.ts'), nestedFiles: [t.p('repo/pkg/CLAUDE.md'), t.p('repo/pkg/.claude/rules/pkgrule.md')] });
    assert.ok(isViewState(s), 'the state passes the protocol validation');
    const sec = Object.fromEntries(s.sections.map((x) => [x.id, x]));
    const fileRows = sec.startup!.rows.filter((r) => r.id !== 'startup/skills' && r.id !== 'startup/framing');
    assert.deepEqual(fileRows.map((r) => r.label), ['CLAUDE.md', 'docs/testing.md', '.claude/rules/style.md']);
    const root = sec.startup!.rows[0]!;
    assert.equal(root.description, 'Project · CLAUDE.md of the launch directory · Use pnpm, never npm.');
    assert.match(root.badge!, /^\d+ chars$/);
    assert.match(root.detail!, /\d+ chars · 6 lines · ≈\d+ tokens/);
    assert.match(sec.startup!.summary!, /^3 files · [\d,]+ chars · ≈[\d,]+ tokens$/);
    // one definition of each number: the section's total is the sum of its rows, framing and skills included
    const num = (x: string | undefined) => Number((x ?? '').replace(/[^\d]/g, '') || 0);
    const sumRows = (rows: { badge?: string }[]) => rows.reduce((n, r) => n + num(r.badge), 0);
    assert.equal(sumRows(sec.startup!.rows), num(/· ([\d,]+) chars/.exec(sec.startup!.summary!)![1]), 'startup summary = Σ rows');
    assert.ok(sec.startup!.rows.some((r) => r.id === 'startup/framing'), "Claude Code's framing is a row of its own");
    const gStart = s.gauges.find((g) => g.id === 'startup')!;
    assert.equal(num(/\(([\d,]+) chars\)/.exec(gStart.text)![1]), sumRows(sec.startup!.rows), 'the startup gauge counts the same chars');
    assert.ok(gStart.counts, 'the gauge says what it counts');
    assert.ok(sec.startup!.help && sec.active!.help && sec.elsewhere!.help && sec.notLoaded!.help && sec.session!.help, 'every section has a ? text');
    assert.equal(sec.startup!.rows[1]!.description, 'Project · @-included by CLAUDE.md · Run pnpm test.');

    const act = sec.active!;
    assert.equal(act.title, 'When client.ts is read');
    // the top answer: the Startup figure and what the Read adds, in two lines
    assert.equal(s.top!.always, `Always loaded: ≈${num(/≈([\d,]+) tokens/.exec(sec.startup!.summary!)![1]).toLocaleString('en-US')} tokens (${sec.startup!.rows.filter((r) => r.id.startsWith('startup/file')).length} files and the skills listing)`);
    assert.match(s.top!.file!, /^Reading client\.ts adds \+[\d,]+ tokens: api\.md$/);
    assert.deepEqual(s.sections.map((x) => x.id), ['active', 'session', 'startup', 'notLoaded', 'elsewhere'], 'the open file first, the session next');
    assert.equal(sec.startup!.open, false, 'Startup starts as its one-line summary');
    assert.match(act.headline!, /^Reading client\.ts injects 1 file, [\d,]+ chars, ≈[\d,]+ tokens$/);
    assert.deepEqual(act.rows.map((r) => [r.label, r.description]), [['.claude/rules/api.md', 'rule api.md: paths src/api/** matched'], ["Claude Code's framing", 'reminder tags around each file']]);
    assert.equal(sumRows(act.rows), num(/, ([\d,]+) chars/.exec(act.headline!)![1]), 'lazy headline = Σ rows');
    assert.equal(act.summary, 'Edit, Write, Bash inject the same (Claude Code 2.1.328)');

    const groups = sec.elsewhere!.rows;
    assert.deepEqual(groups.map((g) => g.label), ['Nested folders']);
    assert.deepEqual(groups[0]!.children!.map((c) => [c.label, c.children!.map((x) => x.label)]), [['pkg/', ['.claude/rules/pkgrule.md', 'CLAUDE.md']]]);

    const readme = input(a, { activeFile: t.p('repo/README.md') });
    const act2 = readme.sections.find((x) => x.id === 'active')!;
    assert.equal(act2.headline, 'Reading README.md injects nothing');
    const rules = readme.sections.find((x) => x.id === 'elsewhere')!.rows.find((g) => g.label === 'Conditional rules')!;
    assert.deepEqual(rules.children!.map((c) => [c.label, c.description, c.line]), [['.claude/rules/api.md', 'paths: src/api/**', 2]]);

    const nl = readme.sections.find((x) => x.id === 'notLoaded')!;
    assert.equal(nl.rows.length, 1);
    assert.match(nl.rows[0]!.description!, /docs\/gone\.md is not loaded: no such file/);
    assert.equal(nl.rows[0]!.severity, 'warning');

    const outside = input(a, { activeFile: t.p('home/x.md') });
    assert.equal(outside.sections.find((x) => x.id === 'active')!.headline, 'x.md is outside the launch directory: touching it injects nothing');
    const eager = input(a, { activeFile: t.p('repo/CLAUDE.md') });
    assert.equal(eager.sections.find((x) => x.id === 'active')!.headline, 'CLAUDE.md is already in the first request (eager)');

    const steps = [t.p('repo/src/api/client.ts'), t.p('repo/src/api/retry.ts'), t.p('repo/pkg/a.ts')].map((file) => ({ kind: 'read' as const, file }));
    const session = input(a, { sessionSteps: steps }).sections.find((x) => x.id === 'session')!;
    assert.deepEqual(session.rows.map((r) => [r.label, r.description]), [
      ['1. Read src/api/client.ts', '+1 file'],
      ['2. Read src/api/retry.ts', 'nothing new'],
      ['3. Read pkg/a.ts', '+1 file'],
      ['Subagents', 'what each agent type gets in its first request'],
    ]);
    assert.match(session.headline!, /^After 3 steps the conversation holds ≈[\d,]+ tokens/);
    assert.equal(session.rows[0]!.badge, `+${/, ([\d,]+) chars/.exec(act.headline!)![1]} chars`, 'a read step counts what the lazy headline counts (framing included)');
    assert.equal(sumRows(session.rows[0]!.children!), num(/, ([\d,]+) chars/.exec(act.headline!)![1]), 'and its rows add up to it');
    assert.match(reportText(s), /^Always loaded: ≈[\d,]+ tokens[\s\S]*## Startup: always loaded[\s\S]*- CLAUDE\.md — Project/m);

    // truthful version notes: why nothing was detected, and the action that fixes it
    const notFound = input(a, { version: { source: 'newest', why: 'not-found' } }).header;
    assert.equal(notFound.versionNote, 'newest known profile: claude is not on PATH and claudeLayers.claudePath is not set');
    assert.equal(notFound.versionAction?.command, 'setClaudePath');
    const untrusted = input(a, { version: { source: 'newest', why: 'untrusted' } }).header;
    assert.match(untrusted.versionNote!, /not trusted/);
    assert.equal(untrusted.versionAction, undefined, 'nothing to set: trust is the way');
    assert.match(input(a, { version: { source: 'newest', why: 'failed', executable: '/x/claude', error: 'EACCES' } }).header.versionNote!, /\/x\/claude --version failed: EACCES/);

    // the status bar: the same figures as the sidebar (a Read's files, the Startup total's tokens)
    const st = statusFigures({ analysis: a, activeFile: t.p('repo/src/api/client.ts'), model: 'claude-opus-5-5', t: englishT, locale: 'en', today: '2026-01-01' });
    const startupTok = /≈([\d,]+) tokens/.exec(sec.startup!.summary!)![1]!;
    assert.match(st.text, /^\$\(layers\) \+1 file · [\d.]+K? tok$/);
    // the status bar's tooltip is the sidebar's own two top lines
    assert.ok(st.tooltip.startsWith(`${s.top!.file!}\n${s.top!.always}`), st.tooltip);
    assert.ok(st.tooltip.includes(`Always loaded: ≈${startupTok} tokens`) && st.tooltip.includes('1,000,000-token context window'), st.tooltip);
    assert.match(statusFigures({ analysis: a, activeFile: t.p('repo/CLAUDE.md'), model: 'claude-opus-5-5', t: englishT, locale: 'en', today: '2026-01-01' }).text, /^\$\(layers\) always loaded · /);
  } finally {
    t.cleanup();
  }
});

test('gauges: startup tokens against the window, MEMORY.md cut in file lines, the skills listing against its budget', () => {
  const { t, opts } = demo();
  try {
    const a0 = analyze(opts);
    const dir = a0.memory.location.dir;
    fs.mkdirSync(dir, { recursive: true });
    const raw = `---\nname: idx\n---\n<!-- comment -->\n${Array.from({ length: 203 }, (_, i) => `- [t${i + 1}](t${i + 1}.md): note`).join('\n')}\n`;
    fs.writeFileSync(path.join(dir, 'MEMORY.md'), raw);
    const a = analyze(opts);
    const s = input(a);
    const g = Object.fromEntries(s.gauges.map((x) => [x.id, x]));
    assert.equal(g['memory-lines']!.text, '203/200');
    assert.equal(g['memory-lines']!.note, 'lines 205-207 are not loaded · 3 topic links lost');
    assert.match(g['memory-lines']!.detail!, /no longer learns about: t201\.md, t202\.md, t203\.md$/);
    assert.equal(g['memory-lines']!.line, 205);
    assert.equal(g['memory-lines']!.level, 'over');
    assert.equal(g['memory-units']!.level, 'ok');
    assert.match(g.startup!.text, /^≈[\d,]+ of 1,000,000 tokens \([\d,]+ chars\)$/);
    // the skills gauge: the listing's width against its budget, from the engine's typed analysis
    assert.equal(g.skills!.text, `${a.skills.used.toLocaleString('en-US')}/${a.skills.budget.toLocaleString('en-US')} of the budget`);
    assert.match(g.request!.text, /% yours$/);

    // a skill cut at the per-description cap and one demoted by a small budget
    const sk = (name: string, len: number) => {
      fs.mkdirSync(t.p(`repo/.claude/skills/${name}`), { recursive: true });
      fs.writeFileSync(t.p(`repo/.claude/skills/${name}/SKILL.md`), `---\ndescription: ${'d'.repeat(len)}\n---\nbody\n`);
    };
    sk('big', 2000);
    sk('release-check', 40);
    const small = analyze({ ...opts, env: { CLAUDE_CODE_DISABLE_BUNDLED_SKILLS: '1', SLASH_COMMAND_TOOL_CHAR_BUDGET: '1000' } });
    assert.deepEqual(small.skills.entries.filter((e) => !e.bundled).map((e) => [e.name, e.demoted, e.cut]), [['big', true, true], ['release-check', false, false]]);
    const g2 = input(small).gauges.find((x) => x.id === 'skills')!;
    assert.equal(g2.text, `${small.skills.used.toLocaleString('en-US')}/1,000 of the budget`);
    assert.equal(g2.note, '1 descriptions cut, 1 skills name only');
  } finally {
    t.cleanup();
  }
});

test('CodeLens texts: MEMORY.md figures and cut, eager and lazy instruction files', () => {
  const { t, opts } = demo();
  try {
    const a0 = analyze(opts);
    const dir = a0.memory.location.dir;
    fs.mkdirSync(dir, { recursive: true });
    const raw = `---\nx: 1\n---\n${Array.from({ length: 190 }, (_, i) => `- entry ${i + 1}`).join('\n')}\n`;
    fs.writeFileSync(path.join(dir, 'MEMORY.md'), raw);
    const a = analyze(opts);
    const lens = (p: string, text = fs.readFileSync(p, 'utf8')) => fileLenses(a, p, text, 'claude-opus-5-5', englishT, 'en');
    assert.deepEqual(lens(path.join(dir, 'MEMORY.md')), [{ line: 0, title: `190/200 lines · ${(a.memory.index!.units).toLocaleString('en-US')}/25,000 chars · loaded in full` }]);
    fs.writeFileSync(path.join(dir, 'MEMORY.md'), `${raw}${Array.from({ length: 20 }, (_, i) => `- more ${i}`).join('\n')}\n`);
    const b = analyze(opts);
    const overLens = fileLenses(b, path.join(dir, 'MEMORY.md'), '', 'claude-opus-5-5', englishT, 'en');
    assert.deepEqual(overLens.map((l) => l.title.replace(/[\d,]+\/25,000/, 'U')), ['210/200 lines · U chars · cut at line 204', 'lines 204-213 are not loaded']);
    assert.deepEqual(overLens.map((l) => l.line), [0, 203]);
    fs.writeFileSync(t.p('repo/notes/MEMORY.md'.replace('notes/', '')), '- a\n- b\n');
    assert.match(fileLenses(b, t.p('repo/MEMORY.md'), '', 'm', englishT, 'en')[0]!.title, /^2\/200 lines · 7\/25,000 chars · not this project's memory index/);

    assert.match(lens(t.p('repo/CLAUDE.md'))[0]!.title, /^eager · [\d,]+ chars · ≈[\d,]+ tokens$/);
    assert.match(lens(t.p('repo/docs/testing.md'))[0]!.title, /^eager · [\d,]+ chars · ≈[\d,]+ tokens · @-included by CLAUDE\.md$/);
    assert.equal(lens(t.p('repo/.claude/rules/api.md'))[0]!.title, 'lazy: when src/api/** is read or edited');
    assert.match(lens(t.p('repo/pkg/CLAUDE.md'))[0]!.title, /^lazy: when a file under pkg\/ is read · 10 chars, 1 lines$/);
    assert.equal(lens(t.p('repo/pkg/.claude/rules/pkgrule.md'))[0]!.title, 'lazy: when src/** is read or edited · matched from pkg/');
    assert.equal(lens(t.p('repo/pkg/claude.md'), 'x')[0]!.title, 'not loaded: Claude Code reads this name only as CLAUDE.md');

    const old = analyze({ ...opts, claudeVersion: '2.1.235' });
    assert.equal(fileLenses(old, t.p('repo/.claude/rules/api.md'), '', 'm', englishT, 'en')[0]!.title, 'lazy: when src/api/** is read');
  } finally {
    t.cleanup();
  }
});

test('MEMORY.md figures come from the engine report, the cut in the file\'s own lines', () => {
  const { t, opts } = demo();
  try {
    const dir = analyze(opts).memory.location.dir;
    fs.mkdirSync(dir, { recursive: true });
    const raw = `---\nk: v\n---\n<!-- c -->\n${Array.from({ length: 230 }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
    fs.writeFileSync(path.join(dir, 'MEMORY.md'), raw);
    const f = memoryFigures(analyze(opts))!;
    assert.equal(f.truncated, true);
    assert.deepEqual(f.cut, { from: 205, to: 234 });
    assert.deepEqual(f.lostLinks, []);
  } finally {
    t.cleanup();
  }
});

test('frontmatter spans of paths: in flow, block and plain forms', () => {
  const flow = scanFrontmatter('---\npaths: ["src/api/**", \'lib/{a,b}/**\']\ndescription: x\n---\nbody')!;
  assert.deepEqual(flow.patterns.map((p) => [p.raw, p.line, p.start, p.end]), [['src/api/**', 1, 9, 19], ['lib/{a,b}/**', 1, 23, 35]]);
  const block = scanFrontmatter('---\npaths:\n  - src/**/*.ts\n  - "test/**" # tests\nname: n\n---\n')!;
  assert.deepEqual(block.patterns.map((p) => [p.raw, p.line, p.start]), [['src/**/*.ts', 2, 4], ['test/**', 3, 5]]);
  const plain = scanFrontmatter('---\npaths: src/**, lib/{x,y}.ts , docs\n---\n')!;
  assert.deepEqual(plain.patterns.map((p) => p.raw), ['src/**', 'lib/{x,y}.ts', 'docs']);
  const globs = scanFrontmatter('---\nglobs: src/**\n---\n')!;
  assert.equal(globs.patternKey, 'globs');
  assert.equal(scanFrontmatter('no frontmatter'), undefined);
  assert.equal(scanFrontmatter('---\nunclosed: yes\n'), undefined);
});

test('glob report: counts, base, probes and the traps', () => {
  const files = ['/w/src/api/a.ts', '/w/src/api/b.ts', '/w/src/web/c.ts', '/w/README.md', '/w/pkg/src/api/d.ts'];
  const rel = (p: string) => displayPath(p, '/w', '/home/u');
  const base = { base: '/w', launchDir: '/w', home: '/home/u', files, t: englishT, rel };
  const r = globReport({ ...base, raw: 'src/api/**', probes: ['/w/src/api/a.ts', '/w/README.md'] });
  assert.deepEqual(r.used, ['src/api']);
  assert.equal(r.count, 2);
  assert.deepEqual(r.sample, ['/w/src/api/a.ts', '/w/src/api/b.ts']);
  assert.deepEqual(r.probes.map((p) => p.matches), [true, false]);
  assert.deepEqual(r.warnings, []);
  assert.match(r.notes.join('\n'), /ignores case/);

  const dot = globReport({ ...base, raw: './src/**' });
  assert.equal(dot.count, 0);
  assert.match(dot.warnings[0]!, /\.\/src never matches: .*leading \.\/ is never stripped; write src/);
  const any = globReport({ ...base, raw: '*.ts' });
  assert.equal(any.count, 4);
  assert.match(any.notes[0]!, /no folder part, so it matches at any depth/);
  const abs = globReport({ ...base, raw: '/w/src/**' });
  assert.match(abs.warnings.join('\n'), /an absolute path is read relative to/);
  const up = globReport({ ...base, raw: '../other/**' });
  assert.match(up.warnings.join('\n'), /points outside/);
  const all = globReport({ ...base, raw: '**' });
  assert.equal(all.used, undefined);
  assert.match(all.warnings[0]!, /unconditional/);
  assert.equal(globReport({ ...base, raw: 'src/{api,web}/**' }).count, 3);
  assert.equal(globReport({ ...base, raw: 'SRC/API/**' }).count, 2, 'case-insensitive, as Claude Code matches');
});

test('@import links: code spans and code blocks do not count; \\ escapes and fragments are handled', () => {
  const text = 'See @docs/a.md#intro and `@not/this.md`\n\n```\n@nor/this.md\n```\n\n@name\\ with\\ space.md\n';
  const links = includeLinks(text, '/r/CLAUDE.md', '/home/u', true);
  assert.deepEqual(links.map((l) => [l.spec, l.target, l.line, l.start, l.end]), [
    ['docs/a.md', '/r/docs/a.md', 0, 5, 14],
    ['name with space.md', '/r/name with space.md', 6, 1, 21],
  ]);
});

test('the cache: editor switches read nothing from disk; a change nobody read is ignored; a relevant one rebuilds once', (tc) => {
  // the debounce runs on a fake clock: the test never waits on real time
  tc.mock.timers.enable({ apis: ['setTimeout'] });
  const { t, opts } = demo();
  try {
    const svc = new AnalysisService(() => opts, 20, nodeFileAccess);
    const a = svc.get('k').analysis!;
    a.lazyFor(t.p('repo/src/api/client.ts'));
    a.lazyFor(t.p('repo/pkg/a.ts'));
    const ops = svc.fs.diskOps;
    for (let i = 0; i < 20; i++) {
      svc.get('k').analysis!.lazyFor(t.p('repo/src/api/client.ts'));
      svc.get('k').analysis!.lazyFor(t.p('repo/pkg/a.ts'));
      svc.get('k').analysis!.lazyFor(t.p('repo/README.md'));
    }
    assert.ok(svc.fs.diskOps - ops <= 4, `switching editors read ${svc.fs.diskOps - ops} paths`);
    assert.equal(svc.builds, 1);

    let changes = 0;
    svc.onDidChange(() => changes++);
    assert.equal(svc.pathsChanged([t.p('repo/src/api/client.ts')]), false, 'a source file the engine never read');
    fs.writeFileSync(t.p('repo/.claude/rules/api.md'), '---\npaths: ["docs/**"]\n---\nAPI RULE');
    assert.equal(svc.pathsChanged([t.p('repo/.claude/rules/api.md')]), true);
    assert.equal(svc.pathsChanged([t.p('repo/.claude/rules/api.md')]), true);
    tc.mock.timers.tick(19);
    assert.equal(changes, 0, 'nothing before the debounce ends');
    tc.mock.timers.tick(1);
    assert.equal(changes, 1, 'debounced into one refresh');
    assert.equal(svc.builds, 2);
    assert.deepEqual(svc.get('k').analysis!.lazyFor(t.p('repo/src/api/client.ts')), []);

    fs.writeFileSync(t.p('repo/src/api/CLAUDE.md'), 'NEW NESTED');
    assert.equal(svc.pathsChanged([t.p('repo/src/api/CLAUDE.md')]), true, 'a file whose absence the engine had seen');
    svc.flush();
    assert.deepEqual(svc.get('k').analysis!.lazyFor(t.p('repo/src/api/client.ts')).map((i) => i.path), [t.p('repo/src/api/CLAUDE.md')]);
    const watched = svc.fs.watchedFolders();
    assert.ok(watched.has(t.p('home/.claude')), 'the user folder is among the folders to watch');
    svc.dispose();
  } finally {
    t.cleanup();
  }
});

test('sidebar header: the version asked for, and a plain note plus Verify when it has no profile', () => {
  const { t, opts } = demo();
  try {
    const unknown = input(analyze({ ...opts, claudeVersion: '2.1.340' }), { version: { source: 'detected', requested: '2.1.340' } });
    assert.ok(isViewState(unknown));
    assert.equal(unknown.header.version, 'Claude Code 2.1.340');
    assert.match(unknown.header.versionNote!, /^2\.1\.340: no profile yet; using 2\.1\.\d+'s; `claude-layers verify` checks it against the installed claude$/);
    assert.deepEqual(unknown.header.verify, { command: 'verify', label: 'Verify…' });
    // the sidebar says it in the user's language (the engine's note is the CLI's English)
    const zh = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../l10n/bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;
    const zhT = (m: string, ...args: Array<string | number | boolean>) => englishT(zh[m] ?? m, ...args);
    const inZh = input(analyze({ ...opts, claudeVersion: '2.1.340' }), { version: { source: 'detected', requested: '2.1.340' }, t: zhT, locale: 'zh-cn' });
    assert.match(inZh.header.versionNote!, /^2\.1\.340：还没有配置档；使用 2\.1\.\d+ 的；`claude-layers verify` 会对照已安装的 claude 检验它$/);
    assert.match(input(analyze({ ...opts, claudeVersion: '2.1.100' }), { t: zhT }).header.versionNote!, /^2\.1\.100：没有配置档（早于所有配置档）；使用 2\.1\.235 的/);
    assert.equal(input(analyze({ ...opts, claudeVersion: '2.1.340' }), { trusted: false }).header.verify, undefined, 'Verify runs claude: not offered untrusted');
    const known = input(analyze({ ...opts, claudeVersion: '2.1.332' }), { version: { source: 'detected', requested: '2.1.332' } });
    assert.equal(known.header.version, 'Claude Code 2.1.332');
    assert.equal(known.header.verify, undefined);
    assert.equal(known.header.versionNote, undefined, 'where the version came from is behind Change…');
    assert.equal(known.header.source, 'detected with claude --version');
  } finally {
    t.cleanup();
  }
});

test('small helpers: versions, display paths, previews', () => {
  assert.equal(parseVersion('2.1.328 (Claude Code)\n'), '2.1.328');
  assert.equal(parseVersion('nothing'), undefined);
  assert.equal(findOnPath('definitely-not-a-command-xyz', '/usr/bin:relative/dir'), undefined);
  assert.equal(displayPath('/home/u/.claude/CLAUDE.md', '/w', '/home/u'), '~/.claude/CLAUDE.md');
  assert.equal(displayPath('/w/a/b.md', '/w', '/home/u'), 'a/b.md');
  assert.equal(displayPath('/etc/x', '/w', '/home/u'), '/etc/x');
  assert.equal(firstLine('# Title\n\nBody line\n'), 'Body line');
  assert.equal(firstLine('# Only a title'), '# Only a title');
});
