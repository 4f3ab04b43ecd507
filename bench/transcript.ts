// The transcript reader's bench (issue 17): a generated transcript of a long session (turns of Reads of
// real-sized files with injected rules, the request records of 2.1.328 and later, compactions now and
// then), read cold by the live-session reader and then followed while records are appended, each as a
// ratio against a raw line count of the same file in the same run. Texts are generated, none of Claude
// Code's.
//   node --import tsx bench/transcript.ts [--mb 200] [--appends 20]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { messageHash } from '../src/engine/transcript/requests.js';
import { LiveReader, nodeFileAccess, PREAMBLE, PROFILES, readLiveSession } from '../src/engine/index.js';

type Msg = { role: string; content: unknown };
const profile = PROFILES[PROFILES.length - 1]!;

/** writes a transcript of about `mb` MB; returns the append function that continues the same session */
export function generateTranscript(file: string, mb: number): { append: () => void; turns: number } {
  const fd = fs.openSync(file, 'w');
  let bytes = 0;
  const w = (o: unknown) => {
    const s = JSON.stringify(o) + '\n';
    fs.writeSync(fd, s);
    bytes += s.length;
  };
  let n = 0;
  let prev: string | undefined;
  let kept: Msg[] = [];
  let turn = 0;
  const startup: Msg = { role: 'user', content: [{ type: 'text', text: `<system-reminder>\n${PREAMBLE}\n\nContents of /w/CLAUDE.md (project instructions, checked into the codebase):\n\n${'generated instructions line\n'.repeat(40)}</system-reminder>` }] };
  const request = (tail: Msg[]) => {
    for (const m of tail) if (m.role !== 'assistant') w({ type: 'api-request-blob', hash: messageHash(m as never), message: m });
    const id = `r${n++}`;
    w({ type: 'api-request', id, shapeHash: 'shape', params: { model: 'claude-opus-5-5' }, ...(prev && { base: prev }), keep: prev ? kept.length : 0, tail: tail.map((m) => messageHash(m as never)), timestamp: new Date(1_700_000_000_000 + n * 1000).toISOString() });
    kept = [...kept, ...tail];
    prev = id;
    return id;
  };
  w({ type: 'api-request-shape', shapeHash: 'shape', shape: { system: [{ type: 'text', text: 'generated system prompt '.repeat(300) }], tools: [{ name: 'Read', description: 'generated tool '.repeat(200) }] } });
  const body = 'export const generated = "a line of a source file of realistic width";\n'.repeat(300); // ≈21 KB a read
  const oneTurn = () => {
    const t = turn++;
    const p: Msg = { role: 'user', content: [{ type: 'text', text: `prompt of turn ${t}` }] };
    w({ type: 'user', uuid: `p${t}`, sessionId: 'BENCH', version: '2.1.333', cwd: '/w', timestamp: new Date(1_700_000_000_000 + n * 1000).toISOString(), message: { role: 'user', content: `prompt of turn ${t}` } });
    if (t % 40 === 0) {
      prev = undefined;
      kept = [];
      request([startup, p]);
    } else request([p]);
    for (let c = 0; c < 4; c++) {
      const id = `toolu_${t}_${c}`;
      const use: Msg = { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: `/w/src/m${t}/f${c}.ts` } }] };
      w({ type: 'assistant', uuid: `a${t}_${c}`, requestRef: prev, message: { ...use, usage: { input_tokens: 10, cache_read_input_tokens: 50_000 + t, cache_creation_input_tokens: 100, output_tokens: 20 } } });
      const result: Msg = { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: body }, ...(c === 0 ? [{ type: 'text', text: `<system-reminder>\nContents of /w/.claude/rules/r${t}.md:\n\ngenerated rule\n\n</system-reminder>` }] : [])] };
      w({ type: 'user', uuid: `t${t}_${c}`, message: { role: 'user', content: (result.content as unknown[]).slice(0, 1) } });
      request([use, result]);
    }
    w({ type: 'assistant', uuid: `e${t}`, requestRef: prev, message: { role: 'assistant', content: [{ type: 'text', text: 'done' }], usage: { input_tokens: 10, cache_read_input_tokens: 60_000, cache_creation_input_tokens: 10, output_tokens: 5 } } });
  };
  while (bytes < mb * 1024 * 1024) oneTurn();
  fs.closeSync(fd);
  return {
    turns: turn,
    append: () => {
      const fd2 = fs.openSync(file, 'a');
      const s = JSON.stringify({ type: 'assistant', uuid: `x${n++}`, requestRef: prev, message: { role: 'assistant', content: [{ type: 'text', text: 'an appended answer' }], usage: { input_tokens: 1, cache_read_input_tokens: 1, cache_creation_input_tokens: 1, output_tokens: 1 } } }) + '\n';
      fs.writeSync(fd2, s);
      fs.closeSync(fd2);
    },
  };
}

/** writes a transcript of one turn holding `calls` tool calls (an autonomous run) in the shape of a
 *  version that records no request (2.1.181: chained records, Reads and Bash calls with their results) */
export function generateLongTurn(file: string, calls: number, resultChars = 220): void {
  const output = 'generated tool output '.repeat(Math.ceil(resultChars / 22)).slice(0, resultChars);
  const fd = fs.openSync(file, 'w');
  let last: string | null = null;
  let n = 0;
  const rec = (o: Record<string, unknown>) => {
    const uuid = `u${n++}`;
    fs.writeSync(fd, JSON.stringify({ parentUuid: last, isSidechain: false, sessionId: 'BENCH', version: '2.1.181', cwd: '/w', timestamp: new Date(1_700_000_000_000 + n * 1000).toISOString(), uuid, ...o }) + '\n');
    last = uuid;
  };
  rec({ type: 'user', message: { role: 'user', content: 'run on your own until the suite passes' } });
  for (let c = 0; c < calls; c++) {
    const id = `toolu_${c}`;
    rec({ type: 'assistant', message: { id: `msg_${c}`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id, name: c % 3 ? 'Read' : 'Bash', input: c % 3 ? { file_path: `/w/src/f${c}.ts` } : { command: `ls /w/d${c}` } }], usage: { input_tokens: 1, cache_read_input_tokens: 1000 + c, cache_creation_input_tokens: 1, output_tokens: 1 } } });
    rec({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: output }] } });
  }
  fs.closeSync(fd);
}

/** the floor: count the lines of the file, reading it in 4 MiB pieces */
function rawLineCount(file: string): number {
  const fd = fs.openSync(file, 'r');
  const buf = Buffer.allocUnsafe(4 * 1024 * 1024);
  let lines = 0;
  for (;;) {
    const k = fs.readSync(fd, buf, 0, buf.length, null);
    if (!k) break;
    for (let i = buf.indexOf(10, 0); i >= 0 && i < k; i = buf.indexOf(10, i + 1)) lines++;
  }
  fs.closeSync(fd);
  return lines;
}

/** a full collection, so that the heap figure is what the reader keeps, not garbage */
function collect(): void {
  v8.setFlagsFromString('--expose_gc');
  (vm.runInNewContext('gc') as () => void)();
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

export interface TranscriptBench {
  mb: number;
  turns: number;
  rawMs: number;
  coldMs: number;
  coldRatio: number;
  heapMiB: number;
  appendP50: number;
  appendMax: number;
  appendRatio: number;
}

export interface LongTurnBench {
  calls: number;
  mb: number;
  rawMs: number;
  coldMs: number;
  ratio: number;
}

/** one turn of `calls` tool calls read cold, against a raw line count of the same file (issue 31: the cost
 *  was calls × records) */
export function benchLongTurn(calls: number): LongTurnBench {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-bench-longturn-'));
  const file = path.join(dir, 'session.jsonl');
  try {
    generateLongTurn(file, calls);
    rawLineCount(file);
    let t0 = process.hrtime.bigint();
    rawLineCount(file);
    const rawMs = ms(t0);
    t0 = process.hrtime.bigint();
    const s = readLiveSession(nodeFileAccess, file, profile);
    const coldMs = ms(t0);
    if (s.turns.length !== 1 || s.turns[0]!.calls.length !== calls) throw new Error(`read ${s.turns.length} turns, ${s.turns[0]?.calls.length ?? 0} calls of ${calls}`);
    return { calls, mb: fs.statSync(file).size / 1024 / 1024, rawMs, coldMs, ratio: coldMs / rawMs };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function benchTranscript(mb: number, appends: number): TranscriptBench {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-bench-transcript-'));
  const file = path.join(dir, 'session.jsonl');
  try {
    const g = generateTranscript(file, mb);
    const size = fs.statSync(file).size;
    rawLineCount(file); // warm the page cache for both
    let t0 = process.hrtime.bigint();
    rawLineCount(file);
    const rawMs = ms(t0);
    collect();
    const heap0 = process.memoryUsage().heapUsed;
    const follower = new LiveReader(nodeFileAccess, file);
    t0 = process.hrtime.bigint();
    const s = readLiveSession(nodeFileAccess, file, profile, follower);
    const coldMs = ms(t0);
    if (s.turns.length !== g.turns) throw new Error(`read ${s.turns.length} turns of ${g.turns}`);
    collect();
    const heapMiB = (process.memoryUsage().heapUsed - heap0) / 1024 / 1024;
    const times: number[] = [];
    for (let i = 0; i < appends; i++) {
      g.append();
      t0 = process.hrtime.bigint();
      readLiveSession(nodeFileAccess, file, profile, follower);
      times.push(ms(t0));
    }
    times.sort((a, b) => a - b);
    const appendP50 = times[Math.floor(times.length / 2)] ?? 0;
    return { mb: size / 1024 / 1024, turns: g.turns, rawMs, coldMs, coldRatio: coldMs / rawMs, heapMiB, appendP50, appendMax: times[times.length - 1] ?? 0, appendRatio: appendP50 / rawMs };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && /bench[/\\]transcript\.ts$/.test(process.argv[1])) {
  const arg = (k: string, d: number) => {
    const i = process.argv.indexOf(`--${k}`);
    return i > 0 ? Number(process.argv[i + 1]) : d;
  };
  const l = benchLongTurn(arg('calls', 100_000));
  console.log(`transcript reader, one turn of ${l.calls} calls (${l.mb.toFixed(0)} MB): raw line count ${l.rawMs.toFixed(0)} ms; cold open ${l.coldMs.toFixed(0)} ms (${l.ratio.toFixed(1)}× the line count)`);
  const r = benchTranscript(arg('mb', 200), arg('appends', 20));
  console.log(
    `transcript reader, ${r.mb.toFixed(0)} MB, ${r.turns} turns: raw line count ${r.rawMs.toFixed(0)} ms; cold open ${r.coldMs.toFixed(0)} ms (${r.coldRatio.toFixed(1)}× the line count), heap +${r.heapMiB.toFixed(0)} MiB; an appended record ${r.appendP50.toFixed(1)} ms p50, ${r.appendMax.toFixed(1)} ms max`,
  );
}
