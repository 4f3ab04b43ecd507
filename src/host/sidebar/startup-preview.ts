// The read-only preview of the exact text Claude Code sends: the startup block, the skills listing
// (a message of its own) and what a Read of the active file adds. The marker lines between them are
// ours; everything else is the engine's rendering. A Markdown document, so that it opens wrapped.
// The descriptions of skills shipped with Claude Code are read from the installed binary (never kept
// in this repository); where they cannot be, the preview says so plainly.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readAdds, renderLazy, renderStartupBlock, skillsView, type Analysis } from '../../engine/index.js';
import type { Translate } from '../format.js';

export const PREVIEW_SCHEME = 'claude-layers';

export interface ShippedState {
  status: 'no-binary' | 'other-version' | 'reading' | 'read' | 'failed';
  file?: string;
  version?: string;
  missing?: string[];
  error?: string;
}

export class StartupPreview implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly open = new Set<string>();

  constructor(
    private readonly t: Translate,
    /** the analysis of a folder key ('' = the current folder), the active file, and where the shipped descriptions stand */
    private readonly source: (folderKey: string) => { analysis: Analysis | undefined; activeFile: string | undefined; shipped?: ShippedState },
  ) {}

  /** the preview's address for a folder */
  uri(folderKey: string, version: string): vscode.Uri {
    return vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${this.t('Startup request (Claude Code {0}).md', version)}`, query: encodeURIComponent(folderKey) });
  }

  /** the previews shown so far ask VS Code to read them again */
  refresh(): void {
    for (const u of this.open) this.changed.fire(vscode.Uri.parse(u));
  }

  /** why some shipped skills' descriptions are placeholders, in one plain sentence */
  private shippedNote(n: number, s: ShippedState | undefined): string {
    const { t } = this;
    const what = n === 1 ? t('1 description of a skill shipped with Claude Code is a placeholder') : t('{0} descriptions of skills shipped with Claude Code are placeholders', n);
    const counted = t('(counted at their measured lengths)');
    switch (s?.status) {
      case 'other-version':
        return t('{0}: the installed claude ({1}) is version {2}, not the profile\'s, so its texts are not used {3}.', what, s.file ?? '', s.version ?? '', counted);
      case 'reading':
        return t('{0} while the descriptions are read from {1}… {2}', what, s.file ?? '', counted);
      case 'failed':
        return t('{0}: {1} could not be read ({2}) {3}.', what, s.file ?? '', s.error ?? '', counted);
      case 'read':
        return t('{0}: {1} builds them at run time ({2}) {3}.', what, s.file ?? '', (s.missing ?? []).join(', '), counted);
      default:
        return t('{0}: no Claude Code binary is installed here (claude is not on PATH and claudeLayers.claudePath is not set) {1}.', what, counted);
    }
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const { t } = this;
    this.open.add(uri.toString());
    const { analysis: a, activeFile, shipped } = this.source(decodeURIComponent(uri.query));
    if (!a) return t('No analysis for this folder.');
    const startup = renderStartupBlock(a.profile, a.startup, new Date().toISOString().slice(0, 10)) ?? t('Nothing reaches the first request: no CLAUDE.md, rule or MEMORY.md loads.');
    const marker = (s: string) => `\n\n${'─'.repeat(8)} ${s} ${'─'.repeat(8)}\n\n`;
    const view = skillsView(a);
    const listing = view.text;
    // the same figure as the sidebar's Skills listing row: the listing as sent
    const num = (n: number) => n.toLocaleString(vscode.env.language || 'en');
    const listingHead = listing ? t('the skills listing, a message of its own ({0} chars):', num(view.sentChars)) : '';
    const note = view.placeholders ? `${this.shippedNote(view.placeholders, shipped)}\n\n` : '';
    const withSkills = listing ? `${startup}${marker(listingHead)}${note}${listing}` : startup;
    if (!activeFile) return withSkills;
    const r = readAdds(a, activeFile);
    const lazy = renderLazy(a.profile, r.injected).join('');
    const skills = a.skills.lazyFor(activeFile).map((l) => l.text).join('\n');
    const rel = path.relative(a.env.cwd, activeFile) || activeFile;
    return `${withSkills}${marker(r.chars ? t('then a Read of {0} adds ({1} chars):', rel, num(r.chars)) : t('then a Read of {0} adds nothing', rel))}${lazy}${lazy && skills ? '\n' : ''}${skills}`;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
