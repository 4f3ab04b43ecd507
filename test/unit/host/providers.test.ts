// The vscode adapters against the fake vscode API: Problems-panel diagnostics (with the @import's
// range), quick fixes, the webview HTML's CSP, the sidebar refusing paths it did not list, and
// claudePath read from user settings only.
import './vscode-fake.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analyze } from '../../../src/engine/index.js';
import { claudePathSetting } from '../../../src/host/config.js';
import { englishT } from '../../../src/host/format.js';
import { codeSpan, FrontmatterCompletionProvider, GlobHoverProvider, ImportLinkProvider, publishDiagnostics, QuickFixProvider, type HostContext } from '../../../src/host/editor/providers.js';
import { detectVersion, findOnPath } from '../../../src/host/workspace/version-detect.js';
import { SidebarProvider, webviewHtml } from '../../../src/host/sidebar/sidebar.js';
import { PROTOCOL_VERSION, type ViewState } from '../../../webview/protocol.js';
import { makeTree } from '../../helpers/fixture.js';
import { WorkspaceIndex } from '../../../src/host/workspace/workspace-index.js';
import YAML from 'yaml';
import { foldersOf, literalPrefix, nearestFolder } from '../../../src/host/editor/quick-fix-edits.js';
import { inlineCosts } from '../../../src/host/editor/decorations.js';
import { DiagnosticCollection, state, textDocument, Uri, type WorkspaceEdit } from './vscode-fake.js';

function host(a?: ReturnType<typeof analyze>): HostContext {
  return {
    analysisFor: () => a,
    folderFor: () => undefined,
    modelFor: () => 'claude-opus-5-5',
    index: undefined as never,
    probes: () => [],
    t: englishT,
    locale: 'en',
    onDidChange: () => ({ dispose() {} }),
  };
}

test('engine diagnostics reach the Problems panel, an include problem on its @path', () => {
  const t = makeTree({ 'repo/CLAUDE.md': '# Root\n\nSee @docs/gone.md for more.\n' });
  try {
    const a = analyze({ cwd: t.p('repo'), home: t.p('home'), env: {}, managedDir: t.p('none') });
    const col = new DiagnosticCollection();
    publishDiagnostics(col as never, [{ analysis: a, diagnostics: a.diagnostics }, { analysis: a, diagnostics: a.diagnostics }]);
    const list = col.entries.get(t.p('repo/CLAUDE.md'));
    assert.equal(list?.length, 1, 'one diagnostic, deduplicated across analyses');
    const d = list[0]!;
    assert.equal(d.code, 'include-missing');
    assert.equal(d.source, 'Claude Context Layers');
    assert.deepEqual([d.range.start.line, d.range.start.character, d.range.end.character], [2, 4, 17]);
  } finally {
    t.cleanup();
  }
});

test('Problems panel: a file name with control characters or a bidi override reaches the message as visible escapes', () => {
  const t = makeTree({ 'repo/.git/HEAD': 'ref: refs/heads/main\n', 'repo/CLAUDE.md': '# x\n\n@docs/gone\u001b[2J\u202e.md\n' });
  try {
    const a = analyze({ cwd: t.p('repo'), home: t.p('home'), env: {}, managedDir: t.p('none') });
    const col = new DiagnosticCollection();
    publishDiagnostics(col as never, [{ analysis: a, diagnostics: a.diagnostics }]);
    const d = col.entries.get(t.p('repo/CLAUDE.md'))?.[0];
    assert.ok(d, 'the missing include is reported');
    assert.match(d.message, /gone\\x1b\[2J\\u202e\.md/);
    assert.doesNotMatch(d.message, /[\u0000-\u001f\u202e]/);
  } finally {
    t.cleanup();
  }
});

test('quick fixes: globs: → paths:, the case of claude.md, MEMORY.md past the cut', () => {
  const qf = new QuickFixProvider(host());
  const rule = textDocument('/r/.claude/rules/x.md', '---\nglobs: src/**\n---\nbody');
  const [fix] = qf.provideCodeActions(rule as never, { start: { line: 1 } } as never);
  assert.match(fix!.title, /Rename globs: to paths:/);
  const e = (fix!.edit as unknown as WorkspaceEdit).edits[0]!;
  // a string becomes a list: VS Code's own validator wants an array, and Claude Code reads the same patterns
  assert.equal(e.kind === 'replace' && e.text, 'paths: ["src/**"]');
  const applied = (doc: string, edit: WorkspaceEdit) => {
    const lines = doc.split('\n');
    for (const x of [...edit.edits].reverse()) {
      if (x.kind !== 'replace') continue;
      const l = lines[x.range.start.line]!;
      lines[x.range.start.line] = l.slice(0, x.range.start.character) + x.text + l.slice(x.range.end.character);
    }
    return lines.join('\n');
  };
  const fm = (doc: string) => YAML.parse(doc.split('---')[1]!) as Record<string, unknown>;
  const two = textDocument('/r/.claude/rules/y.md', '---\nglobs: "src/**/*.ts, {a,b}/*.md"\n---\nbody');
  const [fix2] = qf.provideCodeActions(two as never, { start: { line: 1 } } as never);
  assert.deepEqual(fm(applied(two.getText(), fix2!.edit as unknown as WorkspaceEdit)), { paths: ['src/**/*.ts', '{a,b}/*.md'] });
  const listed = textDocument('/r/.claude/rules/z.md', '---\nglobs:\n  - src/**\n---\nbody');
  const [fix3] = qf.provideCodeActions(listed as never, { start: { line: 1 } } as never);
  assert.deepEqual(fm(applied(listed.getText(), fix3!.edit as unknown as WorkspaceEdit)), { paths: ['src/**'] }, 'a list stays a list');

  // paths: as a string → a list; a leading ./ removed
  const str = textDocument('/r/.claude/rules/s.md', '---\npaths: ./src/**, docs/*.md\n---\nbody');
  const fixes = qf.provideCodeActions(str as never, { start: { line: 1 }, end: { line: 1 } } as never);
  assert.deepEqual(fixes.map((f) => f.title), ['Write paths: as a YAML list (saves the file)', 'Remove the leading ./ (patterns are relative to the folder that holds .claude) (saves the file)']);
  assert.deepEqual(fixes.map((f) => f.command?.command), ['claudeLayers.saveAfterFix', 'claudeLayers.saveAfterFix'], 'each fix saves the file after its edit');
  assert.deepEqual(fm(applied(str.getText(), fixes[0]!.edit as unknown as WorkspaceEdit)), { paths: ['./src/**', 'docs/*.md'] });
  assert.equal(applied(str.getText(), fixes[1]!.edit as unknown as WorkspaceEdit).split('\n')[1], 'paths: src/**, docs/*.md');
  const flow = textDocument('/r/.claude/rules/f.md', '---\npaths: ["src/**"]\n---\nbody');
  assert.deepEqual(qf.provideCodeActions(flow as never, { start: { line: 1 } } as never), [], 'a list needs no fix');

  const lower = textDocument('/r/pkg/claude.md', 'x');
  const [ren] = qf.provideCodeActions(lower as never, { start: { line: 0 } } as never);
  const r = (ren!.edit as unknown as WorkspaceEdit).edits[0]!;
  assert.equal(r.kind === 'rename' && r.to.fsPath, path.resolve('/r/pkg/CLAUDE.md'));

  const ok = textDocument('/r/pkg/CLAUDE.md', 'x');
  assert.deepEqual(qf.provideCodeActions(ok as never, { start: { line: 0 } } as never), []);

  const t = makeTree({ 'repo/.git/HEAD': 'ref: refs/heads/main\n', 'repo/x.ts': '' });
  try {
    const a0 = analyze({ cwd: t.p('repo'), home: t.p('home'), env: {}, managedDir: t.p('none') });
    const memDir = a0.memory.location.dir;
    const raw = Array.from({ length: 205 }, (_, i) => `- entry ${i + 1}`).join('\n');
    fs.mkdirSync(memDir, { recursive: true });
    fs.writeFileSync(path.join(memDir, 'MEMORY.md'), raw);
    const a = analyze({ cwd: t.p('repo'), home: t.p('home'), env: {}, managedDir: t.p('none') });
    const mem = textDocument(path.join(memDir, 'MEMORY.md'), raw);
    const [move] = new QuickFixProvider(host(a)).provideCodeActions(mem as never, { start: { line: 0 } } as never);
    assert.equal(move!.title, 'Move lines 201-205 into the topic file overflow.md (moves 1 line before the cut to make room) (preview)', "the diagnostic's own lines");
    const edits = (move!.edit as unknown as WorkspaceEdit).edits;
    assert.deepEqual(edits.map((x) => x.kind), ['create', 'create', 'insert', 'replace']);
    // VS Code opens the Refactor Preview when an entry needs confirmation and starts such entries
    // unchecked: only a no-op entry (MEMORY.md, which exists, created with ignoreIfExists, left out of
    // the preview's list) asks for it, so the move's own entries start checked and Apply moves the lines
    const meta = (move!.edit as unknown as WorkspaceEdit).meta;
    const [anchor, ...move3] = edits;
    assert.ok(anchor!.kind === 'create' && anchor!.uri.fsPath === path.join(memDir, 'MEMORY.md') && anchor!.options?.ignoreIfExists === true && !anchor!.options.overwrite, 'the confirming entry creates nothing: MEMORY.md exists');
    assert.equal(meta[0]?.needsConfirmation, true, 'the preview opens first: the user confirms there');
    assert.deepEqual(meta.slice(1).map((m) => m?.needsConfirmation ?? false), [false, false, false], 'the move itself starts checked');
    assert.ok(move3[0]!.kind === 'create' && move3[0]!.uri.fsPath === path.join(memDir, 'overflow.md') && move3[0]!.options?.ignoreIfExists === true);
    assert.ok(move3[1]!.kind === 'insert' && move3[1]!.text === `${raw.split('\n').slice(199).join('\n')}\n`, 'lines 200-205 go to the topic file');
    assert.ok(move3[2]!.kind === 'replace' && move3[2]!.text.includes('](overflow.md)'), 'a link to it stays in MEMORY.md');
  } finally {
    t.cleanup();
  }
});

test('the folder a dead glob meant: only when one existing folder obviously fits', () => {
  assert.equal(literalPrefix('lib/legacy/**'), 'lib/legacy');
  assert.equal(literalPrefix('src/**/*.ts'), 'src');
  assert.equal(literalPrefix('**/*.ts'), '');
  assert.equal(literalPrefix('docs'), 'docs');
  assert.equal(literalPrefix('README.md'), '');
  const dirs = foldersOf(['src/lib/legacy/a.ts', 'src/api/client.ts', 'Docs/x.md', 'a/web/x', 'b/web/y']);
  assert.ok(dirs.has('src/lib/legacy') && dirs.has('src/lib') && dirs.has('src'));
  assert.equal(nearestFolder('lib/legacy', dirs), 'src/lib/legacy', 'the only folder ending with the prefix');
  assert.equal(nearestFolder('docs', dirs), 'Docs', 'the same path in another case');
  assert.equal(nearestFolder('web', dirs), undefined, 'two folders named web: not obvious');
  assert.equal(nearestFolder('src/api', dirs), undefined, 'exists: nothing to fix');
  assert.equal(nearestFolder('nowhere/else', dirs), undefined);
});

test('webview HTML: strict CSP with a nonce, no inline script, resources from the extension only', () => {
  const ext = Uri.file('/ext');
  const html = webviewHtml({ cspSource: 'vscode-resource:', asWebviewUri: (u: Uri) => u } as never, ext as never, 'N0NCE', 'T<itle>');
  const csp = /Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!;
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'nonce-N0NCE'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.equal(scripts.length, 1);
  assert.match(scripts[0]![1]!, /nonce="N0NCE" src="file:\/\/\/ext\/dist\/webview\.js"/);
  assert.equal(scripts[0]![2], '', 'no inline script body');
  assert.doesNotMatch(html, /\son[a-z]+=/i, 'no inline event handler');
  assert.match(html, /<title>T&#60;itle&#62;<\/title>/);
});

test('the sidebar validates messages and opens only paths it listed', () => {
  const opened: string[] = [];
  const commands: string[] = [];
  const sidebar = new SidebarProvider(Uri.file('/ext') as never, { open: (p) => opened.push(p), command: (c) => commands.push(c), visible: () => {} }, 'T');
  let onMessage: (m: unknown) => void = () => {};
  const posted: unknown[] = [];
  const view = {
    visible: true,
    webview: {
      options: {},
      html: '',
      cspSource: 'x',
      asWebviewUri: (u: Uri) => u,
      onDidReceiveMessage: (l: (m: unknown) => void) => ((onMessage = l), { dispose() {} }),
      postMessage: (m: unknown) => (posted.push(m), Promise.resolve(true)),
    },
    onDidChangeVisibility: () => ({ dispose() {} }),
    onDidDispose: () => ({ dispose() {} }),
  };
  sidebar.resolveWebviewView(view as never);
  const opts = view.webview.options as { localResourceRoots: Uri[]; enableScripts: boolean };
  assert.deepEqual(opts.localResourceRoots.map((u) => u.fsPath), ['/ext/dist', '/ext/media']);
  const st: ViewState = {
    header: { version: 'v', model: 'm', launchDir: '/r', change: { command: 'configure', label: 'c' } },
    gaugesTitle: 'g',
    gauges: [],
    sections: [{ id: 'startup', title: 's', open: true, rows: [{ id: '1', label: 'CLAUDE.md', aria: 'a', path: '/r/CLAUDE.md' }] }],
  };
  sidebar.update(st);
  const sent = posted.at(-1) as { sentAt?: number };
  assert.ok(typeof sent.sentAt === 'number' && sent.sentAt <= Date.now(), 'the time it was sent (the e2e measures the latency with it)');
  assert.deepEqual({ ...sent, sentAt: 0 }, { type: 'state', version: PROTOCOL_VERSION, state: st, seq: 1, sentAt: 0 });
  onMessage({ type: 'open', path: '/etc/passwd' });
  onMessage({ type: 'open', path: '/r/CLAUDE.md', line: 0 });
  onMessage({ type: 'open', path: '/r/CLAUDE.md', line: 3 });
  onMessage({ type: 'command', command: 'workbench.action.terminal.new' });
  onMessage({ type: 'command', command: 'refresh' });
  onMessage('not an object');
  assert.deepEqual(opened, ['/r/CLAUDE.md']);
  assert.deepEqual(commands, ['refresh']);

  // an editor switch changes a section: only that section travels; a new page gets everything
  const st2: ViewState = { ...st, sections: [{ ...st.sections[0]!, title: 's2' }] };
  sidebar.update(st2, 123);
  const patch = posted.at(-1) as { type: string; sections: unknown[]; eventAt?: number };
  assert.equal(patch.type, 'sections');
  assert.deepEqual(patch.sections, st2.sections);
  assert.equal(patch.eventAt, 123);
  const n = posted.length;
  sidebar.update(st2);
  assert.equal(posted.length, n, 'nothing changed: nothing sent');
  onMessage({ type: 'ready' });
  assert.equal((posted.at(-1) as { type: string }).type, 'state');
});

test('claudePath comes from user settings only, never from the workspace', () => {
  state.inspect['claudeLayers.claudePath'] = { workspaceValue: '/ws/evil', workspaceFolderValue: '/ws/evil2' };
  assert.equal(claudePathSetting(), undefined);
  state.inspect['claudeLayers.claudePath'] = { globalValue: '/usr/local/bin/claude', workspaceValue: '/ws/evil' };
  assert.equal(claudePathSetting(), '/usr/local/bin/claude');
});

test('untrusted text in hovers goes into code spans that cannot be broken out of', () => {
  assert.equal(codeSpan('src/**'), '` src/** `');
  assert.equal(codeSpan('a`b'), '`` a`b ``');
  assert.equal(codeSpan('x\n[link](http://e)'), '` x [link](http://e) `');
});

test('glob hover, @import links and frontmatter completion through the providers', () => {
  const t = makeTree({
    'repo/.claude/rules/api.md': '---\npaths: ["src/api/**", "./src/**"]\n---\nAPI',
    'repo/.claude/skills/rc/SKILL.md': '---\nname: rc\n---\nbody',
    'repo/CLAUDE.md': 'See @docs/a.md\n',
    'repo/src/api/a.ts': '',
    'repo/src/api/b.ts': '',
    'repo/src/api/gen/out.ts': '',
    'repo/.gitignore': 'gen/\n',
    'repo/src/web/c.ts': '',
  });
  try {
    const a = analyze({ cwd: t.p('repo'), home: t.p('home'), env: {}, managedDir: t.p('none') });
    const index = new WorkspaceIndex();
    const ctx: HostContext = { ...host(a), folderFor: () => ({ uri: Uri.file(t.p('repo')), name: 'repo' }) as never, index, probes: () => [t.p('repo/src/web/c.ts')] };
    const rule = textDocument(t.p('repo/.claude/rules/api.md'), fs.readFileSync(t.p('repo/.claude/rules/api.md'), 'utf8'));
    const hover = new GlobHoverProvider(ctx).provideHover(rule as never, { line: 1, character: 12 } as never);
    const md = (hover!.contents as unknown as { value: string }).value;
    assert.match(md, /\*\*2 workspace files match\*\*/, 'git-ignored src/api/gen/out.ts is not counted');
    assert.match(md, /as git lists them: \\\.gitignore and files\\\.exclude are honoured/, 'the hover says that .gitignore and files.exclude are honoured');
    assert.match(md, /- ` src\/api\/a\.ts `\n- ` src\/api\/b\.ts `/);
    assert.match(md, /` src\/web\/c\.ts ` \(the file you came from\): does not match/);
    const dot = new GlobHoverProvider(ctx).provideHover(rule as never, { line: 1, character: 25 } as never);
    assert.match((dot!.contents as unknown as { value: string }).value, /⚠ \\\.\/src never matches/, 'the warning, escaped as text');
    assert.equal(new GlobHoverProvider(ctx).provideHover(rule as never, { line: 3, character: 1 } as never), undefined, 'body text has no hover');

    const links = new ImportLinkProvider(ctx).provideDocumentLinks(textDocument(t.p('repo/CLAUDE.md'), 'See @docs/a.md\n') as never);
    assert.deepEqual(links.map((l) => [(l.target as unknown as Uri).fsPath, l.range.start.character, l.range.end.character]), [[t.p('repo/docs/a.md'), 5, 14]]);

    const skill = textDocument(t.p('repo/.claude/skills/rc/SKILL.md'), '---\nname: rc\nde\n---\nbody');
    const items = new FrontmatterCompletionProvider(ctx).provideCompletionItems(skill as never, { line: 2, character: 2 } as never);
    const labels = items.map((i) => i.label);
    assert.ok(labels.includes('description') && labels.includes('paths') && !labels.includes('name'), JSON.stringify(labels));
    const ruleItems = new FrontmatterCompletionProvider(ctx).provideCompletionItems(textDocument(t.p('repo/.claude/rules/x.md'), '---\n\n---\n') as never, { line: 1, character: 0 } as never);
    assert.deepEqual(ruleItems.map((i) => i.label), ['paths']);
    assert.deepEqual(new FrontmatterCompletionProvider(ctx).provideCompletionItems(skill as never, { line: 4, character: 0 } as never), [], 'no completion outside the frontmatter');
  } finally {
    t.cleanup();
  }
});

test('claude --version runs only in a trusted workspace, without a shell', async () => {
  const t = makeTree({ 'bin/claude': { mode: 0o755, content: '#!/bin/sh\necho "2.1.328 (Claude Code)"\n' } });
  try {
    assert.deepEqual(await detectVersion(false, t.p('bin/claude')), { error: 'workspace not trusted: nothing is run', reason: 'untrusted' });
    assert.deepEqual(await detectVersion(true, t.p('bin/claude')), { version: '2.1.328', executable: t.p('bin/claude') });
    assert.match((await detectVersion(true, 'relative/claude')).error!, /absolute/);
    assert.equal(findOnPath('claude', `relative:${t.p('bin')}`), t.p('bin/claude'));
  } finally {
    t.cleanup();
  }
});

test('inline costs: an eager @import, a rule whose paths: match a file, a rule that never loads', () => {
  const t = makeTree({
    'repo/.git/HEAD': 'ref: refs/heads/main\n',
    'repo/CLAUDE.md': '# Demo\n\n@docs/testing.md\n',
    'repo/docs/testing.md': 'Run pnpm test.\n',
    'repo/.claude/rules/api.md': '---\npaths: ["src/api/**"]\n---\nAPI RULE body\n',
    'repo/.claude/rules/dead.md': '---\npaths: ["lib/**"]\n---\nDEAD\n',
    'repo/src/api/client.ts': 'x',
  });
  try {
    const a = analyze({ cwd: t.p('repo'), home: t.p('home'), env: {}, managedDir: t.p('none'), claudeVersion: '2.1.328' });
    const h = { modelFor: () => 'claude-opus-5-5', t: englishT, locale: 'en', matchOne: (_b: string, p: readonly string[]) => (p[0]!.startsWith('src/api') ? t.p('repo/src/api/client.ts') : undefined) };
    const imp = inlineCosts(a, t.p('repo/CLAUDE.md'), fs.readFileSync(t.p('repo/CLAUDE.md'), 'utf8'), h);
    const entry = a.startup.find((e) => e.path === t.p('repo/docs/testing.md'))!;
    assert.deepEqual(imp.map((c) => [c.line, c.text]), [[2, `${entry.text.length} chars · ≈${Math.ceil(entry.text.length / 3)} tokens · eager`]], 'the same chars as the sidebar row');
    const rule = inlineCosts(a, t.p('repo/.claude/rules/api.md'), fs.readFileSync(t.p('repo/.claude/rules/api.md'), 'utf8'), h);
    const inj = a.lazyFor(t.p('repo/src/api/client.ts'), 'Read')[0]!;
    assert.deepEqual(rule.map((c) => [c.line, c.text]), [[1, `${inj.text.length} chars · ≈${Math.ceil(inj.text.length / 3)} tokens · on a matching Read`]]);
    const dead = inlineCosts(a, t.p('repo/.claude/rules/dead.md'), fs.readFileSync(t.p('repo/.claude/rules/dead.md'), 'utf8'), h);
    assert.deepEqual(dead.map((c) => c.text), ['no file matches: never loads']);
  } finally {
    t.cleanup();
  }
});

test('the MEMORY.md move keeps the lost topic links in the index and moves other lines to make room', async () => {
  const { memoryMove } = await import('../../../src/host/editor/quick-fix-edits.js');
  const lines = [...Array.from({ length: 200 }, (_, i) => `- entry ${i + 1}`), '- [Gateway retry policy](gateway-retry.md)', '- entry 202', '- [Auth](auth.md#top)', '- entry 204'];
  const m = memoryMove(lines, { from: 201, to: 204 }, '- [More notes](overflow.md)')!;
  assert.deepEqual(m.topic, ['- entry 198', '- entry 199', '- entry 200', '- entry 202', '- entry 204'], 'three lines before the cut make room for two links and the pointer');
  assert.equal(m.start, 197);
  assert.deepEqual(m.index, ['- [Gateway retry policy](gateway-retry.md)', '- [Auth](auth.md#top)', '- [More notes](overflow.md)']);
  const after = [...lines.slice(0, m.start), ...m.index];
  assert.equal(after.length, 200, 'the index fits in 200 lines');
  assert.ok(after.includes('- [Gateway retry policy](gateway-retry.md)'), 'the lost link is kept in the index');
  assert.equal(memoryMove(['- [a](a.md)'], { from: 1, to: 1 }, 'p'), undefined, 'nothing to move to make room');
});
