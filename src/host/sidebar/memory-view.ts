// MEMORY.md's figures for the gauge, the CodeLens and the quick fix, from the engine's memory
// report (which maps the cut of the processed text back onto the file's own lines).
import * as path from 'node:path';
import type { Analysis } from '../../engine/index.js';
import { memoryReport } from '../../engine/index.js';
import { decodeUtf8, MAX_INSTRUCTION_BYTES } from '../../engine/index.js';
import { memoryIndex, type MemoryIndex } from '../../engine/index.js';

export interface MemoryFigures {
  path: string;
  lines: number;
  units: number;
  maxLines: number;
  maxUnits: number;
  truncated: boolean;
  /** 1-based lines of the file that do not reach the request */
  cut?: { from: number; to: number };
  /** topic-file links past the cut: the model no longer learns these files exist */
  lostLinks: string[];
}

/** the index as the engine would build it for `file` (another MEMORY.md than the project's) */
function indexOf(a: Analysis, file: string): MemoryIndex | undefined {
  const r = a.env.fs.readFile(file, MAX_INSTRUCTION_BYTES);
  if (!r.ok) return undefined;
  return memoryIndex(file, decodeUtf8(r.value), a.profile);
}

/** figures of the project's MEMORY.md, or of `file` when given */
export function memoryFigures(a: Analysis, file?: string): MemoryFigures | undefined {
  const own = a.memory.index;
  const index = !file || (own && path.normalize(own.path) === path.normalize(file)) ? own : indexOf(a, file);
  const rep = memoryReport(a.env, index);
  if (!rep) return undefined;
  const lines = rep.lost.map((l) => l.line).filter((l): l is number => l !== undefined);
  return {
    path: rep.path,
    lines: rep.lines,
    units: rep.units,
    maxLines: rep.maxLines,
    maxUnits: rep.maxUnits,
    truncated: rep.truncated,
    cut: rep.truncated && lines.length ? { from: Math.min(...lines), to: Math.max(...lines) } : undefined,
    lostLinks: rep.lostLinks.map((l) => l.target ?? l.text),
  };
}
