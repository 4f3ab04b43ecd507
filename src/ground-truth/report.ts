// Plain-text renderings shared by the CLI and the extension: the plan shown before a run, the verify
// result, the two sides of the diff view, and the last-session report.
import type { LastSessionReport } from './last-session.js';
import { describeTime, type LoadTime } from './transcript.js';
import type { Plan, VerifyResult } from './verify.js';

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_\/.,:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function renderPlan(p: Plan): string {
  const lines = [
    `claude:     ${p.claudePath} (${p.version ? `version ${p.version}` : `version unknown: ${p.versionError ?? p.versionOutput}`})`,
    `profile:    ${p.profile.version}${p.profile.forced ? ' (forced)' : p.profile.exact ? '' : ` — ${p.profile.note ?? 'no exact profile'}`}`,
    `launch dir: ${p.cwd}`,
    `file:       ${p.file ?? '(none: startup only)'}`,
    '',
    'It runs, once, with a dummy API key against a stand-in on 127.0.0.1 (nothing leaves this machine):',
    `  ${p.command.map(shellQuote).join(' ')}`,
    `  environment: PATH, HOME, locale and CLAUDE_* switches kept; ${p.removedVariables.length ? `removed: ${p.removedVariables.join(', ')}` : 'nothing else to remove'}`,
    '',
    'It touches:',
    ...p.touches.map((t) => `  - ${t}`),
  ];
  if (p.blockers.length) lines.push('', 'It will NOT run:', ...p.blockers.map((b) => `  - ${b}`));
  return lines.join('\n') + '\n';
}

export function renderVerify(r: VerifyResult): string {
  const out: string[] = [];
  const head = r.verdict === 'match' ? 'MATCH' : r.verdict === 'mismatch' ? 'MISMATCH' : 'COULD NOT VERIFY';
  out.push(`${head}: ${r.summary}`);
  const p = r.plan;
  out.push(`claude ${p.version ?? '?'} at ${p.claudePath}; predicted with profile ${p.profile.version}${p.profile.exact ? '' : ` (${p.profile.note ?? 'not an exact profile'})`}`);
  if (!p.profile.exact && r.verdict !== 'error')
    out.push(`the ${p.profile.version} profile ${r.verdict === 'match' ? 'matched' : 'did not match'} claude ${p.version ?? '?'}`);
  for (const s of r.sections) {
    out.push('', `== ${s.title}: ${s.status === 'equal' ? 'equal' : 'DIFFERS'}`);
    if (s.id === 'startup') out.push(`   predicted ${s.predicted === null ? 'no startup block' : `${s.predicted.length} chars`}; claude ${s.actual === null ? 'no startup block' : `${s.actual.length} chars`}`);
    else out.push(`   predicted ${s.predictedEntries?.length ?? 0} entries; claude ${s.actualEntries?.length ?? 0}`);
    for (const n of s.notes) out.push(`   note: ${n}`);
    if (s.diff) out.push(s.diff);
  }
  for (const w of r.warnings) out.push(`warning: ${w}`);
  if (r.run) {
    out.push('', `run: ${(r.run.durationMs / 1000).toFixed(1)} s, exit ${r.run.exitCode ?? r.run.signal}, ${r.run.requests} requests to the stand-in${r.run.otherHosts.length ? `, refused: ${r.run.otherHosts.join(', ')}` : ', no other host contacted'}`);
    if (r.verdict === 'error' && r.run.stderrTail.trim()) out.push(`claude stderr: ${r.run.stderrTail.trim()}`);
  }
  const e = r.sideEffects;
  if (e) {
    out.push('touched:');
    out.push(`  - transcript: ${e.transcriptsDeleted.length ? `${e.transcriptsDeleted.join(', ')} deleted` : 'none written'}${e.transcriptsLeft.length ? `; NOT deleted: ${e.transcriptsLeft.join(', ')}` : ''}`);
    const m = e.memoryDir;
    out.push(`  - memory folder ${m.path}: ${m.existedBefore ? 'existed already' : m.removed ? 'created by claude, removed again (empty)' : m.existsAfter ? 'created by claude (left in place)' : 'not created'}`);
    const c = e.claudeJson;
    out.push(`  - ${c.path}: ${c.created ? 'created' : c.changedKeys.length ? `updated (${c.changedKeys.join(', ')}${c.changedProjects.length ? `; projects: ${c.changedProjects.join(', ')}` : ''})` : 'unchanged'}`);
    if (e.created.length) out.push(`  - created: ${e.created.slice(0, 20).join(', ')}${e.created.length > 20 ? ` … (${e.created.length})` : ''}`);
    if (e.modified.length) out.push(`  - modified: ${e.modified.slice(0, 20).join(', ')}${e.modified.length > 20 ? ` … (${e.modified.length})` : ''}`);
    if (e.partial) out.push('  - (the config folder is large: the listing of other files is partial)');
  }
  return out.join('\n') + '\n';
}

/** one side of the diff view: every section, predicted or actual, under a heading */
export function sideDocument(r: VerifyResult, side: 'predicted' | 'actual'): string {
  const parts: string[] = [];
  for (const s of r.sections) {
    const text = side === 'predicted' ? s.predicted : s.actual;
    parts.push(`══════ ${s.title} ══════\n${text === null ? '(nothing)' : text}`);
  }
  if (!parts.length) parts.push(r.summary);
  return parts.join('\n\n') + '\n';
}

function when(t: LoadTime): string {
  return describeTime(t);
}

export function renderLastSession(r: LastSessionReport): string {
  const out: string[] = [];
  const s = r.session;
  if (!s) {
    out.push(`No Claude Code session found for ${r.cwd}.`, `Looked in: ${r.searched.join(', ')}`);
    return out.join('\n') + '\n';
  }
  out.push(`Last session ${s.sessionId ?? '?'} (Claude Code ${s.version ?? '?'}), ${s.startedAt ?? '?'} → ${s.endedAt ?? '?'}`);
  out.push(`transcript: ${s.file} (${s.records} records${s.partialLines ? `, ${s.partialLines} partial lines skipped` : ''})`);
  if (r.profile) out.push(`beside the engine's prediction (profile ${r.profile.version}${r.profile.note ? `: ${r.profile.note}` : ''}), made from the files as they are now`);
  out.push('', 'Startup instruction files:');
  if (!s.startupRecorded) out.push('  (this transcript does not record them; the prediction is shown alone)');
  for (const row of r.startup) {
    const mark = row.inSession === null ? '?' : row.inSession && row.predicted ? '=' : row.inSession ? '+' : '-';
    const tag = row.inSession === null ? 'predicted' : row.inSession && row.predicted ? 'loaded, predicted' : row.inSession ? 'loaded, NOT predicted' : 'predicted, NOT loaded';
    out.push(`  ${mark} ${row.type.padEnd(8)} ${row.path}  [${tag}${row.changedSince ? '; content changed since' : ''}]`);
  }
  out.push('', 'Loaded later:');
  if (!r.calls.length && !r.otherLoads.length) out.push('  (nothing)');
  for (const c of r.calls) {
    const verdict = c.agree === null ? `not compared: ${c.note ?? ''}` : c.agree ? 'as predicted' : 'DIFFERS from the prediction';
    out.push(`  after tool call #${c.call.index + 1} ${c.call.summary}  [${verdict}]`);
    for (const p of c.actual) out.push(`      loaded     ${p}${c.predicted && !c.predicted.includes(p) ? '  (not predicted)' : ''}`);
    for (const p of c.predicted ?? []) if (!c.actual.includes(p)) out.push(`      predicted  ${p}  (not loaded)`);
  }
  for (const l of r.otherLoads) out.push(`  ${when(l.when)}: ${l.path}`);
  out.push('', 'Skills:');
  if (!s.skills.length) out.push('  (none recorded)');
  for (const k of s.skills) {
    if (k.kind === 'listed') out.push(`  listed ${k.when.kind === 'startup' ? 'at startup' : when(k.when)}: ${k.names.join(', ')}`);
    else if (k.kind === 'discovered') out.push(`  discovered ${when(k.when)}: ${k.names.join(', ')} in ${k.path ?? '?'}`);
    else out.push(`  invoked by the ${k.by === 'user' ? 'user' : 'model'}${k.when.kind === 'tool' ? ` (tool call #${k.when.call.index + 1})` : ` (${when(k.when)})`}: ${k.names.join(', ')}${k.path ? ` from ${k.path}` : ''}`);
  }
  if (r.agrees !== null) out.push('', r.agrees ? 'Everything the transcript records agrees with the prediction.' : 'The transcript and the prediction differ (see above).');
  for (const w of s.warnings) out.push(`note: ${w}`);
  const other = Object.entries(s.otherTypes);
  if (other.length) out.push(`note: record types not interpreted: ${other.map(([k, n]) => `${k} ×${n}`).join(', ')}`);
  return out.join('\n') + '\n';
}
