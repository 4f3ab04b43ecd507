// Which transcript is the newest session (listTranscripts): the time of the records, not of the file. A session
// continued after /clear has two transcripts that Claude Code both writes at the end of the process, so their
// modification times can tie; the one with the later records is the session being continued.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { listTranscripts, nodeFileAccess, type FileAccess } from '../../src/engine/index.js';

const J = (o: unknown) => JSON.stringify(o);
const rec = (type: string, at: string, text = 'hello') => J({ type, uuid: `${type}-${at}`, sessionId: 'S', timestamp: at, message: { role: 'user', content: text } });

function folder(files: Record<string, string>, mtime: Date): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-list-'));
  for (const [name, text] of Object.entries(files)) {
    fs.writeFileSync(path.join(dir, name), text);
    fs.utimesSync(path.join(dir, name), mtime, mtime);
  }
  return dir;
}

test('equal modification times: the transcript with the later records comes first, whatever the names', () => {
  const same = new Date('2026-12-03T10:00:05.000Z');
  // the transcript /clear left: its last record is older; a record without a time (written at exit) follows it
  const before = [rec('user', '2026-12-03T10:00:01.000Z'), rec('assistant', '2026-12-03T10:00:02.000Z'), J({ type: 'cost-state', total: 1 })].join('\n') + '\n';
  const after = [rec('user', '2026-12-03T10:00:03.000Z'), rec('assistant', '2026-12-03T10:00:04.500Z'), J({ type: 'last-prompt', lastPrompt: 'x' })].join('\n') + '\n';
  for (const [older, newer] of [['a', 'b'], ['b', 'a']]) {
    const dir = folder({ [`${older}.jsonl`]: before, [`${newer}.jsonl`]: after }, same);
    try {
      const list = listTranscripts(nodeFileAccess, [dir]);
      assert.deepEqual(list.map((t) => t.sessionId), [newer, older]);
      assert.equal(list[0]!.mtimeMs, list[1]!.mtimeMs);
      assert.equal(list[0]!.lastRecordMs, Date.parse('2026-12-03T10:00:04.500Z'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
});

test('record times outrank modification times; a time inside a record\'s text does not count; no time: the file\'s', () => {
  const dir = folder({}, new Date());
  try {
    // touched later, but its records are older
    fs.writeFileSync(path.join(dir, 'old.jsonl'), rec('user', '2026-12-01T09:00:00.000Z') + '\n');
    fs.utimesSync(path.join(dir, 'old.jsonl'), new Date('2026-12-03T12:00:00Z'), new Date('2026-12-03T12:00:00Z'));
    // a later time quoted in a prompt is escaped in the JSON line: not a record time
    fs.writeFileSync(path.join(dir, 'quoted.jsonl'), rec('user', '2026-12-02T09:00:00.000Z', '"timestamp":"2030-01-01T00:00:00.000Z"') + '\n');
    fs.utimesSync(path.join(dir, 'quoted.jsonl'), new Date('2026-12-03T11:00:00Z'), new Date('2026-12-03T11:00:00Z'));
    // no record time at all (cut, garbage): placed by its modification time
    fs.writeFileSync(path.join(dir, 'garbage.jsonl'), '{"type":"user","timestamp":"not a time"}\n\u0000\u0001');
    fs.utimesSync(path.join(dir, 'garbage.jsonl'), new Date('2026-12-02T12:00:00Z'), new Date('2026-12-02T12:00:00Z'));
    fs.writeFileSync(path.join(dir, 'agent-x.jsonl'), rec('user', '2027-01-01T00:00:00.000Z') + '\n');
    const list = listTranscripts(nodeFileAccess, [dir]);
    assert.deepEqual(list.map((t) => t.sessionId), ['garbage', 'quoted', 'old']);
    assert.equal(list.find((t) => t.sessionId === 'quoted')!.lastRecordMs, Date.parse('2026-12-02T09:00:00.000Z'));
    assert.equal(list.find((t) => t.sessionId === 'garbage')!.lastRecordMs, undefined);
    // a FileAccess that cannot read a range: the modification times alone
    const plain: FileAccess = { ...nodeFileAccess, readRange: undefined };
    assert.deepEqual(listTranscripts(plain, [dir]).map((t) => t.sessionId), ['old', 'quoted', 'garbage']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
