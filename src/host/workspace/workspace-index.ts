// The workspace's file list: one engine WorkspaceIndex per folder (engine/workspace-index.ts),
// crawled at activation and then kept current from watcher events. It honours .gitignore files
// (as git decides) and VS Code's `files.exclude`, so that glob hovers count the files git tracks
// (or would) and the sidebar lists the nested instruction files of the repository. The engine
// reads through the same index (AnalysisService.attachIndex), where .gitignore does not matter:
// lazy injection is computed for any path, as Claude Code does.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { compilePatterns, grouped, listMatches } from '../../engine/index.js';
import { WorkspaceIndex as EngineIndex, type IndexChange } from '../../engine/index.js';
import { locateBase } from '../../engine/index.js';

const MAX_FILES = 1_000_000;

export function isNestedInstructionPath(p: string): boolean {
  const b = path.basename(p);
  if (b === 'CLAUDE.md' || b === 'CLAUDE.local.md') return true;
  return /[\\/]\.claude[\\/]rules[\\/].*\.md$/.test(p);
}

/** `files.exclude` globs that are on (a `when` clause cannot be honoured here: such a glob is left out) */
export function excludeGlobs(setting: unknown): string[] {
  if (!setting || typeof setting !== 'object') return [];
  return Object.entries(setting as Record<string, unknown>)
    .filter(([, v]) => v === true)
    .map(([k]) => k.replace(/^\.\//, '').replace(/\/$/, ''))
    .filter(Boolean);
}

export interface HostIndexHooks {
  /** a folder's index was (re)built: the engine should read through it */
  built?(index: EngineIndex): void;
  /** every index was dropped (reset): the engine should stop reading through them */
  dropped?(): void;
  /** `files.exclude` of a folder (globs relative to the folder) */
  exclude?(folder: vscode.WorkspaceFolder): string[];
  log?(message: string): void;
}

export interface MatchList {
  /** up to `limit` matching files, absolute */
  files: string[];
  total: number;
}

export class WorkspaceIndex implements vscode.Disposable {
  private readonly folders = new Map<string, EngineIndex>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly hooks: HostIndexHooks = {}) {}

  /** the folder's index, crawled (synchronously) on first use; undefined for non-file folders */
  index(folder: vscode.WorkspaceFolder): EngineIndex | undefined {
    if (folder.uri.scheme !== 'file') return undefined;
    const key = folder.uri.toString();
    let ix = this.folders.get(key);
    if (!ix) {
      const t0 = Date.now();
      ix = EngineIndex.build(folder.uri.fsPath, { exclude: this.hooks.exclude?.(folder) ?? [], maxFiles: MAX_FILES });
      this.folders.set(key, ix);
      this.hooks.log?.(`indexed ${folder.uri.fsPath}: ${grouped(ix.fileCount)} files (after .gitignore and files.exclude), ${grouped(ix.dirsListed)} folders in ${Date.now() - t0} ms${ix.truncated ? ' (stopped at the file cap)' : ''}`);
      this.hooks.built?.(ix);
    }
    return ix;
  }

  /** how many of the folder's files the patterns match from `base` (and the first `limit`) */
  matches(folder: vscode.WorkspaceFolder, base: string, patterns: readonly string[], limit = 10): MatchList | undefined {
    const ix = this.index(folder);
    if (!ix) return undefined;
    const at = locateBase(ix.tree, ix.root, base);
    if (!at?.node) return { files: [], total: 0 };
    const r = listMatches(at.node, compilePatterns(patterns), limit, at.at);
    return { files: r.files.map((f) => path.join(base, ...f.split('/'))), total: r.total };
  }

  /** nested CLAUDE.md, CLAUDE.local.md and rule files of the folder (git-ignored ones of crawled folders included: Claude Code loads them) */
  nestedInstructionFiles(folder: vscode.WorkspaceFolder): string[] {
    const ix = this.index(folder);
    if (!ix) return [];
    return [...ix.instructions.keys()].filter(isNestedInstructionPath);
  }

  /** a watcher event inside `folder` (before the AnalysisService hears of it) */
  onEvent(folder: vscode.WorkspaceFolder, uri: vscode.Uri, kind: 'create' | 'change' | 'delete'): void {
    const ix = this.folders.get(folder.uri.toString());
    if (!ix) return;
    const change: IndexChange = { type: kind === 'create' ? 'created' : kind === 'delete' ? 'deleted' : 'changed', path: uri.fsPath };
    const r = ix.apply([change]);
    if (r.instructions || r.recrawled || r.files) this.changed.fire();
  }

  /** drop every index (the Refresh command, files.exclude changed); they are crawled again on use */
  reset(): void {
    this.folders.clear();
    this.hooks.dropped?.();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
