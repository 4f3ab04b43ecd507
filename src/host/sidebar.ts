// The sidebar's webview view: a strict CSP with a nonce, scripts and styles only from the
// extension's own dist/ and media/ folders, and the typed protocol both ways (validated here too).
import * as crypto from 'node:crypto';
import * as vscode from 'vscode';
import { openablePaths, parseWebviewMessage, PROTOCOL_VERSION, type CommandId, type HostMessage, type ViewState } from '../../webview/protocol.js';

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
        if (m.type === 'ready') this.post();
        else if (m.type === 'open') {
          if (this.openable.has(m.path)) this.handlers.open(m.path, m.line);
        } else this.handlers.command(m.command);
      }),
      view.onDidChangeVisibility(() => {
        if (view.visible) this.handlers.visible();
      }),
      view.onDidDispose(() => {
        this.view = undefined;
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

  private post(eventAt?: number): void {
    if (!this.view || !this.state) return;
    const msg: HostMessage = { type: 'state', version: PROTOCOL_VERSION, state: this.state, seq: ++this.seq, sentAt: Date.now(), ...(eventAt ? { eventAt } : {}) };
    void this.view.webview.postMessage(msg);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
