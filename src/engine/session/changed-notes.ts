// The "changed on disk" channel: at the start of a turn, Claude Code compares each file whose text
// the session holds (lazily injected instruction files and their includes, files the model wrote
// with Edit or Write) with the disk, and sends the changed region with line numbers. Files the model
// only read, startup files and skills are not compared (measured on 2.1.235, 2.1.328, 2.1.332).
import { structuredPatch } from 'diff';
import { numberedLine, SNIPPET_HUNK_SEPARATOR, SNIPPET_TRUNCATED } from '../format-strings.js';
import type { SessionProfile } from '../profiles.js';

/** a diff that takes longer than this gives no snippet (as Claude Code's own time limit does) */
const DIFF_TIMEOUT_MS = 200;

/** the text as the session keeps it: a leading BOM dropped, CRLF as LF */
export function heldText(raw: string): string {
  return (raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw).replaceAll('\r\n', '\n');
}

/** `N\tline` for each line of `content` from `startLine` on (a trailing CR of a line is not shown) */
export function numberLines(content: string, startLine: number): string {
  if (!content) return '';
  return content
    .split('\n')
    .map((l, i) => numberedLine(startLine + i, l.endsWith('\r') ? l.slice(0, -1) : l))
    .join('\n');
}

/** the changed region of `before` → `after`: each hunk with 8 lines of context, numbered from the
 *  hunk's start in the old text, hunks joined by `...`; '' when nothing changed */
export function changeSnippet(before: string, after: string, p: SessionProfile): string {
  let patch;
  try {
    patch = structuredPatch('file.txt', 'file.txt', before, after, undefined, undefined, { context: p.noteContextLines, timeout: DIFF_TIMEOUT_MS });
  } catch {
    return '';
  }
  if (!patch) return '';
  const text = patch.hunks
    .map((h) =>
      numberLines(
        h.lines
          .filter((l) => !l.startsWith('-') && !l.startsWith('\\'))
          .map((l) => l.slice(1))
          .join('\n'),
        h.oldStart,
      ),
    )
    .join(SNIPPET_HUNK_SEPARATOR);
  if (text.length <= p.noteSnippetMaxChars) return text;
  const cut = text.lastIndexOf('\n', p.noteSnippetMaxChars);
  const kept = cut > 0 ? text.slice(0, cut) : text.slice(0, p.noteSnippetMaxChars);
  let lines = 1;
  for (let i = kept.length + 1; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++;
  return kept + SNIPPET_TRUNCATED(lines);
}
