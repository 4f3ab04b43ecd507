// What a hook really printed, from the transcripts of earlier sessions (issue 21): the engine never runs
// a hook, so its output's size is unknown until a session ran it; Claude Code records every hook run as
// a `hook_success` attachment (event, command, the output that joined the context). The newest run of
// each event and command is the estimate, with the transcript it came from.
import type { FileAccess } from '../files/file-access.js';
import { TranscriptFollower } from './follow.js';
import { eventOf, joined, successSent } from './attachment-layers.js';
import { num, obj, str, type ParsedRecord } from './records.js';
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

/** the hook runs among these records, into `out` (a later run replaces an earlier one): the characters that reached
 *  the model (attachment-layers.ts: a PostToolUse hook's plain output none; a JSON output's `additionalContext`, recorded
 *  as the `hook_additional_context` after its `hook_success`, is that run's) */
function runsOf(records: readonly ParsedRecord[], file: string, out: Map<string, MeasuredHook>): void {
  let last: MeasuredHook | undefined;
  for (const r of records) {
    if (r.type !== 'attachment') continue;
    const a = obj(r.rec.attachment);
    if (!a) continue;
    if (a.type === 'hook_additional_context') {
      if (last && last.chars === 0 && last.event === eventOf(a)) last.chars = joined(a.content).length;
      continue;
    }
    if (a.type !== 'hook_success') continue;
    const event = eventOf(a);
    const command = str(a.command);
    last = undefined;
    if (event === '?' || !command) continue;
    last = { event, command, chars: successSent(r.rec, a).length, transcript: file, at: str(r.rec.timestamp), exitCode: num(a.exitCode) };
    out.set(hookKey(event, command), last);
  }
}

/** the newest recorded run of each hook (event and command) in the newest `maxSessions` transcripts */
export function measuredHooks(fa: FileAccess, transcripts: readonly TranscriptFile[], maxSessions = 5): Map<string, MeasuredHook> {
  return new HookOutputs(fa, maxSessions).read(transcripts);
}

/**
 * The same, followed: each transcript is read from where its last read ended (a running session's
 * transcript grows every few seconds; what was read of it is not read again), only its hook runs kept.
 */
export class HookOutputs {
  private readonly files = new Map<string, { follower: TranscriptFollower; runs: Map<string, MeasuredHook> }>();

  constructor(
    private readonly fa: FileAccess,
    private readonly maxSessions = 5,
  ) {}

  read(transcripts: readonly TranscriptFile[]): Map<string, MeasuredHook> {
    const newest = transcripts.slice(0, this.maxSessions);
    for (const k of this.files.keys()) if (!newest.some((t) => t.file === k)) this.files.delete(k);
    const out = new Map<string, MeasuredHook>();
    // oldest first, so that a newer run replaces an older one
    for (const t of [...newest].reverse()) {
      let e = this.files.get(t.file);
      if (!e) this.files.set(t.file, (e = { follower: new TranscriptFollower(this.fa, t.file, MAX_BYTES), runs: new Map() }));
      if (e.follower.poll() === 'restarted') e.runs.clear();
      runsOf(e.follower.parser.records.splice(0), t.file, e.runs);
      for (const [k, v] of e.runs) out.set(k, v);
    }
    return out;
  }
}
