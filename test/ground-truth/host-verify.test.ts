// The extension commands of src/host/verify-command.ts, with a small fake of the `vscode` API (just
// what the file uses) and the real 2.1.328 binary: disabled in an untrusted workspace, nothing runs
// without the modal's consent, and after consent a read-only diff view (two virtual documents,
// predicted vs actual) whose title carries the verdict; the last session opens as a document.
import Module from 'node:module';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureBinaries, listJsonl } from './helpers.js';
import { claudeBin, materialise } from './scenario.js';
import { memoryKey } from '../../src/engine/memory/memory.js';

// ---- the fake ------------------------------------------------------------------------------------
interface Uri {
  scheme: string;
  path: string;
  fsPath: string;
  toString(): string;
}
const mkUri = (scheme: string, p: string): Uri => ({ scheme, path: p, fsPath: p, toString: () => `${scheme}:${p}` });

const state = {
  trusted: true,
  config: {} as Record<string, unknown>,
  activeFile: undefined as string | undefined,
  modalAnswer: undefined as string | undefined,
  modals: [] as { message: string; detail?: string }[],
  messages: [] as { kind: string; text: string }[],
  commands: new Map<string, (...a: unknown[]) => unknown>(),
  executed: [] as unknown[][],
  shown: [] as string[],
  providers: new Map<string, { provideTextDocumentContent(u: Uri): string }>(),
  progress: [] as string[],
};

class EventEmitter<T> {
  private ls: ((e: T) => void)[] = [];
  event = (l: (e: T) => void) => (this.ls.push(l), { dispose: () => undefined });
  fire(e: T): void {
    for (const l of this.ls) l(e);
  }
  dispose(): void {
    this.ls = [];
  }
}

const message = (kind: string) => (text: string, ...rest: unknown[]) => {
  const opts = rest[0] && typeof rest[0] === 'object' ? (rest[0] as { modal?: boolean; detail?: string }) : undefined;
  if (opts?.modal) {
    state.modals.push({ message: text, detail: opts.detail });
    return Promise.resolve(state.modalAnswer);
  }
  state.messages.push({ kind, text });
  return Promise.resolve(undefined);
};

const fake = {
  Uri: { from: (c: { scheme: string; path: string }) => mkUri(c.scheme, c.path), file: (p: string) => mkUri('file', p) },
  EventEmitter,
  ProgressLocation: { Notification: 15 },
  l10n: { t: (m: string, ...args: unknown[]) => m.replace(/\{(\d+)\}/g, (_x, i: string) => String(args[Number(i)])) },
  workspace: {
    get isTrusted() {
      return state.trusted;
    },
    getConfiguration: () => ({
      get: (k: string) => state.config[k],
      inspect: (k: string) => ({ globalValue: state.config[k] }),
    }),
    registerTextDocumentContentProvider: (scheme: string, p: { provideTextDocumentContent(u: Uri): string }) => (state.providers.set(scheme, p), { dispose: () => undefined }),
    openTextDocument: (u: Uri) => Promise.resolve({ uri: u, getText: () => state.providers.get(u.scheme)!.provideTextDocumentContent(u) }),
  },
  window: {
    get activeTextEditor() {
      return state.activeFile ? { document: { uri: mkUri('file', state.activeFile) } } : undefined;
    },
    showWarningMessage: message('warning'),
    showInformationMessage: message('info'),
    showErrorMessage: message('error'),
    showTextDocument: (doc: { getText(): string }) => Promise.resolve(void state.shown.push(doc.getText())),
    withProgress: async (_o: unknown, task: (p: { report(m: { message?: string }): void }, token: { onCancellationRequested(f: () => void): void }) => Promise<unknown>) =>
      task({ report: (m) => void state.progress.push(m.message ?? '') }, { onCancellationRequested: () => undefined }),
  },
  commands: {
    registerCommand: (id: string, f: (...a: unknown[]) => unknown) => (state.commands.set(id, f), { dispose: () => undefined }),
    executeCommand: (...a: unknown[]) => Promise.resolve(void state.executed.push(a)),
  },
};
const M = Module as unknown as { _load: (r: string, p: unknown, m: boolean) => unknown };
const original = M._load;
M._load = function (request: string, parent: unknown, isMain: boolean) {
  if (request === 'vscode') return fake;
  return original.call(this, request, parent, isMain);
};

// ---- the tests ---------------------------------------------------------------------------------------
test('extension: claudeLayers.verify and claudeLayers.lastSession', async (t) => {
  ensureBinaries();
  const { registerVerify, VERIFY_COMMANDS, VERIFY_SCHEME } = await import('../../src/host/verify-command.js');
  const ws = materialise();
  const savedHome = process.env.HOME;
  process.env.HOME = ws.home; // the host uses the real environment: make it the fixture's
  try {
    registerVerify({ subscriptions: [] } as never, () => ({ cwd: ws.repo, claudeVersion: '2.1.328' }));
    assert.deepEqual([...state.commands.keys()], [...VERIFY_COMMANDS]);
    state.config.claudePath = claudeBin('2.1.328');
    state.activeFile = path.join(ws.repo, 'src/api/client.ts');
    const verify = state.commands.get('claudeLayers.verify')!;

    await t.test('untrusted workspace: refused, nothing run', async () => {
      state.trusted = false;
      await verify();
      state.trusted = true;
      assert.match(state.messages.pop()!.text, /disabled in an untrusted workspace/);
      assert.equal(state.modals.length, 0);
    });

    await t.test('the modal says what runs and what it touches; declining runs nothing', async () => {
      state.modalAnswer = undefined;
      await verify();
      const m = state.modals.pop()!;
      assert.match(m.message, /Verify the prediction with the installed Claude Code\?/);
      assert.match(m.detail!, /Claude Code 2\.1\.328\) once in .*dummy API key.*127\.0\.0\.1/s);
      assert.match(m.detail!, /It reads .*src\/api\/client\.ts/);
      assert.match(m.detail!, /session transcript .*deleted after the run/);
      assert.match(m.detail!, /\.claude\.json/);
      assert.equal(state.executed.length, 0);
      assert.equal(fs.existsSync(path.join(ws.home, '.claude.json')), false, 'claude did not run');
    });

    await t.test('consent: a diff view, predicted vs actual, the verdict in its title', async () => {
      state.modalAnswer = 'Run Claude Code';
      await verify();
      const diff = state.executed.find((a) => a[0] === 'vscode.diff')!;
      assert.ok(diff, 'vscode.diff was opened');
      const [, left, right, title] = diff as [string, Uri, Uri, string];
      assert.equal(title, 'MATCH: predicted (2.1.328) ↔ Claude Code 2.1.328');
      assert.equal(left.scheme, VERIFY_SCHEME);
      const provider = state.providers.get(VERIFY_SCHEME)!;
      const l = provider.provideTextDocumentContent(left);
      const r = provider.provideTextDocumentContent(right);
      assert.equal(l, r);
      assert.match(l, /══════ startup instructions ══════\nCodebase and user instructions/);
      assert.match(l, /══════ Read .*client\.ts ══════\nContents of .*src\/api\/CLAUDE\.md:/);
      assert.match(state.messages.pop()!.text, /MATCH — claude 2\.1\.328 sent exactly what profile 2\.1\.328 predicts/);
      assert.ok(state.progress.some((p) => p.startsWith('running claude')));
      assert.deepEqual(listJsonl(path.join(ws.home, '.claude/projects', memoryKey(ws.repo))), [], 'the run left no transcript');
    });

    await t.test('last session: no session is a notification, not a document', async () => {
      state.shown.length = 0;
      state.messages.length = 0;
      await state.commands.get('claudeLayers.lastSession')!();
      assert.equal(state.shown.length, 0, 'no document opened');
      assert.match(state.messages.pop()?.text ?? '', /^No Claude Code session found for /);
    });
  } finally {
    process.env.HOME = savedHome;
    ws.cleanup();
  }
});
