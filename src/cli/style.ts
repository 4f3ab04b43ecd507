// Terminal styling: colors only when the output is a terminal, never with NO_COLOR (no-color.org:
// set and not empty), always with FORCE_COLOR (set, not "0"/"false"), never on TERM=dumb.
export interface Style {
  enabled: boolean;
  bold: (s: string) => string;
  dim: (s: string) => string;
  red: (s: string) => string;
  yellow: (s: string) => string;
  green: (s: string) => string;
  cyan: (s: string) => string;
  magenta: (s: string) => string;
  blue: (s: string) => string;
}

export function colorEnabled(stream: { isTTY?: boolean }, env: Record<string, string | undefined> = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0' && force.toLowerCase() !== 'false') return true;
  if (env.TERM === 'dumb') return false;
  return !!stream.isTTY;
}

const wrap = (on: boolean, open: number, close: number) => (s: string) => (on && s ? `\u001b[${open}m${s}\u001b[${close}m` : s);

export function makeStyle(enabled: boolean): Style {
  return {
    enabled,
    bold: wrap(enabled, 1, 22),
    dim: wrap(enabled, 2, 22),
    red: wrap(enabled, 31, 39),
    green: wrap(enabled, 32, 39),
    yellow: wrap(enabled, 33, 39),
    blue: wrap(enabled, 34, 39),
    magenta: wrap(enabled, 35, 39),
    cyan: wrap(enabled, 36, 39),
  };
}

/** control characters (and so escape sequences) from text we print from files and names as \xNN, and
 *  the bidirectional overrides and isolates (a name could reorder the rest of the line) as \uNNNN, as the
 *  sidebar shows them (webview/protocol.ts `shown`) */
export function safe(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\n/g, '\\n')
    .replace(/\t/g, '\\t');
}
