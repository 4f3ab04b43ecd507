// The transcript reader (src/engine/transcript): the parser on cut, garbage and huge lines, the
// follower on a file that grows, shrinks, is replaced or vanishes, the request rebuild by hashes, and
// the replay of a small synthetic session (texts of our own, no text of Claude Code's).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { analyze, chooseProfile, hookKey, HookOutputs, LiveReader, nodeFileAccess, parseTranscriptText, PREAMBLE, PROFILES, readLiveSessionState, SessionReplayer, TranscriptFollower, TranscriptParser, type ParsedRecord } from '../../src/engine/index.js';
import { messageHash, rebuildRequests } from '../../src/engine/transcript/requests.js';
import { extract, extractLastTouch } from '../../src/engine/transcript/wire.js';

const profile = PROFILES[PROFILES.length - 1]!;
const J = (o: unknown) => JSON.stringify(o);

/** a whole transcript through the reader's replayer at once */
function replayed(records: readonly ParsedRecord[]) {
  const r = new SessionReplayer();
  r.add(records);
  return { replayer: r, result: r.result([], profile) };
}

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

  test('a last line without its newline (a copied transcript) is read when whole, once, and the newline after it ends it', () => {
    const d = tmp();
    const f = path.join(d, 's.jsonl');
    const answer = (id: string, out: number, at: string) => J({ type: 'assistant', uuid: id, timestamp: at, message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: `part ${id}` }], usage: { input_tokens: 3, cache_read_input_tokens: 100, cache_creation_input_tokens: 10, output_tokens: out } } });
    const prompt = J({ type: 'user', uuid: 'u1', timestamp: '2026-01-05T10:00:00.000Z', message: { role: 'user', content: 'our prompt' } });
    // the request's last record, which holds its final output tokens, is the file's last line, without its newline
    fs.writeFileSync(f, `${prompt}\n${answer('a1', 4, '2026-01-05T10:00:05.000Z')}\n${answer('a2', 321, '2026-01-05T10:00:09.000Z')}`);
    const reader = new LiveReader(nodeFileAccess, f);
    const one = reader.read(profile);
    assert.equal(one.lastTimestamp, '2026-01-05T10:00:09.000Z');
    assert.equal(one.turns.length, 1);
    assert.equal(one.turns[0]!.usage?.output, 321);
    assert.equal(one.partialLine, false);
    assert.equal(one.lines, 3);
    assert.deepEqual(one.problems, []);
    // Claude Code goes on writing: the newline ends the line already read; the next prompt is a turn of its own
    fs.appendFileSync(f, `\n${J({ type: 'user', uuid: 'u2', parentUuid: 'a2', timestamp: '2026-01-05T10:01:00.000Z', message: { role: 'user', content: 'again' } })}\n`);
    const two = reader.read(profile);
    assert.equal(two.turns.length, 2);
    assert.equal(two.turns[0]!.usage?.output, 321);
    assert.equal(two.lines, 4);
    assert.deepEqual(two.problems, []);
    // a line still being written is not taken
    fs.appendFileSync(f, J({ type: 'user', uuid: 'u3', message: { role: 'user', content: 'third' } }).slice(0, 30));
    const three = reader.read(profile);
    assert.equal(three.turns.length, 2);
    assert.equal(three.partialLine, true);
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

  test('pieces cut anywhere (inside a character, a line or at a newline) decode to the same records', () => {
    const d = tmp();
    const f = path.join(d, 's.jsonl');
    // short and long lines of 1-, 2-, 3- and 4-byte characters, a few whole lines to a piece or none
    const texts = ['a', '中文提示', 'é'.repeat(9), '😀x😀', '規則'.repeat(40), 'ascii only line', '\u0800\uffff'];
    const lines = texts.map((t, i) => J({ type: 'user', uuid: `m${i}`, message: { role: 'user', content: t } }));
    const bytes = Buffer.from(lines.join('\n') + '\n');
    fs.writeFileSync(f, bytes);
    for (let piece = 1; piece <= bytes.length; piece += piece < 200 ? 1 : 97) {
      const fa: typeof nodeFileAccess = { ...nodeFileAccess, readRange: (p, offset, max) => nodeFileAccess.readRange!(p, offset, Math.min(max, piece)) };
      const w = new TranscriptFollower(fa, f);
      assert.equal(w.poll(), 'new');
      assert.deepEqual(w.records.map((r) => (r.rec.message as { content: string }).content), texts, `pieces of ${piece} bytes`);
    }
    // an invalid sequence stays one replacement character, wherever the pieces are cut
    fs.writeFileSync(f, Buffer.concat([Buffer.from('{"type":"user","uuid":"x","message":{"role":"user","content":"a'), Buffer.from([0xe4, 0xb8]), Buffer.from('"}}\n'), Buffer.from(lines[1]! + '\n')]));
    for (const piece of [1, 2, 3, 4096]) {
      const w = new TranscriptFollower({ ...nodeFileAccess, readRange: (p, offset, max) => nodeFileAccess.readRange!(p, offset, Math.min(max, piece)) }, f);
      w.poll();
      assert.deepEqual(w.records.map((r) => (r.rec.message as { content: string }).content), ['a\ufffd', '中文提示'], `pieces of ${piece} bytes`);
    }
    fs.rmSync(d, { recursive: true });
  });


  test('a piece of many lines is decoded in batches of whole lines: lines shorter and longer than a batch, multi-byte, all read once in order', () => {
    const d = tmp();
    const f = path.join(d, 's.jsonl');
    // 64 KiB batches: lines of a few bytes up to 200 KB, some of them multi-byte, so batch ends fall everywhere
    const texts = Array.from({ length: 400 }, (_, i) => (i % 7 === 3 ? '中文'.repeat(1 + ((i * 7919) % 40_000)) : 'x'.repeat((i * 104_729) % 90_000)));
    const lines = texts.map((t, i) => J({ type: 'user', uuid: `m${i}`, message: { role: 'user', content: t } }));
    fs.writeFileSync(f, lines.join('\n') + '\n');
    const w = new TranscriptFollower(nodeFileAccess, f);
    assert.equal(w.poll(), 'new');
    assert.equal(w.parser.lines, texts.length);
    assert.deepEqual(w.records.map((r) => r.line), texts.map((_, i) => i + 1));
    assert.ok(w.records.every((r, i) => (r.rec.message as { content: string }).content === texts[i]), 'every text read whole');
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

const startupOf = (w: string) => `<system-reminder>\n${PREAMBLE}\n\nContents of ${w}/CLAUDE.md (project instructions, checked into the codebase):\n\nOUR_ROOT_TEXT\n</system-reminder>`;
const ruleOf = (w: string) => `<system-reminder>\nContents of ${w}/.claude/rules/api.md:\n\nOUR_RULE_TEXT\n\n</system-reminder>`;
const startup = startupOf('/w');
const rule = ruleOf('/w');

/** one turn, one Read of a file a rule covers (in `w`, /w by default) */
function session(w = '/w'): string {
  const startup = startupOf(w);
  const rule = ruleOf(w);
  const first = { role: 'user', content: [{ type: 'text', text: startup }, { type: 'text', text: 'read it' }] };
  const toolUse = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: `${w}/src/api/a.ts` } }] };
  const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '1\tx' }, { type: 'text', text: rule }] };
  const lines = [
    { type: 'user', uuid: 'p1', sessionId: 'S1', version: '2.1.333', cwd: w, timestamp: '2026-12-01T10:00:00.000Z', message: { role: 'user', content: 'read it' } },
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

  test('a recorded request answered before the first prompt (a notification after /clear) counts in the first turn', () => {
    const note = { role: 'user', content: '<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n<summary>Background command "our watcher" completed</summary>\n</task-notification>' };
    const before = [
      { type: 'user', uuid: 'n0', sessionId: 'S1', version: '2.1.333', cwd: '/w', origin: { kind: 'task-notification' }, timestamp: '2026-12-01T09:59:00.000Z', message: note },
      { type: 'api-request-blob', hash: messageHash(note), message: note },
      { type: 'api-request', id: 'r0', shapeHash: 'sh0', params: { model: 'claude-opus-5-5' }, keep: 0, tail: [messageHash(note)], timestamp: '2026-12-01T09:59:01.000Z' },
      { type: 'assistant', uuid: 'a0', sessionId: 'S1', requestRef: 'r0', message: { role: 'assistant', model: 'claude-opus-5-5', content: [{ type: 'text', text: 'Noted.' }], usage: { input_tokens: 7, cache_read_input_tokens: 0, cache_creation_input_tokens: 900, output_tokens: 3 } } },
    ];
    const r = replayed(parseTranscriptText(before.map(J).join('\n') + '\n' + session()).records).result;
    assert.equal(r.turns.length, 1);
    assert.equal(r.turns[0]!.requests, 3);
    assert.deepEqual(r.requests.map((q) => q.turn), [0, 0, 0]);
    assert.deepEqual(r.marks.map((m) => m.kind), ['notification']);
  });

  test('the replay has the render --session keys, the usage, the layers and the session\'s own tokens per char', () => {
    const r = replayed(parseTranscriptText(session()).records).result;
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
    const r = replayed(p.records).result;
    assert.deepEqual(r.turns, []);
    assert.equal(p.problems.length, 2);
  });
});

// ------------------------------------------------------------------------------ compactions

/** two Reads in one turn, Claude Code compacting on its own between them (the rule's file injected
 *  with the first Read's result goes out only in the compaction's unrecorded request), then `/compact` */
function compacting(): string {
  const ts = (n: number) => new Date(Date.UTC(2026, 11, 1, 10, 0, n)).toISOString();
  const first = { role: 'user', content: [{ type: 'text', text: startup }, { type: 'text', text: 'read two' }] };
  const use1 = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/w/src/api/a.ts' } }] };
  const after = { role: 'user', content: [{ type: 'text', text: 'OUR_SUMMARY' }] };
  const use2 = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'Read', input: { file_path: '/w/src/b.ts' } }] };
  const res2 = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: '1\ty' }] };
  const u = (n: number) => ({ usage: { input_tokens: 10, cache_read_input_tokens: n, cache_creation_input_tokens: 0, output_tokens: 1 } });
  const lines = [
    { type: 'user', uuid: 'p1', sessionId: 'S2', version: '2.1.333', cwd: '/w', timestamp: ts(0), message: { role: 'user', content: 'read two' } },
    { type: 'api-request-shape', shapeHash: 'sh1', shape: { system: [], tools: [] } },
    { type: 'api-request-blob', hash: messageHash(first), message: first },
    { type: 'api-request', id: 'r1', shapeHash: 'sh1', keep: 0, tail: [messageHash(first)], timestamp: ts(1) },
    { type: 'assistant', uuid: 'a1', requestRef: 'r1', timestamp: ts(2), message: { ...use1, ...u(900) } },
    { type: 'user', uuid: 't1', timestamp: ts(3), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '1\tx' }] } },
    { type: 'attachment', uuid: 'n1', attachment: { type: 'nested_memory', path: '/w/.claude/rules/api.md' }, rendered: [{ content: rule }], renderedRole: 'user' },
    { type: 'system', subtype: 'compact_boundary', uuid: 'b1', compactMetadata: { trigger: 'auto', preTokens: 900 } },
    { type: 'user', uuid: 's1', isCompactSummary: true, isVisibleInTranscriptOnly: true, message: { role: 'user', content: 'OUR_SUMMARY' } },
    { type: 'api-request-blob', hash: messageHash(after), message: after },
    { type: 'api-request', id: 'r2', shapeHash: 'sh1', keep: 0, tail: [messageHash(after)], timestamp: ts(4) },
    { type: 'assistant', uuid: 'a2', requestRef: 'r2', timestamp: ts(5), message: { ...use2, ...u(10) } },
    { type: 'user', uuid: 't2', timestamp: ts(6), message: res2 },
    { type: 'api-request', id: 'r3', base: 'r2', keep: 1, shapeHash: 'sh1', tail: [messageHash(use2), messageHash(res2)], timestamp: ts(7) },
    { type: 'assistant', uuid: 'a3', requestRef: 'r3', timestamp: ts(8), message: { role: 'assistant', content: [{ type: 'text', text: 'done' }], ...u(20) } },
    { type: 'system', subtype: 'compact_boundary', uuid: 'b2', compactMetadata: { trigger: 'manual', preTokens: 20 } },
    { type: 'user', uuid: 'c1', timestamp: ts(9), message: { role: 'user', content: '<command-name>/compact</command-name>' } },
  ];
  return lines.map(J).join('\n') + '\n';
}

describe('a compaction\'s request, rebuilt by one rule', () => {
  test('an auto-compaction carries the conversation through the last tool result and what came with it: the call gets its injection', () => {
    const { replayer, result } = replayed(parseTranscriptText(compacting()).records);
    const t = result.turns[0]!;
    assert.deepEqual(t.calls.map((c) => c.injected.map((i) => i.path)), [['/w/.claude/rules/api.md'], []]);
    assert.equal(t.calls[0]!.injected[0]!.text, 'Contents of /w/.claude/rules/api.md:\n\nOUR_RULE_TEXT\n');
    assert.deepEqual(t.autoCompactions!.map((a) => a.at), [1]);
    assert.deepEqual(t.compacted, { trigger: 'auto', preTokens: 900 });
    const [auto, manual] = replayer.compactionRequests();
    assert.deepEqual(auto!.body!.messages.map((m) => m.role), ['user', 'assistant', 'user']);
    assert.deepEqual((auto!.body!.messages[2]!.content as { type?: string }[]).map((b) => b.type), ['tool_result', 'text']);
    assert.equal(auto!.turn, 0);
    // /compact after an answer to a tool result: the compaction ends with the tool result (measured)
    assert.equal(manual!.trigger, 'manual');
    assert.equal(manual!.turn, 1);
    assert.deepEqual(manual!.body!.messages.map((m) => m.role), ['user', 'assistant', 'user']);
    assert.equal(result.turns[1]!.prompt, '/compact');
    assert.equal(result.turns[1]!.requests, 1);
  });

  test('an answer to a prompt is carried; a prompt not sent yet is not (the compaction keeps it for the request after)', () => {
    const first = { role: 'user', content: [{ type: 'text', text: startup }, { type: 'text', text: 'hello' }] };
    const lines = [
      { type: 'user', uuid: 'p1', sessionId: 'S3', version: '2.1.333', cwd: '/w', message: { role: 'user', content: 'hello' } },
      { type: 'api-request-blob', hash: messageHash(first), message: first },
      { type: 'api-request', id: 'r1', keep: 0, tail: [messageHash(first)] },
      { type: 'assistant', uuid: 'a1', requestRef: 'r1', message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] } },
      { type: 'user', uuid: 'p2', message: { role: 'user', content: 'next prompt' } },
      { type: 'attachment', uuid: 'x1', attachment: { type: 'date' }, rendered: [{ content: '<system-reminder>\nOUR_DATE\n</system-reminder>' }], renderedRole: 'system' },
      { type: 'system', subtype: 'compact_boundary', uuid: 'b1', compactMetadata: { trigger: 'auto' } },
    ];
    const { replayer, result } = replayed(parseTranscriptText(lines.map(J).join('\n') + '\n').records);
    const c = replayer.compactionRequests()[0]!;
    assert.deepEqual(c.body!.messages.map((m) => m.role), ['user', 'assistant']);
    assert.equal(c.turn, 1);
    assert.equal(result.turns[1]!.compacted?.trigger, 'auto');
  });
});

test('a file none of whose lines is a record is said to be no transcript, first; one record of any type, or a line still being written, and it is not', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-notrec-'));
  try {
    const read = (name: string, text: string) => {
      const file = path.join(root, name);
      fs.writeFileSync(file, text);
      return new LiveReader(nodeFileAccess, file).read(profile).problems.map((p) => p.reason);
    };
    const none = read('lock.json', '{\n  "name": "x",\n  "lockfileVersion": 3\n}\n');
    assert.match(none[0]!, /lock\.json holds no Claude Code transcript record: none of its 4 line\(s\) is a JSON object with a "type"/);
    assert.equal(none.length, 5, 'and each line says why');
    assert.match(read('objects.jsonl', '{"a":1}\n[1]\n')[0]!, /holds no Claude Code transcript record/);
    assert.deepEqual(read('one.jsonl', '{"a":1}\n' + J({ type: 'some-new-type', uuid: 'n1' }) + '\n'), ['record without a type']);
    assert.deepEqual(read('writing.jsonl', '{"type":"user","mess'), [], 'a first line still being written');
    assert.deepEqual(read('empty.jsonl', ''), []);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

describe('readLiveSessionState: the chain for CLI and host', () => {
  test('one run serves the prediction; a read over the same turns reuses it without asking for an analysis', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-state-')));
    try {
      const w = path.join(root, 'w');
      fs.mkdirSync(path.join(w, 'src', 'api'), { recursive: true });
      fs.mkdirSync(path.join(w, '.claude', 'rules'), { recursive: true });
      fs.writeFileSync(path.join(w, 'CLAUDE.md'), 'OUR_ROOT_TEXT\n');
      fs.writeFileSync(path.join(w, '.claude', 'rules', 'api.md'), '---\npaths:\n  - "src/api/**"\n---\nOUR_RULE_TEXT\n');
      fs.writeFileSync(path.join(w, 'src', 'api', 'a.ts'), 'x\n');
      const file = path.join(root, 's.jsonl');
      fs.writeFileSync(file, session(w));
      let analyses = 0;
      const opts = { profile: () => profile, analysis: () => (analyses++, analyze({ cwd: w, home: path.join(root, 'home'), env: {}, claudeVersion: profile.version })), cwd: w };
      const one = readLiveSessionState(nodeFileAccess, file, opts);
      assert.equal(analyses, 1);
      assert.deepEqual(one.findings, [], 'the engine predicts the rule the session got');
      assert.ok(one.next);
      assert.ok(one.derivedFor?.sim);
      // an answer appended: the same turns and calls, nothing computed again
      fs.appendFileSync(file, J({ type: 'assistant', uuid: 'a9', message: { role: 'assistant', content: [{ type: 'text', text: 'more' }] } }) + '\n');
      const two = readLiveSessionState(nodeFileAccess, file, { ...opts, previous: one });
      assert.equal(analyses, 1);
      assert.equal(two.next?.held, one.next?.held, 'what the session holds: reused');
      // a new turn: computed again
      fs.appendFileSync(file, J({ type: 'user', uuid: 'p9', message: { role: 'user', content: 'again' } }) + '\n');
      const three = readLiveSessionState(nodeFileAccess, file, { ...opts, previous: two });
      assert.equal(analyses, 2);
      assert.equal(three.live.turns.length, 2);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('a hook run recorded without its command', () => {
  test('named after the one hook the launch folder\'s settings hold for the event, and marked so; unnamed with two', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-hookname-')));
    try {
      const w = path.join(root, 'w');
      fs.mkdirSync(path.join(w, '.claude'), { recursive: true });
      const settings = (cmds: string[]) =>
        fs.writeFileSync(path.join(w, '.claude', 'settings.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: cmds.map((command) => ({ type: 'command', command })) }], PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'our-fmt' }] }] } }));
      const file = path.join(root, 's.jsonl');
      const ts = '2026-12-01T09:00:00Z';
      // as the binaries write a UserPromptSubmit hook that printed JSON additionalContext: the event, no command
      fs.writeFileSync(
        file,
        [
          { type: 'user', uuid: 'p1', sessionId: 'S', version: profile.version, cwd: w, timestamp: ts, message: { role: 'user', content: 'hello' } },
          { type: 'attachment', uuid: 'h1', parentUuid: 'p1', timestamp: ts, attachment: { type: 'hook_additional_context', hookEvent: 'UserPromptSubmit', content: ['OUR_HOOK_CONTEXT'] } },
          { type: 'assistant', uuid: 'a1', parentUuid: 'h1', timestamp: ts, message: { id: 'm1', role: 'assistant', model: 'claude-opus-4-7', content: [{ type: 'text', text: 'hi' }], usage: { input_tokens: 10, output_tokens: 1 } } },
        ].map(J).join('\n') + '\n',
      );
      const opts = { profile: () => profile, analysis: () => analyze({ cwd: w, home: path.join(root, 'home'), env: {}, claudeVersion: profile.version }), cwd: w };
      settings(['our-date']);
      const one = readLiveSessionState(nodeFileAccess, file, opts).live.turns[0]!.hooks!;
      assert.deepEqual(one.map((h) => [h.event, h.command, h.commandFrom, h.chars]), [['UserPromptSubmit', 'our-date', 'settings', 'OUR_HOOK_CONTEXT'.length]]);
      settings(['our-date', 'our-branch']);
      const two = readLiveSessionState(nodeFileAccess, file, opts).live.turns[0]!.hooks!;
      assert.deepEqual(two.map((h) => [h.command, h.commandFrom]), [['', undefined]], 'two candidates: no guess');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the gauge after a turn\'s last answer', () => {
  test('a text-only answer appended to a turn (same turns, same calls) moves the context figure', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-gauge-')));
    try {
      const w = path.join(root, 'w');
      fs.mkdirSync(path.join(w, 'src', 'api'), { recursive: true });
      fs.mkdirSync(path.join(w, '.claude', 'rules'), { recursive: true });
      fs.writeFileSync(path.join(w, 'CLAUDE.md'), 'OUR_ROOT_TEXT\n');
      fs.writeFileSync(path.join(w, '.claude', 'rules', 'api.md'), '---\npaths:\n  - "src/api/**"\n---\nOUR_RULE_TEXT\n');
      fs.writeFileSync(path.join(w, 'src', 'api', 'a.ts'), 'x\n');
      const file = path.join(root, 's.jsonl');
      const all = session(w).split('\n').filter(Boolean);
      // up to the tool result: the last answer (a tool call) had 100 + 50 tokens of context
      fs.writeFileSync(file, all.slice(0, 6).join('\n') + '\n');
      const opts = { profile: () => profile, analysis: () => analyze({ cwd: w, home: path.join(root, 'home'), env: {}, claudeVersion: profile.version }), cwd: w };
      const one = readLiveSessionState(nodeFileAccess, file, opts);
      assert.equal(one.next?.context?.tokens, 150);
      // the turn's final text-only answer (its request and the answer): no new turn, no new call
      fs.appendFileSync(file, all.slice(6).join('\n') + '\n');
      const two = readLiveSessionState(nodeFileAccess, file, { ...opts, previous: one });
      assert.equal(two.live.turns.length, one.live.turns.length);
      assert.equal(two.next?.context?.tokens, 330, 'the final answer\'s usage (10 + 300 + 20), as a fresh read says');
      assert.equal(readLiveSessionState(nodeFileAccess, file, opts).next?.context?.tokens, 330);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('hook outputs of earlier sessions', () => {
  test('the newest run of each hook, each transcript read from where its last read ended', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-hooks-')));
    try {
      const run = (command: string, content: string, at: string) => J({ type: 'attachment', uuid: `${command}-${at}`, timestamp: at, attachment: { type: 'hook_success', hookEvent: 'UserPromptSubmit', command, content } }) + '\n';
      const old = path.join(root, 'old.jsonl');
      const cur = path.join(root, 'cur.jsonl');
      fs.writeFileSync(old, run('fmt', 'x'.repeat(10), '2026-12-01T09:00:00Z') + run('lint', 'y'.repeat(7), '2026-12-01T09:00:01Z'));
      fs.writeFileSync(cur, run('fmt', 'z'.repeat(20), '2026-12-01T10:00:00Z'));
      const list = [{ file: cur, sessionId: 'cur', mtimeMs: 2, size: 0 }, { file: old, sessionId: 'old', mtimeMs: 1, size: 0 }];
      const h = new HookOutputs(nodeFileAccess);
      const one = h.read(list);
      assert.deepEqual([one.get(hookKey('UserPromptSubmit', 'fmt'))?.chars, one.get(hookKey('UserPromptSubmit', 'lint'))?.chars], [20, 7]);
      assert.equal(one.get(hookKey('UserPromptSubmit', 'fmt'))?.transcript, cur);
      fs.appendFileSync(cur, run('lint', 'w'.repeat(3), '2026-12-01T10:00:01Z'));
      const two = h.read(list);
      assert.deepEqual([two.get(hookKey('UserPromptSubmit', 'fmt'))?.chars, two.get(hookKey('UserPromptSubmit', 'lint'))?.chars], [20, 3], 'the appended run, the earlier ones kept');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  test('what reached the model: a PostToolUse hook\'s plain output none (measured), a JSON additionalContext its text', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-hooks-')));
    try {
      const f = path.join(root, 's.jsonl');
      const att = (uuid: string, attachment: Record<string, unknown>) => J({ type: 'attachment', uuid, timestamp: '2026-12-01T09:00:00Z', attachment }) + '\n';
      fs.writeFileSync(
        f,
        att('a', { type: 'hook_success', hookEvent: 'PostToolUse', command: 'fmt', content: 'formatted', stdout: 'formatted\n' }) +
          att('b', { type: 'hook_success', hookEvent: 'SessionStart', command: 'ctx', content: '', stdout: '{"hookSpecificOutput":{}}' }) +
          att('c', { type: 'hook_additional_context', hookEvent: 'SessionStart', content: ['MARK 12 chars'] }),
      );
      const got = new HookOutputs(nodeFileAccess).read([{ file: f, sessionId: 's', mtimeMs: 1, size: 0 }]);
      assert.deepEqual([got.get(hookKey('PostToolUse', 'fmt'))?.chars, got.get(hookKey('SessionStart', 'ctx'))?.chars], [0, 'MARK 12 chars'.length]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the prediction over a version that records no request', () => {
  test('a file injected again with the text the session had is explained by an unmarked new process', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-again-')));
    try {
      const w = path.join(root, 'w');
      fs.mkdirSync(path.join(w, 'pkg'), { recursive: true });
      fs.writeFileSync(path.join(w, 'pkg', 'CLAUDE.md'), 'OUR_PKG_TEXT\n');
      fs.writeFileSync(path.join(w, 'pkg', 'x.ts'), 'x\n');
      fs.writeFileSync(path.join(w, 'CLAUDE.md'), 'OUR_ROOT_TEXT\n');
      // the files older than the session: nothing changed on disk since
      const old = new Date(Date.now() - 3_600_000);
      for (const f of ['CLAUDE.md', 'pkg/CLAUDE.md', 'pkg/x.ts']) fs.utimesSync(path.join(w, f), old, old);
      const x = path.join(w, 'pkg', 'x.ts');
      const turn = (k: number) => [
        { type: 'user', uuid: `p${k}`, sessionId: 'S', version: '2.1.235', cwd: w, timestamp: new Date().toISOString(), message: { role: 'user', content: `turn ${k}` } },
        { type: 'assistant', uuid: `a${k}`, message: { id: `m${k}`, role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${k}`, name: 'Read', input: { file_path: x } }] } },
        { type: 'user', uuid: `t${k}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${k}`, content: '1\tx' }] } },
        { type: 'attachment', uuid: `n${k}`, attachment: { type: 'nested_memory', path: path.join(w, 'pkg', 'CLAUDE.md'), content: { path: path.join(w, 'pkg', 'CLAUDE.md'), content: 'OUR_PKG_TEXT\n' } } },
      ];
      const file = path.join(root, 's.jsonl');
      fs.writeFileSync(file, [...turn(1), ...turn(2)].map((l) => J(l)).join('\n') + '\n');
      const p235 = chooseProfile('2.1.235').profile;
      const s = readLiveSessionState(nodeFileAccess, file, { profile: () => p235, analysis: () => analyze({ cwd: w, home: path.join(root, 'home'), env: {}, claudeVersion: '2.1.235' }), cwd: w });
      assert.equal(s.live.source, 'attachments');
      assert.deepEqual(s.live.turns.map((t) => t.calls[0]!.injected.length), [1, 1]);
      assert.equal(s.findings.length, 1);
      assert.equal(s.findings[0]!.kind, 'not-predicted');
      assert.match(s.findings[0]!.explained ?? '', /injected again with the text the session had/);
      // the startup block rebuilt from the disk by the same run of the session model
      assert.equal(s.live.turns[0]!.instructionsFrom, 'disk');
      assert.match(s.live.turns[0]!.instructions!, /OUR_ROOT_TEXT/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the wire reader', () => {
  test('the last tool call of a request reads as extract() reads it, without the calls before it', () => {
    const sr = (t: string) => `<system-reminder>\n${t}\n</system-reminder>`;
    const use = (id: string, file: string) => ({ type: 'tool_use', id, name: 'Read', input: { file_path: file } });
    const result = (id: string, text: string) => ({ type: 'tool_result', tool_use_id: id, content: text });
    const body = {
      messages: [
        { role: 'user', content: 'a prompt' },
        { role: 'assistant', content: [use('t1', '/w/a.ts'), use('t2', '/w/b.ts')] },
        { role: 'user', content: [result('t1', 'A'), result('t2', 'B'), { type: 'text', text: sr('Contents of /w/b/CLAUDE.md:\n\nB RULE') + '\n' }, { type: 'text', text: 'other' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'thinking aloud' }] },
        { role: 'assistant', content: [use('t3', '/w/c.ts'), use('t4', '/w/d/e.ts')] },
        { role: 'user', content: [result('t3', 'C'), result('t4', 'E'), { type: 'text', text: sr('Contents of /w/d/CLAUDE.md:\n\nD RULE') + '\n' }, { type: 'text', text: sr('Contents of /w/.claude/rules/e.md:\n\nE RULE') }] },
        { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
      ],
    };
    for (const p of PROFILES) {
      const all = extract(body, p.version).touches;
      assert.equal(all.length, 4);
      const last = extractLastTouch(body, p.version);
      assert.deepEqual(last?.touch, all.at(-1), p.version);
      assert.equal(last?.use.id, 't4');
      assert.deepEqual(last?.touch.injected, ['Contents of /w/d/CLAUDE.md:\n\nD RULE', 'Contents of /w/.claude/rules/e.md:\n\nE RULE']);
      assert.equal(last?.touch.result, 'E');
    }
    assert.equal(extractLastTouch({ messages: [{ role: 'user', content: 'no call yet' }] }, profile.version), undefined);
    assert.equal(extractLastTouch({}, profile.version), undefined);
  });
});
