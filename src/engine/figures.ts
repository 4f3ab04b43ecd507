// The figures every surface shows (the sidebar, the status bar, the startup preview, the CLI), each
// defined once: what is always loaded (the startup block as sent, wrapper included, and the skills
// listing as sent), what a Read of a file adds (the injected files with Claude Code's framing, and the
// skills that become listed), and ≈tokens (chars ÷ the model's ratio, rounded up as Claude Code's own
// estimate rounds). test/unit/figures.test.ts compares the surfaces on each.
import type { Analysis } from './analysis.js';
import { skillsView } from './checks/skills-check.js';
import { renderLazy, renderStartupBlock } from './instructions/render.js';
import type { LazyInjection } from './model.js';

/** ≈tokens of `chars` UTF-16 units at `ratio` chars per token */
export function approxTokens(chars: number, ratio: number): number {
  return ratio > 0 ? Math.ceil(chars / ratio) : 0;
}

export interface AlwaysLoaded {
  /** the CLAUDE.md block as sent (files, preamble, separators, the reminder around them) */
  block: number;
  /** Σ of the files' own texts in it */
  files: number;
  /** Claude Code's text around the files in the block */
  framing: number;
  /** the skills listing as sent (a shipped description counted at its measured length where the text is a placeholder) */
  skills: number;
  /** block + skills */
  total: number;
}

/** `block`: the rendered startup block, when the caller has it (it carries the date) */
export function alwaysLoaded(a: Analysis, today: string, block = renderStartupBlock(a.profile, a.startup, today) ?? ''): AlwaysLoaded {
  const files = a.startup.reduce((n, e) => n + e.text.length, 0);
  const sv = skillsView(a);
  const skills = sv.entries.length && sv.text ? sv.sentChars : 0;
  return { block: block.length, files, framing: Math.max(0, block.length - files), skills, total: block.length + skills };
}

/** what a Read of `file` adds the first time */
export interface ReadAdds {
  injected: LazyInjection[];
  /** the injected files as sent, framing included */
  fileChars: number;
  /** skills listed after the read (their message's chars) */
  skillChars: number;
  chars: number;
}

export function readAdds(a: Analysis, file: string): ReadAdds {
  const injected = a.lazyFor(file, 'Read');
  const fileChars = renderLazy(a.profile, injected).join('').length;
  const skillChars = a.skills.lazyFor(file).reduce((n, l) => n + l.text.length, 0);
  return { injected, fileChars, skillChars, chars: fileChars + skillChars };
}
