// Draws a ViewState with DOM calls only: every file name, pattern and content excerpt goes in as a
// text node or an attribute value, never as markup. Sections are disclosure buttons (aria-expanded)
// in headings, rows an ARIA tree with roving focus (arrows, Home/End, Enter/Space); the open state
// of sections, branches and help texts, and the scroll position, live in a UiMemory the entry point
// keeps with the webview's getState/setState, so they survive editor switches and reloads.
// Kept free of custom element definitions so it runs in happy-dom.
import { shown, type Action, type Gauge, type LiveHeadline, type Row, type Section, type SectionId, type TopAnswer, type UiMemoryData, type ViewState, type WebviewMessage } from './protocol.js';

/** open state of sections (`section/<id>`), branches (row id) and help texts (`help/<id>`) the user toggled; the scroll position */
export type UiMemory = UiMemoryData;

export interface Renderer {
  /** `reveal`: a section to bring into view afterwards (the active file's, after an editor switch) */
  update(state: ViewState, reveal?: SectionId): void;
  /** replaces these sections only (by id), and the top lines when given, keeping the rest of the view as it is */
  patch(sections: Section[], extra?: { top?: TopAnswer; live?: LiveHeadline; reveal?: SectionId }): void;
  /** the memory the host kept (after a reload), applied when it is newer than the webview's own */
  restore(m: UiMemory): void;
  setBusy(busy: boolean): void;
  memory(): UiMemory;
}

type Post = (m: WebviewMessage) => void;

export interface RendererOptions {
  /** called whenever the memory changes (a toggle, a scroll) */
  save?: (m: UiMemory) => void;
  /** the element that scrolls (the document's scrolling element in the webview) */
  scroller?: () => { scrollTop: number } | null;
}

/** attributes a person reads (tooltips, accessible names); the others carry ids and commands */
const READ_ATTRS = new Set(['title', 'aria-label']);

function el(doc: Document, tag: string, attrs: Record<string, string | undefined> = {}, ...children: (Node | string | undefined)[]): HTMLElement {
  const e = doc.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) e.setAttribute(k, READ_ATTRS.has(k) ? shown(v) : v);
  for (const c of children) if (c !== undefined) e.append(typeof c === 'string' ? doc.createTextNode(shown(c)) : c);
  return e;
}

const SEVERITY_ICON: Record<string, string> = { error: 'error', warning: 'warning', info: 'info' };

/** splits a path-like label before its last segment: the segment is what tells rows apart */
export function splitLabel(label: string): [string, string] {
  const trimmed = label.endsWith('/') ? label.slice(0, -1) : label;
  const i = trimmed.lastIndexOf('/');
  if (i <= 0) return ['', label];
  return [label.slice(0, i + 1), label.slice(i + 1)];
}

const safeId = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');

export function createRenderer(root: HTMLElement, post: Post, initial: UiMemory = { open: {} }, opts: RendererOptions = {}): Renderer {
  const doc = root.ownerDocument;
  const mem: UiMemory = { open: { ...initial.open }, scroll: initial.scroll, savedAt: initial.savedAt };
  let first = true;
  const save = () => {
    mem.savedAt = Date.now();
    opts.save?.({ open: { ...mem.open }, scroll: mem.scroll, savedAt: mem.savedAt });
  };

  const codicon = (name: string, cls = '') => el(doc, 'span', { class: `codicon codicon-${name}${cls ? ` ${cls}` : ''}`, 'aria-hidden': 'true' });

  const button = (a: Action, secondary = true) => {
    const b = el(doc, 'vscode-button', { 'data-command': a.command }, a.label);
    if (secondary) b.setAttribute('secondary', '');
    return b;
  };

  const labelEl = (label: string): HTMLElement => {
    const [dir, name] = splitLabel(label);
    const box = el(doc, 'span', { class: 'row-label' });
    if (dir) box.append(el(doc, 'span', { class: 'label-dir' }, dir));
    box.append(el(doc, 'span', { class: 'label-name' }, name));
    return box;
  };

  const itemEl = (r: Row, level: number): HTMLElement => {
    const branch = !!r.children?.length;
    const open = branch && (mem.open[r.id] ?? r.open ?? false);
    const li = el(doc, 'li', {
      role: 'treeitem',
      class: 'item',
      'aria-level': String(level),
      'aria-label': r.aria,
      'aria-expanded': branch ? String(open) : undefined,
      tabindex: '-1',
      'data-id': r.id,
      'data-file': r.path,
      'data-line': r.line?.toString(),
    });
    const row = el(doc, 'div', { class: 'row', title: r.detail ?? r.aria });
    row.style.paddingLeft = `${4 + (level - 1) * 12}px`; // CSSOM, allowed under the CSP (no inline style attribute)
    row.append(branch ? codicon(open ? 'chevron-down' : 'chevron-right', 'twistie') : el(doc, 'span', { class: 'twistie', 'aria-hidden': 'true' }));
    if (r.severity) row.append(codicon(SEVERITY_ICON[r.severity]!, `sev sev-${r.severity}`));
    const text = el(doc, 'div', { class: 'row-text' });
    const line = el(doc, 'div', { class: 'row-line' }, labelEl(r.label));
    if (r.mark) line.append(el(doc, 'span', { class: 'row-mark' }, r.mark));
    text.append(line);
    if (r.description) text.append(el(doc, 'div', { class: 'row-description' }, r.description));
    row.append(text);
    if (r.badge) row.append(el(doc, 'span', { class: 'row-badge' }, r.badge));
    li.append(row);
    if (branch) {
      const group = el(doc, 'ul', { role: 'group', class: 'group' });
      if (!open) group.hidden = true;
      for (const c of r.children!) group.append(itemEl(c, level + 1));
      li.append(group);
    }
    return li;
  };

  const treeEl = (label: string, rows: Row[]): HTMLElement => {
    const tree = el(doc, 'ul', { role: 'tree', class: 'tree', 'aria-label': label });
    for (const r of rows) tree.append(itemEl(r, 1));
    const firstItem = tree.querySelector('[role="treeitem"]');
    firstItem?.setAttribute('tabindex', '0');
    return tree;
  };

  const gaugeEl = (g: Gauge): HTMLElement => {
    const pct = g.max > 0 ? Math.min(100, (g.value / g.max) * 100) : 0;
    const fill = el(doc, 'div', { class: `fill level-${g.level}` });
    fill.style.width = `${pct.toFixed(2)}%`;
    return el(
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
        title: [g.text, g.note, g.counts, g.detail].filter(Boolean).join('\n'),
      },
      el(doc, 'div', { class: 'gauge-head' }, el(doc, 'span', { class: 'gauge-label' }, g.label), el(doc, 'span', { class: 'gauge-text' }, g.text)),
      el(doc, 'div', { class: 'bar', 'aria-hidden': 'true' }, fill),
      g.note ? el(doc, 'div', { class: 'gauge-note' }, g.note) : undefined,
      g.counts ? el(doc, 'div', { class: 'gauge-counts' }, g.counts) : undefined,
    );
  };

  /** a disclosure section: a heading holding the toggle button (and the `?` button), then the body */
  const sectionEl = (id: string, title: string, summary: string | undefined, help: string | undefined, helpLabel: string, defaultOpen: boolean, body: Node[]): HTMLElement => {
    const open = mem.open[`section/${id}`] ?? defaultOpen;
    const sid = safeId(id);
    const toggle = el(
      doc,
      'button',
      { type: 'button', class: 'section-toggle', id: `head-${sid}`, 'aria-expanded': String(open), 'aria-controls': `body-${sid}`, 'aria-label': summary ? `${title}, ${summary}` : title, 'data-toggle': id },
      codicon(open ? 'chevron-down' : 'chevron-right', 'chevron'),
      el(doc, 'span', { class: 'section-title' }, title),
      summary ? el(doc, 'span', { class: 'section-summary' }, summary) : undefined,
    );
    // the heading holds only the disclosure button (its name is the heading's name); the ? sits beside it
    const head = el(doc, 'div', { class: 'section-head' }, el(doc, 'h2', { class: 'section-heading' }, toggle));
    const bodyEl = el(doc, 'div', { class: 'section-body', id: `body-${sid}`, role: 'region', 'aria-labelledby': `head-${sid}` });
    const parts: Node[] = [head];
    if (help) {
      const helpOpen = mem.open[`help/${id}`] ?? false;
      head.append(
        el(doc, 'button', { type: 'button', class: 'icon-button help-toggle', 'aria-label': helpLabel, title: helpLabel, 'aria-expanded': String(helpOpen), 'aria-controls': `help-${sid}`, 'data-help': id }, codicon('question')),
      );
      // the help shows even when the section is collapsed: it sits between the heading and the body
      const helpText = el(doc, 'p', { class: 'help-text', id: `help-${sid}` }, help);
      if (!helpOpen) helpText.hidden = true;
      parts.push(helpText);
    }
    bodyEl.append(...body);
    if (!open) bodyEl.hidden = true;
    return el(doc, 'section', { class: `section${open ? ' open' : ''}`, 'data-section': id }, ...parts, bodyEl);
  };

  const contentSection = (s: Section, helpLabel: string): HTMLElement => {
    const body: Node[] = [];
    if (s.headline) body.push(el(doc, 'p', { class: 'headline', role: 'status' }, s.headline));
    if (s.actions?.length) body.push(el(doc, 'div', { class: 'actions' }, ...s.actions.map((a) => button(a))));
    if (s.rows.length) body.push(treeEl(s.title, s.rows));
    else if (s.empty) body.push(el(doc, 'p', { class: 'empty' }, s.empty));
    return sectionEl(s.id, s.title, s.summary, s.help, helpLabel.replace('{0}', s.title), s.open, body);
  };

  /** the two lines that answer first (always loaded; what reading the active file adds), and the live session's line */
  const topEl = (top: TopAnswer | undefined, live: LiveHeadline | undefined): HTMLElement | undefined => {
    if (!top && !live) return undefined;
    const box = el(doc, 'div', { class: 'top', 'aria-label': [top?.aria, live ? `${live.label}${live.ended ? `, ${live.ended}` : ''}` : undefined].filter(Boolean).join('; ') });
    if (top) {
      box.append(el(doc, 'div', { class: 'top-line top-always' }, top.always));
      if (top.file) box.append(el(doc, 'div', { class: 'top-line top-file' }, top.file));
    }
    if (live) {
      const pct = live.window > 0 ? Math.min(100, (live.tokens / live.window) * 100) : 0;
      const fill = el(doc, 'div', { class: `fill level-${pct >= 80 ? 'over' : pct >= 50 ? 'warn' : 'ok'}` });
      fill.style.width = `${pct.toFixed(2)}%`;
      box.append(
        el(doc, 'div', { class: `top-line top-live${live.ended ? ' ended' : ''}` }, live.label, live.ended ? el(doc, 'span', { class: 'top-ended' }, ` · ${live.ended}`) : undefined),
        el(doc, 'div', { class: 'bar top-bar', 'aria-hidden': 'true' }, fill),
      );
    }
    return box;
  };

  /** the section's heading into view when it is out of view (scrolled past, or below the fold) */
  const reveal = (id: SectionId | undefined) => {
    if (!id) return;
    const sec = root.querySelector<HTMLElement>(`section.section[data-section="${cssEscape(id)}"]`);
    const sc = scroller();
    if (!sec || !sc) return;
    const r = sec.getBoundingClientRect();
    const view = doc.defaultView?.innerHeight ?? 0;
    // the heading and the first rows in view: nothing to do
    if (r.top >= 0 && r.top < view * 0.6) return;
    if (typeof sec.scrollIntoView === 'function') sec.scrollIntoView({ block: 'start' });
    mem.scroll = Math.max(0, Math.round(sc.scrollTop));
  };

  const focusedId = (): string | undefined => {
    let a: Element | null = doc.activeElement;
    while (a && a !== root && !(a as HTMLElement).dataset?.id && !(a as HTMLElement).dataset?.toggle) a = a.parentElement;
    const h = a as HTMLElement | null;
    if (!h || h === root) return undefined;
    return h.dataset.id ? `id:${h.dataset.id}` : `toggle:${h.dataset.toggle}`;
  };

  const scroller = () => opts.scroller?.() ?? null;

  let helpLabelNow = '{0}: ?';
  let current: ViewState | undefined;

  const refocusAfter = (refocus: string | undefined) => {
    if (!refocus) return;
    const [kind, id] = [refocus.slice(0, refocus.indexOf(':')), refocus.slice(refocus.indexOf(':') + 1)];
    const again = root.querySelector<HTMLElement>(kind === 'id' ? `[data-id="${cssEscape(id)}"]` : `[data-toggle="${cssEscape(id)}"]`);
    if (again) {
      focusItem(again, false);
      // only while the webview has the focus: its document remembers its last focused row after the
      // user went to the editor, and focus() there would take the keyboard from the editor
      if (doc.hasFocus()) again.focus({ preventScroll: true });
    }
  };

  function patch(sections: Section[], extra: { top?: TopAnswer; live?: LiveHeadline; reveal?: SectionId } = {}): void {
    if (!current) return;
    const refocus = focusedId();
    const sc = scroller();
    const y = sc?.scrollTop ?? 0;
    if (extra.top || extra.live) {
      current = { ...current, ...(extra.top ? { top: extra.top } : {}), ...(extra.live ? { live: extra.live } : {}) };
      const fresh = topEl(current.top, current.live);
      const old = root.querySelector('.top');
      if (old && fresh) old.replaceWith(fresh);
      else if (fresh) root.querySelector('header')?.after(fresh);
    }
    for (const s of sections) {
      const old = root.querySelector(`section.section[data-section="${cssEscape(s.id)}"]`);
      const k = current.sections.findIndex((x) => x.id === s.id);
      if (!old || k < 0) return update({ ...current, sections: current.sections.map((x) => sections.find((n) => n.id === x.id) ?? x) }, extra.reveal);
      current.sections[k] = s;
      old.replaceWith(contentSection(s, helpLabelNow));
    }
    if (sc) sc.scrollTop = y;
    reveal(extra.reveal);
    refocusAfter(refocus);
  }

  function update(state: ViewState, revealId?: SectionId): void {
    current = { ...state, sections: [...state.sections] };
    helpLabelNow = state.helpLabel ?? '{0}: ?';
    const refocus = focusedId();
    const sc = scroller();
    const y = first ? (mem.scroll ?? 0) : (sc?.scrollTop ?? 0);
    const h = state.header;
    const helpLabel = state.helpLabel ?? '{0}: ?';
    // one line: the version and the model; the launch folder and where the version came from are behind
    // "Change…" (and in the tooltip); a multi-root workspace names its folder
    const header = el(
      doc,
      'header',
      { class: 'header', 'aria-label': [h.version, h.model, h.folder].filter(Boolean).join(', '), title: [h.launchDir, h.source].filter(Boolean).join('\n') },
      el(
        doc,
        'div',
        { class: 'title-line' },
        el(doc, 'span', { class: 'title' }, el(doc, 'span', { class: 'version' }, h.version), ' ', el(doc, 'span', { class: 'model' }, h.model), h.folder ? el(doc, 'span', { class: 'folder' }, ` · ${h.folder}`) : undefined),
        button(h.change),
      ),
      h.versionNote ? el(doc, 'div', { class: 'note' }, h.versionNote, ...(h.verify ? [' ', button(h.verify)] : [])) : undefined,
      h.versionAction ? el(doc, 'div', { class: 'actions header-actions' }, button(h.versionAction)) : undefined,
      h.restricted ? el(doc, 'div', { class: 'restricted', role: 'status' }, h.restricted) : undefined,
    );
    const gauges = el(doc, 'div', { class: 'gauges', role: 'group', 'aria-label': state.gaugesTitle }, ...state.gauges.map(gaugeEl));
    const gaugeBox = sectionEl('gauges', state.gaugesTitle, undefined, state.gaugesHelp, helpLabel.replace('{0}', state.gaugesTitle), true, [gauges]);
    const parts: Node[] = [header];
    const top = topEl(state.top, state.live);
    if (top) parts.push(top);
    if (state.message) parts.push(el(doc, 'p', { class: 'message', role: 'alert' }, state.message));
    // the sections in the host's order (the active file's first), then the budgets
    parts.push(...state.sections.map((s) => contentSection(s, helpLabel)), gaugeBox);
    root.replaceChildren(...parts);
    root.setAttribute('aria-busy', 'false');
    if (sc) sc.scrollTop = y;
    first = false;
    reveal(revealId);
    refocusAfter(refocus);
  }

  // ---- interaction --------------------------------------------------------------------------------
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

  const toggleSection = (btn: HTMLElement) => {
    const id = btn.dataset.toggle!;
    const open = btn.getAttribute('aria-expanded') !== 'true';
    btn.setAttribute('aria-expanded', String(open));
    const chevron = btn.querySelector('.chevron');
    chevron?.classList.toggle('codicon-chevron-down', open);
    chevron?.classList.toggle('codicon-chevron-right', !open);
    const body = doc.getElementById(btn.getAttribute('aria-controls') ?? '');
    if (body) body.hidden = !open;
    btn.closest('.section')?.classList.toggle('open', open);
    mem.open[`section/${id}`] = open;
    save();
  };

  const toggleHelp = (btn: HTMLElement) => {
    const open = btn.getAttribute('aria-expanded') !== 'true';
    btn.setAttribute('aria-expanded', String(open));
    const text = doc.getElementById(btn.getAttribute('aria-controls') ?? '');
    if (text) text.hidden = !open;
    mem.open[`help/${btn.dataset.help}`] = open;
    save();
  };

  const isBranch = (item: HTMLElement) => item.hasAttribute('aria-expanded');
  const setBranch = (item: HTMLElement, open: boolean) => {
    if (!isBranch(item)) return;
    item.setAttribute('aria-expanded', String(open));
    const group = item.querySelector<HTMLElement>(':scope > [role="group"]');
    if (group) group.hidden = !open;
    const tw = item.querySelector(':scope > .row > .twistie');
    tw?.classList.toggle('codicon-chevron-down', open);
    tw?.classList.toggle('codicon-chevron-right', !open);
    mem.open[item.dataset.id!] = open;
    save();
  };

  const visibleItems = (tree: Element): HTMLElement[] =>
    [...tree.querySelectorAll<HTMLElement>('[role="treeitem"]')].filter((i) => {
      for (let g = i.parentElement; g && g !== tree; g = g.parentElement) if (g.hidden) return false;
      return true;
    });

  /** roving tabindex: the focused item is the tree's one tab stop */
  function focusItem(item: HTMLElement, move = true): void {
    const tree = item.closest('[role="tree"]');
    if (!tree || item.getAttribute('role') !== 'treeitem') return;
    for (const i of tree.querySelectorAll<HTMLElement>('[role="treeitem"][tabindex="0"]')) i.setAttribute('tabindex', '-1');
    item.setAttribute('tabindex', '0');
    if (move) item.focus();
  }

  const treeKey = (e: KeyboardEvent, item: HTMLElement): boolean => {
    const tree = item.closest('[role="tree"]')!;
    const items = visibleItems(tree);
    const k = items.indexOf(item);
    switch (e.key) {
      case 'ArrowDown':
        if (items[k + 1]) focusItem(items[k + 1]!);
        return true;
      case 'ArrowUp':
        if (k > 0) focusItem(items[k - 1]!);
        return true;
      case 'Home':
        if (items[0]) focusItem(items[0]);
        return true;
      case 'End':
        if (items.length) focusItem(items[items.length - 1]!);
        return true;
      case 'ArrowRight':
        if (isBranch(item)) {
          if (item.getAttribute('aria-expanded') !== 'true') setBranch(item, true);
          else {
            const child = item.querySelector<HTMLElement>(':scope > [role="group"] > [role="treeitem"]');
            if (child) focusItem(child);
          }
        }
        return true;
      case 'ArrowLeft':
        if (isBranch(item) && item.getAttribute('aria-expanded') === 'true') setBranch(item, false);
        else {
          const parent = item.parentElement?.closest<HTMLElement>('[role="treeitem"]');
          if (parent) focusItem(parent);
        }
        return true;
      case 'Enter':
        if (!openFrom(item)) setBranch(item, item.getAttribute('aria-expanded') !== 'true');
        return true;
      case ' ':
        if (isBranch(item)) setBranch(item, item.getAttribute('aria-expanded') !== 'true');
        else openFrom(item);
        return true;
      default:
        return false;
    }
  };

  root.addEventListener('click', (e) => {
    const t = e.target as Element | null;
    if (!t) return;
    if (commandFrom(t)) return;
    const tog = t.closest<HTMLElement>('[data-toggle]');
    if (tog) return toggleSection(tog);
    const help = t.closest<HTMLElement>('[data-help]');
    if (help) return toggleHelp(help);
    const gauge = t.closest<HTMLElement>('.gauge');
    if (gauge) {
      openFrom(gauge);
      return;
    }
    const item = t.closest<HTMLElement>('[role="treeitem"]');
    if (!item) return;
    focusItem(item);
    // the chevron toggles; elsewhere a row with a file opens it, a group toggles
    if (t.closest('.twistie') || !item.dataset.file) setBranch(item, item.getAttribute('aria-expanded') !== 'true');
    else openFrom(item);
  });
  root.addEventListener('keydown', (e) => {
    const t = e.target as HTMLElement | null;
    if (!t || t.closest('[data-command]')) return; // vscode-button turns Enter/Space into a click itself
    if (t.matches('button')) return; // native buttons: Enter and Space click
    if (t.matches('.gauge')) {
      if ((e.key === 'Enter' || e.key === ' ') && openFrom(t)) e.preventDefault();
      return;
    }
    if (t.getAttribute('role') === 'treeitem' && treeKey(e, t)) {
      e.preventDefault();
      e.stopPropagation();
    }
  });
  root.addEventListener('focusin', (e) => {
    const t = e.target as HTMLElement | null;
    if (t?.getAttribute('role') === 'treeitem') focusItem(t, false);
  });

  return {
    update,
    patch,
    restore: (m) => {
      // the newer copy wins
      if ((m.savedAt ?? 0) < (mem.savedAt ?? 0)) return;
      mem.open = { ...mem.open, ...m.open };
      mem.savedAt = m.savedAt;
      if (first && m.scroll !== undefined) mem.scroll = m.scroll;
      if (current) update(current);
    },
    setBusy: (busy) => root.setAttribute('aria-busy', String(busy)),
    memory: () => mem,
  };
}

/** records the scroll position in a renderer's memory (the entry point calls it on scroll) */
export function recordScroll(r: Renderer, y: number): void {
  r.memory().scroll = Math.max(0, Math.round(y));
}

function cssEscape(s: string): string {
  return s.replace(/["\\]/g, '\\$&');
}
