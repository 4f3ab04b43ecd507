// Display width as Claude Code measures the skills listing: Bun.stringWidth with ambiguous
// characters narrow (string-width gives the same figures except for clusters of Indic and other
// scripts, handled below; checked against the binaries with test/conformance/memory-skills/measure-widths.ts),
// plus, on 2.1.328, a correction for clusters
// that terminals draw wider than Bun counts: Indic spacing vowel signs, and a few emoji-capable
// symbols drawn in one cell.
import type StringWidth from 'string-width';
import type { ClaudeProfile } from '../profiles.js';

/** Indic spacing vowel signs and similar marks that take a cell of their own in terminals */
const INDIC_SPACING =
  /[\u093b\u093e-\u0940\u0949-\u094c\u0982\u09be-\u09c0\u09c7\u09c8\u09cb\u09cc\u09d7\u0a3e-\u0a40\u0abe-\u0ac0\u0ac9\u0acb\u0acc\u0b02\u0b3e\u0b40\u0b47\u0b48\u0b4b\u0b4c\u0b57\u0bbe\u0bbf\u0bc1\u0bc2\u0bc6-\u0bc8\u0bca-\u0bcc\u0bd7\u0c01\u0c02\u0c41-\u0c44\u0c82\u0cbe\u0cc0-\u0cc4\u0cc7\u0cc8\u0cca\u0ccb\u0cd5\u0cd6\u0d02\u0d3e-\u0d40\u0d46-\u0d48\u0d4a-\u0d4c]/g;
/** symbols Bun counts as one cell that are drawn as two when they stand alone */
const ONE_CELL_WIDE = /[\u17a4\u17d8\u261d\u26f9\u270c\u270d\u2e3a\u2e3b\u3248-\u324f\u{1f1e6}-\u{1f1ff}\u{1f3cb}\u{1f3cc}\u{1f574}\u{1f575}\u{1f590}\u{1f93b}\u{1f946}]/u;
const NEEDS_CORRECTION = new RegExp(`${INDIC_SPACING.source}|${ONE_CELL_WIDE.source}`, 'u');
const MAX_MARKS_PER_CLUSTER = 8;

let segmenter: Intl.Segmenter | undefined;

function correction(s: string): number {
  if (!NEEDS_CORRECTION.test(s)) return 0;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let extra = 0;
  for (const { segment } of segmenter.segment(s)) {
    const marks = segment.match(INDIC_SPACING)?.length ?? 0;
    const oneCell = ONE_CELL_WIDE.test(segment) && bunWidth(segment) === 1 ? 1 : 0;
    extra += Math.min(marks, MAX_MARKS_PER_CLUSTER) + oneCell;
  }
  return extra;
}

// built on first use, as string-width is loaded: both cost milliseconds at load otherwise (its
// module builds an RGI_Emoji expression and an Intl.Segmenter)
let emojiCluster: RegExp | undefined;
function emojiClusterRe(): RegExp {
  if (emojiCluster) return emojiCluster;
  try {
    emojiCluster = new RegExp('^\\p{RGI_Emoji}$', 'v');
  } catch {
    emojiCluster = /^\p{Extended_Pictographic}/u;
  }
  return emojiCluster;
}
const ZERO_WIDTH_CP = /^[\p{Mn}\p{Me}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]$/u;
const HANGUL_JAMO = /[\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff]/u;
let stringWidth: typeof StringWidth | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (the engine is synchronous)
const sw = (x: string) => (stringWidth ??= (require('string-width') as { default: typeof StringWidth }).default)(x, { ambiguousIsNarrow: true });

/** Bun.stringWidth outside emoji and Hangul clusters: one code point at a time (a conjunct counts
 *  each consonant), with no column for non-spacing marks and for the Indic spacing vowel signs
 *  above; string-width instead counts a cluster as its first character plus its spacing marks. */
function bunWidth(s: string): number {
  if (/^[\u0020-\u007e]*$/.test(s)) return s.length;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let w = 0;
  for (const { segment } of segmenter.segment(s)) {
    if (segment.length === 1 || emojiClusterRe().test(segment) || HANGUL_JAMO.test(segment) || segment.includes('\u200d') || segment.includes('\u20e3')) {
      w += sw(segment);
      continue;
    }
    for (const ch of segment) {
      INDIC_SPACING.lastIndex = 0;
      w += ZERO_WIDTH_CP.test(ch) || INDIC_SPACING.test(ch) ? 0 : sw(ch);
    }
  }
  return w;
}

/** The width Claude Code counts for `s` in the skills budget. */
export function displayWidth(s: string, profile: ClaudeProfile): number {
  const w = bunWidth(s);
  return profile.skills.widthCorrection ? w + correction(s) : w;
}
