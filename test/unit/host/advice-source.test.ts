// Priced advice in the editor (src/host/editor/advice-source.ts): a rule without paths whose text names a
// folder of the project gets an information finding saying, in the CLI's wording (savingText), what
// `paths:` saves over the sessions of fixture transcripts written here (our own content); the quick fix
// adds that `paths:` and says the saving in its title; both in English and with the zh-cn bundle.
import './vscode-fake.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import YAML from 'yaml';
import { analyze, memoryKey, savingText } from '../../../src/engine/index.js';
import { englishT, type Translate } from '../../../src/host/format.js';
import { AdviceSource, pathsInsertion, RULE_COST, ruleCostFixTitle } from '../../../src/host/editor/advice-source.js';
import { publishDiagnostics, QuickFixProvider, type HostContext } from '../../../src/host/editor/providers.js';
import { DiagnosticCollection, textDocument, type WorkspaceEdit } from './vscode-fake.js';

const ROOT = path.resolve(__dirname, '../../..');
const zh = JSON.parse(fs.readFileSync(path.join(ROOT, 'l10n/bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;
/** vscode.l10n.t with the zh-cn bundle */
const zhT: Translate = (m, ...args) => (zh[m] ?? m).replace(/\{(\d+)\}/g, (x, i: string) => (args[Number(i)] !== undefined ? String(args[Number(i)]) : x));

function fixture() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-host-advice-')));
  const repo = path.join(root, 'repo');
  const home = path.join(root, 'home');
  const rule = path.join(repo, '.claude', 'rules', 'api.md');
  const files: Record<string, string> = {
    '.claude/rules/api.md': 'Handlers in `src/api/` validate their input with the shared schema.\n',
    '.claude/rules/tone.md': '---\ndescription: tone\n---\nAnswer briefly.\n',
    'src/api/orders.ts': 'export {};\n',
    'src/cart.ts': 'export {};\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    fs.writeFileSync(path.join(repo, rel), text);
  }
  const dir = path.join(home, '.claude', 'projects', memoryKey(repo));
  fs.mkdirSync(dir, { recursive: true });
  let n = 0;
  const rec = (id: string, day: string, content: unknown[]) =>
    JSON.stringify({ type: 'assistant', sessionId: id, uuid: `u${++n}`, parentUuid: null, cwd: repo, timestamp: `${day}T10:0${n % 10}:00.000Z`, message: { id: `m${n}`, role: 'assistant', model: 'claude-opus-4-5-20251101', content, usage: { input_tokens: 1, output_tokens: 1 } } });
  const read = (f: string) => [{ type: 'tool_use', id: `t${n}`, name: 'Read', input: { file_path: path.join(repo, f) } }];
  fs.writeFileSync(path.join(dir, 'a.jsonl'), [rec('a', '2026-11-20', read('src/api/orders.ts')), rec('a', '2026-11-20', [{ type: 'text', text: 'ok' }])].join('\n') + '\n');
  fs.writeFileSync(path.join(dir, 'b.jsonl'), [rec('b', '2026-11-22', read('src/cart.ts')), rec('b', '2026-11-22', [{ type: 'text', text: 'ok' }])].join('\n') + '\n');
  fs.writeFileSync(path.join(dir, 'c.jsonl'), [rec('c', '2026-11-27', [{ type: 'text', text: 'hi' }])].join('\n') + '\n');
  return { root, repo, home, rule, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

const settle = () => new Promise((r) => setTimeout(r, 5));

test('the finding: tokens only until the sessions are read, then relevant to K of N with the saving; the quick fix adds paths:', async () => {
  const f = fixture();
  try {
    const a = analyze({ cwd: f.repo, home: f.home, env: { HOME: f.home }, managedDir: path.join(f.root, 'none'), claudeVersion: '2.1.333' });
    let ready = 0;
    const src = new AdviceSource(() => ready++);
    const first = src.diagnostics(a, englishT);
    assert.equal(first.length, 1, 'the rule naming src/api/ only (tone.md names nothing of the project)');
    assert.equal(first[0]!.rule, RULE_COST);
    assert.match(first[0]!.message, /^A rule without paths: ≈\d+ tokens at every session start; paths: \[src\/api\/\*\*\] would load it only when a matching file is read$/);
    await settle();
    assert.equal(ready, 1, 'the sessions were read in the background, and the findings published again');
    const [d] = src.diagnostics(a, englishT);
    const item = src.ruleItem(a, f.rule)!;
    assert.deepEqual(item.sessions, { read: 3, used: 1 });
    assert.equal(d!.message, `A rule without paths: ≈${item.tokensPerStart} tokens at every session start, relevant to 1 of the last 3 sessions (the files they read); paths: [src/api/**] ${savingText(item.saving!, 3)}`);
    assert.match(d!.message, /saves ≈\d+ tokens per session \(\$0\.\d+\), about \$0\.\d+ a week$/);
    // zh-cn: the same figures in the translated templates
    const [dz] = src.diagnostics(a, zhT);
    assert.match(dz!.message, /^没有 paths: 的规则：每次会话启动约 \d+ 个 token，最近 3 个会话中有 1 个与它相关（按它们读取的文件）；paths: \[src\/api\/\*\*\] 每个会话节省约 \d+ 个 token \(\$0\.\d+\), 每周约 \$0\.\d+$/);

    // the Problems panel shows it on line 1 of the rule
    const col = new DiagnosticCollection();
    publishDiagnostics(col as never, [{ analysis: a, diagnostics: src.diagnostics(a, englishT) }]);
    assert.equal(col.entries.get(f.rule)?.[0]?.code, RULE_COST);

    // the quick fix: the saving in its title, a frontmatter with the paths: list
    const host: HostContext = { analysisFor: () => a, folderFor: () => undefined, modelFor: () => 'x', index: undefined as never, probes: () => [], ruleAdvice: (uri) => src.ruleItem(a, uri.fsPath), t: englishT, locale: 'en', onDidChange: () => ({ dispose() {} }) };
    const doc = textDocument(f.rule, fs.readFileSync(f.rule, 'utf8'));
    const fixes = new QuickFixProvider(host).provideCodeActions(doc as never, { start: { line: 0 } } as never);
    const fix = fixes.find((x) => x.title.startsWith('Add paths:'))!;
    assert.equal(fix.title, `${ruleCostFixTitle(item, englishT)} (saves the file)`);
    assert.match(fix.title, /^Add paths: \[src\/api\/\*\*\] \(saves ≈\d+ tokens per session \(\$0\.\d+\), about \$0\.\d+ a week\) \(saves the file\)$/);
    const e = (fix.edit as unknown as WorkspaceEdit).edits[0]!;
    assert.ok(e.kind === 'insert');
    const after = e.text + doc.getText();
    assert.deepEqual(YAML.parse(after.split('---')[1]!), { paths: ['src/api/**'] });
    assert.match(ruleCostFixTitle(item, zhT), /^添加 paths: \[src\/api\/\*\*\]（每个会话节省约 \d+ 个 token/);
    // a rule that has a frontmatter: the list goes inside it
    assert.equal(pathsInsertion(['src/api/**', 'db.ts'], true), 'paths:\n  - "src/api/**"\n  - "db.ts"\n');
  } finally {
    f.cleanup();
  }
});
