// The workspace's file list, searched once per folder and then kept current from watcher events:
// glob hovers count matches in it, and the sidebar finds nested instruction files in it.
import * as path from 'node:path';
import * as vscode from 'vscode';

const EXCLUDE = '**/{node_modules,.git}/**';
const MAX_FILES = 200_000;

export function isNestedInstructionPath(p: string): boolean {
  const b = path.basename(p);
  if (b === 'CLAUDE.md' || b === 'CLAUDE.local.md') return true;
  return /[\\/]\.claude[\\/]rules[\\/].*\.md$/.test(p);
}

class FolderIndex {
  readonly files = new Set<string>();
  ready: Promise<void>;
  truncated = false;

  constructor(readonly folder: vscode.WorkspaceFolder) {
    this.ready = this.scan();
  }

  private async scan(): Promise<void> {
    const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(this.folder, '**/*'), EXCLUDE, MAX_FILES);
    this.truncated = uris.length >= MAX_FILES;
    for (const u of uris) this.files.add(u.fsPath);
  }
}

export class WorkspaceIndex {
  private readonly folders = new Map<string, FolderIndex>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  private index(folder: vscode.WorkspaceFolder): FolderIndex {
    const key = folder.uri.toString();
    let f = this.folders.get(key);
    if (!f) {
      f = new FolderIndex(folder);
      this.folders.set(key, f);
      void f.ready.then(() => this.changed.fire());
    }
    return f;
  }

  async files(folder: vscode.WorkspaceFolder): Promise<ReadonlySet<string>> {
    const f = this.index(folder);
    await f.ready;
    return f.files;
  }

  /** what is known now, without waiting (empty until the first search finishes) */
  filesNow(folder: vscode.WorkspaceFolder): ReadonlySet<string> {
    return this.index(folder).files;
  }

  nestedInstructionFiles(folder: vscode.WorkspaceFolder): string[] {
    return [...this.filesNow(folder)].filter(isNestedInstructionPath);
  }

  /** a watcher event inside `folder` */
  onEvent(folder: vscode.WorkspaceFolder, uri: vscode.Uri, kind: 'create' | 'delete'): void {
    const f = this.folders.get(folder.uri.toString());
    if (!f) return;
    const p = uri.fsPath;
    if (/[\\/](node_modules|\.git)([\\/]|$)/.test(path.relative(folder.uri.fsPath, p))) return;
    if (kind === 'create') {
      void vscode.workspace.fs.stat(uri).then(
        (st) => {
          if (st.type & vscode.FileType.File && !f.files.has(p)) {
            f.files.add(p);
            if (isNestedInstructionPath(p)) this.changed.fire();
          }
        },
        () => undefined,
      );
    } else {
      const below = p + path.sep;
      let hit = false;
      for (const x of [...f.files]) if (x === p || x.startsWith(below)) {
        f.files.delete(x);
        hit ||= isNestedInstructionPath(x);
      }
      if (hit) this.changed.fire();
    }
  }

  reset(): void {
    this.folders.clear();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
