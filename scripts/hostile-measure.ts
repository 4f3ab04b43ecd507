// Runs the hostile corpus (test/cli/hostile-corpus.ts) through the built CLI and prints, per run,
// the exit code, the wall time and the peak memory: the figures for issue 10's closing note.
//   node --import tsx scripts/hostile-measure.ts [NAME_SUBSTRING]
import * as path from 'node:path';
import { CASES, CONTROL, makeCaseDir, removeCaseDir, runLimited } from '../test/cli/hostile-corpus.js';

const cli = path.resolve(__dirname, '..', 'dist', 'cli.js');
const filter = process.argv[2];
const rows: string[] = [];
for (const c of CASES) {
  if (filter && !c.name.includes(filter)) continue;
  if (c.asNobody) continue;
  const d = makeCaseDir();
  try {
    for (const args of c.setup(d)) {
      const r = runLimited(cli, args, { timeoutMs: c.timeoutMs ?? 60_000, memoryMiB: 2048 });
      const out = r.stdout + r.stderr;
      const rule = c.expectRule ? (out.includes(c.expectRule) ? 'rule ok' : 'RULE MISSING') : '';
      const ctl = CONTROL.test(out) ? 'CONTROL CHAR' : '';
      rows.push(`${c.name.slice(0, 60).padEnd(60)} | ${args[0]!.padEnd(7)} ${(args.includes('--format') ? args[args.indexOf('--format') + 1]! : '').padEnd(6)} | exit ${r.code ?? r.signal} | ${r.ms.toFixed(0).padStart(6)} ms | ${String(r.maxRssKiB ? Math.round(r.maxRssKiB / 1024) : '?').padStart(5)} MiB | ${rule} ${ctl} ${r.code === 3 || (r.code ?? 0) > 2 || r.signal ? r.stderr.slice(0, 120).replace(/\n/g, ' ') : ''}`);
      console.log(rows[rows.length - 1]);
    }
  } finally {
    removeCaseDir(d);
  }
}
