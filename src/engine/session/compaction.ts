// What the first request after `/compact` brings back (measured on 2.1.235, 2.1.328, 2.1.332):
// - files the session held (read, written, or lazily injected instruction files; never the startup
//   files), newest modification time first, at most five, each with its current text numbered as the
//   Read tool shows it; a file over the per-file token limit comes back as a reference without text;
// - the skills invoked inline, most recent first, each body cut past its token limit, within a total;
// - the startup block rebuilt from the disk as it is then (simulate.ts).
import { COMPACT_SKILL_ENTRY, COMPACT_SKILL_SEPARATOR, COMPACT_SKILL_TRUNCATED, COMPACT_SKILLS_PREAMBLE } from '../format-strings.js';
import type { SessionProfile } from '../profiles.js';
import { numberLines } from './changed-notes.js';
import { grouped } from '../diagnostics.js';

/** Claude Code's rough token estimate: four characters a token */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export interface HeldCandidate {
  path: string;
  mtimeMs: number;
  /** current text on disk, undefined when it cannot be read (deleted: not restored) */
  current: string | undefined;
}

export interface RestoredFile {
  path: string;
  /** the numbered lines, as after `Result of calling the Read tool:` */
  text: string;
}

export interface InvokedSkill {
  name: string;
  /** `projectSettings`, `userSettings`, … as the section's `Path:` line says */
  source: string;
  /** the body as it was injected */
  content: string;
  /** order of invocation (larger is later) */
  at: number;
  /** its SKILL.md */
  path?: string;
}

export interface RestoredSkill {
  name: string;
  chars: number;
  truncated: boolean;
}

export interface Restoration {
  files: RestoredFile[];
  /** files too large to include: a note naming them instead */
  references: string[];
  /** held files that do not come back, and why */
  left: { path: string; why: string }[];
  /** the invoked-skills section from its first line through the last skill's body, or null */
  skills: string | null;
  skillEntries: RestoredSkill[];
  /** invoked skills over the total budget */
  skillsLeft: string[];
}

export function restoreFiles(held: HeldCandidate[], p: SessionProfile): Pick<Restoration, 'files' | 'references' | 'left'> {
  const sorted = held
    .map((h, i) => ({ h, i }))
    .sort((a, b) => b.h.mtimeMs - a.h.mtimeMs || a.i - b.i)
    .map((x) => x.h);
  const files: RestoredFile[] = [];
  const references: string[] = [];
  const left: { path: string; why: string }[] = [];
  let used = 0;
  sorted.forEach((h, i) => {
    if (i >= p.compactMaxFiles) return left.push({ path: h.path, why: `only the ${p.compactMaxFiles} most recently modified files come back` });
    if (h.current === undefined) return left.push({ path: h.path, why: 'no longer on disk' });
    if (estimateTokens(h.current) > p.compactFileMaxTokens) {
      references.push(h.path);
      return;
    }
    const text = numberLines(h.current, 1);
    const cost = estimateTokens(text);
    if (used + cost > p.compactFilesBudget) return left.push({ path: h.path, why: `past the ${grouped(p.compactFilesBudget)}-token budget for restored files` });
    used += cost;
    files.push({ path: h.path, text });
  });
  return { files, references, left };
}

export function restoreSkills(invoked: InvokedSkill[], p: SessionProfile): Pick<Restoration, 'skills' | 'skillEntries' | 'skillsLeft'> {
  const ordered = [...invoked].sort((a, b) => b.at - a.at);
  const entries: string[] = [];
  const skillEntries: RestoredSkill[] = [];
  const skillsLeft: string[] = [];
  let used = 0;
  for (const s of ordered) {
    let content = s.content;
    let truncated = false;
    if (estimateTokens(content) > p.compactSkillMaxTokens) {
      content = content.slice(0, p.compactSkillMaxTokens * 4 - COMPACT_SKILL_TRUNCATED.length) + COMPACT_SKILL_TRUNCATED;
      truncated = true;
    }
    const cost = estimateTokens(content);
    if (used + cost > p.compactSkillsBudget) {
      skillsLeft.push(s.name);
      continue;
    }
    used += cost;
    entries.push(COMPACT_SKILL_ENTRY(s.name, s.source, content));
    skillEntries.push({ name: s.name, chars: content.length, truncated });
  }
  const skills = entries.length ? (COMPACT_SKILLS_PREAMBLE[p.compactSkillsPreamble] + entries.join(COMPACT_SKILL_SEPARATOR)).trimEnd() : null;
  return { skills, skillEntries, skillsLeft };
}
