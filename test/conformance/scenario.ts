// The declarative scenario format of the conformance suite (see README.md beside this file).
//
// Every path in a scenario is relative to a fresh temporary root ROOT (e.g. `home/.claude/CLAUDE.md`,
// `repo/pkg/CLAUDE.md`) unless it starts with `/`. In file contents, symlink targets, env values,
// add-dirs and touch paths, the placeholders `{ROOT}` and `{HOME}` (= ROOT/home) are replaced.
// `{SLUG:rel}` is the auto-memory key of ROOT/rel (every non-alphanumeric character of the absolute
// path replaced by `-`). HOME is always ROOT/home (created even when the scenario puts nothing there).

import { chooseProfile } from '../../src/engine/profiles.js';

export const VERSIONS = ['2.1.336', '2.1.333', '2.1.332', '2.1.328', '2.1.235'] as const;
export type ClaudeVersion = (typeof VERSIONS)[number];

/** `npm run profile:check -- V` runs the suites on a version outside VERSIONS (PROFILE_CHECK=1), and may
 *  predict it with a chosen profile (PROFILE_CHECK_PROFILE=2.1.328); otherwise the engine gets the version. */
export const PROFILE_CHECK = process.env.PROFILE_CHECK === '1';
export function engineVersion(v: string): string {
  return (PROFILE_CHECK && process.env.PROFILE_CHECK_PROFILE) || v;
}

/** the version whose per-version expectations of the binary apply: its own, else (profile:check) the nearest
 *  older known version's (whatever profile the engine is given) */
export function expectationVersion(v: string): ClaudeVersion {
  if ((VERSIONS as readonly string[]).includes(v)) return v as ClaudeVersion;
  return chooseProfile(v).profile.version as ClaudeVersion;
}

/** A tree node: file contents (string or bytes), or one of the object forms. */
export type Node =
  | string
  | Buffer
  | { file: string | Buffer; mode?: number }
  | { symlink: string }
  | { dir: true; mode?: number };

export type Tree = Record<string, Node>;

/** Tools the engine CLI models (`--touch TOOL:ABS_PATH`). */
export type EngineTool = 'Read' | 'Edit' | 'Write' | 'Bash';

export type Touch =
  /** Read tool on `path` (a file, a directory, or a missing path). */
  | { tool: 'Read'; path: string }
  /** Edit tool; must succeed, so the file must contain `oldString` (default 'EDIT_ME') once and have been Read before. */
  | { tool: 'Edit'; path: string; oldString?: string; newString?: string }
  /** Write tool creating `path` (default content 'written by the conformance suite\n'). */
  | { tool: 'Write'; path: string; content?: string }
  /** Bash tool running `cat ABS_PATH` (or `command`, with {PATH} replaced by the absolute path). */
  | { tool: 'Bash'; path: string; command?: string }
  /** Tools the engine does not model: sent to claude only, and they must inject nothing. */
  | { tool: 'Glob'; pattern: string; path?: string }
  | { tool: 'Grep'; pattern: string; path?: string };

/**
 * Checks of the binary's own output against what the spec says (they guard the fixture: a scenario
 * whose binary result drifts from its description fails loudly even before the engine exists).
 * - startup: the ordered list of startup entries, each `KIND path` with KIND one of
 *   P (project), L (local), U (user), M (managed), A (auto-memory); path ROOT-relative, or absolute
 *   outside ROOT (`/etc/claude-code/CLAUDE.md`), or `<managed-settings>`. `null`: no startup block.
 * - touches: per touch, the ordered list of injected entry paths (same path form, no KIND).
 * In both lists an inner array is a group whose members may come in any order (raw readdir order
 * of a rules folder depends on the file system's hash seed).
 * - contains / absent: substrings (placeholders allowed) that must / must not occur in the
 *   extracted text (startup text and every injected entry, joined by "\n\n").
 */
export interface Expect {
  startup?: ExpectList | null;
  touches?: ExpectList[];
  contains?: string[];
  absent?: string[];
}

/** Ordered ids; an inner array = a run of ids in any order. */
export type ExpectList = (string | string[])[];

export interface Scenario {
  /** Unique, file-name safe. */
  name: string;
  /** Spec sections exercised, e.g. ['§2', '§3.5']. */
  spec: string[];
  description?: string;
  /** The tree under ROOT. Directories are created as needed. */
  files: Tree;
  /** Directories (ROOT-relative) where `git init` runs before files are written. */
  git?: string[];
  /** `git worktree add` (after an empty initial commit in `repo`); files under `path` are written after. */
  worktrees?: { repo: string; path: string }[];
  /** Files to appear at /etc/claude-code (bind-mounted inside `unshare -m`); paths relative to it. */
  managed?: Tree;
  /** Launch directory, ROOT-relative. */
  cwd: string;
  env?: Record<string, string>;
  addDirs?: string[];
  /** --setting-sources value (may be ''). */
  settingSources?: string;
  bare?: boolean;
  model?: string;
  /** Run claude and the engine as nobody (65534) via setpriv; the tree is chowned to it first. */
  runAs?: 'nobody';
  touches?: Touch[];
  /** Versions to run (default: both). */
  versions?: ClaudeVersion[];
  expect?: Expect;
  /** Per-version overrides of `expect` (field by field). */
  expectByVersion?: Partial<Record<ClaudeVersion, Expect>>;
}

export function expectFor(s: Scenario, v: ClaudeVersion): Expect {
  return { ...(s.expect ?? {}), ...(s.expectByVersion?.[expectationVersion(v)] ?? {}) };
}

/** Frontmatter helper: `fm('paths: "a/**"', 'BODY\n')` = `---\npaths: "a/**"\n---\nBODY\n`. */
export function fm(yaml: string, body: string): string {
  return `---\n${yaml}\n---\n${body}`;
}
