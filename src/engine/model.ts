// The shapes the engine produces: what reaches the request, what is lazy, what was dropped and why.
import type { Diagnostic } from './diagnostics.js';

export type InstructionType = 'Managed' | 'User' | 'Project' | 'Local' | 'AutoMem';
export type TouchTool = 'Read' | 'Edit' | 'Write' | 'Bash';

/** Why a file is where it is; drives the "why" column in the UI and explain output. */
export type Origin =
  | { kind: 'claude-md'; dir: string } // D/CLAUDE.md
  | { kind: 'dot-claude-md'; dir: string } // D/.claude/CLAUDE.md
  | { kind: 'local'; dir: string } // D/CLAUDE.local.md
  | { kind: 'rule'; rulesDir: string; base: string; globs?: string[] }
  | { kind: 'include'; parent: string; depth: number; line?: number }
  | { kind: 'managed-settings' }
  | { kind: 'agents-md'; dir: string }
  | { kind: 'auto-memory'; memoryDir: string }
  | { kind: 'user-claude-md' }
  | { kind: 'managed-claude-md' };

export interface InstructionEntry {
  path: string;
  type: InstructionType;
  /** processed content as it stands in the request (trimmed for startup entries) */
  content: string;
  /** the whole entry as rendered: `Contents of …:\n\n…` */
  text: string;
  origin: Origin;
  /** the file whose reading brings this one in, for includes */
  parent?: string;
}

export interface LazyInjection {
  path: string;
  content: string;
  text: string;
  origin: Origin;
  /** human reason, e.g. `nested folder pkg/` or `rule api.md: paths src/api/** matched` */
  reason: string;
  /** 2.1.328 nested AGENTS.md arrive as a hook message */
  viaHook?: boolean;
}

/** A file that exists but does not reach the request. */
export interface DroppedFile {
  path: string;
  reason: string;
  rule: string;
}

export interface ConditionalRule {
  path: string;
  type: InstructionType;
  /** folder the globs are matched against */
  base: string;
  /** patterns as Claude Code uses them (after comma split, brace expansion, `/**` trimming) */
  patterns: string[];
  /** patterns as written in the frontmatter */
  rawPatterns: string[];
  /** 1-based line of `paths:` in the file */
  line?: number;
}

export interface TouchResult {
  tool: TouchTool;
  path: string;
  injected: LazyInjection[];
}

export type { Diagnostic };
