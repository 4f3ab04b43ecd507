// Entry point: wires the cached engine (AnalysisService), the watchers, the sidebar and the editor
// providers together. Thin on purpose: every answer comes from the engine via present.ts,
// file-lens.ts and glob-report.ts; this file only decides *when* to ask and where to draw.
import * as os from 'node:os';
import * as path from 'node:path';
import { validSteps, type TimelineStep } from './session-timeline.js';
import { UiMemoryStore } from './ui-memory-store.js';
import { pickStep, registerSaveNotice } from './session-commands.js';
import * as vscode from 'vscode';
import { knownModels, NEWEST_PROFILE, PROFILES, renderLazy, renderStartupBlock, type Analysis, type Diagnostic, type EngineOptions } from '../engine/index.js';
import { lintWorkspace, skillsView } from '../engine/index.js';
import type { CommandId, ViewState } from '../../webview/protocol.js';
import { AnalysisService } from './analysis-service.js';
import { claudePathSetting, readConfig, SECTION } from './config.js';
import type { Translate } from './format.js';
import { present, statusFigures, type VersionInfo } from './present.js';
import {
  FrontmatterCompletionProvider, GlobHoverProvider, ImportLinkProvider, LensProvider, publishDiagnostics, QuickFixProvider, SELECTOR,
  type HostContext,
} from './providers.js';
import { reportText } from './report.js';
import { Decorations } from './decorations.js';
import { SidebarProvider, VIEW_ID } from './sidebar.js';
import { detectVersion } from './version-detect.js';
import { Watchers } from './watchers.js';
import { excludeGlobs, WorkspaceIndex } from './workspace-index.js';
import { registerVerify } from './verify-command.js';

const NO_FOLDER = 'no-folder';
const PREVIEW_SCHEME = 'claude-layers';

export function activate(context: vscode.ExtensionContext): void {
  const t: Translate = (m, ...args) => vscode.l10n.t(m, ...args);
  const locale = vscode.env.language || 'en';
  const log = vscode.window.createOutputChannel('Claude Context Layers', { log: true });
  const sub = (...d: vscode.Disposable[]) => context.subscriptions.push(...d);
  sub(log);

  // ---- folders, settings, version --------------------------------------------------------------
  const folders = () => vscode.workspace.workspaceFolders ?? [];
  const folderOfKey = (key: string) => folders().find((f) => f.uri.toString() === key);
  const keyOf = (f: vscode.WorkspaceFolder | undefined) => (f ? f.uri.toString() : NO_FOLDER);
  let detected: { version?: string; error?: string; reason?: VersionInfo['why']; executable?: string } = {};

  const versionInfo = (key: string): VersionInfo => {
    const cfg = readConfig(folderOfKey(key));
    if (cfg.claudeVersion) return { requested: cfg.claudeVersion, source: 'setting' };
    if (detected.version) return { requested: detected.version, source: 'detected' };
    return { source: 'newest', why: vscode.workspace.isTrusted ? detected.reason : 'untrusted', executable: detected.executable, error: detected.error };
  };

  const optionsFor = (key: string): EngineOptions => {
    const folder = folderOfKey(key);
    const cfg = readConfig(folder);
    const launch = folder || vscode.workspace.getConfiguration(SECTION).get<string>('launchDirectory') ? cfg.launchDir : os.homedir();
    return {
      cwd: launch,
      env: { ...process.env },
      claudeVersion: versionInfo(key).requested,
      model: cfg.model || process.env.ANTHROPIC_MODEL || undefined,
      addDirs: cfg.addDirs,
      settingSources: cfg.settingSources,
    };
  };

  const service = new AnalysisService(optionsFor, 250);
  // one crawl per folder (honouring .gitignore and files.exclude) serves hovers and lists, and the
  // engine reads through it: first questions about a folder then read nothing from disk
  let indexGeneration = 0;
  const index = new WorkspaceIndex({
    built: (ix) => {
      const fa = service.attachIndex(ix, { home: os.homedir() });
      if (!fa) return;
      fa.prefetch();
      // the folders the crawl skipped (node_modules, build output), listed in the background
      const generation = indexGeneration;
      const step = () => {
        if (generation !== indexGeneration) return;
        fa.prelistIgnored(200);
        if (!fa.prelisted) prelistTimer = setTimeout(step, 0);
      };
      prelistTimer = setTimeout(step, 100);
    },
    dropped: () => {
      indexGeneration++;
      service.detachIndexes();
    },
    exclude: (folder) => excludeGlobs(vscode.workspace.getConfiguration('files', folder.uri).get('exclude')),
    log: (m) => log.info(m),
  });
  let prelistTimer: ReturnType<typeof setTimeout> | undefined;
  /** every folder's index, before any analysis reads through it */
  const ensureIndexes = () => {
    for (const f of folders()) index.index(f);
  };
  sub({ dispose: () => service.dispose() }, index, {
    dispose: () => {
      indexGeneration++;
      if (prelistTimer) clearTimeout(prelistTimer);
    },
  });

  /** the model in use: the setting or ANTHROPIC_MODEL (in the options), Claude Code's `model` setting, the version's default */
  const modelFor = (a: Analysis): string => a.model.requested;

  // ---- the active file and the current folder ---------------------------------------------------
  let currentKey = keyOf(folders()[0]);
  let activeFile: string | undefined;
  let previousFile: string | undefined;
  // the session timeline's steps, per folder: kept in the workspace state, so they survive reloads
  // (a plain path, as earlier versions stored, is a read of that file)
  const SESSIONS_KEY = 'claudeLayers.sessions';
  const sessions = new Map<string, TimelineStep[]>();
  {
    const stored = context.workspaceState.get<unknown>(SESSIONS_KEY);
    if (stored && typeof stored === 'object')
      for (const [k, v] of Object.entries(stored as Record<string, unknown>))
        if (Array.isArray(v)) sessions.set(k, validSteps(v.map((x) => (typeof x === 'string' ? { kind: 'read', file: x } : x))));
  }
  const addStep = (step: TimelineStep) => {
    sessions.set(currentKey, [...(sessions.get(currentKey) ?? []), step].slice(-200));
    saveSessions();
    scheduleRender();
  };
  const saveSessions = () => void context.workspaceState.update(SESSIONS_KEY, Object.fromEntries(sessions));

  // files with unsaved changes (the rows mark them: Claude Code reads the saved text)
  const dirty = new Set<string>();
  const trackDirty = (doc: vscode.TextDocument) => {
    if (doc.uri.scheme !== 'file') return;
    const p = doc.uri.fsPath;
    if (doc.isDirty === dirty.has(p)) return;
    if (doc.isDirty) dirty.add(p);
    else dirty.delete(p);
    scheduleRender();
  };

  const setActive = (editor: vscode.TextEditor | undefined) => {
    if (editor && editor.document.uri.scheme !== 'file') return; // output panels, previews: keep the last file
    // no active editor while Quick Open or a panel has focus: keep the file as long as an editor is visible
    if (!editor && vscode.window.visibleTextEditors.length > 0) return;
    // a diff, preview or webview tab is active (e.g. the Verify diff): keep the last file too
    if (!editor && vscode.window.tabGroups?.activeTabGroup?.activeTab !== undefined) return;
    const p = editor?.document.uri.fsPath;
    if (p === activeFile) return;
    if (activeFile) previousFile = activeFile;
    activeFile = p;
    activeChangedAt = Date.now();
    for (const u of previews) previewChanged.fire(vscode.Uri.parse(u));
    if (editor) {
      const f = vscode.workspace.getWorkspaceFolder(editor.document.uri);
      if (f) currentKey = keyOf(f);
    }
    scheduleRender(0); // an editor switch is drawn at once; other triggers are debounced
  };

  const analysisFor = (uri: vscode.Uri): Analysis | undefined => {
    const f = vscode.workspace.getWorkspaceFolder(uri);
    if (f) return service.get(keyOf(f)).analysis;
    // outside every folder (user CLAUDE.md, memory folder): the analysis that read it, else the current one
    const p = path.normalize(uri.fsPath);
    for (const a of service.all()) {
      if (a.startup.some((e) => path.normalize(e.path) === p) || p.startsWith(a.memory.location.dir) || p.startsWith(a.env.userDir + path.sep)) return a;
    }
    return service.get(currentKey).analysis;
  };

  // ---- the sidebar --------------------------------------------------------------------------------
  const buildState = (): ViewState | undefined => {
    const entry = service.get(currentKey);
    const folder = folderOfKey(currentKey);
    const a = entry.analysis;
    if (!a) return undefined;
    return present({
      analysis: a,
      folderName: folders().length > 1 ? folder?.name : undefined,
      activeFile,
      version: versionInfo(currentKey),
      model: modelFor(a),
      trusted: vscode.workspace.isTrusted,
      nestedFiles: folder ? index.nestedInstructionFiles(folder) : [],
      sessionSteps: sessions.get(currentKey) ?? [],
      dirtyFiles: dirty,
      diagnostics: lints.get(currentKey)?.analysis === a ? lints.get(currentKey)!.diagnostics : undefined,
      t,
      locale,
      today: new Date().toISOString().slice(0, 10),
    });
  };

  /** a state with only a header and a message, when there is no analysis to show */
  const messageState = (launchDir: string, message: string): ViewState => ({
    header: { version: t('Claude Code'), model: '', launchDir, change: { command: 'configure', label: t('Change…') } },
    gaugesTitle: t('Gauges'),
    gauges: [],
    sections: [],
    message,
  });

  const openFile = (p: string, line?: number) => {
    const selection = line ? new vscode.Range(line - 1, 0, line - 1, 0) : undefined;
    void vscode.window.showTextDocument(vscode.Uri.file(p), { selection, preview: true }).then(undefined, (e: unknown) => {
      void vscode.window.showWarningMessage(t('Cannot open {0}: {1}', p, e instanceof Error ? e.message : String(e)));
    });
  };

  const uiMemory = new UiMemoryStore(context.workspaceState, context.storageUri?.fsPath);
  const sidebar = new SidebarProvider(
    context.extensionUri,
    {
      open: openFile,
      command: (id: CommandId) => void vscode.commands.executeCommand(`claudeLayers.${id}`),
      visible: () => scheduleRender(),
      saveMemory: (m) => uiMemory.save(m),
      loadMemory: () => {
        const m = uiMemory.load();
        log.info(`sidebar ready: ${m ? `UI memory of ${new Date(m.savedAt ?? 0).toISOString()} sent (${Object.keys(m.open).length} keys)` : 'no UI memory kept'}`);
        return m;
      },
    },
    t('Claude Context Layers'),
  );
  sub(sidebar, vscode.window.registerWebviewViewProvider(VIEW_ID, sidebar));

  // ---- the status bar item (left, theme colours only): what a Read of the active file injects, startup tokens
  const status = vscode.window.createStatusBarItem('claudeLayers.status', vscode.StatusBarAlignment.Left, 20);
  status.name = t('Claude Context Layers');
  status.command = 'claudeLayers.showSidebar';
  sub(status);
  const statusEnabled = () => vscode.workspace.getConfiguration(SECTION).get<boolean>('statusBar.enabled', true) !== false;
  function updateStatus(): void {
    const a = service.get(currentKey).analysis;
    if (!statusEnabled() || !a) {
      status.hide();
      return;
    }
    try {
      const s = statusFigures({ analysis: a, activeFile, model: modelFor(a), t, locale, today: new Date().toISOString().slice(0, 10) });
      status.text = s.text;
      status.tooltip = s.tooltip;
      status.accessibilityInformation = { label: s.aria, role: 'button' };
      status.show();
    } catch (e) {
      log.error(`status bar: ${e instanceof Error ? e.message : String(e)}`);
      status.hide();
    }
  }

  let renderTimer: ReturnType<typeof setTimeout> | undefined;
  let activeChangedAt = 0;
  function scheduleRender(ms = 30): void {
    if (renderTimer) clearTimeout(renderTimer);
    renderTimer = setTimeout(render, ms);
  }
  function render(): void {
    renderTimer = undefined;
    updateStatus();
    if (!sidebar.visible) return;
    try {
      const t0 = Date.now();
      const state = buildState();
      const ms = Date.now() - t0;
      if (ms > 200) log.info(`sidebar state built in ${ms} ms`);
      activeChangedAt = 0;
      const entry = service.get(currentKey);
      const eventAt = activeChangedAt || undefined;
      if (state) sidebar.update(state, eventAt);
      else if (entry.error) {
        log.error(`analysis failed: ${entry.error}`);
        sidebar.update(messageState(entry.options.cwd, t('The analysis failed: {0}', entry.error)));
      }
    } catch (e) {
      log.error(`render failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      sidebar.update(messageState(service.get(currentKey).options.cwd, t('The sidebar could not be drawn: {0}', e instanceof Error ? e.message : String(e))));
    }
  }
  sub({ dispose: () => renderTimer && clearTimeout(renderTimer) });

  // ---- editor providers -----------------------------------------------------------------------------
  const changed = new vscode.EventEmitter<void>();
  sub(changed);
  const hostCtx: HostContext = {
    analysisFor,
    folderFor: (uri) => vscode.workspace.getWorkspaceFolder(uri),
    modelFor,
    index,
    probes: (except) => {
      const out = new Set<string>();
      // the file the user came from (and the active one): what "does it match?" is most likely about
      for (const p of [activeFile, previousFile]) if (p && p !== except.fsPath) out.add(p);
      return [...out].slice(0, 2);
    },
    t,
    locale,
    onDidChange: changed.event,
  };
  const diagnostics = vscode.languages.createDiagnosticCollection('claudeLayers');
  sub(
    diagnostics,
    vscode.languages.registerHoverProvider(SELECTOR, new GlobHoverProvider(hostCtx)),
    vscode.languages.registerCodeLensProvider(SELECTOR, new LensProvider(hostCtx)),
    vscode.languages.registerDocumentLinkProvider(SELECTOR, new ImportLinkProvider(hostCtx)),
    vscode.languages.registerCompletionItemProvider(SELECTOR, new FrontmatterCompletionProvider(hostCtx)),
    vscode.languages.registerCodeActionsProvider(SELECTOR, new QuickFixProvider(hostCtx), { providedCodeActionKinds: QuickFixProvider.kinds }),
  );

  sub(new Decorations(hostCtx));

  // ---- read-only preview of the startup request ------------------------------------------------------
  const previewChanged = new vscode.EventEmitter<vscode.Uri>();
  const previews = new Set<string>();
  sub(
    previewChanged,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, {
      onDidChange: previewChanged.event,
      provideTextDocumentContent: (uri) => {
        previews.add(uri.toString());
        const a = service.get(decodeURIComponent(uri.query) || currentKey).analysis;
        if (!a) return t('No analysis for this folder.');
        const startup = renderStartupBlock(a.profile, a.startup, new Date().toISOString().slice(0, 10)) ?? t('Nothing reaches the first request: no CLAUDE.md, rule or MEMORY.md loads.');
        // below the startup block, the skills listing (a message of its own) and exactly what a Read of
        // the active file adds; the marker lines between them are ours
        const marker = (s: string) => `\n\n${'─'.repeat(8)} ${s} ${'─'.repeat(8)}\n\n`;
        const listing = skillsView(a)?.text;
        const withSkills = listing ? `${startup}${marker(t('the skills listing, a message of its own ({0} chars):', listing.length))}${listing}` : startup;
        const file = activeFile;
        if (!file) return withSkills;
        const inj = a.lazyFor(file, 'Read');
        const lazy = renderLazy(a.profile, inj).join('');
        const rel = path.relative(a.env.cwd, file) || file;
        return `${withSkills}${marker(inj.length ? t('then a Read of {0} adds ({1} chars):', rel, lazy.length) : t('then a Read of {0} adds nothing', rel))}${lazy}`;
      },
    }),
  );

  // ---- watchers and updates --------------------------------------------------------------------------
  const watchers = new Watchers(service, index, (m) => log.info(m));
  sub(watchers);
  // the workspace lint (the CLI's `lint`: names, ignored keys, dead globs, memory budget, secrets)
  // runs after the analysis settles, never on an editor switch
  const lints = new Map<string, { analysis: Analysis; diagnostics: readonly Diagnostic[] }>();
  let lintTimer: ReturnType<typeof setTimeout> | undefined;
  let lintGeneration = 0;
  const publish = () =>
    publishDiagnostics(
      diagnostics,
      service.keys().flatMap((k) => {
        const a = service.get(k).analysis;
        if (!a) return [];
        const l = lints.get(k);
        return [{ analysis: a, diagnostics: l?.analysis === a ? l.diagnostics : a.diagnostics }];
      }),
    );
  const scheduleLint = () => {
    if (lintTimer) clearTimeout(lintTimer);
    lintTimer = setTimeout(() => void lint(), 800);
  };
  async function lint(): Promise<void> {
    const generation = ++lintGeneration;
    for (const key of service.keys()) {
      const a = service.get(key).analysis;
      if (!a) continue;
      try {
        const r = await lintWorkspace(a, { secrets: true });
        if (generation !== lintGeneration) return; // a newer analysis started its own run
        lints.set(key, { analysis: a, diagnostics: r.diagnostics });
      } catch (e) {
        log.error(`lint failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    publish();
    changed.fire(); // lenses and decorations that depend on the lint (a glob that matches nothing)
    scheduleRender();
  }
  sub({ dispose: () => lintTimer && clearTimeout(lintTimer) });

  const afterAnalysis = () => {
    publish();
    scheduleLint();
    watchers.syncExternal();
    changed.fire();
    for (const u of previews) previewChanged.fire(vscode.Uri.parse(u));
    scheduleRender();
  };
  sub(
    { dispose: service.onDidChange(() => {
      ensureIndexes();
      for (const f of folders()) service.get(keyOf(f));
      afterAnalysis();
    }).dispose },
    index.onDidChange(() => scheduleRender()),
    vscode.window.onDidChangeActiveTextEditor(setActive),
    vscode.workspace.onDidChangeTextDocument((e) => trackDirty(e.document)),
    vscode.workspace.onDidSaveTextDocument(trackDirty),
    vscode.workspace.onDidCloseTextDocument((d) => {
      if (dirty.delete(d.uri.fsPath)) scheduleRender();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('files.exclude')) {
        index.reset();
        service.reconfigure();
        return;
      }
      if (!e.affectsConfiguration(SECTION)) return;
      if (e.affectsConfiguration(`${SECTION}.claudePath`)) void detect();
      service.reconfigure();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      for (const k of service.keys()) if (!folderOfKey(k) && k !== NO_FOLDER) service.removeFolder(k);
      index.reset();
      if (!folderOfKey(currentKey)) currentKey = keyOf(folders()[0]);
      service.reconfigure();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      void detect();
      scheduleRender();
    }),
  );

  async function detect(): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      detected = {};
      return;
    }
    const d = await detectVersion(true, claudePathSetting());
    if (d.version !== detected.version || d.reason !== detected.reason) {
      detected = d;
      log.info(d.version ? `claude --version: ${d.version} (${d.executable})` : `version not detected: ${d.error}`);
      service.reconfigure();
    } else detected = d;
  }

  // ---- commands ---------------------------------------------------------------------------------------
  const command = (id: string, fn: () => unknown) => sub(vscode.commands.registerCommand(id, fn));
  command('claudeLayers.refresh', () => {
    index.reset();
    service.refreshAll();
  });
  command('claudeLayers.showSidebar', () => vscode.commands.executeCommand(`${VIEW_ID}.focus`));
  command('claudeLayers.showLog', () => log.show());
  // claudePath lives in user settings only (machine scope): the file dialog writes it there
  command('claudeLayers.setClaudePath', async () => {
    const picked = await vscode.window.showOpenDialog({ canSelectFiles: true, canSelectFolders: false, canSelectMany: false, openLabel: t('Use this claude'), title: t('Locate the claude executable') });
    if (!picked?.[0]) return;
    await vscode.workspace.getConfiguration(SECTION).update('claudePath', picked[0].fsPath, vscode.ConfigurationTarget.Global);
    void detect();
  });
  command('claudeLayers.copyReport', async () => {
    const state = sidebar.current ?? buildState();
    if (!state) return;
    await vscode.env.clipboard.writeText(reportText(state));
    void vscode.window.showInformationMessage(t('Claude Context Layers: report copied to the clipboard.'));
  });
  command('claudeLayers.previewStartup', async () => {
    const a = service.get(currentKey).analysis;
    const name = t('Startup request (Claude Code {0}).txt', a?.profile.version ?? '');
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${name}`, query: encodeURIComponent(currentKey) });
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true });
  });
  command('claudeLayers.sessionAddActive', () => {
    if (!activeFile) {
      void vscode.window.showInformationMessage(t('Open the file to add first.'));
      return;
    }
    addStep({ kind: 'read', file: activeFile });
  });
  command('claudeLayers.sessionAddStep', async (preset?: unknown) => {
    const a = service.get(currentKey).analysis;
    if (!a) return;
    const step = await pickStep(preset, { analysis: a, activeFile, t, unsavedText: (p) => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === p && d.isDirty)?.getText() });
    if (step) addStep(step);
  });
  command('claudeLayers.sessionClear', () => {
    sessions.delete(currentKey);
    saveSessions();
    scheduleRender();
  });
  command('claudeLayers.configure', () => configure());
  registerVerify(context, () => optionsFor(currentKey)); // registers 'claudeLayers.verify' and 'claudeLayers.lastSession'
  registerSaveNotice(context, analysisFor, t);

  async function configure(): Promise<void> {
    const folder = folderOfKey(currentKey);
    const a = service.get(currentKey).analysis;
    const cfg = readConfig(folder);
    const v = versionInfo(currentKey);
    type Item = vscode.QuickPickItem & { id: string };
    const items: Item[] = [
      { id: 'version', label: t('Claude Code version'), description: a?.profile.version, detail: cfg.claudeVersion ? t('set in settings') : detected.version ? t('detected') : t('newest profile') },
      { id: 'model', label: t('Model'), description: a ? modelFor(a) : cfg.model },
      { id: 'launch', label: t('Launch directory'), description: a?.env.cwd },
      { id: 'sources', label: t('Setting sources'), description: (cfg.settingSources ?? ['user', 'project', 'local']).join(', ') },
      { id: 'addDirs', label: t('Additional directories (--add-dir)'), description: cfg.addDirs.join(', ') || '—' },
    ];
    const pick = await vscode.window.showQuickPick(items, { title: t('Claude Context Layers: what Claude Code sees'), placeHolder: t('Choose what to change') });
    if (!pick) return;
    const conf = vscode.workspace.getConfiguration(SECTION, folder?.uri);
    const folderTarget = folder && folders().length > 1 ? vscode.ConfigurationTarget.WorkspaceFolder : vscode.ConfigurationTarget.Workspace;
    if (pick.id === 'version') {
      const choice = await vscode.window.showQuickPick(
        [
          { label: t('Detect (claude --version in a trusted workspace), else the newest profile'), value: '' },
          ...[...PROFILES].reverse().map((p) => ({ label: p.version, value: p.version })),
          { label: t('Other…'), value: '?' },
        ],
        { title: t('Claude Code version'), placeHolder: v.requested },
      );
      if (!choice) return;
      let value = choice.value;
      if (value === '?') value = (await vscode.window.showInputBox({ prompt: t('Claude Code version, e.g. {0}', NEWEST_PROFILE.version), validateInput: (s) => (/^\d+\.\d+\.\d+$/.test(s.trim()) ? undefined : t('a version such as {0}', NEWEST_PROFILE.version)) }))?.trim() ?? '';
      if (choice.value === '?' && !value) return;
      await conf.update('claudeVersion', value || undefined, vscode.ConfigurationTarget.Global);
    } else if (pick.id === 'model') {
      const choice = await vscode.window.showQuickPick([{ label: t('Default of the version'), value: '' }, ...knownModels(a?.profile ?? NEWEST_PROFILE).map((m) => ({ label: m, value: m })), { label: t('Other…'), value: '?' }], { title: t('Model') });
      if (!choice) return;
      let value = choice.value;
      if (value === '?') value = (await vscode.window.showInputBox({ prompt: t('Model id') }))?.trim() ?? '';
      if (choice.value === '?' && !value) return;
      await conf.update('model', value || undefined, vscode.ConfigurationTarget.Global);
    } else if (pick.id === 'launch') {
      const dirs = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: false, defaultUri: a ? vscode.Uri.file(a.env.cwd) : folder?.uri, openLabel: t('Launch Claude Code here') });
      if (!dirs?.[0]) return;
      const p = dirs[0].fsPath;
      const value = folder && p === folder.uri.fsPath ? undefined : folder ? path.relative(folder.uri.fsPath, p) || undefined : p;
      await conf.update('launchDirectory', value, folderTarget);
    } else if (pick.id === 'sources') {
      const current = new Set(cfg.settingSources ?? ['user', 'project', 'local']);
      const chosen = await vscode.window.showQuickPick(
        (['user', 'project', 'local'] as const).map((s) => ({ label: s, picked: current.has(s) })),
        { canPickMany: true, title: t('Setting sources (--setting-sources)') },
      );
      if (!chosen) return;
      const list = chosen.map((c) => c.label);
      await conf.update('settingSources', list.length === 3 ? undefined : list, folderTarget);
    } else if (pick.id === 'addDirs') {
      const dirs = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: true, openLabel: t('Add') });
      if (!dirs) return;
      await conf.update('addDirs', dirs.map((d) => d.fsPath), folderTarget);
    }
  }

  // ---- start -------------------------------------------------------------------------------------------
  setActive(vscode.window.activeTextEditor);
  setTimeout(() => {
    ensureIndexes();
    for (const f of folders()) service.get(keyOf(f));
    if (!folders().length) service.get(NO_FOLDER);
    afterAnalysis();
  }, 0);
  void detect();
}

export function deactivate(): void {
  /* everything is in context.subscriptions */
}
