// Live updates. Inside the workspace, VS Code's own file watcher; outside it (~/.claude, the memory
// folder, /etc/claude-code, folders above the launch directory, add-dirs), chokidar on exactly the
// folders the engine looked into (each non-recursively; a folder that does not exist yet is watched
// through its nearest existing parent). Every event goes to the AnalysisService, which decides
// whether the change can matter.
import type { FSWatcher } from 'chokidar';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AnalysisService } from './analysis-service.js';
import { isInside } from '../engine/environment.js';
import type { WorkspaceIndex } from './workspace-index.js';

function nearestExisting(dir: string): string | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    try {
      if (fs.statSync(d).isDirectory()) return d;
    } catch {
      /* go up */
    }
    if (path.dirname(d) === d) return undefined;
  }
}

export class Watchers implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly workspaceWatchers = new Map<string, vscode.Disposable>();
  private external: FSWatcher | undefined;
  private readonly externalDirs = new Set<string>();

  constructor(
    private readonly service: AnalysisService,
    private readonly index: WorkspaceIndex,
    private readonly log: (msg: string) => void,
  ) {
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

  /** watch the folders outside the workspace that the engine has read (after each analysis) */
  syncExternal(): void {
    const want = new Set<string>();
    for (const d of this.service.fs.watchedFolders()) {
      if (this.insideWorkspace(d)) continue;
      const e = nearestExisting(d);
      if (e && !this.insideWorkspace(e)) want.add(e);
    }
    const add = [...want].filter((d) => !this.externalDirs.has(d));
    const remove = [...this.externalDirs].filter((d) => !want.has(d));
    if (!add.length && !remove.length) return;
    if (!this.external) {
      // chokidar is loaded when something outside the workspace needs watching
      const { watch } = require('chokidar') as typeof import('chokidar');
      this.external = watch([], { depth: 0, ignoreInitial: true, persistent: true, followSymlinks: true });
      this.external.on('all', (_event, p) => this.service.pathsChanged([path.resolve(p)]));
      this.external.on('error', (err) => this.log(`watcher: ${err instanceof Error ? err.message : String(err)}`));
    }
    if (remove.length) void this.external.unwatch(remove);
    if (add.length) this.external.add(add);
    for (const d of remove) this.externalDirs.delete(d);
    for (const d of add) this.externalDirs.add(d);
    this.log(`watching outside the workspace: ${[...this.externalDirs].sort().join(', ')}`);
  }

  dispose(): void {
    for (const d of this.workspaceWatchers.values()) d.dispose();
    for (const d of this.disposables) d.dispose();
    void this.external?.close();
  }
}
