// `claude-layers render … --json` on the demo, as a process: the contract's shape and meaning.
import { after, before, test } from 'node:test';
import { NEWEST_PROFILE } from '../../src/engine/index.js';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { assertNoStack, demo, run } from './helpers.js';

let d: Awaited<ReturnType<typeof demo>>;
before(async () => {
  d = await demo();
});
after(() => d.cleanup());

test('render --json: startup entries joined into the text, touches as one session', () => {
  const client = path.join(d.repo, 'src/api/client.ts');
  const r = run(['render', ...d.flags, '--touch', `Read:${client}`, '--touch', `Edit:${client}`, '--touch', `Read:${path.join(d.repo, 'packages/web/src/App.tsx')}`, '--json']);
  assertNoStack(r);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout) as {
    claudeVersion: string;
    instructions: { text: string; entries: { path: string; type: string; text: string }[] };
    touches: { tool: string; path: string; injected: { path: string; text: string }[] }[];
    diagnostics: unknown[];
  };
  assert.equal(j.claudeVersion, NEWEST_PROFILE.version); // no --claude-version and no binary: the newest profile
  const entries = j.instructions.entries;
  assert.ok(j.instructions.text.startsWith('Codebase and user instructions are shown below.'));
  assert.ok(j.instructions.text.endsWith(entries.map((e) => e.text).join('\n\n')), 'the text ends with the entries joined by a blank line');
  assert.deepEqual(entries.map((e) => e.type), ['User', 'Project', 'Project', 'Project', 'Project', 'AutoMem']);
  assert.ok(entries[1]!.text.startsWith(`Contents of ${path.join(d.repo, 'CLAUDE.md')} (project instructions, checked into the codebase):\n\n# Acme Gateway`));
  assert.match(entries[5]!.text, /> WARNING: MEMORY\.md is 228 lines \(limit: 200\)\. Only part of it was loaded: 28 of 228 lines were cut off, starting at line 201/);
  assert.deepEqual(j.touches.map((t) => t.injected.map((i) => path.relative(d.repo, i.path))), [['.claude/rules/api.md'], [], ['packages/web/CLAUDE.md']]);
  assert.ok(j.touches[0]!.injected[0]!.text.startsWith(`Contents of ${path.join(d.repo, '.claude/rules/api.md')}:\n\n# API client rules`));
});
