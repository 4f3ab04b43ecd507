// npm run profile:check -- VERSION|--latest [--profile P] [--filter SUBSTR,…]
//
// Installs Claude Code VERSION (scripts/install-claude.sh, into the cache outside the repo), runs every
// conformance suite against its binary with the profile that predicts it (its own, else the nearest older
// one; --profile forces another), and the measurements the profile's numbers come from. Prints where the
// binary and the prediction differ, as a short list (the check or scenario, the binary's text and the
// engine's), then a draft profile entry for the differences of a known kind (a fixed size, a shipped
// skill's width, a model, a reserved name), so that adding a release is measuring, not guessing
// (docs/profiles.md). `--latest` asks the npm registry for the newest published release first.
// Exit 0 when everything agrees, 1 when something differs, 2 on a usage error.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chooseProfile, NEWEST_PROFILE, type ClaudeProfile } from '../src/engine/index.js';

const REPO = path.resolve(__dirname, '..');
const PACKAGE = '@anthropic-ai/claude-code-linux-x64';

interface Step {
  title: string;
  argv: string[];
  env?: Record<string, string>;
  /** node --test output (TAP): count the scenario subtests */
  tap?: boolean;
  /** reads the step's output into draft profile changes */
  draft?: (out: string, profile: ClaudeProfile) => Draft;
}

interface Outcome {
  title: string;
  ok: boolean;
  summary: string;
  details: string[];
  draft: Draft;
}

/** profile fields a difference of a known kind changes, as TypeScript source lines, with why */
interface Draft {
  lines: string[];
}

function usage(msg: string): never {
  process.stderr.write(`profile:check: ${msg}\nusage: npm run profile:check -- VERSION|--latest [--profile P] [--filter SUBSTR,…]\n`);
  process.exit(2);
}

const short = (s: string, n = 160) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** failing subtests of a TAP stream, each with the first lines of its error (the two texts) */
export function tapResults(out: string): { pass: number; fail: number; skip: number; failures: string[] } {
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
      for (let j = i + 1; j < lines.length && !/^ {4}(not )?ok /.test(lines[j]!) && !/^\s*# Subtest/.test(lines[j]!) && err.length < 8; j++) {
        const l = lines[j]!.trim();
        if (!l || /^(---|\.\.\.|duration_ms|location|failureType|code:|name:|stack:|error: \|-|operator|expected|actual|async |process\.|TestContext|Test\.|at |'\+ |'- |\+ actual - expected|\+ ['`]|- ''$)/.test(l)) continue;
        err.push(short(l));
      }
      failures.push(`${m[2]}\n      ${err.join('\n      ')}`);
    }
  }
  return { pass, fail, skip, failures };
}

function run(step: Step, profile: ClaudeProfile): Outcome {
  process.stderr.write(`… ${step.title}\n`);
  const r = spawnSync(step.argv[0]!, step.argv.slice(1), { cwd: REPO, env: { ...process.env, ...step.env }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  const draft = step.draft ? step.draft(out, profile) : { lines: [] };
  if (step.tap) {
    const t = tapResults(r.stdout ?? '');
    // --filter naming no scenario of this suite: nothing ran, nothing differs
    if (t.pass === 0 && t.fail === 0 && /selects no scenario/.test(out)) return { title: step.title, ok: true, summary: 'no scenario of this suite matches --filter', details: [], draft };
    const ok = r.status === 0 && t.fail === 0;
    return { title: step.title, ok, summary: `${t.pass} pass, ${t.fail} fail${t.skip ? `, ${t.skip} skipped` : ''}${r.status !== 0 && t.fail === 0 ? ` (exit ${r.status})` : ''}`, details: t.failures.length ? t.failures : ok ? [] : out.trim().split('\n').slice(-15), draft };
  }
  const lines = out.trim().split('\n');
  const differs = lines.filter((l) => /DIFFERS|differ|not in profile|not reserved|not protected in profile|, listed: /.test(l) && !/: \[\]$/.test(l) && !/^\d+ (models|strings) differ$/.test(l));
  return { title: step.title, ok: r.status === 0 && differs.length === 0, summary: lines.at(-1) ?? '', details: r.status === 0 ? differs : lines.slice(-15), draft };
}

// --- drafts: the known kinds of difference ---

export function draftFixedSizes(out: string, profile: ClaudeProfile): Draft {
  const m = /measured (\{[^}]*\}), profile (\{[^}]*\})/.exec(out);
  if (!m) return { lines: [] };
  const got = JSON.parse(m[1]!) as Record<string, number>;
  const want = JSON.parse(m[2]!) as Record<string, number>;
  // tools and the empty listing are exact; system and messages vary by a few characters (date, git status)
  const changed = Object.keys(want).filter((k) => (k === 'tools' || k === 'defaultSkillsListing' ? got[k] !== want[k] : Math.abs(got[k]! - want[k]!) > want[k]! * 0.02));
  if (!changed.length) return { lines: [] };
  void profile;
  return { lines: [`request: { ...PREV.request, ${changed.map((k) => `${k}: ${got[k]}`).join(', ')} }, // measured (fixed-sizes.test.ts); profile had ${changed.map((k) => `${k} ${want[k]}`).join(', ')}`] };
}

export function draftWidths(out: string, profile: ClaudeProfile): Draft {
  const changed: string[] = [];
  for (const m of out.matchAll(/^\S+ (\S+): (\d+) \(profile (\d+) DIFFERS/gm)) {
    const b = profile.skills.bundled.find((x) => x.name === m[1]);
    const w = Number(m[2]);
    // the name is unchanged, so the description moved by the same amount
    changed.push(`${JSON.stringify(m[1])}: { width: ${w}, descriptionChars: ${b ? b.descriptionChars + (w - b.width) : '?'} }`);
  }
  if (!changed.length) return { lines: [] };
  return { lines: [`skills.bundled: PREV.skills.bundled.map((b) => ({ ...b, ...({ ${changed.join(', ')} } as Record<string, Partial<BundledSkill>>)[b.name] })), // measure-widths.ts bundled`] };
}

export function draftModels(out: string, profile: ClaudeProfile): Draft {
  const lines: string[] = [];
  for (const m of out.matchAll(/^\S+ --model (\S+): request model (\S+) \(profile \S+: (\S+)\), budget (\d+): (.*?)DIFFERS$/gm)) {
    const [, alias, got, want, budget, rest] = m;
    if (got !== want) {
      if (alias === '(none)') lines.push(`models.defaultModel: ${JSON.stringify(got)}, // measure-models.ts: the request model without --model (profile ${want})`);
      else if (profile.models.aliases[alias!] !== undefined) lines.push(`models.aliases[${JSON.stringify(alias)}]: ${JSON.stringify(got)}, // measure-models.ts (profile ${want})`);
      else lines.push(`// --model ${alias}: the request names ${got}, the profile predicts ${want}`);
    } else lines.push(`// --model ${alias}: the listing budget is not ${budget} (${rest!.trim()}): listingBudgetFraction, a context window or fourCharsPerToken changed`);
  }
  return { lines };
}

export function draftReserved(out: string, profile: ClaudeProfile): Draft {
  const list = (re: RegExp) => {
    const m = re.exec(out)?.[1];
    return m ? (JSON.parse(m) as string[]) : [];
  };
  const a = list(/^not in profile \S+: (\[.*\])$/m);
  const d = list(/^in profile \S+, not reserved: (\[.*\])$/m).filter((n) => profile.skills.reservedNames.includes(n));
  const gone = list(/^not listed at all, not protected in profile \S+: (\[.*\])$/m);
  const freed = list(/^protected in profile \S+, listed: (\[.*\])$/m);
  const shipped = new Set(profile.skills.bundled.map((b) => b.name));
  const lines: string[] = [];
  if (a.length || d.length)
    lines.push(`skills.reservedNames: [...PREV.skills.reservedNames${d.length ? `.filter((n) => !${JSON.stringify(d)}.includes(n))` : ''}${a.length ? `, ...${JSON.stringify(a)}` : ''}].sort(), // measure-reserved.ts${a.length ? `: newly reserved ${a.join(', ')}` : ''}${d.length ? `; free again ${d.join(', ')}` : ''}`);
  const newlyProtected = gone.filter((n) => shipped.has(n));
  if (newlyProtected.length || freed.length)
    lines.push(`skills.protectedNames: [...PREV.skills.protectedNames${freed.length ? `.filter((n) => !${JSON.stringify(freed)}.includes(n))` : ''}${newlyProtected.length ? `, ...${JSON.stringify(newlyProtected)}` : ''}], // measure-reserved.ts: a project skill with the frontmatter name ${[...newlyProtected, ...freed].join(', ')} is ${newlyProtected.length ? 'not listed at all (the shipped skill keeps its name)' : 'listed again'}`);
  for (const n of gone.filter((x) => !shipped.has(x))) lines.push(`// a project skill with the frontmatter name ${n} is not listed at all: not a shipped skill of the profile (a new one? see the fixed sizes' empty listing)`);
  return { lines };
}

/** a changed string: a failing scenario whose difference is one line of text on both sides */
export function draftStrings(out: string): Draft {
  const lines: string[] = [];
  for (const m of out.matchAll(/claude: (".*?")\s*\n\s*engine: (".*?")/g)) {
    if (lines.length >= 5) break;
    lines.push(`// changed string? claude ${short(m[1]!, 100)}, engine ${short(m[2]!, 100)}: if it is one of src/engine/format-strings.ts, give it a profile field`);
  }
  return { lines };
}

function latestVersion(): string {
  const r = spawnSync('npm', ['view', PACKAGE, 'version'], { encoding: 'utf8' });
  const v = (r.stdout ?? '').trim().split('\n').at(-1)?.trim() ?? '';
  if (r.status !== 0 || !/^\d+\.\d+\.\d+$/.test(v)) {
    process.stderr.write(`profile:check: cannot ask the npm registry for the newest ${PACKAGE} (npm view exited ${r.status}): ${(r.stderr ?? '').trim().slice(0, 300)}\n`);
    process.exit(1);
  }
  return v;
}

function main(): void {
  const started = Date.now();
  const args = process.argv.slice(2);
  const latest = args.includes('--latest');
  let version = args.find((a) => !a.startsWith('--') && !['--profile', '--filter'].includes(args[args.indexOf(a) - 1] ?? ''));
  if (latest && version) usage('give a VERSION or --latest, not both');
  if (latest) {
    version = latestVersion();
    process.stderr.write(`profile:check: the newest published ${PACKAGE} is ${version}\n`);
  }
  if (!version) usage('which version? (or --latest)');
  if (!/^\d+\.\d+\.\d+$/.test(version)) usage(`"${version}" is not a version`);
  const pi = args.indexOf('--profile');
  const forced = pi >= 0 ? args[pi + 1] : undefined;
  const fi = args.indexOf('--filter');
  const filter = fi >= 0 ? args[fi + 1] : undefined;
  const choice = chooseProfile(forced ?? version);
  if (forced && !choice.exact) usage(`--profile ${forced}: no such profile`);
  const profile = choice.profile;

  const install = spawnSync('bash', [path.join(REPO, 'scripts/install-claude.sh'), version], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (install.status !== 0) {
    process.stderr.write(`profile:check: installing Claude Code ${version} failed\n`);
    process.exit(1);
  }
  if (!fs.existsSync(path.join(REPO, 'dist/cli.js'))) usage('dist/cli.js is missing: npm run build first');

  const env = { PROFILE_CHECK: '1', ...(forced ? { PROFILE_CHECK_PROFILE: forced } : {}), CONFORMANCE_REQUIRE_ENGINE: '1', CONFORMANCE_CONCURRENCY: process.env.CONFORMANCE_CONCURRENCY ?? '2' };
  const node = [process.execPath, '--import', 'tsx'];
  const test = [...node, '--test', '--test-reporter=tap'];
  const ms = 'test/conformance/memory-skills';
  // reserved-name candidates: the profile's own, its shipped skills and the names shipped only while bundled skills are on
  const candidates = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-profile-check-')), 'names.txt');
  fs.writeFileSync(candidates, [...profile.skills.reservedNames, ...profile.skills.reservedWhileBundled, ...profile.skills.bundled.map((b) => b.name)].join('\n') + '\n');
  const steps: Step[] = [
    { title: 'instructions conformance (test/conformance/conformance.test.ts)', argv: [...test, 'test/conformance/conformance.test.ts'], env: { ...env, CONFORMANCE_VERSIONS: version, ...(filter ? { CONFORMANCE_FILTER: filter } : {}) }, tap: true, draft: draftStrings },
    { title: 'memory and skills conformance (test/conformance/memory-skills.test.ts)', argv: [...test, 'test/conformance/memory-skills.test.ts'], env: { ...env, MS_VERSIONS: version, ...(filter ? { MS_ONLY: filter } : {}) }, tap: true, draft: draftStrings },
    { title: 'session conformance (test/conformance/session.test.ts)', argv: [...test, 'test/conformance/session.test.ts'], env: { ...env, SESSION_VERSIONS: version, SESSION_CONCURRENCY: process.env.SESSION_CONCURRENCY ?? '2', ...(filter ? { SESSION_ONLY: filter } : {}) }, tap: true },
    { title: 'fixed request sizes (test/conformance/fixed-sizes.test.ts)', argv: [...test, 'test/conformance/fixed-sizes.test.ts'], env: { ...env, MS_VERSIONS: version }, tap: true, draft: draftFixedSizes },
    { title: `shipped skills and their widths (${ms}/measure-widths.ts bundled)`, argv: [...node, `${ms}/measure-widths.ts`, 'bundled', version], env, draft: draftWidths },
    { title: `models: aliases, default, budget per model (${ms}/measure-models.ts)`, argv: [...node, `${ms}/measure-models.ts`, version, '--profile', profile.version], env, draft: draftModels },
    { title: `reserved frontmatter names (${ms}/measure-reserved.ts)`, argv: [...node, `${ms}/measure-reserved.ts`, version, candidates, '--profile', profile.version], env, draft: draftReserved },
  ];
  const outcomes = (filter ? steps.slice(0, 3) : steps).map((s) => run(s, profile));

  const out: string[] = [];
  out.push(`Claude Code ${version}${latest ? ' (the newest on the npm registry)' : ''}, predicted with profile ${profile.version}${choice.note ? ` (${choice.note})` : forced ? ' (forced)' : ' (its own)'}`);
  for (const o of outcomes) {
    out.push(`${o.ok ? 'ok  ' : 'DIFF'} ${o.title}: ${o.summary}`);
    for (const d of o.details.slice(0, 40)) out.push(`       ${d}`);
    if (o.details.length > 40) out.push(`       … ${o.details.length - 40} more`);
  }
  const bad = outcomes.filter((o) => !o.ok).length;
  const seconds = Math.round((Date.now() - started) / 1000);
  if (bad) {
    out.push(`${bad} of ${outcomes.length} checks differ (${seconds} s): failing conformance runs keep their captures in test-results/conformance/; see docs/profiles.md`);
    const draft = outcomes.flatMap((o) => o.draft.lines);
    const known = profile.version === version;
    out.push('');
    out.push(`Draft profile entry (src/engine/profiles.ts; PREV = ${profile.version}'s profile${known ? ', edited in place' : ''}):`);
    out.push(`const V${version.replace(/\./g, '_')}: ClaudeProfile = {`);
    out.push(`  ...PREV,`);
    out.push(`  version: '${version}',`);
    // `group.field: value, // why` lines become `group: { ...PREV.group, field: value }`
    const groups = new Map<string, string[]>();
    for (const l of draft) {
      const m = /^(skills|models|memory|session)\.(.*)$/.exec(l);
      if (!m) out.push(`  ${l}`);
      else groups.set(m[1]!, [...(groups.get(m[1]!) ?? []), m[2]!]);
    }
    for (const [g, ls] of groups) {
      out.push(`  ${g}: {`, `    ...PREV.${g},`);
      for (const l of ls) out.push(`    ${l.replace(/^aliases\[("[^"]*")\]: /, 'aliases: { ...PREV.models.aliases, $1: ').replace(/^(aliases: \{.*?),( \/\/.*)?$/, '$1 },$2')}`);
      out.push('  },');
    }
    if (!draft.some((l) => !l.startsWith('//'))) out.push('  // no difference of a known kind: the failures above need a new field (docs/profiles.md, step 3)');
    out.push(`  checked: { on: '${new Date().toISOString().slice(0, 10)}', suites: { … the counts above once they pass } },`);
    out.push('};');
  } else out.push(`every check agrees (${seconds} s): ${version} behaves as profile ${profile.version} predicts${profile.version === NEWEST_PROFILE.version || choice.exact ? '' : `; add it as { ...V${profile.version.replace(/\./g, '_')}, version: '${version}' }`}`);
  process.stdout.write(out.join('\n') + '\n');
  process.exitCode = bad ? 1 : 0;
}

// a module for the unit tests of its parsers, a script for npm run profile:check
if (require.main === module) main();
