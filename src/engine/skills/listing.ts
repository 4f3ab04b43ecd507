// The skills listing as Claude Code writes it (memory spec B5, B7): one `- name: description` entry
// per skill, each description capped, and when the whole exceeds the budget (display width), the
// entries demoted to `- name` greedily by usage score. Shipped skills are fixed in full.
import { BUNDLED_DESCRIPTION_PLACEHOLDER, SKILLS_LISTING_HEADER } from '../format-strings.js';
import type { ClaudeProfile } from '../profiles.js';
import type { SkillDef, SkillSource } from './discover.js';
import { isShowableName } from './text.js';
import { displayWidth } from './width.js';

export const DEFAULT_DESCRIPTION_CAP = 1536;

export type Override = 'on' | 'name-only' | 'user-invocable-only' | 'off';

export interface SkillEntry {
  name: string;
  /** the name as the entry shows it: `name`, or on 2.1.328 `name (frontmatter name)` */
  label: string;
  source: SkillSource;
  path?: string;
  /** the entry as it stands in the listing (a shipped skill's description is a placeholder) */
  text: string;
  /** the entry in full, and as a bare name */
  full: string;
  nameOnly: string;
  fullWidth: number;
  nameOnlyWidth: number;
  /** demoted to its bare name because the listing is over budget */
  demoted: boolean;
  /** listed by name only through skillOverrides (never gets its description back) */
  nameOnlyByOverride: boolean;
  /** shipped in the binary (its description is not reproduced) */
  bundled: boolean;
  /** never demoted: bundled-typed shipped skills and name-only overrides */
  fixed: boolean;
  /** the description (with when_to_use) was over the cap and cut to it */
  cut: boolean;
  /** description length (with ` - when_to_use`) before the cap, UTF-16 units */
  descriptionChars: number;
  /** usage score from skillUsage (0 when never used) */
  score: number;
}

export interface Listing {
  /** header + entries joined by `\n` (placeholders for shipped skills); '' when nothing is listed */
  text: string;
  entries: SkillEntry[];
  budget: number;
  cap: number;
  /** Σ width(full entries) + newlines: what the listing would take with no demotion */
  fullWidth: number;
  /** width of the listing as sent */
  width: number;
  overBudget: boolean;
  /** the listing text contains placeholders instead of shipped skills' descriptions */
  hasPlaceholders: boolean;
  /** how many entries hold a placeholder */
  placeholders: number;
  /** the listing's length as Claude Code sends it, UTF-16 units: `text` with each placeholder counted
   *  as the measured length of the description it stands for (= text.length when there is none) */
  sentChars: number;
}

export interface ListingInput {
  profile: ClaudeProfile;
  skills: SkillDef[];
  /** every command name the CLI knows (for the `(fmname)` label): listed or not */
  knownCommands: SkillDef[];
  /** names a frontmatter `name` cannot take over (default: the profile's `reservedNames`) */
  reservedNames?: readonly string[];
  budget: number;
  cap: number;
  overrides: Record<string, Override>;
  score: (name: string) => number;
}

/** `- dir (fmname)` on 2.1.328 when the frontmatter name is shown beside the folder name. */
export function entryLabel(s: SkillDef, profile: ClaudeProfile, known: SkillDef[], reserved: readonly string[] = profile.skills.reservedNames): string {
  if (!profile.skills.showFrontmatterName) return s.name;
  const fm = s.displayName;
  if (fm === undefined || fm === s.name || s.name.endsWith(`:${fm}`) || !isShowableName(fm)) return s.name;
  if (reserved.includes(fm)) return s.name;
  // the frontmatter name must lead back to this skill: no command is named so, and no earlier one shows it
  if (known.some((k) => k.name === fm)) return s.name;
  const first = known.find((k) => (k.displayName ?? k.name) === fm);
  return first && first !== s && first.name !== s.name ? s.name : `${s.name} (${fm})`;
}

export function describe(s: SkillDef): string {
  return s.whenToUse ? `${s.description} - ${s.whenToUse}` : s.description;
}

/** lone surrogates become U+FFFD, as when the request is encoded as UTF-8 */
export function wellFormed(s: string): string {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

export function capDescription(d: string, cap: number): string {
  return d.length > cap ? `${d.slice(0, cap - 1)}\u2026` : d;
}

export function buildListing(input: ListingInput): Listing {
  const { profile, budget, cap } = input;
  const w = (s: string) => displayWidth(s, profile);
  const entries: SkillEntry[] = input.skills.map((s) => {
    const nameOnlyByOverride = input.overrides[s.name] === 'name-only';
    const bundled = s.source === 'bundled' || s.source === 'builtin';
    if (nameOnlyByOverride) {
      const t = `- ${s.name}`;
      return { name: s.name, label: s.name, source: s.source, path: s.path, text: t, full: t, nameOnly: t, fullWidth: w(t), nameOnlyWidth: w(t), demoted: false, nameOnlyByOverride, bundled, fixed: true, cut: false, descriptionChars: 0, score: input.score(s.name) };
    }
    const label = entryLabel(s, profile, input.knownCommands, input.reservedNames);
    const nameOnly = `- ${label}`;
    if (bundled) {
      const chars = s.shipped?.descriptionChars ?? 0;
      const known = s.shipped?.text;
      const full = `${nameOnly}: ${known !== undefined ? wellFormed(capDescription(known, cap)) : BUNDLED_DESCRIPTION_PLACEHOLDER}`;
      const zw = s.shipped?.zeroWidthAt ?? [];
      // every unit of a shipped description is one column, except raw newlines; the cap applies to them too
      const descWidth = chars <= cap ? chars - zw.length : cap - 1 - zw.filter((p) => p < cap - 1).length + 1;
      return { name: s.name, label, source: s.source, path: s.path, text: full, full, nameOnly, fullWidth: w(`${nameOnly}: `) + descWidth, nameOnlyWidth: w(nameOnly), demoted: false, nameOnlyByOverride, bundled, fixed: s.fixed === true, cut: chars > cap, descriptionChars: chars, score: input.score(s.name) };
    }
    const d = describe(s);
    if (s.entryNote !== undefined) {
      // an --add-dir skill after the shipped ones: `- DIR:name: description (note)`, the cap before the note
      const full = wellFormed(`- ${s.name}: ${capDescription(d, cap)}${s.entryNote}`);
      const bare = `- ${s.name}`;
      return { name: s.name, label: s.name, source: s.source, path: s.path, text: full, full, nameOnly: bare, fullWidth: w(full), nameOnlyWidth: w(bare), demoted: false, nameOnlyByOverride, bundled, fixed: false, cut: d.length > cap, descriptionChars: d.length, score: input.score(s.name) };
    }
    // a cut can split a surrogate pair; the request carries U+FFFD for the lone half (the width counts it as sent)
    const full = wellFormed(`${nameOnly}: ${capDescription(d, cap)}`);
    return { name: s.name, label, source: s.source, path: s.path, text: full, full, nameOnly, fullWidth: w(full), nameOnlyWidth: w(nameOnly), demoted: false, nameOnlyByOverride, bundled, fixed: false, cut: d.length > cap, descriptionChars: d.length, score: input.score(s.name) };
  });
  const n = entries.length;
  const fullWidth = entries.reduce((a, e) => a + e.fullWidth, 0) + Math.max(0, n - 1);
  let overBudget = false;
  if (fullWidth > budget) {
    overBudget = true;
    const movable = entries.map((e, i) => i).filter((i) => !entries[i]!.fixed);
    if (movable.length > 0) {
      // 2.1.235 measures a bare name as width(name) + 2; the same figure as width(`- name`)
      const base = entries.reduce((a, e) => a + (e.fixed ? e.fullWidth : e.nameOnlyWidth), 0) + (n - 1);
      let remaining = budget - base;
      const order = movable.slice().sort((a, b) => entries[b]!.score - entries[a]!.score);
      for (const i of order) {
        const e = entries[i]!;
        const delta = e.fullWidth - e.nameOnlyWidth;
        if (delta <= remaining) remaining -= delta;
        else e.demoted = true;
      }
      for (const e of entries) if (e.demoted) e.text = e.nameOnly;
    }
  }
  const width = entries.reduce((a, e) => a + (e.demoted ? e.nameOnlyWidth : e.fullWidth), 0) + Math.max(0, n - 1);
  const text = n === 0 ? '' : SKILLS_LISTING_HEADER + entries.map((e) => e.text).join('\n');
  const held = entries.filter((e) => !e.demoted && e.text.endsWith(`: ${BUNDLED_DESCRIPTION_PLACEHOLDER}`) && e.bundled);
  const sentChars = text.length + held.reduce((n, e) => n + Math.min(e.descriptionChars, cap) - BUNDLED_DESCRIPTION_PLACEHOLDER.length, 0);
  return { text, entries, budget, cap, fullWidth, width, overBudget, hasPlaceholders: held.length > 0, placeholders: held.length, sentChars };
}

/** Usage score: uses × max(0.5^(days since last use / 7), 0.1), from `skillUsage` in ~/.claude.json. */
export function usageScore(skillUsage: unknown, name: string, now: number): number {
  if (!skillUsage || typeof skillUsage !== 'object' || !Object.prototype.hasOwnProperty.call(skillUsage, name)) return 0;
  const u = (skillUsage as Record<string, unknown>)[name];
  if (!u || typeof u !== 'object') return 0;
  const count = Number((u as { usageCount?: unknown }).usageCount);
  const last = Number((u as { lastUsedAt?: unknown }).lastUsedAt);
  if (!Number.isFinite(count) || !Number.isFinite(last)) return 0;
  const days = (now - last) / 86_400_000;
  return count * Math.max(Math.pow(0.5, days / 7), 0.1);
}
