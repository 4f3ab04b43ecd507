// What a tool call was about (transcript/call-target.ts), as `claude-layers session` and the This Session view show
// it: the input shapes of real sessions (2.0.x to 2.1.181: Read, Bash, Grep, Skill, Agent, AskUserQuestion, TaskCreate,
// TaskUpdate, TodoWrite, TaskOutput, MCP servers' search, file and browser tools), written here with our own values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callTarget } from '../../src/engine/transcript/call-target.js';

test('a call is named by its file, skill, agent or command first', () => {
  assert.deepEqual(callTarget({ file_path: '/w/src/a.ts', offset: 10 }), { file: '/w/src/a.ts', text: '/w/src/a.ts' });
  assert.deepEqual(callTarget({ notebook_path: '/w/n.ipynb', new_source: 'x' }), { file: '/w/n.ipynb', text: '/w/n.ipynb' });
  assert.deepEqual(callTarget({ skill: 'release-notes', args: 'v2' }), { text: 'release-notes' });
  assert.deepEqual(callTarget({ subagent_type: 'Explore', description: 'find the parser', prompt: 'long' }), { text: 'Explore' });
  assert.deepEqual(callTarget({ command: 'npm test \\\n  -- --grep parser', description: 'run the tests' }), { text: 'npm test \\ -- --grep parser' });
});

test('a search, fetch, task or MCP tool by the input that names its object', () => {
  assert.deepEqual(callTarget({ pattern: 'TODO|FIXME', path: 'src', output_mode: 'content' }), { text: 'TODO|FIXME' });
  assert.deepEqual(callTarget({ query: 'tide tables api' }), { text: 'tide tables api' });
  assert.deepEqual(callTarget({ q: 'harbour tides', num: 5 }), { text: 'harbour tides' });
  assert.deepEqual(callTarget({ url: 'https://example.com/docs', prompt: 'summarise' }), { text: 'https://example.com/docs' });
  // TaskCreate: its subject before its description
  assert.deepEqual(callTarget({ subject: 'Parse the tide file', description: 'Read every row and check the units', activeForm: 'Parsing' }), { text: 'Parse the tide file' });
  assert.deepEqual(callTarget({ path: '/w/docs' }), { text: '/w/docs' });
  assert.deepEqual(callTarget({ element: 'Submit button', ref: 'e42' }), { text: 'Submit button' });
  assert.deepEqual(callTarget({ task_id: 'b4t9e2w', block: true }), { text: 'b4t9e2w' });
  assert.deepEqual(callTarget({ shell_id: 'shell-2' }), { text: 'shell-2' });
});

test('a question, a task update and a todo list in words; any other tool by its first short text; nothing when there is none', () => {
  const questions = [
    { question: 'Which parser should\nwe keep?', header: 'Parser', options: [{ label: 'csv' }, { label: 'json' }], multiSelect: false },
    { question: 'Keep the old tests?', header: 'Tests', options: [], multiSelect: false },
    { question: 'Ship today?', header: 'Ship', options: [], multiSelect: false },
  ];
  assert.deepEqual(callTarget({ questions }), { text: 'Which parser should we keep? (+2)' });
  assert.deepEqual(callTarget({ questions: questions.slice(0, 1) }), { text: 'Which parser should we keep?' });
  assert.deepEqual(callTarget({ taskId: '3', status: 'completed' }), { text: '#3 completed' });
  assert.deepEqual(callTarget({ taskId: '4', subject: 'Renamed' }), { text: '#4 Renamed' });
  assert.deepEqual(callTarget({ todos: [{ content: 'a', status: 'pending' }, { content: 'b', status: 'done' }] }), { text: '2 items' });
  assert.deepEqual(callTarget({ todos: [{ content: 'a', status: 'pending' }] }), { text: '1 item' });
  assert.deepEqual(callTarget({ ids: [1, 2], project: 'tidepool' }), { text: 'tidepool' });
  assert.deepEqual(callTarget({ createIfEmpty: true }), { text: '' });
  assert.deepEqual(callTarget({ content: 'x'.repeat(500) }), { text: '' }, 'a body is not a name');
  assert.deepEqual(callTarget({ questions: [{}], other: '' }), { text: '' });
  for (const odd of [undefined, null, 'text', 42, ['a']]) assert.deepEqual(callTarget(odd), { text: '' });
});
