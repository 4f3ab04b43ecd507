// How a person knows a session (the CLI's `session --list`, the This Session picker): its title (a `/rename`, else the
// title Claude Code generated, else an old `summary` record), its first prompt as the turn list shows it, its git
// branch. Read from the file's head and tail only, whatever its size; never throws.
import type { FileAccess } from '../files/file-access.js';
import { promptOf } from './replay.js';

export interface SessionSummary {
  /** the newest `custom-title` (a `/rename`), else the newest `ai-title`, else the newest `summary` record's text */
  title?: string;
  titleFrom?: 'custom-title' | 'ai-title' | 'summary';
  /** the first prompt that opened a turn: typed text, `/name args` for a prompt-type command, `[image]` */
  firstPrompt?: string;
  gitBranch?: string;
}

/** how much of each end is read: enough for the first prompt of any real session and for titles appended at the end */
const SUMMARY_BYTES = 256 * 1024;
const TITLE_RANK = { 'custom-title': 3, 'ai-title': 2, summary: 1 } as const;

function chunk(fa: FileAccess, file: string, offset: number): string | undefined {
  const r = fa.readRange ? fa.readRange(file, offset, SUMMARY_BYTES) : offset === 0 ? fa.readFile(file, SUMMARY_BYTES) : undefined;
  if (!r?.ok) return undefined;
  const data = 'data' in r.value ? r.value.data : r.value;
  return new TextDecoder('utf-8').decode(data);
}

/** one transcript's summary from its first and last SUMMARY_BYTES (`size`: the file's, when known) */
export function summarizeTranscript(fa: FileAccess, file: string, size?: number): SessionSummary {
  const head = chunk(fa, file, 0);
  if (head === undefined) return {};
  const out: SessionSummary = {};
  let rank = 0;
  const visit = (text: string, prompts: boolean) => {
    for (const line of text.split('\n')) {
      if (!line.startsWith('{')) continue;
      // a title record is short; a prompt is looked for only until the first one
      if (!prompts && !line.includes('title"') && !line.includes('"summary"')) continue;
      let rec: Record<string, unknown>;
      try {
        rec = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      if (!rec || typeof rec !== 'object' || Array.isArray(rec)) continue;
      const t = rec.type;
      const title = t === 'custom-title' ? rec.customTitle : t === 'ai-title' ? rec.aiTitle : t === 'summary' ? rec.summary : undefined;
      if (typeof title === 'string' && title.trim() && TITLE_RANK[t as keyof typeof TITLE_RANK] >= rank) {
        rank = TITLE_RANK[t as keyof typeof TITLE_RANK];
        out.title = title.trim();
        out.titleFrom = t as SessionSummary['titleFrom'];
      }
      if (!prompts) continue;
      if (out.gitBranch === undefined && typeof rec.gitBranch === 'string' && rec.gitBranch) out.gitBranch = rec.gitBranch;
      if (out.firstPrompt === undefined && rec.isSidechain !== true) out.firstPrompt = promptOf(rec)?.prompt;
    }
  };
  visit(head, true);
  if (size !== undefined && size > SUMMARY_BYTES) {
    const tail = chunk(fa, file, Math.max(SUMMARY_BYTES, size - SUMMARY_BYTES));
    if (tail !== undefined) visit(tail.slice(tail.indexOf('\n') + 1), false);
  }
  return out;
}
