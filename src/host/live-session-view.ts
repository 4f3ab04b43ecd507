// The "This session" view: the Claude Code session running in the launch directory, followed live from
// its transcript (live-session.ts). A native tree beside the sidebar: its message is the gauge of the
// real context against the window (with the auto-compaction line where it is measured), then the
// turns with each layer where it arrived (after which tool call), the files the session holds (marked
// where the disk has moved on), what `/compact` now would bring back and drop, the prediction's
// differences as warnings, and the last request by layer. Texts open as read-only documents; files
// open themselves. A status bar item shows the running session's fill. Every text is escaped (shown).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LiveCall, LiveTurn, PredictionFinding } from '../engine/index.js';
import { shown, type LiveHeadline } from '../../webview/protocol.js';
import type { Translate } from './format.js';
import { LiveSessionTracker, watchFile, type LiveModel, type TrackerHost } from './live-session.js';

export const LIVE_VIEW_ID = 'claudeLayers.liveSession';
export const LIVE_SCHEME = 'claude-layers-live';
/** the commands this view registers itself (package.json names the same) */
export const LIVE_COMMANDS = ['claudeLayers.liveSession.pick', 'claudeLayers.liveSession.open'] as const;

interface Node {
  id: string;
  label: string;
  description?: string;
  tooltip?: string;
  icon?: string;
  warn?: boolean;
  open?: { file: string } | { text: string; title: string };
  children?: () => Node[];
  expanded?: boolean;
}

const n = (x: number, locale: string) => x.toLocaleString(locale);

/** what a row shows (its children aside): a change of it redraws the row */
function rowKey(x: Node): string {
  const o = x.open ? ('file' in x.open ? `f:${x.open.file}` : `t:${x.open.title}:${x.open.text.length}`) : '';
  return JSON.stringify([x.label, x.description, x.tooltip, x.icon, x.warn, o, !!x.children]);
}

/** a node VS Code holds takes a fresh node's content (the same object: VS Code knows nodes by identity) */
function update(held: Node, fresh: Node): void {
  for (const k of Object.keys(held) as (keyof Node)[]) if (!(k in fresh)) delete held[k];
  Object.assign(held, fresh);
}

export class LiveSessionView implements vscode.TreeDataProvider<Node>, vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly tracker: LiveSessionTracker;
  private readonly emitter = new vscode.EventEmitter<Node | Node[] | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly docChanged = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.docChanged.event;
  private view: vscode.TreeView<Node> | undefined;
  private readonly status: vscode.StatusBarItem;
  private readonly texts = new Map<string, string>();
  private readonly disposables: vscode.Disposable[] = [];
  /** the nodes VS Code was given, by id: updated in place, so that a change fires for them alone */
  private readonly nodes = new Map<string, Node>();
  /** the ids of the children VS Code asked for, by parent id ('' for the roots) */
  private readonly asked = new Map<string, string[]>();
  /** the transcript the nodes are of */
  private drawn: string | undefined;

  constructor(
    private readonly t: Translate,
    private readonly locale: string,
    host: Omit<TrackerHost, 'changed'>,
    /** the sidebar's top line: the session's real context against its window (undefined: no session) */
    private readonly headlineChanged: (h: LiveHeadline | undefined) => void = () => undefined,
  ) {
    this.tracker = new LiveSessionTracker({ watch: watchFile, ...host, changed: () => this.redraw() });
    this.status = vscode.window.createStatusBarItem('claudeLayers.liveStatus', vscode.StatusBarAlignment.Left, 19);
    this.status.name = t('Claude Code session context');
    this.status.command = `${LIVE_VIEW_ID}.focus`;
  }

  register(): vscode.Disposable[] {
    this.view = vscode.window.createTreeView(LIVE_VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.disposables.push(
      this.view,
      this.status,
      vscode.workspace.registerTextDocumentContentProvider(LIVE_SCHEME, this),
      vscode.commands.registerCommand(LIVE_COMMANDS[0], () => this.pick()),
      vscode.commands.registerCommand(LIVE_COMMANDS[1], (node?: Node) => this.open(node)),
    );
    this.tracker.start();
    return [this];
  }

  private redraw(): void {
    const m = this.tracker.current;
    const { t } = this;
    if (this.view) {
      this.view.message = m ? shown(this.headline(m)) : t('No Claude Code session in this launch directory yet. Start `claude` in a terminal here, or in Anthropic\'s Claude Code extension: this view follows it turn by turn.');
      this.view.description = m ? (m.running ? t('running') : t('ended {0}', new Date(m.lastWritten).toLocaleString(this.locale))) : '';
    }
    const c = m?.next?.context;
    if (m?.running && c) {
      this.status.text = `$(pulse) ${Math.round(c.fraction * 100)}%`;
      this.status.tooltip = shown(this.headline(m));
      this.status.accessibilityInformation = { label: shown(this.headline(m)), role: 'button' };
      this.status.show();
    } else this.status.hide();
    this.headlineChanged(m && c ? { tokens: c.tokens, window: c.window, label: this.headline(m), ...(!m.running && { ended: t('ended {0}', new Date(m.lastWritten).toLocaleString(this.locale)) }) } : undefined);
    const changed = this.changedNodes(m);
    if (changed === undefined) this.emitter.fire(undefined);
    else if (changed.length) this.emitter.fire(changed);
  }

  /**
   * What a new model changes in the tree VS Code holds: the nodes it was given whose row or list of
   * children differ (updated in place), or undefined when the roots themselves changed (another
   * session, a group that came or went). Only the children VS Code asked for are compared: an append
   * redraws the rows it touched (a turn, a group's count), not every row of a long session.
   */
  changedNodes(m: LiveModel | undefined): Node[] | undefined {
    if (!m || m.file !== this.drawn) {
      this.nodes.clear();
      this.asked.clear();
      this.drawn = m?.file;
      return undefined;
    }
    const changed: Node[] = [];
    const walk = (parent: string, fresh: Node[]): boolean => {
      const was = this.asked.get(parent);
      if (!was) return false;
      for (const f of fresh) {
        const c = this.nodes.get(f.id);
        if (!c) continue;
        const before = rowKey(c);
        update(c, f);
        const asked = this.asked.get(f.id);
        const kids = !asked ? false : f.children ? walk(f.id, f.children()) : asked.length > 0;
        if (kids || rowKey(c) !== before) changed.push(c);
      }
      return fresh.length !== was.length || fresh.some((f, i) => f.id !== was[i]);
    };
    return walk('', this.roots(m)) ? undefined : changed;
  }

  headline(m: LiveModel): string {
    const { t } = this;
    const c = m.next?.context;
    if (!c) return t('This session: no usage recorded yet');
    const pct = (c.fraction * 100).toFixed(1);
    const auto = c.autoCompactAt ? t(' · auto-compacts at {0} tokens', n(c.autoCompactAt, this.locale)) : '';
    // a plain percentage: block characters draw as a shaded box in a tree view's message
    return t('This session: {0} of {1} tokens ({2}%){3}', n(c.tokens, this.locale), n(c.window, this.locale), pct, auto);
  }

  private async pick(): Promise<void> {
    const { t } = this;
    const list = this.tracker.sessions;
    if (!list.length) {
      void vscode.window.showInformationMessage(t('No Claude Code session found for this launch directory.'));
      return;
    }
    const items = [
      { label: t('The newest session'), description: t('follow whichever session was written last'), file: undefined as string | undefined },
      ...list.map((s) => ({ label: shown(s.sessionId), description: shown(`${new Date(s.mtimeMs).toLocaleString(this.locale)} · ${Math.round(s.size / 1024)} KB`), file: s.file })),
    ];
    const chosen = await vscode.window.showQuickPick(items, { title: t('Which Claude Code session to follow') });
    if (chosen) this.tracker.pin(chosen.file);
  }

  private async open(node?: Node): Promise<void> {
    const o = node?.open;
    if (!o) return;
    if ('file' in o) {
      await vscode.window.showTextDocument(vscode.Uri.file(o.file), { preview: true });
      return;
    }
    const key = `${Date.now().toString(36)}-${this.texts.size}`;
    this.texts.set(key, o.text);
    const uri = vscode.Uri.from({ scheme: LIVE_SCHEME, path: `/${o.title.replace(/[^\w.-]+/g, '-')}.md`, query: key });
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.query) ?? '';
  }

  // ------------------------------------------------------------------------------------- the tree

  getTreeItem(node: Node): vscode.TreeItem {
    const item = new vscode.TreeItem(shown(node.label), node.children ? (node.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed) : vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    if (node.description) item.description = shown(node.description);
    if (node.tooltip) item.tooltip = shown(node.tooltip);
    if (node.icon) item.iconPath = new vscode.ThemeIcon(node.icon, node.warn ? new vscode.ThemeColor('list.warningForeground') : undefined);
    if (node.open) item.command = { command: 'claudeLayers.liveSession.open', title: this.t('Open'), arguments: [node] };
    return item;
  }

  getChildren(node?: Node): Node[] {
    const m = this.tracker.current;
    if (!node) this.drawn = m?.file;
    const fresh = node ? node.children?.() ?? [] : m ? this.roots(m) : [];
    const out = fresh.map((f) => {
      const c = this.nodes.get(f.id);
      if (!c) {
        this.nodes.set(f.id, f);
        return f;
      }
      update(c, f);
      return c;
    });
    this.asked.set(node?.id ?? '', out.map((x) => x.id));
    return out;
  }

  private rel(p: string, m: LiveModel): string {
    const cwd = m.session.cwd;
    if (!cwd) return p;
    const r = path.relative(cwd, p);
    return r && !r.startsWith('..') && !path.isAbsolute(r) ? r : p;
  }

  roots(m: LiveModel): Node[] {
    const { t } = this;
    const s = m.session;
    const out: Node[] = [];
    const id = (x: string) => `${m.file}#${x}`;
    const turns = s.turns;
    out.push({
      id: id('turns'),
      label: t('Turns'),
      description: `${turns.length === 1 ? t('1 turn') : t('{0} turns', turns.length)} · Claude Code ${s.version ?? '?'}`,
      icon: 'history',
      expanded: true,
      children: () => turns.map((turn, k) => this.turnNode(m, turn, k)),
    });
    const next = m.next;
    if (next) {
      const held = next.held;
      out.push({
        id: id('held'),
        label: t('Files the session holds'),
        description: `${held.length === 1 ? t('1 file') : t('{0} files', held.length)} · ${t('{0} changed on disk since', held.filter((h) => h.changedAt || h.deleted).length)}`,
        icon: 'files',
        expanded: held.some((h) => h.changedAt || h.deleted),
        children: () =>
          held.map((h) => ({
            id: id(`held:${h.path}`),
            label: this.rel(h.path, m),
            description: h.deleted ? t('deleted from the disk') : h.changedAt ? (h.noted ? t('changed on disk: the next turn carries a note') : t('changed on disk: the model keeps its old copy (never noted)')) : t('as the session has it'),
            tooltip: h.path,
            icon: h.changedAt || h.deleted ? 'warning' : 'file',
            warn: !!(h.changedAt || h.deleted),
            open: { file: h.path },
          })),
      });
      if (next.startupEdited.length)
        out.push({
          id: id('startup-edited'),
          label: t('Startup files edited since the session started'),
          description: t('not seen until /compact or /clear'),
          icon: 'warning',
          warn: true,
          expanded: true,
          children: () => next.startupEdited.map((e) => ({ id: id(`se:${e.path}`), label: this.rel(e.path, m), description: new Date(e.changedAt).toLocaleTimeString(this.locale), open: { file: e.path }, icon: 'file' })),
        });
      const c = next.compact;
      if (c)
        out.push({
          id: id('compact'),
          label: t('If you /compact now'),
          description: t('{0} and {1} come back', c.files.length === 1 ? t('1 file') : t('{0} files', c.files.length), c.skills.length === 1 ? t('1 skill') : t('{0} skills', c.skills.length)),
          icon: 'fold',
          children: () => [
            ...c.files.map((f) => ({ id: id(`cb:${f}`), label: this.rel(f, m), description: t('comes back with its current text'), icon: 'check', open: { file: f } })),
            ...c.references.map((f) => ({ id: id(`cr:${f}`), label: this.rel(f, m), description: t('too large: named, without its text'), icon: 'info' })),
            ...c.skills.map((k) => ({ id: id(`cs:${k}`), label: k, description: t('skill body comes back'), icon: 'check' })),
            ...c.dropped.map((d) => ({ id: id(`cd:${d.path}`), label: this.rel(d.path, m), description: d.why, icon: 'close' })),
            { id: id('c-startup'), label: t('Startup block'), description: t('rebuilt from the disk as it is then'), icon: 'refresh' },
          ],
        });
    }
    out.push(this.predictionNode(m, m.findings));
    const last = [...s.requests].reverse().find((r) => r.chars);
    if (last?.chars) {
      const l = last.chars;
      const tpc = s.tokensPerChar;
      const rows: [string, number][] = (
        [
          [t('System prompt'), l.system],
          [t('Built-in tools'), l.tools],
          ...Object.entries(l.mcp).map(([k, v]) => [t('MCP server {0}', k), v] as [string, number]),
          [t('Startup instructions'), l.instructions],
          [t('Skills listing'), l.skillsListing],
          [t('Instructions injected on touch'), l.lazy],
          [t('Skill bodies'), l.skillBodies],
          [t('Hook output'), l.hooks],
          [t('Changed-on-disk notes'), l.changedNotes],
          [t('Brought back by /compact'), l.restored],
          [t('Conversation'), l.conversation],
        ] as [string, number][]
      ).filter(([, v]) => v > 0);
      out.push({
        id: id('layers'),
        label: t('Last request by layer'),
        description: t('{0} chars · {1} tokens (its usage)', n(l.total, this.locale), last.contextTokens !== null ? n(last.contextTokens, this.locale) : '?'),
        icon: 'layers',
        children: () => rows.map(([k, v]) => ({ id: id(`l:${k}`), label: k, description: tpc ? t('{0} chars · ≈{1} tokens', n(v, this.locale), n(Math.round(v * tpc), this.locale)) : t('{0} chars', n(v, this.locale)) })),
      });
    }
    const problems = s.problems;
    const unknown = Object.entries(s.unknownTypes);
    if (problems.length || unknown.length || s.warnings.length)
      out.push({
        id: id('problems'),
        label: t('Transcript'),
        description: `${problems.length === 1 ? t('1 problem') : t('{0} problems', problems.length)} · ${unknown.length === 1 ? t('1 unknown record type') : t('{0} unknown record types', unknown.length)}`,
        icon: 'info',
        children: () => [
          ...problems.slice(0, 50).map((p, i) => ({ id: id(`p:${i}`), label: t('line {0}', p.line), description: p.reason, icon: 'warning', warn: true })),
          ...unknown.map(([k, v]) => ({ id: id(`u:${k}`), label: k, description: v === 1 ? t('1 record of a type this reader does not know') : t('{0} records of a type this reader does not know', v), icon: 'question' })),
          ...s.warnings.map((w, i) => ({ id: id(`w:${i}`), label: w, icon: 'info' })),
          { id: id('file'), label: path.basename(m.file), description: t('open the transcript'), open: { file: m.file }, icon: 'json' },
        ],
      });
    return out;
  }

  private turnNode(m: LiveModel, turn: LiveTurn, k: number): Node {
    const { t } = this;
    const id = `${m.file}#turn:${k}`;
    const kids = (): Node[] => {
      const out: Node[] = [];
      if (turn.instructions !== null)
        out.push({
          id: `${id}:instructions`,
          label: t('Startup block'),
          description: turn.instructionsFrom === 'disk' ? t('{0} chars · rebuilt from the disk (this version records no request)', n(turn.instructions.length, this.locale)) : t('{0} chars', n(turn.instructions.length, this.locale)),
          icon: 'book',
          open: { text: turn.instructions, title: `turn-${k + 1}-startup` },
        });
      if (turn.changedNotes) out.push({ id: `${id}:notes`, label: t('Changed-on-disk notes'), description: t('{0} chars', n(turn.changedNotes.length, this.locale)), icon: 'diff', open: { text: turn.changedNotes, title: `turn-${k + 1}-notes` } });
      if (turn.restored)
        out.push({
          id: `${id}:restored`,
          label: t('Brought back by the compaction'),
          description: (turn.restored.files.length === 1 ? t('1 file') : t('{0} files', turn.restored.files.length)) + (turn.restored.skills ? t(' and the invoked skills') : ''),
          icon: 'fold-up',
          children: () => [
            ...turn.restored!.files.map((f) => ({ id: `${id}:r:${f.path}`, label: this.rel(f.path, m), description: t('{0} chars', n(f.text.length, this.locale)), open: { text: f.text, title: path.basename(f.path) }, icon: 'file' })),
            ...(turn.restored!.skills ? [{ id: `${id}:rs`, label: t('Invoked skills'), description: t('{0} chars', n(turn.restored!.skills.length, this.locale)), open: { text: turn.restored!.skills, title: 'invoked-skills' }, icon: 'sparkle' }] : []),
          ],
        });
      turn.calls.forEach((c, i) => out.push(this.callNode(m, c, `${id}:call:${i}`)));
      return out;
    };
    const when = turn.timestamp ? new Date(turn.timestamp).toLocaleTimeString(this.locale) : '';
    const comp = (turn.resumed ? t(' · resumed') : '') + (turn.compacted ? (turn.compacted.trigger === 'auto' ? t(' · compacted on its own') : t(' · compacted')) : '');
    return { id, label: t('Turn {0}: {1}', k + 1, turn.prompt.length > 60 ? `${turn.prompt.slice(0, 59)}…` : turn.prompt), description: `${when}${comp} · ${turn.calls.length === 1 ? t('1 tool call') : t('{0} tool calls', turn.calls.length)}`, icon: turn.compacted ? 'fold' : 'comment', children: kids, expanded: false };
  }

  private callNode(m: LiveModel, c: LiveCall, id: string): Node {
    const { t } = this;
    const input = c.input as Record<string, unknown>;
    const target = typeof input.file_path === 'string' ? this.rel(input.file_path, m) : typeof input.skill === 'string' ? input.skill : typeof input.subagent_type === 'string' ? input.subagent_type : typeof input.command === 'string' ? input.command.slice(0, 60) : '';
    const kids: Node[] = [
      ...c.injected.map((i) => ({ id: `${id}:i:${i.path}`, label: this.rel(i.path, m), description: t('arrived after this call · {0} chars', n(i.text.length, this.locale)), icon: 'file-add', open: { text: i.text, title: path.basename(i.path) } })),
      ...(c.skillBody !== null ? [{ id: `${id}:body`, label: t('Skill body'), description: t('{0} chars', n(c.skillBody.length, this.locale)), icon: 'sparkle', open: { text: c.skillBody, title: `skill-${target}` } }] : []),
      ...(c.agent
        ? [
            {
              id: `${id}:agent`,
              label: t('Subagent {0}', c.agent.type),
              description: c.agent.instructions === null ? t('got no instruction file') : t('got the startup block, {0} chars', n(c.agent.instructions.length, this.locale)),
              icon: 'person',
              ...(c.agent.transcript ? { open: { file: c.agent.transcript } } : c.agent.instructions ? { open: { text: c.agent.instructions, title: `agent-${c.agent.type}` } } : {}),
            },
          ]
        : []),
    ];
    return {
      id,
      label: `${c.name} ${target}`,
      description: c.error ? t('failed') : c.injected.length === 1 ? t('+1 instruction file') : c.injected.length ? t('+{0} instruction files', c.injected.length) : '',
      icon: c.error ? 'error' : 'tools',
      ...(kids.length ? { children: () => kids } : {}),
    };
  }

  private predictionNode(m: LiveModel, findings: PredictionFinding[]): Node {
    const { t } = this;
    const real = findings.filter((f) => !f.explained);
    const label = (f: PredictionFinding) =>
      f.kind === 'not-received' ? t('predicted, never received') : f.kind === 'not-predicted' ? t('received, not predicted') : f.kind === 'text' ? t('received with another text') : t('skill call outcome differs');
    return {
      id: `${m.file}#prediction`,
      label: t('Prediction'),
      description: findings.length === 1 ? (real.length ? t('1 difference') : t('1 difference, explained by a file changed since')) : findings.length ? t('{0} differences ({1} explained by files changed since)', findings.length, findings.length - real.length) : t('agrees with every call of this session'),
      icon: real.length ? 'warning' : 'pass',
      warn: real.length > 0,
      expanded: real.length > 0,
      ...(findings.length
        ? {
            children: () =>
              findings.map((f, i) => ({
                id: `${m.file}#f:${i}`,
                label: t('Turn {0}, call {1}: {2}', f.turn + 1, f.call + 1, this.rel(f.path, m)),
                description: f.explained ? `${label(f)} · ${f.explained}` : label(f),
                icon: f.explained ? 'info' : 'warning',
                warn: !f.explained,
                open: { text: `# ${label(f)}\n\n## ${t('Predicted')}\n\n${f.predicted ?? t('(nothing)')}\n\n## ${t('Received')}\n\n${f.actual ?? t('(nothing)')}\n`, title: `finding-${i + 1}` },
              })),
          }
        : {}),
    };
  }

  dispose(): void {
    this.tracker.dispose();
    for (const d of this.disposables) d.dispose();
    this.emitter.dispose();
    this.docChanged.dispose();
  }
}
