// `claude-layers explain` on the demo workspace, run as a process: layers in order, lazy injections
// per tool and version, gauges, colors only where wanted, --json.
import { after, before, describe, test } from 'node:test';
import { NEWEST_PROFILE } from '../../src/engine/index.js';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { ANSI, assertNoStack, assertUsageError, CLI, demo, run } from './helpers.js';

interface ExplainJson {
  claudeVersion: string;
  profile: { version: string; exact: boolean; note?: string };
  charsPerToken: number;
  contextWindow: number;
  startup: { chars: number; tokens: number; entries: { path: string; display: string; type: string; why: string; chars: number; lines: number; tokens: number }[] };
  alwaysLoaded: { chars: number; tokens: number; block: number; skillsListing: number };
  conditionalRules: { display: string; patterns: string[] }[];
  file: null | {
    display: string;
    inWorkingDirs: boolean;
    touches: { tool: string; triggers: boolean; sameAsRead: boolean; injected: { display: string; why: string; chars: number }[] }[];
    notMatched: { display: string }[];
  };
  gauges: {
    instructions: { tokens: number; contextWindow: number };
    memory: null | { lines: number; maxLines: number; truncated: boolean; keptLines: number; cutLine: number | null; lostEntries: { target: string | null; line: number | null }[] };
    skills: unknown;
  };
}

describe('explain', () => {
  let d: Awaited<ReturnType<typeof demo>>;
  before(async () => {
    d = await demo();
  });
  after(() => d.cleanup());

  test('text: startup layers in order, the lazy rule for src/api/client.ts, gauges; plain when not a terminal', () => {
    const r = run(['explain', 'src/api/client.ts', ...d.flags]);
    assertNoStack(r);
    assert.equal(r.code, 0, r.stderr);
    const out = r.stdout;
    assert.doesNotMatch(out, ANSI, 'no colors when stdout is not a terminal');
    const order = ['~/.claude/CLAUDE.md', ' CLAUDE.md — CLAUDE.md of the launch directory', 'docs/architecture.md', '.claude/rules/style.md', 'MEMORY.md'].map((s) => out.indexOf(s));
    assert.ok(order.every((i) => i > 0), `all layers shown:\n${out}`);
    assert.deepEqual([...order].sort((a, b) => a - b), order, 'in request order');
    assert.match(out, /≈tok = chars ÷ 3/);
    assert.match(out, /Read → 1 file/);
    assert.match(out, /\.claude\/rules\/api\.md — rule api\.md: paths src\/api\/\*\* matched/);
    assert.match(out, /Edit, Write, Bash → the same files/);
    assert.match(out, /\.claude\/rules\/legacy\.md — paths: lib\/legacy\/\*\*/);
    assert.match(out, /MEMORY\.md\s+\S+\s+228 \/ 200 lines — cut: 28 lines lost from line 201/);
    assert.match(out, /lost links: Gateway retry policy → gateway-retry\.md \(line 227\)/);
    assert.match(out, /instructions\s+\S+\s+≈[\d,]+ \/ 1,000,000 tokens/);
    assert.ok(!out.includes('packages/web/CLAUDE.md'), 'the nested CLAUDE.md is not loaded for src/api');
  });

  test('colors: FORCE_COLOR turns them on, NO_COLOR wins', () => {
    const colored = run(['explain', 'src/api/client.ts', ...d.flags], { env: { FORCE_COLOR: '1' } });
    assert.equal(colored.code, 0);
    assert.match(colored.stdout, ANSI);
    const noColor = run(['explain', 'src/api/client.ts', ...d.flags], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } });
    assert.doesNotMatch(noColor.stdout, ANSI);
    const emptyNoColor = run(['explain', ...d.flags], { env: { FORCE_COLOR: '1', NO_COLOR: '' } });
    assert.match(emptyNoColor.stdout, ANSI, 'an empty NO_COLOR does not count (no-color.org)');
  });

  test('a real terminal gets colors, unless NO_COLOR is set', (ctx) => {
    // util-linux `script` gives the CLI a pseudo-terminal as stdout
    if (spawnSync('script', ['--version']).status !== 0) {
      ctx.skip('script(1) is not available');
      return;
    }
    const cmd = [process.execPath, CLI, 'explain', 'src/api/client.ts', ...d.flags].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm' };
    const tty = spawnSync('script', ['-qec', cmd, '/dev/null'], { encoding: 'utf8', env, timeout: 60_000 });
    assert.equal(tty.status, 0, tty.stderr);
    assert.match(tty.stdout, ANSI);
    const noColor = spawnSync('script', ['-qec', cmd, '/dev/null'], { encoding: 'utf8', env: { ...env, NO_COLOR: '1' }, timeout: 60_000 });
    assert.equal(noColor.status, 0);
    assert.doesNotMatch(noColor.stdout, ANSI);
    assert.match(noColor.stdout, /Touching src\/api\/client\.ts/);
  });

  test('a version without a profile: the header names it, the next line says which profile predicts it', () => {
    const r = run(['explain', ...d.flags, '--claude-version', '2.1.340']);
    assert.equal(r.code, 0, r.stderr);
    const [head, note] = r.stdout.split('\n');
    assert.match(head!, /^Claude Code 2\.1\.340 · launch directory /);
    assert.equal(note, `2.1.340: no profile yet; using ${NEWEST_PROFILE.version}'s; \`claude-layers verify\` checks it against the installed claude`, 'the verify hint once');
    const j = JSON.parse(run(['explain', ...d.flags, '--claude-version', '2.1.340', '--json']).stdout) as ExplainJson;
    assert.deepEqual([j.claudeVersion, j.profile.version, j.profile.exact], ['2.1.340', NEWEST_PROFILE.version, false]);
    const known = run(['explain', ...d.flags, '--claude-version', '2.1.332']).stdout.split('\n');
    assert.match(known[0]!, /^Claude Code 2\.1\.332 · /);
    assert.match(known[1]!, /^model /, 'no note for a version with its own profile');
  });

  test('--json: the same facts, machine-readable', () => {
    const r = run(['explain', 'src/api/client.ts', ...d.flags, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout) as ExplainJson;
    assert.equal(j.claudeVersion, NEWEST_PROFILE.version); // no --claude-version and no binary: the newest profile
    const shown = j.startup.entries.map((e) => `${e.type} ${e.display}`);
    assert.deepEqual(shown.slice(0, 3), ['User ~/.claude/CLAUDE.md', 'Project CLAUDE.md', 'Project docs/architecture.md']);
    // rules come in the file system's raw directory order, as Claude Code reads them
    assert.deepEqual(shown.slice(3, 5).sort(), ['Project .claude/rules/style.md', 'Project .claude/rules/testing.md']);
    assert.equal(shown[5], `AutoMem ~/${path.relative(d.home, path.join(d.memory, 'MEMORY.md'))}`);
    assert.equal(shown.length, 6);
    for (const e of j.startup.entries) {
      assert.ok(e.chars > 0 && e.lines > 0 && e.why.length > 0);
      assert.equal(e.tokens, Math.ceil(e.chars / j.charsPerToken), 'rounded up, as the sidebar and Claude Code round');
    }
    assert.equal(j.startup.tokens, Math.ceil(j.startup.chars / 3));
    // what is always loaded: the block as sent and the skills listing, the sidebar's first line
    assert.equal(j.alwaysLoaded.chars, j.alwaysLoaded.block + j.alwaysLoaded.skillsListing);
    assert.ok(j.alwaysLoaded.block > j.startup.chars && j.alwaysLoaded.skillsListing > 0);
    assert.equal(j.gauges.instructions.tokens, j.alwaysLoaded.tokens);
    const read = j.file!.touches.find((t) => t.tool === 'Read')!;
    assert.deepEqual(read.injected.map((i) => i.display), ['.claude/rules/api.md']);
    for (const t of j.file!.touches.filter((x) => x.tool !== 'Read')) assert.ok(t.triggers && t.sameAsRead, `${t.tool} triggers on 2.1.328`);
    assert.deepEqual(j.file!.notMatched.map((n) => n.display), ['.claude/rules/legacy.md']);
    const m = j.gauges.memory!;
    assert.equal(m.lines, 228);
    assert.equal(m.maxLines, 200);
    assert.equal(m.truncated, true);
    assert.equal(m.keptLines, 200);
    assert.equal(m.cutLine, 201);
    assert.ok(m.lostEntries.some((e) => e.target === 'gateway-retry.md' && e.line === 227));
  });

  test('2.1.235: Edit, Write and Bash inject nothing; the Read is the same', () => {
    const r = run(['explain', 'src/api/client.ts', ...d.flags, '--claude-version', '2.1.235', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout) as ExplainJson;
    assert.equal(j.claudeVersion, '2.1.235');
    for (const t of j.file!.touches) {
      if (t.tool === 'Read') assert.deepEqual(t.injected.map((i) => i.display), ['.claude/rules/api.md']);
      else assert.deepEqual([t.triggers, t.injected.length], [false, 0], t.tool);
    }
    const text = run(['explain', 'src/api/client.ts', ...d.flags, '--claude-version', '2.1.235']);
    assert.match(text.stdout, /Edit, Write, Bash → nothing: Claude Code 2\.1\.235 loads nested files only after a Read/);
  });

  test('a file in the nested package brings its CLAUDE.md', () => {
    const j = JSON.parse(run(['explain', 'packages/web/src/App.tsx', ...d.flags, '--json']).stdout) as ExplainJson;
    const read = j.file!.touches.find((t) => t.tool === 'Read')!;
    assert.deepEqual(read.injected.map((i) => i.display), ['packages/web/CLAUDE.md']);
    assert.match(read.injected[0]!.why, /nested folder packages\/web\//);
  });

  test('without FILE: the startup layers and the conditional rules waiting for a touch', () => {
    const r = run(['explain', ...d.flags]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Conditional rules/);
    assert.match(r.stdout, /\.claude\/rules\/api\.md — paths: src\/api\/\*\*/);
    assert.doesNotMatch(r.stdout, /Touching/);
  });

  test('a FILE outside the working directories injects nothing, and says why', () => {
    const r = run(['explain', d.home, ...d.flags]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /outside the working directories/);
  });

  test('FILE relative to --cwd; a FILE that does not exist is reported as such', () => {
    assertUsageError(run(['explain', 'src/api/nope.ts', ...d.flags]), /FILE src\/api\/nope\.ts does not exist/);
    assertUsageError(run(['explain', 'a.ts', 'b.ts', ...d.flags]), /one FILE at most/);
  });
});
