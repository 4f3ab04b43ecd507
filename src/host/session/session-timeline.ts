// The sidebar's session timeline: steps the user picks (a read, edit or bash of a file, a skill, a
// subagent, an edit of a file between turns, /compact, /clear) become a session script for the
// engine's session model; each step then shows what it adds, the running total against the context
// window, and which text of each instruction file the model holds at that point. No vscode import:
// the host passes the analysis and its formatting.
import { hookKey, renderLazy, simulateSessionOver, type Analysis, type LazyInjection, type SessionResult, type TurnResult } from '../../engine/index.js';
import type { Row } from '../../../webview/protocol.js';
import type { Translate } from '../format.js';
import { idPart, RowIds } from '../sidebar/index.js';

export type TimelineStep =
  | { kind: 'read' | 'edit' | 'bash'; file: string }
  | { kind: 'skill'; name: string; args?: string }
  | { kind: 'agent'; type: string }
  /** the user saves `file` with `content` between turns */
  | { kind: 'change'; file: string; content: string }
  | { kind: 'compact' }
  | { kind: 'clear' };

/** steps from stored state (workspaceState, a webview message): anything malformed is dropped */
export function validSteps(v: unknown, max = 200): TimelineStep[] {
  if (!Array.isArray(v)) return [];
  const out: TimelineStep[] = [];
  for (const s of v.slice(0, max)) {
    if (!s || typeof s !== 'object') continue;
    const o = s as Record<string, unknown>;
    const str = (k: string) => {
      const x = o[k];
      return typeof x === 'string' ? x : undefined;
    };
    if ((o.kind === 'read' || o.kind === 'edit' || o.kind === 'bash') && str('file')) out.push({ kind: o.kind, file: str('file')! });
    else if (o.kind === 'skill' && str('name')) out.push({ kind: 'skill', name: str('name')!, ...(str('args') !== undefined && { args: str('args') }) });
    else if (o.kind === 'agent' && str('type')) out.push({ kind: 'agent', type: str('type')! });
    else if (o.kind === 'change' && str('file') && str('content') !== undefined && str('content')!.length <= 4 * 1024 * 1024) out.push({ kind: 'change', file: str('file')!, content: str('content')! });
    else if (o.kind === 'compact' || o.kind === 'clear') out.push({ kind: o.kind });
  }
  return out;
}

interface Placed {
  turn: number;
  call?: number;
}

type Turn = { prompt: string; before?: { write: string; content: string }[]; calls: { name: string; input: Record<string, unknown> }[] };

/** the session script for the steps, and where each step lands in it */
export function stepsToScript(steps: readonly TimelineStep[], read: (file: string) => string | undefined): { turns: Turn[]; placed: Placed[] } {
  const turns: Turn[] = [{ prompt: 'task', calls: [] }];
  const placed: Placed[] = [];
  let open = true; // the last turn takes calls
  const call = (name: string, input: Record<string, unknown>) => {
    if (!open) {
      turns.push({ prompt: 'go on', calls: [] });
      open = true;
    }
    const t = turns[turns.length - 1]!;
    t.calls.push({ name, input });
    placed.push({ turn: turns.length - 1, call: t.calls.length - 1 });
  };
  for (const s of steps) {
    switch (s.kind) {
      case 'read':
        call('Read', { file_path: s.file });
        break;
      case 'edit':
        // what the model changes is not known: a write of the file's own text triggers the same loading
        call('Write', { file_path: s.file, content: read(s.file) ?? '' });
        break;
      case 'bash':
        call('Bash', { command: `cat ${s.file}` });
        break;
      case 'skill':
        call('Skill', { skill: s.name, ...(s.args && { args: s.args }) });
        break;
      case 'agent':
        call('Agent', { subagent_type: s.type, prompt: '', description: '' });
        break;
      case 'change':
        turns.push({ prompt: 'next turn', before: [{ write: s.file, content: s.content }], calls: [] });
        placed.push({ turn: turns.length - 1 });
        open = true;
        break;
      case 'compact':
      case 'clear':
        turns.push({ prompt: `/${s.kind}`, calls: [] });
        placed.push({ turn: turns.length - 1 });
        open = false;
        break;
    }
  }
  return { turns, placed };
}

export interface TimelineFormat {
  t: Translate;
  num: (n: number) => string;
  tokens: (chars: number) => number;
  rel: (p: string) => string;
  /** the model's context window, tokens */
  window: number;
  /** the rows of what a touch injects, as the sidebar draws them elsewhere (files, then Claude Code's framing) */
  injectionRows: (idPrefix: string, injected: LazyInjection[]) => Row[];
  /** where the timeline starts: the sidebar's Startup figure (the CLAUDE.md block and the skills listing);
   *  default: the session model's first request instructions */
  startupChars?: number;
  /** the skills listing's chars in that figure: named where /clear and /compact start over without it */
  listingChars?: number;
  /** what each hook (hookKey) printed when a session of this launch directory last ran it */
  hookOutputs?: ReadonlyMap<string, { chars: number }>;
}

export interface Timeline {
  rows: Row[];
  /** running total after the last step, ≈tokens */
  total: number;
  result: SessionResult;
}

function stepLabel(s: TimelineStep, k: number, f: TimelineFormat): string {
  const { t, rel } = f;
  switch (s.kind) {
    case 'read':
      return t('{0}. Read {1}', k, rel(s.file));
    case 'edit':
      return t('{0}. Edit {1}', k, rel(s.file));
    case 'bash':
      return t('{0}. Bash cat {1}', k, rel(s.file));
    case 'skill':
      return t('{0}. Skill {1}', k, s.name);
    case 'agent':
      return t('{0}. Subagent {1}', k, s.type);
    case 'change':
      return t('{0}. You save {1} between turns', k, rel(s.file));
    case 'compact':
      return t('{0}. /compact', k);
    case 'clear':
      return t('{0}. /clear', k);
  }
}

const fileRow = (id: string, label: string, description: string, f: TimelineFormat, path?: string, chars?: number, detail?: string): Row => ({
  id,
  label,
  description,
  ...(chars !== undefined && { badge: f.t('{0} chars', f.num(chars)) }),
  ...(detail !== undefined && { detail }),
  aria: chars !== undefined ? f.t('{0}: {1}, {2} chars', label, description, f.num(chars)) : f.t('{0}: {1}', label, description),
  ...(path && { path }),
});

/** a row for a file: its name first (a narrow sidebar cuts the description, never the name), its folder
 *  leading the dimmed description, the whole path and the reason in the tooltip */
function pathRow(id: string, file: string, why: string, f: TimelineFormat, chars?: number): Row {
  const rel = f.rel(file);
  const cut = Math.max(rel.lastIndexOf('/'), rel.lastIndexOf('\\'));
  const name = cut >= 0 && cut < rel.length - 1 ? rel.slice(cut + 1) : rel;
  const folder = cut > 0 && cut < rel.length - 1 ? rel.slice(0, cut) : '';
  return fileRow(id, name, folder ? `${folder} · ${why}` : why, f, file, chars, `${rel}\n${why}`);
}

/** the instruction files whose text the model holds differs from the disk after this turn */
function heldRows(turn: TurnResult, id: string, f: TimelineFormat): Row[] {
  const ids = new RowIds(`${id}/held`);
  return turn.unnoticed.map((u) => pathRow(ids.take(idPart(u.path)), u.path, f.t('the model keeps the earlier text: {0}', u.why), f));
}

/** the last timeline of each analysis: an editor switch redraws the sidebar without simulating the session again */
const memo = new WeakMap<Analysis, { key: string; t: Translate; timeline: Timeline }>();

export function buildTimeline(a: Analysis, steps: readonly TimelineStep[], f: TimelineFormat, read: (file: string) => string | undefined): Timeline {
  const key = JSON.stringify([steps, f.window, f.tokens(3000), f.startupChars, f.listingChars, [...(f.hookOutputs ?? [])].map(([k, v]) => [k, v.chars])]);
  const hit = memo.get(a);
  if (hit && hit.key === key && hit.t === f.t) return hit.timeline;
  const timeline = simulateTimeline(a, steps, f, read);
  memo.set(a, { key, t: f.t, timeline });
  return timeline;
}

function simulateTimeline(a: Analysis, steps: readonly TimelineStep[], f: TimelineFormat, read: (file: string) => string | undefined): Timeline {
  const { t, num, tokens } = f;
  const { turns, placed } = stepsToScript(steps, read);
  const result = simulateSessionOver(a, turns);
  const startup = f.startupChars ?? result.turns[0]?.instructions?.length ?? 0;
  const listing = f.listingChars ?? 0;
  // after /clear and /compact the model's figure is the rebuilt block; whether the listing is sent again is not measured: say so
  const noListing = listing ? ` ${t('(the skills listing, ≈{0} tokens, is not counted after it)', num(tokens(listing)))}` : '';
  let running = startup;
  const rows: Row[] = [];
  steps.forEach((s, i) => {
    const where = placed[i]!;
    const turn = result.turns[where.turn];
    const id = `session/${i}`;
    const label = stepLabel(s, i + 1, f);
    let chars = 0;
    let description = '';
    const children: Row[] = [];
    // children's ids from what they are (a file, a command), unique under the step
    const ids = new Map<string, RowIds>();
    const idOf = (kind: string, what: string) => {
      const r = ids.get(kind) ?? new RowIds(`${id}/${kind}`);
      ids.set(kind, r);
      return r.take(idPart(what));
    };
    if (!turn) return;
    const c = where.call !== undefined ? turn.calls[where.call] : undefined;
    if (c && (s.kind === 'read' || s.kind === 'edit' || s.kind === 'bash')) {
      // counted as the sidebar's lazy headlines count it: the text sent, framing included
      chars = renderLazy(a.profile, c.injected).join('').length;
      description = c.injected.length === 0 ? t('nothing new') : c.injected.length === 1 ? t('+1 file') : t('+{0} files', c.injected.length);
      children.push(...f.injectionRows(`${id}/inj`, c.injected));
    } else if (c && s.kind === 'skill') {
      if (c.error) description = t('fails: {0}', c.error);
      else if (c.agent) {
        description = c.agent.instructions === null ? t('runs as a {0} subagent: no instruction files there', c.agent.type) : t('runs as a {0} subagent with the startup instructions', c.agent.type);
      } else {
        chars = c.skillBody?.length ?? 0;
        description = c.skill?.status === 'already-loaded' ? t('already loaded: a one-line reminder') : t('its body, with the arguments filled in');
        for (const cmd of c.skill?.unknownCommands ?? []) children.push(fileRow(idOf('cmd', cmd), `!\`${cmd}\``, t('runs when the skill loads: its output is not known'), f));
      }
      if (c.skill?.path) children.unshift(pathRow(`${id}/skill`, c.skill.path, t('the skill file'), f));
    } else if (c && s.kind === 'agent') {
      const ag = c.agent;
      if (!ag || !ag.known) description = t('no agent of this type');
      else {
        const n = ag.instructions?.length ?? 0;
        description = ag.instructions === null ? t('its own context: no instruction files') : t('its own context: the CLAUDE.md block of Startup, ≈{0} tokens', num(tokens(n)));
        if (ag.systemPromptChars !== undefined && ag.path) children.push(pathRow(`${id}/agent`, ag.path, t('its body is the subagent\'s system prompt'), f, ag.systemPromptChars));
        for (const p of ag.stale) children.push(pathRow(idOf('stale', p), p, t('edited since the session started: the subagent gets the earlier text'), f));
      }
    } else if (s.kind === 'change') {
      chars = turn.changedNotes?.length ?? 0;
      description = turn.notes.length ? t('a "changed on disk" note at the start of the next turn') : t('not told to the model');
      turn.notes.forEach((n) => children.push(pathRow(idOf('note', n.path), n.path, t('note with the changed lines'), f, n.text.length)));
    } else if (s.kind === 'compact') {
      if (!turn.compaction) description = t('nothing to compact yet');
      else {
        const r = turn.compaction.restored;
        const rebuilt = turn.compaction.instructions?.length ?? 0;
        const files = r?.files.reduce((n, x) => n + x.text.length, 0) ?? 0;
        const skills = r?.skills?.length ?? 0;
        chars = files + skills;
        running = rebuilt + chars;
        description = t('starts over: the startup block rebuilt from disk; back: {0} · {1}', r.files.length === 1 ? t('1 file') : t('{0} files', r.files.length), r.skillEntries.length === 1 ? t('1 skill') : t('{0} skills', r.skillEntries.length)) + noListing;
        for (const x of r?.files ?? []) children.push(pathRow(idOf('back', x.path), x.path, t('comes back as a Read of its current text'), f, x.text.length));
        for (const x of r?.references ?? []) children.push(pathRow(idOf('ref', x), x, t('too large: only a note naming it'), f));
        for (const x of r?.left ?? []) children.push(pathRow(idOf('gone', x.path), x.path, t('gone: {0}', x.why), f));
        for (const x of r?.skillEntries ?? []) children.push(fileRow(idOf('skills', x.name), x.name, x.truncated ? t('skill body back, cut') : t('skill body back'), f, undefined, x.chars));
      }
    } else if (s.kind === 'clear') {
      running = result.turns[where.turn + 1]?.instructions?.length ?? a.startupText?.length ?? 0;
      description = t('starts over: only the startup block, rebuilt from disk') + noListing;
    }
    if (s.kind !== 'compact' && s.kind !== 'clear') running += chars;
    children.push(...heldRows(turn, id, f));
    // hooks that fire here: their output joins the context, with a size the engine cannot know but a
    // session of this launch directory may have recorded (its transcript's hook runs)
    const firstOfTurn = placed.findIndex((x) => x.turn === where.turn) === i;
    const hooks = [...(firstOfTurn ? turn.hooks : []), ...(c?.hooks ?? [])];
    hooks.forEach((h) => {
      const ran = f.hookOutputs?.get(hookKey(h.event, h.command));
      const rowId = idOf('hook', `${h.event}\n${h.file}\n${h.command}`);
      // measured (sess_event_hooks_*): a PostToolUse hook's plain output is recorded and never sent; only a JSON
      // `additionalContext` it prints reaches the model
      if (h.event === 'PostToolUse') children.push(fileRow(rowId, t('hook: {0}', h.command), t('{0} in {1}: only a JSON additionalContext it prints joins the context (plain output is recorded, not sent)', h.event, f.rel(h.file)), f, undefined, ran?.chars));
      else if (ran) children.push(fileRow(rowId, t('hook: {0}', h.command), t('{0} in {1}: its output joins the context, as long as when a session here last ran it', h.event, f.rel(h.file)), f, undefined, ran.chars));
      else children.push(fileRow(rowId, t('hook: {0}', h.command), t('{0} in {1}: its output joins the context, size unknown (never run here)', h.event, f.rel(h.file)), f));
    });
    const tok = tokens(running);
    const share = f.window ? Math.round((tok / f.window) * 1000) / 10 : 0;
    rows.push({
      id,
      label,
      description,
      // what the step adds to the main conversation (a subagent's context is its own; /compact and /clear start over)
      badge: s.kind === 'agent' || s.kind === 'compact' || s.kind === 'clear' ? undefined : t('+{0} chars', num(chars)),
      detail: t('{0} — {1}. Running total ≈{2} tokens, {3}% of {4}.', label, description, num(tok), share, num(f.window)),
      aria: t('{0}: {1}; adds {2} chars; running total about {3} tokens, {4} percent of the context window', label, description, num(chars), num(tok), share),
      ...(children.length && { children, open: true }),
    });
  });
  return { rows, total: tokens(running), result };
}

/** what each agent type's first request would carry */
export function agentRows(result: SessionResult, startupChars: number, f: TimelineFormat): Row[] {
  const { t, num, tokens } = f;
  const ids = new RowIds('session/agents');
  return result.agents.map((ag) => {
    const description = ag.getsInstructions ? t('gets the CLAUDE.md block of Startup (not the skills listing), ≈{0} tokens', num(tokens(startupChars))) : t('gets no instruction file');
    const where = ag.source === 'built-in' ? t('built-in') : f.rel(ag.path ?? '');
    return {
      id: ids.take(idPart(`${ag.source}\n${ag.name}`)),
      label: ag.name,
      description: `${where} · ${description}`,
      ...(ag.getsInstructions && { badge: t('{0} chars', num(startupChars)) }),
      aria: t('{0} ({1}): {2}', ag.name, where, description),
      ...(ag.path && { path: ag.path }),
    };
  });
}
