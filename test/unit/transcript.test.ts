// The transcript reader (src/engine/transcript): the parser on cut, garbage and huge lines, the
// follower on a file that grows, shrinks, is replaced or vanishes, the request rebuild by hashes, and
// the replay of a small synthetic session (texts of our own, no text of Claude Code's).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { nodeFileAccess, parseTranscriptText, PREAMBLE, PROFILES, replay, TranscriptFollower, TranscriptParser } from '../../src/engine/index.js';
import { messageHash, rebuildRequests } from '../../src/engine/transcript/requests.js';

const profile = PROFILES[PROFILES.length - 1]!;
const J = (o: unknown) => JSON.stringify(o);

describe('TranscriptParser', () => {
  test('a line split across chunks waits for its newline; records come out in order', () => {
    const p = new TranscriptParser();
    assert.equal(p.push('{"type":"user","uuid":"a","message":{"role":"user","content":"hi"}}\n{"type":"assi').length, 1);
    assert.ok(p.hasPartialLine);
    const more = p.push('stant","uuid":"b","message":{"role":"assistant","content":[]}}\n');
    assert.deepEqual(more.map((r) => r.type), ['assistant']);
    assert.equal(p.lines, 2);
    assert.equal(p.hasPartialLine, false);
  });

  test('garbage, non-objects, records without a type and unknown types are reported by line, never thrown', () => {
    const p = parseTranscriptText(['not json', '[1,2]', '{"no":"type"}', '{"type":"from-the-future"}', '{"type":"from-the-future"}', '{"type":"user","uuid":"u"}', ''].join('\n'));
    assert.deepEqual(p.problems, [
      { line: 1, reason: 'not JSON' },
      { line: 2, reason: 'not a JSON object' },
      { line: 3, reason: 'record without a type' },
    ]);
    assert.deepEqual([...p.unknownTypes], [['from-the-future', 2]]);
    assert.equal(p.records.length, 1);
  });

  test('a cut last line is reported; a whole last line without its newline is taken', () => {
    const cut = parseTranscriptText('{"type":"user","uuid":"a"}\n{"type":"user","uu');
    assert.equal(cut.records.length, 1);
    assert.match(cut.problems[0]!.reason, /cut/);
    const whole = parseTranscriptText('{"type":"user","uuid":"a"}');
    assert.equal(whole.records.length, 1);
    assert.deepEqual(whole.problems, []);
  });

  test('a line past the bound is skipped without being held, in one chunk or many, and the next line is read', () => {
    const p = new TranscriptParser({ maxLineChars: 100 });
    p.push('{"type":"user","uuid":"x","pad":"');
    for (let i = 0; i < 50; i++) p.push('y'.repeat(1000));
    p.push('"}\n{"type":"user","uuid":"after"}\n');
    assert.equal(p.records.length, 1);
    assert.equal(p.records[0]!.rec.uuid, 'after');
    assert.equal(p.problems.length, 1);
    assert.equal(p.problems[0]!.line, 1);
    assert.equal(p.lines, 2);
  });

  test('a record written again with a uuid already seen is kept once; bookkeeping records are dropped', () => {
    const p = parseTranscriptText([J({ type: 'user', uuid: 'a', n: 1 }), J({ type: 'queue-operation' }), J({ type: 'user', uuid: 'a', n: 2 })].join('\n') + '\n');
    assert.equal(p.records.length, 1);
    assert.equal(p.records[0]!.rec.n, 1);
    assert.equal(p.rewritten, 1);
  });
});

describe('TranscriptFollower', () => {
  const tmp = () => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-follow-')));
  const rec = (i: number) => J({ type: 'user', uuid: `u${i}`, message: { role: 'user', content: `prompt ${i}` } }) + '\n';

  test('reads only what was appended, and again from the start when the file shrinks or is replaced', () => {
    const d = tmp();
    const f = path.join(d, 's.jsonl');
    fs.writeFileSync(f, rec(1) + rec(2));
    const w = new TranscriptFollower(nodeFileAccess, f);
    assert.equal(w.poll(), 'new');
    assert.equal(w.records.length, 2);
    assert.equal(w.poll(), 'unchanged');
    fs.appendFileSync(f, rec(3).slice(0, 10));
    assert.equal(w.poll(), 'appended');
    assert.equal(w.records.length, 2, 'a half-written line is not a record');
    fs.appendFileSync(f, rec(3).slice(10));
    w.poll();
    assert.equal(w.records.length, 3);
    assert.equal(w.bytesRead, fs.statSync(f).size);
    fs.writeFileSync(f, rec(9));
    assert.equal(w.poll(), 'restarted');
    assert.deepEqual(w.records.map((r) => r.rec.uuid), ['u9']);
    const other = path.join(d, 'other.jsonl');
    fs.writeFileSync(other, rec(7) + rec(8) + rec(9) + rec(10));
    fs.renameSync(other, f);
    assert.equal(w.poll(), 'restarted');
    assert.deepEqual(w.records.map((r) => r.rec.uuid), ['u7', 'u8', 'u9', 'u10']);
    fs.rmSync(f);
    assert.equal(w.poll(), 'gone');
    fs.rmSync(d, { recursive: true });
  });

  test('a multi-byte character split across read pieces is decoded whole', () => {
    const d = tmp();
    const f = path.join(d, 's.jsonl');
    const line = J({ type: 'user', uuid: 'zh', message: { role: 'user', content: '中文提示'.repeat(2_000_000) } }) + '\n';
    fs.writeFileSync(f, line);
    const w = new TranscriptFollower(nodeFileAccess, f);
    w.poll();
    assert.equal(w.records.length, 1);
    assert.equal((w.records[0]!.rec.message as { content: string }).content.length, 8_000_000);
    fs.rmSync(d, { recursive: true });
  });

  test('a FIFO, a folder and a symlink loop are unreadable at once, never a hang', () => {
    const d = tmp();
    const fifo = path.join(d, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    fs.symlinkSync(path.join(d, 'b.jsonl'), path.join(d, 'a.jsonl'));
    fs.symlinkSync(path.join(d, 'a.jsonl'), path.join(d, 'b.jsonl'));
    for (const f of [fifo, d, path.join(d, 'a.jsonl')]) {
      const w = new TranscriptFollower(nodeFileAccess, f);
      assert.equal(w.poll(), 'unreadable', f);
      assert.ok(w.error);
    }
    fs.rmSync(d, { recursive: true });
  });
});

// ------------------------------------------------------------------------------ a synthetic session

const startup = `<system-reminder>\n${PREAMBLE}\n\nContents of /w/CLAUDE.md (project instructions, checked into the codebase):\n\nOUR_ROOT_TEXT\n</system-reminder>`;
const rule = '<system-reminder>\nContents of /w/.claude/rules/api.md:\n\nOUR_RULE_TEXT\n\n</system-reminder>';

function session(): string {
  const first = { role: 'user', content: [{ type: 'text', text: startup }, { type: 'text', text: 'read it' }] };
  const toolUse = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/w/src/api/a.ts' } }] };
  const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '1\tx' }, { type: 'text', text: rule }] };
  const lines = [
    { type: 'user', uuid: 'p1', sessionId: 'S1', version: '2.1.333', cwd: '/w', timestamp: '2026-12-01T10:00:00.000Z', message: { role: 'user', content: 'read it' } },
    { type: 'api-request-shape', shapeHash: 'sh1', shape: { system: [{ type: 'text', text: 'OUR_SYSTEM' }], tools: [{ name: 'Read', description: 'OUR_TOOL' }, { name: 'mcp__db__query', description: 'OUR_MCP' }] } },
    { type: 'api-request-blob', hash: messageHash(first), message: first },
    { type: 'api-request', id: 'r1', shapeHash: 'sh1', params: { model: 'claude-opus-5-5' }, keep: 0, tail: [messageHash(first)], timestamp: '2026-12-01T10:00:01.000Z' },
    { type: 'assistant', uuid: 'a1', requestRef: 'r1', message: { ...toolUse, usage: { input_tokens: 100, cache_read_input_tokens: 50, cache_creation_input_tokens: 0, output_tokens: 5 } } },
    { type: 'user', uuid: 't1', message: { role: 'user', content: result.content.slice(0, 1) } },
    { type: 'api-request-blob', hash: messageHash(result), message: result },
    { type: 'api-request', id: 'r2', base: 'r1', keep: 1, shapeHash: 'sh1', params: { model: 'claude-opus-5-5' }, tail: [messageHash(toolUse), messageHash(result)], timestamp: '2026-12-01T10:00:02.000Z' },
    { type: 'assistant', uuid: 'a2', requestRef: 'r2', message: { role: 'assistant', content: [{ type: 'text', text: 'done' }], usage: { input_tokens: 10, cache_read_input_tokens: 300, cache_creation_input_tokens: 20, output_tokens: 5 } } },
  ];
  return lines.map(J).join('\n') + '\n';
}

describe('rebuilding requests and replaying a session', () => {
  test('the hash is sha256 of the key-sorted message, a string content as one text block', () => {
    assert.equal(messageHash({ role: 'user', content: 'x' }), messageHash({ content: [{ text: 'x', type: 'text' }], role: 'user' }));
    assert.notEqual(messageHash({ role: 'user', content: 'x' }), messageHash({ role: 'user', content: 'y' }));
  });

  test('messages come from blobs and from conversation records; a hash found nowhere leaves the request incomplete', () => {
    const p = parseTranscriptText(session());
    const reqs = rebuildRequests(p.records);
    assert.equal(reqs.length, 2);
    assert.equal(reqs[1]!.messages?.length, 3);
    assert.deepEqual(reqs[1]!.messages?.[1], { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/w/src/api/a.ts' } }] });
    assert.deepEqual(reqs[1]!.usage, { input: 10, cacheRead: 300, cacheCreation: 20, output: 5 });
    const broken = parseTranscriptText(session().replace(/"tail":\["[0-9a-f]+","/, '"tail":["0000","'));
    const r2 = rebuildRequests(broken.records)[1]!;
    assert.equal(r2.messages, null);
    assert.equal(r2.missing, 1);
  });

  test('the replay has the render --session keys, the usage, the layers and the session\'s own tokens per char', () => {
    const r = replay({ main: parseTranscriptText(session()).records, subagents: [], profile });
    assert.equal(r.source, 'requests');
    assert.equal(r.sessionId, 'S1');
    assert.equal(r.turns.length, 1);
    const t = r.turns[0]!;
    assert.equal(t.prompt, 'read it');
    assert.equal(t.instructions, `${PREAMBLE}\n\nContents of /w/CLAUDE.md (project instructions, checked into the codebase):\n\nOUR_ROOT_TEXT`);
    assert.equal(t.instructionsFrom, 'request');
    assert.deepEqual(t.calls.map((c) => [c.name, c.injected]), [['Read', [{ path: '/w/.claude/rules/api.md', text: 'Contents of /w/.claude/rules/api.md:\n\nOUR_RULE_TEXT\n' }]]]);
    const last = r.requests[1]!;
    assert.equal(last.contextTokens, 330);
    assert.equal(last.chars!.system, 'OUR_SYSTEM'.length);
    assert.equal(last.chars!.mcp.db, J({ name: 'mcp__db__query', description: 'OUR_MCP' }).length);
    assert.equal(last.chars!.instructions, startup.length);
    assert.equal(last.chars!.lazy, rule.length);
    const c = last.chars!;
    assert.equal(c.total, c.system + c.tools + c.mcp.db! + c.instructions + c.skillsListing + c.lazy + c.skillBodies + c.hooks + c.changedNotes + c.restored + c.conversation);
    assert.equal(r.tokensPerChar, 330 / c.total);
    assert.deepEqual(r.lastUsage, { input: 10, cacheRead: 300, cacheCreation: 20, output: 5 });
  });

  test('a transcript that is nothing but garbage replays to no turn, with its problems', () => {
    const p = parseTranscriptText('\u0000\u0001garbage\n{"type":1}\n');
    const r = replay({ main: p.records, subagents: [], profile });
    assert.deepEqual(r.turns, []);
    assert.equal(p.problems.length, 2);
  });
});
