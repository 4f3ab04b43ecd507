// The extension's commands, each a factory of its handler over the controller (as rust-analyzer's
// editors/code does): the table below is the whole list, and package.json's `contributes.commands`
// names the same ids (the Verify commands register themselves in verify-command.ts).
import * as vscode from 'vscode';
import { claudePathSetting, SECTION } from './config.js';
import { configure } from './configure.js';
import type { Controller } from './controller.js';
import { reportText } from './sidebar/report.js';
import { pickStep } from './session/session-commands.js';
import { VIEW_ID } from './sidebar/sidebar.js';

type Factory = (ctl: Controller) => (...args: unknown[]) => unknown;

export const COMMANDS: Readonly<Record<string, Factory>> = {
  'claudeLayers.refresh': (ctl) => () => ctl.refreshAll(),
  'claudeLayers.showSidebar': () => () => vscode.commands.executeCommand(`${VIEW_ID}.focus`),
  'claudeLayers.showLog': (ctl) => () => ctl.log.show(),
  // claudePath lives in user settings only (machine scope): the file dialog writes it there
  'claudeLayers.setClaudePath': (ctl) => async () => {
    const { t } = ctl;
    const current = claudePathSetting();
    const picked = await vscode.window.showOpenDialog({
      canSelectFiles: true, canSelectFolders: false, canSelectMany: false, openLabel: t('Use this claude'), title: t('Locate the claude executable'),
      ...(current ? { defaultUri: vscode.Uri.file(current) } : {}),
    });
    const p = picked?.[0]?.fsPath;
    if (!p) return;
    await vscode.workspace.getConfiguration(SECTION).update('claudePath', p, vscode.ConfigurationTarget.Global);
    await ctl.detect();
  },
  'claudeLayers.copyReport': (ctl) => async () => {
    const state = ctl.sidebar.current ?? ctl.buildState();
    if (!state) return;
    await vscode.env.clipboard.writeText(reportText(state));
    void vscode.window.showInformationMessage(ctl.t('Claude Context Layers: report copied to the clipboard.'));
  },
  'claudeLayers.previewStartup': (ctl) => async () => {
    const doc = await vscode.workspace.openTextDocument(ctl.preview.uri(ctl.currentKey, ctl.current?.profile.version ?? ''));
    await vscode.window.showTextDocument(doc, { preview: true });
  },
  'claudeLayers.sessionAddActive': (ctl) => () => {
    if (!ctl.activeFile) {
      void vscode.window.showInformationMessage(ctl.t('Open the file to add first.'));
      return;
    }
    ctl.addStep({ kind: 'read', file: ctl.activeFile });
  },
  // a step from the Quick Pick, or the one a caller passes (tests, keybindings)
  'claudeLayers.sessionAddStep': (ctl) => async (preset?: unknown) => {
    const a = ctl.current;
    if (!a) return;
    const step = await pickStep(preset, { analysis: a, activeFile: ctl.activeFile, t: ctl.t, unsavedText: (p) => ctl.unsavedText(p) });
    if (step) ctl.addStep(step);
  },
  'claudeLayers.sessionClear': (ctl) => () => ctl.clearSteps(),
  'claudeLayers.configure': (ctl) => () => configure(ctl),
};

export function registerCommands(ctl: Controller): vscode.Disposable[] {
  return Object.entries(COMMANDS).map(([id, make]) => vscode.commands.registerCommand(id, make(ctl)));
}
