// verify against the real binaries (2.1.328 and 2.1.235, from the npm registry, cached outside the
// repo): a match on the fixture workspace and on the demo workspace (through the CLI), a mismatch
// with a deliberately wrong prediction (a tampered prediction; a wrong profile), a version with no
// profile (nearest older one, said so), a timeout that ends the whole process group, and the
// clean-up of what a run leaves behind.
//   node --import tsx --test test/ground-truth/*.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { memoryKey } from '../../src/engine/memory/memory.js';
import { planVerify, renderVerify, runVerify, verify } from '../../src/ground-truth/index.js';
import { demo, run as runCli } from '../cli/helpers.js';
import { baseEnv, ensureBinaries, listJsonl, script, tempDir, wrapper, writeTree } from './helpers.js';
import { claudeBin, materialise, VERSIONS } from './scenario.js';

const noManaged = (root: string) => path.join(root, 'no-managed-policy');

/** no such process, or a zombie waiting for an init that does not reap (containers) */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

test('verify: the real binaries match the prediction on the fixture workspace', async (t) => {
  ensureBinaries();
  for (const v of VERSIONS) {
    await t.test(v, async () => {
      const ws = materialise();
      try {
        const r = await verify({ cwd: ws.repo, file: 'src/api/client.ts', claudePath: claudeBin(v), home: ws.home, env: baseEnv(ws.home), managedDir: noManaged(ws.root), timeoutMs: 60_000 });
        assert.equal(r.verdict, 'match', renderVerify(r));
        assert.equal(r.plan.version, v);
        assert.deepEqual(r.plan.profile, { version: v, exact: true, note: undefined, forced: false });
        assert.deepEqual(r.sections.map((s) => [s.id, s.status]), [['startup', 'equal'], ['lazy', 'equal']]);
        const startup = r.sections[0]!.actual!;
        for (const m of ['MARK_GT_USER', 'MARK_GT_ROOT', 'MARK_GT_INCLUDED', 'MARK_GT_LOCAL', 'MARK_GT_RULE_STYLE', 'MARK_GT_MEMORY']) assert.ok(startup.includes(m), m);
        assert.deepEqual(r.sections[1]!.actualEntries!.map((e) => /^Contents of (.*?):/.exec(e)?.[1]), [path.join(ws.repo, 'src/api/CLAUDE.md'), path.join(ws.repo, '.claude/rules/api.md')]);
        // nothing left behind but what is reported
        const run = r.run!;
        assert.equal(run.exitCode, 0);
        assert.equal(run.dummyKeyOnly, true);
        assert.deepEqual(run.otherHosts, []);
        const e = r.sideEffects!;
        assert.equal(e.transcriptsDeleted.length, 1);
        assert.match(e.transcriptsDeleted[0]!, new RegExp(`/projects/${memoryKey(ws.repo)}/[0-9a-f-]{36}\\.jsonl$`));
        assert.deepEqual(listJsonl(path.join(ws.home, '.claude/projects', memoryKey(ws.repo))), []);
        assert.equal(e.memoryDir.existedBefore, true);
        assert.equal(e.claudeJson.created, true);
      } finally {
        ws.cleanup();
      }
    });
  }
});

test('verify: a launch directory below the git root, no memory folder yet (created by claude, removed again)', async () => {
  ensureBinaries();
  const ws = materialise();
  try {
    fs.rmSync(path.join(ws.home, '.claude/projects'), { recursive: true, force: true });
    const cwd = path.join(ws.repo, 'src');
    const r = await verify({ cwd, file: 'api/client.ts', claudePath: claudeBin('2.1.328'), home: ws.home, env: baseEnv(ws.home), managedDir: noManaged(ws.root) });
    assert.equal(r.verdict, 'match', renderVerify(r));
    const e = r.sideEffects!;
    // the transcript goes under the key of the launch directory, the memory folder under the git root's
    assert.match(e.transcriptsDeleted[0]!, new RegExp(`/projects/${memoryKey(cwd)}/`));
    assert.equal(e.memoryDir.path, path.join(ws.home, '.claude/projects', memoryKey(ws.repo), 'memory'));
    assert.deepEqual([e.memoryDir.existedBefore, e.memoryDir.removed, e.memoryDir.existsAfter], [false, true, false]);
    assert.deepEqual(fs.readdirSync(path.join(ws.home, '.claude/projects')), [], 'no folder left under projects/');
  } finally {
    ws.cleanup();
  }
});

test('verify: a tampered prediction is a mismatch, with a unified diff of the section', async () => {
  ensureBinaries();
  const ws = materialise();
  try {
    const r = await verify({
      cwd: ws.repo,
      file: 'src/api/client.ts',
      claudePath: claudeBin('2.1.328'),
      home: ws.home,
      env: baseEnv(ws.home),
      managedDir: noManaged(ws.root),
      alterPrediction: (p) => ({ startup: p.startup!.replace('MARK_GT_LOCAL', 'MARK_GT_TAMPERED'), lazy: p.lazy!.slice(0, 1) }),
    });
    assert.equal(r.verdict, 'mismatch');
    const [startup, lazy] = r.sections;
    assert.equal(startup!.status, 'differs');
    assert.match(startup!.diff, /^--- predicted \(startup instructions\)\n\+\+\+ claude \(startup instructions\)\n@@ /);
    assert.match(startup!.diff, /^-MARK_GT_TAMPERED$/m);
    assert.match(startup!.diff, /^\+MARK_GT_LOCAL$/m);
    assert.equal(lazy!.status, 'differs');
    assert.match(lazy!.diff, /^\+MARK_GT_RULE_API$/m);
    assert.match(r.summary, /differs from profile 2\.1\.328 in startup instructions, Read /);
  } finally {
    ws.cleanup();
  }
});

test('verify: a wrong profile (2.1.235 forced on the 2.1.328 binary) shows where it differs', async () => {
  ensureBinaries();
  const { dir, cleanup } = tempDir();
  try {
    // no CLAUDE.md anywhere: 2.1.328 falls back to AGENTS.md, 2.1.235 ignores it
    writeTree(dir, { 'repo/AGENTS.md': 'MARK_GT_AGENTS_ONLY\n', 'repo/a.ts': 'x\n', 'home/.keep': '' });
    fs.mkdirSync(path.join(dir, 'repo/.git'));
    const home = path.join(dir, 'home');
    const r = await verify({ cwd: path.join(dir, 'repo'), file: 'a.ts', claudePath: claudeBin('2.1.328'), version: '2.1.235', home, env: baseEnv(home), managedDir: noManaged(dir) });
    assert.equal(r.verdict, 'mismatch', renderVerify(r));
    assert.deepEqual(r.plan.profile, { version: '2.1.235', exact: true, note: undefined, forced: true });
    const s = r.sections[0]!;
    assert.equal(s.status, 'differs');
    assert.equal(s.predicted, null);
    assert.ok(s.actual!.includes('MARK_GT_AGENTS_ONLY'));
    assert.match(s.diff, /^--- predicted \(startup instructions\) \(absent\)$/m);
  } finally {
    cleanup();
  }
});

test('verify: a version with no profile is predicted with the nearest older one, and says so', async () => {
  ensureBinaries();
  const ws = materialise();
  try {
    const fake = wrapper(path.join(ws.root, 'bin/claude'), '2.1.400', '2.1.336');
    const r = await verify({ cwd: ws.repo, file: 'src/api/client.ts', claudePath: fake, home: ws.home, env: baseEnv(ws.home), managedDir: noManaged(ws.root) });
    assert.equal(r.plan.version, '2.1.400');
    assert.equal(r.plan.profile.version, '2.1.336');
    assert.equal(r.plan.profile.exact, false);
    assert.equal(r.plan.profile.note, "2.1.400: no profile yet; using 2.1.336's; `claude-layers verify` checks it against the installed claude");
    assert.equal(r.verdict, 'match', renderVerify(r));
    assert.match(renderVerify(r), /the 2\.1\.336 profile matched claude 2\.1\.400/);
  } finally {
    ws.cleanup();
  }
});

test('verify: a claude that hangs is stopped at the timeout, its whole process group with it', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const pids = path.join(dir, 'pids');
    const fake = script(path.join(dir, 'claude'), `if [ "$1" = "--version" ]; then echo "2.1.328 (Claude Code)"; exit 0; fi\nsleep 300 &\necho $! > '${pids}'\nsleep 300`);
    fs.mkdirSync(path.join(dir, 'home'));
    fs.mkdirSync(path.join(dir, 'repo'));
    const t0 = Date.now();
    const r = await verify({ cwd: path.join(dir, 'repo'), claudePath: fake, home: path.join(dir, 'home'), env: baseEnv(path.join(dir, 'home')), timeoutMs: 1500, managedDir: noManaged(dir) });
    assert.ok(Date.now() - t0 < 15_000);
    assert.equal(r.verdict, 'error');
    assert.equal(r.run!.timedOut, true);
    assert.match(r.summary, /did not finish within 2 s/);
    const child = Number(fs.readFileSync(pids, 'utf8').trim());
    await new Promise((res) => setTimeout(res, 300));
    assert.ok(gone(child), 'the background child of claude is gone too');
  } finally {
    cleanup();
  }
});

test('verify: claude missing, or not executable: could not run (no exception leaks)', async () => {
  const { dir, cleanup } = tempDir();
  try {
    await assert.rejects(planVerify({ cwd: dir, env: { PATH: path.join(dir, 'empty'), HOME: dir } }), /claude was not found on PATH/);
    await assert.rejects(planVerify({ cwd: dir, claudePath: 'claude', env: { PATH: '/usr/bin', HOME: dir } }), /must be absolute/);
    const plan = await planVerify({ cwd: dir, claudePath: script(path.join(dir, 'claude'), 'echo nothing'), env: { PATH: '/usr/bin:/bin', HOME: dir } });
    assert.match(plan.blockers.join('\n'), /no version in the output of claude --version/);
    const r = await runVerify(plan, { cwd: dir });
    assert.equal(r.verdict, 'error');
  } finally {
    cleanup();
  }
});

test('CLI: claude-layers verify on the demo workspace matches for both versions; exit codes', async (t) => {
  ensureBinaries();
  const d = await demo();
  try {
    for (const v of VERSIONS) {
      await t.test(v, () => {
        const r = runCli(['verify', 'src/api/client.ts', '--cwd', d.repo, '--claude', claudeBin(v), '--yes', '--json'], { env: { HOME: d.home } });
        assert.equal(r.code, 0, r.stderr + r.stdout);
        const j = JSON.parse(r.stdout) as { verdict: string; plan: Record<string, unknown>; sections: { status: string }[] };
        assert.equal(j.verdict, 'match');
        assert.equal(j.plan.version, v);
        assert.equal('inputs' in j.plan, false, 'the parent environment is never printed');
        assert.deepEqual(j.sections.map((s) => s.status), ['equal', 'equal']);
        assert.match(r.stderr, /It runs, once, with a dummy API key/);
      });
    }
    await t.test('text output, then a mismatch (exit 1) with a forced profile', () => {
      const ok = runCli(['verify', 'src/api/client.ts', '--cwd', d.repo, '--claude', claudeBin('2.1.328'), '--yes'], { env: { HOME: d.home } });
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stdout, /^MATCH: claude 2\.1\.328 sent exactly what profile 2\.1\.328 predicts$/m);
      assert.match(ok.stdout, /== startup instructions: equal/);
      assert.match(ok.stdout, /transcript: .*\.jsonl deleted/);
    });
    await t.test('no --yes off a terminal: usage error, nothing run', () => {
      const r = runCli(['verify', '--cwd', d.repo, '--claude', claudeBin('2.1.328')], { env: { HOME: d.home } });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /pass --yes to confirm when not on a terminal/);
      assert.deepEqual(listJsonl(path.join(d.home, '.claude/projects', memoryKey(d.repo))), []);
    });
    await t.test('a missing FILE or --cwd: usage error', () => {
      assert.equal(runCli(['verify', 'nope.ts', '--cwd', d.repo, '--yes'], { env: { HOME: d.home } }).code, 2);
      assert.equal(runCli(['verify', '--cwd', path.join(d.repo, 'nope'), '--yes'], { env: { HOME: d.home } }).code, 2);
    });
    await t.test('no claude: exit 3', () => {
      const r = runCli(['verify', '--cwd', d.repo, '--yes'], { env: { HOME: d.home, PATH: '/nonexistent' } });
      assert.equal(r.code, 3);
      assert.match(r.stderr, /claude was not found on PATH/);
    });
  } finally {
    d.cleanup();
  }
});

test('CLI: a forced wrong profile exits 1', () => {
  ensureBinaries();
  const { dir, cleanup } = tempDir();
  try {
    writeTree(dir, { 'repo/AGENTS.md': 'MARK_GT_AGENTS_ONLY\n', 'home/.keep': '' });
    fs.mkdirSync(path.join(dir, 'repo/.git'));
    const r = runCli(['verify', '--cwd', path.join(dir, 'repo'), '--claude', claudeBin('2.1.328'), '--claude-version', '2.1.235', '--yes'], { env: { HOME: path.join(dir, 'home') } });
    assert.equal(r.code, 1, r.stderr + r.stdout);
    assert.match(r.stdout, /^MISMATCH: /m);
    assert.match(r.stdout, /^\+MARK_GT_AGENTS_ONLY$/m);
  } finally {
    cleanup();
  }
});
