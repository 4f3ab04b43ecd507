// The extension's state, in one object (as rust-analyzer's `Ctx`): the folders and their cached
// analyses, the workspace indexes, the detected Claude Code version, the active file, the session
// timelines, unsaved files, the lint, and when to redraw the sidebar and the status bar. Commands
// (commands.ts) and providers (providers.ts) read and drive it; `activate` only builds it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { configDir, HookOutputs, listTranscripts, nodeFileAccess, transcriptDirs, type Analysis, type Diagnostic, type EngineOptions } from '../engine/index.js';
import type { LiveHeadline, ViewState } from '../../webview/protocol.js';
import { AnalysisService } from './workspace/analysis-service.js';
import { claudePathSetting, readConfig, SECTION } from './config.js';
import type { Translate } from './format.js';
import { LintRunner } from './workspace/lint-runner.js';
import type { VersionInfo } from './sidebar/header.js';
import { present } from './sidebar/present.js';
import type { McpFactsByServer } from './sidebar/gauges.js';
import { publishDiagnostics, type HostContext } from './editor/providers.js';
import { AdviceSource } from './editor/advice-source.js';
import { applySeverity, parseSeverityOverrides, type SeverityOverrides } from './editor/severity.js';
import { SessionStore } from './session/session-store.js';
import { readShippedDescriptions, type ShippedRead } from './workspace/shipped-skills.js';
import type { TimelineStep } from './session/session-timeline.js';
import { SidebarProvider } from './sidebar/sidebar.js';
import { StartupPreview } from './sidebar/startup-preview.js';
import { StatusItem } from './editor/status-item.js';
import { UiMemoryStore } from './sidebar/ui-memory-store.js';
import { detectVersion } from './workspace/version-detect.js';
import { Watchers } from './workspace/watchers.js';
import { excludeGlobs, WorkspaceIndex } from './workspace/workspace-index.js';

export const NO_FOLDER = 'no-folder';

interface Detected {
  version?: string;
  error?: string;
  reason?: VersionInfo['why'];
  executable?: string;
}

export class Controller implements vscode.Disposable {
  readonly t: Translate = (m, ...args) => vscode.l10n.t(m, ...args);
  readonly locale = vscode.env.language || 'en';
  readonly log = vscode.window.createOutputChannel('Claude Context Layers', { log: true });
  readonly service: AnalysisService;
  readonly index: WorkspaceIndex;
  readonly sessions: SessionStore;
  readonly sidebar: SidebarProvider;
  readonly preview: StartupPreview;
  readonly diagnostics = vscode.languages.createDiagnosticCollection('claudeLayers');
  /** lenses and decorations listen: an analysis or the lint changed */
  private readonly changed = new vscode.EventEmitter<void>();
  readonly host: HostContext;

  /** the folder the sidebar shows (its URI, or NO_FOLDER) */
  currentKey: string;
  activeFile: string | undefined;
  private previousFile: string | undefined;
  private detected: Detected = {};
  /** files with unsaved changes (rows mark them: Claude Code reads the saved text) */
  readonly dirty = new Set<string>();

  private readonly status: StatusItem;
  private readonly watchers: Watchers;
  private readonly lint: LintRunner;
  /** priced advice over the sessions of each launch directory (a rule without paths: what paths: saves) */
  private readonly advice = new AdviceSource(() => this.publish());
  private readonly disposables: vscode.Disposable[] = [];
  private renderTimer: ReturnType<typeof setTimeout> | undefined;
  private prelistTimer: ReturnType<typeof setTimeout> | undefined;
  private indexGeneration = 0;
  /** when the editor switch the next render answers reached the extension host (the e2e's latency split) */
  private activeChangedAt = 0;

  constructor(readonly context: vscode.ExtensionContext) {
    const { t } = this;
    this.currentKey = this.keyOf(this.folders()[0]);
    this.service = new AnalysisService((key) => this.optionsFor(key), 250);
    // one crawl per folder (honouring .gitignore and files.exclude) serves hovers and lists, and the
    // engine reads through it: first questions about a folder then read nothing from disk
    this.index = new WorkspaceIndex({
      built: (ix) => this.indexBuilt(ix),
      dropped: () => {
        this.indexGeneration++;
        this.service.detachIndexes();
      },
      exclude: (folder) => excludeGlobs(vscode.workspace.getConfiguration('files', folder.uri).get('exclude')),
      log: (m) => this.log.info(m),
    });
    this.sessions = new SessionStore(context.workspaceState);
    const uiMemory = new UiMemoryStore(context.workspaceState, context.storageUri?.fsPath);
    this.sidebar = new SidebarProvider(
      context.extensionUri,
      {
        open: (p, line) => this.openFile(p, line),
        command: (id) => void vscode.commands.executeCommand(`claudeLayers.${id}`),
        visible: () => this.scheduleRender(),
        saveMemory: (m) => uiMemory.save(m),
        loadMemory: () => {
          const m = uiMemory.load();
          this.log.info(`sidebar ready: ${m ? `UI memory of ${new Date(m.savedAt ?? 0).toISOString()} sent (${Object.keys(m.open).length} keys)` : 'no UI memory kept'}`);
          return m;
        },
      },
      t('Claude Context Layers'),
    );
    this.status = new StatusItem(t, this.locale, this.log);
    this.preview = new StartupPreview(t, (key) => {
      const analysis = this.service.get(key || this.currentKey).analysis;
      // the preview is where the exact text matters: the shipped descriptions are read when it asks
      if (analysis && !this.shipped) this.loadShipped(analysis);
      return { analysis, activeFile: this.activeFile, shipped: analysis ? this.shippedState(analysis) : undefined };
    });
    this.watchers = new Watchers(this.service, this.index, (m) => this.log.info(m));
    this.lint = new LintRunner(
      () => this.service.keys().map((k) => [k, this.service.get(k).analysis]),
      () => {
        this.publish();
        this.changed.fire(); // lenses and decorations that depend on the lint (a glob that matches nothing)
        this.scheduleRender();
      },
      (m) => this.log.error(m),
    );
    this.host = {
      analysisFor: (uri) => this.analysisFor(uri),
      folderFor: (uri) => vscode.workspace.getWorkspaceFolder(uri),
      modelFor: (a) => a.model.requested,
      index: this.index,
      probes: (except) => {
        // the file the user came from (and the active one): what "does it match?" is most likely about
        const out = new Set<string>();
        for (const p of [this.activeFile, this.previousFile]) if (p && p !== except.fsPath) out.add(p);
        return [...out].slice(0, 2);
      },
      activeFile: () => this.activeFile,
      ruleAdvice: (uri) => {
        const a = this.analysisFor(uri);
        return a && this.advice.ruleItem(a, uri.fsPath);
      },
      t,
      locale: this.locale,
      onDidChange: this.changed.event,
    };
    this.disposables.push(this.log, this.changed, this.diagnostics, this.sidebar, this.status, this.preview, this.watchers, this.lint, this.index);
    this.disposables.push({ dispose: () => this.service.dispose() });
    this.disposables.push(...this.listen());
  }

  /** the findings of a folder as the user sees them: the workspace lint's once it ran (else the
   *  analysis' own), with the severities of claudeLayers.lint.severity */
  diagnosticsFor(key: string, a: Analysis): readonly Diagnostic[] {
    return applySeverity(this.lint.diagnosticsFor(key, a) ?? a.diagnostics, this.severities);
  }

  private severities: SeverityOverrides = parseSeverityOverrides(vscode.workspace.getConfiguration(SECTION).get('lint.severity'));

  // ---- folders, settings, version ------------------------------------------------------------------
  folders(): readonly vscode.WorkspaceFolder[] {
    return vscode.workspace.workspaceFolders ?? [];
  }

  folderOfKey(key: string): vscode.WorkspaceFolder | undefined {
    return this.folders().find((f) => f.uri.toString() === key);
  }

  keyOf(f: vscode.WorkspaceFolder | undefined): string {
    return f ? f.uri.toString() : NO_FOLDER;
  }

  /** which Claude Code version the folder is analysed for, and why */
  versionInfo(key: string): VersionInfo {
    const cfg = readConfig(this.folderOfKey(key));
    if (cfg.claudeVersion) return { requested: cfg.claudeVersion, source: 'setting' };
    const d = this.detected;
    if (d.version) return { requested: d.version, source: 'detected' };
    return { source: 'newest', why: vscode.workspace.isTrusted ? d.reason : 'untrusted', executable: d.executable, error: d.error };
  }

  /** the version `claude --version` gave, if any */
  get detectedVersion(): string | undefined {
    return this.detected.version;
  }

  optionsFor(key: string): EngineOptions {
    const folder = this.folderOfKey(key);
    const cfg = readConfig(folder);
    const launch = folder || vscode.workspace.getConfiguration(SECTION).get<string>('launchDirectory') ? cfg.launchDir : os.homedir();
    return {
      cwd: launch,
      env: { ...process.env },
      claudeVersion: this.versionInfo(key).requested,
      model: cfg.model || process.env.ANTHROPIC_MODEL || undefined,
      addDirs: cfg.addDirs,
      settingSources: cfg.settingSources,
      ...(this.shipped?.read && Object.keys(this.shipped.read.texts).length ? { shippedSkillText: this.shipped.read.texts } : {}),
    };
  }

  /** `claude --version` again (a trusted workspace only); a new answer re-analyses */
  async detect(): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      this.detected = {};
      return;
    }
    const d = await detectVersion(true, claudePathSetting());
    const changed = d.version !== this.detected.version || d.reason !== this.detected.reason;
    this.detected = d;
    if (!changed) return;
    this.log.info(d.version ? `claude --version: ${d.version} (${d.executable})` : `version not detected: ${d.error}`);
    this.service.reconfigure();
  }

  /** the current folder's analysis */
  get current(): Analysis | undefined {
    return this.service.get(this.currentKey).analysis;
  }

  /** the analysis that concerns a file: its folder's; outside every folder (user CLAUDE.md, the memory folder) the one that read it, else the current one */
  analysisFor(uri: vscode.Uri): Analysis | undefined {
    const f = vscode.workspace.getWorkspaceFolder(uri);
    if (f) return this.service.get(this.keyOf(f)).analysis;
    const p = path.normalize(uri.fsPath);
    for (const a of this.service.all()) {
      if (a.startup.some((e) => path.normalize(e.path) === p) || p.startsWith(a.memory.location.dir) || p.startsWith(a.env.userDir + path.sep)) return a;
    }
    return this.current;
  }

  // ---- shipped skills' descriptions, read from the installed binary -----------------------------------
  /** what the installed claude's binary gave (read on demand: the startup preview asks), by binary */
  private shipped: { key: string; version: string; read?: ShippedRead; error?: string } | undefined;

  /** where the preview's shipped descriptions stand, for the preview to say */
  shippedState(a: Analysis): { status: 'no-binary' | 'other-version' | 'reading' | 'read' | 'failed'; file?: string; version?: string; missing?: string[]; error?: string } {
    const d = this.detected;
    if (!d.executable || !d.version) return { status: 'no-binary' };
    if (d.version !== a.profile.version) return { status: 'other-version', file: d.executable, version: d.version };
    const sh = this.shipped;
    if (!sh || sh.version !== d.version) return { status: 'reading', file: d.executable };
    if (sh.error) return { status: 'failed', file: d.executable, error: sh.error };
    if (!sh.read) return { status: 'reading', file: d.executable };
    return { status: 'read', file: sh.read.file, missing: sh.read.missing };
  }

  /** reads the shipped descriptions from the detected claude once per binary (kept across sessions), then re-analyses */
  loadShipped(a: Analysis): void {
    const d = this.detected;
    if (!d.executable || !d.version || d.version !== a.profile.version) return;
    let real: string;
    let st: fs.Stats;
    try {
      real = fs.realpathSync(d.executable);
      st = fs.statSync(real);
    } catch (e) {
      this.shipped = { key: d.executable, version: d.version, error: e instanceof Error ? e.message : String(e) };
      return;
    }
    const key = `${real}\0${st.size}\0${st.mtimeMs}`;
    if (this.shipped?.key === key) return;
    const version = d.version;
    const cacheKey = `shippedSkills/${version}`;
    const cached = this.context.globalState.get<{ key: string; read: ShippedRead }>(cacheKey);
    if (cached?.key === key) {
      this.shipped = { key, version, read: cached.read };
      this.service.reconfigure();
      return;
    }
    this.shipped = { key, version };
    const wanted = a.profile.skills.bundled.flatMap((b) => [{ name: b.name, chars: b.descriptionChars }]);
    const t0 = Date.now();
    readShippedDescriptions(real, wanted).then(
      (read) => {
        if (this.shipped?.key !== key) return;
        this.shipped = { key, version, read };
        this.log.info(`shipped skills: ${Object.keys(read.texts).length} of ${wanted.length} descriptions read from ${real} in ${Date.now() - t0} ms${read.missing.length ? ` (not found: ${read.missing.join(', ')})` : ''}`);
        void this.context.globalState.update(cacheKey, { key, read });
        this.service.reconfigure();
      },
      (e: unknown) => {
        if (this.shipped?.key !== key) return;
        this.shipped = { key, version, error: e instanceof Error ? e.message : String(e) };
        this.preview.refresh();
      },
    );
  }

  // ---- the live session (filled by the live-session view) -------------------------------------------
  /** the headline of a Claude Code session running in the workspace: the top of the sidebar shows it */
  private liveHeadline: LiveHeadline | undefined;
  /** the hook runs recorded by this launch directory's sessions, followed */
  private readonly hookRuns = new HookOutputs(nodeFileAccess);

  // ---- MCP servers measured by the user (Measure MCP Servers: mcp-command.ts) ----------------------------
  /** the servers' own answers, by launch directory key: the whole-request gauge and the status tooltip use them */
  private readonly mcpFacts = new Map<string, McpFactsByServer>();

  setMcpFacts(key: string, facts: McpFactsByServer): void {
    this.mcpFacts.set(key, facts);
    this.scheduleRender(0);
  }

  setLive(h: LiveHeadline | undefined): void {
    if (JSON.stringify(h) === JSON.stringify(this.liveHeadline)) return;
    this.liveHeadline = h;
    this.scheduleRender();
  }

  // ---- the session timeline --------------------------------------------------------------------------
  addStep(step: TimelineStep): void {
    this.sessions.add(this.currentKey, step);
    this.scheduleRender();
  }

  clearSteps(): void {
    this.sessions.clear(this.currentKey);
    this.scheduleRender();
  }

  // ---- the active editor -------------------------------------------------------------------------------
  setActive(editor: vscode.TextEditor | undefined): void {
    if (editor && editor.document.uri.scheme !== 'file') return; // output panels, previews: keep the last file
    // no active editor while Quick Open or a panel has focus: keep the file as long as an editor is visible
    if (!editor && vscode.window.visibleTextEditors.length > 0) return;
    // a diff, preview or webview tab is active (e.g. the Verify diff): keep the last file too
    if (!editor && vscode.window.tabGroups?.activeTabGroup?.activeTab !== undefined) return;
    this.switchTo(editor?.document.uri);
  }

  /**
   * The active tab changed. VS Code tells the tab model before the text editor (by a few ms when
   * switching tabs, by the text model's load — 50–200 ms measured — when a file opens): a file's
   * text tab is drawn from here, and the editor event that follows finds nothing to do.
   */
  private tabsChanged(): void {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    if (input instanceof vscode.TabInputText && input.uri.scheme === 'file') this.switchTo(input.uri);
  }

  /** `draw`: at once (an editor switch); false at activation, where the first analysis draws */
  private switchTo(uri: vscode.Uri | undefined, draw = true): void {
    const p = uri?.fsPath;
    if (p === this.activeFile) return;
    if (this.activeFile) this.previousFile = this.activeFile;
    this.activeFile = p;
    this.activeChangedAt = Date.now();
    this.preview.refresh();
    if (uri) {
      const f = vscode.workspace.getWorkspaceFolder(uri);
      if (f) this.currentKey = this.keyOf(f);
    }
    // an editor switch is drawn at once, in the event itself (a timer would queue behind whatever else
    // the shared extension host has to do on a switch); other triggers are debounced
    if (!draw) return;
    if (this.renderTimer) clearTimeout(this.renderTimer);
    this.render();
  }

  private trackDirty(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== 'file') return;
    const p = doc.uri.fsPath;
    if (doc.isDirty === this.dirty.has(p)) return;
    if (doc.isDirty) this.dirty.add(p);
    else this.dirty.delete(p);
    // a finding on this file now says "save to apply" (or no longer does)
    if (vscode.languages.getDiagnostics(doc.uri).length) this.publish();
    this.scheduleRender();
  }

  /** the unsaved text of an open editor, if it has changes */
  unsavedText(p: string): string | undefined {
    return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === p && d.isDirty)?.getText();
  }

  openFile(p: string, line?: number): void {
    const selection = line ? new vscode.Range(line - 1, 0, line - 1, 0) : undefined;
    void vscode.window.showTextDocument(vscode.Uri.file(p), { selection, preview: true }).then(undefined, (e: unknown) => {
      void vscode.window.showWarningMessage(this.t('Cannot open {0}: {1}', p, e instanceof Error ? e.message : String(e)));
    });
  }

  // ---- drawing -------------------------------------------------------------------------------------------
  /** the sidebar's state for the current folder and the active file */
  buildState(activeFile = this.activeFile): ViewState | undefined {
    const a = this.current;
    if (!a) return undefined;
    const folder = this.folderOfKey(this.currentKey);
    return present({
      analysis: a,
      folderName: this.folders().length > 1 ? folder?.name : undefined,
      activeFile,
      version: this.versionInfo(this.currentKey),
      model: a.model.requested,
      trusted: vscode.workspace.isTrusted,
      nestedFiles: folder ? this.index.nestedInstructionFiles(folder) : [],
      sessionSteps: this.sessions.get(this.currentKey),
      dirtyFiles: this.dirty,
      diagnostics: this.diagnosticsFor(this.currentKey, a),
      live: this.liveHeadline,
      hookOutputs: this.hookOutputs(a),
      mcpFacts: this.mcpFacts.get(this.currentKey),
      t: this.t,
      locale: this.locale,
      today: new Date().toISOString().slice(0, 10),
    });
  }

  /** what the hooks of the timeline printed when a session here last ran them: read only when the
   *  timeline has steps and the settings have hooks; each transcript from where its last read ended */
  private hookOutputs(a: Analysis): ReadonlyMap<string, { chars: number }> | undefined {
    if (!this.sessions.get(this.currentKey)?.length || !a.settings.layers.some((l) => !!l.data.hooks)) return undefined;
    const o = this.optionsFor(this.currentKey);
    const dirs = transcriptDirs(nodeFileAccess, o.cwd, configDir(o.home ?? o.env?.HOME ?? os.homedir(), o.env ?? process.env));
    return this.hookRuns.read(listTranscripts(nodeFileAccess, dirs));
  }

  /** a state with only a header and a message, when there is no analysis to show */
  private messageState(launchDir: string, message: string): ViewState {
    const { t } = this;
    return { header: { version: t('Claude Code'), model: '', launchDir, change: { command: 'configure', label: t('Change…') } }, gaugesTitle: t('Gauges'), gauges: [], sections: [], message };
  }

  scheduleRender(ms = 30): void {
    if (this.renderTimer) clearTimeout(this.renderTimer);
    this.renderTimer = setTimeout(() => this.render(), ms);
  }

  private render(): void {
    this.renderTimer = undefined;
    const eventAt = this.activeChangedAt || undefined;
    this.activeChangedAt = 0;
    this.status.update(this.current, this.activeFile, { mcpFacts: this.mcpFacts.get(this.currentKey), live: this.liveHeadline });
    if (!this.sidebar.visible) return;
    const entry = this.service.get(this.currentKey);
    try {
      const t0 = Date.now();
      const state = this.buildState();
      const ms = Date.now() - t0;
      if (ms > 200) this.log.info(`sidebar state built in ${ms} ms`);
      if (state) {
        this.sidebar.update(state, eventAt);
        this.warmOpenTabs();
      } else if (entry.error) {
        this.log.error(`analysis failed: ${entry.error}`);
        this.sidebar.update(this.messageState(entry.options.cwd, this.t('The analysis failed: {0}', entry.error)));
      }
    } catch (e) {
      this.log.error(`render failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      this.sidebar.update(this.messageState(entry.options.cwd, this.t('The sidebar could not be drawn: {0}', e instanceof Error ? e.message : String(e))));
    }
  }

  /** the analyses whose open tabs were warmed (each analysis once: a new one after a change warms again) */
  private readonly warmed = new WeakSet<object>();
  private warmTimer: ReturnType<typeof setTimeout> | undefined;

  /**
   * After the sidebar's first drawing for an analysis, when the extension host is idle: the state of
   * each file open in a tab of this folder is built once and dropped, so that the first switch to it
   * finds its touches answered and the drawing code compiled (measured in the e2e: the first switch's
   * build took 45 ms, the next ones 2 to 3). One file per task, at most 20, none while the sidebar is hidden.
   */
  private warmOpenTabs(): void {
    const a = this.current;
    if (!a || this.warmed.has(a)) return;
    this.warmed.add(a);
    const key = this.currentKey;
    const files: string[] = [];
    for (const g of vscode.window.tabGroups.all)
      for (const t of g.tabs) {
        if (!(t.input instanceof vscode.TabInputText) || t.input.uri.scheme !== 'file' || t.input.uri.fsPath === this.activeFile) continue;
        const f = vscode.workspace.getWorkspaceFolder(t.input.uri);
        if (f && this.keyOf(f) === key) files.push(t.input.uri.fsPath);
      }
    const queue = [...new Set(files)].slice(0, 20);
    const step = () => {
      this.warmTimer = undefined;
      const p = queue.shift();
      if (p === undefined || this.current !== a || !this.sidebar.visible) return;
      try {
        this.buildState(p);
      } catch {
        // the drawing of that file fails when it is switched to, and says so there
      }
      this.warmTimer = setTimeout(step, 0);
    };
    if (this.warmTimer) clearTimeout(this.warmTimer);
    this.warmTimer = setTimeout(step, 50);
  }

  publish(): void {
    publishDiagnostics(
      this.diagnostics,
      this.service.keys().flatMap((k) => {
        const a = this.service.get(k).analysis;
        return a ? [{ analysis: a, diagnostics: [...this.diagnosticsFor(k, a), ...applySeverity(this.advice.diagnostics(a, this.t), this.severities)] }] : [];
      }),
      this.dirty,
      this.t,
    );
  }

  // ---- indexes and updates ---------------------------------------------------------------------------------
  private indexBuilt(ix: Parameters<AnalysisService['attachIndex']>[0]): void {
    const fa = this.service.attachIndex(ix, { home: os.homedir() });
    if (!fa) return;
    fa.prefetch();
    // the folders the crawl skipped (node_modules, build output), listed in the background
    const generation = this.indexGeneration;
    const step = () => {
      if (generation !== this.indexGeneration) return;
      fa.prelistIgnored(200);
      if (!fa.prelisted) this.prelistTimer = setTimeout(step, 0);
    };
    this.prelistTimer = setTimeout(step, 100);
  }

  /** every folder's index, before any analysis reads through it, and every folder's analysis */
  private analyseAll(): void {
    for (const f of this.folders()) this.index.index(f);
    for (const f of this.folders()) this.service.get(this.keyOf(f));
  }

  private afterAnalysis(): void {
    this.publish();
    this.lint.schedule();
    this.watchers.syncExternal();
    this.changed.fire();
    this.preview.refresh();
    this.scheduleRender();
  }

  /** a full re-crawl and re-analysis (the Refresh command) */
  refreshAll(): void {
    this.index.reset();
    this.service.refreshAll();
  }

  private listen(): vscode.Disposable[] {
    return [
      this.service.onDidChange(() => {
        this.analyseAll();
        this.afterAnalysis();
      }),
      this.index.onDidChange(() => this.scheduleRender()),
      vscode.window.onDidChangeActiveTextEditor((e) => this.setActive(e)),
      vscode.window.tabGroups.onDidChangeTabs(() => this.tabsChanged()),
      vscode.workspace.onDidChangeTextDocument((e) => this.trackDirty(e.document)),
      vscode.workspace.onDidSaveTextDocument((d) => this.trackDirty(d)),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (this.dirty.delete(d.uri.fsPath)) this.scheduleRender();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('files.exclude')) {
          this.index.reset();
          this.service.reconfigure();
          return;
        }
        if (!e.affectsConfiguration(SECTION)) return;
        if (e.affectsConfiguration(`${SECTION}.lint.severity`)) {
          // severities only: no new analysis, the same findings drawn again
          this.severities = parseSeverityOverrides(vscode.workspace.getConfiguration(SECTION).get('lint.severity'));
          this.publish();
          this.changed.fire();
          this.scheduleRender(0);
          return;
        }
        if (e.affectsConfiguration(`${SECTION}.claudePath`)) void this.detect();
        if (e.affectsConfiguration(`${SECTION}.statusBar`)) this.scheduleRender(0);
        this.service.reconfigure();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        for (const k of this.service.keys()) if (!this.folderOfKey(k) && k !== NO_FOLDER) this.service.removeFolder(k);
        this.index.reset();
        if (!this.folderOfKey(this.currentKey)) this.currentKey = this.keyOf(this.folders()[0]);
        this.service.reconfigure();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        void this.detect();
        this.scheduleRender();
      }),
    ];
  }

  /** the first analysis, after activation returned */
  start(): void {
    // the active file now; its analysis (indexes first) after activation returns
    const editor = vscode.window.activeTextEditor;
    if (editor?.document.uri.scheme === 'file') this.switchTo(editor.document.uri, false);
    setTimeout(() => {
      this.analyseAll();
      if (!this.folders().length) this.service.get(NO_FOLDER);
      this.afterAnalysis();
    }, 0);
    void this.detect();
  }

  dispose(): void {
    if (this.warmTimer) clearTimeout(this.warmTimer);
    this.indexGeneration++;
    if (this.prelistTimer) clearTimeout(this.prelistTimer);
    if (this.renderTimer) clearTimeout(this.renderTimer);
    for (const d of this.disposables.reverse()) d.dispose();
  }
}
