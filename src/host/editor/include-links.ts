// @imports of an instruction file as Claude Code reads them (the engine's processing: code spans,
// code blocks and comments do not count), located in the text so the editor can link them.
import { processInstructionText } from '../../engine/index.js';

export interface IncludeLink {
  /** as written (after `#fragment` removal and `\ ` unescaping) */
  spec: string;
  /** resolved absolute path */
  target: string;
  /** 0-based line and columns [start, end) of the path after `@` */
  line: number;
  start: number;
  end: number;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function includeLinks(text: string, file: string, home: string, stripBom: boolean): IncludeLink[] {
  if (!text.includes('@')) return [];
  const proc = processInstructionText(text, file, { stripBomBeforeFrontmatter: stripBom, collectIncludes: true, home });
  const lines = text.split('\n');
  const out: IncludeLink[] = [];
  proc.includeSpecs.forEach((spec, k) => {
    const target = proc.includes[k]!;
    const written = [spec, spec.replaceAll(' ', '\\ ')];
    const re = new RegExp(`(^|\\s)@(${written.map(escapeRe).join('|')})(?=#|\\s|$)`, 'g');
    lines.forEach((l, line) => {
      re.lastIndex = 0;
      for (let m = re.exec(l); m; m = re.exec(l)) {
        const start = m.index + m[1]!.length + 1;
        out.push({ spec, target, line, start, end: start + m[2]!.length });
      }
    });
  });
  return out;
}
