// The sidebar's webview view: a strict CSP with a nonce, scripts and styles only from the
// extension's own dist/ and media/ folders, and the typed protocol both ways (validated here too).
import * as crypto from 'node:crypto';
import * as vscode from 'vscode';
import { openablePaths, parseWebviewMessage, PROTOCOL_VERSION, type CommandId, type HostMessage, type UiMemoryData, type ViewState } from '../../../webview/protocol.js';

export const VIEW_ID = 'claudeLayers.sidebar';

export function webviewHtml(webview: Pick<vscode.Webview, 'cspSource' | 'asWebviewUri'>, extensionUri: vscode.Uri, nonce: string, title: string): string {
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'sidebar.css'));
  const codicons = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'codicons', 'codicon.css'));
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return `<!DOCTYPE html>
<html lang="${esc(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${codicons.toString()}">
<link rel="stylesheet" href="${style.toString()}">
<title>${esc(title)}</title>
</head>
<body>
<main id="app" aria-busy="true" aria-label="${esc(title)}"></main>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}

export class SidebarProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private state: ViewState | undefined;
  private openable = new Set<string>();
  private seq = 0;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly handlers: {
      open(path: string, line?: number): void;
      command(id: CommandId): void;
      visible(): void;
      /** the webview's UI memory, to keep (and the one kept, to send back on ready) */
      saveMemory?(m: UiMemoryData): void;
      loadMemory?(): UiMemoryData | undefined;
    },
    private readonly title: string,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')],
    };
    view.webview.html = webviewHtml(view.webview, this.extensionUri, crypto.randomBytes(18).toString('base64'), this.title);
    this.disposables.push(
      view.webview.onDidReceiveMessage((raw: unknown) => {
        const m = parseWebviewMessage(raw);
        if (!m) return;
        if (m.type === 'ready') {
          this.sent = undefined; // a new page: the whole state
          const kept = this.handlers.loadMemory?.();
          if (kept) void view.webview.postMessage({ type: 'memory', memory: kept } satisfies HostMessage);
          this.post();
        } else if (m.type === 'memory') this.handlers.saveMemory?.(m.memory);
        else if (m.type === 'open') {
          if (this.openable.has(m.path)) this.handlers.open(m.path, m.line);
        } else this.handlers.command(m.command);
      }),
      view.onDidChangeVisibility(() => {
        if (view.visible) this.handlers.visible();
      }),
      view.onDidDispose(() => {
        this.view = undefined;
        this.sent = undefined;
      }),
    );
    this.handlers.visible();
  }

  get visible(): boolean {
    return !!this.view?.visible;
  }

  get current(): ViewState | undefined {
    return this.state;
  }

  /** `eventAt`: when the editor switch this state answers reached the host */
  update(state: ViewState, eventAt?: number): void {
    this.state = state;
    this.openable = openablePaths(state);
    this.post(eventAt);
  }

  /** what the webview has: the JSON of the header and gauges part, and of each section */
  private sent: { rest: string; top: string; live: string; sections: Map<string, string>; order: string } | undefined;

  /** `eventAt` is set for an editor switch: the webview then brings the active file's section into view */
  private post(eventAt?: number): void {
    if (!this.view || !this.state) return;
    const st = this.state;
    const { sections, top, live, ...restState } = st;
    const now = {
      rest: JSON.stringify(restState), top: JSON.stringify(top ?? null), live: JSON.stringify(live ?? null),
      sections: new Map(sections.map((s) => [s.id, JSON.stringify(s)])), order: sections.map((s) => s.id).join(),
    };
    const timing = { seq: ++this.seq, sentAt: Date.now(), ...(eventAt ? { eventAt, reveal: 'active' as const } : {}) };
    const prev = this.sent;
    this.sent = now;
    // only some sections (and the top lines) changed, an editor switch: send those, the webview keeps the rest
    // (a live headline that went away needs the whole state: a patch cannot say "none")
    if (prev && prev.rest === now.rest && prev.order === now.order && (live || prev.live === now.live) && (top || prev.top === now.top)) {
      const changed = sections.filter((s) => prev.sections.get(s.id) !== now.sections.get(s.id));
      const topChanged = prev.top !== now.top;
      const liveChanged = prev.live !== now.live;
      if (!changed.length && !topChanged && !liveChanged) return;
      void this.view.webview.postMessage({
        type: 'sections', version: PROTOCOL_VERSION, sections: changed, ...(topChanged && top ? { top } : {}), ...(liveChanged && live ? { live } : {}), ...timing,
      } satisfies HostMessage);
      return;
    }
    void this.view.webview.postMessage({ type: 'state', version: PROTOCOL_VERSION, state: st, ...timing } satisfies HostMessage);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
