// The "This session" view: the Claude Code session running in the launch directory, followed live from
// its transcript (live-session.ts). A native tree beside the sidebar: its message is the gauge of the
// real context against the window (with the auto-compaction line where it is measured), then the
// turns with each layer where it arrived (after which tool call), the files the session holds (marked
// where the disk has moved on), what `/compact` now would bring back and drop, the prediction's
// differences as warnings, and the last request by layer. Texts open as read-only documents; files
// open themselves. A status bar item shows the running session's fill. Every text is escaped (shown).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentsByCall, callTarget, groupHookRuns, nodeFileAccess, RUNNING_MS, summarizeTranscript, sumCosts, type ContextCategory, type FileAccess, type LiveCall, type LiveSession, type LiveTurn, type LoadedTool, type PredictionFinding, type SessionContextSplit, type SessionSummary, type TranscriptFile, type TurnAgent } from '../../engine/index.js';
import { shown, type LiveHeadline } from '../../../webview/protocol.js';
import type { Translate } from '../format.js';
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
/** the picker lists this many sessions at most (newest first): each costs a read of its head */
const PICK_MAX = 100;

/** what the engine's reader gains with issue 31, optional here until it does: shown whenever present */
export interface TurnExtras {
  kind?: 'prompt' | 'command' | 'image';
  requests?: number;
  usage?: { input: number; cacheRead: number; cacheCreation: number; output: number };
  /** US dollars; null when a request's model has no price */
  cost?: number | null;
  cache?: { hitRatio: number; break?: { cause: string; why?: string } };
  /** chars: what reached the model; null where the transcript records only the run (2.1.12 to 2.1.74) */
  hooks?: { event: string; command: string; chars: number | null; dropped: boolean; commandFrom?: 'settings' }[];
  /** local commands, interrupts, rewinds: inside the turn they happened in */
  marks?: { kind: string; at?: string; text?: string }[];
  /** the subagents and workflow agents counted under this turn, each by its own transcript */
  agents?: TurnAgentRow[];
}

/** what the view shows of an agent counted under a turn: the engine's */
export type TurnAgentRow = TurnAgent;

export interface SessionExtras {
  mcp?: { server: string; instructionsChars: number; deferredTools: readonly string[]; loadedToolChars: number | null }[];
  /** US dollars, the whole session; null when no request has a price */
  cost?: number | null;
  /** every Claude Code version that wrote the transcript, in order (a resume by another binary) */
  versions?: string[];
}

/** the session with its figures where the engine's reader keeps them (figures.cost, figures.listings.mcp, versions) */
function sessionFacts(session: LiveModel['session']): LiveModel['session'] & SessionExtras {
  const x = session as LiveModel['session'] & SessionExtras & { figures?: { cost?: number | null; listings?: { mcp?: SessionExtras['mcp'] } } };
  const f = x.figures;
  return Object.assign(Object.create(x) as typeof x, {
    cost: x.cost !== undefined ? x.cost : f?.cost,
    mcp: x.mcp ?? f?.listings?.mcp,
  });
}

/** tokens per character: the session's own, else the derived breakdown's (a version that records no request) */
function tpcOf(s: LiveModel['session']): number | null {
  return s.tokensPerChar ?? (s as Partial<Pick<LiveSession, 'figures'>>).figures?.breakdown?.tokensPerChar.value ?? null;
}

/** a text as one label line: runs of whitespace (newlines too) become one space, cut at `max` */
export function oneLine(s: string, max: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** the name of a read-only document's tab: the title made safe, `.md` added only when it has no
 *  extension of its own (an injected `api.md` opens as `api.md`, never `api.md.md`) */
export function docName(title: string): string {
  const safe = title.replace(/[^\w.-]+/g, '-').replace(/^[.-]+/, '') || 'text';
  return /\.[A-Za-z0-9]{1,8}$/.test(safe) ? safe : `${safe}.md`;
}

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
  private fmt: { time: Intl.DateTimeFormat; dateTime: Intl.DateTimeFormat } | undefined;
  /** the picker's summaries, by transcript, size and modification time */
  private readonly summaries = new Map<string, SessionSummary>();

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
    // the rows first: VS Code's tree view merges its change events over 200 ms and delivers the first of
    // a quiet spell at once (ExtHostTreeView: Event.debounce(…, 200, leading)); every set of `message`
    // is such an event, so the message is set after the rows and only when its text changed (set first
    // on each redraw, it took the immediate slot and held the rows back 200 ms)
    const changed = this.changedNodes(m);
    if (changed === undefined) this.emitter.fire(undefined);
    else if (changed.length) this.emitter.fire(changed);
    if (this.view) {
      const message = m ? shown(this.gaugeLine(m)) : t('No Claude Code session in this launch directory yet. Start `claude` in a terminal here, or in Anthropic\'s Claude Code extension: this view follows it turn by turn.');
      if (this.view.message !== message) this.view.message = message;
      const description = m ? (m.running ? t('running') : t('ended {0}', new Date(m.lastWritten).toLocaleString(this.locale))) : '';
      if (this.view.description !== description) this.view.description = description;
    }
    const c = m?.next?.context;
    if (m?.running && c) {
      this.status.text = `$(pulse) ${Math.round(c.fraction * 100)}%`;
      this.status.tooltip = shown([this.headline(m), this.sessionLine(m)].join('\n'));
      this.status.accessibilityInformation = { label: shown(this.headline(m)), role: 'button' };
      this.status.show();
    } else this.status.hide();
    const model = c?.model ?? m?.session.model;
    this.headlineChanged(
      m && c
        ? { tokens: c.tokens, window: c.window, label: this.headline(m), ...(!m.running && { ended: t('ended {0}', new Date(m.lastWritten).toLocaleString(this.locale)) }), ...(m.session.version && { version: m.session.version }), ...(model && { model }) }
        : undefined,
    );
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

  /** the sidebar's line and the status item's tooltip: "This session: 48,120 of 200,000 tokens (24.1%) · $1.20" */
  headline(m: LiveModel): string {
    const { t } = this;
    if (!m.next?.context) return t('This session: no usage recorded yet');
    return t('This session: {0}', this.gaugeLine(m));
  }

  /** the view's own message (its title says "This Session" already): the gauge and the session's cost */
  gaugeLine(m: LiveModel): string {
    const { t } = this;
    const c = m.next?.context;
    if (!c) return t('No usage recorded yet');
    const pct = (c.fraction * 100).toFixed(1);
    const auto = c.autoCompactAt ? t(' · auto-compacts at {0} tokens', n(c.autoCompactAt, this.locale)) : '';
    const cost = sessionFacts(m.session).cost;
    // a plain percentage: block characters draw as a shaded box in a tree view's message
    return t('{0} of {1} tokens ({2}%){3}', n(c.tokens, this.locale), n(c.window, this.locale), pct, auto) + (typeof cost === 'number' ? t(' · {0} so far', this.money(cost)) : '');
  }

  /** what the session runs, for the status item's tooltip */
  private sessionLine(m: LiveModel): string {
    const s = sessionFacts(m.session);
    const versions = s.versions && s.versions.length > 1 ? s.versions.join(' → ') : s.version ?? '?';
    return this.t('Claude Code {0} · {1} · {2} turns', versions, m.next?.context?.model ?? s.model ?? '?', s.turns.length);
  }

  private async pick(): Promise<void> {
    const { t } = this;
    const list = this.tracker.sessions;
    if (!list.length) {
      void vscode.window.showInformationMessage(t('No Claude Code session found for this launch directory.'));
      return;
    }
    const chosen = await vscode.window.showQuickPick(this.pickItems(list, Date.now()), { title: t('Which Claude Code session to follow'), matchOnDescription: true, matchOnDetail: true });
    if (chosen) this.tracker.pin(chosen.file);
  }

  /** the picker's rows, newest first: each session by its first prompt (escaped, cut), then its time
   *  (with the date when not today), size, git branch and whether it runs; the id in the detail */
  pickItems(list: readonly TranscriptFile[], now: number, fa: FileAccess = nodeFileAccess): { label: string; description?: string; detail?: string; file: string | undefined }[] {
    const { t } = this;
    const today = new Date(now).toDateString();
    const sorted = [...list].sort((a, b) => b.mtimeMs - a.mtimeMs).slice(0, PICK_MAX);
    return [
      { label: t('The newest session'), description: t('follow whichever session was written last'), file: undefined },
      ...sorted.map((s) => {
        // each transcript's head read once for each size it had (a session still written is read again)
        const key = `${s.file}\0${s.size}\0${s.mtimeMs}`;
        const sum = this.summaries.get(key) ?? summarizeTranscript(fa, s.file, s.size);
        if (this.summaries.size > 4 * PICK_MAX) this.summaries.clear();
        this.summaries.set(key, sum);
        const d = new Date(s.mtimeMs);
        const when = d.toDateString() === today ? d.toLocaleTimeString(this.locale, { hour: '2-digit', minute: '2-digit' }) : d.toLocaleString(this.locale, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
        const size = s.size >= 1024 * 1024 ? t('{0} MB', (s.size / 1024 / 1024).toFixed(1)) : t('{0} KB', Math.max(1, Math.round(s.size / 1024)));
        const running = now - s.mtimeMs < RUNNING_MS;
        return {
          // its title (a /rename, or the one Claude Code wrote) when it has one, its first prompt then in the detail
          label: shown(oneLine(sum.title ?? sum.firstPrompt ?? t('(no prompt yet)'), 80)),
          description: shown([running ? t('running') : '', when, size, sum.gitBranch ? t('branch {0}', sum.gitBranch) : ''].filter(Boolean).join(' · ')),
          detail: shown(sum.title && sum.firstPrompt ? `${oneLine(sum.firstPrompt, 80)} · ${s.sessionId}` : s.sessionId),
          file: s.file,
        };
      }),
    ];
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
    const uri = vscode.Uri.from({ scheme: LIVE_SCHEME, path: `/${docName(o.title)}`, query: key });
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

  /** a file as a row: its name first (a narrow view cuts the description, never the name), its folder
   *  dimmed in the description */
  private fileRow(p: string, m: LiveModel): { label: string; folder: string } {
    const r = this.rel(p, m);
    const dir = path.dirname(r);
    return { label: path.basename(r) || r, folder: dir === '.' ? '' : dir };
  }

  /** a record's time: the time of day when it is today, else with its date. The formatters are made
   *  once (toLocaleTimeString makes one per call: 50 µs a turn, 100 ms a redraw of 1,875 turns) */
  private when(iso: string | undefined): string {
    if (!iso) return '';
    const d = new Date(iso);
    if (!Number.isFinite(d.getTime())) return '';
    const now = new Date();
    const today = d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate();
    try {
      this.fmt ??= {
        time: new Intl.DateTimeFormat(this.locale, { hour: 'numeric', minute: 'numeric', second: 'numeric' }),
        dateTime: new Intl.DateTimeFormat(this.locale, { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }),
      };
    } catch {
      return d.toISOString();
    }
    return (today ? this.fmt.time : this.fmt.dateTime).format(d);
  }

  /** "12 chars · ≈3 tokens", "1 token", "<1 token" (never "≈1 tokens") */
  private charsTokens(chars: number, tpc: number | null): string {
    const { t } = this;
    if (!tpc) return t('{0} chars', n(chars, this.locale));
    const tok = chars * tpc;
    if (chars > 0 && tok < 0.5) return t('{0} chars · <1 token', n(chars, this.locale));
    const r = Math.round(tok);
    return r === 1 ? t('{0} chars · ≈1 token', n(chars, this.locale)) : t('{0} chars · ≈{1} tokens', n(chars, this.locale), n(r, this.locale));
  }

  private money(usd: number): string {
    return usd.toLocaleString(this.locale, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: usd < 0.01 && usd > 0 ? 4 : 2 });
  }

  roots(m: LiveModel): Node[] {
    const { t } = this;
    const s = sessionFacts(m.session);
    const out: Node[] = [];
    const id = (x: string) => `${m.file}#${x}`;
    const turns = s.turns;
    const versions = s.versions && s.versions.length > 1 ? s.versions.join(' → ') : s.version ?? '?';
    out.push({
      id: id('turns'),
      label: t('Turns'),
      // the cost before the version: a narrow view cuts the end of a description
      description: `${turns.length === 1 ? t('1 turn') : t('{0} turns', turns.length)}${typeof s.cost === 'number' ? ` · ${this.money(s.cost)}` : ''} · Claude Code ${versions}`,
      tooltip: t('The prompts of this session as they reached the model, each with its tool calls and what arrived after each call. Transcript: {0}', m.file),
      icon: 'history',
      expanded: true,
      children: () => turns.map((turn, k) => this.turnNode(m, turn, k)),
    });
    if (s.mcp?.length) {
      const mcp = s.mcp;
      out.push({
        id: id('mcp'),
        label: t('MCP servers'),
        description: mcp.length === 1 ? t('1 server') : t('{0} servers', mcp.length),
        tooltip: t('What each MCP server adds to every request: its instructions, its deferred tool names, and the schemas of the tools the session loaded.'),
        icon: 'plug',
        children: () =>
          mcp.map((x) => ({
            id: id(`mcp:${x.server}`),
            label: x.server,
            description:
              x.loadedToolChars === null
                ? t('instructions {0} · {1} deferred tools', this.charsTokens(x.instructionsChars, tpcOf(s)), n(x.deferredTools.length, this.locale))
                : t('instructions {0} · {1} deferred tools · loaded tools {2}', this.charsTokens(x.instructionsChars, tpcOf(s)), n(x.deferredTools.length, this.locale), this.charsTokens(x.loadedToolChars, tpcOf(s))),
            tooltip: t('MCP server {0}: its instructions are sent with every request; its tools are named only ({1}) until the model loads one with ToolSearch. {2}', x.server, x.deferredTools.join(', ') || '-', x.loadedToolChars === null ? t('This version does not record the tools it loaded.') : ''),
            icon: 'plug',
          })),
      });
    }
    const ctx = m.state?.context;
    if (ctx) out.push(this.contextNode(ctx, id));
    const next = m.next;
    if (next) {
      const held = next.held;
      const how: Record<string, string> = { injected: t('injected after a tool call'), restored: t('brought back by a compaction'), written: t('written by the session'), read: t('read by the session') };
      out.push({
        id: id('held'),
        label: t('Files the session holds'),
        description: `${held.length === 1 ? t('1 file') : t('{0} files', held.length)} · ${t('{0} changed on disk since', held.filter((h) => h.changedAt || h.deleted).length)}`,
        tooltip: t('The files whose text the model has in its context now, and whether the disk has moved on since.'),
        icon: 'files',
        expanded: held.some((h) => h.changedAt || h.deleted),
        children: () =>
          held.map((h) => {
            const f = this.fileRow(h.path, m);
            const state = h.deleted ? t('deleted from the disk') : h.changedAt ? (h.noted ? t('changed on disk: the next turn carries a note') : t('changed on disk: the model keeps its old copy (never noted)')) : t('as the session has it');
            return {
              id: id(`held:${h.path}`),
              label: f.label,
              description: [f.folder, state].filter(Boolean).join(' · '),
              tooltip: [h.path, `${how[h.how] ?? h.how}${h.at ? ` · ${this.when(h.at)}` : ''}`, h.changedAt ? t('changed on disk at {0}', this.when(h.changedAt)) : '', state].filter(Boolean).join('\n'),
              icon: h.changedAt || h.deleted ? 'warning' : 'file',
              warn: !!(h.changedAt || h.deleted),
              open: { file: h.path },
            };
          }),
      });
      if (next.startupEdited.length)
        out.push({
          id: id('startup-edited'),
          label: t('Startup files edited since the session started'),
          description: t('not seen until /compact or /clear'),
          icon: 'warning',
          warn: true,
          expanded: true,
          children: () =>
            next.startupEdited.map((e) => {
              const f = this.fileRow(e.path, m);
              return { id: id(`se:${e.path}`), label: f.label, description: [f.folder, this.when(e.changedAt)].filter(Boolean).join(' · '), tooltip: t('{0}\nedited at {1}: the session keeps the text it started with until /compact or /clear', e.path, this.when(e.changedAt)), open: { file: e.path }, icon: 'file' };
            }),
        });
      const c = next.compact;
      if (c)
        out.push({
          id: id('compact'),
          label: t('If you /compact now'),
          description: t('{0} and {1} come back', c.files.length === 1 ? t('1 file') : t('{0} files', c.files.length), c.skills.length === 1 ? t('1 skill') : t('{0} skills', c.skills.length)),
          tooltip: t('What Claude Code would bring back after /compact typed now, predicted over the disk as it is; the rest of the conversation becomes its summary.'),
          icon: 'fold',
          children: () => [
            ...c.files.map((p) => {
              const f = this.fileRow(p, m);
              return { id: id(`cb:${p}`), label: f.label, description: [f.folder, t('comes back with its current text')].filter(Boolean).join(' · '), tooltip: p, icon: 'check', open: { file: p } };
            }),
            ...c.references.map((p) => {
              const f = this.fileRow(p, m);
              return { id: id(`cr:${p}`), label: f.label, description: [f.folder, t('too large: named, without its text')].filter(Boolean).join(' · '), tooltip: p, icon: 'info' };
            }),
            ...c.skills.map((k) => ({ id: id(`cs:${k}`), label: k, description: t('skill body comes back'), icon: 'check' })),
            ...c.dropped.map((d) => {
              const f = this.fileRow(d.path, m);
              return { id: id(`cd:${d.path}`), label: f.label, description: [f.folder, d.why].filter(Boolean).join(' · '), tooltip: `${d.path}\n${d.why}`, icon: 'close' };
            }),
            { id: id('c-startup'), label: t('Startup block'), description: t('rebuilt from the disk as it is then'), icon: 'refresh' },
          ],
        });
    }
    out.push(this.predictionNode(m, m.findings));
    const last = [...s.requests].reverse().find((r) => r.chars);
    if (last?.chars) {
      const l = last.chars;
      const tpc = s.tokensPerChar;
      const rows: [string, string, number][] = (
        [
          ['system', t('System prompt'), l.system],
          ['tools', t('Built-in tools'), l.tools],
          ...Object.entries(l.mcp).map(([k, v]) => [`mcp:${k}`, t('MCP server {0}', k), v] as [string, string, number]),
          ['instructions', t('Startup instructions'), l.instructions],
          ['skills', t('Skills listing'), l.skillsListing],
          ['mcp-instructions', t('MCP instructions'), l.mcpInstructions ?? 0],
          ['agents', t('Agent listing'), l.agents ?? 0],
          ['deferred', t('Deferred tools listing'), l.deferredListing ?? 0],
          ['fixed', t("Claude Code's other texts"), l.fixedTexts ?? 0],
          ['lazy', t('Instructions injected on touch'), l.lazy],
          ['bodies', t('Skill bodies'), l.skillBodies],
          ['hooks', t('Hook output'), l.hooks],
          ['notes', t('Changed-on-disk notes'), l.changedNotes],
          ['restored', t('Brought back by /compact'), l.restored],
          ['conversation', t('Conversation'), l.conversation],
        ] as [string, string, number][]
      ).filter(([, , v]) => v > 0);
      out.push({
        id: id('layers'),
        label: t('Last request by layer'),
        description: t('{0} chars · {1} tokens (its usage)', n(l.total, this.locale), last.contextTokens !== null ? n(last.contextTokens, this.locale) : '?'),
        tooltip: t('The last request Claude Code sent ({0}), split by where each part of it came from. Open a layer to read its text.', this.when(last.timestamp) || last.id),
        icon: 'layers',
        children: () =>
          rows.map(([key, k, v]) => {
            const text = this.layerText(m, key);
            return { id: id(`l:${key}`), label: k, description: this.charsTokens(v, tpc), tooltip: text ? t('{0}: {1} of the last request. Click to read its text.', k, this.charsTokens(v, tpc)) : t('{0}: {1} of the last request (a size only: the transcript does not hold its text).', k, this.charsTokens(v, tpc)), ...(text ? { open: { text, title: `layer-${key}` } } : {}) };
          }),
      });
    }
    const bd = (s as Partial<Pick<LiveSession, 'figures'>>).figures?.breakdown;
    if (!last?.chars && bd?.layers.length) {
      // a version that records no request: the context of the last request by layer, derived from the records and
      // the first request's usage (every figure marked so)
      const names: Record<string, string> = {
        'system prompt, tools and startup instructions': t('System prompt, tools and startup instructions'),
        'system prompt and tools': t('System prompt and tools'),
        'startup instructions': t('Startup instructions'),
        "Claude Code's other texts": t("Claude Code's other texts"),
        'hook output': t('Hook output'),
        'MCP server instructions': t('MCP server instructions'),
        'deferred tool names': t('Deferred tool names'),
        'agent listing': t('Agent listing'),
        'skills listing': t('Skills listing'),
        conversation: t('Conversation'),
        'skill bodies and expanded commands': t('Skill bodies and expanded commands'),
        'nested memory (lazy instructions)': t('Instructions injected on touch'),
        'changed-on-disk notes': t('Changed-on-disk notes'),
        'restored files': t('Brought back by /compact'),
        'restored skills': t('Skills brought back by /compact'),
        thinking: t('Thinking'),
      };
      const keyOf: Record<string, string> = { 'hook output': 'hooks', conversation: 'conversation', 'nested memory (lazy instructions)': 'lazy', 'changed-on-disk notes': 'notes', 'restored files': 'restored' };
      const total = bd.layers.reduce((k, l) => k + (l.tokens ?? 0), 0);
      const ratio = bd.tokensPerChar.from === 'session' ? t('{0} tokens per char, from this session', bd.tokensPerChar.value.toFixed(3)) : t('{0} tokens per char, assumed', bd.tokensPerChar.value.toFixed(3));
      out.push({
        id: id('layers'),
        label: t('Last request by layer'),
        description: t('≈{0} tokens · derived', n(total, this.locale)),
        tooltip: t('Claude Code {0} records no request: each layer is derived from the records since the last compaction ({1}); the system prompt, tools and startup instructions from the first request\'s usage.', s.version ?? '?', ratio),
        icon: 'layers',
        children: () =>
          bd.layers.map((l) => {
            const key = keyOf[l.layer];
            const text = key ? this.layerText(m, key) : undefined;
            const size = l.chars !== null ? `${this.charsTokens(l.chars, bd.tokensPerChar.value)}` : l.tokens !== null ? t('≈{0} tokens', n(l.tokens, this.locale)) : '?';
            const label = names[l.layer] ?? l.layer;
            return { id: id(`l:${l.layer}`), label, description: l.derived ? t('{0} · derived', size) : size, tooltip: text ? t('{0}: {1} of the last request. Click to read its text.', label, size) : t('{0}: {1} of the last request (a size only: the transcript does not hold its text).', label, size), ...(text ? { open: { text, title: `layer-${key}` } } : {}) };
          }),
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
          ...problems.slice(0, 50).map((p, i) => ({ id: id(`p:${i}`), label: t('line {0}', p.line), description: p.reason, tooltip: p.reason, icon: 'warning', warn: true })),
          ...unknown.map(([k, v]) => ({ id: id(`u:${k}`), label: k, description: v === 1 ? t('1 record of a type this reader does not know') : t('{0} records of a type this reader does not know', v), icon: 'question' })),
          ...s.warnings.map((w, i) => ({ id: id(`w:${i}`), label: w, tooltip: w, icon: 'info' })),
          { id: id('file'), label: path.basename(m.file), description: t('open the transcript'), tooltip: m.file, open: { file: m.file }, icon: 'json' },
        ],
      });
    return out;
  }

  /** the last recorded request split like `/context` (the engine's sessionContextSplit, as `session --json` prints
   *  it), MCP per server with what ToolSearch loaded and in which turn */
  private contextNode(c: SessionContextSplit, id: (x: string) => string): Node {
    const { t } = this;
    const labels: Record<ContextCategory, string> = {
      'system-prompt': t('System prompt'),
      'tools-built-in': t('Tools (built-in)'),
      'tools-mcp': t('MCP tools'),
      'mcp-instructions': t('MCP instructions'),
      'memory-files': t('Memory files'),
      skills: t('Skills'),
      agents: t('Agents'),
      'deferred-tools': t('Deferred tools listing'),
      messages: t('Messages'),
      'free-space': t('Free space'),
      'autocompact-buffer': t('Autocompact buffer'),
    };
    const pct = (tok: number) => `${((tok / c.window) * 100).toFixed(1)}%`;
    const loaded = (x: LoadedTool): Node => ({
      id: id(`ctx:loaded:${x.tool}`),
      label: x.tool,
      description: t('loaded by ToolSearch in turn {0} · {1} chars', x.turn + 1, n(x.chars, this.locale)) + (x.inLastRequest ? '' : ` · ${t('no longer sent')}`),
      icon: 'search',
    });
    const rows: Node[] = c.rows.map((r, i) => {
      const srv = r.server !== undefined ? c.mcp.find((x) => x.server === r.server) : undefined;
      return {
        id: id(`ctx:${i}:${r.category}:${r.server ?? ''}`),
        label: r.server !== undefined ? `${labels[r.category]}: ${r.server}` : labels[r.category],
        description: `${r.chars !== null ? `${t('{0} chars', n(r.chars, this.locale))} · ` : ''}${t('≈{0} tokens', n(r.tokens, this.locale))} · ${pct(r.tokens)}`,
        icon: r.category === 'tools-mcp' ? 'plug' : r.category === 'free-space' ? 'circle-large-outline' : 'symbol-field',
        ...(srv?.loaded.length && { children: () => srv.loaded.map(loaded) }),
      };
    });
    if (c.loadedBuiltIn.length) rows.push({ id: id('ctx:loaded-built-in'), label: t('Built-in tools loaded by ToolSearch'), description: String(c.loadedBuiltIn.length), icon: 'search', children: () => c.loadedBuiltIn.map(loaded) });
    return {
      id: id('context'),
      label: t('Context like /context'),
      description: t('{0} chars · window {1} tokens', n(c.totalChars, this.locale), n(c.window, this.locale)),
      tooltip: t('The last request Claude Code sent, split like /context: tokens at {0}.', c.tokensPerChar.from === 'usage' ? t("the request's own ratio (its usage over its characters)") : t("the model's assumed ratio")),
      icon: 'pie-chart',
      children: () => rows,
    };
  }

  /** the text behind a layer of the last request, where the transcript holds it: the texts the turns
   *  carried for it, newest last (the system prompt and the tools are sizes only) */
  private layerText(m: LiveModel, key: string): string | undefined {
    const turns = m.session.turns;
    const join = (parts: (string | null | undefined)[]) => parts.filter((x): x is string => !!x).join('\n\n---\n\n') || undefined;
    const since = (() => {
      let from = 0;
      turns.forEach((x, i) => {
        if (x.compacted) from = i;
      });
      return turns.slice(from);
    })();
    switch (key) {
      case 'instructions':
        return [...turns].reverse().find((x) => x.instructions !== null)?.instructions ?? undefined;
      case 'lazy':
        return join(since.flatMap((x) => x.calls.flatMap((c) => c.injected.map((i) => i.text))));
      case 'bodies':
        return join(since.flatMap((x) => x.calls.map((c) => c.skillBody)));
      case 'notes':
        return join(since.map((x) => x.changedNotes));
      case 'restored':
        return join(since.flatMap((x) => [...(x.restored?.files.map((f) => f.text) ?? []), x.restored?.skills]));
      case 'hooks':
        return join(since.flatMap((x) => ((x as LiveTurn & TurnExtras).hooks ?? []).map((h) => `${h.event}: ${h.command} (${h.chars ?? '?'} chars${h.dropped ? ', dropped' : ''})`)));
      case 'conversation':
        return join(since.map((x) => x.prompt));
      default:
        return undefined;
    }
  }

  /** a mark's kind in words (the engine's TurnMark kinds) */
  private markKind(kind: string): string {
    const t = this.t;
    switch (kind) {
      case 'local-command':
        return t('local command');
      case 'interrupt':
        return t('interrupted');
      case 'rewind':
        return t('rewound: an abandoned branch');
      case 'compaction':
        return t('compaction');
      case 'resume':
        return t('resumed by another Claude Code');
      case 'notification':
        return t('notification sent to the model');
      case 'queued':
        return t('typed while it worked');
      case 'withdrawn':
        return t('typed while it worked, taken back unsent');
      default:
        return kind;
    }
  }

  /** the files the session held before turn k's compaction (since the one before) that did not come back */
  private droppedAt(m: LiveModel, k: number): string[] {
    const turns = m.session.turns;
    let from = 0;
    for (let i = k - 1; i >= 0; i--)
      if (turns[i]!.compacted) {
        from = i;
        break;
      }
    const held = new Set<string>();
    for (const x of turns.slice(from, k + (turns[k]?.compacted?.trigger === 'auto' ? 0 : 1))) {
      for (const f of x.restored?.files ?? []) held.add(f.path);
      for (const c of x.calls) {
        for (const i of c.injected) held.add(i.path);
        const input = c.input as Record<string, unknown>;
        if (typeof input.file_path === 'string') held.add(input.file_path);
      }
    }
    const back = new Set((turns[k]?.restored?.files ?? []).map((f) => f.path));
    return [...held].filter((p) => !back.has(p));
  }

  private turnNode(m: LiveModel, turn: LiveTurn, k: number): Node {
    const { t } = this;
    const x = turn as LiveTurn & TurnExtras;
    const id = `${m.file}#turn:${k}`;
    const reqs = m.session.requests;
    // a compaction: its size before (preTokens) and the first request after it whose context shrank
    const compaction = (): Node | undefined => {
      const c = turn.compacted;
      if (!c) return undefined;
      const after = reqs.find((r) => r.turn >= k && r.contextTokens !== null && (c.preTokens === undefined || r.contextTokens < c.preTokens))?.contextTokens ?? null;
      const dropped = this.droppedAt(m, k);
      const size =
        c.preTokens !== undefined && after !== null
          ? t('{0} → {1} tokens', n(c.preTokens, this.locale), n(after, this.locale))
          : c.preTokens !== undefined
            ? t('{0} tokens before', n(c.preTokens, this.locale))
            : '';
      return {
        id: `${id}:compaction`,
        label: c.trigger === 'auto' ? t('Compacted on its own') : t('Compacted (/compact)'),
        description: [size, dropped.length === 1 ? t('1 file dropped') : dropped.length ? t('{0} files dropped', dropped.length) : ''].filter(Boolean).join(' · '),
        tooltip: t('The conversation was replaced by its summary. Before: {0} tokens; the next request: {1} tokens. Files the session held that did not come back are listed below.', c.preTokens !== undefined ? n(c.preTokens, this.locale) : '?', after !== null ? n(after, this.locale) : '?'),
        icon: 'fold',
        ...(dropped.length
          ? {
              children: () =>
                dropped.map((p) => {
                  const f = this.fileRow(p, m);
                  return { id: `${id}:dropped:${p}`, label: f.label, description: [f.folder, t('dropped: not brought back')].filter(Boolean).join(' · '), tooltip: p, icon: 'close', open: { file: p } };
                }),
            }
          : {}),
      };
    };
    // rebuilt from the disk (a version that records no request), the same block under every turn: shown where it
    // first appears or changed
    const prevInstr = k > 0 ? m.session.turns[k - 1]!.instructions : null;
    const showInstructions = turn.instructions !== null && !(turn.instructionsFrom === 'disk' && prevInstr === turn.instructions);
    const kids = (): Node[] => {
      const out: Node[] = [];
      const comp = compaction();
      if (comp) out.push(comp);
      if (x.usage || x.cost != null || (x.requests ?? 0) > 1) {
        const u = x.usage;
        const inTotal = u ? u.input + u.cacheRead + u.cacheCreation : 0;
        const money = typeof x.cost === 'number' ? this.money(x.cost) : '';
        const hit = x.cache ? t('cache hit {0}%', Math.round(x.cache.hitRatio * 100)) : '';
        const reqs = x.requests === 1 ? t('1 request') : t('{0} requests', x.requests ?? 0);
        const tokens = u ? t('{0} in ({1} cache read, {2} cache write) · {3} out', n(inTotal, this.locale), n(u.cacheRead, this.locale), n(u.cacheCreation, this.locale), n(u.output, this.locale)) : '';
        // the cost and the cache first: a narrow view cuts the description, never the label
        out.push({
          id: `${id}:requests`,
          label: [reqs, money, hit].filter(Boolean).join(' · '),
          description: tokens,
          tooltip: [
            t('The API requests of this turn (each answer of the model is one), their tokens as the API counted them, and their cost at the model\'s list price.'),
            tokens,
            x.cache ? t('{0}% of the input came from the prompt cache (read at a tenth of the input price); the rest was written to it or sent uncached.', Math.round(x.cache.hitRatio * 100)) : '',
          ].filter(Boolean).join('\n'),
          icon: 'pulse',
        });
      }
      if (x.cache?.break)
        out.push({ id: `${id}:cache-break`, label: t('Cache broken: {0}', x.cache.break.why ?? x.cache.break.cause), description: '', tooltip: t('The cache was written again with no new layer to explain it: the whole context was paid at the cache-write price. Likely cause: {0}', x.cache.break.why ?? x.cache.break.cause), icon: 'warning', warn: true });
      // a hook that ran after each of many calls: one row, how many times
      for (const [i, h] of groupHookRuns(x.hooks ?? []).entries()) {
        const what = h.dropped ? t('output dropped') : h.chars === null ? t('ran') : t('{0} chars to the model', n(h.chars, this.locale));
        out.push({
          id: `${id}:hook:${i}`,
          label: h.runs > 1 ? t('{0} hook ×{1} · {2}', h.event, h.runs, what) : t('{0} hook · {1}', h.event, what),
          description: h.commandFrom ? t('{0} (named from the settings)', h.command) : h.command || t('command not recorded'),
          tooltip: t('{0} hook: {1}\n{2}', h.event, h.commandFrom ? t('{0} (the transcript names only the event: the one {1} hook of the settings as they are now)', h.command, h.event) : h.command || t('command not recorded'), h.dropped ? t('it printed output that Claude Code did not pass to the model') : h.chars === null ? t('ran (its output is not in the transcript)') : t('{0} chars of its output reached the model', n(h.chars, this.locale))),
          icon: h.dropped ? 'warning' : 'zap',
          warn: h.dropped,
        });
      }
      for (const [i, mk] of (x.marks ?? []).entries())
        {
        const kind = this.markKind(mk.kind);
        // a local command by its name and arguments; an interrupt in words (its marker text is in the tooltip)
        if (mk.kind === 'compaction') {
          // what it cleared or kept, in figures (a microcompaction clears old tool results on its own, without a summary);
          // a whole compaction of this turn is its own row already (its size after and the files it dropped)
          const micro = mk.trigger === 'micro';
          if (!micro && turn.compacted) continue;
          const figures = [
            mk.cleared !== undefined ? t('{0} old tool results cleared', n(mk.cleared, this.locale)) : '',
            mk.saved !== undefined ? t('{0} tokens saved', n(mk.saved, this.locale)) : '',
            mk.preTokens ? t('{0} tokens before', n(mk.preTokens, this.locale)) : '',
            mk.summaryChars !== undefined ? t('summary {0} chars', n(mk.summaryChars, this.locale)) : '',
          ].filter(Boolean);
          const label = micro ? t('Old tool results cleared (microcompaction)') : mk.trigger === 'auto' ? t('Compacted on its own') : mk.trigger === 'manual' ? t('Compacted (/compact)') : kind;
          out.push({ id: `${id}:mark:${i}`, label, description: [...figures, this.when(mk.at)].filter(Boolean).join(' · '), tooltip: [label, ...figures, this.when(mk.at)].filter(Boolean).join('\n'), icon: 'fold', warn: true });
          continue;
        }
        const label = mk.kind === 'interrupt' ? t('Interrupted by the user') : !mk.text ? kind : oneLine(mk.text, 80);
        out.push({ id: `${id}:mark:${i}`, label, description: [mk.kind === 'interrupt' || label === kind ? '' : kind, this.when(mk.at)].filter(Boolean).join(' · '), tooltip: [kind, this.when(mk.at), mk.text].filter(Boolean).join('\n'), icon: mk.kind === 'interrupt' ? 'debug-pause' : 'bookmark' });
      }
      if (showInstructions && turn.instructions !== null)
        out.push({
          id: `${id}:instructions`,
          label: t('Startup block'),
          description: turn.instructionsFrom === 'disk' ? t('{0} chars · rebuilt from the disk (this version records no request)', n(turn.instructions.length, this.locale)) : t('{0} chars', n(turn.instructions.length, this.locale)),
          tooltip: turn.instructionsFrom === 'disk' ? t('The CLAUDE.md files and rules this turn started with, rebuilt from the disk as it is now: Claude Code {0} does not record the request. Click to read it.', m.session.version ?? '?') : t('The CLAUDE.md files and rules this turn\'s first request carried, as recorded. Click to read it.'),
          icon: 'book',
          open: { text: turn.instructions, title: `turn-${k + 1}-startup` },
        });
      if (turn.changedNotes) out.push({ id: `${id}:notes`, label: t('Changed-on-disk notes'), description: t('{0} chars', n(turn.changedNotes.length, this.locale)), tooltip: t('Claude Code told the model that files it had read changed on disk since. Click to read the notes.'), icon: 'diff', open: { text: turn.changedNotes, title: `turn-${k + 1}-notes` } });
      if (turn.restored)
        out.push({
          id: `${id}:restored`,
          label: t('Brought back by the compaction'),
          description: (turn.restored.files.length === 1 ? t('1 file') : t('{0} files', turn.restored.files.length)) + (turn.restored.skills ? t(' and the invoked skills') : ''),
          icon: 'fold-up',
          children: () => [
            ...turn.restored!.files.map((f) => {
              const r = this.fileRow(f.path, m);
              return { id: `${id}:r:${f.path}`, label: r.label, description: [r.folder, t('{0} chars', n(f.text.length, this.locale))].filter(Boolean).join(' · '), tooltip: f.path, open: { text: f.text, title: path.basename(f.path) }, icon: 'file' };
            }),
            ...(turn.restored!.skills ? [{ id: `${id}:rs`, label: t('Invoked skills'), description: t('{0} chars', n(turn.restored!.skills.length, this.locale)), open: { text: turn.restored!.skills, title: 'invoked-skills' }, icon: 'sparkle' }] : []),
          ],
        });
      const agents = agentsByCall(turn.calls, x.agents);
      turn.calls.forEach((c, i) => out.push(this.callNode(m, c, `${id}:call:${i}`, agents.ofCall.get(c.id))));
      // agents no call of the turn started (a run no call names: placed by the time it started)
      for (const a of agents.unplaced) out.push(this.agentNode(a, `${id}:agent:${a.agentId}`, true));
      return out;
    };
    const hasKids = !!turn.compacted || !!x.usage || x.cost != null || (x.requests ?? 0) > 1 || !!x.cache?.break || !!x.hooks?.length || !!x.marks?.length || showInstructions || !!turn.changedNotes || !!turn.restored || turn.calls.length > 0 || !!x.agents?.length;
    const when = this.when(turn.timestamp);
    const comp = (turn.resumed ? t(' · resumed') : '') + (turn.compacted ? (turn.compacted.trigger === 'auto' ? t(' · compacted on its own') : t(' · compacted')) : '');
    const prompt = oneLine(turn.prompt, 60) || (x.kind === 'image' ? t('[image]') : t('(empty prompt)'));
    const calls = turn.calls.length === 1 ? t('1 tool call') : t('{0} tool calls', turn.calls.length);
    const extra = [typeof x.cost === 'number' ? this.money(x.cost) : '', x.cache?.break ? t('cache broken') : ''].filter(Boolean).join(' · ');
    return {
      id,
      label: t('Turn {0}: {1}', k + 1, prompt),
      description: `${when}${comp} · ${calls}${extra ? ` · ${extra}` : ''}`,
      tooltip: [t('Turn {0}', k + 1) + (when ? ` · ${when}` : ''), oneLine(turn.prompt, 400), `${calls}${turn.requests ? ` · ${turn.requests === 1 ? t('1 request') : t('{0} requests', turn.requests)}` : ''}`, x.cache?.break ? t('Prompt cache broken: {0}', x.cache.break.cause) : ''].filter(Boolean).join('\n'),
      icon: x.cache?.break ? 'warning' : turn.compacted ? 'fold' : x.kind === 'command' ? 'terminal' : x.kind === 'image' ? 'file-media' : 'comment',
      warn: !!x.cache?.break,
      ...(hasKids ? { children: kids, expanded: false } : {}),
    };
  }

  /** an agent's own transcript counted under a turn: its requests, cost and tokens; opens its transcript */
  private agentNode(a: TurnAgentRow, id: string, named: boolean): Node {
    const { t } = this;
    const reqs = a.requests === 1 ? t('1 request') : t('{0} requests', a.requests);
    const money = typeof a.cost === 'number' ? this.money(a.cost) : '';
    const u = a.usage;
    const tokens = t('{0} in ({1} cache read, {2} cache write) · {3} out', n(u.input + u.cacheRead + u.cacheCreation, this.locale), n(u.cacheRead, this.locale), n(u.cacheCreation, this.locale), n(u.output, this.locale));
    return {
      id,
      label: [named && a.workflow ? t('Agent {0} (workflow {1})', a.agentId, a.workflow) : t('Agent {0}', a.agentId), reqs, money].filter(Boolean).join(' · '),
      description: tokens,
      tooltip: [t("{0}: the API requests of its own transcript, counted under this turn, their tokens and cost.", a.agentType ?? t('subagent')), a.transcript].join('\n'),
      icon: 'person',
      open: { file: a.transcript },
    };
  }

  private callNode(m: LiveModel, c: LiveCall, id: string, agents: TurnAgentRow[] = []): Node {
    const { t } = this;
    // what the call was about (call-target.ts, as the CLI shows it)
    const about = callTarget(c.input);
    const filePath = about.file;
    const file = filePath ? this.fileRow(filePath, m) : undefined;
    const target = file?.label ?? oneLine(about.text, 60);
    const kids: Node[] = [
      ...c.injected.map((i) => {
        const f = this.fileRow(i.path, m);
        return {
          id: `${id}:i:${i.path}`,
          label: f.label,
          description: [t('arrived after this call · {0} chars', n(i.text.length, this.locale)), f.folder].filter(Boolean).join(' · '),
          tooltip: t('{0}\nClaude Code added this file to the context after the {1} call{2}, as the text below it shows: it applies to the file the call touched.', i.path, c.name, c.timestamp ? ` (${this.when(c.timestamp)})` : ''),
          icon: 'file-add',
          open: { text: i.text, title: path.basename(i.path) },
        };
      }),
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
      ...this.startedNodes(agents, id),
    ];
    const status = c.error ? t('failed') : c.injected.length === 1 ? t('+1 instruction file') : c.injected.length ? t('+{0} instruction files', c.injected.length) : '';
    return {
      id,
      label: target ? `${c.name} ${target}` : c.name,
      description: [file?.folder, status].filter(Boolean).join(' · '),
      tooltip: [`${c.name}${filePath ? ` ${filePath}` : target ? ` ${target}` : ''}`, this.when(c.timestamp), c.error ? t('failed: {0}', oneLine(c.error, 200)) : '', c.injected.length ? t('brought {0}', c.injected.map((i) => path.basename(i.path)).join(', ')) : ''].filter(Boolean).join('\n'),
      icon: c.error ? 'error' : 'tools',
      ...(kids.length ? { children: () => kids } : {}),
    };
  }

  /** the agents a call started: a Workflow call's run as one row (its agents, requests and cost) holding them, an Agent
   *  call's subagent as its own row */
  private startedNodes(agents: TurnAgentRow[], id: string): Node[] {
    const { t } = this;
    const runs = new Map<string, TurnAgentRow[]>();
    const out: Node[] = [];
    for (const a of agents) {
      if (a.workflow === null) out.push(this.agentNode(a, `${id}:agent:${a.agentId}`, false));
      else runs.set(a.workflow, [...(runs.get(a.workflow) ?? []), a]);
    }
    for (const [run, list] of runs) {
      const cost = sumCosts(list.map((a) => a.cost));
      const requests = list.reduce((x, a) => x + a.requests, 0);
      out.push({
        id: `${id}:run:${run}`,
        label: [t('Workflow run {0}', run), cost !== null ? this.money(cost) : ''].filter(Boolean).join(' · '),
        description: t('{0} agents · {1} requests', list.length, requests),
        tooltip: t('The agents this Workflow call started, each with its own transcript: their API requests and cost count under this turn, also when they ran after it.'),
        icon: 'type-hierarchy',
        children: () => list.map((a) => this.agentNode(a, `${id}:run:${run}:${a.agentId}`, false)),
      });
    }
    return out;
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
                label: path.basename(f.path),
                description: [t('turn {0}, call {1}', f.turn + 1, f.call + 1), f.explained ? `${label(f)} · ${f.explained}` : label(f)].join(' · '),
                tooltip: [f.path, t('Turn {0}, call {1}: {2}', f.turn + 1, f.call + 1, label(f)), f.explained ?? ''].filter(Boolean).join('\n'),
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
