// The synthetic workspace of the ground-truth tests: recorded once through the real binaries
// (record-fixtures.ts) for the transcript fixtures, and materialised again by the tests (verify runs,
// last-session parsing beside the engine's prediction). Every file carries a MARK_GT_ marker; the
// recorded transcripts hold only this content (Claude Code's own text is redacted, see redact.ts).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { memoryKey } from '../../src/engine/memory/memory.js';

export const SCENARIO_FILES: Record<string, string> = {
  'home/.claude/CLAUDE.md': 'MARK_GT_USER\n',
  'home/.claude/rules/user-rule.md': 'MARK_GT_USER_RULE\n',
  'repo/CLAUDE.md': 'MARK_GT_ROOT\nConventions: @docs/conventions.md\n',
  'repo/docs/conventions.md': 'MARK_GT_INCLUDED\n',
  'repo/CLAUDE.local.md': 'MARK_GT_LOCAL\n',
  'repo/.claude/rules/style.md': 'MARK_GT_RULE_STYLE\n',
  'repo/.claude/rules/api.md': '---\npaths: src/api/**\n---\nMARK_GT_RULE_API\n',
  'repo/src/api/CLAUDE.md': 'MARK_GT_NESTED_API\n',
  'repo/src/api/client.ts': 'export const client = 1; // MARK_GT_CLIENT\n',
  'repo/src/api/retry.ts': 'export const retry = 2; // MARK_GT_RETRY\n',
  'repo/packages/web/CLAUDE.md': 'MARK_GT_NESTED_WEB\n',
  'repo/packages/web/App.tsx': 'export const App = "EDIT_ME"; // MARK_GT_APP\n',
  'repo/packages/web/.claude/skills/web-skill/SKILL.md': '---\nname: web-skill\ndescription: MARK_GT_WEB_SKILL_DESC web helper\n---\nMARK_GT_WEB_SKILL_BODY\n',
  'repo/tools/AGENTS.md': 'MARK_GT_AGENTS_TOOLS\n',
  'repo/tools/run.sh': 'echo MARK_GT_RUN\n',
  'repo/.claude/skills/gt-skill/SKILL.md': '---\nname: gt-skill\ndescription: MARK_GT_SKILL_DESC a test skill\n---\nMARK_GT_SKILL_BODY\n',
};

/** the scripted tool calls of the recorded session (paths relative to repo/) */
export const SCENARIO_STEPS: { tool: 'Read' | 'Edit' | 'Skill'; path?: string; skill?: string }[] = [
  { tool: 'Read', path: 'src/api/client.ts' },
  { tool: 'Read', path: 'src/api/retry.ts' },
  { tool: 'Edit', path: 'packages/web/App.tsx' },
  { tool: 'Skill', skill: 'gt-skill' },
  { tool: 'Read', path: 'tools/run.sh' },
];

export interface Workspace {
  root: string;
  home: string;
  repo: string;
  memoryDir: string;
  cleanup(): void;
}

/** lays the scenario out in a fresh temp folder (repo is a git repository; MEMORY.md in place) */
export function materialise(parent = os.tmpdir()): Workspace {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(parent, 'ccl-gt-')));
  const home = path.join(root, 'home');
  const repo = path.join(root, 'repo');
  fs.mkdirSync(repo, { recursive: true });
  execFileSync('git', ['-c', 'init.defaultBranch=main', 'init', '-q', repo], { env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' }, stdio: 'ignore' });
  for (const [rel, content] of Object.entries(SCENARIO_FILES)) {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
  const memoryDir = path.join(home, '.claude', 'projects', memoryKey(repo), 'memory');
  fs.mkdirSync(memoryDir, { recursive: true });
  fs.writeFileSync(path.join(memoryDir, 'MEMORY.md'), '- MARK_GT_MEMORY index line\n');
  return { root, home, repo, memoryDir, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

export const CACHE_DIR = process.env.CLAUDE_LAYERS_CACHE || path.join(process.env.HOME || os.homedir(), '.cache/claude-context-layers');
export const VERSIONS = ['2.1.336', '2.1.333', '2.1.332', '2.1.328', '2.1.235'] as const;
/** versions whose transcript records the startup instruction files (and the Edit's lazy load); measured on the fixtures */
export const RECORDS_STARTUP: ReadonlySet<string> = new Set(['2.1.336', '2.1.333', '2.1.332', '2.1.328']);

export function claudeBin(version: string): string {
  return path.join(CACHE_DIR, 'bin', version, 'node_modules/@anthropic-ai/claude-code-linux-x64/claude');
}
