// In-editor decorations, as Import Cost shows package sizes: at the end of each `@import` line and
// of a rule's `paths:` line, what it costs when it loads (chars, ≈tokens, the numbers the sidebar
// uses); in MEMORY.md, the lines past the cut dimmed. Off with claudeLayers.inlineCosts.enabled.
// The figures come from the engine (the analysis' startup entries and lazy injections), never from
// a count of our own.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Analysis } from '../../engine/index.js';
import { isInstructionLike, isRuleFile } from './file-lens.js';
import { includeLinks } from './include-links.js';
import { makeCtx, memoryFigures } from '../sidebar/index.js';
import type { HostContext } from './providers.js';
import { scanFrontmatter } from './frontmatter-scan.js';

export interface InlineCost {
  /** 0-based line */
  line: number;
  text: string;
  hover: string;
}

/** the costs to draw in `file` (pure apart from the analysis and the index it asks) */
export function inlineCosts(a: Analysis, file: string, raw: string, host: Pick<HostContext, 'modelFor' | 't' | 'locale'> & { matchOne?: (base: string, patterns: readonly string[]) => string | undefined }): InlineCost[] {
  const { t, f } = makeCtx(a, host.modelFor(a), host.t, host.locale);
  const out: InlineCost[] = [];
  const norm = path.normalize(file);
  const cost = (chars: number) => f.charsTokens(chars); // "≈1 token", never "≈1 tokens"

  // @imports: the imported file's entry, eager (startup) or injected with its parent
  const links = includeLinks(raw, file, a.env.home, a.profile.stripBomBeforeFrontmatter);
  if (links.length) {
    let lazy: ReturnType<Analysis['lazyFor']> | undefined;
    for (const l of links) {
      const target = path.normalize(l.target);
      const eager = a.startup.find((e) => path.normalize(e.path) === target);
      if (eager) {
        out.push({ line: l.line, text: `${cost(eager.text.length)} · ${t('eager')}`, hover: t('@import {0}: {1}, in the first request', l.spec, cost(eager.text.length)) });
        continue;
      }
      lazy ??= a.lazyFor(file, 'Read');
      const inj = lazy.find((i) => path.normalize(i.path) === target);
      if (inj) out.push({ line: l.line, text: `${cost(inj.text.length)} · ${t('lazy')}`, hover: t('@import {0}: {1}, injected with {2}', l.spec, cost(inj.text.length), path.basename(file)) });
      else if (a.startup.some((e) => path.normalize(e.path) === norm)) out.push({ line: l.line, text: t('not loaded'), hover: t('@import {0} does not reach the request (see the Problems panel)', l.spec) });
    }
  }

  // a rule's paths: the rule's injection when a matching file is read
  if (isRuleFile(file)) {
    const rule = a.conditionalRules.find((r) => path.normalize(r.path) === norm);
    const scan = scanFrontmatter(raw);
    const key = scan?.keys.find((k) => k.key === 'paths');
    if (rule && key) {
      const probe = host.matchOne?.(rule.base, rule.patterns);
      const inj = probe ? a.lazyFor(probe, 'Read').find((i) => path.normalize(i.path) === norm) : undefined;
      if (inj) out.push({ line: key.line, text: `${cost(inj.text.length)} · ${t('on a matching Read')}`, hover: t('Injected when a file matching {0} is read, e.g. {1}: {2}', rule.rawPatterns.join(', '), path.basename(probe!), cost(inj.text.length)) });
      else if (!probe) out.push({ line: key.line, text: t('no file matches: never loads'), hover: t('No workspace file matches {0}: this rule never loads', rule.rawPatterns.join(', ')) });
    }
  }
  return out;
}

export class Decorations implements vscode.Disposable {
  private readonly cost = vscode.window.createTextEditorDecorationType({
    after: { margin: '0 0 0 2em', color: new vscode.ThemeColor('editorCodeLens.foreground'), fontStyle: 'italic' },
    rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
  });
  private readonly dim = vscode.window.createTextEditorDecorationType({ opacity: '0.45', isWholeLine: true });
  private readonly disposables: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly host: HostContext) {
    this.disposables.push(
      this.cost,
      this.dim,
      host.onDidChange(() => this.schedule()),
      vscode.window.onDidChangeVisibleTextEditors(() => this.schedule()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (vscode.window.visibleTextEditors.some((ed) => ed.document === e.document)) this.schedule(300);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('claudeLayers.inlineCosts')) this.schedule();
      }),
    );
  }

  private enabled(): boolean {
    return vscode.workspace.getConfiguration('claudeLayers').get<boolean>('inlineCosts.enabled', true) !== false;
  }

  schedule(ms = 50): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.draw(), ms);
  }

  private draw(): void {
    this.timer = undefined;
    const on = this.enabled();
    for (const ed of vscode.window.visibleTextEditors) {
      const doc = ed.document;
      const file = doc.uri.fsPath;
      if (!on || doc.uri.scheme !== 'file' || !isInstructionLike(file)) {
        ed.setDecorations(this.cost, []);
        ed.setDecorations(this.dim, []);
        continue;
      }
      const a = this.host.analysisFor(doc.uri);
      if (!a) continue;
      try {
        const folder = this.host.folderFor(doc.uri);
        const matchOne = (base: string, patterns: readonly string[]) => (folder ? this.host.index.matches(folder, base, patterns, 1)?.files[0] : undefined);
        const costs = inlineCosts(a, file, doc.getText(), { ...this.host, matchOne });
        ed.setDecorations(
          this.cost,
          costs.map((c) => {
            const end = doc.lineAt(c.line).range.end;
            return { range: new vscode.Range(end, end), hoverMessage: new vscode.MarkdownString().appendText(c.hover), renderOptions: { after: { contentText: c.text } } };
          }),
        );
        // MEMORY.md: the lines past the cut (of the file on disk: unsaved edits are not what Claude Code reads)
        const fig = path.basename(file) === 'MEMORY.md' && a.memory.index && path.normalize(a.memory.index.path) === path.normalize(file) ? memoryFigures(a) : undefined;
        const cut = fig?.cut;
        ed.setDecorations(
          this.dim,
          cut && !doc.isDirty
            ? [{ range: new vscode.Range(cut.from - 1, 0, Math.min(cut.to, doc.lineCount) - 1, 0), hoverMessage: new vscode.MarkdownString().appendText(this.host.t('Past the MEMORY.md cut: Claude Code does not load these lines')) }]
            : [],
        );
      } catch {
        /* a decoration is never worth an error */
      }
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}
