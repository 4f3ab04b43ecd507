// The live-session read-back (issue 17): after a scenario's real session ends, its transcript (left by
// Claude Code in the scenario's HOME) is read by `claude-layers session --json`, and every judged key
// of every turn must equal what the requests carried (the extraction of the recorded requests), the
// same comparison as the engine's prediction gets. Two exceptions, both said in the output itself:
// a version that records no request (2.1.235) has no startup block in its transcript (it is rebuilt
// from the disk, `instructionsFrom: "disk"`), so that key and a subagent's block are not judged there;
// `/clear` starts a new transcript, so a session with one is judged from its last `/clear` on.
// A slash command that sent no request (a local command) is expected as a mark, not a turn.
// `--check` must find no difference that no change on disk explains. And the requests a compaction
// sent (which no transcript records) must be what the reader's rule says they carry (compactionRequest).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { SessionJson } from '../../../src/cli/session-command.js';
import { parseTranscriptText, SessionReplayer } from '../../../src/engine/index.js';
import { shrink } from '../../../src/engine/transcript/requests.js';
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

type Msg = { role: string; content: string | Record<string, unknown>[] };

/**
 * A request's messages as compared, free of the layout of the reminders that follow a tool result: some
 * models get them appended to the tool result's text ("\n\n<system-reminder>…", its own trailing
 * whitespace cut), others as text blocks and system messages after it, while the transcript keeps them
 * as records. So: content as blocks, no cache breakpoints, long tool results as the reader keeps them,
 * each reminder its own text (without a trailing newline), system messages folded into the message before.
 */
function canonical(ms: Msg[]): string[] {
  const out: { role: string; items: unknown[] }[] = [];
  for (const m of ms) {
    const blocks = (shrink({ role: m.role, content: typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content }).content as Record<string, unknown>[]);
    const items: unknown[] = [];
    for (const b of blocks) {
      if (b.type === 'tool_result' && typeof b.content === 'string') {
        const [result, ...reminders] = b.content.split(/\n\n(?=<system-reminder>\n)/);
        items.push({ ...b, cache_control: undefined, content: result!.trimEnd() });
        for (const r of reminders) items.push({ type: 'text', text: r.trimEnd() });
      } else if (b.type === 'text' && typeof b.text === 'string') items.push({ type: 'text', text: b.text.trimEnd() });
      else items.push({ ...b, cache_control: undefined });
    }
    const last = out[out.length - 1];
    if (m.role === 'system' && last) last.items.push(...items);
    else out.push({ role: m.role, items });
  }
  return out.map((m) => JSON.stringify(m, (k, v: unknown) => (k === 'cache_control' ? undefined : v)));
}

/** every compaction request the session sent, against what the reader's rule rebuilds from the transcript */
export function compactionCheck(o: SessionOutcome, transcript: string, from: number): string[] {
  const sent = o.claude.requests
    .filter((r) => r.kind === 'compact' && r.turn >= from)
    .map((r) => {
      const ms = (JSON.parse(r.body) as { messages?: Msg[] }).messages ?? [];
      // without the compaction's own instruction, Claude Code's text: the last block of the last message
      const last = ms[ms.length - 1];
      if (!last || typeof last.content === 'string' || last.content.length <= 1) return { turn: r.turn, messages: ms.slice(0, -1) };
      return { turn: r.turn, messages: [...ms.slice(0, -1), { ...last, content: last.content.slice(0, -1) }] };
    });
  const rp = new SessionReplayer();
  rp.add(parseTranscriptText(fs.readFileSync(transcript, 'utf8')).records);
  const rebuilt = rp.compactionRequests().filter((c) => c.body);
  if (!rp.compactionRequests().length && !sent.length) return [];
  // (a version that records no request, 2.1.235, has none to rebuild from: liveReadBack does not call this for it)
  const errs: string[] = [];
  if (rebuilt.length !== sent.length) errs.push(`live: ${sent.length} compaction request(s) sent, ${rebuilt.length} rebuilt from the transcript (${rp.compactionRequests().length - rebuilt.length} without a body)`);
  sent.forEach((s, i) => {
    const r = rebuilt[i]?.body?.messages;
    if (!r) return;
    const a = canonical(s.messages);
    const b = canonical(r);
    const at = a.findIndex((x, k) => x !== b[k]);
    if (a.length === b.length && at < 0) return;
    const k = at < 0 ? Math.min(a.length, b.length) : at;
    errs.push(`live: compaction request ${i + 1} (turn ${s.turn + 1}): ${a.length} messages sent, ${b.length} rebuilt; first difference at message ${k + 1}: sent ${(a[k] ?? 'none').slice(0, 400)} rebuilt ${(b[k] ?? 'none').slice(0, 400)}`);
  });
  return errs;
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
  // a slash command that sent no request (a local one: /cost, /status, …) is a mark inside the turn before it, never a turn
  const local = (i: number) => o.turns[i]!.prompt.trim().startsWith('/') && o.turns[i]!.prompt.trim() !== '/clear' && !o.claude.requests.some((r) => r.turn === i && r.kind !== 'other');
  const kept = o.turns.map((_, i) => i).filter((i) => i >= from && !local(i));
  const want = kept.map((i) => o.extracted[i]!);
  const wantTurns = kept.map((i) => o.turns[i]!);
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
  if (!noRequests) errors.push(...compactionCheck(o, s.transcript, from));
  const c = runCli([...base, '--check']);
  if (c.code !== 0) errors.push(`live: --check exit ${c.code}: ${c.stdout.split('Prediction')[1]?.slice(0, 1500) ?? c.stderr.slice(0, 800)}`);
  return { json, errors, stderr: r.stderr, checkExit: c.code };
}
