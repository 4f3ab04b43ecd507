// Auto-memory (memory spec A1–A4): where the memory folder is, whether memory is on, and what
// MEMORY.md becomes in the request (processing, then the 200-line / 25,000-unit cut and warning).
import * as path from 'node:path';
import { isDefinedFalsyEnv, isTruthyEnv, type Environment } from './environment.js';
import { MEMORY_WARNING_PREFIX, MEMORY_WARNING_TAIL } from './format-strings.js';
import { canonicalProjectRoot } from './git.js';
import type { TextCache } from './loader.js';
import { parseFrontmatter } from './frontmatter.js';
import { lexMarkdown, stripBlockComments } from './markdown.js';
import type { ClaudeProfile } from './profiles.js';
import type { Settings } from './settings.js';

export const MEMORY_MAX_LINES = 200;
export const MEMORY_MAX_UNITS = 25_000;

/** `-`-for-every-non-alphanumeric key, cut at 200 units plus a hash of the raw path */
export function memoryKey(root: string): string {
  const s = root.replace(/[^a-zA-Z0-9]/g, '-');
  if (s.length <= 200) return s;
  let h = 0;
  for (let i = 0; i < root.length; i++) h = ((h << 5) - h + root.charCodeAt(i)) | 0;
  return `${s.slice(0, 200)}-${Math.abs(h).toString(36)}`;
}

export interface MemoryLocation {
  dir: string;
  /** which setting chose the folder, if any */
  from?: string;
}

function validCustomDir(v: unknown, home: string): string | undefined {
  if (typeof v !== 'string') return undefined;
  let p = v;
  if (p.startsWith('~/') || p.startsWith('~\\')) p = path.join(home, p.slice(2));
  if (!path.isAbsolute(p) || p.length < 3 || p.includes('\0')) return undefined;
  return (path.normalize(p).replace(/[\\/]+$/, '') + path.sep).normalize('NFC');
}

export function memoryLocation(env: Environment, settings: Settings): MemoryLocation {
  for (const name of ['policy', 'flag', 'local', 'project', 'user'] as const) {
    const layer = settings.layers.find((l) => l.name === name);
    const dir = validCustomDir(layer?.data.autoMemoryDirectory, env.home);
    if (dir) return { dir, from: `autoMemoryDirectory in ${layer!.path}` };
  }
  const base = env.env.CLAUDE_CODE_REMOTE_MEMORY_DIR ?? env.userDir;
  return { dir: path.join(base, 'projects', memoryKey(canonicalProjectRoot(env.fs, env.cwd)), 'memory') + path.sep };
}

export function memoryEnabled(env: Environment, settings: Settings): { enabled: boolean; why: string } {
  const v = env.env.CLAUDE_CODE_DISABLE_AUTO_MEMORY;
  if (env.bare) return { enabled: false, why: '--bare turns auto-memory off' };
  if (isTruthyEnv(v)) return { enabled: false, why: 'CLAUDE_CODE_DISABLE_AUTO_MEMORY is set' };
  if (isDefinedFalsyEnv(v)) return { enabled: true, why: 'CLAUDE_CODE_DISABLE_AUTO_MEMORY is set to a false value, which forces memory on' };
  const s = settings.get<unknown>('autoMemoryEnabled');
  if (s && s.value === false) return { enabled: false, why: `autoMemoryEnabled is false in ${s.layer.path}` };
  return { enabled: true, why: s ? `autoMemoryEnabled in ${s.layer.path}` : 'auto-memory is on by default' };
}

/** invisible characters 2.1.328 deletes: Cf, Co, Cn and C0/C1 controls except \t \n \r */
const INVISIBLE = /[\p{Cf}\p{Co}\p{Cn}]|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/gu;

export interface MemoryIndex {
  path: string;
  /** content as injected (after processing and truncation, trimmed), or '' when nothing is injected */
  content: string;
  /** lines and UTF-16 units of the processed text before the cut */
  lines: number;
  units: number;
  truncated: boolean;
  /** lines kept (of the processed text) */
  keptLines: number;
  /** 0-based offset in the raw file where the processed text starts (frontmatter removed) */
  warning?: string;
  /** processed (stripped, trimmed) text before the cut */
  processed: string;
}

function fmtSize(n: number): string {
  if (n / 1024 < 1) return `${n} bytes`;
  const units = ['KB', 'MB', 'GB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) v /= 1024, i++;
  return `${v.toFixed(1).replace(/\.0$/, '')}${units[i]}`;
}

function cutUnits(s: string, n: number): string {
  let k = Math.min(n, s.length);
  const c = s.charCodeAt(k - 1);
  if (c >= 0xd800 && c <= 0xdbff) k--;
  return s.slice(0, k);
}

function preview(line: string): string {
  const t = line.trim();
  if (t.length <= 80) return t;
  let cut = cutUnits(t, 79);
  const ws = cut.search(/\s\S*$/);
  cut = ws > 40 ? cut.slice(0, ws) : cut.trimEnd();
  return `${cut}…`;
}

export function processMemoryText(raw: string, profile: ClaudeProfile): string {
  const fm = parseFrontmatter(raw, profile.stripBomBeforeFrontmatter);
  let text = fm.body;
  if (text.includes('<!--')) {
    const tokens = lexMarkdown(text);
    if (tokens) text = stripBlockComments(tokens).content;
  }
  text = text.replaceAll('\r\n', '\n');
  if (profile.memory.stripInvisible) text = text.replace(INVISIBLE, '');
  return text.trim();
}

/** MEMORY.md's text as Claude Code injects it, with the truncation figures. */
export function truncateMemory(t: string, profile: ClaudeProfile): Omit<MemoryIndex, 'path' | 'processed'> {
  const allLines = t.split('\n');
  const lines = allLines.length;
  const units = t.length;
  if (lines <= MEMORY_MAX_LINES && units <= MEMORY_MAX_UNITS) return { content: t, lines, units, truncated: false, keptLines: lines };
  let k = lines > MEMORY_MAX_LINES ? allLines.slice(0, MEMORY_MAX_LINES).join('\n') : t;
  let hardCut = false;
  if (k.length > MEMORY_MAX_UNITS) {
    const c = k.lastIndexOf('\n', MEMORY_MAX_UNITS);
    hardCut = !(c > 0);
    k = k.slice(0, c > 0 ? c : MEMORY_MAX_UNITS);
  }
  const linesOver = lines > MEMORY_MAX_LINES;
  const sizeOver = units > MEMORY_MAX_UNITS;
  const L = linesOver && sizeOver ? `${lines} lines and ${fmtSize(units)}` : linesOver ? `${lines} lines (limit: ${MEMORY_MAX_LINES})` : `${fmtSize(units)} (limit: ${fmtSize(MEMORY_MAX_UNITS)}) — index entries are too long`;
  const kept = hardCut ? 0 : k.split('\n').length;
  let detail = '';
  if (profile.memory.detailedWarning) {
    if (hardCut) detail = `: everything after the first ${k.length} characters of line 1 was cut off`;
    else {
      const first = allLines[kept] ?? '';
      const pv = first.trim() ? ` ("${preview(first)}")` : '';
      detail = `: ${lines - kept} of ${lines} lines were cut off, starting at line ${kept + 1}${pv}`;
    }
  }
  const warning = `MEMORY.md is ${L}. Only part of it was loaded${detail}. ${MEMORY_WARNING_TAIL}`;
  return { content: `${k}${MEMORY_WARNING_PREFIX}${warning}`, lines, units, truncated: true, keptLines: hardCut ? 1 : kept, warning };
}

export function loadMemoryIndex(env: Environment, settings: Settings, profile: ClaudeProfile, texts: TextCache): { location: MemoryLocation; enabled: { enabled: boolean; why: string }; index?: MemoryIndex } {
  const location = memoryLocation(env, settings);
  const enabled = memoryEnabled(env, settings);
  if (!enabled.enabled) return { location, enabled };
  const p = path.join(location.dir, 'MEMORY.md');
  const read = texts.read(p);
  if (read.kind !== 'text') return { location, enabled };
  const processed = processMemoryText(read.text, profile);
  const cut = truncateMemory(processed, profile);
  return { location, enabled, index: { path: p, processed, ...cut } };
}
