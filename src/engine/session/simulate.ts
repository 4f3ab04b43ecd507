// A whole Claude Code session, from its script (turns.ts): what each request adds, as Claude Code
// sends it. The tree is the engine's file access with the session's edits on top (overlay.ts); the
// disk is never written and no command (hook, `` !`cmd` ``) is ever run.
//
// The model of the session's memory follows what was measured on the binaries:
// - the startup block is built once and kept until `/compact` or `/clear` rebuild it from the disk;
// - a file's text is held by the session when the model read it, wrote it (Edit, Write), or it was
//   injected lazily (nested CLAUDE.md, rules, their includes); the held files are kept in recency
//   order (a touch that triggers instruction loading also touches the conditional rules already held);
// - at the start of each turn the held files with text (injected and written ones) are compared with
//   the disk: a changed one gets a "changed on disk" note, a deleted one is forgotten (and injected
//   again by a later touch); files the model only read are not compared, so their edits go unnoticed;
// - `/compact` brings back recently modified held files and the invoked skills (compaction.ts);
//   `/clear` forgets everything.
import * as path from 'node:path';
import { analyze, type Analysis } from '../analysis.js';
import { decodeUtf8 } from '../instructions/content.js';
import { grouped, type Diagnostic } from '../diagnostics.js';
import { nodeFileAccess } from '../files/file-access.js';
import type { EngineOptions } from '../environment.js';
import { CHANGED_NOTE, SKILL_VARIANTS } from '../format-strings.js';
import type { Environment } from '../environment.js';
import type { SkillDef, SkillsAnalysis } from '../skills/index.js';
import type { LazyMemory } from '../instructions/lazy.js';
import type { LazyInjection, TouchTool } from '../model.js';
import { agentTypes, type AgentType } from './agents.js';
import { changeSnippet, heldText } from './changed-notes.js';
import { restoreFiles, restoreSkills, type InvokedSkill, type Restoration } from './compaction.js';
import { hookSteps, readHooks, type HookDef, type HookStep } from './hooks.js';
import { OverlayFileAccess } from './overlay.js';
import { autoCompactRule } from './auto-compact.js';
import { RESUME_REREAD_HEAD } from '../format-strings.js';
import { invocation, skillBody } from './skill-invocation.js';
import { parseTurns, slashCommand, type SessionCall, type SessionTurn } from './turns.js';

const MAX_HELD_BYTES = 4 * 1024 * 1024;
/** logical time between steps: every edit is newer than anything on disk before the session */
const STEP_MS = 1000;

type HeldKind = 'instruction' | 'read' | 'partial' | 'written';

interface Held {
  path: string;
  text: string | undefined;
  mtimeMs: number;
  kind: HeldKind;
  /** a conditional rule: touched again by every touch that loads instructions */
  conditional: boolean;
  /** a "changed on disk" note was sent for it */
  noted?: boolean;
}

export interface ChangedNote {
  path: string;
  snippet: string;
  text: string;
}

export interface UnnoticedEdit {
  path: string;
  /** why the model is not told */
  why: string;
}

export interface SkillCallResult {
  name: string;
  path?: string;
  /** loaded (its body), loaded again with another body (re-invocation), the same body again (already loaded, or
   *  loaded earlier: brought back by a compaction), forked, refused, or not found */
  status: 'loaded' | 'reinvoked' | 'already-loaded' | 'loaded-earlier' | 'forked' | 'refused' | 'unknown';
  reason?: string;
  unknownCommands: string[];
  usesSessionId: boolean;
}

export interface AgentCallResult {
  type: string;
  /** the instructions block of the subagent's first request (same cut as the startup text), or null */
  instructions: string | null;
  /** the agent type is known (built-in or a file in .claude/agents) */
  known: boolean;
  source?: AgentType['source'];
  path?: string;
  /** a custom agent's body: its system prompt */
  systemPromptChars?: number;
  /** the instructions are the session's, as it started: files edited since are not in them */
  stale: string[];
}

export interface CallResult {
  name: string;
  input: Record<string, unknown>;
  injected: LazyInjection[];
  /** the text blocks after `Launching skill: NAME` (a re-invocation's own line, then the body), else null */
  skillBody: string | null;
  /** the reminder after the body of a skill whose name nested skills share (their `dir:name` variants), else null */
  skillNote: string | null;
  skill?: SkillCallResult;
  agent: AgentCallResult | null;
  /** a tool call Claude Code would fail (Edit without its old text, Skill that is not there…) */
  error?: string;
  hooks: HookStep[];
}

export interface TurnResult {
  index: number;
  prompt: string;
  command?: 'compact' | 'clear' | 'local';
  /** the startup block as this turn's first request carries it, or null (no request, or nothing loads) */
  instructions: string | null;
  /** the block was rebuilt from the disk for this turn (first request after /compact or /clear) */
  rebuilt: boolean;
  /** files whose startup text differs from what the block carries (edited since it was built) */
  staleStartup: string[];
  changedNotes: string | null;
  notes: ChangedNote[];
  unnoticed: UnnoticedEdit[];
  restored: Restoration | null;
  /** on a /compact turn: what the next request brings back, and the startup block as the disk has it now */
  compaction: { restored: Restoration; instructions: string | null } | null;
  calls: CallResult[];
  hooks: HookStep[];
  /** a new process went on with the session before this turn */
  restart: 'continue' | 'resume' | null;
  /** the reminder a resumed session adds (2.1.328 on): from its first line through the last changed startup entry */
  resumeReminder: string | null;
  /** compactions Claude Code made on its own in this turn: before the turn's request `at` (0: the prompt's, k: the
   *  one after call k), with what came back */
  autoCompactions: { at: number; restored: Restoration }[];
  /** the turn stopped before its calls were all made (2.1.235: a request past the threshold between two calls) */
  stopped: string | null;
}

export interface SessionResult {
  turns: TurnResult[];
  /** agent types the session can start, with what each gets */
  agents: AgentType[];
  diagnostics: Diagnostic[];
}

const ABS_PATH_IN_COMMAND = /(?:^|\s)(\/[^\s;|&<>'"`]+)/g;

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

class Simulation {
  private readonly overlay: OverlayFileAccess;
  private clock: number;
  private analysis!: Analysis;
  private lazy!: ReturnType<Analysis['session']>;
  /** held files, least recently used first */
  private held = new Map<string, Held>();
  private startupBlock: string | undefined | null = null; // null: to be (re)built
  private startupFiles = new Map<string, string>();
  private invoked: InvokedSkill[] = [];
  /** the skills the process loaded when it started (or at the last /clear): later SKILL.md edits, new and deleted
   *  skills are not seen until then (measured), each with the tree as it was then */
  private skillSet!: { skills: SkillsAnalysis; env: Environment };
  /** skills in nested `.claude/skills` folders found by a touch, by the name they are listed with, their text as
   *  it was when found */
  private discovered = new Map<string, { def: SkillDef; env: Environment; dir: string }>();
  /** the body each skill was last given in this conversation (since the start, a compaction or /clear) */
  private loaded = new Map<string, string>();
  /** the bodies the last compaction brought back (invoked-skills section) */
  private restoredBodies = new Map<string, string>();
  /** the skills the last compaction brought back cut (over the per-skill limit) */
  private cutBodies = new Set<string>();
  /** path-gated skills a touch has made available */
  private activatedSkills = new Set<string>();
  private pendingRestore: Restoration | null = null;
  private sessionStarted = false;
  private pendingSessionStart: 'startup' | 'clear' | 'compact' = 'startup';
  private hooks: HookDef[] = [];
  private steps = 0;
  /** messages of the conversation since it started (or since the last /compact or /clear) */
  private messages = 0;
  /** the token count the last main-loop answer reported */
  private lastUsage = 0;

  constructor(
    private readonly options: EngineOptions,
    initial: SessionTurn['before'],
  ) {
    this.overlay = new OverlayFileAccess(options.fs ?? nodeFileAccess);
    this.clock = Date.now();
    this.write(initial);
    this.reanalyze();
    this.loadSkillSet();
  }

  private loadSkillSet(): void {
    this.skillSet = { skills: this.analysis.skills, env: { ...this.analysis.env, fs: this.overlay.snapshot() } };
    this.discovered.clear();
  }

  private now(): number {
    this.clock += STEP_MS;
    return this.clock;
  }

  /** a new analysis over the tree as it is now, keeping what the session already injected */
  private reanalyze(): void {
    const memory: LazyMemory | undefined = this.lazy?.memory();
    this.analysis = analyze({ ...this.options, fs: this.overlay });
    this.lazy = this.analysis.session();
    if (memory) this.lazy.remember(memory);
    this.hooks = readHooks(this.analysis.settings);
  }

  private readText(p: string): string | undefined {
    const r = this.overlay.readFile(p, MAX_HELD_BYTES);
    return r.ok ? decodeUtf8(r.value) : undefined;
  }

  private mtime(p: string): number | undefined {
    const s = this.overlay.stat(p);
    return s.ok && s.value.kind === 'file' ? s.value.mtimeMs : undefined;
  }

  /** set (or refresh) a held file: it becomes the most recently used */
  private hold(p: string, kind: HeldKind, conditional = false): void {
    const key = path.normalize(p);
    const prev = this.held.get(key);
    const mtimeMs = this.mtime(key);
    if (mtimeMs === undefined) return;
    this.held.delete(key);
    // a file injected and then read (or written) keeps its text; a partial read never replaces a whole one
    const k: HeldKind = prev && kind === 'partial' ? prev.kind : prev?.kind === 'instruction' && kind === 'read' ? 'instruction' : kind;
    this.held.set(key, { path: key, text: k === 'read' || k === 'partial' ? undefined : this.readText(key), mtimeMs, kind: k, conditional: conditional || !!prev?.conditional });
  }

  private bump(key: string): void {
    const h = this.held.get(key);
    if (!h) return;
    this.held.delete(key);
    this.held.set(key, h);
  }

  private ensureStartup(): { text: string | null; rebuilt: boolean } {
    let rebuilt = false;
    if (this.startupBlock === null) {
      this.startupBlock = this.analysis.startupText;
      this.startupFiles = new Map(this.analysis.startup.map((e) => [e.path, e.content]));
      rebuilt = this.sessionStarted;
      this.sessionStarted = true;
    }
    return { text: this.startupBlock ?? null, rebuilt };
  }

  /** startup files whose text on disk no longer matches the block the session holds */
  private staleStartup(): string[] {
    const now = new Map(this.analysis.startup.map((e) => [e.path, e.content]));
    const out: string[] = [];
    for (const [p, c] of this.startupFiles) if (now.get(p) !== c) out.push(p);
    for (const p of now.keys()) if (!this.startupFiles.has(p)) out.push(p);
    return out;
  }

  /** the edits, on the overlay, each newer than the last; returns the paths they change */
  private write(edits: SessionTurn['before']): string[] {
    return edits.map((e) => {
      const p = path.resolve(this.options.cwd, 'write' in e ? e.write : e.delete);
      if ('write' in e) this.overlay.write(p, e.content, this.now());
      else this.overlay.delete(p);
      return p;
    });
  }

  private applyEdits(turn: SessionTurn): string[] {
    const changed = this.write(turn.before);
    if (changed.length) this.reanalyze();
    return changed;
  }

  private changedOnDisk(edited: string[]): { notes: ChangedNote[]; unnoticed: UnnoticedEdit[] } {
    const p = this.analysis.profile.session;
    const notes: ChangedNote[] = [];
    const unnoticed: UnnoticedEdit[] = [];
    let total = 0;
    const mostRecentFirst = [...this.held.values()].reverse();
    for (const h of mostRecentFirst) {
      const m = this.mtime(h.path);
      if (m === undefined) {
        this.held.delete(h.path);
        this.lazy.forget(h.path);
        if (h.kind === 'instruction') unnoticed.push({ path: h.path, why: 'deleted: the model keeps its earlier text; a later touch of a file below its folder loads it again if it comes back' });
        continue;
      }
      if (m <= h.mtimeMs) continue;
      if (h.kind === 'read' || h.kind === 'partial') {
        unnoticed.push({ path: h.path, why: h.noted ? 'changed again after a note: Claude Code tells the model of a file once, the model keeps the text of that note' : 'the model only read it: Claude Code does not tell it that the file changed (it still holds the earlier text)' });
        continue;
      }
      const now = this.readText(h.path);
      if (now === undefined || h.text === undefined) continue;
      const snippet = changeSnippet(heldText(h.text), heldText(now), p);
      // Claude Code reads the file again for the note, as the Read tool does: from then on it holds it like
      // a file the model read, and a further edit gets no note (measured)
      this.held.delete(h.path);
      this.held.set(h.path, { ...h, text: undefined, mtimeMs: m, kind: 'read', noted: true });
      if (!snippet) continue;
      if (total >= p.noteTurnMaxChars) {
        unnoticed.push({ path: h.path, why: `the turn's notes are past ${grouped(p.noteTurnMaxChars)} characters: this change is not shown` });
        continue;
      }
      total += snippet.length;
      notes.push({ path: h.path, snippet, text: CHANGED_NOTE(h.path, snippet) });
    }
    // startup files, skills and other files that the session does not compare
    for (const e of edited) {
      const key = path.normalize(e);
      if (this.held.has(key) || notes.some((n) => n.path === key) || unnoticed.some((u) => u.path === key)) continue;
      if (this.startupFiles.has(key)) unnoticed.push({ path: key, why: 'a startup file: the session keeps the text it started with until /compact or /clear' });
      else if (this.invoked.some((s) => s.path === key)) unnoticed.push({ path: key, why: 'an invoked skill: the model keeps the body it was given (a compaction brings that body back, not the new one)' });
    }
    return { notes, unnoticed };
  }

  private touch(tool: TouchTool, target: string, kind: HeldKind | undefined): LazyInjection[] {
    if (kind) this.hold(target, kind);
    const triggers = this.analysis.profile.lazyTriggers.includes(tool);
    if (triggers) for (const h of [...this.held.values()]) if (h.conditional) this.bump(h.path);
    const injected = this.lazy.touch(tool, target);
    for (const layer of this.analysis.skills.lazyFor(target)) {
      if (layer.kind === 'path-gated') for (const n of layer.names) this.activatedSkills.add(n);
      else if (layer.dir !== undefined) {
        const env = { ...this.analysis.env, fs: this.overlay.snapshot() };
        layer.names.forEach((n, i) => {
          const def = layer.skills[i];
          if (def && !this.discovered.has(n)) this.discovered.set(n, { def, env, dir: layer.dir! });
        });
      }
    }
    for (const i of injected) this.hold(i.path, 'instruction', i.origin.kind === 'rule' && !!(i.origin.globs && i.origin.globs.length));
    return injected;
  }

  private call(c: SessionCall): CallResult {
    const base: CallResult = { name: c.name, input: c.input, injected: [], skillBody: null, skillNote: null, agent: null, hooks: [] };
    const filePath = str(c.input.file_path);
    const abs = filePath !== undefined ? path.resolve(this.options.cwd, filePath) : undefined;
    switch (c.name) {
      case 'Read': {
        if (!abs) return { ...base, error: 'Read needs a file_path' };
        const partial = c.input.offset !== undefined || c.input.limit !== undefined;
        const exists = this.mtime(abs) !== undefined;
        base.injected = this.touch('Read', abs, exists ? (partial ? 'partial' : 'read') : undefined);
        break;
      }
      case 'Edit': {
        if (!abs) return { ...base, error: 'Edit needs a file_path' };
        const before = this.readText(abs);
        const oldS = str(c.input.old_string) ?? '';
        const newS = str(c.input.new_string) ?? '';
        if (before === undefined || !oldS || !before.includes(oldS)) return { ...base, error: `Edit fails: ${before === undefined ? 'the file does not exist' : 'old_string is not in the file'}` };
        const after = c.input.replace_all === true ? before.split(oldS).join(newS) : before.replace(oldS, () => newS);
        this.overlay.write(abs, after, this.now());
        this.reanalyze();
        base.injected = this.touch('Edit', abs, 'written');
        break;
      }
      case 'Write': {
        if (!abs) return { ...base, error: 'Write needs a file_path' };
        this.overlay.write(abs, str(c.input.content) ?? '', this.now());
        this.reanalyze();
        base.injected = this.touch('Write', abs, 'written');
        break;
      }
      case 'Bash': {
        const command = str(c.input.command) ?? '';
        for (const m of command.matchAll(ABS_PATH_IN_COMMAND)) base.injected.push(...this.touch('Bash', m[1]!, undefined));
        break;
      }
      case 'Skill':
        return this.skill(base);
      case 'Agent':
        return this.agent(base, str(c.input.subagent_type) ?? 'general-purpose');
      default:
        break;
    }
    base.hooks = hookSteps(this.hooks, 'PostToolUse', c.name);
    return base;
  }

  private skill(base: CallResult): CallResult {
    const name = str(base.input.skill)?.replace(/^\//, '') ?? '';
    const args = str(base.input.args) ?? '';
    const found = this.skillSet.skills.find(name);
    const nested = found ? undefined : this.discovered.get(name);
    const def = found ?? nested?.def;
    const env = nested ? nested.env : this.skillSet.env;
    const result = (s: SkillCallResult, extra: Partial<CallResult> = {}): CallResult => ({ ...base, skill: s, hooks: hookSteps(this.hooks, 'PostToolUse', 'Skill'), ...extra });
    if (!def || !def.path) return result({ name, status: 'unknown', unknownCommands: [], usesSessionId: false }, { error: `Unknown skill: ${name}` });
    if (def.disableModelInvocation) return result({ name: def.name, path: def.path, status: 'refused', reason: 'disable-model-invocation: only the user can run it', unknownCommands: [], usesSessionId: false }, { error: 'disable-model-invocation' });
    if (def.paths && def.paths.length && !this.activatedSkills.has(def.name))
      return result({ name: def.name, path: def.path, status: 'unknown', reason: 'path-gated: not available before a matching file is touched', unknownCommands: [], usesSessionId: false }, { error: `Unknown skill: ${name}` });
    const body = skillBody(env, this.analysis.profile, def, args);
    if (!body) return result({ name: def.name, path: def.path, status: 'unknown', reason: 'its file cannot be read', unknownCommands: [], usesSessionId: false }, { error: 'unreadable skill' });
    // the name it is invoked and remembered by: a nested variant keeps its `dir:name`
    const key = nested ? name : def.name;
    const info = { name: key, path: def.path, unknownCommands: body.unknownCommands, usesSessionId: body.usesSessionId };
    if (body.fork) {
      const agent = this.agentResult(body.fork.agent);
      return result({ ...info, status: 'forked', reason: `context: fork: runs as a ${body.fork.agent} subagent` }, { agent });
    }
    const remember = () => {
      this.invoked = this.invoked.filter((s) => s.name !== key);
      this.invoked.push({ name: key, source: skillSource(def.source), content: body.text, at: this.steps++, path: def.path });
    };
    // measured: a repeat is told apart by the body it would get (arguments that leave the body as it was count as the same)
    const call = invocation(key, args, body.text, { last: this.loaded.get(key), restored: this.restoredBodies.get(key), cut: this.cutBodies.has(key) });
    remember();
    if (call.status === 'already-loaded' || call.status === 'loaded-earlier') return result({ ...info, status: call.status }, { skillBody: call.text });
    this.loaded.set(key, body.text);
    // a bare name that nested variants share: a reminder naming them follows the body
    const variants = nested ? [] : [...this.discovered].filter(([n, d]) => n !== d.def.name && d.def.name === key).map(([n, d]) => ({ name: n, dir: d.dir }));
    const skillNote = variants.length ? SKILL_VARIANTS(key, variants) : null;
    return result({ ...info, status: call.status }, { skillBody: call.text, skillNote });
  }

  private agentResult(type: string): AgentCallResult {
    const t = agentTypes(this.analysis.env, this.analysis.profile).find((a) => a.name === type);
    const { text } = this.ensureStartup();
    if (!t) return { type, instructions: null, known: false, stale: [] };
    return {
      type,
      instructions: t.getsInstructions ? text : null,
      known: true,
      source: t.source,
      path: t.path,
      systemPromptChars: t.systemPromptChars,
      stale: t.getsInstructions ? this.staleStartup() : [],
    };
  }

  private agent(base: CallResult, type: string): CallResult {
    const agent = this.agentResult(type);
    return { ...base, agent, hooks: hookSteps(this.hooks, 'PostToolUse', 'Agent'), ...(!agent.known && { error: `Agent type '${type}' not found` }) };
  }

  private restoreNow(): Restoration {
    const startup = new Set(this.startupFiles.keys());
    const candidates = [...this.held.values()]
      .filter((h) => !startup.has(h.path))
      .map((h) => ({ path: h.path, mtimeMs: h.mtimeMs, current: this.readText(h.path) }));
    const files = restoreFiles(candidates, this.analysis.profile.session);
    const skills = restoreSkills(this.invoked, this.analysis.profile.session);
    // what the conversation holds of the skills from now on: the bodies that came back, nothing loaded since
    const back = new Set(skills.skillEntries.filter((e) => !e.truncated).map((e) => e.name));
    this.restoredBodies = new Map(this.invoked.filter((i) => back.has(i.name)).map((i) => [i.name, i.content]));
    this.cutBodies = new Set(skills.skillEntries.filter((e) => e.truncated).map((e) => e.name));
    this.loaded.clear();
    // what the session holds after the compaction: the files that came back, as they are now, and
    // nothing else (a rule or nested file that did not come back is injected again by a later touch);
    // Claude Code does not compare them with the disk any more (measured: an edit after the compaction
    // gets no note)
    const next = new Map<string, Held>();
    for (const f of [...files.files].reverse()) {
      const h = this.held.get(f.path)!;
      next.set(f.path, { ...h, text: undefined, mtimeMs: this.mtime(f.path) ?? h.mtimeMs, kind: 'read' });
    }
    this.held = next;
    this.lazy = this.analysis.session();
    const backFiles = [...files.files.map((f) => f.path), ...files.references];
    this.lazy.remember({ injected: backFiles, read: [] });
    return { ...files, ...skills };
  }

  /** a new claude process on the same session */
  private restartProcess(out: TurnResult): void {
    const p = this.analysis.profile.session;
    // a new process: the skills as the disk has them now, nothing loaded, found or activated yet (not measured:
    // whether a compaction after a resume brings back skills invoked before it; they are forgotten here)
    this.loadSkillSet();
    this.loaded.clear();
    this.restoredBodies.clear();
    this.cutBodies.clear();
    this.invoked = [];
    this.activatedSkills.clear();
    this.pendingRestore = null;
    if (p.resume === 'rebuild') {
      // 2.1.235: the startup block rebuilt from the disk, every held file forgotten (a later touch injects it again)
      this.held.clear();
      this.lazy = this.analysis.session();
      this.startupBlock = null;
      return;
    }
    // 2.1.328 on: the old block is replayed; startup files that changed come in a reminder; held files whose text
    // changed are forgotten (the next touch injects them with their new text), the others stay held
    const old = this.startupFiles;
    const changed = this.analysis.startup.filter((e) => old.get(e.path) !== e.content);
    if (changed.length) out.resumeReminder = RESUME_REREAD_HEAD + changed.map((e) => e.text).join('\n\n');
    this.startupFiles = new Map(this.analysis.startup.map((e) => [e.path, e.content]));
    for (const h of [...this.held.values()]) {
      if (h.text === undefined) continue;
      if (this.readText(h.path) !== h.text) {
        this.held.delete(h.path);
        this.lazy.forget(h.path);
      }
    }
  }

  /** Claude Code compacts on its own: what the next request brings back; the block is rebuilt from the disk */
  private autoCompact(out: TurnResult, at: number): void {
    const restored = this.restoreNow();
    out.autoCompactions.push({ at, restored });
    this.startupBlock = null;
    this.pendingSessionStart = 'compact';
    this.messages = 2;
  }

  turn(t: SessionTurn, index: number): TurnResult {
    const edited = this.applyEdits(t);
    const command = slashCommand(t.prompt);
    const out: TurnResult = { index, prompt: t.prompt, command, instructions: null, rebuilt: false, staleStartup: [], changedNotes: null, notes: [], unnoticed: [], restored: null, compaction: null, calls: [], hooks: [], restart: t.restart ?? null, resumeReminder: null, autoCompactions: [], stopped: null };
    const restarted = !!t.restart && this.sessionStarted;
    if (restarted) this.restartProcess(out);
    if (command === 'compact' && this.messages < this.analysis.profile.session.compactMinMessages) return out;
    // a local command (/cost, /status, …) sends no request: nothing is predicted for it
    if (command === 'local') return out;
    if (command === 'clear') {
      this.messages = 0;
      this.lastUsage = 0;
      this.held.clear();
      this.lazy = this.analysis.session();
      this.invoked = [];
      this.loaded.clear();
      this.restoredBodies.clear();
      this.cutBodies.clear();
      // measured: /clear loads the skills again from the disk (a /compact does not)
      this.loadSkillSet();
      this.pendingRestore = null;
      this.startupBlock = null;
      this.pendingSessionStart = 'clear';
      return out;
    }
    const rule = autoCompactRule(this.analysis.env, this.analysis.profile, this.analysis.model);
    const over = () => rule.threshold !== undefined && this.lastUsage >= rule.threshold;
    // the turn's first request: compacted first when the last answer reported a count past the threshold
    if (!command && this.sessionStarted && over()) this.autoCompact(out, 0);
    const first = !this.sessionStarted;
    const { text, rebuilt } = this.ensureStartup();
    out.instructions = text;
    out.rebuilt = rebuilt;
    out.staleStartup = this.staleStartup();
    if (first || this.pendingSessionStart !== 'startup' || rebuilt) {
      out.hooks.push(...hookSteps(this.hooks, 'SessionStart', this.pendingSessionStart));
      this.pendingSessionStart = 'startup';
    }
    if (command === 'compact') {
      // the conversation goes on from the summary and the messages kept after it
      this.messages = 2;
      this.lastUsage = 0;
      this.pendingRestore = this.restoreNow();
      out.compaction = { restored: this.pendingRestore, instructions: this.analysis.startupText ?? null };
      this.startupBlock = null;
      this.pendingSessionStart = 'compact';
      return out;
    }
    if (this.pendingRestore) {
      const r = this.pendingRestore;
      if (r.files.length || r.references.length || r.skills !== null) out.restored = r;
      this.pendingRestore = null;
    }
    // no "changed on disk" notes in the first turn of a new process (measured on every version)
    const { notes, unnoticed } = first || restarted ? { notes: [], unnoticed: [] } : this.changedOnDisk(edited);
    out.notes = notes;
    out.unnoticed = unnoticed;
    out.changedNotes = notes.length ? notes.map((n) => n.text).join('\n\n') : null;
    out.hooks.push(...hookSteps(this.hooks, 'UserPromptSubmit', t.prompt));
    // every main-loop answer of the turn reports its usage (the stand-in's 10 input tokens when none is declared)
    const usage = t.usage ? t.usage.input + t.usage.cacheRead + t.usage.cacheCreation : 10;
    this.lastUsage = usage;
    for (const [k, c] of t.calls.entries()) {
      out.calls.push(this.call(c));
      this.messages += 2;
      // the request after call k+1
      if (over()) {
        if (rule.midTurn === 'stop') {
          out.stopped = `the request after call ${k + 1} is past the auto-compaction threshold (${grouped(rule.threshold!)} tokens): Claude Code ${this.analysis.profile.version} stops the turn ("Prompt is too long") and compacts before the next one`;
          break;
        }
        this.autoCompact(out, k + 1);
        this.ensureStartup();
      }
      this.lastUsage = usage;
    }
    this.messages += 2;
    return out;
  }

  agents(): AgentType[] {
    return agentTypes(this.analysis.env, this.analysis.profile);
  }
}

function skillSource(s: string): string {
  switch (s) {
    case 'user':
      return 'userSettings';
    case 'policy':
      return 'policySettings';
    case 'plugin':
      return 'plugin';
    default:
      return 'projectSettings';
  }
}

/** simulate a session script (TURNS.json as parsed JSON) over the tree the options describe */
export function simulateSession(options: EngineOptions, script: unknown): SessionResult {
  const { turns, problems } = parseTurns(script);
  const diagnostics: Diagnostic[] = problems.map((m) => ({ path: '<session>', severity: 'error', rule: 'session-invalid', message: m }));
  // edits of the first turn happen before the session starts (session.mjs refuses them)
  const first = turns[0];
  const sim = new Simulation(options, first ? first.before : []);
  if (first) first.before = [];
  const result = turns.map((t, i) => sim.turn(t, i));
  return { turns: result, agents: sim.agents(), diagnostics };
}

/** the same, over the tree and settings an analysis was made with (the editor's workspace view) */
export function simulateSessionOver(a: Analysis, script: unknown): SessionResult {
  const e = a.env;
  return simulateSession(
    { cwd: e.cwd, home: e.home, env: e.env, claudeVersion: a.profile.version, model: e.model, addDirs: e.addDirs, settingSources: [...e.settingSources], managedDir: e.managedDir, bare: e.bare, flagSettings: e.flagSettings, pluginDirs: e.pluginDirs, fs: e.fs },
    script,
  );
}
