// The extension's settings, read in one place. `claudePath` is machine-scoped and read from user
// (or remote machine) settings only: a workspace can never choose which executable runs.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SettingSource } from '../engine/index.js';

export const SECTION = 'claudeLayers';

export interface LayersConfig {
  /** '' = detect (trusted workspace) or newest profile */
  claudeVersion: string;
  /** '' = ANTHROPIC_MODEL, then Claude Code's `model` setting, then the version's default */
  model: string;
  /** absolute launch directory */
  launchDir: string;
  settingSources: SettingSource[] | undefined;
  addDirs: string[];
}

const SOURCES: readonly SettingSource[] = ['user', 'project', 'local'];

function resolveAgainst(base: string | undefined, p: string): string {
  const expanded = p.startsWith('~/') ? path.join(process.env.HOME ?? '', p.slice(2)) : p;
  return path.resolve(base ?? process.cwd(), expanded);
}

export function readConfig(folder: vscode.WorkspaceFolder | undefined): LayersConfig {
  const c = vscode.workspace.getConfiguration(SECTION, folder?.uri);
  const base = folder?.uri.fsPath;
  const launch = (c.get<string>('launchDirectory') ?? '').trim();
  const sources = c.get<unknown>('settingSources');
  const list = Array.isArray(sources) ? sources.filter((s): s is SettingSource => (SOURCES as readonly unknown[]).includes(s)) : undefined;
  const addDirs = c.get<unknown>('addDirs');
  return {
    claudeVersion: (c.get<string>('claudeVersion') ?? '').trim(),
    model: (c.get<string>('model') ?? '').trim(),
    launchDir: launch ? resolveAgainst(base, launch) : (base ?? process.cwd()),
    settingSources: list && list.length < SOURCES.length ? list : undefined,
    addDirs: Array.isArray(addDirs) ? addDirs.filter((d): d is string => typeof d === 'string' && d.trim() !== '').map((d) => resolveAgainst(base, d.trim())) : [],
  };
}

/** `claudePath` from user settings only; workspace and folder values are never read */
export function claudePathSetting(): string | undefined {
  const v = vscode.workspace.getConfiguration(SECTION).inspect<string>('claudePath')?.globalValue;
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}
