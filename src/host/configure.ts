// "Change…": what Claude Code sees (version, model, launch directory, setting sources, --add-dir),
// as Quick Picks that write the extension's settings.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { knownModels, NEWEST_PROFILE, PROFILES } from '../engine/index.js';
import { readConfig, SECTION } from './config.js';
import type { Controller } from './controller.js';
import { versionSource } from './sidebar/header.js';

type Item = vscode.QuickPickItem & { id: 'version' | 'model' | 'launch' | 'sources' | 'addDirs' };

export async function configure(ctl: Controller): Promise<void> {
  const { t } = ctl;
  const folder = ctl.folderOfKey(ctl.currentKey);
  const a = ctl.current;
  const cfg = readConfig(folder);
  const items: Item[] = [
    { id: 'version', label: t('Claude Code version'), description: a?.version.shown ?? a?.profile.version, detail: versionSource(t, ctl.versionInfo(ctl.currentKey)) },
    { id: 'model', label: t('Model'), description: a ? a.model.requested : cfg.model },
    { id: 'launch', label: t('Launch directory'), description: a?.env.cwd, detail: t('where claude is started: the CLAUDE.md files of this folder and its parents load') },
    { id: 'sources', label: t('Setting sources'), description: (cfg.settingSources ?? ['user', 'project', 'local']).join(', ') },
    { id: 'addDirs', label: t('Additional directories (--add-dir)'), description: cfg.addDirs.join(', ') || '—' },
  ];
  const pick = await vscode.window.showQuickPick(items, { title: t('Claude Context Layers: what Claude Code sees'), placeHolder: t('Choose what to change') });
  if (!pick) return;
  const conf = vscode.workspace.getConfiguration(SECTION, folder?.uri);
  const folderTarget = folder && ctl.folders().length > 1 ? vscode.ConfigurationTarget.WorkspaceFolder : vscode.ConfigurationTarget.Workspace;

  /** a choice from a list, or a typed value after "Other…"; undefined = cancelled */
  const choose = async (title: string, choices: Array<{ label: string; value: string }>, other: vscode.InputBoxOptions, placeHolder?: string): Promise<string | undefined> => {
    const choice = await vscode.window.showQuickPick([...choices, { label: t('Other…'), value: '\0other' }], { title, placeHolder });
    if (!choice) return undefined;
    if (choice.value !== '\0other') return choice.value;
    const typed = (await vscode.window.showInputBox(other))?.trim();
    return typed || undefined;
  };

  switch (pick.id) {
    case 'version': {
      const value = await choose(
        t('Claude Code version'),
        [{ label: t('Detect (claude --version in a trusted workspace), else the newest profile'), value: '' }, ...[...PROFILES].reverse().map((p) => ({ label: p.version, value: p.version }))],
        { prompt: t('Claude Code version, e.g. {0}', NEWEST_PROFILE.version), validateInput: (s) => (/^\d+\.\d+\.\d+$/.test(s.trim()) ? undefined : t('a version such as {0}', NEWEST_PROFILE.version)) },
        ctl.versionInfo(ctl.currentKey).requested,
      );
      if (value !== undefined) await conf.update('claudeVersion', value || undefined, vscode.ConfigurationTarget.Global);
      return;
    }
    case 'model': {
      const value = await choose(t('Model'), [{ label: t('Default of the version'), value: '' }, ...knownModels(a?.profile ?? NEWEST_PROFILE).map((m) => ({ label: m, value: m }))], { prompt: t('Model id') });
      if (value !== undefined) await conf.update('model', value || undefined, vscode.ConfigurationTarget.Global);
      return;
    }
    case 'launch': {
      const dirs = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: false, defaultUri: a ? vscode.Uri.file(a.env.cwd) : folder?.uri, openLabel: t('Launch Claude Code here') });
      const p = dirs?.[0]?.fsPath;
      if (!p) return;
      const value = folder && p === folder.uri.fsPath ? undefined : folder ? path.relative(folder.uri.fsPath, p) || undefined : p;
      await conf.update('launchDirectory', value, folderTarget);
      return;
    }
    case 'sources': {
      const current = new Set(cfg.settingSources ?? ['user', 'project', 'local']);
      const chosen = await vscode.window.showQuickPick(
        (['user', 'project', 'local'] as const).map((s) => ({ label: s, picked: current.has(s) })),
        { canPickMany: true, title: t('Setting sources (--setting-sources)') },
      );
      if (!chosen) return;
      const list = chosen.map((c) => c.label);
      await conf.update('settingSources', list.length === 3 ? undefined : list, folderTarget);
      return;
    }
    case 'addDirs': {
      const dirs = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: true, openLabel: t('Add') });
      if (dirs) await conf.update('addDirs', dirs.map((d) => d.fsPath), folderTarget);
    }
  }
}
