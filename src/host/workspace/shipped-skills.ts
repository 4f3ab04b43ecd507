// The descriptions of the skills shipped in the user's installed Claude Code, read from its binary at
// run time (they are never copied into this repository): the startup preview and the skills listing
// then show the exact text where the binary holds it. A Claude Code binary carries its JavaScript as
// text; a shipped skill registers as `{name: N, …, description: D}` where N and D are string literals or
// names of constants defined earlier. Only a text exactly as long as the profile's measured description
// is taken (anything else keeps the placeholder, and the preview says so). Reads the file in bounded
// chunks, off the activation path; nothing is executed.
import * as fs from 'node:fs';

export interface WantedSkill {
  name: string;
  /** the measured length of its description, UTF-16 units */
  chars: number;
}

export interface ShippedRead {
  /** by skill name: the description as the binary holds it */
  texts: Record<string, string>;
  /** names the binary did not yield (not found, built at run time, or of another length) */
  missing: string[];
  file: string;
}

const IDENT = '[A-Za-z_$][\\w$]*';
const MAX_LITERAL = 64 * 1024;

/** a JavaScript string literal starting at `s[i]` (a quote), decoded; undefined when it is not a plain one */
export function parseLiteral(s: string, i: number): string | undefined {
  const q = s[i];
  if (q !== '"' && q !== "'" && q !== '`') return undefined;
  let out = '';
  for (let k = i + 1; k < s.length && k - i < MAX_LITERAL; k++) {
    const c = s[k]!;
    if (c === q) return out;
    if (q === '`' && c === '$' && s[k + 1] === '{') return undefined; // built at run time
    if (c === '\n' && q !== '`') return undefined;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = s[++k];
    switch (e) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'v': out += '\v'; break;
      case '0': out += '\0'; break;
      case 'x': {
        const h = s.slice(k + 1, k + 3);
        if (!/^[0-9a-fA-F]{2}$/.test(h)) return undefined;
        out += String.fromCharCode(parseInt(h, 16));
        k += 2;
        break;
      }
      case 'u': {
        if (s[k + 1] === '{') {
          const end = s.indexOf('}', k);
          const h = s.slice(k + 2, end);
          if (end < 0 || !/^[0-9a-fA-F]{1,6}$/.test(h)) return undefined;
          out += String.fromCodePoint(parseInt(h, 16));
          k = end;
        } else {
          const h = s.slice(k + 1, k + 5);
          if (!/^[0-9a-fA-F]{4}$/.test(h)) return undefined;
          out += String.fromCharCode(parseInt(h, 16));
          k += 4;
        }
        break;
      }
      case '\n': break; // a line continuation
      case undefined: return undefined;
      default: out += e;
    }
  }
  return undefined;
}

const IDENT_RE = new RegExp(`^${IDENT}`);
const isIdentChar = (c: string | undefined) => !!c && /[\w$]/.test(c);

/** the value of `ident` as the nearest earlier `ident="…"` (or `ident=\`…\``) in `s` before `before` */
function constantBefore(s: string, ident: string, before: number): string | undefined {
  const needle = `${ident}=`;
  // the constants of a module sit shortly before its registration: look back a bounded way
  const floor = Math.max(0, before - 256 * 1024);
  for (let i = s.lastIndexOf(needle, before); i >= floor; i = s.lastIndexOf(needle, i - 1)) {
    const prev = s[i - 1];
    if (isIdentChar(prev) || prev === '.') continue;
    const v = parseLiteral(s, i + needle.length);
    if (v !== undefined) return v;
    if (i === 0) break;
  }
  return undefined;
}

/** a string value at `at`: a literal, a constant defined before `before`, or the literals of a short conditional */
function valueAt(s: string, at: number, before: number, fits: (v: string) => boolean): string[] {
  if (/["'`]/.test(s[at] ?? '')) {
    const v = parseLiteral(s, at);
    return v === undefined ? [] : [v];
  }
  const id = IDENT_RE.exec(s.slice(at, at + 80))?.[0];
  if (!id) return [];
  const direct = constantBefore(s, id, before);
  if (direct !== undefined) return [direct];
  // `get description(){return env.X?"…":"…"}`: the literals of the expression
  const out: string[] = [];
  const end = Math.min(s.length, at + 1200);
  for (let k = at; k < end && s[k] !== '}'; k++) {
    if (!/["'`]/.test(s[k]!)) continue;
    const v = parseLiteral(s, k);
    if (v === undefined) break;
    if (fits(v)) out.push(v);
    k += v.length + 1;
  }
  return out;
}

/** the listing description of the registration at `reg` (`{name:…`): description, then ` - ` whenToUse */
function registrationText(s: string, reg: number, chars: number): string | undefined {
  const tail = s.slice(reg, reg + 4000);
  const d = /[{,](?:description:|get description\(\)\{return )/.exec(tail);
  if (!d) return undefined;
  const w = /[{,](?:whenToUse:|get whenToUse\(\)\{return )/.exec(tail);
  const whens = w ? valueAt(s, reg + w.index + w[0].length, reg, () => true) : [];
  const when = whens.length === 1 ? whens[0] : undefined;
  const full = (v: string) => (when ? `${v} - ${when}` : v);
  const descs = valueAt(s, reg + d.index + d[0].length, reg, (v) => full(v).length === chars);
  return descs.map(full).find((v) => v.length === chars);
}

/**
 * The description of skill `name` in one window of the binary's text, if it holds the registration.
 * `names`: constants known (from earlier windows) to hold the name; found ones are added to it.
 */
export function findDescription(s: string, name: string, chars: number, names: Set<string> = new Set()): string | undefined {
  const lit = JSON.stringify(name);
  // constants that hold the name: `X="name"`
  for (let i = s.indexOf(lit); i >= 0; i = s.indexOf(lit, i + 1)) {
    if (s[i - 1] !== '=') continue;
    let j = i - 1;
    while (j > 0 && isIdentChar(s[j - 1])) j--;
    const id = s.slice(j, i - 1);
    if (id && IDENT_RE.test(id) && s[j - 1] !== '.') names.add(id);
  }
  for (const tok of [lit, ...names]) {
    for (const open of ['{name:', ',name:']) {
      const needle = open + tok;
      for (let i = s.indexOf(needle); i >= 0; i = s.indexOf(needle, i + 1)) {
        const after = s[i + needle.length];
        if (after !== ',' && after !== '}') continue;
        const text = registrationText(s, i, chars);
        if (text !== undefined) return text;
      }
    }
  }
  return undefined;
}

// small chunks: each is one synchronous slice of the extension host's time (a few hundred ms at most);
// the overlap is larger than the look-back for constants (256 KiB) and a registration's tail
const CHUNK = 4 * 1024 * 1024;
const OVERLAP = 1024 * 1024;

/**
 * Reads the binary in chunks (each decoded as UTF-8, overlapping so that a registration and the
 * constants just before it fall in one window) until every wanted skill is found or the file ends.
 * `maxBytes` bounds what is read.
 */
export async function readShippedDescriptions(file: string, wanted: readonly WantedSkill[], maxBytes = 1024 * 1024 * 1024): Promise<ShippedRead> {
  const texts: Record<string, string> = {};
  const left = new Map(wanted.map((w) => [w.name, w.chars]));
  const consts = new Map<string, Set<string>>();
  const fh = await fs.promises.open(file, 'r');
  try {
    const size = Math.min((await fh.stat()).size, maxBytes);
    const buf = Buffer.alloc(Math.min(CHUNK + OVERLAP, size));
    for (let pos = 0; pos < size && left.size; pos += CHUNK) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, size - pos), pos);
      if (!bytesRead) break;
      const s = buf.subarray(0, bytesRead).toString('utf8');
      for (const [name, chars] of [...left]) {
        let known = consts.get(name);
        if (!known) consts.set(name, (known = new Set()));
        const d = findDescription(s, name, chars, known);
        if (d !== undefined) {
          texts[name] = d;
          left.delete(name);
        }
      }
      // let the extension host breathe between chunks
      await new Promise((r) => setImmediate(r));
    }
  } finally {
    await fh.close();
  }
  return { texts, missing: [...left.keys()], file };
}
