// "You saved CLAUDE.md while Claude Code is running here": what that running session will see of the
// edit, from the session model's measured rules. A session counts as running when its transcript
// (~/.claude/projects/<key>/<id>.jsonl of the launch directory) was written in the last minutes; the
// transcript says which files it loaded lazily and which skills it invoked. No vscode import.
import * as path from 'node:path';
import { newestSession, parseTranscript, readBounded, transcriptDirs, type SessionReport } from '../../ground-truth/transcript.js';
import type { Analysis } from '../../engine/index.js';
import type { Translate } from '../format.js';

/** a transcript written within this long counts as a running session */
export const RUNNING_WINDOW_MS = 10 * 60 * 1000;
/** read at most this much of the transcript for the notice (its head and tail) */
const NOTICE_MAX_BYTES = 4 * 1024 * 1024;

export interface RunningSession {
  file: string;
  mtimeMs: number;
  report?: SessionReport;
}

export function findRunningSession(cwd: string, userDir: string, now: number, windowMs = RUNNING_WINDOW_MS): RunningSession | undefined {
  const newest = newestSession(transcriptDirs(cwd, userDir));
  if (!newest || now - newest.mtimeMs > windowMs) return undefined;
  const r = readBounded(newest.file, NOTICE_MAX_BYTES);
  return { file: newest.file, mtimeMs: newest.mtimeMs, report: parseTranscript(r.text, { file: newest.file, size: r.size, bytesRead: r.bytesRead, truncated: r.truncated }) };
}

/** a file a notice can be about: a startup file, a SKILL.md, a CLAUDE.md / CLAUDE.local.md, a rule (cheap:
 *  checked before any transcript is read) */
export function mayNotice(saved: string, a: Analysis): boolean {
  const file = path.normalize(saved);
  const name = path.basename(file);
  return (
    a.startup.some((e) => path.normalize(e.path) === file) ||
    name === 'SKILL.md' ||
    a.skills.entries.some((s) => s.path !== undefined && path.normalize(s.path) === file) ||
    name === 'CLAUDE.md' ||
    name === 'CLAUDE.local.md' ||
    (file.includes(`${path.sep}.claude${path.sep}rules${path.sep}`) && name.endsWith('.md'))
  );
}

export type NoticeKind = 'startup' | 'noted' | 'pending' | 'skill-invoked' | 'skill-pending';

export interface SaveNotice {
  kind: NoticeKind;
  message: string;
}

/** what the running session will see of the saved file, or undefined when it is not an instruction file or skill */
export function saveNotice(saved: string, a: Analysis, running: RunningSession, now: number, t: Translate): SaveNotice | undefined {
  const file = path.normalize(saved);
  const name = path.basename(file);
  const minutes = Math.max(1, Math.round((now - running.mtimeMs) / 60_000));
  const loaded = running.report?.instructions.find((i) => path.normalize(i.path) === file);
  // the first words say what the session will see (a notification shows one line until expanded)
  if (a.startup.some((e) => path.normalize(e.path) === file))
    return { kind: 'startup', message: t('The Claude Code session running here keeps the {0} it started with: it sees this edit only after /compact or /clear (transcript written {1} min ago).', name, minutes) };
  // startup files are told apart first: any other record of the file is a lazy load
  if (loaded) return { kind: 'noted', message: t('The Claude Code session running here loaded {0}: at its next turn it gets a "changed on disk" note with the changed lines, once (transcript written {1} min ago).', name, minutes) };
  const skill = a.skills.entries.find((s) => s.path !== undefined && path.normalize(s.path) === file);
  if (skill || name === 'SKILL.md') {
    const skillName = skill?.name ?? path.basename(path.dirname(file));
    const invoked = running.report?.skills.some((s) => s.kind === 'invoked' && s.names.includes(skillName));
    return invoked
      ? { kind: 'skill-invoked', message: t('The Claude Code session running here already used the skill {0}: it keeps the body it was given, also after /compact (transcript written {1} min ago).', skillName, minutes) }
      : { kind: 'skill-pending', message: t('The Claude Code session running here gets this text of the skill {0} the next time it invokes it (transcript written {1} min ago).', skillName, minutes) };
  }
  // what is left of the files a notice can be about: CLAUDE.md, CLAUDE.local.md and rules not loaded yet
  if (mayNotice(saved, a)) return { kind: 'pending', message: t('The Claude Code session running here has not loaded {0} yet: it gets this text when it first touches a file it applies to (transcript written {1} min ago).', name, minutes) };
  return undefined;
}
