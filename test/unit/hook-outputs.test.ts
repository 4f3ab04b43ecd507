// What of a hook's recorded output reached the model, per record kind, as measured on the binaries (2.1.235, 2.1.328
// and 2.1.336, hooks of our own in -p sessions, docs/session.md): a synchronous hook's JSON systemMessage is shown
// to the user and never sent, its additionalContext is sent as a record of its own; an async hook's JSON answer goes
// out as its systemMessage and additionalContext joined by a newline; a non-blocking error sends neither stream.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupHookRuns, hookRuns } from '../../src/engine/transcript/attachment-layers.js';
import { parseTranscriptText } from '../../src/engine/transcript/records.js';

const att = (attachment: Record<string, unknown>) => JSON.stringify({ type: 'attachment', uuid: `u-${Math.random()}`, attachment });

test('a systemMessage sends nothing, its additionalContext does; an async answer sends both joined; a failing hook nothing', () => {
  const text = [
    att({ type: 'hook_system_message', content: 'shown to the user only', hookName: 'UserPromptSubmit', toolUseID: 'p1', hookEvent: 'UserPromptSubmit' }),
    att({ type: 'hook_additional_context', content: ['sent as context'], hookName: 'UserPromptSubmit', toolUseID: 'hook-1', hookEvent: 'UserPromptSubmit' }),
    att({ type: 'async_hook_response', processId: 'async_hook_1', hookName: 'PostToolUse:Read', hookEvent: 'PostToolUse', response: { systemMessage: 'async note', hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'async context' } }, stdout: '{}', exitCode: 0 }),
    att({ type: 'async_hook_response', processId: 'async_hook_2', hookName: 'Stop', hookEvent: 'Stop', response: { hookSpecificOutput: { hookEventName: 'Stop' } }, stdout: '{"hookSpecificOutput":{}}', exitCode: 0 }),
    att({ type: 'hook_non_blocking_error', hookName: 'PostToolUse:Read', toolUseID: 't1', hookEvent: 'PostToolUse', stderr: 'Failed with non-blocking status code: boom', stdout: 'printed\n', exitCode: 1, command: 'false' }),
  ].join('\n');
  const runs = hookRuns(parseTranscriptText(text).records).map((h) => ({ event: h.event, from: h.from, chars: h.chars, dropped: h.dropped }));
  assert.deepEqual(runs, [
    { event: 'UserPromptSubmit', from: 'hook_system_message', chars: 0, dropped: true },
    { event: 'UserPromptSubmit', from: 'hook_additional_context', chars: 'sent as context'.length, dropped: false },
    { event: 'PostToolUse', from: 'async_hook_response', chars: 'async note\nasync context'.length, dropped: false },
    { event: 'Stop', from: 'async_hook_response', chars: 0, dropped: true },
    { event: 'PostToolUse', from: 'hook_non_blocking_error', chars: 0, dropped: true },
  ]);
});

test('2.1.181: a hook_success whose stdout is JSON with a systemMessage, then the hook_system_message of the same call, is one run', () => {
  const json = JSON.stringify({ systemMessage: '\n\nOur tracker will link this session.' });
  const text = [
    att({ type: 'hook_success', content: '', hookName: 'SessionStart:startup', hookEvent: 'SessionStart', toolUseID: 's1', stdout: json, stderr: '', exitCode: 0, command: 'our-tracker hooks session-start', durationMs: 40 }),
    att({ type: 'hook_system_message', content: '\n\nOur tracker will link this session.', hookName: 'SessionStart:startup', hookEvent: 'SessionStart', toolUseID: 's1', level: 'info' }),
    // another call's system message, and one whose text differs from the JSON: runs of their own
    att({ type: 'hook_system_message', content: 'Our tracker will link this session.', hookName: 'SessionStart:startup', hookEvent: 'SessionStart', toolUseID: 's2' }),
    att({ type: 'hook_success', content: '', hookName: 'UserPromptSubmit', hookEvent: 'UserPromptSubmit', toolUseID: 'p1', stdout: JSON.stringify({ systemMessage: 'one' }), exitCode: 0, command: 'a' }),
    att({ type: 'hook_system_message', content: 'two', hookName: 'UserPromptSubmit', hookEvent: 'UserPromptSubmit', toolUseID: 'p1' }),
  ].join('\n');
  const runs = hookRuns(parseTranscriptText(text).records).map((h) => ({ event: h.event, command: h.command, from: h.from, chars: h.chars, dropped: h.dropped }));
  assert.deepEqual(runs, [
    { event: 'SessionStart', command: 'our-tracker hooks session-start', from: 'hook_success', chars: 0, dropped: true },
    { event: 'SessionStart', command: '', from: 'hook_system_message', chars: 0, dropped: true },
    { event: 'UserPromptSubmit', command: 'a', from: 'hook_success', chars: 0, dropped: true },
    { event: 'UserPromptSubmit', command: '', from: 'hook_system_message', chars: 0, dropped: true },
  ]);
});

test("a turn's hook runs shown a line per hook: the runs of one together where the first came, how many, the characters all of them sent", () => {
  const run = (event: string, command: string, chars: number | null, dropped = false) => ({ event, command, chars, dropped, from: 'hook_success' });
  const runs = [run('SessionStart', 'init.sh', 120), run('PostToolUse', 'fmt.sh', 34), run('PostToolUse', 'fmt.sh', 34), run('PostToolUse', 'lint.sh', null), run('PostToolUse', 'fmt.sh', 10), run('PostToolUse', 'fmt.sh', 0, true), run('PostToolUse', 'lint.sh', null), run('Stop', 'stop.sh', null)];
  assert.deepEqual(
    groupHookRuns(runs).map((g) => [g.event, g.command, g.runs, g.chars, g.dropped]),
    [
      ['SessionStart', 'init.sh', 1, 120, false],
      ['PostToolUse', 'fmt.sh', 3, 78, false],
      ['PostToolUse', 'lint.sh', 2, null, false],
      ['PostToolUse', 'fmt.sh', 1, 0, true],
      ['Stop', 'stop.sh', 1, null, false],
    ],
  );
  assert.equal(runs[1]!.chars, 34, 'the runs themselves are left as they were');
  assert.deepEqual(groupHookRuns([]), []);
});
