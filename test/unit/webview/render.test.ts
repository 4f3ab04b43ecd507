// The webview's drawing and input handling in a DOM (happy-dom): hostile names and contents stay
// text, rows and gauges open their file by click or keyboard, buttons send commands, the state and
// every message are validated by the shared protocol.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Window } from 'happy-dom';
import { createRenderer, splitLabel, type UiMemory } from '../../../webview/render.js';
import { isViewState, openablePaths, parseHostMessage, parseWebviewMessage, PROTOCOL_VERSION, type ViewState, type WebviewMessage } from '../../../webview/protocol.js';

const HOSTILE = '<img src=x onerror=alert(1)>.md';

function state(): ViewState {
  return {
    header: { version: 'Claude Code 2.1.328', model: 'claude-opus-5-5', launchDir: '/w', versionNote: 'from the setting', change: { command: 'configure', label: 'Change…' } },
    gaugesTitle: 'Gauges',
    helpLabel: 'About {0}',
    gauges: [{ id: 'memory-lines', label: 'MEMORY.md lines', value: 210, max: 200, text: '210/200', note: 'lines 205-214 are not loaded', counts: 'lines of the file; the row counts what is sent', level: 'over', aria: 'MEMORY.md: 210 of 200 lines', path: '/m/MEMORY.md', line: 205 }],
    sections: [
      {
        id: 'startup',
        title: 'Startup (eager)',
        summary: '2 files',
        help: 'What loads at startup.',
        open: true,
        rows: [
          { id: 's/0', label: 'CLAUDE.md', description: 'Project · launch directory', badge: '276 chars', aria: 'CLAUDE.md, eager', path: '/w/CLAUDE.md' },
          { id: 's/1', label: `.claude/rules/${HOSTILE}`, description: 'Project · <script>alert("xss")</script>', aria: `${HOSTILE} <b>x</b>`, detail: '<i>tip</i>', path: `/w/.claude/rules/${HOSTILE}`, severity: 'warning' },
        ],
      },
      { id: 'active', title: 'When client.ts is read (lazy)', headline: 'Reading client.ts injects 1 file, 249 chars', open: true, rows: [{ id: 'a/0', label: '.claude/rules/api.md', aria: 'api.md', path: '/w/.claude/rules/api.md', line: 2 }] },
      {
        id: 'elsewhere',
        title: 'Lazy elsewhere',
        open: true,
        rows: [{ id: 'e/g', label: 'Nested folders', aria: 'Nested folders', open: false, children: [{ id: 'e/g/0', label: 'pkg/', aria: 'pkg', path: '/w/pkg/CLAUDE.md' }] }],
      },
      { id: 'notLoaded', title: 'Not loaded', open: false, rows: [], empty: 'Nothing dropped.' },
      { id: 'session', title: 'A session', open: false, rows: [], actions: [{ command: 'sessionAddActive', label: 'Add the active file' }] },
    ],
  };
}

function setup(st: ViewState = state()) {
  const window = new Window();
  const document = window.document;
  const root = document.createElement('main');
  document.body.append(root);
  const posted: WebviewMessage[] = [];
  const r = createRenderer(root as unknown as HTMLElement, (m) => posted.push(m));
  r.update(st);
  return { window, document, root, posted, r };
}

test('file names and contents are drawn as text, never as markup', () => {
  const { root } = setup();
  assert.equal(root.querySelectorAll('img, script, b, i').length, 0);
  const item = root.querySelectorAll('[data-section="startup"] [role="treeitem"]')[1]!;
  assert.equal(item.querySelector('.row-label')!.textContent, `.claude/rules/${HOSTILE}`);
  assert.equal(item.querySelector('.label-name')!.textContent, HOSTILE);
  assert.equal(item.querySelector('.label-dir')!.textContent, '.claude/rules/');
  assert.equal(item.querySelector('.row-description')!.textContent, 'Project · <script>alert("xss")</script>');
  assert.equal(item.getAttribute('aria-label'), `${HOSTILE} <b>x</b>`);
  assert.equal(item.querySelector('.row')!.getAttribute('title'), '<i>tip</i>');
  const sev = item.querySelector('.sev')!;
  assert.ok(sev.classList.contains('codicon-warning') && sev.getAttribute('aria-hidden') === 'true', 'a codicon, not a character');
  assert.equal(sev.textContent, '');
});

test('splitLabel keeps the last segment whole (middle ellipsis cuts only the folder)', () => {
  assert.deepEqual(splitLabel('.claude/rules/api.md'), ['.claude/rules/', 'api.md']);
  assert.deepEqual(splitLabel('packages/web/'), ['packages/', 'web/']);
  assert.deepEqual(splitLabel('MEMORY.md (auto-memory)'), ['', 'MEMORY.md (auto-memory)']);
  assert.deepEqual(splitLabel('1. Read src/api/client.ts'), ['1. Read src/api/', 'client.ts']);
  assert.deepEqual(splitLabel('/etc'), ['', '/etc']);
});

test('structure: sections in the host\'s order, the gauges last, headline, empty text, branches', () => {
  const { root } = setup();
  assert.deepEqual([...root.querySelectorAll('section.section')].map((c) => c.getAttribute('data-section')), ['startup', 'active', 'elsewhere', 'notLoaded', 'session', 'gauges']);
  assert.equal(root.querySelector('[data-section="active"] .headline')!.textContent, 'Reading client.ts injects 1 file, 249 chars');
  assert.equal(root.querySelector('[data-section="notLoaded"] .empty')!.textContent, 'Nothing dropped.');
  assert.equal(root.querySelector('[data-section="startup"] .section-title')!.textContent, 'Startup (eager)');
  assert.equal(root.querySelector('[data-section="notLoaded"] .section-body')!.hasAttribute('hidden'), true);
  const branch = root.querySelector('[data-id="e/g"]')!;
  assert.equal(branch.getAttribute('aria-expanded'), 'false');
  assert.equal(branch.querySelector(':scope > [role="group"]')!.hasAttribute('hidden'), true);
  assert.equal(branch.querySelector('[data-id="e/g/0"]')!.getAttribute('aria-level'), '2');
  const gauge = root.querySelector('[data-id="gauge/memory-lines"]')!;
  assert.equal(gauge.getAttribute('role'), 'meter');
  assert.equal(gauge.getAttribute('aria-valuenow'), '200');
  assert.equal(gauge.getAttribute('aria-valuemax'), '200');
  assert.equal(gauge.getAttribute('aria-label'), 'MEMORY.md: 210 of 200 lines');
  assert.equal(gauge.querySelector('.gauge-counts')!.textContent, 'lines of the file; the row counts what is sent');
  assert.equal((gauge.querySelector('.fill') as unknown as HTMLElement).style.width, '100.00%');
  assert.equal(root.querySelector('header .version')!.textContent, 'Claude Code 2.1.328');
});

test('accessibility: headers are buttons with aria-expanded and a name that reads well; leaves have no group', () => {
  const { root } = setup();
  const toggles = [...root.querySelectorAll('.section-head > h2 > button.section-toggle')];
  assert.equal(toggles.length, 6);
  const startup = root.querySelector('[data-section="startup"] .section-toggle')!;
  assert.equal(startup.getAttribute('aria-expanded'), 'true');
  assert.equal(startup.getAttribute('aria-label'), 'Startup (eager), 2 files');
  assert.equal(root.querySelector(`#${startup.getAttribute('aria-controls')}`)!.getAttribute('role'), 'region');
  for (const leaf of root.querySelectorAll('[role="treeitem"]:not([aria-expanded])')) assert.equal(leaf.querySelector('[role="group"]'), null, 'a leaf has no group');
  for (const ch of root.querySelectorAll('.codicon')) assert.equal(ch.getAttribute('aria-hidden'), 'true');
  const help = root.querySelector('[data-section="startup"] .help-toggle')!;
  assert.equal(help.closest('h2'), null, 'the ? is beside the heading, not in its name');
  assert.equal(help.getAttribute('aria-label'), 'About Startup (eager)');
  assert.equal(help.getAttribute('aria-expanded'), 'false');
  // each tree is one tab stop
  for (const tree of root.querySelectorAll('[role="tree"]')) assert.equal(tree.querySelectorAll('[tabindex="0"]').length, 1);
});

test('click and Enter open a row at its line; gauges open too; buttons send their command once', () => {
  const { window, root, posted } = setup();
  const row = root.querySelector('[data-id="a/0"] .row-label')!;
  row.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
  assert.deepEqual(posted.at(-1), { type: 'open', path: '/w/.claude/rules/api.md', line: 2 });
  root.querySelector('[data-id="s/0"]')!.dispatchEvent(new window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  assert.deepEqual(posted.at(-1), { type: 'open', path: '/w/CLAUDE.md' });
  root.querySelector('[data-id="gauge/memory-lines"]')!.dispatchEvent(new window.KeyboardEvent('keydown', { key: ' ', bubbles: true }));
  assert.deepEqual(posted.at(-1), { type: 'open', path: '/m/MEMORY.md', line: 205 });
  const n = posted.length;
  root.querySelector('[data-id="e/g"] .row')!.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
  assert.equal(posted.length, n, 'a group without a file opens nothing');
  assert.equal(root.querySelector('[data-id="e/g"]')!.getAttribute('aria-expanded'), 'true', 'a click on a group toggles it');
  const add = root.querySelector('vscode-button[data-command="sessionAddActive"]')!;
  add.dispatchEvent(new window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  assert.equal(posted.length, n, 'Enter on a button is left to the button, which clicks');
  add.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
  assert.deepEqual(posted.slice(n), [{ type: 'command', command: 'sessionAddActive' }]);
  root.querySelector('header vscode-button')!.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
  assert.deepEqual(posted.at(-1), { type: 'command', command: 'configure' });
});

test('keyboard in trees: arrows, Home/End, Right/Left open and close, Space toggles a group', () => {
  const { window, document, root } = setup();
  // happy-dom's own element and event types (not the lib.dom ones)
  const key = (t: unknown, k: string) => (t as { dispatchEvent(e: unknown): boolean }).dispatchEvent(new window.KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
  const active = () => (document.activeElement as unknown as HTMLElement | null)?.getAttribute('data-id');
  const s0 = root.querySelector('[data-id="s/0"]') as unknown as HTMLElement;
  s0.focus();
  key(s0, 'End');
  assert.equal(active(), 's/1');
  key(document.activeElement, 'Home');
  assert.equal(active(), 's/0');
  key(document.activeElement, 'ArrowDown');
  assert.equal(active(), 's/1');
  assert.equal(root.querySelector('[data-id="s/1"]')!.getAttribute('tabindex'), '0');
  assert.equal(root.querySelector('[data-id="s/0"]')!.getAttribute('tabindex'), '-1');
  const g = root.querySelector('[data-id="e/g"]') as unknown as HTMLElement;
  g.focus();
  key(g, 'ArrowRight');
  assert.equal(g.getAttribute('aria-expanded'), 'true');
  key(g, 'ArrowRight');
  assert.equal(active(), 'e/g/0');
  key(document.activeElement, 'ArrowLeft');
  assert.equal(active(), 'e/g');
  key(g, ' ');
  assert.equal(g.getAttribute('aria-expanded'), 'false');
  key(g, 'End');
  assert.equal(active(), 'e/g', 'a closed group hides its children from Home/End');
});

test('Space and Enter on a section header toggle it (native button); the state survives the next update and is saved', () => {
  const window = new Window();
  const document = window.document;
  const root = document.createElement('main');
  document.body.append(root);
  const saved: UiMemory[] = [];
  const scroller = { scrollTop: 0 };
  const r = createRenderer(root as unknown as HTMLElement, () => undefined, { open: { 'section/active': false }, scroll: 120 }, { save: (m) => saved.push(m), scroller: () => scroller });
  r.update(state());
  assert.equal(scroller.scrollTop, 120, 'the saved scroll position comes back on the first draw');
  assert.equal(root.querySelector('[data-section="active"] .section-toggle')!.getAttribute('aria-expanded'), 'false', 'the saved open state comes back');
  const btn = root.querySelector('[data-section="startup"] .section-toggle')!;
  btn.dispatchEvent(new window.MouseEvent('click', { bubbles: true })); // a native button clicks on Space and Enter
  assert.equal(btn.getAttribute('aria-expanded'), 'false');
  assert.equal(root.querySelector('[data-section="startup"] .section-body')!.hasAttribute('hidden'), true);
  assert.equal(saved.at(-1)!.open['section/startup'], false);
  root.querySelector('[data-id="e/g"] .twistie')!.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
  assert.equal(saved.at(-1)!.open['e/g'], true);
  root.querySelector('[data-section="startup"] .help-toggle')!.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
  assert.equal(root.querySelector('[data-section="startup"] .help-text')!.hasAttribute('hidden'), false);
  const row = root.querySelector('[data-id="s/0"]') as unknown as HTMLElement;
  row.focus();
  scroller.scrollTop = 42;
  r.update(state());
  assert.equal(scroller.scrollTop, 42, 'a later update keeps the current scroll position');
  assert.equal(root.querySelector('[data-section="startup"] .section-toggle')!.getAttribute('aria-expanded'), 'false');
  assert.equal(root.querySelector('[data-id="e/g"]')!.getAttribute('aria-expanded'), 'true');
  assert.equal(root.querySelector('[data-section="startup"] .help-text')!.hasAttribute('hidden'), false);
  assert.equal(r.memory().open['section/startup'], false);
  assert.equal((document.activeElement as unknown as HTMLElement | null)?.getAttribute('data-id'), 's/0');
});

test('a patch replaces only the sections it carries; the memory kept by the host applies after a reload', () => {
  const { window, root, r } = setup();
  const startupEl = root.querySelector('section[data-section="startup"]');
  const next = state().sections.find((x) => x.id === 'active')!;
  r.patch([{ ...next, headline: 'Reading README.md injects nothing', rows: [] }]);
  assert.equal(root.querySelector('[data-section="active"] .headline')!.textContent, 'Reading README.md injects nothing');
  assert.equal(root.querySelector('section[data-section="startup"]'), startupEl, 'the other sections are the same elements');
  r.restore({ open: { 'section/startup': false, 'e/g': true } });
  assert.equal(root.querySelector('[data-section="startup"] .section-toggle')!.getAttribute('aria-expanded'), 'false');
  assert.equal(root.querySelector('[data-id="e/g"]')!.getAttribute('aria-expanded'), 'true');
  assert.equal(root.querySelector('[data-section="active"] .headline')!.textContent, 'Reading README.md injects nothing', 'the patched section survives the redraw');
  // a copy older than the webview's own change is ignored
  root.querySelector('[data-section="startup"] .section-toggle')!.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
  assert.equal(r.memory().open['section/startup'], true);
  r.restore({ open: { 'section/startup': false }, savedAt: 1 });
  assert.equal(r.memory().open['section/startup'], true, 'the older copy lost');
  assert.deepEqual(parseHostMessage({ type: 'memory', memory: { open: { a: true, b: 'x' }, scroll: 3 } }), { type: 'memory', memory: { open: { a: true }, scroll: 3 } });
  assert.equal(parseHostMessage({ type: 'sections', version: PROTOCOL_VERSION, sections: [{ id: 'nope' }] }), undefined);
  assert.deepEqual(parseWebviewMessage({ type: 'memory', memory: { open: { 'section/x': false } } }), { type: 'memory', memory: { open: { 'section/x': false } } });
});

test('protocol: valid messages pass, anything else is dropped', () => {
  const s = state();
  assert.ok(isViewState(s));
  assert.deepEqual(parseHostMessage({ type: 'state', version: PROTOCOL_VERSION, state: s })?.type, 'state');
  assert.equal(parseHostMessage({ type: 'state', version: PROTOCOL_VERSION + 1, state: s }), undefined);
  assert.equal(parseHostMessage({ type: 'state', version: PROTOCOL_VERSION, state: { ...s, gauges: [{ id: 1 }] } }), undefined);
  const bad = structuredClone(s);
  (bad.sections[0]!.rows[0] as { line?: unknown }).line = -1;
  assert.equal(isViewState(bad), false);
  const bad2 = structuredClone(s);
  (bad2.sections[0] as { id: string }).id = 'other';
  assert.equal(isViewState(bad2), false);
  assert.deepEqual(parseHostMessage({ type: 'busy', busy: true }), { type: 'busy', busy: true });
  assert.equal(parseHostMessage('<script>'), undefined);

  assert.deepEqual(parseWebviewMessage({ type: 'open', path: '/w/a.md', line: 3, extra: 1 }), { type: 'open', path: '/w/a.md', line: 3 });
  assert.equal(parseWebviewMessage({ type: 'open', path: '' }), undefined);
  assert.equal(parseWebviewMessage({ type: 'open', path: '/w/a.md', line: 1.5 }), undefined);
  assert.equal(parseWebviewMessage({ type: 'command', command: 'workbench.action.terminal.new' }), undefined);
  assert.deepEqual(parseWebviewMessage({ type: 'command', command: 'refresh' }), { type: 'command', command: 'refresh' });
  assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
  assert.equal(parseWebviewMessage(null), undefined);
  assert.deepEqual([...openablePaths(s)].sort(), ['/m/MEMORY.md', '/w/.claude/rules/<img src=x onerror=alert(1)>.md', '/w/.claude/rules/api.md', '/w/CLAUDE.md', '/w/pkg/CLAUDE.md']);
});

test('control characters and bidi overrides in names show as visible escapes, in text, tooltips and accessible names', () => {
  const s = state();
  const nasty = 'evil\u001b[31m\u202etxt.md\u0007\u009b';
  s.sections[0]!.rows[0] = { id: 's/0', label: nasty, description: `d\u2066x\u2069 \u0000`, aria: `a\u202e`, detail: `tip\u001b\nsecond line`, path: '/w/x.md' };
  const { root } = setup(s);
  const item = root.querySelector('[data-section="startup"] [role="treeitem"]')!;
  const label = item.querySelector('.row-label')!.textContent;
  assert.equal(label, 'evil\\x1b[31m\\u202etxt.md\\x07\\x9b');
  assert.equal(item.querySelector('.row-description')!.textContent, 'd\\u2066x\\u2069 \\x00');
  assert.equal(item.getAttribute('aria-label'), 'a\\u202e');
  assert.equal(item.querySelector('.row')!.getAttribute('title'), 'tip\\x1b\nsecond line', 'a newline in a tooltip stays a line break');
  const all = root.textContent ?? '';
  assert.doesNotMatch(all, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/, 'no raw control or reordering character anywhere');
});

test('the top lines: always loaded and the open file first, the live session when the host sends it; patched on an editor switch', () => {
  const st: ViewState = {
    ...state(),
    top: { always: 'Always loaded: ≈5,731 tokens (6 files and the skills listing)', file: 'Reading client.ts adds +136 tokens: api.md', aria: 'both' },
  };
  assert.ok(isViewState(st));
  const { root, r } = setup(st);
  const top = root.querySelector('.top')!;
  assert.equal(root.querySelector('header')!.nextElementSibling, top, 'right below the one-line header');
  assert.deepEqual([...top.querySelectorAll('.top-line')].map((e) => e.textContent), [st.top!.always, st.top!.file]);
  assert.equal(root.querySelector('header .launch'), null, 'the launch folder is behind Change…, not a line of its own');
  assert.equal(root.querySelector('header')!.getAttribute('title'), '/w');
  // an editor switch: the sections and the top line are patched; the live headline joins when the lead's view sends it
  const live = { tokens: 48_120, window: 200_000, label: 'This session: 48,120 of 200,000 tokens' };
  r.patch([], { top: { ...st.top!, file: 'Reading README.md adds nothing' }, live, reveal: 'active' });
  assert.deepEqual([...root.querySelectorAll('.top .top-line')].map((e) => e.textContent), [st.top!.always, 'Reading README.md adds nothing', live.label]);
  assert.equal((root.querySelector('.top .fill') as unknown as HTMLElement).style.width, '24.06%');
  r.update({ ...st, live: { ...live, ended: 'ended 4 min ago' } });
  assert.equal(root.querySelector('.top .top-live')!.textContent, `${live.label} · ended 4 min ago`);
  // the protocol: a malformed live headline is refused, a reveal of an unknown section dropped
  assert.equal(parseHostMessage({ type: 'sections', version: PROTOCOL_VERSION, sections: [], live: { tokens: 'x', window: 1, label: 'l' } }), undefined);
  const m = parseHostMessage({ type: 'sections', version: PROTOCOL_VERSION, sections: [], live, reveal: 'nowhere' });
  assert.ok(m && m.type === 'sections' && m.live?.tokens === 48_120 && m.reveal === undefined);
  assert.equal(isViewState({ ...st, live: { tokens: -1, window: 1, label: 'l' } }), false);
});

test('a focused row drawn anew gets the focus back, but only while the webview has the focus (never taken from the editor)', () => {
  for (const focused of [true, false]) {
    const window = new Window();
    const document = window.document;
    const root = document.createElement('main');
    document.body.append(root);
    const r = createRenderer(root as unknown as HTMLElement, () => undefined);
    r.update(state());
    (root.querySelector('[data-id="a/0"]') as unknown as HTMLElement).focus();
    (document as unknown as { hasFocus: () => boolean }).hasFocus = () => focused;
    // the next state (an editor switch): the rows are drawn anew
    r.update(state());
    const row = root.querySelector('[data-id="a/0"]');
    assert.ok(row);
    assert.equal(document.activeElement === row, focused, focused ? 'the focus follows the row' : 'no focus() while the editor has the focus');
    assert.equal(row.getAttribute('tabindex'), '0', "the row is the tree's tab stop either way");
  }
});
