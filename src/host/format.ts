// Small formatting helpers shared by the sidebar, the lenses, the hovers and the status bar: one
// definition of each number. chars = UTF-16 code units (JavaScript's length, the unit Claude Code
// counts its limits in); lines = newline-separated lines; ≈tokens = ceil(chars ÷ the model's
// chars-per-token ratio); display width (skills listing only) = terminal columns, wide characters 2.
import { approxTokens } from '../engine/index.js';

/** vscode.l10n.t's shape, so that pure code can be tested with a plain formatter */
export type Translate = (message: string, ...args: Array<string | number | boolean>) => string;

/** `{0}`-style formatting without translation (tests, the English fallback) */
export const englishT: Translate = (message, ...args) => message.replace(/\{(\d+)\}/g, (m, i: string) => (args[Number(i)] !== undefined ? String(args[Number(i)]) : m));

export class Fmt {
  private readonly nf: Intl.NumberFormat;
  private readonly compactNf: Intl.NumberFormat;
  constructor(
    readonly t: Translate,
    locale: string,
    /** chars per token for ≈tokens */
    readonly ratio: number,
  ) {
    let nf: Intl.NumberFormat;
    try {
      nf = new Intl.NumberFormat(locale);
    } catch {
      nf = new Intl.NumberFormat('en-US');
    }
    this.nf = nf;
    let cf: Intl.NumberFormat;
    try {
      cf = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
    } catch {
      cf = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
    }
    this.compactNf = cf;
  }

  /** "5.3K" (the status bar) */
  compact(n: number): string {
    return this.compactNf.format(n);
  }

  num(n: number): string {
    return this.nf.format(n);
  }

  tokens(chars: number): number {
    return approxTokens(chars, this.ratio);
  }

  chars(n: number): string {
    return this.t('{0} chars', this.num(n));
  }

  /** "2,310 chars · ≈770 tokens" */
  charsTokens(chars: number): string {
    const tok = this.tokens(chars);
    // one token is singular ("≈1 tokens" read as a slip)
    return tok === 1 ? this.t('{0} chars · ≈1 token', this.num(chars)) : this.t('{0} chars · ≈{1} tokens', this.num(chars), this.num(tok));
  }

  /** "2,310 chars · 45 lines · ≈770 tokens" */
  size(chars: number, lines: number): string {
    return this.t('{0} chars · {1} lines · ≈{2} tokens', this.num(chars), this.num(lines), this.num(this.tokens(chars)));
  }

  ratioNote(model: string): string {
    return this.t('≈tokens = chars ÷ {0}, the estimate Claude Code itself uses for {1}', this.ratio, model);
  }
}

export function lineCount(text: string): number {
  if (!text) return 0;
  return text.split('\n').length;
}

/** the first non-empty line of a text that is not a Markdown heading (else the first), cut to `max` characters */
export function firstLine(text: string, max = 80): string {
  const lines = text.split('\n').filter((l) => l.trim());
  const line = lines.find((l) => !/^\s{0,3}#/.test(l)) ?? lines[0] ?? '';
  const t = line.trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}
