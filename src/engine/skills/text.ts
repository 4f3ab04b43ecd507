// What a skill's frontmatter becomes in the listing (memory spec B6), per version:
// the description (or its fallback from the body), `when_to_use`, and on 2.1.328 the clean-up of
// hidden characters, whitespace runs and angle brackets, and the name checks.

/** Characters 2.1.328 treats as hidden in shown text: controls, format, surrogates, private use,
 *  unassigned, line/paragraph separators, default-ignorables and the braille blank. */
const HIDDEN_RANGES = [
  [0xad, 0xad], [0x34f, 0x34f], [0x61c, 0x61c], [0x115f, 0x1160], [0x17b4, 0x17b5], [0x180b, 0x180f], [0x200b, 0x200f],
  [0x202a, 0x202e], [0x2060, 0x206f], [0x3164, 0x3164], [0xfe00, 0xfe0f], [0xfeff, 0xfeff], [0xffa0, 0xffa0], [0xfff0, 0xfffb],
  [0x110bf, 0x110bf], [0x13430, 0x1343f], [0x16fe4, 0x16fe4], [0x1bca0, 0x1bca3], [0x1d173, 0x1d17a], [0xe0000, 0xe0fff],
]
  .map(([a, b]) => (a === b ? `\\u{${a!.toString(16)}}` : `\\u{${a!.toString(16)}}-\\u{${b!.toString(16)}}`))
  .join('');
const HIDDEN_CLASS = `\\p{Cc}\\p{Cf}\\p{Cs}\\p{Co}\\p{Cn}\\u2028\\u2029${HIDDEN_RANGES}\\u2800`;
const HIDDEN_RUN = new RegExp(`[${HIDDEN_CLASS}]+`, 'gu');
const LONE_SURROGATE = /\p{Cs}/gu;
const JOINER_PRESENT = /[\u200C\u200D\uFE0F\u{E007F}]/u;
const KEEP_JOINERS_MAX = 4096;
/** printable ASCII only (no control character, no tab or newline) */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

let rgiEmoji: RegExp | undefined;
function emojiRegex(): RegExp | undefined {
  if (rgiEmoji === undefined) {
    try {
      rgiEmoji = new RegExp('\\p{RGI_Emoji}', 'gv');
    } catch {
      rgiEmoji = /(?:\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?(?:\u200D\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?)*|\p{Regional_Indicator}{2}|[0-9#*]\uFE0F\u20E3)/gu;
    }
  }
  return rgiEmoji;
}

const cp = (n: number) => `\\u{${n.toString(16)}}`;
/** ZWJ/ZWNJ that spell a conjunct in an Indic script: consonant (+ nukta) + virama + joiner + consonant */
function indicJoiner(base: number): string {
  const consonant = `[${cp(base + 21)}-${cp(base + 57)}]`;
  const nukta = base === 0xd00 ? '' : `${cp(base + 60)}?`;
  return `[\\u200C\\u200D](?<=${consonant}${nukta}${cp(base + 77)}.)(?=${consonant})`;
}
const ARABIC_DUAL_JOINING = String.raw`\u0620\u0626\u0628\u062A-\u062E\u0633-\u063F\u0641-\u0647\u0649\u064A\u066E\u066F\u0678-\u0687\u069A-\u06BF\u06C1\u06C2\u06CC\u06CE\u06D0\u06D1\u06FA-\u06FC\u06FF\u0750-\u0758\u075C-\u076A\u076D-\u0770\u0772\u0775-\u0777\u077A-\u077F\u0886\u0889-\u088D\u088F\u08A0-\u08A9\u08AF\u08B0\u08B3-\u08B8\u08BA-\u08C8`;
const ARABIC_JOINING = String.raw`\u0620\u0622-\u063F\u0641-\u064A\u066E\u066F\u0671-\u0673\u0675-\u06D3\u06D5\u06EE\u06EF\u06FA-\u06FC\u06FF\u0750-\u077F\u0870-\u0882\u0886\u0889-\u088F\u08A0-\u08AC\u08AE-\u08C8`;
const SPELLED_JOINERS = new RegExp(
  [
    ...[0x900, 0x980, 0xa80, 0xb00, 0xc00, 0xc80, 0xd00].map(indicJoiner),
    `\\u200D(?<=[\\u0D9A-\\u0DC6]\\u0DCA.)(?=[\\u0D9A-\\u0DC6])`,
    `\\u200C(?<=[${ARABIC_DUAL_JOINING}](?:(?=[\\p{sc=Arabic}\\p{sc=Inherited}])(?!\\p{Default_Ignorable_Code_Point})\\p{Mn}){0,8}.)(?=[${ARABIC_JOINING}])`,
  ].join('|'),
  'gu',
);

/** 2.1.328: each run of hidden characters becomes one space, except joiners that are part of an
 *  emoji or spell a conjunct; `<` and `>` are escaped. */
export function cleanShownText(s: string, collapse: boolean, escape: boolean): string {
  let r = s;
  // printable ASCII holds nothing hidden, no surrogate and no joiner: the clean-up would keep it as
  // it is (and its Unicode-property expressions cost milliseconds to compile on first use)
  if (collapse && !PRINTABLE_ASCII.test(s)) {
    r = r.replace(LONE_SURROGATE, '\u200B');
    const keep = new Set<number>();
    if (r.length <= KEEP_JOINERS_MAX && JOINER_PRESENT.test(r)) {
      for (const re of [emojiRegex(), SPELLED_JOINERS]) {
        if (!re) continue;
        re.lastIndex = 0;
        for (const m of r.matchAll(re)) for (let i = m.index; i < m.index + m[0].length; i++) keep.add(i);
      }
    }
    r = r.replace(HIDDEN_RUN, (run, at: number) => {
      let out = '';
      for (let i = 0; i < run.length; i++) out += keep.has(at + i) ? run.charAt(i) : out.endsWith(' ') ? '' : ' ';
      return out;
    });
  }
  if (escape) r = r.replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return r;
}

/** The description a skill gets when its frontmatter has none: the body's first non-empty line,
 *  heading markers removed, over 100 characters cut to 97 + `...`; an empty body gives `fallback`. */
export function descriptionFromBody(body: string, fallback: string): string {
  for (const line of body.split('\n')) {
    const t = line.trim();
    if (!t) continue;
    const k = /^#+\s+(\S.*)$/.exec(t)?.[1] ?? t;
    return k.length > 100 ? `${k.substring(0, 97)}...` : k;
  }
  return fallback;
}

/** `description` as Claude Code reads it: a trimmed string (empty = none), a number or a boolean. */
export function frontmatterDescription(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string') return v.trim() || undefined;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** Claude Code's reading of a yes/no frontmatter value (booleans, or true/false-like strings and numbers). */
export function frontmatterFlag(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const s = String(v).trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(s)) return true;
  if (['0', 'false', 'no', 'off'].includes(s)) return false;
  return undefined;
}

const MAX_NAME = 256;
/** 2.1.328 offers a skill only if its name is non-empty, at most 256 characters, and free of
 *  control characters, line separators, `<` and `>`. */
export function isOfferableName(name: string): boolean {
  return name.length > 0 && name.length <= MAX_NAME && !/[\x00-\x1f\x7f-\x9f\u2028\u2029<>]/.test(name);
}

/** A frontmatter `name` is shown beside the folder name only if it is made of letters, marks,
 *  digits, `_`, `:`, `.` and `-`. */
export function isShowableName(name: string): boolean {
  return name.length <= MAX_NAME && (/^[A-Za-z0-9_:.-]+$/.test(name) || /^[\p{L}\p{M}\p{N}_:.-]+$/u.test(name));
}
