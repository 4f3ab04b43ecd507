// The sidebar webview's entry: registers the vscode-elements it uses, validates every message from
// the host (protocol.ts), and hands states to the renderer. What the user opened, closed and where
// they scrolled is kept with getState/setState (it survives editor switches, the view being hidden
// and window reloads). No inline handlers, no innerHTML.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { parseHostMessage, parseUiMemory, type WebviewMessage } from './protocol.js';
import { createRenderer, recordScroll, type UiMemory } from './render.js';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('app')!;
const saved = vscode.getState();
const initial: UiMemory = parseUiMemory(saved) ?? { open: {}, scroll: 0 };
// the host keeps a copy too (workspace state): a window reload can lose the webview's own state
let hostTimer: ReturnType<typeof setTimeout> | undefined;
const saveBoth = (m: UiMemory, soon = false) => {
  vscode.setState(m);
  if (hostTimer) clearTimeout(hostTimer);
  // a toggle goes to the host at once; a scroll after it settles
  if (soon) hostTimer = setTimeout(() => vscode.postMessage({ type: 'memory', memory: renderer.memory() }), 300);
  else vscode.postMessage({ type: 'memory', memory: m });
};
const renderer = createRenderer(root, (m) => vscode.postMessage(m), initial, {
  save: saveBoth,
  scroller: () => document.scrollingElement,
});
const painted = (m: { seq?: number; sentAt?: number; eventAt?: number }, t0: number, receivedAt: number, parseMs: number) => {
  // the DOM update itself, synchronous (the rest until the frame is the renderer's own work)
  document.body.dataset.updateMs = (performance.now() - t0).toFixed(1);
  // user timing marks: where the e2e's Chromium trace (E2E_TRACE) finds our spans among the other threads
  performance.mark('ccl:updated');
  // painted: the frame after the DOM change (read by the e2e's latency measurement, with when the
  // message arrived and how long its validation took)
  requestAnimationFrame(() => {
    performance.mark('ccl:painted');
    performance.clearMarks(); // the trace has them already; the page's buffer would only grow
    document.body.dataset.painted = String(m.seq ?? 0);
    document.body.dataset.renderMs = (performance.now() - t0).toFixed(1);
    document.body.dataset.receivedAt = String(receivedAt);
    document.body.dataset.parseMs = parseMs.toFixed(1);
    document.body.dataset.paintedAt = String(Date.now());
    if (m.sentAt) document.body.dataset.sentAt = String(m.sentAt);
    document.body.dataset.eventAt = m.eventAt ? String(m.eventAt) : '';
  });
};

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  const receivedAt = Date.now();
  const p0 = performance.now();
  performance.mark('ccl:received');
  const m = parseHostMessage(e.data);
  if (!m) return;
  const t0 = performance.now();
  if (m.type === 'state') {
    renderer.update(m.state, m.reveal);
    painted(m, t0, receivedAt, t0 - p0);
  } else if (m.type === 'sections') {
    renderer.patch(m.sections, { top: m.top, live: m.live, reveal: m.reveal });
    painted(m, t0, receivedAt, t0 - p0);
  } else if (m.type === 'memory') {
    renderer.restore(m.memory);
    // which copy won (the e2e reads it when a reload loses something)
    document.body.dataset.memory = `webview ${initial.savedAt ?? 0} ${Object.keys(initial.open).length}; host ${m.memory.savedAt ?? 0} ${Object.keys(m.memory.open).length}`;
  } else renderer.setBusy(m.busy);
});
let scrollTimer: ReturnType<typeof setTimeout> | undefined;
window.addEventListener(
  'scroll',
  () => {
    recordScroll(renderer, document.scrollingElement?.scrollTop ?? 0);
    if (scrollTimer) clearTimeout(scrollTimer);
    scrollTimer = setTimeout(() => saveBoth(renderer.memory(), true), 150);
  },
  { passive: true },
);

vscode.postMessage({ type: 'ready' });
