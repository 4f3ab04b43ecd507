// The npm package: `npm pack` ships the CLI bundle (its code-cache launcher dist/cli.js and dist/cli-main.js) and the chunks it loads on first use (dist/chunks/,
// esbuild.config.mjs), README, LICENSE and package.json, nothing else, and the CLI runs from the
// unpacked tarball on its own (the bundle needs no node_modules; lint loads every chunk).
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
    const chunks = fs.readdirSync(path.join(ROOT, 'dist', 'chunks')).map((f) => `dist/chunks/${f}`);
    assert.ok(chunks.length >= 4, `dist/chunks holds ${chunks.join(', ')}`);
    assert.deepEqual(info.files.map((f) => f.path).sort(), ['LICENSE', 'README.md', ...chunks, 'dist/cli.js', 'dist/cli-main.js', 'package.json'].sort());
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

test('npx ./claude-context-layers-*.tgz: the packed CLI runs through npx with an empty npm cache and no registry', () => {
  ensureBuilt();
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-npx-')));
  const demo = setupDemo() as { repo: string; home: string; managed: string; cleanup(): void };
  try {
    const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const info = (JSON.parse(out) as { filename: string }[])[0]!;
    // a fresh machine: its own npm cache and prefix, a registry that does not answer (the package
    // must need nothing from it: the bundle has no runtime dependencies)
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: demo.home,
      npm_config_cache: path.join(dir, 'npm-cache'),
      npm_config_prefix: path.join(dir, 'npm-prefix'),
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_fetch_retries: '0',
      npm_config_update_notifier: 'false',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
    };
    const r = spawnSync('npx', ['--yes', `./${info.filename}`, 'explain', 'src/api/client.ts', '--cwd', demo.repo, '--home', demo.home, '--managed-dir', demo.managed], { cwd: dir, encoding: 'utf8', env, timeout: 120_000 });
    assert.equal(r.status, 0, `npx failed: ${r.stderr}`);
    assert.match(r.stdout, /^Claude Code \d+\.\d+\.\d+ · launch directory /);
    assert.match(r.stdout, /Read → 1 file/);
  } finally {
    demo.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
