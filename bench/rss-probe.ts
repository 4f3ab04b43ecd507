// The RSS probe of `npm run bench`, bundled by esbuild and run with plain Node (as the extension
// host runs dist/extension.js, without tsx in the process): what an editor session holds at its
// peak — the workspace index, the AnalysisService reading through it (prefetched instruction
// files, pre-listed ignored folders), 1,000 per-file answers and the hover counts of the rules.
//
//   node bench/tmp/rss-probe.js TREE_JSON [--baseline]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compilePatterns, countMatches } from '../src/engine/globs/glob-count.js';
import { WorkspaceIndex } from '../src/engine/files/workspace-index.js';
import { AnalysisService } from '../src/host/workspace/analysis-service.js';

function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => ((s = Math.imul(s ^ (s >>> 15), 2246822507) ^ Math.imul(s ^ (s >>> 13), 3266489909)) >>> 0) / 4294967296;
}

const [treeFile, flag] = process.argv.slice(2);
const tree = (JSON.parse(fs.readFileSync(treeFile!, 'utf8')) as { tree: { repo: string; home: string; managed: string } }).tree;
if (flag !== '--baseline') {
  const ix = WorkspaceIndex.build(tree.repo);
  const svc = new AnalysisService(() => ({ cwd: tree.repo, home: tree.home, env: { HOME: tree.home }, managedDir: tree.managed }));
  const fa = svc.attachIndex(ix, { home: tree.home })!;
  fa.prefetch();
  fa.prelistIgnored();
  const a = svc.get('rss').analysis!;
  // 1,000 random files of the index, picked through the folders' totals (no list of every file)
  const pick = (k: number): string => {
    let d = ix.tree;
    let rel = '';
    for (;;) {
      if (k < d.files.length) return rel + d.files[k]!;
      k -= d.files.length;
      const c = d.dirs.find((x) => (k < x.total ? true : ((k -= x.total), false)))!;
      rel += `${c.name}/`;
      d = c;
    }
  };
  const r = prng(5);
  for (let i = 0; i < 1000; i++) a.lazyFor(path.join(tree.repo, pick(Math.floor(r() * ix.fileCount))));
  for (const c of a.conditionalRules) countMatches(ix.tree, compilePatterns(c.patterns));
  svc.dispose();
}
process.stdout.write(`${JSON.stringify({ mb: process.resourceUsage().maxRSS / 1024 })}\n`);
