// The status bar item (left, theme colours only, as VS Code's guidelines ask): what a Read of the
// active file injects and the startup share of the context window; its tooltip the whole first request split like
// the sidebar's gauge, and the followed session's line (its cost); a click focuses the sidebar.
import * as vscode from 'vscode';
import type { Analysis } from '../../engine/index.js';
import type { Translate } from '../format.js';
import { statusFigures, type StatusInput } from '../sidebar/index.js';
import { SECTION } from '../config.js';
import { shown } from '../../../webview/protocol.js';

export class StatusItem implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(
    private readonly t: Translate,
    private readonly locale: string,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.item = vscode.window.createStatusBarItem('claudeLayers.status', vscode.StatusBarAlignment.Left, 20);
    this.item.name = t('Claude Context Layers');
    this.item.command = 'claudeLayers.showSidebar';
  }

  private enabled(): boolean {
    return vscode.workspace.getConfiguration(SECTION).get<boolean>('statusBar.enabled', true) !== false;
  }

  update(a: Analysis | undefined, activeFile: string | undefined, more: Pick<StatusInput, 'mcpFacts' | 'live'> = {}): void {
    if (!this.enabled() || !a) {
      this.item.hide();
      return;
    }
    try {
      const s = statusFigures({ analysis: a, activeFile, model: a.model.requested, t: this.t, locale: this.locale, today: new Date().toISOString().slice(0, 10), ...more });
      this.item.text = shown(s.text);
      this.item.tooltip = shown(s.tooltip);
      this.item.accessibilityInformation = { label: shown(s.aria), role: 'button' };
      this.item.show();
    } catch (e) {
      this.log.error(`status bar: ${e instanceof Error ? e.message : String(e)}`);
      this.item.hide();
    }
  }

  dispose(): void {
    this.item.dispose();
  }
}
