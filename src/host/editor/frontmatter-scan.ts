// Where things are in a rule's or skill's frontmatter, by line and column: the keys (for completion
// and quick fixes) and each `paths:` pattern as written (for hovers). Parsing of the *meaning* stays
// with the engine (rulePatterns); this only finds the text.

export interface PatternSpan {
  /** the pattern as written (unquoted, one comma part) */
  raw: string;
  /** 0-based line and columns [start, end) of `raw` */
  line: number;
  start: number;
  end: number;
}

export interface FrontmatterScan {
  /** 0-based line of the closing `---` */
  endLine: number;
  keys: { key: string; line: number }[];
  /** patterns of `paths:` (or of `globs:`, which Claude Code ignores) */
  patterns: PatternSpan[];
  /** the key the patterns came from */
  patternKey?: 'paths' | 'globs';
}

const OPEN = /^\uFEFF?---\s*$/;
const CLOSE = /^---\s*$/;
const KEY = /^([A-Za-z_][\w-]*)\s*:/;

/** Split on commas outside braces, as Claude Code splits a `paths:` string; spans relative to `s`. */
function commaParts(s: string, offset: number): { raw: string; start: number; end: number }[] {
  const out: { raw: string; start: number; end: number }[] = [];
  let depth = 0;
  let from = 0;
  const push = (a: number, b: number) => {
    const seg = s.slice(a, b);
    const lead = seg.length - seg.trimStart().length;
    const raw = seg.trim();
    if (raw) out.push({ raw, start: offset + a + lead, end: offset + a + lead + raw.length });
  };
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '{') depth++;
    else if (ch === '}') depth--;
    else if (ch === ',' && depth === 0) {
      push(from, i);
      from = i + 1;
    }
  }
  push(from, s.length);
  return out;
}

/** one YAML scalar (quoted or plain) starting at `col` of `line`; returns its content span */
function scalar(line: string, col: number, stopAtComma: boolean): { text: string; start: number; end: number; next: number } {
  let i = col;
  while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
  const q = line[i];
  if (q === '"' || q === "'") {
    let j = i + 1;
    while (j < line.length && !(line[j] === q && line[j - 1] !== '\\')) j++;
    return { text: line.slice(i + 1, j), start: i + 1, end: j, next: j + 1 };
  }
  let j = i;
  while (j < line.length) {
    if (stopAtComma && (line[j] === ',' || line[j] === ']')) break;
    if (line[j] === '#' && j > i && /\s/.test(line[j - 1]!)) break;
    j++;
  }
  const text = line.slice(i, j).trimEnd();
  return { text, start: i, end: i + text.length, next: j };
}

export function scanFrontmatter(text: string): FrontmatterScan | undefined {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  if (!OPEN.test(lines[0] ?? '')) return undefined;
  let endLine = -1;
  for (let i = 1; i < lines.length; i++) if (CLOSE.test(lines[i]!)) {
    endLine = i;
    break;
  }
  if (endLine < 0) return undefined;
  const keys: { key: string; line: number }[] = [];
  for (let i = 1; i < endLine; i++) {
    const m = KEY.exec(lines[i]!);
    if (m) keys.push({ key: m[1]!, line: i });
  }
  const key = keys.find((k) => k.key === 'paths') ?? keys.find((k) => k.key === 'globs');
  const patterns: PatternSpan[] = [];
  if (key) {
    const first = lines[key.line]!;
    const valueCol = first.indexOf(':') + 1;
    const rest = first.slice(valueCol);
    const add = (s: { text: string; start: number }, line: number) => {
      for (const p of commaParts(s.text, s.start)) patterns.push({ ...p, line });
    };
    if (rest.trim().startsWith('[')) {
      // flow sequence, possibly over several lines
      let line = key.line;
      let col = valueCol + rest.indexOf('[') + 1;
      for (;;) {
        const l = lines[line]!;
        while (col < l.length && (l[col] === ' ' || l[col] === ',' || l[col] === '\t')) col++;
        if (col >= l.length) {
          if (++line >= endLine) break;
          col = 0;
          continue;
        }
        if (l[col] === ']') break;
        const s = scalar(l, col, true);
        if (s.text) add(s, line);
        col = Math.max(s.next, col + 1);
      }
    } else if (rest.trim() && !rest.trim().startsWith('#')) {
      add(scalar(first, valueCol, false), key.line);
    } else {
      for (let i = key.line + 1; i < endLine; i++) {
        const l = lines[i]!;
        if (KEY.test(l)) break;
        const m = /^(\s*)-\s+/.exec(l);
        if (!m) continue;
        const s = scalar(l, m[0].length, false);
        if (s.text) add(s, i);
      }
    }
  }
  return { endLine, keys, patterns, patternKey: key?.key as 'paths' | 'globs' | undefined };
}

/** Frontmatter keys Claude Code reads, per kind of file (instructions spec §5, memory-skills B6). */
export const RULE_KEYS: Record<string, string> = {
  paths: 'Glob patterns (relative to the folder holding .claude): the rule loads only when a matching file is touched.',
};

export const SKILL_KEYS: Record<string, string> = {
  name: 'Name shown beside the folder name in the listing, as "dir (name)", by the versions that show frontmatter names (the folder name stays the listed name).',
  description: 'One line in the skills listing; cut at 1,536 characters (skillListingMaxDescChars).',
  when_to_use: 'Appended to the description as " - …"; counts toward the 1,536-character cap.',
  'allowed-tools': 'Tools the skill may use without asking.',
  'disallowed-tools': 'Tools the skill may not use.',
  'argument-hint': 'Hint shown for the skill\'s arguments.',
  arguments: 'Named arguments.',
  model: 'Model used while the skill runs.',
  'disable-model-invocation': 'true: not listed, only the user can invoke it.',
  'user-invocable': 'false: hidden from the slash menu; the model can still invoke it.',
  effort: 'Reasoning effort while the skill runs.',
  shell: 'Shell for the skill\'s commands.',
  version: 'Skill version.',
  paths: 'Glob patterns: the skill is listed only after a matching file is touched.',
  hooks: 'Hooks active while the skill runs.',
  context: 'inline (default) or fork (runs in a subagent).',
  agent: 'Agent type for context: fork.',
  background: 'Run in the background.',
  fallback: 'Fallback behaviour.',
  metadata: 'Free-form metadata.',
};
