// The short strings the engine must reproduce byte for byte, measured on the real Claude Code
// (../shared/spec). Nothing else of Claude Code's text is kept in this project.
import type { InstructionType } from './model.js';

export const PREAMBLE =
  'Codebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.';

export const SUFFIX: Record<InstructionType, string> = {
  Project: ' (project instructions, checked into the codebase)',
  Local: " (user's private project instructions, not checked in)",
  User: " (user's private global instructions for all projects)",
  Managed: ' (organization-managed policy instructions)',
  AutoMem: " (user's auto-memory, persists across conversations)",
};

export const MANAGED_SETTINGS_PATH = '<managed-settings>';

/** `Contents of PATH SUFFIX:\n\nCONTENT` (startup) and `Contents of PATH:\n\nCONTENT` (lazy) */
export function entryText(path: string, suffix: string, content: string): string {
  return `Contents of ${path}${suffix}:\n\n${content}`;
}

export const SYSTEM_REMINDER_OPEN = '<system-reminder>\n';
export const SYSTEM_REMINDER_CLOSE = '\n</system-reminder>';
/** 2.1.235 puts the instructions inside the context reminder */
export const CONTEXT_REMINDER_HEAD = "<system-reminder>\nAs you answer the user's questions, you can use the following context:\n";
export const CLAUDE_MD_SECTION = '# claudeMd\n';
export const CURRENT_DATE_SECTION = '# currentDate\n';
export const AGENTS_HOOK_PREFIX = 'tool.call hook additional context: ';

// MEMORY.md truncation (memory spec A2)
export const MEMORY_WARNING_PREFIX = '\n\n> WARNING: ';
export const MEMORY_WARNING_TAIL = 'Keep index entries to one line under ~200 chars; move detail into topic files.';

// Skills listing (memory spec B5)
export const SKILLS_LISTING_HEADER = 'The following skills are available for use with the Skill tool:\n\n';
export const SKILL_BASE_DIR_PREFIX = 'Base directory for this skill: ';
/** what a shipped skill's description is rendered as (its text is Claude Code's, not reproduced here) */
export const BUNDLED_DESCRIPTION_PLACEHOLDER = '[description of a skill shipped with Claude Code]';
/** lazy skills (memory spec B8, "Dynamic listing"): a path-gated skill activated, skills found below the launch directory */
export const NEW_SKILLS_DISCOVERED = (dir: string) => `New skills discovered in ${dir}, now available via the Skill tool:\n`;
export const SCOPED_SKILL_NOTE = (dir: string, name: string) => ` (scoped to ${dir}/ — use this instead of the unscoped "${name}" skill when the files being changed are under ${dir}/)`;
export const NESTED_SKILL_NOTE = (skillsDir: string, dir: string) => ` (from ${skillsDir} — applies when working on files under ${dir}/)`;
