// Every input bounded: the caps of issue 10, each a diagnostic naming the file and the cap, tested
// on the engine directly (the CLI corpus, test/cli/hostile-corpus.test.ts, runs them as processes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { analyze } from '../../src/engine/index.js';
import { parseFrontmatter, yamlDepth, MAX_YAML_DEPTH } from '../../src/engine/instructions/frontmatter.js';
import { describeValue, MAX_EXCLUDES } from '../../src/engine/settings.js';
import { WorkspaceIndex } from '../../src/engine/files/workspace-index.js';
import { makeTree } from '../helpers/fixture.js';

function ws(files: Record<string, string>) {
  const t = makeTree({ 'repo/.git/HEAD': 'ref: refs/heads/main\n', 'home/.keep': '', 'managed/.keep': '', ...files });
  const a = () => analyze({ cwd: t.p('repo'), home: t.p('home'), env: { HOME: t.p('home') }, managedDir: t.p('managed') });
  return { t, a };
}

test('frontmatter nested past MAX_YAML_DEPTH is not handed to the YAML parser (it aborted the process) and is said so', () => {
  const deep = `---\nname: b\ndescription: ${'['.repeat(20000)}${']'.repeat(20000)}\n---\nBODY\n`;
  const fm = parseFrontmatter(deep, true);
  assert.equal(fm.tooDeep, true);
  assert.equal(typeof fm.data.description, 'string', 'read as text by the lenient retry (as Claude Code 2.1.332 lists it)');
  const ok = parseFrontmatter(`---\ndescription: ${'['.repeat(300)}x${']'.repeat(300)}\n---\nB\n`, true);
  assert.equal(ok.tooDeep, undefined, 'depth 300 is parsed');
  assert.ok(yamlDepth('a:\n  b:\n    c: [1, {d: [2]}]') < 10);
  assert.ok(yamlDepth('"[[[[[[[["'.repeat(100)) < 5, 'brackets inside quotes do not count');
  assert.ok(yamlDepth('['.repeat(MAX_YAML_DEPTH + 5)) > MAX_YAML_DEPTH);
});

test('a rule with deep frontmatter and a skill with a deep description give frontmatter-too-deep, nothing throws', () => {
  const { t, a } = ws({
    'repo/.claude/rules/deep.md': `---\npaths: ${'{a: '.repeat(20000)}1${'}'.repeat(20000)}\n---\nDEEP\n`,
    'repo/.claude/skills/br/SKILL.md': `---\nname: br\ndescription: ${'['.repeat(20000)}${']'.repeat(20000)}\n---\nB\n`,
  });
  try {
    const r = a();
    const deep = r.diagnostics.filter((d) => d.rule === 'frontmatter-too-deep').map((d) => path.relative(t.p('repo'), d.path)).sort();
    assert.deepEqual(deep, ['.claude/rules/deep.md', '.claude/skills/br/SKILL.md']);
    r.session().touch('Read', t.p('repo/src/a.ts'));
  } finally {
    t.cleanup();
  }
});

test('claudeMdExcludes of a wrong type is settings-invalid; past MAX_EXCLUDES it is settings-list-capped', () => {
  for (const [v, want] of [[5, /not a number 5/], ['/x/**', /not a string "\/x\/\*\*"/], [{ a: 1 }, /not an object \{"a":1\}/]] as const) {
    const { t, a } = ws({ 'repo/.claude/settings.json': JSON.stringify({ claudeMdExcludes: v }) });
    try {
      const d = a().diagnostics.filter((x) => x.rule === 'settings-invalid');
      assert.equal(d.length, 1, JSON.stringify(v));
      assert.match(d[0]!.message, want);
      assert.equal(d[0]!.path, t.p('repo/.claude/settings.json'));
      assert.doesNotMatch(d[0]!.message, /\[object Object\]/);
    } finally {
      t.cleanup();
    }
  }
  const { t, a } = ws({ 'repo/.claude/settings.json': JSON.stringify({ claudeMdExcludes: [...Array.from({ length: MAX_EXCLUDES + 5 }, (_, i) => `/n/${i}`), 7] }) });
  try {
    const ds = a().diagnostics;
    const capped = ds.find((x) => x.rule === 'settings-list-capped');
    assert.ok(capped, 'capped');
    assert.match(capped.message, /10,005 patterns: the engine uses the first 10,000/);
    assert.ok(ds.some((x) => x.rule === 'settings-invalid' && /1 entry that is not a string \(the first: a number 7\)/.test(x.message)));
  } finally {
    t.cleanup();
  }
});

test('describeValue never prints [object Object]', () => {
  assert.equal(describeValue({}), 'an object {}');
  assert.equal(describeValue(null), 'null null');
  assert.match(describeValue('x'.repeat(100)), /^a string "x{56}\.\.\.$/);
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.equal(describeValue(cyclic), 'an object [object Object]'.replace('[object Object]', Object.prototype.toString.call(cyclic)));
});

test('autoMemoryDirectory: {} is reported with its value, not [object Object]', () => {
  const { t, a } = ws({ 'repo/.claude/settings.local.json': '{"autoMemoryDirectory": {}}' });
  try {
    const d = a().diagnostics.find((x) => x.rule === 'memory-dir-rejected');
    assert.ok(d);
    assert.doesNotMatch(d.message, /object Object/);
    assert.match(d.message, /not a string but an object \{\}/);
  } finally {
    t.cleanup();
  }
});

test('MEMORY.md that is a folder, a FIFO or over 4 MiB is memory-unreadable, not "none"', () => {
  for (const kind of ['folder', 'fifo', 'big'] as const) {
    const { t, a } = ws({});
    try {
      const r0 = a();
      const mem = r0.memory.location.dir;
      fs.mkdirSync(mem, { recursive: true });
      const p = path.join(mem, 'MEMORY.md');
      if (kind === 'folder') fs.mkdirSync(p);
      else if (kind === 'fifo') execFileSync('mkfifo', [p]);
      else fs.writeFileSync(p, Buffer.alloc(5 * 1024 * 1024, 0x61));
      const d = a().diagnostics.find((x) => x.rule === 'memory-unreadable');
      assert.ok(d, kind);
      assert.equal(d.path, p);
      assert.match(d.message, kind === 'folder' ? /is a directory/ : kind === 'fifo' ? /not a regular file/ : /4 MiB/);
    } finally {
      t.cleanup();
    }
  }
});

test('the workspace crawl stops at its deadline (fake clock) and says where', () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 300; i++) files[`d${i}/x.ts`] = 'x';
  const t = makeTree(files);
  try {
    let clock = 0;
    // the clock is read every 64 folders: one tick each time
    const ix = WorkspaceIndex.build(t.root, { deadline: 3, now: () => (clock += 1) });
    assert.equal(ix.truncated, true);
    assert.ok(ix.stoppedAt, 'stoppedAt');
    assert.ok(ix.stoppedAt.folder.startsWith(t.root));
    assert.ok(ix.stoppedAt.pending > 0);
    assert.ok(ix.dirsListed < 301, `${ix.dirsListed} folders listed`);
    const whole = WorkspaceIndex.build(t.root, { deadline: 100, now: () => 0 });
    assert.equal(whole.truncated, false);
    assert.equal(whole.fileCount, 300);
    const capped = WorkspaceIndex.build(t.root, { maxFiles: 10 });
    assert.ok(capped.firstLeftOut?.startsWith(t.root), 'the first file left out is named');
  } finally {
    t.cleanup();
  }
});

test('lint past its whole-run limit (fake clock) skips the remaining checks and says which', async () => {
  const { lintWorkspace } = await import('../../src/engine/checks/index.js');
  const { t, a } = ws({ 'repo/CLAUDE.md': 'ROOT\n', 'repo/.claude/rules/r.md': '---\npaths: "nothing/**"\n---\nR\n' });
  try {
    const r = await lintWorkspace(a(), { secrets: true, runDeadline: { at: 0, now: () => 1 } });
    const msgs = r.diagnostics.filter((d) => d.rule === 'scan-truncated').map((d) => d.message);
    assert.ok(msgs.some((m) => /time limit passed: the glob, memory, skills, reachability and secrets checks were skipped/.test(m)), JSON.stringify(msgs));
    assert.ok(!r.diagnostics.some((d) => d.rule === 'glob-matches-nothing'), 'the glob check did not run');
    const inTime = await lintWorkspace(a(), { secrets: false, runDeadline: { at: 10, now: () => 1 } });
    assert.ok(inTime.diagnostics.some((d) => d.rule === 'glob-matches-nothing'), 'within the limit it runs');
  } finally {
    t.cleanup();
  }
});

test('a settings file that is a folder, a FIFO or over 16 MiB is settings-unreadable, naming why', () => {
  for (const kind of ['folder', 'fifo', 'big'] as const) {
    const { t, a } = ws({});
    try {
      const p = t.p('repo/.claude/settings.json');
      fs.mkdirSync(path.dirname(p), { recursive: true });
      if (kind === 'folder') fs.mkdirSync(p);
      else if (kind === 'fifo') execFileSync('mkfifo', [p]);
      else fs.writeFileSync(p, Buffer.alloc(17 * 1024 * 1024, 0x20));
      const d = a().diagnostics.find((x) => x.rule === 'settings-unreadable');
      assert.ok(d, kind);
      assert.equal(d.path, p);
      assert.match(d.message, kind === 'folder' ? /a folder/ : kind === 'fifo' ? /FIFO/ : /16 MiB cap/);
    } finally {
      t.cleanup();
    }
  }
});
