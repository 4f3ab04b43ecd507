// The example outputs in README.md and docs/cli.md, produced from the demo workspace by the built CLI.
//   node --import tsx scripts/docs-examples.ts            check: exit 1 and say which block differs
//   node --import tsx scripts/docs-examples.ts --write    rewrite the blocks
// Each block follows a marker line `<!-- example: NAME -->` and is a fenced block (```console or ```json).
// The demo is laid out in /tmp/claude-layers-demo-XXXXXX; that folder's random part is shown as xLV9UH.
// test/cli/docs.test.ts runs the check, so the docs cannot drift from what the CLI prints.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
// a plain ES module (shared with npm start and the CLI tests), typed by demo-workspace.d.mts
import { setupDemo, type Demo } from './demo-workspace.mjs';

const REPO = path.resolve(__dirname, '..');
const CLI = path.join(REPO, 'dist/cli.js');
const SHOWN = '/tmp/claude-layers-demo-xLV9UH';
export const DOCS = ['README.md', 'docs/cli.md'];


interface Example {
  /** the command line shown (after `$ `), with R for the demo folder */
  shown: string;
  argv: string[];
  cwd?: string;
  /** append `$ echo $?` and the exit code */
  exitCode?: boolean;
  /** output only (a ```json excerpt): no command line */
  bare?: boolean;
  shorten?: (out: string) => string;
}

/** long strings cut to `max` characters with `…`; arrays longer than `items` end in "… N more entries" */
function shortenJson(v: unknown, max: number, items: number): unknown {
  if (typeof v === 'string') return v.length > max ? `${v.slice(0, max)}…` : v;
  if (Array.isArray(v)) {
    const kept = v.slice(0, items).map((x) => shortenJson(x, max, items));
    return v.length > items ? [...kept, `… ${v.length - items} more entries`] : kept;
  }
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shortenJson(x, max, items)]));
  return v;
}

/** the SARIF excerpt: the rules list and every result after the first left out */
function sarifExcerpt(out: string): string {
  const j = JSON.parse(out) as { runs: { tool: { driver: { rules: unknown[] } }; results: unknown[] }[] };
  for (const r of j.runs) {
    r.tool.driver.rules = ['…'];
    r.results = [...r.results.slice(0, 1), '…'];
  }
  return JSON.stringify(j, null, 2);
}

function examples(d: Demo): Record<string, Example> {
  const base = ['--cwd', d.repo, '--home', d.home, '--managed-dir', d.managed];
  const shownBase = '--cwd R/acme-gateway --home R/home --managed-dir R/managed-policy';
  const explain: Example = { shown: `claude-layers explain src/api/client.ts ${shownBase}`, argv: ['explain', 'src/api/client.ts', ...base] };
  const lint: Example = { shown: `claude-layers lint ${shownBase}`, argv: ['lint', ...base], exitCode: true };
  const client = path.join(d.repo, 'src/api/client.ts');
  const app = path.join(d.repo, 'packages/web/src/App.tsx');
  return {
    'readme-explain': explain,
    'readme-lint': lint,
    'readme-render': {
      shown: `claude-layers render ${shownBase} \\\n    --touch Read:R/acme-gateway/src/api/client.ts --json`,
      argv: ['render', ...base, '--touch', `Read:${client}`, '--json'],
      shorten: (o) => JSON.stringify(shortenJson(JSON.parse(o), 80, 2), null, 2),
    },
    'cli-explain': explain,
    'cli-lint': lint,
    'cli-github': { shown: 'cd R/acme-gateway && claude-layers lint --home … --managed-dir … --format github', argv: ['lint', '--home', d.home, '--managed-dir', d.managed, '--format', 'github'], cwd: d.repo },
    'cli-sarif': { shown: '', bare: true, argv: ['lint', ...base, '--format', 'sarif'], shorten: sarifExcerpt },
    'cli-render': {
      shown: `claude-layers render ${shownBase} \\\n    --touch Read:R/acme-gateway/src/api/client.ts --touch Read:R/acme-gateway/packages/web/src/App.tsx --json`,
      argv: ['render', ...base, '--touch', `Read:${client}`, '--touch', `Read:${app}`, '--json'],
      shorten: (o) => JSON.stringify(shortenJson(JSON.parse(o), 80, 6), null, 2),
    },
  };
}

function runExample(d: Demo, e: Example): string {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: d.home, LANG: 'C.UTF-8' };
  const r = spawnSync(process.execPath, [CLI, ...e.argv], { cwd: e.cwd ?? REPO, env, encoding: 'utf8' });
  if (r.error) throw r.error;
  // the demo folder as the docs show it (its memory key too), before anything is shortened
  const key = (p: string) => p.replace(/[^A-Za-z0-9]/g, '-');
  const shown = (t: string) => t.split(d.tmp).join(SHOWN).split(key(d.tmp)).join(key(SHOWN));
  let out = shown(r.stdout.replace(/\n$/, ''));
  if (e.shorten) out = e.shorten(out);
  const lines = e.bare ? [out] : [`$ ${e.shown.replace(/\bR\//g, `${SHOWN}/`)}`, out];
  if (e.exitCode) lines.push('$ echo $?', String(r.status));
  return lines.join('\n');
}

/** the docs with every example block replaced by what the CLI prints now; `stale` lists the blocks that changed */
export function regenerate(): { files: Record<string, { before: string; after: string }>; stale: string[]; missing: string[] } {
  if (!fs.existsSync(CLI)) throw new Error('dist/cli.js is missing: npm run build first');
  const d = setupDemo('/tmp');
  try {
    const ex = examples(d);
    const used = new Set<string>();
    const stale: string[] = [];
    const files: Record<string, { before: string; after: string }> = {};
    for (const doc of DOCS) {
      const before = fs.readFileSync(path.join(REPO, doc), 'utf8');
      const after = before.replace(/(<!-- example: ([a-z-]+) -->\n```[a-z]*\n)([\s\S]*?)\n```/g, (all, head: string, name: string, body: string) => {
        const e = ex[name];
        if (!e) throw new Error(`${doc}: unknown example ${name}`);
        used.add(name);
        const now = runExample(d, e);
        if (now !== body) stale.push(`${doc}: ${name}`);
        return `${head}${now}\n\`\`\``;
      });
      files[doc] = { before, after };
    }
    return { files, stale, missing: Object.keys(ex).filter((n) => !used.has(n)) };
  } finally {
    d.cleanup();
  }
}

if (require.main === module) {
  const r = regenerate();
  if (process.argv.includes('--write')) {
    for (const [doc, f] of Object.entries(r.files)) if (f.after !== f.before) fs.writeFileSync(path.join(REPO, doc), f.after);
    process.stdout.write(r.stale.length ? `rewrote ${r.stale.join(', ')}\n` : 'every example is current\n');
  } else {
    if (r.stale.length) process.stdout.write(`stale examples (npm run docs:examples -- --write): ${r.stale.join(', ')}\n`);
    if (r.missing.length) process.stdout.write(`examples without a marker: ${r.missing.join(', ')}\n`);
    process.exitCode = r.stale.length || r.missing.length ? 1 : 0;
  }
}
