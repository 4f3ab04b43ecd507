// Every diagnostic rule id the engine and the workspace checks emit, with a one-line description
// and its usual severity: the catalogue behind SARIF's `tool.driver.rules` and the docs. Severity by one
// rule: error where Claude Code drops or cuts something the user wrote (a file, an include, the end of
// MEMORY.md, a skill description); warning where a rule or key can never work as written (a `paths:` that
// matches nothing, `globs:`); info for advice.
import type { Severity } from '../diagnostics.js';
import { versionList } from '../profiles.js';

export interface RuleInfo {
  id: string;
  severity: Severity;
  description: string;
}

const LIST: RuleInfo[] = [
  // engine (analysis)
  { id: 'include-outside-cwd', severity: 'error', description: '@include not loaded: its target is outside the launch directory and external includes are not approved' },
  { id: 'include-missing', severity: 'warning', description: '@include not loaded: no such file' },
  { id: 'include-not-text', severity: 'error', description: '@include not loaded: the extension is not one Claude Code includes' },
  { id: 'include-too-deep', severity: 'error', description: '@include not loaded: includes are followed to depth 4 only' },
  { id: 'excluded', severity: 'info', description: 'file excluded by a claudeMdExcludes pattern' },
  { id: 'over-4mib', severity: 'error', description: 'instruction file over 4 MiB: Claude Code skips it whole, silently' },
  { id: 'large-file', severity: 'info', description: "instruction file of 40,000 characters or more: Claude Code's /memory view flags it (it still loads in full)" },
  { id: 'unreadable', severity: 'warning', description: 'file or folder cannot be read: Claude Code skips it silently' },
  { id: 'symlink-loop', severity: 'warning', description: 'symlink loop: skipped' },
  { id: 'not-a-file', severity: 'warning', description: 'an instruction name that is not a regular file (folder, FIFO, device): skipped' },
  { id: 'invalid-frontmatter', severity: 'warning', description: 'frontmatter is not valid YAML: Claude Code strips it and ignores its keys' },
  { id: 'empty', severity: 'info', description: 'empty after frontmatter and comments are removed: skipped with its includes' },
  { id: 'rule-not-md', severity: 'warning', description: 'file in .claude/rules that does not end in lowercase ".md": Claude Code ignores it' },
  { id: 'rules-link-outside-cwd', severity: 'warning', description: 'symlinked rule or rules folder pointing outside the launch directory: skipped' },
  { id: 'settings-invalid', severity: 'warning', description: 'settings file is not valid JSON or has a wrong type' },
  { id: 'settings-list-capped', severity: 'warning', description: 'a settings list past the engine\'s cap (claudeMdExcludes: 10,000 patterns): only the first are used' },
  { id: 'settings-unreadable', severity: 'warning', description: 'settings file cannot be read' },
  { id: 'unknown-version', severity: 'info', description: 'no profile for the requested Claude Code version; the nearest older one is used' },
  { id: 'skill-name-refused', severity: 'warning', description: `a skill whose name is empty, over 256 characters, or holds control characters, < or >: Claude Code ${versionList((p) => p.skills.validateNames)} does not offer it` },
  { id: 'skill-shadowed', severity: 'warning', description: 'a skill or command with the name of an earlier one: only the first is listed' },
  { id: 'skill-name-protected', severity: 'warning', description: `a project, --add-dir or command skill named like a shipped skill whose name Claude Code ${versionList((p) => p.skills.protectedNames.length > 0)} keeps: it is not listed` },
  { id: 'skill-unreadable', severity: 'warning', description: 'a SKILL.md that cannot be read: the skill is skipped' },
  { id: 'tool-search-off', severity: 'info', description: 'tool search is off (ENABLE_TOOL_SEARCH, or a version where it is off unless set): the schemas of every deferrable tool, built-in and MCP, are sent at the start of every session; the message gives the characters' },
  { id: 'mcp-text-cut', severity: 'warning', description: "an MCP server's instructions or tool descriptions over the version's cap (2,048 or 4,096 characters by version, or what CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH sets where the version reads it; the profile table holds each version's): cut with \"… [truncated]\"" },
  { id: 'mcp-server-shadowed', severity: 'warning', description: 'one MCP server name defined in two scopes: the higher one (--mcp-config > local > project > user) wins, the other is never connected' },
  { id: 'mcp-server-off', severity: 'info', description: 'an MCP server configured and turned off (disabledMcpjsonServers)' },
  { id: 'mcp-server-never-connected', severity: 'info', description: "an MCP server configured and connected in none of the newest sessions of this folder written since its configuration changed (the user's own transcripts, read only)" },
  { id: 'mcp-config-unreadable', severity: 'warning', description: 'an MCP configuration file (.mcp.json, --mcp-config) that cannot be read or is not JSON, or a server with neither a command nor a url' },
  { id: 'plugin-manifest-invalid', severity: 'warning', description: 'a plugin.json that is not valid JSON: the plugin folder name is used' },
  { id: 'frontmatter-too-deep', severity: 'warning', description: 'frontmatter nested deeper than 400 levels: not parsed as YAML, its values are read as text (as Claude Code\'s lenient retry does)' },
  { id: 'glob-list-capped', severity: 'warning', description: 'a `paths:` list of more than 10,000 patterns: the engine matches the first 10,000 only' },
  { id: 'glob-too-long', severity: 'warning', description: 'a `paths:` pattern over 131,072 characters: the engine treats it as matching nothing, Claude Code (no bound) may load the rule' },
  { id: 'glob-backtracks', severity: 'warning', description: 'a `paths:` pattern with four or more `*` in one segment (or `**` segments): Claude Code\'s backtracking matcher can hang on a file whose path nearly matches' },
  { id: 'memory-unreadable', severity: 'warning', description: 'MEMORY.md exists but cannot be read (no permission, a folder, a FIFO or device, over 4 MiB): no memory index loads' },
  { id: 'memory-dir-rejected', severity: 'warning', description: 'autoMemoryDirectory is not an absolute folder: Claude Code ignores it (and every lower settings source) and uses the default memory folder' },
  // workspace checks (src/engine/checks)
  { id: 'glob-matches-nothing', severity: 'warning', description: 'a `paths:` pattern of a rule matches no file of the workspace (git-ignored files aside): the rule never loads' },
  { id: 'frontmatter-key-ignored', severity: 'warning', description: '`globs:`, `Paths:` or another look-alike used instead of `paths:`: Claude Code ignores it and the rule loads unconditionally' },
  { id: 'paths-ignored', severity: 'warning', description: '`paths:` in a CLAUDE.md or CLAUDE.local.md has no effect: the file always loads' },
  { id: 'wrong-case-name', severity: 'error', description: 'a wrongly cased instruction name (claude.md, .Claude/, RULES/): Claude Code looks for the exact name' },
  { id: 'bom-before-frontmatter', severity: 'warning', description: `a byte-order mark before \`---\`: Claude Code ${versionList((p) => !p.stripBomBeforeFrontmatter)} keeps the frontmatter as text and ignores its \`paths:\`` },
  { id: 'memory-over-budget', severity: 'error', description: 'MEMORY.md is past 200 lines or 25,000 characters: the end is cut from the request and its entries are lost' },
  { id: 'skill-demoted', severity: 'error', description: "the skills listing is over budget: this skill's description is dropped (name only)" },
  { id: 'skill-description-cut', severity: 'error', description: "a skill's description is cut in the listing (per-description cap)" },
  { id: 'likely-secret', severity: 'error', description: 'text that reaches the model request looks like a secret (API key, token, private key, password)' },
  { id: 'check-failed', severity: 'error', description: 'a workspace check crashed (a bug) and was skipped, or secretlint failed on one text, which went unscanned; the others ran (`lint --verbose` prints the stack)' },
  { id: 'scan-truncated', severity: 'info', description: 'the workspace has more files than the scan limit: some checks were skipped' },
];

export const RULES: ReadonlyMap<string, RuleInfo> = new Map(LIST.map((r) => [r.id, r]));

export function ruleInfo(id: string): RuleInfo {
  return RULES.get(id) ?? { id, severity: 'warning', description: id.replaceAll('-', ' ') };
}
