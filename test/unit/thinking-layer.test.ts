// The derived breakdown's thinking layer (attachment-layers.ts, versions that record no request): an answer's thinking
// is in no record's characters, yet in the context of the requests after it: within its turn for every model, across
// turns for the models that keep it (profiles.ts, THINKING_KEPT_ACROSS_TURNS; read from real transcripts of
// claude-opus-4-5 to claude-fable-5 and claude-sonnet-4-5, docs/session.md). Transcripts written here, our own content,
// in the shapes of 2.1.231 (thinking recorded empty beside its signature) and 2.1.45 (its text recorded).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LiveReader, nodeFileAccess, PROFILES } from '../../src/engine/index.js';
import { thinkingKeptAcrossTurns } from '../../src/engine/skills/models.js';

const profile = PROFILES[0]!;

interface Answer {
  thinking: string;
  text: string;
  call?: { id: string; input: Record<string, unknown> };
  output: number;
}

/** a session of turns, each a prompt, answers (a call's result after each call) and the context each request carried */
function transcript(version: string, model: string, turns: { prompt: string; answers: (Answer & { context: number })[] }[]): string {
  const lines: string[] = [];
  let n = 0;
  let parent: string | null = null;
  const rec = (o: Record<string, unknown>) => {
    const uuid = `u-${++n}`;
    lines.push(JSON.stringify({ parentUuid: parent, isSidechain: false, type: 'user', sessionId: 'think-0001', version, cwd: '/w', uuid, timestamp: `2026-07-01T10:${String(Math.floor(n / 60)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}.000Z`, ...o }));
    parent = uuid;
  };
  let req = 0;
  for (const t of turns) {
    rec({ message: { role: 'user', content: t.prompt } });
    for (const a of t.answers) {
      const id = `msg_${++req}`;
      const content = [{ type: 'thinking', thinking: a.thinking, signature: 'sig' }, { type: 'text', text: a.text }, ...(a.call ? [{ type: 'tool_use', id: a.call.id, name: 'Read', input: a.call.input }] : [])];
      rec({ type: 'assistant', message: { id, role: 'assistant', model, content, usage: { input_tokens: 10, cache_read_input_tokens: a.context - 10, cache_creation_input_tokens: 0, output_tokens: a.output } } });
      if (a.call) rec({ message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: a.call.id, content: 'x'.repeat(900) }] } });
    }
  }
  return lines.join('\n') + '\n';
}

function breakdownOf(text: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-think-'));
  try {
    const file = path.join(dir, 's.jsonl');
    fs.writeFileSync(file, text);
    const s = new LiveReader(nodeFileAccess, file).read(profile);
    return s.figures.breakdown!;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const answerChars = (a: Answer) => a.text.length + (a.call ? JSON.stringify(a.call.input).length : 0);

// two turns of three answers each (two calls, then the text), the context growing by each answer's whole output
function turnsOf(thinking: (k: number) => string) {
  let context = 20_000;
  return [0, 1].map((t) => ({
    prompt: t ? 'now the writer' : 'read the parser',
    answers: [0, 1, 2].map((k) => {
      const a: Answer & { context: number } = { thinking: thinking(k), text: `step ${t}.${k}`, ...(k < 2 && { call: { id: `toolu_${t}${k}`, input: { file_path: `/w/src/f${t}${k}.ts` } } }), output: 1_500 + 100 * k, context };
      context += a.output + 300;
      return a;
    }),
  }));
}

test('which models keep their thinking across turns', () => {
  for (const m of ['claude-opus-4-5-20251101', 'claude-opus-4-6', 'claude-opus-4-7', 'claude-sonnet-4-6', 'claude-opus-5[1m]', 'claude-opus-5-5', 'claude-fable-5-2', 'us.anthropic.claude-opus-4-6-v1:0']) assert.ok(thinkingKeptAcrossTurns(m), m);
  for (const m of ['claude-sonnet-4-5-20250929', 'claude-haiku-4-5-20251001', 'claude-opus-4-1', 'claude-sonnet-4-20250514', 'MiniMax-M2.7', undefined]) assert.ok(!thinkingKeptAcrossTurns(m), String(m));
});

test('thinking recorded without its text: the answers before the last request, by output less text and calls at the ratio; across turns only where the model keeps it', () => {
  const turns = turnsOf(() => '');
  const answers = turns.flatMap((t) => t.answers);
  const expected = (kept: boolean, r: number) => {
    let sum = 0;
    answers.forEach((a, i) => {
      if (i === answers.length - 1) return; // the last request's own answer comes after its context
      if (!kept && i < 3) return; // the first turn's: dropped at the prompt
      sum += Math.max(0, a.output - answerChars(a) * r);
    });
    return Math.round(sum);
  };
  for (const [model, kept] of [['claude-opus-4-7', true], ['claude-sonnet-4-5-20250929', false]] as const) {
    const bd = breakdownOf(transcript('2.1.231', model, turns));
    const layer = bd.layers.find((l) => l.layer === 'thinking');
    assert.ok(layer, model);
    assert.equal(layer.chars, null, 'its text was not recorded');
    assert.equal(layer.tokens, expected(kept, bd.tokensPerChar.value), model);
    assert.equal(layer.derived, true);
  }
});

test('thinking recorded with its text: its characters at the ratio, and in the ratio itself (the next request grew by it)', () => {
  const turns = turnsOf((k) => `weighing option ${k} `.repeat(60));
  const answers = turns.flatMap((t) => t.answers);
  const bd = breakdownOf(transcript('2.1.45', 'claude-opus-4-5-20251101', turns));
  const layer = bd.layers.find((l) => l.layer === 'thinking');
  const chars = answers.slice(0, -1).reduce((n, a) => n + a.thinking.length, 0);
  assert.equal(layer?.chars, chars);
  assert.equal(layer?.tokens, Math.round(chars * bd.tokensPerChar.value));
  // the ratio: each pair's growth over the characters between, the answer's thinking among them
  let grow = 0;
  let between = 0;
  for (const t of turns)
    for (let k = 1; k < t.answers.length; k++) {
      const a = t.answers[k - 1]!;
      grow += t.answers[k]!.context - a.context;
      between += answerChars(a) + (a.call ? 900 : 0) + a.thinking.length;
    }
  assert.equal(bd.tokensPerChar.from, 'session');
  assert.ok(Math.abs(bd.tokensPerChar.value - grow / between) < 1e-9, `${bd.tokensPerChar.value} = ${grow / between}`);
});
