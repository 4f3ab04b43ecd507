// The live-session read-back (issue 17): after a scenario's real session ends, its transcript (left by
// Claude Code in the scenario's HOME) is read by `claude-layers session --json`, and every judged key
// of every turn must equal what the requests carried (the extraction of the recorded requests), the
// same comparison as the engine's prediction gets. Two exceptions, both said in the output itself:
// a version that records no request (2.1.235) has no startup block in its transcript (it is rebuilt
// from the disk, `instructionsFrom: "disk"`), so that key and a subagent's block are not judged there;
// `/clear` starts a new transcript, so a session with one is judged from its last `/clear` on.
// `--check` must find no difference that no change on disk explains.
import { execFileSync } from 'node:child_process';
import type { SessionJson } from '../../../src/cli/session-command.js';
import { ENGINE_CLI } from '../capture.js';
import type { SessionOutcome } from './run.js';

export interface LiveOutcome {
  json: SessionJson | null;
  errors: string[];
  stderr: string;
  checkExit: number | null;
}

function runCli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(process.execPath, [ENGINE_CLI, ...args], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { code: 0, stdout, stderr: '' };
  } catch (e) {
    const err = e as { status?: number; stdout?: string; stderr?: string };
    return { code: err.status ?? null, stdout: err.stdout ?? '', stderr: err.stderr ?? String(e) };
  }
}

/** reads the scenario's transcript back and compares it with what the requests carried */
export function liveReadBack(o: SessionOutcome, cwd: string, home: string, compare: (o: SessionOutcome) => string[]): LiveOutcome {
  const base = ['session', '--cwd', cwd, '--home', home];
  const r = runCli([...base, '--json']);
  if (r.code !== 0) return { json: null, errors: [`claude-layers session --json failed (exit ${r.code}): ${r.stderr.slice(0, 1500)}`], stderr: r.stderr, checkExit: null };
  const json = JSON.parse(r.stdout) as SessionJson;
  const s = json.session;
  const errors: string[] = [];
  // from the last /clear on: a new transcript
  let from = 0;
  o.turns.forEach((t, i) => {
    if (t.prompt.trim() === '/clear') from = i + 1;
  });
  const want = o.extracted.slice(from);
  const wantTurns = o.turns.slice(from);
  const got = s.turns.filter((t) => t.prompt.trim() !== '/clear');
  if (got.length !== want.length) errors.push(`live: ${got.length} turns read back, ${want.length} in the session (${JSON.stringify(got.map((t) => t.prompt.slice(0, 20)))})`);
  const noRequests = s.source === 'attachments';
  const judged = want.map((w) => (noRequests ? { ...w, instructions: null, calls: w.calls.map((c) => ({ ...c, agent: c.agent && { ...c.agent, instructions: null } })) } : w));
  const mine = got.map((t) => (noRequests ? { ...t, instructions: null, calls: t.calls.map((c) => ({ ...c, agent: c.agent && { ...c.agent, instructions: null } })) } : t));
  if (noRequests) for (const t of got) if (t.instructions !== null && t.instructionsFrom !== 'disk') errors.push(`live: a startup block on a version that records none, not marked as rebuilt from the disk`);
  errors.push(
    ...compare({ ...o, turns: wantTurns, extracted: judged, engine: { code: 0, stdout: '', stderr: '', json: { session: { turns: mine } } as unknown as SessionOutcome['engine']['json'] } }).map((e) => `live: ${e}`),
  );
  for (const w of s.warnings) if (/could not be rebuilt/.test(w)) errors.push(`live: ${w}`);
  if (s.problems.length) errors.push(`live: transcript problems: ${JSON.stringify(s.problems.slice(0, 5))}`);
  const c = runCli([...base, '--check']);
  if (c.code !== 0) errors.push(`live: --check exit ${c.code}: ${c.stdout.split('Prediction')[1]?.slice(0, 1500) ?? c.stderr.slice(0, 800)}`);
  return { json, errors, stderr: r.stderr, checkExit: c.code };
}
