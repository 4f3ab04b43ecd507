// MEMORY.md over Claude Code's budget (200 lines or 25,000 characters after processing): what is
// cut, from which line of the file, and which index entries (and so which topic files) the model
// will no longer know about.
import { grouped, type Diagnostic } from '../diagnostics.js';
import type { Environment } from '../environment.js';
import { MEMORY_MAX_LINES, MEMORY_MAX_UNITS, type MemoryIndex } from '../memory/memory.js';
import { readText } from './file-checks.js';

export interface LostEntry {
  /** 1-based line in MEMORY.md as stored on disk, when found */
  line?: number;
  /** the line as written */
  text: string;
  /** link title and target for `- [Title](topic.md) — hook` entries */
  title?: string;
  target?: string;
}

export interface MemoryReport {
  path: string;
  lines: number;
  units: number;
  maxLines: number;
  maxUnits: number;
  truncated: boolean;
  keptLines: number;
  /** 1-based line of the file where the cut starts, when found */
  cutLine?: number;
  lost: LostEntry[];
  /** lost lines that are entries (list items or links), links to topic files first */
  lostEntries: LostEntry[];
  /** lost entries that link to a topic file: the model no longer learns that file exists */
  lostLinks: LostEntry[];
  injectedChars: number;
}

const LINK = /\[([^\]]+)\]\(([^)\s]+)\)/;

export function memoryReport(env: Environment, index: MemoryIndex | undefined): MemoryReport | undefined {
  if (!index) return undefined;
  const all = index.processed.split('\n');
  const lostLines = index.truncated ? all.slice(index.keptLines) : [];
  const raw = readText(env, index.path);
  const rawLines = raw.ok ? raw.text.replaceAll('\r\n', '\n').split('\n') : [];
  // walk the processed lines through the raw file in order, so repeated text maps to the right line
  let cursor = 0;
  const lineOf: (number | undefined)[] = [];
  for (const t of all) {
    const needle = t.trim();
    let found: number | undefined;
    if (needle) {
      for (let i = cursor, end = Math.min(rawLines.length, cursor + 2000); i < end; i++) {
        if (rawLines[i]!.includes(needle)) {
          found = i + 1;
          cursor = i + 1;
          break;
        }
      }
    }
    lineOf.push(found);
  }
  const lost: LostEntry[] = lostLines.map((text, i) => {
    const m = LINK.exec(text);
    return { line: lineOf[index.keptLines + i], text: text.trim(), title: m?.[1], target: m?.[2] };
  });
  const lostLinks = lost.filter((l) => l.target !== undefined);
  const lostEntries = [...lostLinks, ...lost.filter((l) => l.target === undefined && /^\s*([-*+]|\d+[.)])\s+\S/.test(l.text))];
  return {
    path: index.path,
    lines: index.lines,
    units: index.units,
    maxLines: MEMORY_MAX_LINES,
    maxUnits: MEMORY_MAX_UNITS,
    truncated: index.truncated,
    keptLines: index.keptLines,
    cutLine: lost.find((l) => l.line !== undefined)?.line,
    lost,
    lostEntries,
    lostLinks,
    injectedChars: index.content.length,
  };
}

export function describeEntry(e: LostEntry): string {
  if (e.title && e.target) return `${e.title} (${e.target})`;
  const t = e.text.replace(/^\s*([-*+]|\d+[.)])\s+/, '');
  return t.length > 60 ? `${t.slice(0, 59)}…` : t;
}

export function memoryCheck(report: MemoryReport | undefined): Diagnostic[] {
  if (!report || !report.truncated) return [];
  const over: string[] = [];
  if (report.lines > report.maxLines) over.push(`${report.lines} lines (limit ${report.maxLines})`);
  if (report.units > report.maxUnits) over.push(`${grouped(report.units)} characters (limit ${grouped(report.maxUnits)})`);
  const n = report.lost.length;
  const links = report.lostLinks;
  const others = report.lostEntries.filter((e) => e.target === undefined);
  let lostTxt = '';
  if (links.length)
    lostTxt += ` ${links.length === 1 ? 'Lost link to a topic file (the model will not learn it exists)' : 'Lost links to topic files (the model will not learn they exist)'}: ${links.slice(0, 5).map(describeEntry).join('; ')}${links.length > 5 ? `; and ${links.length - 5} more` : ''}.`;
  if (others.length) lostTxt += ` ${links.length ? 'Also lost' : 'Lost'}: ${others.length} other entr${others.length === 1 ? 'y' : 'ies'}, from "${describeEntry(others[0]!)}".`;
  return [
    {
      path: report.path, line: report.cutLine, severity: 'error', rule: 'memory-over-budget',
      message: `MEMORY.md is ${over.join(' and ')} after processing: Claude Code injects only the first ${report.keptLines} lines and cuts ${n} line${n === 1 ? '' : 's'}${report.cutLine ? ` from line ${report.cutLine} on` : ''}.${lostTxt} Move detail into topic files and keep the index short.`,
    },
  ];
}
