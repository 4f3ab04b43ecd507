// Every file the engine reads is untrusted: nothing may throw out of analyze() or a touch, nothing
// may hang, and each problem surfaces as a diagnostic naming the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { analyze, nodeFileAccess } from '../../src/engine/index.js';
import { makeTree } from '../helpers/fixture.js';

function hostileTree() {
  const t = makeTree({
    'home/.claude/CLAUDE.md': 'USER @loop1.md',
    'home/.claude/loop1.md': '@loop2.md L1',
    'home/.claude/loop2.md': '@loop1.md L2 @~/.claude/CLAUDE.md',
    'repo/CLAUDE.md': [
      'ROOT',
      '@chain1.md @binary.bin @missing.md @dir @./big.md @"quoted".md',
      '@name\\ with\\ space.md',
    ].join('\n'),
    'repo/chain1.md': '@chain2.md C1',
    'repo/chain2.md': '@chain3.md C2',
    'repo/chain3.md': '@chain4.md C3',
    'repo/chain4.md': '@chain5.md C4',
    'repo/chain5.md': '@chain6.md C5',
    'repo/chain6.md': 'C6',
    'repo/binary.bin': Buffer.from([0, 1, 2, 255, 254]),
    'repo/dir/x.md': 'x',
    'repo/name with space.md': 'SPACE \u0000\u0001 control',
    'repo/.claude/CLAUDE.md': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0xc3, 0x28]),
    'repo/.claude/rules/bad-yaml.md': '---\npaths: [unclosed\n  - : :\n---\nBAD',
    'repo/.claude/rules/unclosed.md': '---\npaths: x\nno end',
    'repo/.claude/rules/empty.md': '',
    'repo/.claude/rules/fm-only.md': '---\npaths: "**"\n---\n',
    'repo/.claude/rules/loop': { symlink: 'loop' },
    'repo/.claude/rules/dangling.md': { symlink: 'nowhere.md' },
    'repo/.claude/rules/UP.MD': 'upper',
    'repo/.claude/rules/quote"and\nnewline.md': 'NEWLINE NAME',
    'repo/.claude/rules/<img src=x onerror=alert(1)>.md': '<script>alert(1)</script>',
    'repo/CLAUDE.local.md': { symlink: 'CLAUDE.local.md' },
    'repo/sub/CLAUDE.md': { dir: true },
    'repo/sub/deep/CLAUDE.md': '---\npaths: [\n---\n' + 'deep '.repeat(10) + '\n@../../chain1.md',
    'repo/sub/deep/f.ts': 'x',
  });
  fs.writeFileSync(t.p('repo/big.md'), Buffer.alloc(5 * 1024 * 1024, 0x61));
  execFileSync('mkfifo', [t.p('repo/sub/deep/.claude-fifo')]);
  fs.mkdirSync(t.p('repo/sub/deep/.claude'), { recursive: true });
  execFileSync('mkfifo', [t.p('repo/sub/deep/.claude/CLAUDE.md')]);
  return t;
}

for (const version of ['2.1.328', '2.1.235']) {
  test(`hostile workspace on ${version}: no throw, no hang, diagnostics per file`, { timeout: 20_000 }, () => {
    const t = hostileTree();
    try {
      const a = analyze({ cwd: t.p('repo'), home: t.p('home'), env: {}, claudeVersion: version, managedDir: t.p('no-managed') });
      const paths = a.startup.map((e) => path.relative(t.root, e.path));
      assert.ok(paths.includes('repo/CLAUDE.md'));
      assert.ok(paths.includes('repo/chain4.md'), 'depth 4 loads');
      assert.ok(!paths.includes('repo/chain5.md'), 'depth 5 does not');
      assert.ok(!paths.includes('repo/big.md'), 'files over 4 MiB are skipped');
      assert.ok(!paths.includes('repo/binary.bin'), 'non-text extensions are not included');
      assert.equal(paths.filter((p) => p.endsWith('loop1.md')).length, 1, 'include cycles load once');
      const dot = a.startup.find((e) => e.path.endsWith('.claude/CLAUDE.md') && e.path.includes('repo'));
      assert.equal(dot?.content, 'caf\uFFFD\n\uFFFD(', 'invalid UTF-8 becomes U+FFFD');
      const byRule = (r: string) => a.diagnostics.filter((d) => d.rule === r).map((d) => path.relative(t.root, d.path));
      assert.ok(byRule('over-4mib').includes('repo/big.md'));
      assert.ok(byRule('include-too-deep').length >= 1);
      assert.ok(byRule('invalid-frontmatter').some((p) => p.includes('bad-yaml') || p.includes('deep')));
      assert.ok(byRule('symlink-loop').length >= 1, 'symlink loops are reported');
      assert.ok(byRule('rule-not-md').some((p) => p.endsWith('UP.MD')));
      const s = a.session();
      const inj = s.touch('Read', t.p('repo/sub/deep/f.ts'));
      assert.ok(Array.isArray(inj));
      assert.ok(inj.some((i) => i.path.endsWith('sub/deep/CLAUDE.md')));
      assert.ok(!inj.some((i) => i.path.endsWith('.claude/CLAUDE.md') && i.path.includes('deep')), 'a FIFO is never read');
      for (const d of a.diagnostics) assert.equal(typeof d.message, 'string');
    } finally {
      t.cleanup();
    }
  });
}

test('unreadable files and folders become diagnostics (as an unprivileged user the read fails)', () => {
  const t = makeTree({ 'repo/CLAUDE.md': 'R', 'repo/.claude/rules/ok.md': 'OK' });
  try {
    // simulate EACCES through the file-access seam rather than relying on the test's uid
    const real = analyze({ cwd: t.p('repo'), home: t.p('home'), env: {} });
    const denied = analyze({
      cwd: t.p('repo'), home: t.p('home'), env: {},
      fs: {
        ...nodeFileAccess,
        readFile: (p: string, max: number) =>
          p.endsWith('CLAUDE.md') ? { ok: false, code: 'EACCES', message: 'denied' } : nodeFileAccess.readFile(p, max),
      },
    });
    assert.equal(real.startup.length, 2);
    assert.equal(denied.startup.length, 1);
    assert.ok(denied.diagnostics.some((d) => d.rule === 'unreadable' && d.path === t.p('repo/CLAUDE.md')));
  } finally {
    t.cleanup();
  }
});
