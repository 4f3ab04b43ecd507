// The ground-truth commands of the extension (issue 6):
// - claudeLayers.verify: runs the user's `claude` once against a loopback stand-in (after a modal
//   confirmation; never in an untrusted workspace), then shows predicted vs actual in a read-only
//   diff view with the verdict in its title;
// - claudeLayers.lastSession: what the most recent Claude Code session of the launch directory
//   really loaded, beside the prediction, as a read-only document.
// Everything is computed by src/ground-truth (Node only); this file only asks, waits and shows.
import * as vscode from 'vscode';
import type { SettingSource } from '../engine/index.js';
import { claudePathSetting } from './config.js';
import {
  lastSessionReport, planVerify, renderLastSession, renderPlan, renderVerify, runVerify, sideDocument, type VerifyOptions, type VerifyResult,
} from '../ground-truth/index.js';

export const VERIFY_SCHEME = 'claude-layers-verify';

/** the launch directory, or the options the sidebar uses for it (EngineOptions fits; its claudeVersion
 *  is ignored: only a version set in the settings forces a profile, a detected one is detected again) */
export type LaunchInfo = string | { cwd: string; addDirs?: string[]; settingSources?: SettingSource[]; model?: string; claudeVersion?: string };

export const VERIFY_COMMANDS = ['claudeLayers.verify', 'claudeLayers.lastSession'] as const;

class VirtualDocs implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private n = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? '';
  }

  /** a new read-only document; old ones are dropped past a few dozen. `reuse`: one document of that
   *  name, its text replaced (an open tab shows the new text instead of a new tab opening) */
  put(name: string, text: string, reuse = false): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: VERIFY_SCHEME, path: reuse ? `/${name}` : `/${++this.n}/${name}` });
    this.docs.set(uri.toString(), text);
    if (this.docs.size > 40) this.docs.delete(this.docs.keys().next().value as string);
    this.emitter.fire(uri);
    return uri;
  }

  dispose(): void {
    this.emitter.dispose();
    this.docs.clear();
  }
}


function activeFile(): string | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  return doc && doc.uri.scheme === 'file' ? doc.uri.fsPath : undefined;
}

/** the version the user set (not a detected one): the sidebar predicts with its profile, so verify does too */
function versionSetting(): string | undefined {
  const v = vscode.workspace.getConfiguration('claudeLayers').get<string>('claudeVersion');
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

function options(info: LaunchInfo): VerifyOptions {
  if (typeof info === 'string') return { cwd: info, version: versionSetting() };
  return { cwd: info.cwd, addDirs: info.addDirs?.length ? info.addDirs : undefined, settingSources: info.settingSources, model: info.model || undefined, version: versionSetting() };
}

export function registerVerify(context: vscode.ExtensionContext, getLaunchDir: () => LaunchInfo | undefined, log?: Pick<vscode.LogOutputChannel, 'info' | 'error'>): void {
  const t = (m: string, ...args: Array<string | number | boolean>) => vscode.l10n.t(m, ...args);
  const docs = new VirtualDocs();
  context.subscriptions.push(docs, vscode.workspace.registerTextDocumentContentProvider(VERIFY_SCHEME, docs));
  let running = false;

  const openDoc = async (name: string, text: string, reuse = false) => {
    const doc = await vscode.workspace.openTextDocument(docs.put(name, text, reuse));
    await vscode.window.showTextDocument(doc, { preview: false });
  };

  /** why verify cannot start, in the extension's words, with the actions that fix it */
  const notRunnable = async (e: unknown) => {
    const msg = e instanceof Error ? e.message : String(e);
    log?.error(`verify cannot start: ${msg}`);
    const locate = t('Locate claude…');
    const settings = t('Open Settings');
    const showLog = t('Show Log');
    let text: string;
    if (/not found on PATH/.test(msg)) text = t('Claude Context Layers: claude is not on PATH and claudeLayers.claudePath is not set.');
    else if (/must be absolute|not an executable/.test(msg)) text = t('Claude Context Layers: claudeLayers.claudePath ({0}) is not an executable file.', claudePathSetting() ?? '');
    else text = t('Claude Context Layers: verify cannot start: {0}', msg);
    const pick = await vscode.window.showErrorMessage(text, locate, settings, showLog);
    if (pick === locate) await vscode.commands.executeCommand('claudeLayers.setClaudePath');
    else if (pick === settings) await vscode.commands.executeCommand('workbench.action.openSettings', 'claudeLayers.claudePath');
    else if (pick === showLog) await vscode.commands.executeCommand('claudeLayers.showLog');
  };

  const showResult = async (r: VerifyResult) => {
    const details = renderVerify(r);
    log?.info(`verify: ${r.verdict}: ${r.summary}`);
    if (r.verdict === 'error') {
      const settings = t('Open Settings');
      const pick = await vscode.window.showErrorMessage(t('Claude Context Layers: could not verify: {0}', r.summary), t('Show Details'), settings);
      if (pick === settings) await vscode.commands.executeCommand('workbench.action.openSettings', 'claudeLayers');
      else if (pick) await openDoc('verify-report.txt', details);
      return;
    }
    const verdict = r.verdict === 'match' ? t('MATCH') : t('MISMATCH');
    const left = docs.put(`predicted (profile ${r.plan.profile.version}).txt`, sideDocument(r, 'predicted'));
    const right = docs.put(`claude ${r.plan.version ?? ''}.txt`, sideDocument(r, 'actual'));
    const profile = r.plan.profile.exact ? r.plan.profile.version : t('{0} (nearest profile)', r.plan.profile.version);
    const title = t('{0}: predicted ({1}) ↔ Claude Code {2}', verdict, profile, r.plan.version ?? '?');
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: false });
    const v = r.plan.version ?? '?';
    const p = r.plan.profile.version;
    const extra = r.plan.profile.exact ? '' : ` ${r.verdict === 'match' ? t('No profile for {0}: the {1} profile matched.', v, p) : t('No profile for {0}: the {1} profile did not match.', v, p)}`;
    const text = `${t('Claude Context Layers')}: ${verdict} — ${r.summary}.${extra}`;
    const pick = r.verdict === 'match' ? await vscode.window.showInformationMessage(text, t('Show Details')) : await vscode.window.showWarningMessage(text, t('Show Details'));
    if (pick) await openDoc('verify-report.txt', details);
  };

  context.subscriptions.push(
    vscode.commands.registerCommand('claudeLayers.verify', async () => {
      if (!vscode.workspace.isTrusted) {
        void vscode.window.showWarningMessage(t('Verify runs Claude Code, so it is disabled in an untrusted workspace.'));
        return;
      }
      if (running) {
        void vscode.window.showInformationMessage(t('A verification is already running.'));
        return;
      }
      const info = getLaunchDir();
      if (!info) {
        void vscode.window.showInformationMessage(t('Open a folder first: verify runs Claude Code in its launch directory.'));
        return;
      }
      const o: VerifyOptions = { ...options(info), file: activeFile(), claudePath: claudePathSetting() };
      running = true;
      try {
        let plan;
        try {
          plan = await planVerify(o);
        } catch (e) {
          void notRunnable(e);
          return;
        }
        if (plan.blockers.length) {
          void vscode.window.showErrorMessage(t('Claude Context Layers: verify will not run: {0}', plan.blockers.join('; ')), { modal: true });
          return;
        }
        const detail = [
          t('Runs {0} (Claude Code {1}) once in {2}, with a dummy API key, against a stand-in on 127.0.0.1: nothing leaves this machine. Hooks, MCP servers, credential helpers and cloud credentials are off for this run.', plan.claudePath, plan.version ?? '?', plan.cwd),
          plan.file ? t('It reads {0} (a scripted Read).', plan.file) : t('No file is open: only the startup instructions are compared.'),
          '',
          t('It touches:'),
          ...plan.touches.map((x) => `• ${x}`),
        ].join('\n');
        const run = t('Run Claude Code');
        const pick = await vscode.window.showWarningMessage(t('Verify the prediction with the installed Claude Code?'), { modal: true, detail }, run, t('Show the Command'));
        if (pick !== run) {
          if (pick) await openDoc('verify-plan.txt', renderPlan(plan));
          return;
        }
        const r = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: t('Verifying with Claude Code {0}', plan.version ?? ''), cancellable: true },
          (progress, token) => {
            const ac = new AbortController();
            token.onCancellationRequested(() => ac.abort());
            return runVerify(plan, { ...o, signal: ac.signal, onProgress: (m) => progress.report({ message: m }) });
          },
        );
        await showResult(r);
      } finally {
        running = false;
      }
    }),
    vscode.commands.registerCommand('claudeLayers.lastSession', async () => {
      const info = getLaunchDir();
      if (!info) {
        void vscode.window.showInformationMessage(t('Open a folder first: sessions are stored per launch directory.'));
        return;
      }
      const o = options(info);
      try {
        const r = lastSessionReport({ cwd: o.cwd, engine: { env: { ...process.env }, addDirs: o.addDirs, settingSources: o.settingSources, model: o.model } });
        // nothing to show: a notification, not a document
        if (!r.session) {
          void vscode.window.showInformationMessage(t('No Claude Code session found for {0} (looked in {1}).', o.cwd, r.searched.join(', ')));
          return;
        }
        // one "last session" document, its text replaced on each run
        await openDoc(t('Last Claude Code session.txt'), renderLastSession(r), true);
      } catch (e) {
        void vscode.window.showErrorMessage(t('Claude Context Layers: cannot read the last session: {0}', e instanceof Error ? e.message : String(e)));
      }
    }),
  );
}
