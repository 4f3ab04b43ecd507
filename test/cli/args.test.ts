// Bad arguments: one line saying why, then the usage, exit 2, never a stack trace; paths that do
// not exist are reported as such. Help and version exit 0.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { assertUsageError, run } from './helpers.js';

describe('arguments', () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-args-')));
    fs.mkdirSync(path.join(dir, 'home'));
    file = path.join(dir, 'plain.txt');
    fs.writeFileSync(file, 'x');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const ok = () => ['--cwd', dir, '--home', path.join(dir, 'home')];

  test('help and version', () => {
    for (const a of [['--help'], ['help'], ['-h']]) {
      const r = run(a);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /^usage: claude-layers <command>/);
      assert.equal(r.stderr, '');
    }
    const v = run(['--version']);
    assert.equal(v.code, 0);
    assert.match(v.stdout, /^claude-layers \d+\.\d+\.\d+\n$/);
  });

  test('every command has its own --help / -h (exit 0, its usage on stdout), also as `help COMMAND`', () => {
    for (const cmd of ['explain', 'lint', 'render', 'verify', 'last-session']) {
      for (const a of [[cmd, '--help'], [cmd, '-h'], ['help', cmd], [cmd, '--cwd', '/nonexistent', '--help']]) {
        const r = run(a);
        assert.equal(r.code, 0, `${a.join(' ')}: ${r.stderr}`);
        assert.match(r.stdout, new RegExp(`^usage: claude-layers ${cmd} `), a.join(' '));
        assert.doesNotMatch(r.stdout, /commands:/, 'the command\'s usage, not the overview');
        assert.equal(r.stderr, '');
      }
    }
    assert.match(run(['lint', '--help']).stdout, /--fail-on error\|warning\|info/);
    assertUsageError(run(['help', 'frobnicate']), /help: unknown command "frobnicate"/);
    // an error points to the command's help
    assert.match(run(['explain', '--frobnicate']).stderr, /^claude-layers: unknown option --frobnicate\nusage: claude-layers explain .*\n[\s\S]*run 'claude-layers explain --help' for more\n$/);
  });

  test('no command, unknown command', () => {
    assertUsageError(run([]), /no command given/);
    assertUsageError(run(['frobnicate']), /unknown command "frobnicate"/);
  });

  const cases: [string, string[], RegExp][] = [
    ['lint: unknown format', ['lint', '--format', 'xml'], /--format takes text, json, sarif, github, got "xml"/],
    ['lint: format without value', ['lint', '--format'], /--format needs a value/],
    ['lint: unknown fail-on', ['lint', '--fail-on', 'fatal'], /--fail-on takes error, warning, info, got "fatal"/],
    ['lint: option given twice', ['lint', '--fail-on', 'error', '--fail-on', 'info'], /--fail-on given twice/],
    ['lint: unknown option', ['lint', '--frobnicate'], /unknown option --frobnicate/],
    ['lint: positional', ['lint', 'src'], /lint takes no positional arguments/],
    ['lint: bad --env', ['lint', '--env', 'NOVALUE'], /--env needs NAME=VALUE/],
    ['lint: bad --setting-sources', ['lint', '--setting-sources', 'user,team'], /--setting-sources takes user, project and local, got "team"/],
    ['explain: two files', ['explain', 'a', 'b'], /one FILE at most/],
    ['explain: --json takes no value', ['explain', '--json=yes'], /--json takes no value/],
    ['render: relative --touch', ['render', '--touch', 'Read:rel/x.ts', '--json'], /--touch path must be absolute/],
    ['render: unknown tool', ['render', '--touch', 'Grep:/x', '--json'], /--touch takes TOOL:ABS_PATH/],
    ['render: positional', ['render', 'x', '--json'], /render takes no positional arguments/],
  ];
  for (const [name, args, reason] of cases) test(name, () => assertUsageError(run([...args, ...ok()]), reason));

  test('missing folders and files are reported as such', () => {
    const missing = path.join(dir, 'no-such-folder');
    for (const cmd of ['lint', 'explain', 'render']) {
      assertUsageError(run([cmd, '--cwd', missing, ...(cmd === 'render' ? ['--json'] : [])]), new RegExp(`--cwd ${missing.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} does not exist`));
      assertUsageError(run([cmd, '--cwd', file, ...(cmd === 'render' ? ['--json'] : [])]), /is not a folder/);
    }
    assertUsageError(run(['lint', '--cwd', dir, '--home', missing]), /--home .* does not exist/);
    assertUsageError(run(['explain', '--cwd', dir, '--home', missing]), /--home .* does not exist/);
    assertUsageError(run(['lint', ...ok(), '--add-dir', 'nope']), /--add-dir nope does not exist/);
    assertUsageError(run(['explain', 'nope.ts', ...ok()]), /FILE nope\.ts does not exist/);
  });
});
