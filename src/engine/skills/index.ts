// Skills as they reach the first request (memory spec B5–B8): discovery, the listing with its two
// budgets (per-description cap, total width budget with demotion), and the lazy additions a touch
// brings (path-gated skills, skills in folders below the launch directory).
import * as path from 'node:path';
import type { DiagnosticSink } from '../diagnostics.js';
import { isStrictlyInside, isTruthyEnv, type Environment } from '../environment.js';
import { NESTED_SKILL_NOTE, NEW_SKILLS_DISCOVERED, SCOPED_SKILL_NOTE, SKILLS_LISTING_HEADER } from '../format-strings.js';
import { compileMatcher } from '../globs/globs.js';
import type { ClaudeProfile } from '../profiles.js';
import type { Settings, SettingsLayerName } from '../settings.js';
import { discoverPlugins, discoverSkills, loadSkillsDir, type DiscoveryContext, type SkillDef } from './discover.js';
import { buildListing, capDescription, describe, DEFAULT_DESCRIPTION_CAP, usageScore, type Listing, type Override, type SkillEntry } from './listing.js';
import { listingBudget, usesLegacyPrompt, type ListingBudget } from './models.js';

export { displayWidth } from './width.js';
export { resolveModel, listingBudget, canonicalModel, type ModelChoice, type ListingBudget } from './models.js';
export type { SkillDef, SkillSource } from './discover.js';
export type { SkillEntry, Listing } from './listing.js';

export interface HiddenSkill {
  name: string;
  path?: string;
  reason: string;
}

export interface LazySkillLayer {
  kind: 'path-gated' | 'nested';
  /** skills the touch makes available, as listed */
  names: string[];
  /** the message Claude Code adds after the tool result (2.1.235 appends its `<total_tokens>` line, not reproduced) */
  text: string;
  /** nested: the `New skills discovered…` part and the listing part. 2.1.328 sends both in one message;
   *  2.1.235 sends the first after the tool result and the listing one turn later */
  discovered?: string;
  listing: string;
  /** skills folder (nested) or SKILL.md files (path-gated) */
  paths: string[];
  /** the skills themselves, in the order of `names` */
  skills: SkillDef[];
  /** nested: the folder below the launch directory they apply to (`pkg`) */
  dir?: string;
}

export interface SkillsAnalysis {
  /** false with --bare: no Skill tool, no listing */
  enabled: boolean;
  /** the listing from its header line to its last entry; '' when nothing is listed */
  text: string;
  entries: SkillEntry[];
  /** listing width as sent, the budget, the per-description cap */
  used: number;
  budget: number;
  cap: number;
  /** what the listing would take with every description */
  fullWidth: number;
  overBudget: boolean;
  budgetInfo: ListingBudget;
  listing: Listing;
  /** where the listing goes: a role-system message (Claude 5 models on 328) or a system reminder in the first user message */
  placement: 'system-message' | 'system-reminder';
  /** found but not listed, and why */
  hidden: HiddenSkill[];
  /** path-gated skills, listed after a matching file is touched */
  conditional: SkillDef[];
  /** what touching `file` would add to the skills the model knows (folders below the launch directory, path-gated skills) */
  lazyFor(file: string): LazySkillLayer[];
  /** the skill a `Skill {skill: name}` call resolves to (by its listed name or frontmatter name), with
   *  skills hidden from the listing included (the caller decides what Claude Code does with them) */
  find(name: string): SkillDef | undefined;
}

const PRECEDENCE_LOW_TO_HIGH: SettingsLayerName[] = ['user', 'project', 'local', 'flag', 'policy'];

function mergedOverrides(settings: Settings): Record<string, Override> {
  const out: Record<string, Override> = {};
  for (const n of PRECEDENCE_LOW_TO_HIGH)
    for (const l of settings.layers.filter((x) => x.name === n)) {
      const v = l.data.skillOverrides;
      if (!v || typeof v !== 'object' || Array.isArray(v)) continue;
      for (const [k, o] of Object.entries(v as Record<string, unknown>))
        if (o === 'on' || o === 'name-only' || o === 'user-invocable-only' || o === 'off') out[k] = o;
    }
  return out;
}

function shipped(env: Environment, profile: ClaudeProfile, bundledDisabled: boolean): SkillDef[] {
  const out: SkillDef[] = [];
  for (const b of profile.skills.bundled) {
    if (b.hiddenByEnv && isTruthyEnv(env.env[b.hiddenByEnv])) continue;
    if (bundledDisabled && !b.survivesDisable) continue;
    const alt = b.whenEnv && isTruthyEnv(env.env[b.whenEnv.name]) ? b.whenEnv : undefined;
    const descriptionChars = alt ? alt.descriptionChars : b.descriptionChars;
    // the installed binary's own text, used only when it is exactly as long as the measured description
    const text = env.shippedSkillText?.[b.name];
    out.push({
      name: b.name, source: b.kind, description: '', hasDescription: true, disableModelInvocation: false, userInvocable: true,
      shipped: { descriptionChars, zeroWidthAt: alt ? [] : (b.zeroWidthAt ?? []), ...(text !== undefined && text.length === descriptionChars ? { text } : {}) }, fixed: b.kind === 'bundled',
    });
  }
  return out;
}

export interface SkillsOptions {
  env: Environment;
  settings: Settings;
  profile: ClaudeProfile;
  sink: DiagnosticSink;
  /** for usage scores (default: now) */
  now?: number;
}

export function analyzeSkills(o: SkillsOptions): SkillsAnalysis {
  const { env, settings, profile, sink } = o;
  const budgetInfo = listingBudget(env, settings, profile);
  const capSetting = settings.get<unknown>('skillListingMaxDescChars')?.value;
  const cap = typeof capSetting === 'number' && Number.isFinite(capSetting) && capSetting > 0 ? Math.floor(capSetting) : DEFAULT_DESCRIPTION_CAP;
  const placement = usesLegacyPrompt(budgetInfo.model.canonical) ? 'system-reminder' : 'system-message';
  const empty = (why: string): SkillsAnalysis => {
    const listing = buildListing({ profile, skills: [], knownCommands: [], budget: budgetInfo.budget, cap, overrides: {}, score: () => 0 });
    return { enabled: false, text: '', entries: [], used: 0, budget: budgetInfo.budget, cap, fullWidth: 0, overBudget: false, budgetInfo, listing, placement, hidden: [{ name: '*', reason: why }], conditional: [], lazyFor: () => [], find: () => undefined };
  };
  if (env.bare) return empty('--bare: no Skill tool and no listing');

  const ctx: DiscoveryContext = { env, profile, sink, pluginDirs: env.pluginDirs ?? [] };
  const disk = discoverSkills(ctx);
  const plugins = discoverPlugins(ctx);
  const dbs = settings.get<unknown>('disableBundledSkills')?.value === true || isTruthyEnv(env.env.CLAUDE_CODE_DISABLE_BUNDLED_SKILLS);
  const ship = shipped(env, profile, dbs);
  const overrides = mergedOverrides(settings);
  const known = [...disk.skills, ...plugins, ...ship];
  const hidden: HiddenSkill[] = [];
  if (dbs)
    for (const b of profile.skills.bundled)
      if (b.kind === 'builtin') hidden.push({ name: b.name, reason: 'bundled skills are disabled (disableBundledSkills / CLAUDE_CODE_DISABLE_BUNDLED_SKILLS): built-in commands are hidden from the model' });
  const listed: SkillDef[] = [];
  // --add-dir skills listed after the shipped ones, under `DIR:name`
  const after: SkillDef[] = [];
  const names = new Set<string>();
  const frontmatterNames = new Set<string>();
  const isProtected = protectedNameCheck(env, profile);
  for (const s of known) {
    const ov = overrides[s.name];
    if (s.disableModelInvocation) {
      hidden.push({ name: s.name, path: s.path, reason: 'disable-model-invocation: the model cannot invoke it, so it is not listed' });
      continue;
    }
    if (ov === 'off' || ov === 'user-invocable-only') {
      hidden.push({ name: s.name, path: s.path, reason: `skillOverrides sets it to "${ov}"` });
      continue;
    }
    const taken = isProtected(s);
    if (taken) {
      hidden.push({ name: s.name, path: s.path, reason: `Claude Code ${profile.version} keeps the name "${taken}" for its shipped skill: a project, --add-dir or command skill named so is not listed` });
      if (s.path) sink.add({ path: s.path, line: 1, severity: 'warning', rule: 'skill-name-protected', message: `not listed: Claude Code ${profile.version} keeps the name "${taken}" for its shipped skill (a skill in ~/.claude/skills may still replace it)` });
      continue;
    }
    if (s.source === 'add-dir' && s.addDir !== undefined) {
      const fmTaken = s.displayName !== undefined && frontmatterNames.has(s.displayName.toLowerCase());
      if (names.has(s.name) && profile.skills.addDirClash === 'scoped-after-shipped') {
        after.push(addDirEntry(env, s, 'scoped'));
        continue;
      }
      if (fmTaken && profile.skills.addDirFrontmatterClash === 'nested-after-shipped') {
        after.push(addDirEntry(env, s, 'nested'));
        continue;
      }
    }
    if (names.has(s.name)) {
      hidden.push({ name: s.name, path: s.path, reason: `an earlier skill or command has the same name "${s.name}" (the first one wins)` });
      if (s.path) sink.add({ path: s.path, line: 1, severity: 'warning', rule: 'skill-shadowed', message: `not listed: an earlier skill or command is also named "${s.name}", and the first one wins` });
      continue;
    }
    names.add(s.name);
    if (s.displayName !== undefined) frontmatterNames.add(s.displayName.toLowerCase());
    listed.push(s);
  }
  // measured: after the bundled-typed shipped skills, before the built-in commands (init, security-review)
  const builtinAt = listed.findIndex((x) => x.source === 'builtin');
  listed.splice(builtinAt < 0 ? listed.length : builtinAt, 0, ...after);
  const conditional: SkillDef[] = [];
  for (const c of disk.conditional) {
    const taken = isProtected(c);
    if (taken) hidden.push({ name: c.name, path: c.path, reason: `Claude Code ${profile.version} keeps the name "${taken}" for its shipped skill: this path-gated skill is never listed` });
    else conditional.push(c);
  }
  for (const c of conditional) hidden.push({ name: c.name, path: c.path, reason: `path-gated (paths: ${c.paths!.join(', ')}): listed after a matching file is touched` });

  const skillUsage = settings.globalConfig.skillUsage;
  const now = o.now ?? Date.now();
  // shipped skills that are never listed still hold their names while bundled skills are on
  const reservedNames = dbs ? profile.skills.reservedNames : [...profile.skills.reservedNames, ...profile.skills.reservedWhileBundled];
  const listing = buildListing({ profile, skills: listed, knownCommands: known, reservedNames, budget: budgetInfo.budget, cap, overrides, score: (n) => usageScore(skillUsage, n, now) });
  // cut and demoted entries are reported by the workspace checks (skill-description-cut, skill-demoted)

  const lazyFor = (file: string): LazySkillLayer[] => lazySkills(ctx, conditional, new Set(listed.map((s) => s.name)), cap, file, isProtected);
  return {
    enabled: true,
    text: listing.text,
    entries: listing.entries,
    used: listing.width,
    budget: listing.budget,
    cap,
    fullWidth: listing.fullWidth,
    overBudget: listing.overBudget,
    budgetInfo,
    listing,
    placement,
    hidden,
    conditional,
    lazyFor,
    find: (name: string) => {
      const pool = [...listed, ...known, ...disk.conditional];
      return pool.find((s) => s.name === name) ?? pool.find((s) => s.displayName === name);
    },
  };
}

/** The shipped name (lower case) a skill would take against the profile's `protectedNames`, if any: project,
 *  --add-dir and legacy-command skills (not ~/.claude ones, not plugins) by their name, skills also by their
 *  frontmatter name, in any case; a name is free while its shipped skill is unregistered by its `hiddenByEnv`. */
function protectedNameCheck(env: Environment, profile: ClaudeProfile): (s: SkillDef) => string | undefined {
  const active = new Set(
    profile.skills.protectedNames.filter((n) => {
      const b = profile.skills.bundled.find((x) => x.name === n);
      return !(b?.hiddenByEnv && isTruthyEnv(env.env[b.hiddenByEnv]));
    }),
  );
  if (active.size === 0) return () => undefined;
  return (s) => {
    const local = s.source === 'project' || s.source === 'add-dir' || (s.source === 'command' && (s.commandScope === 'project' || s.commandScope === 'add-dir'));
    if (!local) return undefined;
    const byName = s.name.toLowerCase();
    if (active.has(byName)) return byName;
    // a legacy command's frontmatter name does not count (nor that of a SKILL.md inside .claude/commands)
    const fm = s.source !== 'command' ? s.displayName?.toLowerCase() : undefined;
    return fm !== undefined && active.has(fm) ? fm : undefined;
  };
}

/** an --add-dir skill listed after the shipped skills as `DIR:name`: DIR is the folder's path from the launch
 *  directory when inside it, else its name; `scoped` (its name was taken) or `nested` (its frontmatter name was) */
function addDirEntry(env: Environment, s: SkillDef, kind: 'scoped' | 'nested'): SkillDef {
  const a = s.addDir!;
  const dir = isStrictlyInside(a, env.cwd) ? relDir(env, a) : path.basename(a);
  const entryNote = kind === 'scoped' ? SCOPED_SKILL_NOTE(dir, s.name) : NESTED_SKILL_NOTE(`${dir}/.claude/skills`, dir);
  return { ...s, name: `${dir}:${s.name}`, displayName: undefined, entryNote };
}

function relDir(env: Environment, d: string): string {
  return path.relative(env.cwd, d).split(path.sep).join('/');
}

/** What a touch of `file` adds: skills in `.claude/skills` folders strictly below the launch directory
 *  down to the file's folder, and path-gated skills whose patterns match (relative to the launch directory). */
function lazySkills(ctx: DiscoveryContext, conditional: SkillDef[], listedNames: Set<string>, cap: number, file: string, isProtected: (s: SkillDef) => string | undefined): LazySkillLayer[] {
  const { env } = ctx;
  const out: LazySkillLayer[] = [];
  const entryOf = (name: string, s: SkillDef, note = '') => `- ${name}: ${capDescription(describe(s), cap)}${note}`;
  if (env.settingSources.has('project') && isStrictlyInside(file, env.cwd)) {
    const rel = path.relative(env.cwd, path.dirname(file));
    let d = env.cwd;
    for (const part of rel ? rel.split(path.sep) : []) {
      d = path.join(d, part);
      const skillsDir = path.join(d, '.claude', 'skills');
      const found = loadSkillsDir(ctx, skillsDir, 'project', new Set()).filter((s) => !s.disableModelInvocation && !(s.paths && s.paths.length) && !isProtected(s));
      if (found.length === 0) continue;
      const dir = relDir(env, d);
      const shown = found.map((s) => (listedNames.has(s.name) ? `${dir}:${s.name}` : s.name));
      const head = NEW_SKILLS_DISCOVERED(`${dir}/.claude/skills`) + shown.map((n) => `- ${n}`).join('\n');
      const entries = found.map((s, i) => entryOf(shown[i]!, s, shown[i] !== s.name ? SCOPED_SKILL_NOTE(dir, s.name) : NESTED_SKILL_NOTE(`${dir}/.claude/skills`, dir)));
      const listing = SKILLS_LISTING_HEADER + entries.join('\n');
      out.push({ kind: 'nested', names: shown, text: `${head}\n\n${listing}`, discovered: head, listing, paths: [skillsDir], skills: found, dir });
    }
  }
  const matched = conditional.filter((s) => compileMatcher(env.cwd, s.paths!).matches(file) && !listedNames.has(s.name));
  if (matched.length) {
    const listing = SKILLS_LISTING_HEADER + matched.map((s) => entryOf(s.name, s)).join('\n');
    out.push({ kind: 'path-gated', names: matched.map((s) => s.name), text: listing, listing, paths: matched.map((s) => s.path!), skills: matched });
  }
  return out;
}
