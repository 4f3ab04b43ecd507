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

// The host by feature (issue 34): a few files at the root wire the features (src/host/sidebar/, editor/, …); a feature
// imports another only through that feature's index.ts and only the features its row's "may import" names, as
// eslint.config.mjs's HOST_FEATURES says too; an index.ts loads no `vscode`, so pure modules stay testable without it.
const HOST = path.join(ROOT, 'src', 'host');
const hostFeatures = fs.readdirSync(HOST, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

/** the "may import" cell of the map's row for src/host/<feature>/ */
function mayImport(feature: string): string {
  const row = doc.split('\n').find((l) => l.startsWith(`| \`src/host/${feature}/\` |`));
  assert.ok(row, `docs/architecture.md has no row for src/host/${feature}/`);
  const cells = row.split('|').map((c) => c.trim());
  return cells[cells.length - 2]!;
}

/** relative specifiers a file imports, re-exports or loads; with `runtimeOnly`, not those of `import type`/`export type` */
function specifiers(file: string, runtimeOnly = false): string[] {
  const s = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of s.matchAll(/^(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?'([^']+)'/gm)) if (!(runtimeOnly && m[2])) out.push(m[3]!);
  for (const m of s.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) out.push(m[1]!);
  return out;
}

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => path.join(dir, f));
}

test('the host root keeps at most 8 files, each named on the map, and one folder per feature', () => {
  const files = fs.readdirSync(HOST, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
  assert.ok(files.length <= 8, `src/host/ holds ${files.length} files: ${files.join(', ')}`);
  const row = doc.split('\n').find((l) => l.startsWith('| `src/host/` |')) ?? '';
  const unnamed = files.filter((f) => !row.includes(`\`${f}\``));
  assert.deepEqual(unnamed, [], `files of src/host/ its row does not name: ${unnamed.join(', ')}`);
  assert.ok(hostFeatures.length >= 4, `feature folders of src/host/: ${hostFeatures.join(', ')}`);
});

test('a host feature imports another only through its index.ts, and only those its row of the map names', async () => {
  const { default: config } = (await import(path.join(ROOT, 'eslint.config.mjs'))) as { default: { files?: string[]; rules?: Record<string, unknown> }[] };
  let crossings = 0;
  for (const feature of hostFeatures) {
    const cell = mayImport(feature);
    const named = new Set([...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
    const block = config.find((c) => c.files?.includes(`src/host/${feature}/**/*.ts`) && c.rules?.['no-restricted-imports']);
    assert.ok(block, `eslint.config.mjs has no import rule for src/host/${feature}/`);
    for (const file of tsFiles(path.join(HOST, feature))) {
      const rel = path.relative(ROOT, file);
      for (const spec of specifiers(file)) {
        if (!spec.startsWith('.')) continue;
        const target = path.relative(HOST, path.resolve(path.dirname(file), spec));
        if (target.startsWith('..')) continue; // the engine, webview/protocol.ts, ground-truth: eslint's rules
        const [top, ...rest] = target.split(path.sep);
        if (top === feature) continue;
        crossings++;
        if (rest.length === 0) {
          assert.ok(named.has(top!.replace(/\.js$/, '.ts')), `${rel} imports the host root's ${top}, which its row's "may import" does not name (${cell})`);
        } else {
          assert.equal(rest.join('/'), 'index.js', `${rel} imports ${spec}: another feature's internals, not its index.ts`);
          assert.ok(named.has(`${top}/`), `${rel} imports ${top}/, which its row's "may import" does not name (${cell})`);
        }
      }
    }
    // the same rule in eslint: the features it bars are those the map does not name
    const barred = hostFeatures.filter((f) => f !== feature && !named.has(`${f}/`));
    const patterns = JSON.stringify(block.rules!['no-restricted-imports']);
    for (const f of barred) assert.ok(patterns.includes(f), `eslint.config.mjs lets src/host/${feature}/ import ${f}/, which the map does not name`);
  }
  assert.ok(crossings > 5, `only ${crossings} imports across folders found: the scan is broken`);
});

test("a host feature's index.ts loads no vscode, through its runtime imports", () => {
  const seen = new Set<string>();
  for (const feature of hostFeatures) {
    const index = path.join(HOST, feature, 'index.ts');
    if (!fs.existsSync(index)) continue;
    const visit = (file: string, via: string[]): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const spec of specifiers(file, true)) {
        assert.notEqual(spec, 'vscode', `${[...via, path.relative(ROOT, file)].join(' → ')} loads vscode`);
        if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')), [...via, path.relative(ROOT, file)]);
      }
    };
    visit(index, []);
  }
  assert.ok([...seen].some((f) => f.endsWith(path.join('sidebar', 'row-ids.ts'))), `the walk did not reach sidebar/row-ids.ts: ${seen.size} files`);
});
