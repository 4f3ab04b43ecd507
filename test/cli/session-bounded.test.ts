// `session FILE --json` on a transcript of 2,000,000 tiny records, as a process under a V8 heap limit (issue 31,
// "Bounded"): the reader keeps what the output needs of each record (counts, sums, the calls), not the records. Before
// it kept every record of a turn (a few hundred bytes each, whatever the record's size) and ran out of this heap.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { assertNoStack, CLI, ensureBuilt, TEST_CACHE_HOME } from './helpers.js';

const TURNS = 2_000;
/** records per turn: the prompt, then answers of distinct message ids (one request each, with its usage) */
const PER_TURN = 1_000;
/** the old-generation heap the process gets: the old reader needed several times this for these records */
const HEAP_MIB = 256;

let tmp: string;
let file: string;

/** about 150 MB of records of 60 to 80 bytes, written in large pieces (a few seconds) */
function writeTranscript(to: string): void {
  const fd = fs.openSync(to, 'w');
  try {
    let piece: string[] = [];
    for (let t = 0; t < TURNS; t++) {
      piece.push(`{"type":"user","message":{"role":"user","content":"prompt ${t}"}}\n`);
      for (let a = 1; a < PER_TURN; a++) piece.push(`{"type":"assistant","message":{"id":"m${t}_${a}","usage":{"output_tokens":1}}}\n`);
      if (piece.length >= 100_000) {
        fs.writeSync(fd, piece.join(''));
        piece = [];
      }
    }
    fs.writeSync(fd, piece.join(''));
  } finally {
    fs.closeSync(fd);
  }
}

before(() => {
  ensureBuilt();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-bounded-'));
  fs.mkdirSync(path.join(tmp, 'home'));
  fs.mkdirSync(path.join(tmp, 'cwd'));
  file = path.join(tmp, 'tiny.jsonl');
  writeTranscript(file);
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test(`session --json: ${TURNS * PER_TURN} tiny records answer under a ${HEAP_MIB} MiB heap`, { timeout: 180_000 }, () => {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: path.join(tmp, 'home'), XDG_CACHE_HOME: TEST_CACHE_HOME };
  const r = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MIB}`, CLI, 'session', '--transcript', file, '--cwd', path.join(tmp, 'cwd'), '--home', path.join(tmp, 'home'), '--json'], { encoding: 'utf8', env, timeout: 170_000, maxBuffer: 64 * 1024 * 1024 });
  assert.equal(r.error, undefined);
  assert.equal(r.signal, null, 'not killed');
  assertNoStack({ code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr });
  assert.equal(r.status, 0, `exit 0, got ${r.status}: ${r.stderr.slice(0, 500)}`);
  const s = (JSON.parse(r.stdout) as { session: { turns: { prompt: string; requests: number; usage: { output: number } }[]; problems: unknown[] } }).session;
  assert.equal(s.turns.length, TURNS, 'every turn');
  assert.deepEqual(s.problems, []);
  assert.equal(s.turns[0]!.prompt, 'prompt 0');
  assert.equal(s.turns[TURNS - 1]!.prompt, `prompt ${TURNS - 1}`);
  assert.ok(s.turns.every((t) => t.requests === PER_TURN - 1 && t.usage.output === PER_TURN - 1), 'each answer one request, with its usage');
});
