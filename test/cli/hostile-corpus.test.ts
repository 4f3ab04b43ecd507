// Issue 10's hostile corpus (test/cli/hostile-corpus.ts), every row a test: each input in its own
// git repository and HOME, run through the built CLI as a process with a time limit (SIGKILL) and a
// memory limit (prlimit --as, and V8's heap limit), asserting: exit 0, 1 or 2 (never a crash, a
// signal or exit 3), no control character in any output, and the expected diagnostic. The cases an
// unprivileged user must see run as `nobody` from a copy of the CLI that user can read.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { CASES, CONTROL, makeCaseDir, removeCaseDir, runLimited, type CaseRun } from './hostile-corpus.js';
import { CLI, ensureBuilt, publicCliCopy } from './helpers.js';

const MEMORY_MIB = 2048;
const TIMEOUT_MS = 30_000;
const NOBODY = 65534;

/** a copy of the built CLI in a fresh folder every user can read (the checkout may be under /root) */
function publicCli(): { cli: string; cleanup: () => void } {
  const { dir, cli } = publicCliCopy();
  return { cli, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** can this process run a command as `nobody`, and can that user reach the temporary folder and node? */
function nobodyWhy(cli: string): string | undefined {
  if (process.getuid?.() !== 0) return 'not running as root: cannot switch to the unprivileged user (the unreadable cases need a user without access)';
  const probe = spawnSync('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath, cli, '--version'], { encoding: 'utf8', timeout: 20_000 });
  if (probe.error) return `setpriv is not available (${probe.error.message})`;
  if (probe.status !== 0) return `as nobody, ${process.execPath} ${cli} --version fails: ${(probe.stderr || '').split('\n')[0]}`;
  return undefined;
}

function assertRun(r: CaseRun, label: string): void {
  assert.equal(r.signal, null, `${label}: killed by ${r.signal} after ${r.ms.toFixed(0)} ms (time or memory limit)\n${r.stderr.slice(0, 300)}`);
  assert.ok(r.code === 0 || r.code === 1 || r.code === 2, `${label}: exit ${r.code}\n${r.stderr.slice(0, 500)}`);
  assert.doesNotMatch(r.stderr, /internal error|\n\s+at .+:\d+:\d+/, `${label}: no internal error, no stack trace`);
  const ctl = CONTROL.exec(r.stdout + r.stderr);
  assert.equal(ctl, null, `${label}: a raw control character U+${ctl?.[0].charCodeAt(0).toString(16).padStart(4, '0')} in the output`);
}

describe('hostile corpus (issue 10): every input through the built CLI, bounded in time and memory', () => {
  let pub: ReturnType<typeof publicCli>;
  let nobody: string | undefined;
  const slowest: { label: string; ms: number; rss?: number }[] = [];
  before(() => {
    ensureBuilt();
    pub = publicCli();
    nobody = nobodyWhy(pub.cli);
  });
  after(() => {
    pub.cleanup();
    slowest.sort((a, b) => b.ms - a.ms);
    const top = slowest.slice(0, 3).map((s) => `${s.label}: ${s.ms.toFixed(0)} ms${s.rss ? `, ${Math.round(s.rss / 1024)} MiB` : ''}`);
    if (top.length) console.log(`# slowest hostile runs: ${top.join('; ')}`);
  });

  for (const c of CASES) {
    test(c.name, { timeout: 240_000 }, (ctx) => {
      if (c.asNobody && nobody) {
        ctx.skip(nobody);
        return;
      }
      const d = makeCaseDir();
      try {
        const runs = c.setup(d);
        assert.ok(runs.length > 0);
        for (const args of runs) {
          const label = `${args[0]} ${args.includes('--format') ? args[args.indexOf('--format') + 1] : ''}`.trim();
          const r = runLimited(c.asNobody ? pub.cli : CLI, args, { timeoutMs: c.timeoutMs ?? TIMEOUT_MS, memoryMiB: MEMORY_MIB, asUser: c.asNobody ? NOBODY : undefined });
          slowest.push({ label: `${c.name} / ${label}`, ms: r.ms, rss: r.maxRssKiB });
          assertRun(r, label);
          const out = r.stdout + r.stderr;
          if (c.expectUsage) {
            assert.equal(r.code, 2, `${label}: a usage error`);
            assert.match(r.stderr, c.expectUsage, label);
          } else {
            assert.notEqual(r.code, 2, `${label}: not a usage error: ${r.stderr.split('\n')[0]}`);
            if (c.expectRule && (args[0] === 'lint' || (args[0] === 'render' && !c.lintOnly))) assert.ok(out.includes(c.expectRule), `${label}: reports ${c.expectRule}\n${r.stdout.slice(0, 1500)}`);
          }
          if (c.expectText && (args[0] === 'lint' || args[0] === 'render')) assert.match(out, c.expectText, label);
          if (c.forbidText) assert.doesNotMatch(out, c.forbidText, label);
          if (args.includes('json') || args.includes('sarif') || args.includes('--json')) assert.doesNotThrow(() => JSON.parse(r.stdout), `${label}: valid JSON`);
        }
      } finally {
        removeCaseDir(d);
      }
    });
  }
});
