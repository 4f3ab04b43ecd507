// The launcher's V8 code cache (src/cli/launch.ts): written on a first run, taken on the next,
// never given to V8 when it is not whole, not ours or made for other code, and never a reason to
// fail or to print anything else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CLI, demo, ensureBuilt } from './helpers.js';
import { copyBuiltCli } from '../helpers/built-cli.js';

/** a private copy of dist (launcher, CLI, chunks) and a cache home of its own */
function sandbox(): { dist: string; cacheHome: string; cacheDir: string; cleanup: () => void } {
  ensureBuilt();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-cc-'));
  const dist = path.join(root, 'dist');
  fs.mkdirSync(dist);
  copyBuiltCli(path.dirname(CLI), dist);
  const cacheHome = path.join(root, 'cache');
  return { dist, cacheHome, cacheDir: path.join(cacheHome, 'claude-layers', 'code-cache'), cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

function cli(dist: string, args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, [path.join(dist, 'cli.js'), ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir(), ...env }, timeout: 60_000 });
  assert.equal(r.error, undefined);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** what the debug setting said about each file: name → used | none | refused by V8 */
const verdicts = (stderr: string): Record<string, string> => Object.fromEntries([...stderr.matchAll(/^code cache: (\S+\.js) (used|none|refused by V8)$/gm)].map((m) => [m[1]!, m[2]!]));
const strip = (stderr: string) => stderr.replace(/^code cache: .*\n/gm, '');

test('code cache: the first lint writes one per file, the next takes them, and the output is the same as without', async () => {
  const s = sandbox();
  const d = await demo();
  try {
    const args = ['lint', ...d.flags, '--format', 'json'];
    const off = cli(s.dist, args, { CLAUDE_LAYERS_CODE_CACHE: '0', XDG_CACHE_HOME: s.cacheHome });
    assert.equal(fs.existsSync(s.cacheDir), false, 'CLAUDE_LAYERS_CODE_CACHE=0 writes nothing');
    const first = cli(s.dist, args, { CLAUDE_LAYERS_CODE_CACHE: 'debug', XDG_CACHE_HOME: s.cacheHome });
    assert.deepEqual(verdicts(first.stderr), { 'cli-main.js': 'none', 'markdown.js': 'none', 'secretlint.js': 'none' });
    const files = fs.readdirSync(s.cacheDir).sort();
    assert.equal(files.length, 3, files.join(', '));
    for (const f of files) {
      assert.match(f, new RegExp(`^(cli-main|markdown|secretlint)-lint-${process.version.replace(/\./g, '\\.')}-${process.arch}-[0-9a-f]{32}\\.bin$`));
      assert.equal(fs.statSync(path.join(s.cacheDir, f)).mode & 0o777, 0o600);
    }
    assert.equal(fs.statSync(s.cacheDir).mode & 0o777, 0o700);
    const second = cli(s.dist, args, { CLAUDE_LAYERS_CODE_CACHE: 'debug', XDG_CACHE_HOME: s.cacheHome });
    assert.deepEqual(verdicts(second.stderr), { 'cli-main.js': 'used', 'markdown.js': 'used', 'secretlint.js': 'used' });
    assert.doesNotMatch(second.stderr, /wrote/, 'a cache taken is not written again');
    for (const r of [first, second]) {
      assert.equal(r.code, off.code);
      assert.equal(r.stdout, off.stdout);
      assert.equal(strip(r.stderr), off.stderr);
    }
    // another command has caches of its own
    const explain = cli(s.dist, ['explain', 'src/api/client.ts', ...d.flags], { CLAUDE_LAYERS_CODE_CACHE: 'debug', XDG_CACHE_HOME: s.cacheHome });
    assert.equal(explain.code, 0, explain.stderr);
    assert.equal(verdicts(explain.stderr)['cli-main.js'], 'none');
  } finally {
    d.cleanup();
    s.cleanup();
  }
});

test('code cache: a file cut short, changed by one byte, replaced by a symlink or by a folder is not given to V8, and is written anew', () => {
  const s = sandbox();
  try {
    const env = { CLAUDE_LAYERS_CODE_CACHE: 'debug', XDG_CACHE_HOME: s.cacheHome };
    const clean = cli(s.dist, ['--version'], env);
    assert.equal(clean.code, 0, clean.stderr);
    const [name] = fs.readdirSync(s.cacheDir);
    const file = path.join(s.cacheDir, name!);
    const good = fs.readFileSync(file);
    const damage: [string, () => void][] = [
      ['cut short', () => fs.writeFileSync(file, good.subarray(0, good.length >> 1))],
      ['one byte changed', () => fs.writeFileSync(file, Buffer.from(good).fill(good[good.length - 9]! ^ 0xff, good.length - 9, good.length - 8))],
      ['its checksum only', () => fs.writeFileSync(file, good.subarray(0, 32))],
      ['a symlink to a good copy', () => {
        fs.writeFileSync(`${file}.copy`, good);
        fs.rmSync(file);
        fs.symlinkSync(`${file}.copy`, file);
      }],
      ['a folder', () => {
        fs.rmSync(file);
        fs.mkdirSync(file);
      }],
    ];
    for (const [what, harm] of damage) {
      fs.rmSync(file, { recursive: true, force: true });
      fs.writeFileSync(file, good);
      harm();
      const r = cli(s.dist, ['--version'], env);
      assert.equal(r.code, 0, `${what}: ${r.stderr}`);
      assert.equal(r.stdout, clean.stdout, what);
      assert.equal(verdicts(r.stderr)['cli-main.js'], 'none', `${what}: not given to V8`);
      if (what === 'a folder') continue;
      assert.equal(verdicts(cli(s.dist, ['--version'], env).stderr)['cli-main.js'], 'used', `${what}: written anew`);
    }
    // after the last (a folder in its place) the cache cannot be written: no error either
    assert.ok(fs.statSync(file).isDirectory());
  } finally {
    s.cleanup();
  }
});

test('code cache: code changed at the same length (V8 checks only the length) does not run the old code, and its cache replaces the old one', () => {
  const s = sandbox();
  try {
    const env = { CLAUDE_LAYERS_CODE_CACHE: 'debug', XDG_CACHE_HOME: s.cacheHome };
    const before = cli(s.dist, ['--version'], env);
    assert.match(before.stdout, /^claude-layers \d/);
    const main = path.join(s.dist, 'cli-main.js');
    const src = fs.readFileSync(main, 'utf8');
    const changed = src.replace(/"claude-layers"/g, '"claude-layerZ"');
    assert.notEqual(changed, src);
    assert.equal(changed.length, src.length);
    fs.writeFileSync(main, changed);
    const after = cli(s.dist, ['--version'], env);
    assert.equal(after.code, 0, after.stderr);
    assert.match(after.stdout, /^claude-layerZ \d/, 'the new code ran');
    assert.equal(verdicts(after.stderr)['cli-main.js'], 'none');
    const after2 = fs.readdirSync(s.cacheDir);
    assert.equal(after2.length, 1, `the cache for the old code is replaced: ${after2.join(', ')}`);
    assert.equal(verdicts(cli(s.dist, ['--version'], env).stderr)['cli-main.js'], 'used');
  } finally {
    s.cleanup();
  }
});

test('code cache: no usable cache folder (a file in its way, a relative XDG_CACHE_HOME) changes nothing', () => {
  const s = sandbox();
  try {
    const ref = cli(s.dist, ['--version'], { CLAUDE_LAYERS_CODE_CACHE: '0' });
    fs.mkdirSync(path.dirname(s.cacheHome), { recursive: true });
    fs.writeFileSync(s.cacheHome, 'not a folder');
    for (const env of [{ XDG_CACHE_HOME: s.cacheHome }, { XDG_CACHE_HOME: 'relative/cache', HOME: s.cacheHome }] as Record<string, string>[]) {
      const r = cli(s.dist, ['--version'], env);
      assert.equal(r.code, 0, `${JSON.stringify(env)}: ${r.stderr}`);
      assert.equal(r.stdout, ref.stdout);
      assert.equal(r.stderr, '');
    }
    assert.equal(fs.readFileSync(s.cacheHome, 'utf8'), 'not a folder');
  } finally {
    s.cleanup();
  }
});
