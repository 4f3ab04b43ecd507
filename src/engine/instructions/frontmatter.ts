// Frontmatter as Claude Code reads it: a file that begins with `---`, up to the next `---`
// (measured: the closing marker need not start a line, and whitespace after it is swallowed).
// The YAML is parsed leniently: when strict parsing fails, values holding YAML-special characters
// are quoted and parsing is retried, so `paths: src/**/*.ts` still works. Nothing here throws.
import type { DocumentOptions, ParseOptions, SchemaOptions, ToJSOptions } from 'yaml';

// yaml is loaded on first use (the editor's extension host starts without it)
type YamlOptions = ParseOptions & DocumentOptions & SchemaOptions & ToJSOptions;
let yamlParse: ((src: string, options: YamlOptions) => unknown) | undefined;
function parseYaml(src: string, options: YamlOptions): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (the engine is synchronous)
  yamlParse ??= (require('yaml') as typeof import('yaml')).parse;
  return yamlParse(src, options);
}

const FRONTMATTER = /^---\s*\n([\s\S]*?)---\s*\n?/;
const YAML_SPECIAL = /[{}[\]*&#!|>%@`]|: /;

export interface Frontmatter {
  /** the parsed mapping ({} when absent, invalid or not a mapping) */
  data: Record<string, unknown>;
  /** the raw YAML between the markers, when there is frontmatter */
  yaml?: string;
  /** body after the frontmatter (or the whole text when there is none) */
  body: string;
  /** number of characters of the original text removed in front of `body` */
  bodyOffset: number;
  /** strict and lenient YAML parsing both failed */
  yamlError?: string;
  /** the YAML parsed only after quoting lossy values (Claude Code's fallback) */
  lenient?: boolean;
  /** the strict parse was refused: nested deeper than MAX_YAML_DEPTH */
  tooDeep?: boolean;
}

/**
 * The deepest YAML nesting parsed. The `yaml` package recurses per level and runs out of stack a
 * few hundred levels down; out of stack inside V8's regular-expression compiler is a fatal
 * "out of memory" (a SKILL.md description of `[` × 20,000 then `]` × 20,000 killed the process).
 * Deeper text is handled as a failed strict parse (what the stack overflow is in Claude Code's
 * parser too): the lenient retry then reads such a value as text.
 */
export const MAX_YAML_DEPTH = 400;

/** the deepest nesting of `[`/`{` (outside quotes) or of indentation in YAML text, stopping past `limit` */
export function yamlDepth(text: string, limit = MAX_YAML_DEPTH): number {
  let depth = 0;
  let max = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = '';
      else if (c === '\n') quote = quote === '"' ? quote : '';
      continue;
    }
    if (c === '"' || (c === "'" && /[\s[{,:]/.test(text[i - 1] ?? ' '))) quote = c;
    else if (c === '[' || c === '{') {
      depth++;
      if (depth > max && (max = depth) > limit) return max;
    } else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
    else if (c === '\n') {
      depth = 0;
      let j = i + 1;
      while (text[j] === ' ' || text[j] === '-') j++;
      // indentation: one level per two columns (a generous reading)
      const ind = Math.ceil((j - i - 1) / 2);
      if (ind > max && (max = ind) > limit) return max;
    }
  }
  return max;
}

// The frontmatter of nearly every rule and skill is a few `key: text` lines and lists of quoted
// globs. The `yaml` package takes about 0.1 ms for each (a third of the startup view over a
// workspace with two dozen skills and rules), so that subset is read here, giving the value
// `yaml` gives (checked against it in test/unit/frontmatter-fast.test.ts); anything else, or
// anything this reading is not sure of, goes to `yaml`.
const FAST_KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?$/;
const FAST_ITEM = /^( *)- +(.+)$/;
const FAST_COMMENT = /^ *#/;
const FAST_BLANK = /^ *$/;
const FAST_DOUBLE = /^"([^"\\\x00-\x1f\x7f\x85\u2028\u2029\ufeff]*)" *$/;
const FAST_SINGLE = /^'([^'\x00-\x1f\x7f\x85\u2028\u2029\ufeff]*)' *$/;
/** a plain scalar that the core schema reads as text: no indicator first, no number, null or boolean */
const FAST_PLAIN = /^[^\s\-?:,[\]{}#&*!|>'"%@`~+.0-9][^#\t\x00-\x1f\x7f\x85\u2028\u2029\ufeff]*$/;
const TRAILING_SPACES = / +$/;
const FAST_WORD = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$/;
const FAST_NOT_TEXT = /: |:$|[[\]{}]/;

/** `["a", 'b']`: a flow sequence of quoted scalars without escapes */
const FAST_FLOW = /^\[ *(?:(?:"[^"\\\x00-\x1f\x7f\x85\u2028\u2029\ufeff]*"|'[^'\x00-\x1f\x7f\x85\u2028\u2029\ufeff]*') *(?:, *(?:"[^"\\\x00-\x1f\x7f\x85\u2028\u2029\ufeff]*"|'[^'\x00-\x1f\x7f\x85\u2028\u2029\ufeff]*') *)*)?\] *$/;
const FAST_FLOW_ITEM = /"([^"]*)"|'([^']*)'/g;

function fastValue(raw: string): string | string[] | undefined {
  if (!raw.startsWith('[')) return fastScalar(raw);
  if (!FAST_FLOW.test(raw)) return undefined;
  const out: string[] = [];
  for (const m of raw.matchAll(FAST_FLOW_ITEM)) out.push(m[1] ?? m[2]!);
  return out;
}

function fastScalar(raw: string): string | undefined {
  if (raw.startsWith('"')) return FAST_DOUBLE.exec(raw)?.[1];
  if (raw.startsWith("'")) return FAST_SINGLE.exec(raw)?.[1];
  const v = raw.replace(TRAILING_SPACES, '');
  return FAST_PLAIN.test(v) && !FAST_NOT_TEXT.test(v) && !FAST_WORD.test(v) ? v : undefined;
}

/** the mapping `yaml` would give for `text`, when `text` is in the simple subset; undefined otherwise */
export function fastYaml(text: string): Record<string, unknown> | undefined {
  if (text.includes('\r')) return undefined;
  const out: Record<string, unknown> = {};
  let keys = 0;
  let list: unknown[] | undefined;
  let listIndent = -1;
  let pendingKey: string | undefined;
  for (const line of text.split('\n')) {
    if (FAST_BLANK.test(line) || FAST_COMMENT.test(line)) continue;
    const item = pendingKey !== undefined ? FAST_ITEM.exec(line) : null;
    if (item) {
      const indent = item[1]!.length;
      if (listIndent >= 0 && indent !== listIndent) return undefined;
      listIndent = indent;
      const v = fastScalar(item[2]!);
      if (v === undefined) return undefined;
      (list ??= []).push(v);
      continue;
    }
    if (pendingKey !== undefined) {
      out[pendingKey] = list ?? null;
      pendingKey = undefined;
    }
    const m = FAST_KEY.exec(line);
    if (!m) return undefined;
    const key = m[1]!;
    if (key === '__proto__' || FAST_WORD.test(key) || Object.prototype.hasOwnProperty.call(out, key)) return undefined;
    keys++;
    const raw = m[2]?.replace(TRAILING_SPACES, '');
    if (!raw) {
      pendingKey = key;
      list = undefined;
      listIndent = -1;
      out[key] = null; // keeps the key's place in the order
      continue;
    }
    const v = fastValue(raw);
    if (v === undefined) return undefined;
    out[key] = v;
  }
  if (pendingKey !== undefined) out[pendingKey] = list ?? null;
  return keys ? out : undefined;
}

function tryYaml(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const fast = fastYaml(text);
  if (fast) return { ok: true, value: fast };
  if (yamlDepth(text) > MAX_YAML_DEPTH) return { ok: false, error: `nested deeper than ${MAX_YAML_DEPTH} levels` };
  try {
    return { ok: true, value: parseYaml(text, { prettyErrors: false, maxAliasCount: 100, uniqueKeys: false, logLevel: 'error' }) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message.split('\n')[0]! : String(e) };
  }
}

/** Quote `key: value` lines whose value would be misread by YAML (Claude Code's retry). */
function quoteLossyValues(yaml: string): string {
  return yaml
    .split('\n')
    .map((line) => {
      const m = /^([a-zA-Z_-]+):\s+(\S.*)$/.exec(line);
      if (!m) return line;
      const [, key, value] = m as unknown as [string, string, string];
      if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) return line;
      if (value.startsWith('[') && value.endsWith(']')) {
        const r = tryYaml(value);
        if (r.ok && Array.isArray(r.value)) return line;
      }
      if (YAML_SPECIAL.test(value)) return `${key}: "${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
      return line;
    })
    .join('\n');
}

export function parseFrontmatter(text: string, stripBom: boolean): Frontmatter {
  const original = text;
  const hasBom = stripBom && text.charCodeAt(0) === 0xfeff;
  if (hasBom) text = text.slice(1);
  const m = text.indexOf('---', 3) < 0 ? null : FRONTMATTER.exec(text);
  if (!m) return { data: {}, body: original, bodyOffset: 0 };
  const yaml = m[1] ?? '';
  const body = text.slice(m[0].length);
  const bodyOffset = m[0].length + (hasBom ? 1 : 0);
  let parsed = tryYaml(yaml);
  const tooDeep = !parsed.ok && yamlDepth(yaml) > MAX_YAML_DEPTH ? true : undefined;
  let lenient = false;
  if (!parsed.ok) {
    const retry = tryYaml(quoteLossyValues(yaml).replace(/^\t+/gm, (t) => '  '.repeat(t.length)));
    if (retry.ok) {
      parsed = retry;
      lenient = true;
    }
  }
  if (!parsed.ok) return { data: {}, yaml, body, bodyOffset, yamlError: parsed.error, tooDeep };
  const v = parsed.value;
  const data = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  return { data, yaml, body, bodyOffset, lenient, tooDeep };
}

/** 1-based line (in the original file) of a top-level frontmatter key, for diagnostics and hovers. */
export function frontmatterKeyLine(text: string, key: string): number | undefined {
  const lines = text.split('\n');
  if (!/^\uFEFF?---/.test(lines[0] ?? '')) return undefined;
  for (let i = 1; i < lines.length; i++) {
    if (/^---/.test(lines[i]!)) return undefined;
    if (lines[i]!.startsWith(`${key}:`)) return i + 1;
  }
  return undefined;
}
