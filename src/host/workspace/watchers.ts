// Live updates. Inside the workspace, VS Code's own file watcher; outside it (~/.claude, the memory
// folder, /etc/claude-code, folders above the launch directory, add-dirs), exactly the paths the
// engine looked at (exact-watch.ts: one fs.watch per folder that holds them, events filtered by
// name, never a re-listing of /tmp or /etc). Every event goes to the AnalysisService, which decides
// whether the change can matter.
import * as vscode from 'vscode';
import type { AnalysisService } from './analysis-service.js';
import { isInside } from '../../engine/index.js';
import { ExactWatcher, nodeExists, planWatches } from './exact-watch.js';
import type { WorkspaceIndex } from './workspace-index.js';

export class Watchers implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly workspaceWatchers = new Map<string, vscode.Disposable>();
  private readonly external: ExactWatcher;

  constructor(
    private readonly service: AnalysisService,
    private readonly index: WorkspaceIndex,
    private readonly log: (msg: string) => void,
  ) {
    this.external = new ExactWatcher((paths) => this.service.pathsChanged(paths), log);
    this.syncWorkspace();
    this.disposables.push(vscode.workspace.onDidChangeWorkspaceFolders(() => this.syncWorkspace()));
  }

  private syncWorkspace(): void {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const want = new Set(folders.map((f) => f.uri.toString()));
    for (const [k, d] of this.workspaceWatchers) if (!want.has(k)) {
      d.dispose();
      this.workspaceWatchers.delete(k);
    }
    for (const folder of folders) {
      const key = folder.uri.toString();
      if (this.workspaceWatchers.has(key) || folder.uri.scheme !== 'file') continue;
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '**/*'));
      const on = (kind: 'create' | 'change' | 'delete') => (uri: vscode.Uri) => {
        // the index first (a .gitignore change re-crawls its folder), then the engine
        this.index.onEvent(folder, uri, kind);
        this.service.pathsChanged([uri.fsPath]);
      };
      this.workspaceWatchers.set(key, vscode.Disposable.from(w, w.onDidCreate(on('create')), w.onDidChange(on('change')), w.onDidDelete(on('delete'))));
    }
  }

  private insideWorkspace(p: string): boolean {
    return (vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.scheme === 'file' && isInside(p, f.uri.fsPath));
  }

  /** watch the paths outside the workspace that the engine has looked at (after each analysis) */
  syncExternal(): void {
    const { paths, listed } = this.service.fs.watchTargets();
    const plan = planWatches(paths, listed, nodeExists, (p) => this.insideWorkspace(p));
    if (this.external.apply(plan)) this.log(`watching outside the workspace: ${this.external.describe()}`);
  }

  dispose(): void {
    for (const d of this.workspaceWatchers.values()) d.dispose();
    for (const d of this.disposables) d.dispose();
    this.external.close();
  }
}
