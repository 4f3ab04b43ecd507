// Measures the model facts of a profile on the live binary: which model id each alias resolves to
// (the request's `model` field) and the skills listing budget the model gets (contextWindow ×
// bytesPerToken × 0.01, memory spec B7). The budget is observed through demotion: a listing whose
// full width is exactly the profile's budget must stay whole, one column more must demote an entry.
//
//   node --import tsx test/conformance/memory-skills/measure-models.ts VERSION [--profile VERSION]
//
// --profile: predict with another version's profile (what profile:check does for a new release).
// Prints one line per model and `all models agree` or `N models differ` (exit 1). Nothing of Claude
// Code's text is printed: only model ids and numbers.
import fs from 'node:fs';
import path from 'node:path';
import { analyze, chooseProfile, type ClaudeProfile } from '../../../src/engine/index.js';
import { materialise } from '../capture.js';
import { fm, type ClaudeVersion } from '../scenario.js';
import { runMS, type MSScenario } from './run.js';

const NO_BUNDLED = { CLAUDE_CODE_DISABLE_BUNDLED_SKILLS: '1' };
const FILLER = 1200;

/** `--model` values to try: none (the default), every alias of the profile, its measured ids, and an unknown id */
function models(profile: ClaudeProfile): (string | undefined)[] {
  return [
    undefined,
    ...Object.keys(profile.models.aliases),
    ...profile.models.measured,
    'my-custom-model',
  ];
}

function skills(count: number, lastLen: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 1; i <= count; i++) {
    const n = `m${String(i).padStart(2, '0')}`;
    const len = i === count ? lastLen : FILLER;
    out[`repo/.claude/skills/${n}/SKILL.md`] = fm(`description: ${n.toUpperCase()}${'w'.repeat(Math.max(0, len - 3))}`, 'body\n');
  }
  return out;
}

function scenario(model: string | undefined, files: Record<string, string>): MSScenario {
  return { name: 'measure-model', spec: ['B7'], git: ['repo'], cwd: 'repo', env: NO_BUNDLED, model, files };
}

/** the engine's full listing width and budget for a tree (widths do not depend on the temp root) */
function predict(s: MSScenario, profileVersion: string): { fullWidth: number; budget: number; resolved: string } {
  const root = fs.realpathSync(fs.mkdtempSync('/tmp/ccl-mm-'));
  try {
    materialise(s, root);
    const home = path.join(root, 'home');
    const a = analyze({ cwd: path.join(root, s.cwd), home, env: { HOME: home, ...(s.env ?? {}) }, claudeVersion: profileVersion, model: s.model });
    return { fullWidth: a.skills.fullWidth, budget: a.skills.budget, resolved: a.skills.budgetInfo.model.resolved };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** a tree whose full listing width is `target` columns */
function sized(model: string | undefined, profileVersion: string, target: number): MSScenario {
  // the number of fillers leaving room for a last skill of 10 to 1,500 units
  let count = Math.max(2, Math.floor(target / (FILLER + 8)) - 1);
  for (;;) {
    const base = predict(scenario(model, skills(count, 10)), profileVersion).fullWidth;
    const last = 10 + (target - base);
    if (last < 10) throw new Error(`cannot size the listing to ${target} (base ${base})`);
    if (last > 1500) {
      count++;
      continue;
    }
    const s = scenario(model, skills(count, last));
    const got = predict(s, profileVersion).fullWidth;
    if (got !== target) throw new Error(`sized listing measures ${got}, wanted ${target}`);
    return s;
  }
}

async function claudeRun(s: MSScenario, v: ClaudeVersion): Promise<{ model: string; demoted: number }> {
  const o = await runMS(s, v, { engine: false });
  try {
    if (o.claude.code !== 0) throw new Error(`claude exited ${o.claude.code}: ${o.claude.stderr.slice(0, 300)}`);
    const demoted = (o.listing ?? '').split('\n').filter((l) => /^- m\d\d$/.test(l)).length;
    const model = o.body?.model;
    return { model: typeof model === 'string' ? model : JSON.stringify(model ?? ''), demoted };
  } finally {
    o.cleanup();
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const v = args[0] as ClaudeVersion | undefined;
  if (!v) throw new Error('usage: measure-models.ts VERSION [--profile VERSION]');
  const pi = args.indexOf('--profile');
  const profileVersion = pi >= 0 ? args[pi + 1]! : v;
  const profile = chooseProfile(profileVersion).profile;
  let bad = 0;
  for (const m of models(profile)) {
    const { budget, resolved } = predict(scenario(m, skills(2, 10)), profileVersion);
    const fits = await claudeRun(sized(m, profileVersion, budget), v);
    const over = await claudeRun(sized(m, profileVersion, budget + 1), v);
    // the request names the model without `[1m]`
    const wantModel = resolved.replace(/\[1m\]$/i, '');
    const ok = fits.model === wantModel && fits.demoted === 0 && over.demoted > 0;
    if (!ok) bad++;
    console.log(`${v} --model ${m ?? '(none)'}: request model ${fits.model} (profile ${profile.version}: ${wantModel}), budget ${budget}: ${fits.demoted === 0 ? 'whole at' : 'DEMOTES at'} ${budget}, ${over.demoted > 0 ? 'demotes at' : 'WHOLE at'} ${budget + 1}${ok ? '' : '  DIFFERS'}`);
  }
  console.log(bad ? `${bad} models differ` : 'all models agree');
  if (bad) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
