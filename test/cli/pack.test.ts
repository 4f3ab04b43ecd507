// The npm package: `npm pack` ships the CLI bundle, README, LICENSE and package.json, nothing else, and
// the CLI runs from the unpacked tarball on its own (the bundle needs no node_modules).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuilt, ROOT } from './helpers.js';
import { setupDemo } from '../../scripts/demo-workspace.mjs';

test('npm pack: the CLI, its bundle, README and LICENSE; the CLI runs from the tarball', () => {
  ensureBuilt();
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-pack-')));
  const demo = setupDemo();
  try {
    const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const info = (JSON.parse(out) as { filename: string; files: { path: string }[] }[])[0]!;
    assert.deepEqual(info.files.map((f) => f.path).sort(), ['LICENSE', 'README.md', 'dist/cli.js', 'package.json']);
    execFileSync('tar', ['-xzf', path.join(dir, info.filename), '-C', dir]);
    const bin = (JSON.parse(fs.readFileSync(path.join(dir, 'package/package.json'), 'utf8')) as { bin: Record<string, string> }).bin['claude-layers']!;
    const cli = path.join(dir, 'package', bin);
    const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: demo.home } });
    const v = run(['--version']);
    assert.equal(v.status, 0, v.stderr);
    assert.match(v.stdout, /^claude-layers \d+\.\d+\.\d+\n$/);
    const e = run(['explain', 'src/api/client.ts', '--cwd', demo.repo, '--home', demo.home, '--managed-dir', demo.managed]);
    assert.equal(e.status, 0, e.stderr);
    assert.match(e.stdout, /^Claude Code \d+\.\d+\.\d+ · launch directory /);
    assert.match(e.stdout, /Read → 1 file/);
    const l = run(['lint', '--cwd', demo.repo, '--home', demo.home, '--managed-dir', demo.managed, '--format', 'json']);
    assert.equal(l.status, 1, 'the demo has errors');
    assert.ok((JSON.parse(l.stdout) as { counts: { error: number } }).counts.error > 0);
  } finally {
    demo.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
