// Behaviour per Claude Code version, in one table. Every version-dependent decision in the engine
// reads a field of the profile; nothing else in the engine compares version strings.
import type { TouchTool } from './model.js';

export interface ClaudeProfile {
  version: string;
  /** where the startup block goes: its own reminder (328) or the `# claudeMd` section (235) */
  startupPlacement: 'own-reminder' | 'claude-md-section';
  /** lazy entries: one reminder per file in the tool_result message (328) or one system message (235) */
  lazyPlacement: 'reminder-per-file' | 'system-message';
  /** tools whose successful call on a path triggers lazy loading */
  lazyTriggers: readonly TouchTool[];
  /** strip a leading U+FEFF before looking for frontmatter */
  stripBomBeforeFrontmatter: boolean;
  /** never re-inject lazily a file already in the startup block */
  dedupeLazyAgainstStartup: boolean;
  /** AGENTS.md fallback when no CLAUDE.md / .claude/CLAUDE.md / CLAUDE.local.md is in the ancestor chain */
  agentsMdFallback: boolean;
  memory: {
    /** delete Cf/Co/Cn and C0/C1 controls other than \t \n \r from MEMORY.md */
    stripInvisible: boolean;
    /** the truncation warning says which lines were cut */
    detailedWarning: boolean;
  };
  skills: {
    /** `- dir (fmname): …` when frontmatter `name` differs from the folder name */
    showFrontmatterName: boolean;
    /** tabs and newlines in a description become one space */
    collapseDescriptionWhitespace: boolean;
    defaultModel: string;
  };
}

const V2_1_235: ClaudeProfile = {
  version: '2.1.235',
  startupPlacement: 'claude-md-section',
  lazyPlacement: 'system-message',
  lazyTriggers: ['Read'],
  stripBomBeforeFrontmatter: false,
  dedupeLazyAgainstStartup: false,
  agentsMdFallback: false,
  memory: { stripInvisible: false, detailedWarning: false },
  skills: { showFrontmatterName: false, collapseDescriptionWhitespace: false, defaultModel: 'claude-opus-5[1m]' },
};

const V2_1_328: ClaudeProfile = {
  version: '2.1.328',
  startupPlacement: 'own-reminder',
  lazyPlacement: 'reminder-per-file',
  lazyTriggers: ['Read', 'Edit', 'Write', 'Bash'],
  stripBomBeforeFrontmatter: true,
  dedupeLazyAgainstStartup: true,
  agentsMdFallback: true,
  memory: { stripInvisible: true, detailedWarning: true },
  skills: { showFrontmatterName: true, collapseDescriptionWhitespace: true, defaultModel: 'claude-opus-5-5' },
};

/** oldest first */
export const PROFILES: readonly ClaudeProfile[] = [V2_1_235, V2_1_328];
export const NEWEST_PROFILE = PROFILES[PROFILES.length - 1]!;

function parseVersion(v: string): number[] | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

export interface ProfileChoice {
  profile: ClaudeProfile;
  /** set when the requested version has no profile of its own */
  note?: string;
}

/** The profile for a version: exact match, else the nearest older one (else the oldest), with a note. */
export function chooseProfile(version: string | undefined): ProfileChoice {
  if (!version) return { profile: NEWEST_PROFILE };
  const exact = PROFILES.find((p) => p.version === version.trim());
  if (exact) return { profile: exact };
  const v = parseVersion(version);
  if (!v) return { profile: NEWEST_PROFILE, note: `"${version}" is not a Claude Code version; using the ${NEWEST_PROFILE.version} profile` };
  let best: ClaudeProfile | undefined;
  for (const p of PROFILES) if (compare(parseVersion(p.version)!, v) <= 0) best = p;
  if (best) return { profile: best, note: `no profile for Claude Code ${version}; using the nearest older one, ${best.version}` };
  return { profile: PROFILES[0]!, note: `no profile for Claude Code ${version}; it is older than every profile, using ${PROFILES[0]!.version}` };
}
