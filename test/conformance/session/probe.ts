// Measuring a session question on the real binaries without the suite: runs probe scenarios (probes.ts)
// or suite scenarios (scenarios.ts) by name, and keeps everything in test-results/session-probe/NAME-VERSION/:
// every request, the extracted turns, the engine's answer, and the transcripts the session wrote
// (<home>/.claude/projects/**), with a summary of where they are.
//   node --import tsx test/conformance/session/probe.ts NAME[,NAME…] [VERSION,…]
import fs from 'node:fs';
import path from 'node:path';
import { REPO_DIR } from '../capture.js';
import { compareSession } from './compare.js';
import { probes } from './probes.js';
import { runSessionScenario, saveSessionArtifacts, SESSION_VERSIONS, type SessionVersion } from './run.js';
import { sessionScenarios } from './scenarios.js';

function listTree(dir: string, base = dir): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? listTree(p, base) : [`${path.relative(base, p)} ${fs.statSync(p).size}`];
  });
}

async function main(): Promise<void> {
  const [names = '', vs] = process.argv.slice(2);
  const all = [...probes, ...sessionScenarios];
  const picked = names.split(',').filter(Boolean).flatMap((n) => all.filter((s) => s.name === n));
  if (!picked.length) {
    console.log('probes:\n' + probes.map((p) => `  ${p.name}: ${p.description}`).join('\n'));
    process.exit(2);
  }
  const versions = (vs ? vs.split(',') : [...SESSION_VERSIONS]) as SessionVersion[];
  for (const s of picked)
    for (const v of versions) {
      const o = await runSessionScenario(s, v);
      const errs = o.claude.turnsAnswered !== o.turns.length ? [`claude answered ${o.claude.turnsAnswered} of ${o.turns.length} turns`] : [];
      errs.push(...(s.guard?.(o.extracted, o.root, v) ?? []).map((g) => `guard: ${g}`));
      errs.push(...compareSession(o));
      const dir = path.join(REPO_DIR, 'test-results/session-probe', `${s.name}-${v}`);
      saveSessionArtifacts(o, dir, errs.join('\n\n') || 'engine matches');
      const projects = path.join(o.root, 'home/.claude/projects');
      const transcripts = listTree(projects);
      fs.cpSync(projects, path.join(dir, 'projects'), { recursive: true, force: true });
      fs.writeFileSync(path.join(dir, 'claude.stdout'), o.claude.stdout);
      fs.writeFileSync(path.join(dir, 'root'), o.root + '\n');
      console.log(`${s.name} @ ${v}: ${o.claude.requests.length} requests, ${o.claude.processes} processes, session ${o.claude.sessionId}; transcripts: ${transcripts.join(', ')}\n  ${errs.length ? errs.join('\n  ').slice(0, 3000) : 'engine matches'}`);
      o.cleanup();
    }
}

void main();
