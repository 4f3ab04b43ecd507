// Level-2 conformance suite: every scenario × every claude version, through the REAL binary against a
// loopback mock of the Messages API, compared byte for byte with the engine CLI (dist/cli.js).
//   node --import tsx --test test/conformance/conformance.test.ts
// Env: CONFORMANCE_FILTER=substr[,substr…]  only scenarios whose name contains one of them
//      CONFORMANCE_VERSIONS=2.1.332[,2.1.328,…]  versions to run (default all of VERSIONS)
//      CONFORMANCE_CONCURRENCY=N  scenario runs in parallel (default 2)
//      CONFORMANCE_REQUIRE_ENGINE=1  fail (instead of skip) when dist/cli.js is missing
// Failing runs keep their raw captures in test-results/conformance/<scenario>-<version>/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ENGINE_CLI, REPO_DIR, runScenario, saveArtifacts } from './capture.js';
import { checkBinary, compareEngine } from './compare.js';
import { PROFILE_CHECK, VERSIONS, type ClaudeVersion } from './scenario.js';
import { scenarios } from './scenarios/index.js';

const filters = (process.env.CONFORMANCE_FILTER ?? '')
  .split(',')
  .map((f) => f.trim())
  .filter(Boolean);
const versions = (process.env.CONFORMANCE_VERSIONS ?? VERSIONS.join(','))
  .split(',')
  .map((v) => v.trim())
  .filter(Boolean) as ClaudeVersion[];
const concurrency = Math.max(1, Number(process.env.CONFORMANCE_CONCURRENCY ?? 2));
const requireEngine = process.env.CONFORMANCE_REQUIRE_ENGINE === '1';
const resultsDir = path.join(REPO_DIR, 'test-results/conformance');

for (const v of versions) if (!PROFILE_CHECK && !(VERSIONS as readonly string[]).includes(v)) throw new Error(`CONFORMANCE_VERSIONS: unknown version ${v} (npm run profile:check -- ${v} runs the suites on it)`);

const selected = scenarios.filter((s) => filters.length === 0 || filters.some((f) => s.name.includes(f)));

test('conformance: real claude vs engine', { concurrency }, async (t) => {
  // the binaries: a failed install fails the suite (never skipped silently)
  execFileSync('bash', [path.join(REPO_DIR, 'scripts/install-claude.sh'), ...versions], { stdio: ['ignore', 'ignore', 'inherit'] });
  const engineCli = fs.existsSync(ENGINE_CLI) ? ENGINE_CLI : null;
  if (!engineCli) t.diagnostic(`${path.relative(REPO_DIR, ENGINE_CLI)} not found: checking the binary runs only (npm run build to compare)`);
  const isRoot = process.getuid?.() === 0;
  assert.ok(selected.length > 0, `CONFORMANCE_FILTER=${filters.join(',')} selects no scenario`);
  const time: Record<string, { runs: number; ms: number }> = {};
  const t0 = Date.now();
  const runs: Promise<void>[] = [];
  for (const s of selected) {
    for (const v of versions) {
      if (s.versions && !s.versions.includes(v)) continue;
      const name = `${s.name} @ ${v}`;
      if (!isRoot && (s.managed || s.runAs)) {
        runs.push(t.test(name, { skip: 'needs root (unshare -m / setpriv)' }));
        continue;
      }
      runs.push(
        t.test(name, async (st) => {
          const o = await runScenario(s, v, { engineCli });
          const dir = path.join(resultsDir, `${s.name}-${v}`);
          try {
            (time[v] ??= { runs: 0, ms: 0 }).runs++;
            time[v].ms += o.durationMs;
            const problems = checkBinary(o);
            const engineReport = engineCli && o.extracted ? compareEngine(o) : '';
            if (problems.length || engineReport) {
              saveArtifacts(o, dir, { 'report.txt': [...problems, engineReport].filter(Boolean).join('\n\n') + '\n' });
              st.diagnostic(`captures kept in ${path.relative(REPO_DIR, dir)}`);
            } else fs.rmSync(dir, { recursive: true, force: true });
            assert.ok(problems.length === 0, `the binary run does not match the scenario (fixture or extraction problem):\n${problems.join('\n')}`);
            if (engineCli) assert.ok(engineReport === '', `engine output differs from claude ${v}:\n${engineReport}`);
            else if (requireEngine) assert.fail(`${ENGINE_CLI} is missing (CONFORMANCE_REQUIRE_ENGINE=1)`);
            else st.skip('engine not built: binary checks only');
          } finally {
            o.cleanup();
          }
        }),
      );
    }
  }
  await Promise.all(runs);
  for (const [v, x] of Object.entries(time)) t.diagnostic(`claude ${v}: ${x.runs} runs, ${(x.ms / 1000).toFixed(1)} s of run time`);
  t.diagnostic(`wall time ${((Date.now() - t0) / 1000).toFixed(1)} s at concurrency ${concurrency}`);
});
