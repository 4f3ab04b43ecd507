// Draws a ViewState with DOM calls only: every file name, pattern and content excerpt goes in as a
// text node or an attribute value, never as markup. Interaction (click, Enter, Space) becomes a typed
// message to the host. Kept free of the custom element definitions so it runs in happy-dom.
import type { Action, Gauge, Row, Section, ViewState, WebviewMessage } from './protocol.js';

export interface UiMemory {
  /** open state of sections and branches the user toggled, by id */
  open: Record<string, boolean>;
}

export interface Renderer {
  update(state: ViewState): void;
  setBusy(busy: boolean): void;
  memory(): UiMemory;
}

type Post = (m: WebviewMessage) => void;

function el(doc: Document, tag: string, attrs: Record<string, string | undefined> = {}, ...children: (Node | string | undefined)[]): HTMLElement {
  const e = doc.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) e.setAttribute(k, v);
  for (const c of children) if (c !== undefined) e.append(typeof c === 'string' ? doc.createTextNode(c) : c);
  return e;
}

const SEVERITY_MARK: Record<string, string> = { error: '✕', warning: '⚠', info: 'ℹ' };

export function createRenderer(root: HTMLElement, post: Post, initial: UiMemory = { open: {} }): Renderer {
  const doc = root.ownerDocument;
  const mem: UiMemory = { open: { ...initial.open } };

  const button = (a: Action, secondary = true) => {
    const b = el(doc, 'vscode-button', { 'data-command': a.command }, a.label);
    if (secondary) b.setAttribute('secondary', '');
    return b;
  };

  const rowItem = (r: Row, depth: number): HTMLElement => {
    const item = el(doc, 'vscode-tree-item', { 'data-id': r.id, 'aria-label': r.aria, title: r.detail ?? r.aria, 'data-file': r.path, 'data-line': r.line?.toString() });
    if (depth > 0) item.setAttribute('slot', 'children');
    if (r.severity) {
      item.append(el(doc, 'span', { slot: 'icon-leaf', class: `sev sev-${r.severity}`, 'aria-hidden': 'true' }, SEVERITY_MARK[r.severity]));
    }
    item.append(el(doc, 'span', { class: 'row-label' }, r.label));
    if (r.description) item.append(el(doc, 'span', { slot: 'description', class: 'row-description' }, r.description));
    if (r.badge) item.append(el(doc, 'vscode-badge', { slot: 'decoration', class: 'row-badge' }, r.badge));
    if (r.children?.length) {
      const open = mem.open[r.id] ?? r.open ?? false;
      if (open) item.setAttribute('open', '');
      for (const c of r.children) item.append(rowItem(c, depth + 1));
    }
    return item;
  };

  const gaugeEl = (g: Gauge): HTMLElement => {
    const pct = g.max > 0 ? Math.min(100, (g.value / g.max) * 100) : 0;
    const fill = el(doc, 'div', { class: `fill level-${g.level}` });
    fill.style.width = `${pct.toFixed(2)}%`; // CSSOM, allowed under the CSP (no inline style attribute)
    const box = el(
      doc,
      'div',
      {
        class: `gauge level-${g.level}${g.path ? ' openable' : ''}`,
        role: 'meter',
        'aria-label': g.aria,
        'aria-valuemin': '0',
        'aria-valuemax': String(g.max),
        'aria-valuenow': String(Math.min(g.value, g.max)),
        'aria-valuetext': g.text,
        tabindex: '0',
        'data-id': `gauge/${g.id}`,
        'data-file': g.path,
        'data-line': g.line?.toString(),
        title: [g.text, g.note, g.detail].filter(Boolean).join('\n'),
      },
      el(doc, 'div', { class: 'gauge-head' }, el(doc, 'span', { class: 'gauge-label' }, g.label), el(doc, 'span', { class: 'gauge-text' }, g.text)),
      el(doc, 'div', { class: 'bar', 'aria-hidden': 'true' }, fill),
      g.note ? el(doc, 'div', { class: 'gauge-note' }, g.note) : undefined,
    );
    return box;
  };

  const sectionEl = (s: Section): HTMLElement => {
    const open = mem.open[`section/${s.id}`] ?? s.open;
    const c = el(doc, 'vscode-collapsible', { 'data-section': s.id, heading: s.title, description: s.summary, 'aria-label': s.summary ? `${s.title}, ${s.summary}` : s.title });
    if (open) c.setAttribute('open', '');
    const body = el(doc, 'div', { class: 'section-body' });
    if (s.headline) body.append(el(doc, 'p', { class: 'headline', role: 'status' }, s.headline));
    if (s.actions?.length) body.append(el(doc, 'div', { class: 'actions' }, ...s.actions.map((a) => button(a))));
    if (s.rows.length) {
      const tree = el(doc, 'vscode-tree', { 'aria-label': s.title, 'indent-guides': 'onHover' });
      for (const r of s.rows) tree.append(rowItem(r, 0));
      body.append(tree);
    } else if (s.empty) body.append(el(doc, 'p', { class: 'empty' }, s.empty));
    c.append(body);
    return c;
  };

  const focusedId = (): string | undefined => {
    let a: Element | null = doc.activeElement;
    while (a && !(a as HTMLElement).dataset?.id) a = a.parentElement;
    return (a as HTMLElement | null)?.dataset?.id;
  };

  function update(state: ViewState): void {
    const refocus = focusedId();
    const h = state.header;
    const header = el(
      doc,
      'header',
      { class: 'header', 'aria-label': `${h.version}, ${h.model}, ${h.launchDir}` },
      el(
        doc,
        'div',
        { class: 'title-line' },
        el(doc, 'span', { class: 'title' }, el(doc, 'span', { class: 'version' }, h.version), ' ', el(doc, 'span', { class: 'model' }, h.model)),
        button(h.change),
      ),
      el(doc, 'div', { class: 'launch', title: h.launchDir }, h.folder ? `${h.folder}: ${h.launchDir}` : h.launchDir),
      h.versionNote ? el(doc, 'div', { class: 'note' }, h.versionNote, ...(h.verify ? [' ', button(h.verify)] : [])) : undefined,
      h.restricted ? el(doc, 'div', { class: 'restricted', role: 'status' }, h.restricted) : undefined,
    );
    const gauges = el(doc, 'section', { class: 'gauges', 'aria-label': state.gaugesTitle }, ...state.gauges.map(gaugeEl));
    const gaugeBox = el(doc, 'vscode-collapsible', { 'data-section': 'gauges', heading: state.gaugesTitle, 'aria-label': state.gaugesTitle }, gauges);
    if (mem.open['section/gauges'] ?? true) gaugeBox.setAttribute('open', '');
    const parts: Node[] = [header];
    if (state.message) parts.push(el(doc, 'p', { class: 'message', role: 'alert' }, state.message));
    // the file-related sections first, then the budgets, then the step-by-step session
    const sections = state.sections.map(sectionEl);
    const session = state.sections.findIndex((s) => s.id === 'session');
    if (session >= 0) sections.splice(session, 0, gaugeBox);
    else sections.push(gaugeBox);
    parts.push(...sections);
    root.replaceChildren(...parts);
    root.setAttribute('aria-busy', 'false');
    if (refocus) {
      const again = root.querySelector<HTMLElement>(`[data-id="${cssEscape(refocus)}"]`);
      again?.focus();
    }
  }

  const openFrom = (target: Element | null): boolean => {
    const host = target?.closest<HTMLElement>('[data-file]');
    const file = host?.dataset.file;
    if (!host || !file) return false;
    const line = host.dataset.line ? Number(host.dataset.line) : undefined;
    post(line ? { type: 'open', path: file, line } : { type: 'open', path: file });
    return true;
  };

  const commandFrom = (target: Element | null): boolean => {
    const b = target?.closest<HTMLElement>('[data-command]');
    const cmd = b?.dataset.command;
    if (!cmd) return false;
    post({ type: 'command', command: cmd as Action['command'] });
    return true;
  };

  // Capture phase: vscode-tree and vscode-tree-item stop click and Enter from bubbling. At the root the
  // target is already retargeted from the item's shadow DOM to the item itself.
  root.addEventListener(
    'click',
    (e) => {
      const t = e.target as Element | null;
      if (commandFrom(t)) return;
      openFrom(t);
    },
    true,
  );
  root.addEventListener(
    'keydown',
    (e) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      const t = e.target as Element | null;
      // vscode-button turns Enter/Space into a click itself; rows and gauges open here
      if (t?.closest('[data-command]')) return;
      if (t?.matches('.gauge') ? openFrom(t) : e.key === 'Enter' && openFrom(t)) e.preventDefault();
    },
    true,
  );
  root.addEventListener('vsc-collapsible-toggle', (e) => {
    const t = e.target as HTMLElement;
    const id = t.dataset.section;
    if (id) mem.open[`section/${id}`] = (e as CustomEvent<{ open: boolean }>).detail.open;
  });
  const rememberBranches = () =>
    // remember branch states the user toggled (vscode-tree-item has no toggle event)
    queueMicrotask(() => {
      for (const item of root.querySelectorAll<HTMLElement & { open?: boolean }>('vscode-tree-item[data-id]')) {
        if (item.querySelector(':scope > vscode-tree-item') && typeof item.open === 'boolean') mem.open[item.dataset.id!] = item.open;
      }
    });
  root.addEventListener('click', rememberBranches, true);
  root.addEventListener('keydown', rememberBranches, true);

  return {
    update,
    setBusy: (busy) => root.setAttribute('aria-busy', String(busy)),
    memory: () => mem,
  };
}

function cssEscape(s: string): string {
  return s.replace(/["\\]/g, '\\$&');
}
