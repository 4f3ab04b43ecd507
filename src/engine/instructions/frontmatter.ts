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

function tryYaml(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
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
