// The engine's front door. `analyze` reads what the first request needs once; the result answers
// "what would touching this file inject" from memory, and `refresh` re-reads only what changed.
import * as path from 'node:path';
import { LARGE_FILE_CHARS } from './instructions/content.js';
import { DiagnosticSink, grouped, type Diagnostic } from './diagnostics.js';
import { SnapshotFileAccess } from './files/snapshot.js';
import { resolveEnvironment, type EngineOptions, type Environment } from './environment.js';
import { compileExcludes } from './instructions/excludes.js';
import { entryText, SUFFIX } from './format-strings.js';
import { findGit } from './files/git.js';
import { LazySession } from './instructions/lazy.js';
import { Loader, TextCache, type LoadedFile } from './instructions/loader.js';
import { loadMemoryIndex, type MemoryIndex, type MemoryLocation, type TopicFile } from './memory/memory.js';
import { analyzeSkills, type ModelChoice, type SkillsAnalysis } from './skills/index.js';
import type { ConditionalRule, InstructionEntry, LazyInjection, TouchTool } from './model.js';
import { chooseProfile, type ClaudeProfile, type ProfileChoice } from './profiles.js';
import { renderStartupSection } from './instructions/render.js';
import { loadSettings, type Settings } from './settings.js';
import { loadStartup, type StartupResult } from './instructions/startup.js';

export interface MemoryState {
  location: MemoryLocation;
  enabled: boolean;
  why: string;
  index?: MemoryIndex;
  /** the `# Memory` system-prompt section that comes with memory being on (0 when off), characters */
  systemSectionChars: number;
  /** MEMORY.md reaches the request (memory on, non-empty, instruction files not disabled) */
  injected: boolean;
  /** other .md files of the memory folder: lazy, loaded only if the model reads them */
  topics: TopicFile[];
}

export interface Analysis {
  profile: ClaudeProfile;
  /** the version asked for and how the profile was chosen (`note` says so when the version has no profile) */
  version: ProfileChoice;
  env: Environment;
  settings: Settings;
  /** startup entries, in request order */
  startup: InstructionEntry[];
  /** the startup section text (preamble + entries), undefined when nothing loads */
  startupText: string | undefined;
  /** conditional rules known at startup (managed, user, ancestors), for "lazy elsewhere" and hovers */
  conditionalRules: ConditionalRule[];
  memory: MemoryState;
  /** the skills listing with its budgets, and what touches add to it */
  skills: SkillsAnalysis;
  /** the model the session runs (flag, ANTHROPIC_MODEL, `model` setting or the version's default) with its
   *  context window and characters per token, from the profile's model table */
  model: ModelChoice;
  diagnostics: Diagnostic[];
  /** a fresh Claude Code session over this analysis */
  session(): LazySession;
  /** what a first touch of `file` by `tool` would inject in a fresh session */
  lazyFor(file: string, tool?: TouchTool): LazyInjection[];
  /**
   * A new analysis after the given paths changed on disk (created, modified or deleted).
   * Only those paths are read again; everything else comes from the snapshot.
   */
  refresh(changed: string[]): Analysis;
  /** disk operations so far (the snapshot's counter) */
  readonly diskOps: number;
}

function toEntry(f: LoadedFile): InstructionEntry {
  const content = f.content.trim();
  return { path: f.path, type: f.type, content, text: entryText(f.path, SUFFIX[f.type], content), origin: f.origin, parent: f.parent };
}

/** each analysis' text cache, for an analysis of another view of the same files (analyze's `from`) */
const textsOf = new WeakMap<Analysis, TextCache>();

/**
 * The analysis of a launch directory. `from`: an analysis of another view of the same files (diff's base
 * revision, for its head) and the paths whose content or existence differs between the two (absolute; a
 * folder stands for everything below it): the texts read, processed and loaded there are taken over but for
 * those paths. The options must be the same but for the FileAccess.
 */
export function analyze(options: EngineOptions, from?: { analysis: Analysis; changed: readonly string[] }): Analysis {
  const choice = chooseProfile(options.claudeVersion);
  const base = resolveEnvironment(options);
  const snapshot = new SnapshotFileAccess(base.fs);
  const env: Environment = { ...base, fs: snapshot };
  const prior = from && textsOf.get(from.analysis);
  const texts = prior ? prior.derive(env, from.changed) : new TextCache(env);
  return build(env, choice, snapshot, texts);
}

function externalApproved(env: Environment, settings: Settings): boolean {
  const git = findGit(env.fs, env.cwd);
  if (!git) return false;
  const projects = settings.globalConfig.projects;
  if (!projects || typeof projects !== 'object') return false;
  const roots = [git.root];
  const real = env.fs.realpath(git.root);
  if (real.ok) roots.push(real.value);
  return roots.some((r) => (projects as Record<string, { hasClaudeMdExternalIncludesApproved?: unknown }>)[r]?.hasClaudeMdExternalIncludesApproved === true);
}

function build(env: Environment, choice: ProfileChoice, snapshot: SnapshotFileAccess, texts: TextCache): Analysis {
  const { profile, note } = choice;
  const sink = new DiagnosticSink();
  if (note) sink.add({ path: '', severity: 'info', rule: 'unknown-version', message: note });
  const settings = loadSettings(env, sink);
  const loader = new Loader(
    { env, profile, sink, excluded: compileExcludes(settings.claudeMdExcludes, env.fs), externalApproved: externalApproved(env, settings) },
    texts,
  );
  const startupResult: StartupResult = loadStartup(loader, settings);
  const startup = startupResult.files.map(toEntry);

  const memState = loadMemoryIndex(env, settings, profile, texts, sink);
  const instructionsOff = env.bare || ['1', 'true', 'yes', 'on'].includes((env.env.CLAUDE_CODE_DISABLE_CLAUDE_MDS ?? '').toLowerCase());
  const memory: MemoryState = {
    location: memState.location, enabled: memState.enabled.enabled, why: memState.enabled.why, index: memState.index,
    systemSectionChars: memState.systemSectionChars, injected: !!memState.index?.content && !instructionsOff, topics: memState.topics,
  };
  const skills = analyzeSkills({ env, settings, profile, sink });
  if (memState.index && memState.index.content && !instructionsOff) {
    const c = memState.index.content;
    startup.push({ path: memState.index.path, type: 'AutoMem', content: c, text: entryText(memState.index.path, SUFFIX.AutoMem, c), origin: { kind: 'auto-memory', memoryDir: memState.location.dir } });
  }

  for (const e of startup)
    if (e.content.length >= LARGE_FILE_CHARS)
      sink.add({ path: e.path, severity: 'info', rule: 'large-file', message: `${grouped(e.content.length)} characters: Claude Code's /memory view flags instruction files of 40,000 characters and more (it still loads in full)` });

  const startupPaths = new Set<string>();
  for (const e of startup) {
    startupPaths.add(path.normalize(e.path));
    const real = env.fs.realpath(e.path);
    if (real.ok) startupPaths.add(real.value);
  }

  // conditional rules of managed, user and ancestor folders (the ones known without a touch)
  const conditionalRules: ConditionalRule[] = [];
  const seen = new Set<string>();
  const addRules = (files: LoadedFile[]) => {
    for (const f of files) {
      if (!f.globs || f.origin.kind !== 'rule' || seen.has(f.path)) continue;
      seen.add(f.path);
      conditionalRules.push({ path: f.path, type: f.type, base: f.origin.base, patterns: f.globs, rawPatterns: f.processed.rawGlobs ?? f.globs, line: f.processed.pathsLine });
    }
  };
  const quiet = new DiagnosticSink();
  const quietLoader = new Loader({ ...loader.ctx, sink: quiet }, texts);
  addRules(quietLoader.walkRules(path.join(env.managedDir, '.claude', 'rules'), 'Managed', new Set(), env.cwd, true));
  if (env.settingSources.has('user')) addRules(quietLoader.walkRules(path.join(env.userDir, 'rules'), 'User', new Set(), env.cwd, true));
  if (env.settingSources.has('project'))
    for (const d of startupResult.ancestors)
      if (!startupResult.worktreeSkipped.has(d)) addRules(quietLoader.walkRules(path.join(d, '.claude', 'rules'), 'Project', new Set(), d, true));

  const session = () => new LazySession(loader, startupResult, startupPaths);
  const analysis: Analysis = {
    profile,
    version: choice,
    env,
    settings,
    startup,
    startupText: renderStartupSection(startup),
    conditionalRules,
    memory,
    skills,
    model: skills.budgetInfo.model,
    get diagnostics() {
      return sink.all();
    },
    session,
    lazyFor: (file, tool = 'Read') => session().touch(tool, file),
    refresh(changed: string[]) {
      for (const p of changed) {
        snapshot.invalidate(p);
        texts.invalidate(p);
      }
      return build(env, choice, snapshot, texts);
    },
    get diskOps() {
      return snapshot.diskOps;
    },
  };
  textsOf.set(analysis, texts);
  return analysis;
}
