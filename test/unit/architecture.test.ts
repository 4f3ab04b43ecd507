// docs/architecture.md is the map of the rooms: every folder of src/ and webview/ that exists is named
// there (as `src/engine/globs/`, in backquotes), and the engine's root keeps only its front door and
// what every folder shares (issue 20: at most 10 files). A new folder fails here until the map names it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(__dirname, '..', '..');
const doc = fs.readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');

function folders(rel: string): string[] {
  const out = [rel];
  for (const e of fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true }))
    if (e.isDirectory() && !e.name.startsWith('.')) out.push(...folders(`${rel}/${e.name}`));
  return out;
}

test('docs/architecture.md names every folder of src/ and webview/', () => {
  const all = [...folders('src'), ...folders('webview')].filter((f) => f !== 'src');
  assert.ok(all.includes('src/engine') && all.includes('webview'), `folders found: ${all.join(', ')}`);
  const missing = all.filter((f) => !doc.includes(`\`${f}/\``));
  assert.deepEqual(missing, [], `not named in docs/architecture.md: ${missing.join(', ')}`);
});

test('the engine root keeps at most 10 files, each named on the map', () => {
  const files = fs.readdirSync(path.join(ROOT, 'src', 'engine'), { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
  assert.ok(files.length <= 10, `src/engine/ holds ${files.length} files: ${files.join(', ')}`);
  const unnamed = files.filter((f) => !doc.includes(`\`${f}\``));
  assert.deepEqual(unnamed, [], `files of src/engine/ the map does not name: ${unnamed.join(', ')}`);
});

test('the map names the five common changes and the three paths of data', () => {
  for (const h of ['A new Claude Code release', 'A new lint rule', 'A new sidebar section', 'A new session step kind', 'A new CLI flag', 'The sidebar for the active file', '`lint`', 'A session, predicted and live'])
    assert.ok(doc.includes(`**${h}.**`), `docs/architecture.md has no paragraph "${h}"`);
});
