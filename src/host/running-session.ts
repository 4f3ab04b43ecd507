// "You saved CLAUDE.md while Claude Code is running here": what that running session will see of the
// edit, from the session model's measured rules. A session counts as running when its transcript
// (~/.claude/projects/<key>/<id>.jsonl of the launch directory) was written in the last minutes; the
// transcript says which files it loaded lazily and which skills it invoked. No vscode import.
import * as path from 'node:path';
import { lastSession, newestSession, transcriptDirs, type SessionReport } from '../ground-truth/transcript.js';
import type { Analysis } from '../engine/index.js';
import type { Translate } from './format.js';

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
  const r = lastSession({ cwd, userDir, maxBytes: NOTICE_MAX_BYTES });
  return { file: newest.file, mtimeMs: newest.mtimeMs, report: r.session };
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
  const head = t('A Claude Code session is running in this workspace (its transcript was written {0} min ago).', minutes);
  // startup files are told apart first: any other record of the file is a lazy load
  const loaded = running.report?.instructions.find((i) => path.normalize(i.path) === file);
  if (a.startup.some((e) => path.normalize(e.path) === file))
    return { kind: 'startup', message: `${head} ${t('It keeps the text of {0} it started with: it sees this edit only after /compact or /clear.', name)}` };
  if (loaded) return { kind: 'noted', message: `${head} ${t('It loaded {0} earlier: at the start of its next turn it gets a "changed on disk" note with the changed lines (once: a later edit is not noted again).', name)}` };
  const skill = a.skills.entries.find((s) => s.path !== undefined && path.normalize(s.path) === file);
  if (skill || name === 'SKILL.md') {
    const skillName = skill?.name ?? path.basename(path.dirname(file));
    const invoked = running.report?.skills.some((s) => s.kind === 'invoked' && s.names.includes(skillName));
    return invoked
      ? { kind: 'skill-invoked', message: `${head} ${t('It already used the skill {0}: it keeps the body it was given (a /compact brings that body back, not this one).', skillName)}` }
      : { kind: 'skill-pending', message: `${head} ${t('It gets this text of the skill {0} the next time it invokes it.', skillName)}` };
  }
  const isInstruction = name === 'CLAUDE.md' || name === 'CLAUDE.local.md' || (file.includes(`${path.sep}.claude${path.sep}rules${path.sep}`) && name.endsWith('.md'));
  if (isInstruction) return { kind: 'pending', message: `${head} ${t('It has not loaded {0} yet: it gets this text when it first touches a file it applies to.', name)}` };
  return undefined;
}
