// Where Claude Code finds skills and legacy commands at startup, in listing order (memory spec B5):
// managed `.claude/skills`, user skills, project skills from the launch directory upward (to the git
// root, or below HOME), `--add-dir` skills, then all legacy commands merged and sorted by name,
// then plugins, then the skills shipped in the binary. Each skill folder is sorted by name.
import * as path from 'node:path';
import { decodeUtf8 } from '../instructions/content.js';
import type { DiagnosticSink } from '../diagnostics.js';
import { isInside, isTruthyEnv, type Environment } from '../environment.js';
import { byCodeUnit, type DirEntry } from '../files/file-access.js';
import { MAX_YAML_DEPTH, parseFrontmatter } from '../instructions/frontmatter.js';
import { findGit } from '../files/git.js';
import { globHazards, rulePatterns, splitPatterns } from '../globs/globs.js';
import type { ClaudeProfile } from '../profiles.js';
import { cleanShownText, descriptionFromBody, frontmatterDescription, frontmatterFlag, isOfferableName } from './text.js';

export type SkillSource = 'policy' | 'user' | 'project' | 'add-dir' | 'command' | 'plugin' | 'bundled' | 'builtin';

export interface SkillDef {
  /** the name it is listed and invoked by: folder name, `ns:cmd` for commands, `plugin:name` for plugins */
  name: string;
  /** frontmatter `name`, when given */
  displayName?: string;
  source: SkillSource;
  /** SKILL.md or the command file; absent for skills shipped in the binary */
  path?: string;
  /** folder holding SKILL.md */
  dir?: string;
  /** folder it was found in (`…/.claude/skills`, `…/.claude/commands`) */
  root?: string;
  /** description as listed (before the per-description cap), without `when_to_use` */
  description: string;
  whenToUse?: string;
  /** description came from the frontmatter (not the body's first line) */
  hasDescription: boolean;
  disableModelInvocation: boolean;
  userInvocable: boolean;
  /** path-gated (`paths:`): listed only after a matching file is touched */
  paths?: string[];
  /** skills shipped in the binary (their text is not reproduced): description length and zero-width positions */
  shipped?: { descriptionChars: number; zeroWidthAt: readonly number[]; text?: string };
  /** shipped and bundled-typed: fixed in the listing, never demoted */
  fixed?: boolean;
  /** the frontmatter could not be parsed (Claude Code then ignores all of it) */
  yamlError?: string;
  /** an `--add-dir` skill listed after the shipped skills under `DIR:name`: the note its entry ends with */
  entryNote?: string;
  /** the `--add-dir` folder it came from */
  addDir?: string;
  /** where a legacy command was found */
  commandScope?: 'policy' | 'user' | 'project' | 'add-dir';
}

export interface DiscoveryContext {
  env: Environment;
  profile: ClaudeProfile;
  sink: DiagnosticSink;
  /** merged settings values the discovery needs */
  pluginDirs: string[];
}

/** skill files larger than this are not read */
const MAX_SKILL_BYTES = 4 * 1024 * 1024;

function readText(env: Environment, p: string): string | undefined {
  const r = env.fs.readFile(p, MAX_SKILL_BYTES);
  return r.ok ? decodeUtf8(r.value) : undefined;
}

function listDir(env: Environment, dir: string): DirEntry[] {
  const r = env.fs.readDir(dir);
  return r.ok ? r.value : [];
}

// Skills are ordered by name as an en-US Intl.Collator orders them. Building one sets up ICU's
// collation, 10 to 35 ms of a short run: names of lowercase letters, digits and hyphens (nearly all)
// are compared by code unit, which orders those exactly as the collator does (hyphen, then digits,
// then letters; a prefix first); the collator is made for any other pair, on first use.
let collator: Intl.Collator | undefined;
const PLAIN_NAME = /^[a-z0-9-]*$/;
export function compareSkillNames(a: string, b: string): number {
  if (PLAIN_NAME.test(a) && PLAIN_NAME.test(b)) return byCodeUnit(a, b);
  return (collator ??= new Intl.Collator('en-US')).compare(a, b);
}
export const byName = (a: { name: string }, b: { name: string }) => compareSkillNames(a.name, b.name);

/** Parse one SKILL.md or command file into a definition (undefined: the CLI does not offer it). */
export function parseSkillFile(
  ctx: DiscoveryContext,
  text: string,
  file: string,
  name: string,
  source: SkillSource,
  extra: { dir?: string; root?: string; fallback: string; pathGated: boolean },
): SkillDef | undefined {
  const { profile, sink } = ctx;
  const fm = parseFrontmatter(text, profile.stripBomBeforeFrontmatter);
  if (fm.tooDeep) sink.add({ path: file, line: 1, severity: 'warning', rule: 'frontmatter-too-deep', message: `frontmatter nests deeper than ${MAX_YAML_DEPTH} levels: not parsed as YAML (a parser runs out of stack there); read as Claude Code's fallback reads a value it cannot parse, as text` });
  if (fm.yamlError) sink.add({ path: file, line: 1, severity: 'warning', rule: 'invalid-frontmatter', message: `the frontmatter is not valid YAML (${fm.yamlError}); Claude Code ignores all of it and lists the skill with its first body line as description` });
  const data = fm.data;
  if (extra.pathGated && data.paths !== undefined) for (const h of globHazards(splitPatterns(data.paths))) sink.add({ path: file, severity: 'warning', ...h });
  const clean = (s: string) => cleanShownText(s, profile.skills.collapseDescriptionWhitespace, profile.skills.escapeAngleBrackets);
  const given = frontmatterDescription(data.description);
  const description = clean(given ?? descriptionFromBody(fm.body, extra.fallback));
  const wtu = data.when_to_use;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a non-text value is joined as JavaScript's `+` gives it (spec: desc + " - " + when_to_use)
  const whenToUse = wtu === null || wtu === undefined ? undefined : clean(String(wtu));
  const userInvocable = data['user-invocable'] === undefined ? true : (frontmatterFlag(data['user-invocable']) ?? false);
  const rawName = data.name;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a non-text name reads as JavaScript's String() gives it, as the listing's `+` does
  const displayName = rawName === null || rawName === undefined ? undefined : String(rawName).length <= 256 ? String(rawName) : undefined;
  if (profile.skills.validateNames && !isOfferableName(name)) {
    sink.add({ path: file, severity: 'warning', rule: 'skill-name-refused', message: `Claude Code ${profile.version} does not offer a skill named ${JSON.stringify(name)}: names may not be empty, longer than 256 characters, or hold control characters, < or >` });
    return undefined;
  }
  return {
    name,
    displayName,
    source,
    path: file,
    dir: extra.dir,
    root: extra.root,
    description,
    whenToUse,
    hasDescription: given !== undefined,
    disableModelInvocation: frontmatterFlag(data['disable-model-invocation']) ?? false,
    userInvocable,
    paths: extra.pathGated ? rulePatterns(data.paths) : undefined,
    yamlError: fm.yamlError,
  };
}

/** `<root>/<name>/SKILL.md` for every folder (or link to one) of `root`, sorted by name. */
export function loadSkillsDir(ctx: DiscoveryContext, root: string, source: SkillSource, seen: Set<string>): SkillDef[] {
  const { env } = ctx;
  const out: SkillDef[] = [];
  for (const e of listDir(env, root)) {
    if (e.kind !== 'dir' && e.kind !== 'symlink') continue;
    const dir = path.join(root, e.name);
    const file = path.join(dir, 'SKILL.md');
    const st = env.fs.stat(file);
    if (!st.ok || st.value.kind !== 'file') continue;
    // only a file named exactly SKILL.md (a case-insensitive file system may answer for skill.md)
    if (!listDir(env, dir).some((x) => x.name === 'SKILL.md')) continue;
    const real = env.fs.realpath(file);
    const id = real.ok ? real.value : file;
    if (seen.has(id)) continue;
    const r = env.fs.readFile(file, MAX_SKILL_BYTES);
    if (!r.ok) {
      const why = r.code === 'EFBIG' ? `it is over the engine's 4 MiB cap for a SKILL.md (${r.message})` : r.code === 'ENOTREG' ? 'it is not a regular file (a FIFO, device or socket)' : r.code === 'EISDIR' ? 'it is a folder' : `${r.code}`;
      ctx.sink.add({ path: file, severity: 'warning', rule: 'skill-unreadable', message: `cannot read this SKILL.md (${why}); the skill is skipped` });
      continue;
    }
    const text = decodeUtf8(r.value);
    seen.add(id);
    const def = parseSkillFile(ctx, text, file, e.name, source, { dir, root, fallback: 'Skill', pathGated: true });
    if (def) out.push(def);
  }
  return out.sort(byName);
}

/** `.md` files below `dir`, hidden ones included, following links (as `rg --files --hidden --follow -g '*.md'`). */
function markdownFiles(env: Environment, dir: string, out: string[] = [], depth = 0, visited = new Set<string>()): string[] {
  if (depth > 32) return out;
  const real = env.fs.realpath(dir);
  if (!real.ok || visited.has(real.value)) return out;
  visited.add(real.value);
  for (const e of listDir(env, dir)) {
    const p = path.join(dir, e.name);
    let kind = e.kind;
    if (kind === 'symlink') {
      const st = env.fs.stat(p);
      if (!st.ok) continue;
      kind = st.value.kind;
    }
    if (kind === 'dir') markdownFiles(env, p, out, depth + 1, visited);
    else if (kind === 'file' && e.name.endsWith('.md')) out.push(p);
  }
  return out;
}

/** `a/b` relative to `base` → `a:b` (empty when not below it) */
function namespaceOf(dir: string, base: string): string {
  const rel = path.relative(base, dir);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return '';
  return rel.split(path.sep).join(':');
}

/** Legacy commands of one `.claude/commands` folder: `ns/x.md` → `ns:x`; a folder holding SKILL.md is one skill. */
export function loadCommandsDir(ctx: DiscoveryContext, base: string, seen: Set<string>): SkillDef[] {
  const { env } = ctx;
  const files = markdownFiles(env, base);
  const byDir = new Map<string, string[]>();
  for (const f of files) {
    const d = path.dirname(f);
    byDir.set(d, [...(byDir.get(d) ?? []), f]);
  }
  const out: SkillDef[] = [];
  for (const [dir, group] of byDir) {
    const skillFiles = group.filter((f) => /^skill\.md$/i.test(path.basename(f)));
    const chosen = skillFiles.length > 0 ? [skillFiles[0]!] : group;
    for (const file of chosen) {
      const isSkill = skillFiles.length > 0;
      const ns = namespaceOf(isSkill ? path.dirname(dir) : dir, base);
      const leaf = isSkill ? path.basename(dir) : path.basename(file).replace(/\.md$/, '');
      const name = ns ? `${ns}:${leaf}` : leaf;
      const real = env.fs.realpath(file);
      const id = real.ok ? real.value : file;
      if (seen.has(id)) continue;
      const text = readText(env, file);
      if (text === undefined) continue;
      seen.add(id);
      const def = parseSkillFile(ctx, text, file, name, 'command', { dir: isSkill ? dir : undefined, root: base, fallback: 'Custom command', pathGated: false });
      if (def) out.push(def);
    }
  }
  return out;
}

/**
 * Folders from the launch directory upward whose `.claude/<kind>` is read: up to and including the
 * git root; outside git up to (not including) HOME, or to `/` when HOME is not above.
 */
export function projectDirs(env: Environment): string[] {
  const home = path.resolve(env.home);
  const git = findGit(env.fs, env.cwd);
  const stop = git?.root;
  const out: string[] = [];
  let d = path.resolve(env.cwd);
  for (let i = 0; i < 4096; i++) {
    if (d === home) break;
    out.push(d);
    if (stop && d === stop) break;
    const parent = path.dirname(d);
    if (parent === d) break;
    d = parent;
  }
  return out;
}

export interface Discovered {
  /** unconditional skills and commands, in listing order, before name dedupe */
  skills: SkillDef[];
  /** path-gated skills held back until a matching file is touched */
  conditional: SkillDef[];
}

/** Skills and legacy commands found on disk (plugins and shipped skills are added by the caller). */
export function discoverSkills(ctx: DiscoveryContext): Discovered {
  const { env } = ctx;
  const src = env.settingSources;
  const seen = new Set<string>();
  const all: SkillDef[] = [];
  const git = findGit(env.fs, env.cwd);
  const dirsOf = (kind: string) => {
    const dirs = projectDirs(env).map((d) => path.join(d, '.claude', kind));
    // a linked worktree without its own .claude/<kind> reads the main repository's
    if (git?.isWorktree && git.mainRoot && !isInside(git.mainRoot, git.root)) {
      const own = path.join(git.root, '.claude', kind);
      const main = path.join(git.mainRoot, '.claude', kind);
      if (!env.fs.stat(own).ok && !dirs.includes(main)) dirs.push(main);
    }
    return dirs;
  };
  if (!isTruthyEnv(env.env.CLAUDE_CODE_DISABLE_POLICY_SKILLS)) all.push(...loadSkillsDir(ctx, path.join(env.managedDir, '.claude', 'skills'), 'policy', seen));
  if (src.has('user')) all.push(...loadSkillsDir(ctx, path.join(env.userDir, 'skills'), 'user', seen));
  if (src.has('project')) {
    for (const d of dirsOf('skills')) all.push(...loadSkillsDir(ctx, d, 'project', seen));
    for (const a of env.addDirs) all.push(...loadSkillsDir(ctx, path.join(a, '.claude', 'skills'), 'add-dir', seen).map((s) => ({ ...s, addDir: a })));
  }
  // legacy commands: managed, user, project folders, added folders; merged and sorted by name
  const commands: SkillDef[] = [];
  const scoped = (defs: SkillDef[], commandScope: NonNullable<SkillDef['commandScope']>) => defs.map((d) => ({ ...d, commandScope }));
  commands.push(...scoped(loadCommandsDir(ctx, path.join(env.managedDir, '.claude', 'commands'), seen), 'policy'));
  if (src.has('user')) commands.push(...scoped(loadCommandsDir(ctx, path.join(env.userDir, 'commands'), seen), 'user'));
  if (src.has('project')) {
    for (const d of dirsOf('commands')) commands.push(...scoped(loadCommandsDir(ctx, d, seen), 'project'));
    for (const a of env.addDirs) commands.push(...scoped(loadCommandsDir(ctx, path.join(a, '.claude', 'commands'), seen), 'add-dir'));
  }
  all.push(...commands.sort(byName));
  const skills = all.filter((s) => !(s.paths && s.paths.length));
  const conditional = all.filter((s) => s.paths && s.paths.length);
  return { skills, conditional };
}

/** `--plugin-dir` folders: `<plugin>/skills/<name>/SKILL.md` and `<plugin>/commands/*.md`, listed as `plugin:name`. */
export function discoverPlugins(ctx: DiscoveryContext): SkillDef[] {
  const { env } = ctx;
  const out: SkillDef[] = [];
  const seen = new Set<string>();
  for (const dir of ctx.pluginDirs) {
    const manifest = readText(env, path.join(dir, '.claude-plugin', 'plugin.json'));
    let plugin = path.basename(dir);
    if (manifest) {
      try {
        const m = JSON.parse(manifest) as { name?: unknown };
        if (typeof m.name === 'string' && m.name.trim()) plugin = m.name.trim();
      } catch {
        ctx.sink.add({ path: path.join(dir, '.claude-plugin', 'plugin.json'), severity: 'warning', rule: 'plugin-manifest-invalid', message: 'plugin.json is not valid JSON' });
      }
    }
    const cmds = loadCommandsDir(ctx, path.join(dir, 'commands'), seen).map((s) => ({ ...s, name: `${plugin}:${s.name}`, source: 'plugin' as const }));
    // a plugin skill's frontmatter name is shown namespaced too: `- plug:dir (plug:fmname)` (measured on 328 and later)
    const skills = loadSkillsDir(ctx, path.join(dir, 'skills'), 'plugin', seen).map((s) => ({ ...s, name: `${plugin}:${s.name}`, displayName: s.displayName === undefined ? undefined : `${plugin}:${s.displayName}` }));
    out.push(...cmds.sort(byName), ...skills);
  }
  return out;
}
