// Editor features over the cached analysis: glob hovers, CodeLens, @import links, frontmatter
// completion, diagnostics in the Problems panel, and quick fixes. Each provider asks the engine
// (through AnalysisService) and turns the answer into VS Code objects; none reads the disk itself
// except the document it is given.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { shown } from '../../../webview/protocol.js';
import type { AdviceItem, Analysis, Diagnostic } from '../../engine/index.js';
import { pathsInsertion, RULE_COST, ruleCostFixTitle } from './advice-source.js';
import { fileLenses, isInstructionLike, isRuleFile, isSkillFile } from './file-lens.js';
import { displayPath } from '../../engine/index.js';
import { decodeUtf8, MAX_INSTRUCTION_BYTES } from '../../engine/index.js';
import type { Translate } from '../format.js';
import { RULE_KEYS, scanFrontmatter, SKILL_KEYS } from './frontmatter-scan.js';
import { globReport } from './glob-report.js';
import { foldersOf, isScalarValue, literalPrefix, memoryMove, nearestFolder, pathsListLine } from './quick-fix-edits.js';
import { includeLinks } from './include-links.js';
import { memoryFigures, owningFolder } from '../sidebar/index.js';
import type { WorkspaceIndex } from '../workspace/index.js';
import { diagnosticMessage } from './mcp-messages.js';

export const DIAGNOSTIC_SOURCE = 'Claude Context Layers';

/** run by a quick fix after its edit: saves the documents it changed (not in the palette) */
export const SAVE_COMMAND = 'claudeLayers.saveAfterFix';

export function registerSaveAfterFix(): vscode.Disposable {
  return vscode.commands.registerCommand(SAVE_COMMAND, async (...uris: unknown[]) => {
    for (const u of uris) {
      if (typeof u !== 'string') continue;
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === u);
      if (doc?.isDirty) await doc.save();
    }
  });
}

export interface HostContext {
  /** the analysis that concerns a file (its folder's, or the current one) */
  analysisFor(uri: vscode.Uri): Analysis | undefined;
  folderFor(uri: vscode.Uri): vscode.WorkspaceFolder | undefined;
  modelFor(a: Analysis): string;
  index: WorkspaceIndex;
  /** files to say "matches / does not match" about in a glob hover (other open editors) */
  probes(except: vscode.Uri): string[];
  /** the file of the active editor, if any */
  activeFile?(): string | undefined;
  /** a rule without paths with what paths: would save (priced advice over the folder's sessions) */
  ruleAdvice?(uri: vscode.Uri): AdviceItem | undefined;
  t: Translate;
  locale: string;
  onDidChange: vscode.Event<void>;
}

const MARKDOWN: vscode.DocumentSelector = [{ scheme: 'file', language: 'markdown' }, { scheme: 'file', pattern: '**/*.md' }];

/** the folder a rule's or skill's `paths:` are matched from */
export function patternBase(file: string, a: Analysis): string {
  const { env } = a;
  const inUser = file.startsWith(env.userDir + path.sep);
  const inManaged = file.startsWith(path.join(env.managedDir, '.claude') + path.sep);
  return inUser || inManaged ? env.cwd : owningFolder(file);
}

function text(md: vscode.MarkdownString, s: string): vscode.MarkdownString {
  return md.appendText(shown(s));
}

/** untrusted text as a Markdown code span: a fence longer than any backtick run inside, one line */
export function codeSpan(s: string): string {
  const flat = shown(s.replace(/[\r\n]+/g, ' '));
  const run = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(run + 1);
  return `${fence} ${flat} ${fence}`;
}

export class GlobHoverProvider implements vscode.HoverProvider {
  constructor(private readonly host: HostContext) {}

  provideHover(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    const file = doc.uri.fsPath;
    if (!isRuleFile(file) && !isSkillFile(file)) return undefined;
    const scan = scanFrontmatter(doc.getText());
    if (!scan || pos.line > scan.endLine) return undefined;
    const { t } = this.host;
    if (scan.patternKey === 'globs') {
      const key = scan.keys.find((k) => k.key === 'globs');
      if (key && key.line === pos.line && pos.character <= 6) {
        const md = new vscode.MarkdownString();
        md.appendMarkdown(`**${t('Claude Code ignores globs:')}**\n\n`);
        text(md, t('The rule is unconditional (loaded at startup). Rename the key to paths: to make it conditional.'));
        return new vscode.Hover(md, new vscode.Range(key.line, 0, key.line, 5));
      }
    }
    const span = scan.patterns.find((p) => p.line === pos.line && pos.character >= p.start && pos.character <= p.end);
    if (!span) return undefined;
    const range = new vscode.Range(span.line, span.start, span.line, span.end);
    const md = new vscode.MarkdownString();
    if (scan.patternKey === 'globs') {
      md.appendMarkdown(`**${t('Claude Code ignores globs:')}**\n\n`);
      text(md, t('These patterns are never used: the rule is unconditional. Rename the key to paths:.'));
      return new vscode.Hover(md, range);
    }
    const a = this.host.analysisFor(doc.uri);
    if (!a) return undefined;
    const folder = this.host.folderFor(doc.uri) ?? vscode.workspace.workspaceFolders?.[0];
    const base = patternBase(file, a);
    const rel = (p: string) => displayPath(p, a.env.cwd, a.env.home) || '.';
    const match = (b: string, patterns: readonly string[], limit: number) => (folder ? this.host.index.matches(folder, b, patterns, limit) : undefined);
    const r = globReport({ raw: span.raw, base, launchDir: a.env.cwd, home: a.env.home, match, probes: this.host.probes(doc.uri), t, rel });
    md.appendMarkdown(`**${t('paths: pattern')}** ${codeSpan(r.written)}\n\n`);
    // a string value: VS Code's own instructions validator (right above this hover) asks for a list; say
    // what Claude Code does with each form, so that the two messages do not contradict each other
    const pathsKey = scan.keys.find((k) => k.key === 'paths');
    if (pathsKey && isScalarValue(doc.lineAt(pathsKey.line).text)) {
      md.appendMarkdown('ℹ ');
      text(md, t('Written as a string. VS Code\'s instructions validator expects a list ("must be an array of glob patterns"). Claude Code reads both forms the same way: it splits a string at commas into patterns and uses a list item by item. The quick fix writes it as a list, which satisfies both.'));
      md.appendMarkdown('\n\n');
    }
    if (r.used) {
      const baseRel = rel(r.base);
      const baseText = r.base === a.env.cwd ? t('the launch folder') : `${baseRel}/`;
      md.appendMarkdown(`${t('Claude Code matches:')} ${r.used.map(codeSpan).join(', ')} ${t('relative to {0}', baseText)}\n\n`);
      md.appendMarkdown(`**${r.count === 1 ? t('1 workspace file matches') : t('{0} workspace files match', r.count)}**`);
      if (r.sample.length) {
        md.appendMarkdown(r.count > r.sample.length ? ` (${t('first {0}', r.sample.length)})` : '');
        md.appendMarkdown('\n\n');
        for (const s of r.sample) md.appendMarkdown(`- ${codeSpan(rel(s))}\n`);
      }
      md.appendMarkdown('\n\n');
      // the files asked about are the open editors: say which is which
      for (const p of r.probes) {
        const which = p.file === this.host.activeFile?.() ? t('the open file') : t('the file you came from');
        md.appendMarkdown(`${p.matches ? t('{0} ({1}): matches', codeSpan(rel(p.file)), which) : t('{0} ({1}): does not match', codeSpan(rel(p.file)), which)}  \n`);
      }
    }
    // "0 workspace files match" is already said above: no second "no file matches"
    for (const w of r.warnings.filter((x) => !(r.used && x === t('no workspace file matches')))) {
      md.appendMarkdown('\n\n⚠ ');
      text(md, w);
    }
    for (const n of r.notes) {
      md.appendMarkdown('\n\nℹ ');
      text(md, n);
    }
    return new vscode.Hover(md, range);
  }
}

export class LensProvider implements vscode.CodeLensProvider {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;

  constructor(private readonly host: HostContext) {
    host.onDidChange(() => this.emitter.fire());
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const file = doc.uri.fsPath;
    if (!isInstructionLike(file) && !this.isMemoryTopic(doc.uri)) return [];
    const a = this.host.analysisFor(doc.uri);
    if (!a) return [];
    const raw = doc.getText();
    const lenses = fileLenses(a, file, raw, this.host.modelFor(a), this.host.t, this.host.locale);
    // the workspace check found that no file matches: the lens says so too, instead of a bare "lazy: when …"
    const dead = vscode.languages.getDiagnostics?.(doc.uri).some((d) => d.source === DIAGNOSTIC_SOURCE && d.code === 'glob-matches-nothing');
    const conditional = a.conditionalRules.some((r) => path.normalize(r.path) === path.normalize(file));
    if (dead && conditional && lenses[0]?.line === 0) lenses[0].title = `${lenses[0].title} · ${this.host.t('no file matches now: it never loads')}`;
    return lenses.map(
      (l) => new vscode.CodeLens(new vscode.Range(l.line, 0, l.line, 0), { title: shown(l.title), command: 'claudeLayers.showSidebar', tooltip: this.host.t('Show Claude Context Layers') }),
    );
  }

  private isMemoryTopic(uri: vscode.Uri): boolean {
    const a = this.host.analysisFor(uri);
    return !!a && uri.fsPath.startsWith(a.memory.location.dir);
  }
}

export class ImportLinkProvider implements vscode.DocumentLinkProvider {
  constructor(private readonly host: HostContext) {}

  provideDocumentLinks(doc: vscode.TextDocument): vscode.DocumentLink[] {
    const file = doc.uri.fsPath;
    if (!isInstructionLike(file)) return [];
    const a = this.host.analysisFor(doc.uri);
    const home = a?.env.home ?? process.env.HOME ?? '';
    return includeLinks(doc.getText(), file, home, a?.profile.stripBomBeforeFrontmatter ?? true).map((l) => {
      const link = new vscode.DocumentLink(new vscode.Range(l.line, l.start, l.line, l.end), vscode.Uri.file(l.target));
      link.tooltip = this.host.t('@import: {0}', l.target);
      return link;
    });
  }
}

export class FrontmatterCompletionProvider implements vscode.CompletionItemProvider {
  constructor(private readonly host: HostContext) {}

  provideCompletionItems(doc: vscode.TextDocument, pos: vscode.Position): vscode.CompletionItem[] {
    const file = doc.uri.fsPath;
    const keys = isSkillFile(file) ? SKILL_KEYS : isRuleFile(file) ? RULE_KEYS : undefined;
    if (!keys) return [];
    const scan = scanFrontmatter(doc.getText());
    if (!scan || pos.line <= 0 || pos.line >= scan.endLine) return [];
    const before = doc.lineAt(pos.line).text.slice(0, pos.character);
    if (!/^[\w-]*$/.test(before)) return [];
    const present = new Set(scan.keys.map((k) => k.key));
    return Object.entries(keys)
      .filter(([k]) => !present.has(k))
      .map(([k, doc]) => {
        const item = new vscode.CompletionItem(k, vscode.CompletionItemKind.Property);
        item.insertText = k === 'paths' ? new vscode.SnippetString('paths: ["${1:src/**}"]') : new vscode.SnippetString(`${k}: $0`);
        item.documentation = new vscode.MarkdownString().appendText(this.host.t(doc));
        item.detail = isSkillFile(file) ? this.host.t('skill frontmatter') : this.host.t('rule frontmatter');
        return item;
      });
  }
}

const SEVERITY: Record<Diagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

/**
 * Engine diagnostics (the workspace lint's once it has run, else the analysis' own) → Problems
 * panel; include problems land on their @path where it can be found.
 */
export function publishDiagnostics(collection: vscode.DiagnosticCollection, sets: { analysis: Analysis; diagnostics: readonly Diagnostic[] }[], dirty?: ReadonlySet<string>, t?: Translate): void {
  const byFile = new Map<string, vscode.Diagnostic[]>();
  const seen = new Set<string>();
  for (const { analysis: a, diagnostics } of sets) {
    for (const d of diagnostics) {
      if (!d.path || d.path.startsWith('<') || !path.isAbsolute(d.path)) continue;
      const key = `${d.path}\0${d.line ?? ''}\0${d.rule}\0${d.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      let range = new vscode.Range((d.line ?? 1) - 1, 0, (d.line ?? 1) - 1, 1000);
      if (d.rule.startsWith('include-')) {
        const r = a.env.fs.readFile(d.path, MAX_INSTRUCTION_BYTES); // the analysis' snapshot: no new disk read
        if (r.ok) {
          const raw = decodeUtf8(r.value);
          const link = includeLinks(raw, d.path, a.env.home, a.profile.stripBomBeforeFrontmatter).find(
            (l) =>
              (d.line === undefined || l.line === d.line - 1) &&
              (d.message.startsWith(`@${l.target} `) || d.message.startsWith(`@${path.relative(path.dirname(d.path), l.target)} `) || d.message.startsWith(`@${l.spec} `)),
          );
          if (link) range = new vscode.Range(link.line, link.start - 1, link.line, link.end);
        }
      }
      // the finding is of the saved text: on a file with unsaved changes it says so, and how to apply them
      const unsaved = dirty?.has(d.path) && t ? ` ${t('(of the saved file: save to apply your changes)')}` : '';
      const diag = new vscode.Diagnostic(range, shown(diagnosticMessage(d, t)) + unsaved, SEVERITY[d.severity]);
      diag.source = DIAGNOSTIC_SOURCE;
      diag.code = d.rule;
      const list = byFile.get(d.path) ?? [];
      list.push(diag);
      byFile.set(d.path, list);
    }
  }
  collection.clear();
  for (const [p, list] of byFile) collection.set(vscode.Uri.file(p), list);
}

const RIGHT_NAME: Record<string, string> = { 'claude.md': 'CLAUDE.md', 'claude.local.md': 'CLAUDE.local.md', 'agents.md': 'AGENTS.md' };

export class QuickFixProvider implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly host: HostContext) {}

  provideCodeActions(doc: vscode.TextDocument, range: vscode.Range | vscode.Selection): vscode.CodeAction[] {
    const { t } = this.host;
    const out: vscode.CodeAction[] = [];
    const file = doc.uri.fsPath;
    const related = (rule: RegExp) => vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === DIAGNOSTIC_SOURCE && rule.test(String(typeof d.code === 'object' ? d.code.value : d.code)));

    if (isRuleFile(file) || isSkillFile(file)) out.push(...this.frontmatterFixes(doc, range, related));

    // a rule without paths: add the paths: its text names, the saving in the title
    const advice = isRuleFile(file) && !doc.isDirty ? this.host.ruleAdvice?.(doc.uri) : undefined;
    if (advice?.paths?.length && advice.saving) {
      const scan = scanFrontmatter(doc.getText());
      if (!scan?.keys.some((k) => k.key === 'paths' || k.key === 'globs')) {
        const fix = new vscode.CodeAction(shown(`${ruleCostFixTitle(advice, t)} ${t('(saves the file)')}`), vscode.CodeActionKind.QuickFix);
        fix.edit = new vscode.WorkspaceEdit();
        fix.edit.insert(doc.uri, new vscode.Position(scan ? 1 : 0, 0), pathsInsertion(advice.paths, !!scan));
        fix.command = { command: SAVE_COMMAND, title: t('Save'), arguments: [doc.uri.toString()] };
        fix.diagnostics = related(new RegExp(`^${RULE_COST}$`));
        out.push(fix);
      }
    }

    // claude.md → CLAUDE.md
    const base = path.basename(file);
    const right = RIGHT_NAME[base.toLowerCase()];
    if (right && right !== base) {
      const fix = new vscode.CodeAction(t('Rename {0} to {1} (Claude Code reads only this exact name)', base, right), vscode.CodeActionKind.QuickFix);
      fix.edit = new vscode.WorkspaceEdit();
      fix.edit.renameFile(doc.uri, vscode.Uri.file(path.join(path.dirname(file), right)));
      fix.diagnostics = related(/^wrong-case-name$/);
      fix.isPreferred = true;
      out.push(fix);
    }

    // MEMORY.md past the cut → a topic file
    const a = this.host.analysisFor(doc.uri);
    const idx = a?.memory.index;
    if (a && idx && idx.truncated && path.normalize(idx.path) === path.normalize(file) && !doc.isDirty) {
      const fig = memoryFigures(a);
      const lines: string[] = [];
      for (let l = 0; l < doc.lineCount; l++) lines.push(doc.lineAt(l).text);
      const pointer = t('- [More notes](overflow.md): entries moved out of the index to stay under the limits');
      const move = fig?.cut ? memoryMove(lines, fig.cut, pointer) : undefined;
      if (fig?.cut && move) {
        const target = vscode.Uri.file(path.join(path.dirname(file), 'overflow.md'));
        // the title names the diagnostic's own lines, and what else the move does
        const keep = move.keptLinks === 1 ? t('keeps its 1 topic link in the index') : move.keptLinks > 1 ? t('keeps its {0} topic links in the index', move.keptLinks) : '';
        const room = move.madeRoom === 1 ? t('moves 1 line before the cut to make room') : t('moves {0} lines before the cut to make room', move.madeRoom);
        const fix = new vscode.CodeAction(
          t('Move lines {0}-{1} into the topic file overflow.md ({2}) (preview)', fig.cut.from, fig.cut.to, [keep, room].filter(Boolean).join(', ')),
          vscode.CodeActionKind.QuickFix,
        );
        fix.edit = new vscode.WorkspaceEdit();
        // Shown in the Refactor Preview first, the user sees both files and applies or discards. VS Code
        // opens the preview when any entry has needsConfirmation, and starts every such entry unchecked
        // (bulkEditPreview.ts: checked.updateChecked(edit, !edit.metadata?.needsConfirmation); an
        // extension cannot pass showPreview, microsoft/vscode#200991, #207578), so "Apply" with the move
        // itself marked would apply nothing. Only a no-op entry asks for confirmation: creating MEMORY.md,
        // which exists, with ignoreIfExists, an entry the preview leaves out of its list; the move's own
        // entries start checked.
        const label = t('Move the lines past the MEMORY.md cut into a topic file');
        fix.edit.createFile(doc.uri, { ignoreIfExists: true }, { label, needsConfirmation: true });
        const meta = { label, needsConfirmation: false };
        fix.edit.createFile(target, { ignoreIfExists: true }, meta);
        fix.edit.insert(target, new vscode.Position(0, 0), `${move.topic.join('\n')}\n`, meta);
        const last = Math.min(fig.cut.to, doc.lineCount) - 1;
        fix.edit.replace(doc.uri, new vscode.Range(move.start, 0, last, doc.lineAt(last).text.length), move.index.join('\n'), meta);
        fix.diagnostics = related(/^memory-over-budget$/);
        // the index is saved with the move: Claude Code reads the file on disk
        fix.command = { command: SAVE_COMMAND, title: t('Save'), arguments: [doc.uri.toString(), target.toString()] };
        out.push(fix);
      }
    }
    return out;
  }

  /** `globs:` → `paths:` as a list, a `paths:` string → a list, a leading `./` removed, a dead glob's folder corrected */
  private frontmatterFixes(doc: vscode.TextDocument, range: vscode.Range, related: (rule: RegExp) => vscode.Diagnostic[]): vscode.CodeAction[] {
    const { t } = this.host;
    const out: vscode.CodeAction[] = [];
    const scan = scanFrontmatter(doc.getText());
    if (!scan || range.start.line > scan.endLine) return out;
    const patterns = scan.patterns.map((p) => p.raw);
    const hasPaths = scan.keys.some((k) => k.key === 'paths');
    const globs = scan.keys.find((k) => k.key === 'globs');
    const edit = (title: string, fn: (e: vscode.WorkspaceEdit) => void, diags: vscode.Diagnostic[] = [], preferred = false) => {
      // the fix closes the loop: the file is saved with it (Claude Code and the checks read the saved text)
      const fix = new vscode.CodeAction(shown(`${title} ${t('(saves the file)')}`), vscode.CodeActionKind.QuickFix);
      fix.edit = new vscode.WorkspaceEdit();
      fn(fix.edit);
      fix.command = { command: SAVE_COMMAND, title: t('Save'), arguments: [doc.uri.toString()] };
      if (diags.length) fix.diagnostics = diags;
      fix.isPreferred = preferred;
      out.push(fix);
    };
    const lineRange = (l: number) => new vscode.Range(l, 0, l, doc.lineAt(l).text.length);

    // globs: → paths:, written as a list when it was a string
    if (globs && !hasPaths) {
      const line = doc.lineAt(globs.line).text;
      edit(
        t('Rename globs: to paths: (Claude Code reads only paths:)'),
        (e) => (isScalarValue(line) && patterns.length ? e.replace(doc.uri, lineRange(globs.line), pathsListLine(line, patterns)) : e.replace(doc.uri, new vscode.Range(globs.line, 0, globs.line, 5), 'paths')),
        related(/^frontmatter-key-ignored$/),
        true,
      );
    }
    const key = scan.patternKey === 'paths' ? scan.keys.find((k) => k.key === 'paths') : undefined;
    if (!key) return out;
    // a `paths:` string → a list (Claude Code splits the string at commas; the list keeps the same patterns)
    const keyLine = doc.lineAt(key.line).text;
    const endLine = range.end?.line ?? range.start.line;
    if (isScalarValue(keyLine) && patterns.length && range.start.line <= key.line && endLine >= key.line)
      edit(t('Write paths: as a YAML list'), (e) => e.replace(doc.uri, lineRange(key.line), pathsListLine(keyLine, patterns)));

    const onRange = scan.patterns.filter((p) => p.line >= range.start.line && p.line <= endLine);
    // a leading ./ never matches
    const dotted = onRange.filter((p) => p.raw.startsWith('./'));
    if (dotted.length)
      edit(t('Remove the leading ./ (patterns are relative to the folder that holds .claude)'), (e) => {
        for (const p of dotted) e.delete(doc.uri, new vscode.Range(p.line, p.start, p.line, p.start + (/^(\.\/)+/.exec(p.raw)![0].length)));
      });

    // a glob that matches nothing, when one existing folder is obviously meant
    const a = this.host.analysisFor(doc.uri);
    const folder = this.host.folderFor(doc.uri);
    if (!a || !folder || !onRange.length) return out;
    const base = patternBase(doc.uri.fsPath, a);
    const ix = this.host.index.index(folder);
    if (!ix) return out;
    let dirs: Set<string> | undefined;
    for (const p of onRange) {
      if (p.raw.startsWith('./') || p.raw.startsWith('!')) continue;
      const m = this.host.index.matches(folder, base, [p.raw], 1);
      if (!m || m.total > 0) continue;
      const prefix = literalPrefix(p.raw);
      if (!prefix) continue;
      if (!dirs) {
        const rel = path.relative(ix.root, base).split(path.sep).join('/');
        const files = ix.list().filter((f) => !rel || f.startsWith(`${rel}/`)).map((f) => (rel ? f.slice(rel.length + 1) : f));
        dirs = foldersOf(files);
      }
      const near = nearestFolder(prefix, dirs);
      if (!near) continue;
      const at = p.raw.replace(/^\/+/, '').length === p.raw.length ? 0 : p.raw.length - p.raw.replace(/^\/+/, '').length;
      edit(
        t('Change {0} to {1} (the folder that exists)', prefix, near),
        (e) => e.replace(doc.uri, new vscode.Range(p.line, p.start + at, p.line, p.start + at + prefix.length), near),
        related(/^glob-matches-nothing$/),
      );
    }
    return out;
  }
}

export const SELECTOR = MARKDOWN;
