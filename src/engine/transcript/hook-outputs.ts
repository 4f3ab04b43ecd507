// What a hook really printed, from the transcripts of earlier sessions (issue 21): the engine never runs
// a hook, so its output's size is unknown until a session ran it; Claude Code records every hook run as
// a `hook_success` attachment (event, command, the output that joined the context). The newest run of
// each event and command is the estimate, with the transcript it came from.
import type { FileAccess } from '../files/file-access.js';
import { TranscriptFollower } from './follow.js';
import { num, obj, str } from './records.js';
import type { TranscriptFile } from './session.js';

export interface MeasuredHook {
  event: string;
  command: string;
  /** characters of the output that joined the context */
  chars: number;
  /** the transcript that recorded it, and when */
  transcript: string;
  at?: string;
  exitCode?: number;
}

/** at most this much of each transcript is read for hook runs */
const MAX_BYTES = 64 * 1024 * 1024;

export const hookKey = (event: string, command: string) => `${event}\n${command}`;

/** the newest recorded run of each hook (event and command) in the newest `maxSessions` transcripts */
export function measuredHooks(fa: FileAccess, transcripts: readonly TranscriptFile[], maxSessions = 5): Map<string, MeasuredHook> {
  const out = new Map<string, MeasuredHook>();
  // oldest first, so that a newer run replaces an older one
  for (const t of transcripts.slice(0, maxSessions).reverse()) {
    const f = new TranscriptFollower(fa, t.file, MAX_BYTES);
    f.poll();
    for (const r of f.records) {
      if (r.type !== 'attachment') continue;
      const a = obj(r.rec.attachment);
      if (!a || a.type !== 'hook_success') continue;
      const event = str(a.hookEvent) ?? str(a.hookName);
      const command = str(a.command);
      if (!event || !command) continue;
      const content = str(a.content) ?? str(a.stdout) ?? '';
      out.set(hookKey(event, command), { event, command, chars: content.length, transcript: t.file, at: str(r.rec.timestamp), exitCode: num(a.exitCode) });
    }
  }
  return out;
}
