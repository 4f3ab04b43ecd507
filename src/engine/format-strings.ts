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

// After the first request (session model, src/engine/session; measured with ../shared/oracle/session.mjs)
/** a file the session holds changed on disk: sent at the start of the next turn, notes joined by a blank line */
export const CHANGED_NOTE = (path: string, snippet: string) =>
  `Note: ${path} changed on disk since you last read it. That's usually deliberate, so take it as the current state rather than reverting it; if the change looks wrong, say so rather than undoing it yourself — otherwise no need to call it out. Here are the relevant changes (shown with line numbers):\n${snippet}`;
/** hunks of a changed-file snippet are joined by this line */
export const SNIPPET_HUNK_SEPARATOR = '\n...\n';
export const SNIPPET_TRUNCATED = (lines: number) => `\n\n... [${lines} lines truncated] ...`;
/** a skill invoked again with the same body as its last invocation in the conversation (arguments named when given) */
export const SKILL_ALREADY_LOADED = (name: string, args = '') => `Skill /${name} is already loaded above; instructions unchanged.${SKILL_ARGUMENTS_NOTE(args)}`;
/** the same after a compaction, when the body equals the one the invoked-skills section brought back */
export const SKILL_LOADED_EARLIER = (name: string, args = '') =>
  `Skill /${name} was loaded earlier (see the invoked-skills reminder above); this is a NEW invocation — follow those instructions now, including any setup steps.${SKILL_ARGUMENTS_NOTE(args)}`;
const SKILL_ARGUMENTS_NOTE = (args: string) => (args ? ` Arguments: ${args}` : '');
/** a skill invoked again with a body that differs (other arguments): a text block of its own before the body */
export const SKILL_REINVOKED = (name: string) => `(Re-invocation of /${name} — the skill instructions were previously loaded; the arguments or dynamic output below are new.)\n`;
/** the same when the copy the conversation holds is the one a compaction cut (its invoked-skills section): with
 *  any arguments, the same ones too (measured on 2.1.235 to 2.1.335) */
export const SKILL_REINVOKED_AFTER_CUT = (name: string) => `(Re-invocation of /${name} — the previously loaded copy was truncated by compaction; the full instructions follow.)\n`;
/** after the body of a skill whose name nested skills found by a touch share (listed as `dir:name`) */
export const SKILL_VARIANTS = (name: string, variants: { name: string; dir: string }[]) =>
  `Directory-scoped variants of the "${name}" skill exist in this repo:\n${variants.map((v) => `- \`${v.name}\` — for files under ${v.dir}/`).join('\n')}\nThe bare name always resolves to this unscoped skill; the variants are reachable only by their exact qualified names. If the files you are working on are under a variant's directory, invoke that variant now with the Skill tool and follow it instead — it carries that subtree's own instructions. If your changes span more than one variant's directory, run each matching variant.`;
/** appended to a skill body that has no `$ARGUMENTS` placeholder when arguments are given */
export const SKILL_ARGUMENTS_TAIL = (args: string) => `\n\nARGUMENTS: ${args}`;
/** after a compaction: a restored file too large to include */
export const COMPACT_FILE_REFERENCE = (path: string) =>
  `Note: ${path} was read before the last conversation was summarized, but the contents are too large to include. Use Read tool if you need to access it.`;
/** after a compaction: the invoked skills section, per profile (2.1.235 words its second paragraph differently) */
export const COMPACT_SKILLS_PREAMBLE = {
  v235:
    'The following skills were invoked EARLIER in this session (before the conversation was compacted), not on the current turn. They are shown here for context only so you remain aware of their guidelines.\n\nIMPORTANT: Do NOT re-execute these skills or perform their one-time setup actions (e.g., scheduling, creating files) again. The "## Input" sections below reflect the original arguments from when each skill was first invoked — they are NOT the user\'s current message. Only continue to apply ongoing behavioral guidelines from these skills where still relevant.\n\n',
  v328:
    'The following skills were invoked EARLIER in this session (before the conversation was compacted), not on the current turn. They are shown here for context only so you remain aware of their guidelines.\n\nIMPORTANT: Do NOT re-execute these skills or perform their one-time setup actions (e.g., scheduling, creating files) again. Any request or argument text embedded in the skill bodies below — for example under a "## User Request" or "## Input" heading — was captured when that skill was first invoked. It is NOT the user\'s current message and NOT a new request: do not act on it as if it were live. Only continue to apply ongoing behavioral guidelines from these skills where still relevant.\n\n',
} as const;
export const COMPACT_SKILL_ENTRY = (name: string, source: string, content: string) => `### Skill: ${name}\nPath: ${source}:${name}\n\n${content}`;
export const COMPACT_SKILL_SEPARATOR = '\n\n---\n\n';
export const COMPACT_SKILL_TRUNCATED = '\n\n[... skill content truncated for compaction; use Read on the skill path if you need the full text]';
/** a resumed session (2.1.328 on): the startup files whose text differs from the block the conversation holds */
export const RESUME_REREAD_HEAD =
  'Instruction files were re-read when this session started; these differ from their earlier copies — each replaces its earlier copy, and the instructions preamble above still applies:\n\n';
/** the Read tool's numbered lines: `N\tline` */
export const numberedLine = (n: number, line: string) => `${n}\t${line}`;

// The first request's MCP and tool-search sections (issue 32; measured on 2.1.235 to 2.1.335, docs/profiles.md)
/** the deferred-tools listing: this line, then one name per line (sorted), a section of the system message */
export const DEFERRED_TOOLS_LEAD =
  'The following deferred tools are now available via ToolSearch. Their schemas are NOT loaded — calling them directly will fail with InputValidationError. Use ToolSearch with query "select:<name>[,<name>...]" to load tool schemas before calling them:\n';
/** the MCP server instructions section: this head, then `## NAME\nINSTRUCTIONS` per server joined by a blank line */
export const MCP_INSTRUCTIONS_HEAD =
  '# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n';
export const MCP_SERVER_HEAD = (name: string) => `## ${name}\n`;
/** the agent listing, a section of the system message (2.1.328 on): this line, then one line per agent type, then a
 *  paragraph of Claude Code's (recognised by this head only) */
export const AGENT_LISTING_HEAD = 'Available agent types for the Agent tool:\n';
/** what replaces the rest of an MCP text past the cap (2.1.235: instructions and tool descriptions over 2,048) */
export const MCP_TRUNCATED = '… [truncated]';
/** sections of the system message are joined by a blank line */
export const SECTION_JOINER = '\n\n';
/** after the deferred-tools listing, the servers that did not make it (2.1.328 on; measured on 2.1.335), each section
 *  this line, one line per server (sorted), then a paragraph of Claude Code's (its width: FirstRequestProfile.mcpStatus):
 *  servers still connecting (no answer yet: hung, slow, or writing what is not JSON-RPC), */
export const MCP_PENDING_HEAD =
  'The following MCP servers are still connecting — their tools (typically named mcp__<server>__*) are not yet available but will appear shortly:\n';
/** servers that exited before answering (`NAME (CONNECTION_CLOSED): "Connection closed"`) */
export const MCP_FAILED_HEAD =
  'The following MCP servers are configured but failed to connect — their tools (typically named mcp__<server>__*) are unavailable for this session:\n';
export const MCP_FAILED_LINE = (name: string) => `${name} (CONNECTION_CLOSED): "Connection closed"`;
/** servers that answered tools/list with an error or with what is not a list of tools (2.1.332 on) */
export const MCP_LIST_FAILED_HEAD =
  'The following MCP servers are connected, but listing their tools failed — their tools (typically named mcp__<server>__*) are unavailable for now:\n';
