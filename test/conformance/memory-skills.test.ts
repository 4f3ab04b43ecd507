// Memory and skills conformance (issue 3): every scenario of memory-skills/scenarios.ts through
// every real binary of VERSIONS, compared byte for byte with `claude-layers render --json`:
// - the startup instructions text (which carries the AutoMem entry: processing, cut, warning);
// - the `# Memory` system section: present exactly when the engine says memory is on, naming the
//   same folder, with the size the engine reports (2,019 + the folder's length);
// - the skills listing: byte for byte, except shipped skills' descriptions (placeholders in the
//   engine), whose names, places, demotions and measured widths are checked instead;
// - lazy skills: what a Read of a path-gated or nested file adds (the engine's message text).
//   node --import tsx --test test/conformance/memory-skills.test.ts
//   MS_ONLY=name,name MS_VERSIONS=2.1.328 … to narrow it down.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { analyze } from '../../src/engine/index.js';
import { chooseProfile } from '../../src/engine/profiles.js';
import { displayWidth } from '../../src/engine/skills/width.js';
import { claudeBin, ENGINE_CLI, subst } from './capture.js';
import { firstDiff } from './compare.js';
import { engineVersion, expectationVersion, VERSIONS, type ClaudeVersion } from './scenario.js';
import { compareListing, shippedEntries } from './memory-skills/compare.js';
import { runMS, type MSOutcome, type MSScenario } from './memory-skills/run.js';
import { memorySkillScenarios } from './memory-skills/scenarios.js';

const only = process.env.MS_ONLY?.split(',').filter(Boolean);
const versions = (process.env.MS_VERSIONS?.split(',') ?? [...VERSIONS]) as ClaudeVersion[];
const scenarios = memorySkillScenarios.filter((s) => !only || only.includes(s.name));

function inProcess(s: MSScenario, v: ClaudeVersion, o: MSOutcome) {
  const root = o.root;
  return analyze({
    cwd: path.join(root, s.cwd),
    home: path.join(root, 'home'),
    env: { HOME: path.join(root, 'home'), ...Object.fromEntries(Object.entries(s.env ?? {}).map(([k, x]) => [k, subst(x, root)])) },
    claudeVersion: engineVersion(v),
    model: s.model ?? (s.env?.ANTHROPIC_MODEL ? s.env.ANTHROPIC_MODEL : undefined),
    addDirs: (s.addDirs ?? []).map((d) => path.join(root, d)),
    pluginDirs: (s.pluginDirs ?? []).map((d) => path.join(root, d)),
    flagSettings: s.flagSettings ? (JSON.parse(subst(JSON.stringify(s.flagSettings), root)) as Record<string, unknown>) : undefined,
  });
}

function check(s: MSScenario, v: ClaudeVersion, o: MSOutcome): string[] {
  const errs: string[] = [];
  if (o.claude.code !== 0) return [`claude exited ${o.claude.code}: ${o.claude.stderr.slice(0, 1500)}`];
  if (!o.body) return ['no main-loop request captured'];
  const eng = o.engine;
  if (!eng || eng.code !== 0 || !eng.json) return [`engine failed (exit ${eng?.code}): ${eng?.stderr.slice(0, 2000)} stdout: ${JSON.stringify(eng?.stdout.slice(0, 300))}…${JSON.stringify(eng?.stdout.slice(-300))} (${eng?.stdout.length} chars)`];
  const j = eng.json;
  for (const g of [s.guard, s.guardByVersion?.[expectationVersion(v)]]) {
    if (!g) continue;
    const st = o.extracted?.startup ?? '';
    const li = o.listing ?? '';
    for (const x of g.startup ?? []) if (!st.includes(subst(x, o.root))) errs.push(`guard: the binary's startup text lacks ${JSON.stringify(x)}`);
    for (const x of g.noStartup ?? []) if (st.includes(subst(x, o.root))) errs.push(`guard: the binary's startup text has ${JSON.stringify(x)}`);
    for (const x of g.listing ?? []) if (!li.includes(subst(x, o.root))) errs.push(`guard: the binary's listing lacks ${JSON.stringify(x)}`);
    for (const x of g.noListing ?? []) if (li.includes(subst(x, o.root))) errs.push(`guard: the binary's listing has ${JSON.stringify(x)}`);
    if (g.memorySection !== undefined && !!o.memorySection !== g.memorySection) errs.push(`guard: # Memory section ${o.memorySection ? 'present' : 'absent'}`);
  }
  if (s.check?.memory !== false) {
    const want = o.extracted?.startup ?? null;
    const got = j.instructions?.text ?? null;
    if (want !== got) errs.push(want === null || got === null ? `startup text: claude ${want === null ? 'none' : JSON.stringify(want.slice(0, 300))}, engine ${got === null ? 'none' : JSON.stringify(got.slice(0, 300))}` : 'startup text differs:\n' + firstDiff(want, got, 'startup'));
  }
  // the `# Memory` section and the in-process figures (after claude ran: only location-level facts are compared)
  const a = inProcess(s, v, o);
  const section = o.memorySection;
  if (!!section !== a.memory.enabled) errs.push(`# Memory section ${section ? 'present' : 'absent'} in claude's system prompt, engine says memory is ${a.memory.enabled ? 'on' : 'off'} (${a.memory.why})`);
  if (section && a.memory.enabled) {
    const dir = /persistent,? file-based memory(?: system)? at `([^`]*)`/.exec(section)?.[1];
    if (dir !== a.memory.location.dir) errs.push(`memory folder: claude ${dir}, engine ${a.memory.location.dir}`);
    if (section.length !== a.memory.systemSectionChars) errs.push(`# Memory section: claude ${section.length} chars, engine ${a.memory.systemSectionChars}`);
  }
  if (s.check?.skills !== false) {
    const d = compareListing(o.listing, j.skills);
    if (d) errs.push(`skills listing (${o.listingWhere}): ${d}`);
    else if (o.listing && j.skills) {
      // shipped entries: the profile's measured widths must be what claude's text measures
      const profile = chooseProfile(engineVersion(v)).profile;
      for (const [name, text] of shippedEntries(o.listing, j.skills)) {
        const want = a.skills.entries.find((e) => e.name === name)?.fullWidth;
        const w = displayWidth(text, profile);
        if (want !== w) errs.push(`shipped skill ${name}: its entry measures ${w} columns in claude's listing, the profile says ${want}`);
      }
    }
    // `demoted` means listed without its description, whatever the cause; `reason` says which
    for (const e of j.skills?.entries ?? []) {
      const bare = !e.text.includes(': ');
      if (e.demoted !== bare) errs.push(`skill ${e.name}: render --json says demoted ${e.demoted}, its entry is ${JSON.stringify(e.text.slice(0, 60))}`);
      if (e.demoted !== (e.reason !== undefined)) errs.push(`skill ${e.name}: demoted ${e.demoted} with reason ${e.reason}`);
      if (s.demotions && (s.demotions[e.name] ?? undefined) !== e.reason) errs.push(`skill ${e.name}: reason ${e.reason ?? 'none'}, the scenario says ${s.demotions[e.name] ?? 'none'}`);
    }
  }
  if (s.lazyReads?.length) {
    for (const [k, rel] of s.lazyReads.entries()) {
      const file = path.join(o.root, rel);
      const layers = a.skills.lazyFor(file);
      const msgs = lazySkillMessages(o, k, v);
      // 2.1.235 attaches a nested folder's listing when it is ready: measured, the message after the
      // Read is either the `New skills discovered` part alone (the listing follows a turn later) or
      // that part and the listing together, depending on the binary's own timing. Either exact text is
      // what 2.1.235 sends; anything else is a mismatch.
      const want = layers.map((l) => l.text);
      const alt = layers.map((l) => (expectationVersion(v) === '2.1.235' && l.discovered ? l.discovered : l.text));
      const same = (x: string[]) => JSON.stringify(msgs) === JSON.stringify(x);
      if (!same(want) && !same(alt))
        errs.push(`lazy skills after Read ${rel}:\n claude: ${JSON.stringify(msgs).slice(0, 1200)}\n engine: ${JSON.stringify(alt).slice(0, 1200)}`);
    }
  }
  return errs;
}

/** skills messages added after the k-th tool result (role system, or reminders in the user message) */
function lazySkillMessages(o: MSOutcome, k: number, v: ClaudeVersion): string[] {
  const msgs = (o.body?.messages ?? []) as { role: string; content: unknown }[];
  let seen = -1;
  const out: string[] = [];
  for (const m of msgs) {
    const parts = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? (m.content as { type: string; text?: string }[]) : [];
    if (m.role === 'user' && parts.some((p) => p.type === 'tool_result')) {
      seen++;
      if (seen > k) break;
    }
    if (seen !== k) continue;
    for (const p of parts) {
      if (p.type !== 'text' || typeof p.text !== 'string') continue;
      let t = p.text.replace(/^<system-reminder>\n/, '').replace(/\n<\/system-reminder>\n?$/, '');
      t = t.replace(/\n\n<total_tokens>\d+ tokens left<\/total_tokens>$/, '');
      if (t.startsWith('The following skills are available') || t.startsWith('New skills discovered')) out.push(t);
    }
  }
  void v;
  return out;
}

const haveBinaries = VERSIONS.every((v) => fs.existsSync(claudeBin(v)));
const haveEngine = fs.existsSync(ENGINE_CLI);

describe('memory and skills conformance', { concurrency: Math.max(1, Number(process.env.MS_CONCURRENCY) || 2) }, () => {
  if (!haveBinaries || !haveEngine) {
    it('needs the claude binaries and dist/cli.js', () => {
      assert.fail(`missing: ${!haveEngine ? 'dist/cli.js (npm run build) ' : ''}${!haveBinaries ? 'claude binaries (scripts/install-claude.sh)' : ''}`);
    });
    return;
  }
  for (const s of scenarios)
    for (const v of versions) {
      if (s.versions && !s.versions.includes(v)) continue;
      it(`${s.name} @ ${v}`, async () => {
        const o = await runMS(s, v);
        try {
          const errs = check(s, v, o);
          if (errs.length && process.env.MS_KEEP) console.log(`kept ${o.root}`);
          assert.equal(errs.join('\n\n'), '', `${s.name} @ ${v}: ${s.description ?? ''}`);
        } finally {
          if (!process.env.MS_KEEP) o.cleanup();
        }
      });
    }
});
