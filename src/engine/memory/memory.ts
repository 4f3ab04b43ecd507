// Auto-memory (memory spec A1–A4): where the memory folder is, whether memory is on, and what
// MEMORY.md becomes in the request (processing, then the 200-line / 25,000-unit cut and warning),
// with the figures a gauge needs (sizes before and after, the cut mapped back to the file's own
// lines, the index entries lost, the `# Memory` system section, topic files as lazy layers).
import * as path from 'node:path';
import type { DiagnosticSink } from '../diagnostics.js';
import { isDefinedFalsyEnv, isTruthyEnv, type Environment } from '../environment.js';
import { MEMORY_WARNING_PREFIX, MEMORY_WARNING_TAIL } from '../format-strings.js';
import { canonicalProjectRoot } from '../files/git.js';
import { byCodeUnit } from '../files/file-access.js';
import type { TextCache } from '../instructions/loader.js';
import { parseFrontmatter } from '../instructions/frontmatter.js';
import { lexMarkdown, stripBlockComments } from '../instructions/markdown.js';
import type { ClaudeProfile } from '../profiles.js';
import { describeValue, type Settings, type SettingsLayerName } from '../settings.js';
import { resolveModel, usesLegacyPrompt } from '../skills/models.js';

export const MEMORY_MAX_LINES = 200;
export const MEMORY_MAX_UNITS = 25_000;
/** the memory key keeps this many sanitized units, then adds a hash of the raw path */
const KEY_MAX = 200;

/** `-`-for-every-non-alphanumeric key (per UTF-16 unit), cut at 200 units plus a hash of the raw path */
export function memoryKey(root: string): string {
  const s = root.replace(/[^a-zA-Z0-9]/g, '-');
  if (s.length <= KEY_MAX) return s;
  let h = 0;
  for (let i = 0; i < root.length; i++) h = ((h << 5) - h + root.charCodeAt(i)) | 0;
  return `${s.slice(0, KEY_MAX)}-${Math.abs(h).toString(36)}`;
}

export interface MemoryLocation {
  /** the memory folder, with its trailing separator, as the system prompt names it */
  dir: string;
  /** which setting or variable chose the folder, if any */
  from?: string;
  /** a setting named a folder Claude Code rejects (then the default folder is used) */
  rejected?: { value: string; from: string; reason: string };
  /** the project root the default key is made from */
  projectRoot?: string;
}

/** Claude Code's check of a memory folder value: `~/` expanded (settings only), absolute, 3+ units,
 *  not a bare drive, no NUL; normalized, trailing separator, NFC. */
export function validMemoryDir(v: string, home: string, expandTilde: boolean): { dir?: string; reason?: string } {
  if (!v) return { reason: 'empty' };
  let p = v;
  if (expandTilde && (p.startsWith('~/') || p.startsWith('~\\'))) {
    const rest = p.slice(2);
    const n = path.normalize(rest || '.');
    if (n === '.' || n === '..' || n.startsWith(`..${path.sep}`) || n.startsWith('../') || n.startsWith('..\\')) return { reason: 'a `~/` path must stay below HOME' };
    p = path.join(home, rest);
  }
  const g = path.normalize(p).replace(/[\\/]+$/, '');
  if (!path.isAbsolute(g)) return { reason: 'not an absolute path' };
  if (g.length < 3 || /^[A-Za-z]:$/.test(g)) return { reason: 'a root folder' };
  if (g.includes('\0')) return { reason: 'contains NUL' };
  return { dir: (g + path.sep).normalize('NFC') };
}

const DIR_SOURCES: SettingsLayerName[] = ['policy', 'flag', 'local', 'project', 'user'];

export function memoryLocation(env: Environment, settings: Settings): MemoryLocation {
  const override = env.env.CLAUDE_COWORK_MEMORY_PATH_OVERRIDE;
  if (override) {
    const r = validMemoryDir(override, env.home, false);
    if (r.dir) return { dir: r.dir, from: 'CLAUDE_COWORK_MEMORY_PATH_OVERRIDE' };
  }
  let rejected: MemoryLocation['rejected'];
  // the first source that sets the key decides, even with a value Claude Code then rejects
  for (const name of DIR_SOURCES) {
    const layer = settings.layers.find((l) => l.name === name);
    const v = layer?.data.autoMemoryDirectory;
    if (v === undefined || v === null) continue;
    const from = `autoMemoryDirectory in ${layer!.path}`;
    const r = typeof v === 'string' ? validMemoryDir(v, env.home, true) : { reason: 'not a string' };
    if (r.dir) return { dir: r.dir, from };
    rejected = typeof v === 'string' ? { value: v, from, reason: r.reason ?? 'invalid' } : { value: JSON.stringify(v) ?? typeof v, from, reason: `not a string but ${describeValue(v)}` };
    break;
  }
  const remote = env.env.CLAUDE_CODE_REMOTE_MEMORY_DIR;
  const base = remote ? remote : env.userDir;
  const realCwd = env.fs.realpath(env.cwd);
  const projectRoot = canonicalProjectRoot(env.fs, realCwd.ok ? realCwd.value : env.cwd);
  const dir = (path.join(base, 'projects', memoryKey(projectRoot), 'memory') + path.sep).normalize('NFC');
  return { dir, from: remote ? 'CLAUDE_CODE_REMOTE_MEMORY_DIR' : undefined, rejected, projectRoot };
}

export function memoryEnabled(env: Environment, settings: Settings): { enabled: boolean; why: string } {
  const v = env.env.CLAUDE_CODE_DISABLE_AUTO_MEMORY;
  if (env.bare) return { enabled: false, why: '--bare (CLAUDE_CODE_SIMPLE) turns auto-memory off' };
  if (isTruthyEnv(v)) return { enabled: false, why: 'CLAUDE_CODE_DISABLE_AUTO_MEMORY is set' };
  if (isDefinedFalsyEnv(v)) return { enabled: true, why: 'CLAUDE_CODE_DISABLE_AUTO_MEMORY is set to a false value, which forces memory on' };
  if (isTruthyEnv(env.env.CLAUDE_CODE_REMOTE) && !env.env.CLAUDE_CODE_REMOTE_MEMORY_DIR && !env.env.CLAUDE_COWORK_MEMORY_PATH_OVERRIDE)
    return { enabled: false, why: 'CLAUDE_CODE_REMOTE is set without CLAUDE_CODE_REMOTE_MEMORY_DIR' };
  for (const name of DIR_SOURCES) {
    const layer = settings.layers.find((l) => l.name === name);
    const s = layer?.data.autoMemoryEnabled;
    if (!layer || typeof s !== 'boolean') continue;
    return s ? { enabled: true, why: `autoMemoryEnabled is true in ${layer.path}` } : { enabled: false, why: `autoMemoryEnabled is false in ${layer.path}` };
  }
  return { enabled: true, why: 'auto-memory is on by default' };
}

/** invisible characters 2.1.328 deletes: Cf, Co, Cn and C0/C1 controls except \t \n \r */
const INVISIBLE = /[\p{Cf}\p{Co}\p{Cn}]|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/gu;
/** text without them: printable ASCII, tabs and line ends have none (and skip compiling INVISIBLE) */
export function stripInvisible(s: string): string {
  return /^[\t\n\r\x20-\x7e]*$/.test(s) ? s : s.replace(INVISIBLE, '');
}

export interface MemoryLine {
  /** 1-based line in the processed text */
  line: number;
  /** 1-based line of MEMORY.md as stored (frontmatter and comments counted), when found */
  rawLine?: number;
  text: string;
}

export interface MemoryIndex {
  path: string;
  /** content as injected (after processing and truncation, trimmed), or '' when nothing is injected */
  content: string;
  /** processed (stripped, trimmed) text before the cut */
  processed: string;
  /** lines and UTF-16 units of the processed text before the cut (what the limits are checked on) */
  lines: number;
  units: number;
  /** the same of the raw file */
  rawLines: number;
  rawUnits: number;
  truncated: boolean;
  /** which limit cut it */
  over?: 'lines' | 'size' | 'both';
  /** the cut fell inside line 1 (a line over 25,000 units) */
  hardCut: boolean;
  /** complete lines of the processed text that are kept (1 for a hard cut inside line 1) */
  keptLines: number;
  /** units of processed text kept (the warning excluded) */
  keptUnits: number;
  /** units the warning adds (`\n\n> WARNING: …`) */
  warningUnits: number;
  warning?: string;
  /** first processed line that is cut, mapped back to the file */
  cut?: MemoryLine;
  /** lines lost to the cut (non-empty ones), mapped back to the file */
  lost: MemoryLine[];
  /** lost lines that are index entries (list items or links, `- [Title](file.md) — hook`) */
  lostEntries: MemoryLine[];
  /** processed line i+1 → 1-based raw line (undefined when not found) */
  lineMap: (number | undefined)[];
}

function fmtSize(n: number): string {
  if (n / 1024 < 1) return `${n} bytes`;
  const units = ['KB', 'MB', 'GB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1).replace(/\.0$/, '')}${units[i]}`;
}

/** first `n` UTF-16 units, never ending inside a surrogate pair */
function cutUnits(s: string, n: number): string {
  if (n <= 0) return '';
  if (s.length <= n) return s;
  const k = s.slice(0, n);
  const c = k.charCodeAt(n - 1);
  return c >= 0xd800 && c <= 0xdbff ? k.slice(0, -1) : k;
}

/** the preview of the first cut line: over 80 units → 79 units, cut at the last space when that keeps over 40, plus `…` */
export function memoryPreview(line: string, n = 80): string {
  if (line.length <= n) return line;
  const e = cutUnits(line, n - 1);
  const r = e.search(/\s\S*$/);
  const i = r === -1 ? '' : e.slice(0, r).trimEnd();
  return `${i.length > n / 2 ? i : e.trimEnd()}\u2026`;
}

/** MEMORY.md's text as the limits see it: frontmatter and block comments stripped, CRLF → LF (2.1.328), trimmed.
 *  (2.1.328 deletes invisible characters only afterwards, from what is injected: they count toward the limits.) */
export function processMemoryText(raw: string, profile: ClaudeProfile): string {
  const fm = parseFrontmatter(raw, profile.stripBomBeforeFrontmatter);
  let text = fm.body;
  if (text.includes('<!--')) {
    const tokens = lexMarkdown(text);
    if (tokens) text = stripBlockComments(tokens).content;
  }
  if (profile.memory.normalizeCrlf) text = text.replaceAll('\r\n', '\n');
  return text.trim();
}

/** lone surrogates (a cut inside a surrogate pair) become U+FFFD, as when the request is encoded */
function wellFormed(s: string): string {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** what reaches the request from the cut text: 2.1.328 deletes invisible characters then */
export function injectedMemoryText(cut: string, profile: ClaudeProfile): string {
  return wellFormed(profile.memory.stripInvisible ? stripInvisible(cut).trim() : cut);
}

export type TruncationResult = Pick<MemoryIndex, 'content' | 'lines' | 'units' | 'truncated' | 'over' | 'hardCut' | 'keptLines' | 'keptUnits' | 'warningUnits' | 'warning'>;

/** MEMORY.md's text as Claude Code injects it, with the truncation figures. `t` is the processed text. */
export function truncateMemory(t: string, profile: ClaudeProfile): TruncationResult {
  const allLines = t.split('\n');
  const lines = allLines.length;
  const units = t.length;
  const linesOver = lines > MEMORY_MAX_LINES;
  const sizeOver = units > MEMORY_MAX_UNITS;
  if (!linesOver && !sizeOver) return { content: injectedMemoryText(t, profile), lines, units, truncated: false, hardCut: false, keptLines: lines, keptUnits: units, warningUnits: 0 };
  let k = linesOver ? allLines.slice(0, MEMORY_MAX_LINES).join('\n') : t;
  if (k.length > MEMORY_MAX_UNITS) {
    const c = k.lastIndexOf('\n', MEMORY_MAX_UNITS);
    k = k.slice(0, c > 0 ? c : MEMORY_MAX_UNITS);
  }
  // complete lines kept: 0 when the cut is not at a line end (inside line 1)
  const kept = t[k.length] === '\n' ? k.split('\n').length : 0;
  const L = linesOver && sizeOver ? `${lines} lines and ${fmtSize(units)}` : linesOver ? `${lines} lines (limit: ${MEMORY_MAX_LINES})` : `${fmtSize(units)} (limit: ${fmtSize(MEMORY_MAX_UNITS)}) — index entries are too long`;
  let detail = '';
  if (profile.memory.detailedWarning) {
    if (kept === 0) detail = `: everything after the first ${k.length} characters of line 1 was cut off`;
    else {
      const from = k.length + 1;
      const end = t.indexOf('\n', from);
      const first = t.slice(from, end < 0 ? undefined : end).trim();
      detail = `: ${lines - kept} of ${lines} lines were cut off, starting at line ${kept + 1}${first ? ` ("${memoryPreview(first)}")` : ''}`;
    }
  }
  const warning = `MEMORY.md is ${L}. Only part of it was loaded${detail}. ${MEMORY_WARNING_TAIL}`;
  const content = injectedMemoryText(`${k}${MEMORY_WARNING_PREFIX}${warning}`, profile);
  return {
    content, lines, units, truncated: true, over: linesOver && sizeOver ? 'both' : linesOver ? 'lines' : 'size',
    hardCut: kept === 0, keptLines: kept === 0 ? 1 : kept, keptUnits: k.length, warningUnits: MEMORY_WARNING_PREFIX.length + warning.length, warning,
  };
}

/** Map each processed line to the line of the raw file it comes from (greedy, in order). */
export function mapLinesToRaw(processed: string, raw: string, profile: ClaudeProfile): (number | undefined)[] {
  const norm = (s: string) => (profile.memory.stripInvisible ? stripInvisible(s) : s).replace(/\r$/, '').trim();
  const rawLines = raw.replace(/^\uFEFF/, '').split('\n').map(norm);
  const out: (number | undefined)[] = [];
  let cursor = 0;
  const lines = processed.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const needle = norm(lines[i]!);
    let found: number | undefined;
    if (needle) {
      for (let j = cursor; j < rawLines.length; j++)
        if (rawLines[j] === needle || (rawLines[j]!.includes(needle) && rawLines[j]!.length > 0)) {
          found = j;
          break;
        }
    } else {
      // a run of blank lines: the blank raw lines closest before the next non-blank line's match
      let run = 0;
      let nextNeedle: string | undefined;
      for (let q = i; q < lines.length; q++) {
        const n = norm(lines[q]!);
        if (n) {
          nextNeedle = n;
          break;
        }
        run++;
      }
      let limit = rawLines.length;
      if (nextNeedle !== undefined)
        for (let j = cursor; j < rawLines.length; j++)
          if (rawLines[j] === nextNeedle) {
            limit = j;
            break;
          }
      const blanks: number[] = [];
      for (let j = cursor; j < limit; j++) if (rawLines[j] === '') blanks.push(j);
      if (blanks.length) found = blanks[Math.max(0, blanks.length - run)];
    }
    if (found !== undefined) cursor = found + 1;
    out.push(found === undefined ? undefined : found + 1);
  }
  return out;
}

const ENTRY = /^\s*(?:[-*+]|\d+[.)])\s+\S|\[[^\]]+\]\([^)\s]+\)/;

export function memoryIndex(p: string, raw: string, profile: ClaudeProfile): MemoryIndex {
  const processed = processMemoryText(raw, profile);
  const cut = truncateMemory(processed, profile);
  const lineMap = mapLinesToRaw(processed, raw, profile);
  const all = processed.split('\n');
  const lost: MemoryLine[] = [];
  let first: MemoryLine | undefined;
  if (cut.truncated) {
    const start = cut.hardCut ? 0 : cut.keptLines;
    if (cut.hardCut) first = { line: 1, rawLine: lineMap[0], text: all[0]!.slice(cut.keptUnits) };
    for (let i = start; i < all.length; i++) {
      const l: MemoryLine = { line: i + 1, rawLine: lineMap[i], text: i === 0 && cut.hardCut ? all[0]!.slice(cut.keptUnits) : all[i]! };
      if (!first) first = l;
      if (l.text.trim()) lost.push(l);
    }
  }
  return {
    path: p,
    processed,
    rawLines: raw.split('\n').length,
    rawUnits: raw.length,
    ...cut,
    cut: first,
    lost,
    lostEntries: lost.filter((l) => ENTRY.test(l.text)),
    lineMap,
  };
}

/** 1-based line of `"key"` in a JSON settings file, when found */
function frontmatterlessKeyLine(env: Environment, file: string, key: string): number | undefined {
  const r = env.fs.readFile(file, 1024 * 1024);
  if (!r.ok) return undefined;
  const i = Buffer.from(r.value).toString('utf8').split('\n').findIndex((l) => l.includes(`"${key}"`));
  return i < 0 ? undefined : i + 1;
}

export interface TopicFile {
  path: string;
  /** path relative to the memory folder */
  name: string;
  bytes: number;
}

const MAX_TOPIC_FILES = 500;

/** Other `.md` files of the memory folder (any depth): never loaded at startup, only if the model reads them. */
export function topicFiles(env: Environment, dir: string): TopicFile[] {
  const out: TopicFile[] = [];
  const walk = (d: string, depth: number) => {
    if (depth > 8 || out.length >= MAX_TOPIC_FILES) return;
    const r = env.fs.readDir(d);
    if (!r.ok) return;
    for (const e of r.value.slice().sort((a, b) => byCodeUnit(a.name, b.name))) {
      const p = path.join(d, e.name);
      let kind = e.kind;
      if (kind === 'symlink') {
        const st = env.fs.stat(p);
        if (!st.ok) continue;
        kind = st.value.kind;
      }
      if (kind === 'dir') walk(p, depth + 1);
      else if (kind === 'file' && e.name.endsWith('.md') && !(depth === 0 && e.name === 'MEMORY.md')) {
        const st = env.fs.stat(p);
        out.push({ path: p, name: path.relative(dir, p).split(path.sep).join('/'), bytes: st.ok ? st.value.size : 0 });
      }
      if (out.length >= MAX_TOPIC_FILES) return;
    }
  };
  walk(dir, 0);
  return out;
}

export interface MemoryLoad {
  location: MemoryLocation;
  enabled: { enabled: boolean; why: string };
  index?: MemoryIndex;
  /** the `# Memory` section of the system prompt (present whenever memory is on), in characters */
  systemSectionChars: number;
  topics: TopicFile[];
}

export function loadMemoryIndex(env: Environment, settings: Settings, profile: ClaudeProfile, texts: TextCache, sink?: DiagnosticSink): MemoryLoad {
  const location = memoryLocation(env, settings);
  if (location.rejected && sink) {
    const file = location.rejected.from.replace(/^autoMemoryDirectory in /, '');
    sink.add({ path: file, line: frontmatterlessKeyLine(env, file, 'autoMemoryDirectory'), severity: 'warning', rule: 'memory-dir-rejected', message: `autoMemoryDirectory ${JSON.stringify(location.rejected.value)} is ignored (${location.rejected.reason}); Claude Code uses the default memory folder ${location.dir} and does not look at lower settings sources` });
  }
  const enabled = memoryEnabled(env, settings);
  if (!enabled.enabled) return { location, enabled, systemSectionChars: 0, topics: [] };
  // Claude 3 and 4 models get the longer `# auto memory` section
  const legacy = usesLegacyPrompt(resolveModel(env, settings, profile).canonical);
  const systemSectionChars = (legacy ? profile.memory.legacySystemSectionBase : profile.memory.systemSectionBase) + location.dir.length;
  const topics = topicFiles(env, location.dir);
  const p = path.join(location.dir, 'MEMORY.md');
  const read = texts.read(p);
  if (read.kind === 'skipped' && sink) {
    const why = read.rule === 'over-4mib' ? read.reason.replace(/: the file is skipped whole$/, '') : read.reason;
    sink.add({ path: p, severity: 'warning', rule: 'memory-unreadable', message: `MEMORY.md exists but is not read: ${why}. The engine shows no memory index for it; Claude Code cannot load it either` });
  }
  if (read.kind !== 'text') return { location, enabled, systemSectionChars, topics };
  return { location, enabled, index: memoryIndex(p, read.text, profile), systemSectionChars, topics };
}
