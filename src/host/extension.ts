// Entry point: builds the controller (state, timers, watchers: controller.ts), registers the
// sidebar, the editor providers and the commands (commands.ts), then starts the first analysis.
// Every answer comes from the engine via present.ts, file-lens.ts and glob-report.ts.
import * as vscode from 'vscode';
import { registerCommands } from './commands.js';
import { Controller } from './controller.js';
import { Decorations } from './editor/decorations.js';
import { FrontmatterCompletionProvider, GlobHoverProvider, ImportLinkProvider, LensProvider, QuickFixProvider, registerSaveAfterFix, SELECTOR } from './editor/providers.js';
import { registerSaveNotice } from './session/session-commands.js';
import { VIEW_ID } from './sidebar/sidebar.js';
import { PREVIEW_SCHEME } from './sidebar/startup-preview.js';
import { registerVerify } from './verify-command.js';
import { registerMeasureMcp } from './mcp-command.js';
import { LiveSessionView } from './session/live-session-view.js';

export function activate(context: vscode.ExtensionContext): void {
  const ctl = new Controller(context);
  const { host } = ctl;
  context.subscriptions.push(
    ctl,
    vscode.window.registerWebviewViewProvider(VIEW_ID, ctl.sidebar),
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, ctl.preview),
    vscode.languages.registerHoverProvider(SELECTOR, new GlobHoverProvider(host)),
    vscode.languages.registerCodeLensProvider(SELECTOR, new LensProvider(host)),
    vscode.languages.registerDocumentLinkProvider(SELECTOR, new ImportLinkProvider(host)),
    vscode.languages.registerCompletionItemProvider(SELECTOR, new FrontmatterCompletionProvider(host)),
    vscode.languages.registerCodeActionsProvider(SELECTOR, new QuickFixProvider(host), { providedCodeActionKinds: QuickFixProvider.kinds }),
    new Decorations(host),
    registerSaveAfterFix(),
    ...registerCommands(ctl),
    registerMeasureMcp(ctl), // 'claudeLayers.measureMcp'
  );
  registerVerify(context, () => ctl.optionsFor(ctl.currentKey), ctl.log); // 'claudeLayers.verify' and 'claudeLayers.lastSession'
  registerSaveNotice(context, (uri) => ctl.analysisFor(uri), ctl.t);
  // "This session": the Claude Code session running in the launch directory, followed from its transcript
  const live = new LiveSessionView(ctl.t, ctl.locale, {
    where: () => {
      const o = ctl.optionsFor(ctl.currentKey);
      return { cwd: o.cwd, home: o.home ?? o.env?.HOME ?? '', env: o.env ?? process.env };
    },
    analysis: () => ctl.current,
    log: (m) => ctl.log.warn(m),
  }, (h) => ctl.setLive(h));
  context.subscriptions.push(...live.register());
  ctl.start();
}

export function deactivate(): void {
  /* everything is in context.subscriptions */
}
