// The sidebar webview's entry: registers the vscode-elements it uses, validates every message from
// the host (protocol.ts), and hands states to the renderer. What the user opened, closed and where
// they scrolled is kept with getState/setState (it survives editor switches, the view being hidden
// and window reloads). No inline handlers, no innerHTML.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { parseHostMessage, type WebviewMessage } from './protocol.js';
import { createRenderer, recordScroll, type UiMemory } from './render.js';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('app')!;
const saved = vscode.getState() as Partial<UiMemory> | undefined;
const initial: UiMemory = {
  open: saved?.open && typeof saved.open === 'object' ? Object.fromEntries(Object.entries(saved.open).filter(([, v]) => typeof v === 'boolean')) : {},
  scroll: typeof saved?.scroll === 'number' && Number.isFinite(saved.scroll) ? saved.scroll : 0,
};
const renderer = createRenderer(root, (m) => vscode.postMessage(m), initial, {
  save: (m) => vscode.setState(m),
  scroller: () => document.scrollingElement,
});

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  const m = parseHostMessage(e.data);
  if (!m) return;
  if (m.type === 'state') {
    const t0 = performance.now();
    renderer.update(m.state);
    // painted: the frame after the DOM change (read by the e2e's latency measurement)
    requestAnimationFrame(() => {
      document.body.dataset.painted = String(m.seq ?? 0);
      document.body.dataset.renderMs = (performance.now() - t0).toFixed(1);
      document.body.dataset.paintedAt = String(Date.now());
      if (m.sentAt) document.body.dataset.sentAt = String(m.sentAt);
      document.body.dataset.eventAt = m.eventAt ? String(m.eventAt) : '';
    });
  } else renderer.setBusy(m.busy);
});
let scrollTimer: ReturnType<typeof setTimeout> | undefined;
window.addEventListener(
  'scroll',
  () => {
    recordScroll(renderer, document.scrollingElement?.scrollTop ?? 0);
    if (scrollTimer) clearTimeout(scrollTimer);
    scrollTimer = setTimeout(() => vscode.setState(renderer.memory()), 150);
  },
  { passive: true },
);

vscode.postMessage({ type: 'ready' });
