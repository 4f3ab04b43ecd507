// npm run profile:check -- VERSION [--profile P] [--filter SUBSTR,…]
//
// Installs Claude Code VERSION (scripts/install-claude.sh, into the cache outside the repo), runs every
// conformance suite against its binary with the profile that predicts it (its own, else the nearest older
// one; --profile forces another), and the measurements the profile's numbers come from. Prints where the
// binary and the prediction differ, so that adding a release is measuring, not guessing (docs/profiles.md).
// Exit 0 when everything agrees, 1 when something differs, 2 on a usage error.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chooseProfile } from '../src/engine/index.js';

const REPO = path.resolve(__dirname, '..');

interface Step {
  title: string;
  argv: string[];
  env?: Record<string, string>;
  /** node --test output (TAP): count the scenario subtests */
  tap?: boolean;
}

interface Outcome {
  title: string;
  ok: boolean;
  summary: string;
  details: string[];
}

function usage(msg: string): never {
  process.stderr.write(`profile:check: ${msg}\nusage: npm run profile:check -- VERSION [--profile P] [--filter SUBSTR,…]\n`);
  process.exit(2);
}

/** failing subtests of a TAP stream, each with the first lines of its error */
function tapResults(out: string): { pass: number; fail: number; skip: number; failures: string[] } {
  const lines = out.split('\n');
  let pass = 0;
  let fail = 0;
  let skip = 0;
  const failures: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^ {4}(not ok|ok) \d+ - (.*?)(?: # SKIP.*)?$/.exec(lines[i]!);
    if (!m) continue;
    if (/# SKIP/.test(lines[i]!)) skip++;
    else if (m[1] === 'ok') pass++;
    else {
      fail++;
      const err: string[] = [];
      for (let j = i + 1; j < lines.length && !/^ {4}(not )?ok /.test(lines[j]!) && err.length < 8; j++) {
        const l = lines[j]!.trim();
        if (!l || /^(---|\.\.\.|duration_ms|location|failureType|code:|name:|stack:|error: \|-|operator|expected|actual|async |process\.|TestContext|Test\.|at )/.test(l)) continue;
        err.push(l);
      }
      failures.push(`${m[2]}\n      ${err.join('\n      ')}`);
    }
  }
  return { pass, fail, skip, failures };
}

function run(step: Step): Outcome {
  process.stderr.write(`… ${step.title}\n`);
  const r = spawnSync(step.argv[0]!, step.argv.slice(1), { cwd: REPO, env: { ...process.env, ...step.env }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (step.tap) {
    const t = tapResults(r.stdout ?? '');
    const ok = r.status === 0 && t.fail === 0;
    return { title: step.title, ok, summary: `${t.pass} pass, ${t.fail} fail${t.skip ? `, ${t.skip} skipped` : ''}${r.status !== 0 && t.fail === 0 ? ` (exit ${r.status})` : ''}`, details: t.failures.length ? t.failures : ok ? [] : out.trim().split('\n').slice(-15) };
  }
  const lines = out.trim().split('\n');
  const differs = lines.filter((l) => /DIFFERS|differ|not in profile|not reserved/.test(l) && !/: \[\]$/.test(l));
  return { title: step.title, ok: r.status === 0 && differs.length === 0, summary: lines.at(-1) ?? '', details: r.status === 0 ? differs : lines.slice(-15) };
}

function main(): void {
  const args = process.argv.slice(2);
  const version = args.find((a) => !a.startsWith('--') && !['--profile', '--filter'].includes(args[args.indexOf(a) - 1] ?? ''));
  if (!version) usage('which version?');
  if (!/^\d+\.\d+\.\d+$/.test(version)) usage(`"${version}" is not a version`);
  const pi = args.indexOf('--profile');
  const forced = pi >= 0 ? args[pi + 1] : undefined;
  const fi = args.indexOf('--filter');
  const filter = fi >= 0 ? args[fi + 1] : undefined;
  const choice = chooseProfile(forced ?? version);
  if (forced && !choice.exact) usage(`--profile ${forced}: no such profile`);
  const profile = choice.profile.version;

  const install = spawnSync('bash', [path.join(REPO, 'scripts/install-claude.sh'), version], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (install.status !== 0) {
    process.stderr.write(`profile:check: installing Claude Code ${version} failed\n`);
    process.exit(1);
  }
  if (!fs.existsSync(path.join(REPO, 'dist/cli.js'))) usage('dist/cli.js is missing: npm run build first');

  const env = { PROFILE_CHECK: '1', ...(forced ? { PROFILE_CHECK_PROFILE: forced } : {}), CONFORMANCE_REQUIRE_ENGINE: '1', CONFORMANCE_CONCURRENCY: process.env.CONFORMANCE_CONCURRENCY ?? '1' };
  const node = [process.execPath, '--import', 'tsx'];
  const test = [...node, '--test', '--test-reporter=tap'];
  const ms = 'test/conformance/memory-skills';
  const steps: Step[] = [
    { title: 'instructions conformance (test/conformance/conformance.test.ts)', argv: [...test, 'test/conformance/conformance.test.ts'], env: { ...env, CONFORMANCE_VERSIONS: version, ...(filter ? { CONFORMANCE_FILTER: filter } : {}) }, tap: true },
    { title: 'memory and skills conformance (test/conformance/memory-skills.test.ts)', argv: [...test, 'test/conformance/memory-skills.test.ts'], env: { ...env, MS_VERSIONS: version, ...(filter ? { MS_ONLY: filter } : {}) }, tap: true },
    { title: 'session conformance (test/conformance/session.test.ts)', argv: [...test, 'test/conformance/session.test.ts'], env: { ...env, SESSION_VERSIONS: version, SESSION_CONCURRENCY: process.env.SESSION_CONCURRENCY ?? '2', ...(filter ? { SESSION_ONLY: filter } : {}) }, tap: true },
    { title: 'fixed request sizes (test/conformance/fixed-sizes.test.ts)', argv: [...test, 'test/conformance/fixed-sizes.test.ts'], env: { ...env, MS_VERSIONS: version }, tap: true },
    { title: `shipped skills and their widths (${ms}/measure-widths.ts bundled)`, argv: [...node, `${ms}/measure-widths.ts`, 'bundled', version], env },
    { title: `models: aliases, default, budget per model (${ms}/measure-models.ts)`, argv: [...node, `${ms}/measure-models.ts`, version, '--profile', profile], env },
  ];
  const outcomes = (filter ? steps.slice(0, 2) : steps).map(run);

  const out: string[] = [];
  out.push(`Claude Code ${version}, predicted with profile ${profile}${choice.note ? ` (${choice.note})` : forced ? ' (forced)' : ' (its own)'}`);
  for (const o of outcomes) {
    out.push(`${o.ok ? 'ok  ' : 'DIFF'} ${o.title}: ${o.summary}`);
    for (const d of o.details.slice(0, 40)) out.push(`       ${d}`);
    if (o.details.length > 40) out.push(`       … ${o.details.length - 40} more`);
  }
  const bad = outcomes.filter((o) => !o.ok).length;
  out.push(bad ? `${bad} of ${outcomes.length} checks differ: failing conformance runs keep their captures in test-results/conformance/; see docs/profiles.md` : `every check agrees: ${version} behaves as profile ${profile} predicts`);
  process.stdout.write(out.join('\n') + '\n');
  process.exitCode = bad ? 1 : 0;
}

main();
