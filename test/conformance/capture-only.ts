// Quick self-check without the engine: runs one scenario through the real binary and prints what
// was extracted (startup text, per-touch injections) and the scenario's expectation checks.
//   node --import tsx test/conformance/capture-only.ts SCENARIO [VERSION|both] [--save] [--raw]
// SCENARIO: a name, a comma-separated list of names, or a substring of names.
// --save keeps the raw captures in test-results/conformance/<scenario>-<version>/;
// --raw also prints the tool results and the non-instruction reminders after each tool call.
import path from 'node:path';
import { REPO_DIR, runScenario, saveArtifacts } from './capture.js';
import { checkBinary } from './compare.js';
import { VERSIONS, type ClaudeVersion } from './scenario.js';
import { scenarios } from './scenarios/index.js';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const flags = new Set(args.filter((a) => a.startsWith('--')));
  const [name, ver = 'both'] = args.filter((a) => !a.startsWith('--'));
  if (!name) {
    console.log('usage: capture-only.ts SCENARIO[,SCENARIO…|SUBSTRING] [VERSION|both] [--save] [--raw]\nscenarios:\n' + scenarios.map((s) => `  ${s.name}  (${s.spec.join(' ')})`).join('\n'));
    process.exit(2);
  }
  // exact names (comma-separated); a name that matches no scenario exactly is a substring filter
  const picked = name.split(',').flatMap((n) => {
    const exact = scenarios.filter((x) => x.name === n);
    return exact.length ? exact : scenarios.filter((x) => x.name.includes(n));
  });
  if (!picked.length) throw new Error(`no scenario matches ${name}`);
  const versions = (ver === 'both' ? [...VERSIONS] : [ver]) as ClaudeVersion[];
  let bad = 0;
  for (const s of picked) for (const v of versions) {
    if (s.versions && !s.versions.includes(v)) continue;
    const o = await runScenario(s, v, { engineCli: null });
    try {
      console.log(`\n===== ${s.name} @ ${v}  (${o.durationMs} ms, root ${o.root})`);
      const x = o.extracted;
      if (!x) console.log('(no main-loop request captured)');
      else {
        console.log('--- startup:');
        console.log(x.startup === null ? '(null)' : JSON.stringify(x.startup).replace(/\\n/g, '\\n\n'));
        x.touches.forEach((t, i) => {
          console.log(`--- touch ${i}: ${t.tool} ${JSON.stringify(t.input)}${t.isError ? '  [tool error]' : ''}`);
          if (flags.has('--raw')) {
            console.log(`    result: ${JSON.stringify(t.result).slice(0, 400)}`);
            for (const other of t.other) console.log(`    other: ${JSON.stringify(other).slice(0, 300)}`);
          }
          for (const e of t.injected) console.log('  ' + JSON.stringify(e));
          if (!t.injected.length) console.log('  (nothing injected)');
        });
      }
      const errs = checkBinary(o);
      if (errs.length) {
        bad++;
        console.log('--- CHECK FAILURES:\n' + errs.join('\n'));
      } else console.log('--- checks: ok');
      if (flags.has('--save') || errs.length) {
        const dir = path.join(REPO_DIR, 'test-results/conformance', `${s.name}-${v}`);
        saveArtifacts(o, dir);
        console.log(`(captures saved in ${dir})`);
      }
    } finally {
      o.cleanup();
    }
  }
  process.exitCode = bad ? 1 : 0;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
