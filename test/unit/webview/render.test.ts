// The webview's drawing and input handling in a DOM (happy-dom): hostile names and contents stay
// text, rows and gauges open their file by click or keyboard, buttons send commands, the state and
// every message are validated by the shared protocol.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Window } from 'happy-dom';
import { createRenderer } from '../../../webview/render.js';
import { isViewState, openablePaths, parseHostMessage, parseWebviewMessage, PROTOCOL_VERSION, type ViewState, type WebviewMessage } from '../../../webview/protocol.js';

const HOSTILE = '<img src=x onerror=alert(1)>.md';

function state(): ViewState {
  return {
    header: { version: 'Claude Code 2.1.328', model: 'claude-opus-5-5', launchDir: '/w', versionNote: 'from the setting', change: { command: 'configure', label: 'Change…' } },
    gaugesTitle: 'Gauges',
    gauges: [{ id: 'memory-lines', label: 'MEMORY.md lines', value: 210, max: 200, text: '210/200', note: 'lines 205-214 are not loaded', level: 'over', aria: 'MEMORY.md: 210 of 200 lines', path: '/m/MEMORY.md', line: 205 }],
    sections: [
      {
        id: 'startup',
        title: 'Startup (eager)',
        summary: '2 files',
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

function setup() {
  const window = new Window();
  const document = window.document;
  const root = document.createElement('main');
  document.body.append(root);
  const posted: WebviewMessage[] = [];
  const r = createRenderer(root as unknown as HTMLElement, (m) => posted.push(m));
  r.update(state());
  return { window, document, root, posted, r };
}

test('file names and contents are drawn as text, never as markup', () => {
  const { root } = setup();
  assert.equal(root.querySelectorAll('img, script, b, i').length, 0);
  const item = root.querySelectorAll('[data-section="startup"] vscode-tree-item')[1]!;
  assert.equal(item.querySelector('.row-label')!.textContent, `.claude/rules/${HOSTILE}`);
  assert.equal(item.querySelector('.row-description')!.textContent, 'Project · <script>alert("xss")</script>');
  assert.equal(item.getAttribute('aria-label'), `${HOSTILE} <b>x</b>`);
  assert.equal(item.getAttribute('title'), '<i>tip</i>');
  assert.equal(item.querySelector('.sev')!.textContent, '⚠');
  assert.equal(item.querySelector('.sev')!.getAttribute('slot'), 'icon-leaf');
});

test('structure: sections in order with gauges before the session, headline, empty text, branches', () => {
  const { root } = setup();
  assert.deepEqual([...root.querySelectorAll('vscode-collapsible')].map((c) => c.getAttribute('data-section')), ['startup', 'active', 'elsewhere', 'notLoaded', 'gauges', 'session']);
  assert.equal(root.querySelector('[data-section="active"] .headline')!.textContent, 'Reading client.ts injects 1 file, 249 chars');
  assert.equal(root.querySelector('[data-section="notLoaded"] .empty')!.textContent, 'Nothing dropped.');
  assert.equal(root.querySelector('[data-section="startup"]')!.getAttribute('heading'), 'Startup (eager)');
  assert.equal(root.querySelector('[data-section="notLoaded"]')!.hasAttribute('open'), false);
  const branch = root.querySelector('[data-id="e/g"]')!;
  assert.equal(branch.querySelector('[data-id="e/g/0"]')!.getAttribute('slot'), 'children');
  const gauge = root.querySelector('[data-id="gauge/memory-lines"]')!;
  assert.equal(gauge.getAttribute('role'), 'meter');
  assert.equal(gauge.getAttribute('aria-valuenow'), '200');
  assert.equal(gauge.getAttribute('aria-valuemax'), '200');
  assert.equal(gauge.getAttribute('aria-label'), 'MEMORY.md: 210 of 200 lines');
  assert.equal((gauge.querySelector('.fill') as unknown as HTMLElement).style.width, '100.00%');
  assert.equal(root.querySelector('header .version')!.textContent, 'Claude Code 2.1.328');
});

test('click and Enter open a row at its line; gauges open too; buttons send their command once', () => {
  const { window, root, posted } = setup();
  const row = root.querySelector('[data-id="a/0"]')!;
  row.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
  assert.deepEqual(posted.at(-1), { type: 'open', path: '/w/.claude/rules/api.md', line: 2 });
  root.querySelector('[data-id="s/0"]')!.dispatchEvent(new window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  assert.deepEqual(posted.at(-1), { type: 'open', path: '/w/CLAUDE.md' });
  root.querySelector('[data-id="gauge/memory-lines"]')!.dispatchEvent(new window.KeyboardEvent('keydown', { key: ' ', bubbles: true }));
  assert.deepEqual(posted.at(-1), { type: 'open', path: '/m/MEMORY.md', line: 205 });
  const n = posted.length;
  root.querySelector('[data-id="e/g"]')!.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
  assert.equal(posted.length, n, 'a group without a file opens nothing');
  const add = root.querySelector('vscode-button[data-command="sessionAddActive"]')!;
  add.dispatchEvent(new window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  assert.equal(posted.length, n, 'Enter on a button is left to the button, which clicks');
  add.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
  assert.deepEqual(posted.slice(n), [{ type: 'command', command: 'sessionAddActive' }]);
  root.querySelector('header vscode-button')!.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
  assert.deepEqual(posted.at(-1), { type: 'command', command: 'configure' });
});

test('the open state the user chose survives the next update; focus returns to the same row', () => {
  const { window, document, root, r } = setup();
  const startup = root.querySelector('[data-section="startup"]')!;
  startup.dispatchEvent(new window.CustomEvent('vsc-collapsible-toggle', { detail: { open: false }, bubbles: true }));
  const row = root.querySelector('[data-id="s/0"]') as unknown as HTMLElement;
  row.setAttribute('tabindex', '0');
  row.focus();
  r.update(state());
  assert.equal(root.querySelector('[data-section="startup"]')!.hasAttribute('open'), false);
  assert.equal(r.memory().open['section/startup'], false);
  assert.equal((document.activeElement as unknown as HTMLElement | null)?.getAttribute('data-id'), 's/0');
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
