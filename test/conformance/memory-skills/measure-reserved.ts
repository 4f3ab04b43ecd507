// Measures which names a skill's frontmatter `name` cannot take over (`reservedNames` in the profile):
// one run with one skill per candidate name, folder `zr0001…`, frontmatter `name: CANDIDATE`. A
// version that shows frontmatter names lists `- zr0001 (CANDIDATE)` unless the name is reserved
// (built-in command or shipped skill), then `- zr0001`.
//
//   node --import tsx test/conformance/memory-skills/measure-reserved.ts VERSION [CANDIDATES_FILE] [--env K=V]… [--profile P]
//
// Candidates: the profile's list plus the names in CANDIDATES_FILE (one a line), e.g. the command-like
// names found in the binary. Prints the reserved names, and how they differ from the profile (its
// reservedNames, plus the names of the shipped skills it lists, which reserve theirs through the listing,
// and reservedWhileBundled while bundled skills are on); and the candidates whose skill is not listed at
// all, against the profile's `protectedNames` (shipped names a project skill cannot take).
import fs from 'node:fs';
import { chooseProfile } from '../../../src/engine/index.js';
import { fm, type ClaudeVersion } from '../scenario.js';
import { runMS } from './run.js';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const env: Record<string, string> = { SLASH_COMMAND_TOOL_CHAR_BUDGET: '100000000' };
  for (let i = argv.indexOf('--env'); i >= 0; i = argv.indexOf('--env')) {
    const [k, ...rest] = (argv[i + 1] ?? '').split('=');
    env[k!] = rest.join('=');
    argv.splice(i, 2);
  }
  const pi = argv.indexOf('--profile');
  const forced = pi >= 0 ? argv.splice(pi, 2)[1] : undefined;
  const [v, file] = argv as [ClaudeVersion, string | undefined];
  if (!v) throw new Error('usage: measure-reserved.ts VERSION [CANDIDATES_FILE] [--env K=V]… [--profile P]');
  const profile = chooseProfile(forced ?? v).profile;
  const extra = file ? fs.readFileSync(file, 'utf8').split('\n').map((s) => s.trim()).filter((s) => /^[a-z][a-z0-9-]*$/.test(s)) : [];
  const candidates = [...new Set([...profile.skills.reservedNames, ...extra])].sort();
  const files: Record<string, string> = {};
  candidates.forEach((c, i) => (files[`repo/.claude/skills/zr${String(i).padStart(4, '0')}/SKILL.md`] = fm(`name: ${c}\ndescription: d`, 'body\n')));
  const o = await runMS({ name: 'measure-reserved', spec: ['B5'], git: ['repo'], cwd: 'repo', env, files }, v, { engine: false });
  try {
    if (o.claude.code !== 0) throw new Error(`claude exited ${o.claude.code}: ${o.claude.stderr.slice(0, 300)}`);
    const lines = new Set((o.listing ?? '').split('\n'));
    const reserved: string[] = [];
    const missing: string[] = [];
    candidates.forEach((c, i) => {
      const dir = `zr${String(i).padStart(4, '0')}`;
      if (lines.has(`- ${dir}: d`)) reserved.push(c);
      else if (!lines.has(`- ${dir} (${c}): d`)) missing.push(c);
    });
    // what the profile predicts for these candidates, under this run's environment
    const truthy = (x: string | undefined) => !!x && !/^(0|false|no|off)$/i.test(x.trim());
    const bundledOff = truthy(env.CLAUDE_CODE_DISABLE_BUNDLED_SKILLS);
    const shipped = profile.skills.bundled.filter((b) => !(b.hiddenByEnv && truthy(env[b.hiddenByEnv])) && (!bundledOff || b.survivesDisable)).map((b) => b.name);
    const protectedNow = (profile.skills.protectedNames ?? []).filter((n) => { const b = profile.skills.bundled.find((x) => x.name === n); return !(b?.hiddenByEnv && truthy(env[b.hiddenByEnv])); });
    const want = new Set([...profile.skills.reservedNames, ...(bundledOff ? [] : profile.skills.reservedWhileBundled), ...shipped].filter((n) => candidates.includes(n) && !protectedNow.includes(n)));
    const got = new Set(reserved);
    const wantMissing = new Set(protectedNow.filter((n) => candidates.includes(n)));
    console.log(`reserved: ${JSON.stringify(reserved)}`);
    console.log(`not in profile ${profile.version}: ${JSON.stringify(reserved.filter((r) => !want.has(r)))}`);
    // a name whose skill is not listed at all is protected (or worse), not merely reserved: reported below
    console.log(`in profile ${profile.version}, not reserved: ${JSON.stringify([...want].filter((r) => !got.has(r) && !missing.includes(r)))}`);
    console.log(`not listed at all, not protected in profile ${profile.version}: ${JSON.stringify(missing.filter((n) => !wantMissing.has(n)))}`);
    console.log(`protected in profile ${profile.version}, listed: ${JSON.stringify([...wantMissing].filter((n) => !missing.includes(n)))}`);
    console.log(`${v}: ${candidates.length} candidates, ${reserved.length} reserved, ${missing.length} not listed at all (${JSON.stringify(missing)})`);
  } finally {
    o.cleanup();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
