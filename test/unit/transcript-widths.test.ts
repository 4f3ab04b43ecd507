// A version without a first-request profile (issue 32 point 1): the user's own newest transcript of that version that
// holds an `api-request-shape` gives the system blocks' and the tools' sizes (src/engine/request/transcript-widths.ts).
// The transcript is our own, with 2.1.335's layout: the shape records the system blocks but the first one, the main
// block holds a `# Memory` section, the tools sent whole, ToolSearch, the placeholder; the deferred built-ins named by
// the session's deferred_tools_delta.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { analyze, firstRequest, memoryKey, nodeFileAccess, transcriptWidthsFor } from '../../src/engine/index.js';
import { FIRST_REQUESTS } from '../../src/engine/profiles.js';

const J = (o: unknown) => JSON.stringify(o);

test('no profile for the version: the sizes from the newest transcript of it, said so; a profiled version ignores it', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-widths-')));
  const cwd = path.join(root, 'repo');
  const home = path.join(root, 'home');
  fs.mkdirSync(cwd, { recursive: true });
  const dir = path.join(home, '.claude/projects', memoryKey(cwd));
  fs.mkdirSync(dir, { recursive: true });
  const main = `OUR_MAIN_PROMPT ${'m'.repeat(500)}\n# Memory\nOUR_MEMORY_TEXT\n# Next\nOUR_TAIL`;
  const memory = '# Memory\nOUR_MEMORY_TEXT\n';
  const read = { name: 'Read', description: 'OUR_READ', input_schema: { type: 'object' } };
  const fresh = { name: 'Brand', description: 'OUR_NEW_TOOL '.repeat(20), input_schema: { type: 'object' } };
  const search = { name: 'ToolSearch', description: 'OUR_SEARCH', input_schema: {} };
  const holder = { name: 'DeferredToolPlaceholder', description: 'x', defer_loading: true };
  const session = (version: string) =>
    [
      J({ type: 'user', uuid: 'p', version, cwd, message: { role: 'user', content: 'hi' } }),
      J({ type: 'attachment', version, attachment: { type: 'deferred_tools_delta', addedNames: ['WebFetch', 'mcp__x__y'], addedLines: [] } }),
      J({ type: 'api-request-shape', version, shapeHash: 'h', shape: { system: [{ type: 'text', text: 'OUR_SECOND_BLOCK' }, { type: 'text', text: main }], tools: [read, fresh, search, holder] } }),
      J({ type: 'api-request', version, id: 'r', shapeHash: 'h', params: { model: 'claude-opus-5-5' }, keep: 0, tail: [] }),
    ].join('\n') + '\n';
  fs.writeFileSync(path.join(dir, 'old.jsonl'), session('2.1.335'));
  fs.writeFileSync(path.join(dir, 'new.jsonl'), session('2.1.999'));
  try {
    const a = analyze({ cwd, home, env: {}, claudeVersion: '2.1.999' });
    const w = transcriptWidthsFor(a, nodeFileAccess);
    assert.ok(w, 'found');
    assert.equal(w.file, path.join(dir, 'new.jsonl'));
    const base = FIRST_REQUESTS['2.1.335']!;
    assert.deepEqual(w.profile.systemBlocks, [base.systemBlocks[0], 'OUR_SECOND_BLOCK'.length], 'the unrecorded first block keeps the profile\'s width');
    assert.equal(w.profile.systemMain['claude-opus-5-5'], main.length - memory.length);
    assert.deepEqual(w.profile.toolSearch, { ...base.toolSearch!, tool: J(search).length, placeholder: J(holder).length });
    assert.deepEqual(w.profile.builtInTools, [['Brand', J(fresh).length], ['Read', J(read).length], ['WebFetch', base.builtInTools.find((t) => t[0] === 'WebFetch')![1], true]]);
    const r = firstRequest(a, { widths: w });
    assert.equal(r.widthsFrom, w.file);
    assert.equal(r.profileVersion, '2.1.999');
    assert.ok(r.exactProfile);
    assert.deepEqual(r.tools.builtIn, ['Brand', 'Read', 'ToolSearch']);
    assert.equal(r.tools.chars, 2 + J(fresh).length + J(read).length + J(search).length + J(holder).length + 3);
    assert.equal(transcriptWidthsFor(analyze({ cwd, home, env: {}, claudeVersion: '2.1.335' }), nodeFileAccess), undefined, 'a profiled version');
    fs.rmSync(path.join(dir, 'new.jsonl'));
    assert.equal(transcriptWidthsFor(a, nodeFileAccess), undefined, 'no transcript of the version: the nearest profile stays');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
