// One Analysis per workspace folder, kept: asking again (another editor, a hover, a lens) is
// answered from the engine's snapshot without disk access. A watcher event is first checked
// against what the engine read (ReadRecorder); only then is `analysis.refresh(changed)` called,
// debounced, which re-reads just those paths, and listeners are told. No vscode import.
import { analyze, nodeFileAccess, type Analysis, type EngineOptions, type FileAccess } from '../engine/index.js';
import { ReadRecorder } from './read-recorder.js';

export interface FolderEntry {
  options: EngineOptions;
  analysis?: Analysis;
  error?: string;
}

type Listener = (keys: string[]) => void;

export class AnalysisService {
  readonly fs: ReadRecorder;
  private readonly folders = new Map<string, FolderEntry>();
  private readonly listeners = new Set<Listener>();
  private readonly pending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** analyses built, for tests and the status line */
  builds = 0;

  constructor(
    private readonly optionsFor: (key: string) => EngineOptions,
    private readonly debounceMs = 250,
    inner: FileAccess = nodeFileAccess,
    private readonly analyzeFn: (o: EngineOptions) => Analysis = analyze,
  ) {
    this.fs = new ReadRecorder(inner);
  }

  onDidChange(l: Listener): { dispose(): void } {
    this.listeners.add(l);
    return { dispose: () => this.listeners.delete(l) };
  }

  keys(): string[] {
    return [...this.folders.keys()];
  }

  /** the folder's analysis, built on first use */
  get(key: string): FolderEntry {
    let e = this.folders.get(key);
    if (!e) {
      e = { options: { ...this.optionsFor(key), fs: this.fs } };
      this.folders.set(key, e);
    }
    if (!e.analysis && !e.error) this.build(e);
    return e;
  }

  /** every analysis built so far */
  all(): Analysis[] {
    return [...this.folders.values()].map((e) => e.analysis).filter((a): a is Analysis => !!a);
  }

  private build(e: FolderEntry, changed?: string[]): void {
    try {
      e.analysis = changed && e.analysis ? e.analysis.refresh(changed) : this.analyzeFn(e.options);
      e.error = undefined;
    } catch (err) {
      e.analysis = undefined;
      e.error = err instanceof Error ? err.message : String(err);
    }
    this.builds++;
  }

  /**
   * Paths changed on disk (watcher events). Returns whether any of them had been read, in which
   * case a refresh of every folder is scheduled.
   */
  pathsChanged(paths: string[]): boolean {
    if (!paths.some((p) => this.fs.matters(p))) return false;
    for (const p of paths) this.pending.add(p);
    this.schedule();
    return true;
  }

  /** settings changed: new options for every folder, rebuilt now */
  reconfigure(): void {
    for (const [key, e] of this.folders) {
      e.options = { ...this.optionsFor(key), fs: this.fs };
      e.analysis = undefined;
      e.error = undefined;
    }
    this.emit([...this.folders.keys()]);
  }

  /** read everything again (the Refresh command) */
  refreshAll(): void {
    this.fs.forget();
    this.reconfigure();
  }

  removeFolder(key: string): void {
    this.folders.delete(key);
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.debounceMs);
  }

  /** rebuild now what pending changes touched (called by the debounce timer) */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const changed = [...this.pending];
    this.pending.clear();
    if (!changed.length) return;
    const keys = [...this.folders.keys()];
    for (const key of keys) this.build(this.folders.get(key)!, changed);
    this.emit(keys);
  }

  private emit(keys: string[]): void {
    for (const l of this.listeners) l(keys);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.listeners.clear();
  }
}
