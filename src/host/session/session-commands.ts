// The session timeline's "Add a step…" (a Quick Pick of what a task can do next) and the notice shown
// when an instruction file is saved while a Claude Code session is running in the workspace.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentTypes, type Analysis } from '../../engine/index.js';
import type { Translate } from '../format.js';
import { findRunningSession, mayNotice, saveNotice, type NoticeKind } from './running-session.js';
import { validSteps, type TimelineStep } from './session-timeline.js';

interface PickContext {
  analysis: Analysis;
  activeFile: string | undefined;
  t: Translate;
  /** the unsaved text of an open editor, if it has changes */
  unsavedText: (file: string) => string | undefined;
}

type Item = vscode.QuickPickItem & { make?: () => Promise<TimelineStep | undefined> | TimelineStep | undefined };

/** a step from the Quick Pick, or `preset` when a command passes one (tests, keybindings) */
export async function pickStep(preset: unknown, c: PickContext): Promise<TimelineStep | undefined> {
  const given = validSteps([preset]);
  if (given.length) return given[0];
  const { t, analysis: a, activeFile } = c;
  const name = activeFile ? path.basename(activeFile) : undefined;
  const items: Item[] = [];
  if (activeFile && name) {
    items.push({ label: '$(file) ' + t('Read {0}', name), description: t('the model reads the active file'), make: () => ({ kind: 'read', file: activeFile }) });
    const onEdit = a.profile.lazyTriggers.includes('Edit');
    items.push({ label: '$(edit) ' + t('Edit {0}', name), description: onEdit ? t('the model edits it (this version loads instructions on Edit too)') : t('the model edits it (this version loads instructions on Read only)'), make: () => ({ kind: 'edit', file: activeFile }) });
    items.push({ label: '$(terminal) ' + t('Bash cat {0}', name), description: t('a shell command that reads it'), make: () => ({ kind: 'bash', file: activeFile }) });
    items.push({
      label: '$(save) ' + t('You save {0} between turns', name),
      description: t('its unsaved text, as if saved before the next prompt'),
      make: () => {
        const text = c.unsavedText(activeFile);
        if (text === undefined) {
          void vscode.window.showInformationMessage(t('{0} has no unsaved changes: edit it first, then add this step (the step uses the unsaved text).', name));
          return undefined;
        }
        return { kind: 'change', file: activeFile, content: text };
      },
    });
  }
  // every skill the model can invoke: the listed ones (yours and those shipped with Claude Code) and the path-gated ones
  const invocable = [
    ...a.skills.entries.map((s) => ({ name: s.name, bundled: s.bundled, path: s.path, gated: false })),
    ...a.skills.conditional.map((s) => ({ name: s.name, bundled: false, path: s.path, gated: true })),
  ];
  items.push({
    label: '$(sparkle) ' + t('Invoke a skill…'),
    description: invocable.length === 1 ? t('1 skill') : t('{0} skills', invocable.length),
    make: async () => {
      const pick = await vscode.window.showQuickPick(
        invocable.map((s) => ({
          label: s.name,
          bundled: s.bundled,
          description: s.bundled ? t('shipped with Claude Code') : s.gated ? t('path-gated: listed after a matching file is touched') : s.path ? vscode.workspace.asRelativePath(s.path) : undefined,
        })),
        { title: t('Invoke a skill'), placeHolder: t('the skill the model calls') },
      );
      if (!pick) return undefined;
      if (pick.bundled) {
        // its body ships inside Claude Code: the engine cannot say what it adds
        void vscode.window.showInformationMessage(t('{0} is shipped with Claude Code: its body is not known here, so the step cannot be simulated.', pick.label));
        return undefined;
      }
      const args = await vscode.window.showInputBox({ title: t('Arguments for {0}', pick.label), prompt: t('what the model passes as args (may be empty)') });
      if (args === undefined) return undefined;
      return { kind: 'skill', name: pick.label, ...(args && { args }) };
    },
  });
  items.push({
    label: '$(organization) ' + t('Start a subagent…'),
    make: async () => {
      const types = agentTypes(a.env, a.profile);
      const pick = await vscode.window.showQuickPick(
        types.map((x) => ({ label: x.name, description: x.source === 'built-in' ? t('built-in') : vscode.workspace.asRelativePath(x.path ?? ''), detail: x.getsInstructions ? t('gets the startup instructions') : t('gets no instruction file') })),
        { title: t('Start a subagent') },
      );
      return pick ? { kind: 'agent', type: pick.label } : undefined;
    },
  });
  items.push({ label: '$(fold) /compact', description: t('the conversation is summarized and starts over'), make: () => ({ kind: 'compact' }) });
  items.push({ label: '$(clear-all) /clear', description: t('the conversation starts over'), make: () => ({ kind: 'clear' }) });
  const pick = await vscode.window.showQuickPick(items, { title: t('Add a step to the session'), placeHolder: t('what happens next in the session') });
  return pick?.make ? await pick.make() : undefined;
}

/**
 * On save of an instruction file or skill: when a Claude Code session is running in this workspace
 * (a transcript written in the last minutes), say what that session will see of the edit.
 */
export function registerSaveNotice(
  context: vscode.ExtensionContext,
  analysisFor: (uri: vscode.Uri) => Analysis | undefined,
  t: Translate,
  now: () => number = Date.now,
): void {
  const shown = new Map<string, NoticeKind>();
  context.subscriptions.push(
    vscode.workspace.onDidSaveTextDocument((doc) => {
      if (doc.uri.scheme !== 'file') return;
      const a = analysisFor(doc.uri);
      if (!a || !mayNotice(doc.uri.fsPath, a)) return;
      let running;
      try {
        running = findRunningSession(a.env.cwd, a.env.userDir, now());
      } catch {
        return;
      }
      if (!running) return;
      const notice = saveNotice(doc.uri.fsPath, a, running, now(), t);
      if (!notice) return;
      // once per file and kind for a running session: saving again says nothing new
      const key = `${running.file}\0${doc.uri.fsPath}`;
      if (shown.get(key) === notice.kind) return;
      shown.set(key, notice.kind);
      void vscode.window.showInformationMessage(notice.message);
    }),
  );
}
