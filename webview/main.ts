// The sidebar webview's entry: registers the vscode-elements it uses, validates every message from
// the host (protocol.ts), and hands states to the renderer. No inline handlers, no innerHTML.
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-tree/index.js';
import '@vscode-elements/elements/dist/vscode-tree-item/index.js';
import { parseHostMessage, type WebviewMessage } from './protocol.js';
import { createRenderer, type UiMemory } from './render.js';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('app')!;
const saved = vscode.getState() as Partial<UiMemory> | undefined;
const renderer = createRenderer(root, (m) => vscode.postMessage(m), { open: saved?.open && typeof saved.open === 'object' ? saved.open : {} });

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  const m = parseHostMessage(e.data);
  if (!m) return;
  if (m.type === 'state') renderer.update(m.state);
  else renderer.setBusy(m.busy);
});
for (const ev of ['click', 'keydown', 'vsc-collapsible-toggle'])
  root.addEventListener(ev, () => setTimeout(() => vscode.setState(renderer.memory()), 0), true);

vscode.postMessage({ type: 'ready' });
