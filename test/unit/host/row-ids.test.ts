// Row ids come from what a row is, not from where it sits: the webview remembers open branches by
// id, so adding a rule, a nested folder, a startup file or a skill above another must leave the
// other's id as it was; ids are unique across the view whatever the file names; memory keyed by the
// old position ids still loads and draws (those keys simply match nothing).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { Window } from 'happy-dom';
import { analyze, type EngineOptions } from '../../../src/engine/index.js';
import { englishT } from '../../../src/host/format.js';
import { present } from '../../../src/host/sidebar/present.js';
import { idPart, pathPart, RowIds } from '../../../src/host/sidebar/row-ids.js';
import { createRenderer } from '../../../webview/render.js';
import { isViewState, parseUiMemory, type Row, type ViewState } from '../../../webview/protocol.js';
import { makeTree } from '../../helpers/fixture.js';

function allRows(v: ViewState): Row[] {
  const out: Row[] = [];
  const walk = (rows: readonly Row[]) => {
    for (const r of rows) {
      out.push(r);
      if (r.children) walk(r.children);
    }
  };
  for (const s of v.sections) walk(s.rows);
  return out;
}

const byLabel = (v: ViewState) => new Map(allRows(v).map((r) => [`${r.label}|${r.path ?? ''}`, r.id]));

test('idPart: injective over awkward names, bounded, never throws', () => {
  const names = ['a/b', 'a%2Fb', 'a%002fb', 'a~2', 'a', '', '%', 'a b', 'ä', '\u00e4', 'a\u0308', '\ud800', '\udc00', '__proto__', 'constructor', '../x', 'x/..', 'a'.repeat(500), `${'a'.repeat(499)}b`];
  const parts = names.map(idPart);
  assert.equal(new Set(parts).size, new Set(names).size, 'distinct names give distinct segments');
  for (const p of parts) {
    assert.match(p, /^[A-Za-z0-9._%-]+$/, 'no "/" (so a name never passes for a separator) and no "~" (the duplicate suffix)');
    assert.ok(p.length <= 160, 'short enough for the UI memory');
  }
  assert.equal(idPart('api.md'), 'api.md', 'plain names stay readable');
  assert.equal(pathPart('/w', '/w/.claude/rules/api.md'), idPart('.claude/rules/api.md'));
  assert.equal(pathPart('/w', '<managed settings>'), idPart('<managed settings>'), 'a pseudo path is kept as it is');
  const ids = new RowIds('p');
  assert.deepEqual([ids.take('x'), ids.take('y'), ids.take('x'), ids.take('x')], ['p/x', 'p/y', 'p/x~2', 'p/x~3'], 'a repeated key still gives unique ids');
});

test('inserting an entry before another keeps the other row\'s id; ids are unique across the view', () => {
  const files: Record<string, string> = {
    'repo/.git/HEAD': 'ref: refs/heads/main\n',
    'repo/CLAUDE.md': '# Demo\n\n@docs/z.md\n',
    'repo/docs/z.md': 'Z doc\n',
    'repo/.claude/rules/m-rule.md': '---\npaths: ["lib/**"]\n---\nM rule\n',
    'repo/.claude/rules/style.md': 'STYLE always\n',
    'repo/.claude/skills/zeta/SKILL.md': '---\nname: zeta\ndescription: the zeta skill\n---\nbody\n',
    'repo/pkg/z/CLAUDE.md': 'Z nested',
    'repo/pkg/z/.claude/rules/r.md': '---\npaths: x/**\n---\nR',
    'repo/src/a.ts': 'x',
  };
  const t = makeTree(files);
  try {
    const opts: EngineOptions = { cwd: t.p('repo'), home: t.p('home'), env: {}, managedDir: t.p('none'), claudeVersion: '2.1.328' };
    const view = (nested: string[]) =>
      present({ analysis: analyze(opts), version: { source: 'setting', requested: '2.1.328' }, model: 'claude-opus-5-5', trusted: true, t: englishT, locale: 'en', today: '2026-01-01', activeFile: t.p('repo/src/a.ts'), nestedFiles: nested.map(t.p) });
    const before = view(['repo/pkg/z/CLAUDE.md', 'repo/pkg/z/.claude/rules/r.md']);
    // entries that sort (or are listed) before each existing one: a rule, an @import, an always-on rule, a skill, a nested folder and a nested file
    fs.writeFileSync(t.p('repo/.claude/rules/a-rule.md'), '---\npaths: ["app/**"]\n---\nA rule\n');
    fs.writeFileSync(t.p('repo/.claude/rules/aaa.md'), 'AAA always\n');
    fs.writeFileSync(t.p('repo/CLAUDE.md'), '# Demo\n\n@docs/a.md\n@docs/z.md\n');
    fs.writeFileSync(t.p('repo/docs/a.md'), 'A doc\n');
    fs.mkdirSync(t.p('repo/.claude/skills/alpha'), { recursive: true });
    fs.writeFileSync(t.p('repo/.claude/skills/alpha/SKILL.md'), '---\nname: alpha\ndescription: the alpha skill\n---\nbody\n');
    fs.mkdirSync(t.p('repo/pkg/a'), { recursive: true });
    fs.writeFileSync(t.p('repo/pkg/a/CLAUDE.md'), 'A nested');
    fs.writeFileSync(t.p('repo/pkg/z/AGENTS.md'), 'agents');
    const after = view(['repo/pkg/a/CLAUDE.md', 'repo/pkg/z/AGENTS.md', 'repo/pkg/z/CLAUDE.md', 'repo/pkg/z/.claude/rules/r.md']);
    assert.ok(isViewState(before) && isViewState(after));

    const was = byLabel(before);
    const now = byLabel(after);
    const kept: [string, string][] = [
      ['.claude/rules/m-rule.md', 'repo/.claude/rules/m-rule.md'], ['docs/z.md', 'repo/docs/z.md'], ['.claude/rules/style.md', 'repo/.claude/rules/style.md'],
      ['pkg/z/', ''], ['CLAUDE.md', 'repo/CLAUDE.md'], ['CLAUDE.md', 'repo/pkg/z/CLAUDE.md'], ['.claude/rules/r.md', 'repo/pkg/z/.claude/rules/r.md'], ['zeta', 'repo/.claude/skills/zeta/SKILL.md'],
    ];
    for (const [label, file] of kept) {
      const key = `${label}|${file ? t.p(file) : ''}`;
      assert.ok(key, `${label} is a row before the insertion`);
      assert.equal(now.get(key), was.get(key), `${label} keeps its id (${was.get(key)}) when an entry is added before it`);
    }
    // the new rows are there, and where the order is the engine's (imports in file order, folders sorted) they come first, so the old ones moved
    const rules = after.sections.find((s) => s.id === 'elsewhere')!.rows.find((r) => r.id === 'elsewhere/rules')!.children!;
    assert.deepEqual(rules.map((r) => r.label).sort(), ['.claude/rules/a-rule.md', '.claude/rules/m-rule.md']);
    const startup = after.sections.find((s) => s.id === 'startup')!.rows.map((r) => r.label);
    assert.ok(startup.indexOf('docs/a.md') >= 0 && startup.indexOf('docs/a.md') < startup.indexOf('docs/z.md'), `docs/a.md before docs/z.md (${startup.join(', ')})`);
    const folders = after.sections.find((s) => s.id === 'elsewhere')!.rows.find((r) => r.id === 'elsewhere/nested')!.children!;
    assert.deepEqual(folders.map((r) => r.label), ['pkg/a/', 'pkg/z/']);
    assert.deepEqual(folders[1]!.children!.map((r) => r.label).slice(0, 1), ['.claude/rules/r.md']);
    const skills = after.sections.find((s) => s.id === 'startup')!.rows.find((r) => r.id === 'startup/skills')!.children!.map((r) => r.label);
    assert.ok(skills.indexOf('alpha') >= 0 && skills.indexOf('alpha') < skills.indexOf('zeta'), `alpha listed before zeta (${skills.join(', ')})`);

    for (const v of [before, after]) {
      const ids = allRows(v).map((r) => r.id);
      assert.equal(new Set(ids).size, ids.length, `row ids are unique: ${ids.filter((x, k) => ids.indexOf(x) !== k).join(', ')}`);
    }
  } finally {
    t.cleanup();
  }
});

test('ids from hostile file names: "/" in names and look-alike paths never collide', () => {
  // folder "a/b" + file "c" and folder "a" + file "b/c" would both be ".../a/b/c" if "/" were not escaped
  const t = makeTree({
    'repo/.git/HEAD': 'ref: refs/heads/main\n',
    'repo/CLAUDE.md': 'root',
    'repo/a/CLAUDE.md': 'a',
    'repo/a/b/CLAUDE.md': 'ab',
    'repo/a/b/.claude/rules/c.md': '---\npaths: q/**\n---\nc',
    'repo/a/.claude/rules/b%2Fc.md': '---\npaths: q/**\n---\nc',
    'repo/a/.claude/rules/b~2.md': '---\npaths: q/**\n---\nc',
  });
  try {
    const opts: EngineOptions = { cwd: t.p('repo'), home: t.p('home'), env: {}, managedDir: t.p('none'), claudeVersion: '2.1.328' };
    const nested = ['repo/a/CLAUDE.md', 'repo/a/b/CLAUDE.md', 'repo/a/b/.claude/rules/c.md', 'repo/a/.claude/rules/b%2Fc.md', 'repo/a/.claude/rules/b~2.md'].map(t.p);
    const v = present({ analysis: analyze(opts), version: { source: 'setting', requested: '2.1.328' }, model: 'claude-opus-5-5', trusted: true, t: englishT, locale: 'en', today: '2026-01-01', nestedFiles: nested });
    const ids = allRows(v).map((r) => r.id);
    assert.ok(ids.filter((x) => x.startsWith('elsewhere/nested/')).length >= 5, `the nested rows are there: ${ids.join(', ')}`);
    assert.equal(new Set(ids).size, ids.length, 'unique');
  } finally {
    t.cleanup();
  }
});

test('UI memory keyed by the old position ids loads and draws: the keys just match nothing', () => {
  const old = { open: { 'elsewhere/nested/0': false, 'elsewhere/rules/3': true, 'startup/skill/2': true, 'notLoaded/0': true, 'section/startup': false, 'help/startup': true }, scroll: 40, savedAt: 1 };
  const parsed = parseUiMemory(JSON.parse(JSON.stringify(old)));
  assert.deepEqual(parsed, old, 'the protocol keeps them (strings to booleans)');
  const window = new Window();
  const root = window.document.createElement('main');
  window.document.body.append(root);
  const r = createRenderer(root as unknown as HTMLElement, () => {}, parsed);
  const state: ViewState = {
    header: { version: 'Claude Code 2.1.328', model: 'm', launchDir: '/w', change: { command: 'configure', label: 'Change…' } },
    gaugesTitle: 'Gauges',
    helpLabel: 'About {0}',
    gauges: [],
    sections: [
      { id: 'startup', title: 'Startup', open: true, rows: [{ id: 'startup/file/CLAUDE.md', label: 'CLAUDE.md', aria: 'CLAUDE.md' }] },
      {
        id: 'elsewhere',
        title: 'Lazy elsewhere',
        open: true,
        rows: [{ id: 'elsewhere/nested', label: 'Nested folders', aria: 'Nested folders', open: true, children: [{ id: 'elsewhere/nested/pkg', label: 'pkg/', aria: 'pkg', open: true, children: [{ id: 'elsewhere/nested/pkg/CLAUDE.md', label: 'CLAUDE.md', aria: 'x' }] }] }],
      },
    ],
  };
  r.update(state);
  const pkg = root.querySelector('[data-id="elsewhere/nested/pkg"]')!;
  assert.equal(pkg.getAttribute('aria-expanded'), 'true', 'the old "elsewhere/nested/0": false does not close the folder now keyed by its path');
  assert.equal(root.querySelector('section[data-section="startup"] .section-toggle')!.getAttribute('aria-expanded'), 'false', 'section keys (never positional) still apply');
});
