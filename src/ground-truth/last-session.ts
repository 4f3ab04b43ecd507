// "Last session": what the user's most recent Claude Code session really loaded (its transcript),
// beside what the engine predicts for the same launch directory now, replaying the session's tool
// calls through a fresh engine session (Read, Edit, Write with a file path; the profile decides
// which of them trigger lazy loading).
import * as path from 'node:path';
import { analyze, type Analysis, type EngineOptions, type TouchTool } from '../engine/index.js';
import { resolveEnvironment } from '../engine/index.js';
import { lastSession, type LoadedInstruction, type SessionReport, type ToolCall } from './transcript.js';

export interface StartupRow {
  path: string;
  type: string;
  /** null: the transcript does not record startup files */
  inSession: boolean | null;
  predicted: boolean;
  /** the content loaded then differs from what the engine reads now */
  changedSince?: boolean;
}

export interface CallRow {
  call: ToolCall;
  /** files the session loaded after this call */
  actual: string[];
  /** files the engine predicts for this call, in this session; null when the call is not replayed */
  predicted: string[] | null;
  /** why a call is not replayed */
  note?: string;
  agree: boolean | null;
}

export interface LastSessionReport {
  cwd: string;
  searched: string[];
  session?: SessionReport;
  /** the engine's profile for the session's version */
  profile?: { version: string; note?: string };
  startup: StartupRow[];
  calls: CallRow[];
  /** loads the transcript attributes to no tool call (a later prompt, a broken chain) */
  otherLoads: LoadedInstruction[];
  /** every startup and lazy load agrees with the prediction (null when nothing can be compared) */
  agrees: boolean | null;
}

const REPLAYED: readonly string[] = ['Read', 'Edit', 'Write'];

export function lastSessionReport(opts: { cwd: string; engine: Omit<EngineOptions, 'cwd' | 'claudeVersion'>; maxBytes?: number; analysis?: (o: EngineOptions) => Analysis }): LastSessionReport {
  const cwd = path.resolve(opts.cwd);
  const env = resolveEnvironment({ ...opts.engine, cwd });
  const found = lastSession({ cwd, userDir: env.userDir, maxBytes: opts.maxBytes });
  const out: LastSessionReport = { cwd, searched: found.searched, startup: [], calls: [], otherLoads: [], agrees: null };
  const s = found.session;
  if (!s) return out;
  out.session = s;
  const a = (opts.analysis ?? analyze)({ ...opts.engine, cwd, claudeVersion: s.version });
  out.profile = { version: a.profile.version, note: a.diagnostics.find((d) => d.rule === 'unknown-version')?.message };
  const norm = (p: string) => path.normalize(p);

  // startup: recorded files vs predicted entries
  const recorded = s.instructions.filter((i) => i.when.kind === 'startup' && !i.sidechain);
  const predicted = a.startup;
  const seen = new Set<string>();
  for (const e of predicted) {
    const r = recorded.find((x) => norm(x.path) === norm(e.path));
    seen.add(norm(e.path));
    out.startup.push({
      path: e.path,
      type: e.type,
      inSession: s.startupRecorded ? !!r : null,
      predicted: true,
      ...(r && { changedSince: r.content.trim() !== e.content.trim() }),
    });
  }
  for (const r of recorded) if (!seen.has(norm(r.path))) out.startup.push({ path: r.path, type: r.type, inSession: true, predicted: false });

  // lazy: replay the calls in order
  const session = a.session();
  const lazy = s.instructions.filter((i) => i.when.kind !== 'startup' && !i.sidechain);
  const byCall = new Map<string, string[]>();
  for (const l of lazy) {
    if (l.when.kind !== 'tool') {
      out.otherLoads.push(l);
      continue;
    }
    const list = byCall.get(l.when.call.id) ?? [];
    list.push(l.path);
    byCall.set(l.when.call.id, list);
  }
  for (const call of s.toolCalls) {
    if (call.sidechain) continue;
    const actual = byCall.get(call.id) ?? [];
    let predictedPaths: string[] | null = [];
    let note: string | undefined;
    if (REPLAYED.includes(call.name)) {
      if (call.path && path.isAbsolute(call.path)) predictedPaths = session.touch(call.name as TouchTool, call.path).map((i) => i.path);
      else {
        predictedPaths = null;
        note = 'no absolute file path in the call';
      }
    } else if (call.name === 'Bash') {
      predictedPaths = null;
      note = 'Bash: the files a command touches are not known';
    }
    const agree = predictedPaths === null ? null : sameSet(actual, predictedPaths);
    if (actual.length === 0 && predictedPaths !== null && predictedPaths.length === 0) continue; // nothing either way: not worth a row
    out.calls.push({ call, actual, predicted: predictedPaths, note, agree });
  }
  const verdicts = [...out.startup.map((r) => (r.inSession === null ? null : r.inSession === r.predicted)), ...out.calls.map((c) => c.agree)].filter((x): x is boolean => x !== null);
  out.agrees = verdicts.length ? verdicts.every(Boolean) : null;
  return out;
}

function sameSet(a: string[], b: string[]): boolean {
  const x = [...new Set(a.map((p) => path.normalize(p)))].sort();
  const y = [...new Set(b.map((p) => path.normalize(p)))].sort();
  return JSON.stringify(x) === JSON.stringify(y);
}
