// Measures listing widths on the live binaries, through the only door they offer: the skills budget.
// An entry that does not fit is demoted to `- name`, so the smallest SLASH_COMMAND_TOOL_CHAR_BUDGET
// that keeps a probe entry in full gives the width Claude Code computes (binary search).
//
//   node --import tsx test/conformance/memory-skills/measure-widths.ts bundled VERSION
//       prints the full-entry width of every bundled skill (the figures of the profile table);
//   node --import tsx test/conformance/memory-skills/measure-widths.ts strings VERSION
//       compares the display width of tricky strings with the engine's displayWidth.
// Nothing of Claude Code's text is printed or stored: only numbers.
import { chooseProfile } from '../../../src/engine/profiles.js';
import { cleanShownText } from '../../../src/engine/skills/text.js';
import { displayWidth } from '../../../src/engine/skills/width.js';
import { engineVersion, type ClaudeVersion } from '../scenario.js';
import { runMS, type MSScenario } from './run.js';

const PROBE_DESC = 'probe description';

interface Probe {
  scenario: MSScenario;
  /** is the probe kept in full? */
  kept(listing: string | null): boolean;
}

async function kept(p: Probe, v: ClaudeVersion, budget: number): Promise<boolean> {
  const s: MSScenario = { ...p.scenario, env: { ...(p.scenario.env ?? {}), SLASH_COMMAND_TOOL_CHAR_BUDGET: String(budget) } };
  const o = await runMS(s, v, { engine: false });
  try {
    if (o.claude.code !== 0) throw new Error(`claude exited ${o.claude.code}: ${o.claude.stderr.slice(0, 300)}`);
    return p.kept(o.listing);
  } finally {
    o.cleanup();
  }
}

/** smallest budget keeping the probe, starting from a guess */
async function threshold(p: Probe, v: ClaudeVersion, guess: number): Promise<{ value: number; runs: number }> {
  let runs = 0;
  const k = async (b: number) => (runs++, kept(p, v, b));
  if ((await k(guess)) && !(await k(guess - 1))) return { value: guess, runs };
  let lo = 1;
  let hi = 64;
  while (!(await k(hi))) hi *= 2;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (await k(mid)) hi = mid;
    else lo = mid + 1;
  }
  return { value: lo, runs };
}

function probeSkill(desc: string): Record<string, string> {
  return { 'repo/.claude/skills/t1/SKILL.md': `---\ndescription: ${JSON.stringify(desc)}\n---\nbody\n` };
}

const hasFull = (listing: string | null, name: string) => (listing ?? '').split('\n').some((l) => l.startsWith(`- ${name}: `));

async function pool<T>(items: T[], n: number, f: (x: T) => Promise<void>): Promise<void> {
  const queue = items.slice();
  await Promise.all(Array.from({ length: n }, async () => {
    for (let x = queue.shift(); x !== undefined; x = queue.shift()) await f(x);
  }));
}

async function measureBundled(v: ClaudeVersion): Promise<void> {
  const profile = chooseProfile(engineVersion(v)).profile;
  const names = profile.skills.bundled.map((b) => b.name);
  const out: Record<string, number> = {};
  await pool(profile.skills.bundled.slice(), 2, async (b) => {
    const overrides = Object.fromEntries(names.filter((n) => n !== b.name).map((n) => [n, 'off']));
    const probeWidth = displayWidth(`- t1: ${PROBE_DESC}`, profile);
    const fixed = b.kind === 'bundled';
    const p: Probe = {
      scenario: {
        name: `measure-${b.name}`, spec: [], git: ['repo'], cwd: 'repo',
        files: { ...(fixed ? probeSkill(PROBE_DESC) : { 'repo/x.txt': 'x\n' }), 'repo/.claude/settings.json': JSON.stringify({ skillOverrides: overrides }) },
      },
      // a fixed (bundled-typed) entry is never demoted: the probe skill beside it shows where the budget ends
      kept: (l) => (fixed ? hasFull(l, 't1') : hasFull(l, b.name)),
    };
    const guess = fixed ? b.width + 1 + probeWidth : b.width;
    const t = await threshold(p, v, guess);
    out[b.name] = fixed ? t.value - 1 - probeWidth : t.value;
    console.log(`${v} ${b.name}: ${out[b.name]} (profile ${b.width}${out[b.name] === b.width ? '' : ' DIFFERS'}; ${t.runs} runs)`);
  });
  console.log(JSON.stringify(out));
}

const STRINGS = [
  'abc', '漢字かな', '…—→', '😀', '👨‍👩‍👧', '🇫🇷', '❤️', '1️⃣', '☝', '☝️', 'क्षि', 'é', 'e\u0301', 'a\u200bb', 'ＡＢ', '한국어', 'ภาษาไทย',
  '½', '👍🏽', '©', '☺', '\u3248', 'مرحبا', 'ｱ', '🇫', '\u26f9', 'ক্ষিকা', 'தமிழ்', 'x\u00a0y', '·•°', '🏳️‍🌈', '👩🏽‍💻',
  ' ि', 'aा', 'മലയാളം', 'ગુજરાતી', 'ಕನ್ನಡ', 'తెలుగు', 'ਪੰਜਾਬੀ', 'සිංහල', 'ཀྵ', 'ꦗꦮ', 'ﾊﾟ', 'ｶﾞ', '가', '가각', '\u1100\u1161\u11a8',
];

async function measureStrings(v: ClaudeVersion): Promise<void> {
  const profile = chooseProfile(engineVersion(v)).profile;
  let pluginAuthoring = 0;
  const fixedBeside = profile.skills.bundled.filter((b) => b.survivesDisable);
  for (const b of fixedBeside) pluginAuthoring += b.width + 1;
  let bad = 0;
  const list: string[] = process.env.MEASURE_STRINGS ? (JSON.parse(process.env.MEASURE_STRINGS) as string[]) : STRINGS;
  await pool(list.slice(), 2, async (str) => {
    const desc = `w ${str} w`;
    const p: Probe = {
      scenario: { name: 'measure-string', spec: [], git: ['repo'], cwd: 'repo', env: { CLAUDE_CODE_DISABLE_BUNDLED_SKILLS: '1' }, files: probeSkill(desc) },
      kept: (l) => hasFull(l, 't1'),
    };
    const shown = cleanShownText(desc, profile.skills.collapseDescriptionWhitespace, profile.skills.escapeAngleBrackets);
    const engine = displayWidth(`- t1: ${shown}`, profile);
    const t = await threshold(p, v, engine + pluginAuthoring);
    const binary = t.value - pluginAuthoring;
    if (binary !== engine) bad++;
    const base = displayWidth('- t1: w  w', profile);
    console.log(`${v} ${JSON.stringify(str)}: binary ${binary - base}, engine ${engine - base}${binary === engine ? '' : '  DIFFERS'} (${t.runs} runs)`);
  });
  console.log(bad ? `${bad} strings differ` : 'all strings agree');
}

async function main(): Promise<void> {
  const [what, v] = process.argv.slice(2) as [string, ClaudeVersion];
  if (what === 'bundled') await measureBundled(v);
  else if (what === 'strings') await measureStrings(v);
  else throw new Error('usage: measure-widths.ts bundled|strings VERSION');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
