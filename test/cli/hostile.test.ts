// A workspace of hostile files, through every command and format of the built CLI: binary content,
// a 5 MiB file, invalid UTF-8, broken YAML, symlink loops, include cycles, names with newlines and
// quotes, unreadable folders, FIFOs named CLAUDE.md. Nothing may hang (each run has a timeout),
// crash (exit 3 / stack trace) or print unparseable JSON or invalid SARIF.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeTree } from '../helpers/fixture.js';
import { assertNoStack, publicCliCopy, run, type JsonDiagnostic } from './helpers.js';
import { validateSarif } from './sarif-schema.js';

function hostileTree() {
  const t = makeTree({
    'repo/.git/HEAD': 'ref: refs/heads/main\n',
    'managed/.keep': '',
    'home/.claude/CLAUDE.md': 'USER @loop1.md',
    'home/.claude/loop1.md': '@loop2.md L1',
    'home/.claude/loop2.md': '@loop1.md L2 @~/.claude/CLAUDE.md',
    'home/.claude/rules/loop': { symlink: 'loop' },
    'repo/CLAUDE.md': 'ROOT\n@cyc_a.md @binary.bin @missing.md @./big.md @"quoted".md @name\\ with\\ space.md\n',
    'repo/cyc_a.md': '@cyc_b.md A',
    'repo/cyc_b.md': '@cyc_a.md B @CLAUDE.md',
    'repo/binary.bin': Buffer.from([0, 1, 2, 255, 254, 0x1b, 0x5b, 0x33, 0x31, 0x6d]),
    'repo/name with space.md': 'SPACE \u0000\u0001\u001b[31m control',
    'repo/.claude/CLAUDE.md': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0xc3, 0x28, 0xff, 0xfe]),
    'repo/.claude/rules/bad-yaml.md': '---\npaths: [unclosed\n  - : :\n---\nBAD',
    'repo/.claude/rules/unclosed.md': '---\npaths: x\nno end',
    'repo/.claude/rules/tabs.md': '---\n\tpaths:\t[x\n---\nT',
    'repo/.claude/rules/anchors.md': '---\na: &a ["lol","lol"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b]\npaths: *c\n---\nALIAS BOMB',
    'repo/.claude/rules/braces.md': `---\npaths: "${'{a,b}'.repeat(30)}"\n---\nBRACES`,
    'repo/.claude/rules/empty.md': '',
    'repo/.claude/rules/loop': { symlink: 'loop' },
    'repo/.claude/rules/self.md': { symlink: 'self.md' },
    'repo/.claude/rules/dangling.md': { symlink: 'nowhere.md' },
    'repo/.claude/rules/UP.MD': 'upper',
    'repo/.claude/rules/quote"and\nnewline.md': '---\nglobs: "x"\n---\nNEWLINE NAME',
    "repo/.claude/rules/it's \"quoted\".md": '---\npaths: "nothing/**"\n---\nQUOTES',
    'repo/.claude/rules/<img src=x onerror=alert(1)>.md': '<script>alert(1)</script>',
    'repo/CLAUDE.local.md': { symlink: 'CLAUDE.local.md' },
    'repo/sub/CLAUDE.md': { dir: true },
    'repo/sub/deep/CLAUDE.md': '---\npaths: [\n---\n' + 'deep '.repeat(10) + '\n@../../cyc_a.md',
    'repo/sub/deep/f.ts': 'x',
    'repo/we\nird/CLAUDE.md': 'NEWLINE FOLDER',
    'repo/we\nird/a.ts': 'x',
    'repo/locked/CLAUDE.md': 'LOCKED',
    'repo/locked/x.ts': 'x',
  });
  fs.writeFileSync(t.p('repo/big.md'), Buffer.alloc(5 * 1024 * 1024, 0x61));
  fs.writeFileSync(t.p('repo/sub/deep/huge.ts'), Buffer.alloc(5 * 1024 * 1024, 0x00));
  fs.mkdirSync(t.p('repo/fifo'), { recursive: true });
  execFileSync('mkfifo', [t.p('repo/fifo/CLAUDE.md')]);
  execFileSync('mkfifo', [t.p('repo/fifo/a.ts')]);
  fs.mkdirSync(t.p('repo/sub/deep/.claude'), { recursive: true });
  execFileSync('mkfifo', [t.p('repo/sub/deep/.claude/CLAUDE.md')]);
  execFileSync('mkfifo', [t.p('repo/.claude/rules/fifo.md')]);
  fs.symlinkSync(t.p('repo'), t.p('repo/sub/deep/up')); // a folder loop through a symlink
  fs.chmodSync(t.p('repo/locked'), 0o000);
  fs.chmodSync(t.root, 0o755); // reachable by the unprivileged user of the last test
  return t;
}

describe('hostile workspace', () => {
  let t: ReturnType<typeof hostileTree>;
  let flags: string[];
  before(() => {
    t = hostileTree();
    flags = ['--cwd', t.p('repo'), '--home', t.p('home'), '--managed-dir', t.p('managed')];
  });
  after(() => {
    fs.chmodSync(t.p('repo/locked'), 0o755);
    t.cleanup();
  });

  for (const version of ['2.1.328', '2.1.235']) {
    test(`render --json on ${version}`, { timeout: 60_000 }, () => {
      const r = run(['render', ...flags, '--claude-version', version, '--touch', `Read:${t.p('repo/sub/deep/f.ts')}`, '--touch', `Read:${t.p('repo/fifo/a.ts')}`, '--touch', `Read:${t.p('repo/we\nird/a.ts')}`, '--json']);
      assertNoStack(r);
      assert.equal(r.code, 0, r.stderr);
      const j = JSON.parse(r.stdout) as { instructions: { entries: { path: string }[] }; touches: { injected: { path: string }[] }[]; diagnostics: JsonDiagnostic[] };
      const paths = j.instructions.entries.map((e) => path.relative(t.root, e.path));
      assert.ok(paths.includes('repo/CLAUDE.md'));
      assert.equal(paths.filter((p) => p === 'repo/cyc_a.md').length, 1, 'include cycles load once');
      assert.ok(!paths.includes('repo/big.md'));
      assert.ok(j.touches[0]!.injected.some((i) => i.path.endsWith('sub/deep/CLAUDE.md')));
      assert.ok(!j.touches.flatMap((x) => x.injected).some((i) => i.path.endsWith('fifo/CLAUDE.md')), 'a FIFO is never read');
      assert.ok(j.touches[2]!.injected.some((i) => i.path.endsWith('we\nird/CLAUDE.md')), 'a folder name with a newline works');
    });

    test(`explain (text and --json) on ${version}`, { timeout: 60_000 }, () => {
      for (const file of ['sub/deep/f.ts', 'fifo/a.ts', 'sub/deep/huge.ts', 'we\nird/a.ts', '.claude/rules/self.md']) {
        const text = run(['explain', file, ...flags, '--claude-version', version]);
        assertNoStack(text);
        assert.equal(text.code, 0, `${file}: ${text.stderr}`);
        assert.doesNotMatch(text.stdout, /\u001b/, 'no escape sequence from file names or contents reaches the terminal');
        const json = run(['explain', file, ...flags, '--claude-version', version, '--json']);
        assert.equal(json.code, 0);
        JSON.parse(json.stdout);
      }
    });

    test(`lint in every format on ${version}`, { timeout: 120_000 }, () => {
      const outputs: Record<string, string> = {};
      for (const format of ['text', 'json', 'sarif', 'github']) {
        const r = run(['lint', ...flags, '--claude-version', version, '--format', format]);
        assertNoStack(r);
        assert.equal(r.signal, null);
        assert.equal(r.code, 1, `${format}: findings at error level (over 4 MiB, globs)`);
        outputs[format] = r.stdout;
      }
      const j = JSON.parse(outputs.json!) as { diagnostics: JsonDiagnostic[] };
      const by = (rule: string) => j.diagnostics.filter((d) => d.rule === rule).map((d) => path.relative(t.root, d.path));
      assert.ok(by('over-4mib').includes('repo/big.md'));
      assert.ok(by('symlink-loop').length >= 1);
      assert.ok(by('invalid-frontmatter').some((p) => p.includes('bad-yaml')));
      assert.ok(by('rule-not-md').some((p) => p.endsWith('UP.MD')));
      assert.ok(by('frontmatter-key-ignored').some((p) => p.endsWith('quote"and\nnewline.md')));
      assert.ok(by('glob-matches-nothing').some((p) => p.endsWith(`it's "quoted".md`)));
      const sarif = JSON.parse(outputs.sarif!) as { runs: { results: unknown[] }[] };
      const v = validateSarif(sarif);
      assert.ok(v.ok, v.errors);
      assert.equal(sarif.runs[0]?.results.length, j.diagnostics.length);
      // one finding per line: names with newlines are escaped in text and github output
      const textLines = outputs.text!.trimEnd().split('\n');
      assert.equal(textLines.length, j.diagnostics.length + 2);
      assert.doesNotMatch(outputs.text!, /\u001b/);
      const ghLines = outputs.github!.trimEnd().split('\n');
      assert.equal(ghLines.length, j.diagnostics.length + 1);
      assert.ok(ghLines.slice(0, -1).every((l) => /^::(error|warning|notice) /.test(l)));
    });
  }

  test('as an unprivileged user: unreadable folders and files are skipped and reported, nothing hangs', { timeout: 60_000 }, (ctx) => {
    const probe = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'true']);
    if (probe.status !== 0) {
      ctx.skip('setpriv cannot switch to an unprivileged user here');
      return;
    }
    // the tree must be reachable by that user, except the parts locked on purpose
    for (let d = t.root; d !== path.dirname(d); d = path.dirname(d)) {
      const st = fs.statSync(d);
      if ((st.mode & 0o005) !== 0o005) {
        ctx.skip(`${d} is not world-readable`);
        return;
      }
    }
    // the CLI itself must be readable by that user wherever the checkout lives (under /root, in a
    // mkdtemp clone): a copy of the built, self-contained dist/cli.js in a fresh world-readable folder
    const { dir: pubDir, cli: pubCli } = publicCliCopy();
    fs.chmodSync(t.p('repo/.claude/rules/bad-yaml.md'), 0o000);
    try {
      const r = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, pubCli, 'lint', ...flags, '--format', 'json'], {
        encoding: 'utf8', timeout: 60_000, cwd: os.tmpdir(), env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      });
      assert.equal(r.signal, null);
      assert.ok(r.status === 0 || r.status === 1, r.stderr);
      const j = JSON.parse(r.stdout) as { diagnostics: JsonDiagnostic[] };
      const unreadable = j.diagnostics.filter((d) => d.rule === 'unreadable').map((d) => path.relative(t.root, d.path));
      assert.ok(unreadable.includes('repo/.claude/rules/bad-yaml.md'), JSON.stringify(unreadable));
      assert.ok(unreadable.includes('repo/locked'), 'a folder that cannot be listed is reported');
      const explain = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, pubCli, 'explain', 'sub/deep/f.ts', ...flags], {
        encoding: 'utf8', timeout: 60_000, cwd: os.tmpdir(), env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      });
      assert.equal(explain.status, 0, explain.stderr);
    } finally {
      fs.chmodSync(t.p('repo/.claude/rules/bad-yaml.md'), 0o644);
      fs.rmSync(pubDir, { recursive: true, force: true });
    }
  });
});
