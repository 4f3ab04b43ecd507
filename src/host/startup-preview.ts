// The read-only preview of the exact text Claude Code sends: the startup block, the skills listing
// (a message of its own) and what a Read of the active file adds. The marker lines between them are
// ours; everything else is the engine's rendering.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { renderLazy, renderStartupBlock, skillsView, type Analysis } from '../engine/index.js';
import type { Translate } from './format.js';

export const PREVIEW_SCHEME = 'claude-layers';

export class StartupPreview implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly open = new Set<string>();

  constructor(
    private readonly t: Translate,
    /** the analysis of a folder key ('' = the current folder) and the active file */
    private readonly source: (folderKey: string) => { analysis: Analysis | undefined; activeFile: string | undefined },
  ) {}

  /** the preview's address for a folder */
  uri(folderKey: string, version: string): vscode.Uri {
    return vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${this.t('Startup request (Claude Code {0}).txt', version)}`, query: encodeURIComponent(folderKey) });
  }

  /** the previews shown so far ask VS Code to read them again */
  refresh(): void {
    for (const u of this.open) this.changed.fire(vscode.Uri.parse(u));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const { t } = this;
    this.open.add(uri.toString());
    const { analysis: a, activeFile } = this.source(decodeURIComponent(uri.query));
    if (!a) return t('No analysis for this folder.');
    const startup = renderStartupBlock(a.profile, a.startup, new Date().toISOString().slice(0, 10)) ?? t('Nothing reaches the first request: no CLAUDE.md, rule or MEMORY.md loads.');
    const marker = (s: string) => `\n\n${'─'.repeat(8)} ${s} ${'─'.repeat(8)}\n\n`;
    const listing = skillsView(a)?.text;
    const withSkills = listing ? `${startup}${marker(t('the skills listing, a message of its own ({0} chars):', listing.length))}${listing}` : startup;
    if (!activeFile) return withSkills;
    const inj = a.lazyFor(activeFile, 'Read');
    const lazy = renderLazy(a.profile, inj).join('');
    const rel = path.relative(a.env.cwd, activeFile) || activeFile;
    return `${withSkills}${marker(inj.length ? t('then a Read of {0} adds ({1} chars):', rel, lazy.length) : t('then a Read of {0} adds nothing', rel))}${lazy}`;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
