// Auto-memory (memory spec A1–A4): folder key, switches, custom folders, processing, the cut and
// its warning per version, and the gauge figures (cut line mapped to the file, lost entries).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../src/engine/index.js';
import { resolveEnvironment } from '../../src/engine/environment.js';
import { DiagnosticSink } from '../../src/engine/diagnostics.js';
import { loadSettings } from '../../src/engine/settings.js';
import {
  mapLinesToRaw, memoryEnabled, memoryIndex, memoryKey, memoryLocation, memoryPreview, processMemoryText, truncateMemory, validMemoryDir,
} from '../../src/engine/memory/memory.js';
import { chooseProfile } from '../../src/engine/profiles.js';
import { makeTree } from '../helpers/fixture.js';

const P328 = chooseProfile('2.1.328').profile;
const P235 = chooseProfile('2.1.235').profile;

function lines(n: number, width: number, tag: string, fill = 'a'): string {
  return Array.from({ length: n }, (_, i) => {
    const head = `MK${tag}${i + 1} `;
    return head + fill.repeat(Math.max(0, width - head.length)).slice(0, Math.max(0, width - head.length));
  }).join('\n');
}

function envOf(root: string, cwd: string, extra: Record<string, string> = {}, flagSettings?: Record<string, unknown>) {
  const env = resolveEnvironment({ cwd: path.join(root, cwd), home: path.join(root, 'home'), env: { HOME: path.join(root, 'home'), ...extra }, flagSettings });
  return { env, settings: loadSettings(env, new DiagnosticSink()) };
}

test('memory key: every non-alphanumeric UTF-16 unit becomes -, an astral character two', () => {
  assert.equal(memoryKey('/w/repoA'), '-w-repoA');
  assert.equal(memoryKey('/w/paths/my.repo_x y-ü日本'), '-w-paths-my-repo-x-y----');
  assert.equal(memoryKey('/w/paths/e😀x'), '-w-paths-e--x');
});

test('memory key over 200 units: first 200 sanitized units, -, base-36 Java hash of the raw path', () => {
  const raw = `/w/${'a'.repeat(120)}/${'b'.repeat(100)}_x😀`;
  const k = memoryKey(raw);
  let h = 0;
  for (let i = 0; i < raw.length; i++) h = ((h << 5) - h + raw.charCodeAt(i)) | 0;
  assert.equal(k, `${raw.replace(/[^a-zA-Z0-9]/g, '-').slice(0, 200)}-${Math.abs(h).toString(36)}`);
  assert.equal(k.length, 201 + Math.abs(h).toString(36).length);
});

test('memory folder: git root of a subfolder, main repository of a worktree, real path of a symlinked launch dir', () => {
  const t = makeTree({ 'repo/sub/deeper/x': 'x', 'home/.keep': '', 'plain/child/x': 'x' });
  try {
    const git = (args: string[], cwd: string) => execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'user.email=a@b', '-c', 'user.name=n', ...args], { cwd, stdio: 'pipe' });
    git(['init', '-q'], t.p('repo'));
    git(['commit', '-q', '--allow-empty', '-m', 'i'], t.p('repo'));
    git(['worktree', 'add', '-q', t.p('wt')], t.p('repo'));
    fs.symlinkSync(t.p('repo'), t.p('link'));
    const key = memoryKey(t.p('repo'));
    for (const cwd of ['repo', 'repo/sub/deeper', 'wt', 'link']) {
      const { env, settings } = envOf(t.root, cwd);
      assert.equal(memoryLocation(env, settings).dir, path.join(t.root, 'home/.claude/projects', key, 'memory') + '/', cwd);
    }
    const { env, settings } = envOf(t.root, 'plain/child');
    assert.equal(memoryLocation(env, settings).dir, path.join(t.root, 'home/.claude/projects', memoryKey(t.p('plain/child')), 'memory') + '/');
  } finally {
    t.cleanup();
  }
});

test('custom memory folder: ~ expanded, relative ignored, the first source that sets it decides, null skipped', () => {
  assert.equal(validMemoryDir('~/custom2', '/h', true).dir, '/h/custom2/');
  assert.equal(validMemoryDir('~/../x', '/h', true).dir, undefined);
  assert.equal(validMemoryDir('custom2', '/h', true).dir, undefined);
  assert.equal(validMemoryDir('/', '/h', true).dir, undefined);
  assert.equal(validMemoryDir('/a/b//', '/h', true).dir, '/a/b/');
  assert.equal(validMemoryDir('~/x', '/h', false).dir, undefined);
  const t = makeTree({
    'repo/.claude/settings.local.json': JSON.stringify({ autoMemoryDirectory: 'relative/x' }),
    'home/.claude/settings.json': JSON.stringify({ autoMemoryDirectory: '/abs/custom' }),
  });
  try {
    const { env, settings } = envOf(t.root, 'repo');
    const loc = memoryLocation(env, settings);
    assert.match(loc.dir, /home\/\.claude\/projects\/.*\/memory\/$/);
    assert.equal(loc.rejected?.value, 'relative/x');
    fs.writeFileSync(t.p('repo/.claude/settings.local.json'), JSON.stringify({ autoMemoryDirectory: null }));
    const again = envOf(t.root, 'repo');
    assert.equal(memoryLocation(again.env, again.settings).dir, '/abs/custom/');
    const flag = envOf(t.root, 'repo', {}, { autoMemoryDirectory: '/from/flag' });
    assert.equal(memoryLocation(flag.env, flag.settings).dir, '/from/flag/');
    const cowork = envOf(t.root, 'repo', { CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: '/cowork' });
    assert.equal(memoryLocation(cowork.env, cowork.settings).dir, '/cowork/');
    const cfg = envOf(t.root, 'repo', { CLAUDE_CONFIG_DIR: path.join(t.root, 'alt') });
    assert.ok(memoryLocation(cfg.env, cfg.settings).dir.startsWith(path.join(t.root, 'alt/projects/')));
  } finally {
    t.cleanup();
  }
});

test('switches: settings precedence user < project < local < flag; the environment variable; --bare; remote', () => {
  const t = makeTree({
    'home/.claude/settings.json': JSON.stringify({ autoMemoryEnabled: false }),
    'repo/.claude/settings.json': JSON.stringify({ autoMemoryEnabled: true }),
    'repo/.claude/settings.local.json': JSON.stringify({ autoMemoryEnabled: false }),
  });
  try {
    assert.equal(memoryEnabled(...Object.values(envOf(t.root, 'repo')) as [never, never]).enabled, false);
    const flagOn = envOf(t.root, 'repo', {}, { autoMemoryEnabled: true });
    assert.equal(memoryEnabled(flagOn.env, flagOn.settings).enabled, true);
    const forced = envOf(t.root, 'repo', { CLAUDE_CODE_DISABLE_AUTO_MEMORY: '0' });
    assert.equal(memoryEnabled(forced.env, forced.settings).enabled, true);
    const off = envOf(t.root, 'repo', { CLAUDE_CODE_DISABLE_AUTO_MEMORY: 'true' }, { autoMemoryEnabled: true });
    assert.equal(memoryEnabled(off.env, off.settings).enabled, false);
    const remote = envOf(t.root, 'repo', { CLAUDE_CODE_REMOTE: '1' }, { autoMemoryEnabled: true });
    assert.equal(memoryEnabled(remote.env, remote.settings).enabled, false);
    fs.rmSync(t.p('repo/.claude/settings.local.json'));
    const projOn = envOf(t.root, 'repo');
    assert.equal(memoryEnabled(projOn.env, projOn.settings).enabled, true);
  } finally {
    t.cleanup();
  }
});

test('processing: frontmatter and block comments go before the limits; inline comments and @paths stay', () => {
  const raw = `---\ndescription: MKFM\n${'k: v\n'.repeat(27)}---\n<!--\n${'c\n'.repeat(28)}-->\n${lines(189, 20, 'F')}\nlast <!-- kept --> line\n@topic2.md\n`;
  const t = processMemoryText(raw, P328);
  assert.ok(!t.includes('MKFM'));
  assert.ok(t.includes('<!-- kept -->'));
  assert.ok(t.endsWith('@topic2.md'));
  assert.equal(t.split('\n').length, 191);
  assert.equal(truncateMemory(t, P328).truncated, false);
});

test('CRLF: 2.1.328 turns it into LF, 2.1.235 keeps the CR', () => {
  assert.equal(processMemoryText('a\r\nb\r\n', P328), 'a\nb');
  assert.equal(processMemoryText('a\r\nb\r\n', P235), 'a\r\nb');
});

test('invisible characters: 2.1.328 deletes them from what is injected, after the limits counted them', () => {
  const idx = memoryIndex('/m/MEMORY.md', '\u200b\nzero\u200bwidth bel\u0007 x\n', P328);
  assert.equal(idx.content, 'zerowidth bel x');
  assert.equal(memoryIndex('/m/MEMORY.md', 'zero\u200bwidth', P235).content, 'zero\u200bwidth');
  const big = lines(100, 249, 'Z').slice(0, 24990) + '\u200b'.repeat(20) + 'z'.repeat(10);
  assert.equal(memoryIndex('/m/MEMORY.md', big, P328).truncated, true);
});

test('200 lines load whole; 201 lines are cut with the per-version warning', () => {
  assert.equal(truncateMemory(lines(200, 11, 'L'), P328).truncated, false);
  const t = `${lines(200, 11, 'L')}\nMKL201 line`;
  const r = truncateMemory(t, P328);
  assert.equal(r.content.split('\n\n> WARNING: ')[0], lines(200, 11, 'L'));
  assert.equal(
    r.warning,
    'MEMORY.md is 201 lines (limit: 200). Only part of it was loaded: 1 of 201 lines were cut off, starting at line 201 ("MKL201 line"). Keep index entries to one line under ~200 chars; move detail into topic files.',
  );
  assert.equal(
    truncateMemory(t, P235).warning,
    'MEMORY.md is 201 lines (limit: 200). Only part of it was loaded. Keep index entries to one line under ~200 chars; move detail into topic files.',
  );
  assert.equal(r.keptLines, 200);
  assert.equal(r.over, 'lines');
});

test('size: 25,000 units pass, 25,001 cut at the last line break; units, not bytes', () => {
  const a = lines(100, 249, 'A') + 'a';
  assert.equal(a.length, 25000);
  assert.equal(truncateMemory(a, P328).truncated, false);
  const r = truncateMemory(a + 'a', P328);
  assert.equal(r.keptLines, 99);
  assert.equal(r.keptUnits, 24749);
  assert.match(r.warning!, /^MEMORY\.md is 24\.4KB \(limit: 24\.4KB\) — index entries are too long\. Only part of it was loaded: 1 of 100 lines were cut off, starting at line 100 \("MKA100 a+…"\)/);
  const cjk = Array.from({ length: 150 }, () => '漢'.repeat(100)).join('\n');
  assert.equal(truncateMemory(cjk, P328).truncated, false);
  const cjk2 = lines(190, 146, 'C', '漢');
  const r2 = truncateMemory(cjk2, P328);
  assert.equal(r2.keptLines, 170);
  assert.ok(r2.warning!.startsWith('MEMORY.md is 27.3KB (limit: 24.4KB)'));
});

test('one 30,005-unit line: hard cut at 25,000 with the line-1 message; an emoji at the cut becomes U+FFFD', () => {
  const r = truncateMemory('MKONELINE ' + 'x'.repeat(29995), P328);
  assert.equal(r.hardCut, true);
  assert.equal(r.keptUnits, 25000);
  assert.ok(r.warning!.includes('everything after the first 25000 characters of line 1 was cut off'));
  const e = truncateMemory('x' + '😀'.repeat(15000), P328);
  assert.ok(e.content.startsWith('x' + '😀'.repeat(12499) + '\uFFFD\n\n> WARNING'));
});

test('both limits: lines and size in the message', () => {
  const r = truncateMemory(lines(300, 206, 'B', 'y'), P328);
  assert.equal(r.over, 'both');
  assert.equal(r.keptLines, 120);
  assert.ok(r.warning!.startsWith('MEMORY.md is 300 lines and 60.6KB. Only part of it was loaded: 180 of 300 lines were cut off, starting at line 121 ("MKB121 yyy'));
});

test('preview: 79 units then …, cut at the last space when that keeps over 40; never inside a surrogate pair', () => {
  assert.equal(memoryPreview('short'), 'short');
  const words = 'word '.repeat(30).trim();
  assert.equal(memoryPreview(words), `${'word '.repeat(15).trim()}…`);
  assert.equal(memoryPreview('x'.repeat(100)), `${'x'.repeat(79)}…`);
  const em = '😀'.repeat(50);
  assert.equal(memoryPreview(em), `${'😀'.repeat(39)}…`);
  const blank = truncateMemory(`${lines(200, 20, 'K')}\n\nMKZ`, P328);
  assert.ok(blank.warning!.includes('starting at line 201. Keep'));
});

test('gauge figures: the cut line and lost entries mapped to the raw file', () => {
  const raw = `---\nname: x\n---\n<!-- note -->\n${Array.from({ length: 205 }, (_, i) => `- [T${i + 1}](t${i + 1}.md) — hook`).join('\n')}\n`;
  const idx = memoryIndex('/m/MEMORY.md', raw, P328);
  assert.equal(idx.truncated, true);
  assert.equal(idx.lines, 205);
  assert.equal(idx.cut?.line, 201);
  assert.equal(idx.cut?.rawLine, 205); // 3 frontmatter lines + 1 comment line before the entries
  assert.equal(idx.lostEntries.length, 5);
  assert.equal(idx.lostEntries[0]!.text, '- [T201](t201.md) — hook');
  assert.equal(idx.rawLines, 210);
  assert.deepEqual(mapLinesToRaw('a\n\nb', 'x\na\n<!--\n\n-->\n\nb', P328), [2, 6, 7]);
});

test('analysis: the # Memory section size, the AutoMem entry last, topic files lazy, DISABLE_CLAUDE_MDS', () => {
  const t = makeTree({ 'home/.keep': '', 'repo/CLAUDE.md': 'MKPROJ\n', 'repo/.git/HEAD': 'ref: refs/heads/main\n' });
  try {
    const dir = path.join(t.root, 'home/.claude/projects', memoryKey(t.p('repo')), 'memory');
    fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'MEMORY.md'), '- [A](a.md) — MKMEM\n');
    fs.writeFileSync(path.join(dir, 'a.md'), 'topic a\n');
    fs.writeFileSync(path.join(dir, 'sub/b.md'), 'topic b\n');
    const opts = { cwd: t.p('repo'), home: t.p('home'), env: { HOME: t.p('home') } };
    const a = analyze(opts);
    assert.equal(a.memory.systemSectionChars, 2019 + a.memory.location.dir.length);
    assert.equal(a.startup.at(-1)?.type, 'AutoMem');
    assert.equal(a.memory.injected, true);
    assert.deepEqual(a.memory.topics.map((x) => x.name), ['a.md', 'sub/b.md']);
    const legacy = analyze({ ...opts, model: 'claude-haiku-4-5' });
    assert.equal(legacy.memory.systemSectionChars, 12765 + a.memory.location.dir.length);
    const off = analyze({ ...opts, env: { HOME: t.p('home'), CLAUDE_CODE_DISABLE_CLAUDE_MDS: '1' } });
    assert.equal(off.memory.enabled, true);
    assert.equal(off.memory.injected, false);
    assert.ok(!off.startup.some((e) => e.type === 'AutoMem'));
    const bare = analyze({ ...opts, bare: true });
    assert.equal(bare.memory.enabled, false);
    assert.equal(bare.memory.systemSectionChars, 0);
  } finally {
    t.cleanup();
  }
});

test('an empty or whitespace-only MEMORY.md injects nothing', () => {
  assert.equal(memoryIndex('/m/MEMORY.md', ' \n\n\t\n', P328).content, '');
});
