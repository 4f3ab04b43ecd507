// A small, honest fake of the parts of the `vscode` API the host adapters use: value classes that
// behave like VS Code's (Uri, Range, Position, MarkdownString, WorkspaceEdit, Diagnostic, …) and
// recorders for what the host publishes (diagnostics, configuration). Importing this file first
// makes `require('vscode')` return it (the test files run as CommonJS under tsx).
import Module from 'node:module';
import * as path from 'node:path';

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: number | Position, b: number | Position, c?: number, d?: number) {
    this.start = typeof a === 'number' ? new Position(a, b as number) : a;
    this.end = typeof a === 'number' ? new Position(c!, d!) : (b as Position);
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
    readonly query = '',
  ) {}
  static file(p: string): Uri {
    return new Uri('file', path.resolve(p));
  }
  static parse(s: string): Uri {
    const m = /^([a-z-]+):(.*?)(?:\?(.*))?$/.exec(s);
    return new Uri(m?.[1] ?? 'file', m?.[2] ?? s, m?.[3] ?? '');
  }
  static from(c: { scheme: string; path: string; query?: string }): Uri {
    return new Uri(c.scheme, c.path, c.query ?? '');
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(base.scheme, path.posix.join(base.path, ...parts));
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return `${this.scheme}://${this.path}${this.query ? `?${this.query}` : ''}`;
  }
}

export class MarkdownString {
  value = '';
  isTrusted = false;
  supportHtml = false;
  supportThemeIcons = false;
  appendText(s: string): this {
    this.value += s.replace(/[\\`*_{}[\]()#+\-.!<>|~$]/g, '\\$&');
    return this;
  }
  appendMarkdown(s: string): this {
    this.value += s;
    return this;
  }
}

export class Hover {
  constructor(
    readonly contents: MarkdownString,
    readonly range?: Range,
  ) {}
}

export class CodeLens {
  constructor(
    readonly range: Range,
    readonly command?: { title: string; command: string },
  ) {}
}

export enum DiagnosticSeverity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}

export class Diagnostic {
  source?: string;
  code?: string | number;
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity: DiagnosticSeverity,
  ) {}
}

export class CodeActionKind {
  static readonly QuickFix = new CodeActionKind('quickfix');
  constructor(readonly value: string) {}
}

type Edit = { kind: 'replace'; uri: Uri; range: Range; text: string } | { kind: 'insert'; uri: Uri; pos: Position; text: string } | { kind: 'rename'; from: Uri; to: Uri } | { kind: 'create'; uri: Uri; options?: { ignoreIfExists?: boolean; overwrite?: boolean } };

export class WorkspaceEdit {
  readonly edits: Edit[] = [];
  /** metadata (needsConfirmation: shown in the refactor preview first) of each edit, by index */
  readonly meta: ({ needsConfirmation?: boolean } | undefined)[] = [];
  replace(uri: Uri, range: Range, text: string, meta?: { needsConfirmation?: boolean }): void {
    this.edits.push({ kind: 'replace', uri, range, text });
    this.meta.push(meta);
  }
  insert(uri: Uri, pos: Position, text: string, meta?: { needsConfirmation?: boolean }): void {
    this.edits.push({ kind: 'insert', uri, pos, text });
    this.meta.push(meta);
  }
  delete(uri: Uri, range: Range): void {
    this.edits.push({ kind: 'replace', uri, range, text: '' });
    this.meta.push(undefined);
  }
  renameFile(from: Uri, to: Uri): void {
    this.edits.push({ kind: 'rename', from, to });
    this.meta.push(undefined);
  }
  createFile(uri: Uri, options?: { ignoreIfExists?: boolean; overwrite?: boolean }, meta?: { needsConfirmation?: boolean }): void {
    this.edits.push({ kind: 'create', uri, options });
    this.meta.push(meta);
  }
}

export class CodeAction {
  edit?: WorkspaceEdit;
  diagnostics?: Diagnostic[];
  isPreferred?: boolean;
  constructor(
    readonly title: string,
    readonly kind?: CodeActionKind,
  ) {}
}

export class EventEmitter<T> {
  private listeners = new Set<(e: T) => void>();
  readonly event = (l: (e: T) => void) => {
    this.listeners.add(l);
    return { dispose: () => this.listeners.delete(l) };
  };
  fire(e: T): void {
    for (const l of this.listeners) l(e);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

export class DocumentLink {
  tooltip?: string;
  constructor(
    readonly range: Range,
    readonly target?: Uri,
  ) {}
}

export class CompletionItem {
  insertText?: unknown;
  documentation?: unknown;
  detail?: string;
  constructor(
    readonly label: string,
    readonly kind?: number,
  ) {}
}
export const CompletionItemKind = { Property: 9 };
export class SnippetString {
  constructor(readonly value: string) {}
}

/** a TextDocument over a string */
export function textDocument(file: string, text: string, isDirty = false) {
  const lines = text.split('\n');
  return {
    uri: Uri.file(file),
    isDirty,
    getText: () => text,
    lineAt: (l: number) => ({ text: lines[l] ?? '' }),
    lineCount: lines.length,
  };
}

export class DiagnosticCollection {
  readonly entries = new Map<string, Diagnostic[]>();
  set(uri: Uri, list: Diagnostic[]): void {
    this.entries.set(uri.fsPath, list);
  }
  clear(): void {
    this.entries.clear();
  }
  dispose(): void {}
}

export const state = {
  config: {} as Record<string, unknown>,
  /** what inspect() returns per key: user (global) vs workspace values */
  inspect: {} as Record<string, { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown }>,
  diagnostics: new Map<string, Diagnostic[]>(),
};

export const languages = {
  getDiagnostics: (uri: Uri) => state.diagnostics.get(uri.fsPath) ?? [],
  createDiagnosticCollection: () => new DiagnosticCollection(),
};

export const workspace = {
  getConfiguration: (section: string) => ({
    get: <T>(key: string): T | undefined => state.config[`${section}.${key}`] as T | undefined,
    inspect: <T>(key: string) => state.inspect[`${section}.${key}`] as { globalValue?: T } | undefined,
  }),
  workspaceFolders: [] as { uri: Uri; name: string }[],
  isTrusted: true,
};

export const env = { language: 'en' };

export const l10n = {
  t: (message: string, ...args: unknown[]) => message.replace(/\{(\d+)\}/g, (m, i: string) => (args[Number(i)] !== undefined ? String(args[Number(i)]) : m)),
};

/** a status bar item that only holds what it is given */
export const StatusBarAlignment = { Left: 1, Right: 2 };
export const window = {
  createStatusBarItem: () => ({ text: '', tooltip: '' as unknown, name: '', command: '' as unknown, accessibilityInformation: undefined as unknown, visible: false, show() { this.visible = true; }, hide() { this.visible = false; }, dispose() {} }),
};

/** the tree view's value classes: they hold what they are given */
export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}
export class ThemeIcon {
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}
export class ThemeColor {
  constructor(readonly id: string) {}
}
export class TreeItem {
  id?: string;
  description?: string | boolean;
  tooltip?: string | MarkdownString;
  iconPath?: ThemeIcon;
  command?: { command: string; title: string; arguments?: unknown[] };
  resourceUri?: Uri;
  contextValue?: string;
  constructor(
    public label: string | { label: string },
    public collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

const fake = {
  Position, Range, Uri, MarkdownString, Hover, CodeLens, DiagnosticSeverity, Diagnostic, CodeActionKind, WorkspaceEdit, CodeAction,
  EventEmitter, DocumentLink, CompletionItem, CompletionItemKind, SnippetString, languages, workspace, env, l10n, StatusBarAlignment, window,
  TreeItemCollapsibleState, ThemeIcon, ThemeColor, TreeItem,
};

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
const M = Module as unknown as { _load: Loader };
const original = M._load;
M._load = function (request: string, parent: unknown, isMain: boolean) {
  if (request === 'vscode') return fake;
  return original.call(this, request, parent, isMain);
};
