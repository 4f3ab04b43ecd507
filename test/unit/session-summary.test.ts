// How a person knows a session (the picker and `session --list`): summarizeTranscript reads the head and the tail only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodeFileAccess } from '../../src/engine/files/file-access.js';
import { summarizeTranscript } from '../../src/engine/transcript/session-summary.js';

const J = (o: unknown) => JSON.stringify(o) + '\n';
const user = (content: unknown, extra: Record<string, unknown> = {}) => J({ type: 'user', gitBranch: 'feat/tide', message: { role: 'user', content }, ...extra });

test('the first prompt as the turn list shows it: what Claude Code wrote by itself is skipped', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-summary-'));
  try {
    const f = path.join(dir, 's.jsonl');
    fs.writeFileSync(f, [
      J({ type: 'summary', summary: 'Old summary', leafUuid: 'x' }),
      user('<local-command-caveat>Caveat: …</local-command-caveat>', { isMeta: true }),
      user('<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>'),
      user('<local-command-stdout>Set model</local-command-stdout>'),
      user('<task-notification>\n<status>completed</status>\n</task-notification>', { origin: { kind: 'task-notification' } }),
      user([{ type: 'image', source: {} }]),
      user('second'),
      'not json\n',
    ].join(''));
    assert.deepEqual(summarizeTranscript(nodeFileAccess, f, fs.statSync(f).size), { title: 'Old summary', titleFrom: 'summary', firstPrompt: '[image]', gitBranch: 'feat/tide' });
    // a prompt-type command: `/name args`
    fs.writeFileSync(f, user('<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>src</command-args>'));
    assert.equal(summarizeTranscript(nodeFileAccess, f).firstPrompt, '/review src');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('titles: a /rename beats the title Claude Code wrote, which beats an old summary; the newest of each; titles appended past the head are read from the tail', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-summary-'));
  try {
    const f = path.join(dir, 's.jsonl');
    const filler = user([{ type: 'tool_result', tool_use_id: 't', content: 'x'.repeat(300 * 1024) }]);
    fs.writeFileSync(f, [
      user('fix the tide table'),
      J({ type: 'custom-title', customTitle: 'first name', sessionId: 's' }),
      filler,
      J({ type: 'ai-title', aiTitle: 'Tide table fix' }),
      J({ type: 'custom-title', customTitle: 'tide-fix', sessionId: 's' }),
      J({ type: 'ai-title', aiTitle: 'Later AI title' }),
    ].join(''));
    assert.deepEqual(summarizeTranscript(nodeFileAccess, f, fs.statSync(f).size), { title: 'tide-fix', titleFrom: 'custom-title', firstPrompt: 'fix the tide table', gitBranch: 'feat/tide' });
    // without the size, the head only
    assert.equal(summarizeTranscript(nodeFileAccess, f).title, 'first name');
    // unreadable: nothing, no throw
    assert.deepEqual(summarizeTranscript(nodeFileAccess, path.join(dir, 'missing.jsonl'), 10), {});
    assert.deepEqual(summarizeTranscript(nodeFileAccess, dir, 10), {});
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
