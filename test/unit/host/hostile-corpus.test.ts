// Issue 10's hostile corpus (test/cli/hostile-corpus.ts) through the extension host's adapters, in
// process: the sidebar model (present), the copied report, the file lenses, the glob hover report,
// the frontmatter scan and the @import links, for every instruction file of each case. Nothing may
// throw or take long; the report text (it goes to the clipboard) holds no raw control character.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analyze, rulePatterns } from '../../../src/engine/index.js';
import { fileLenses } from '../../../src/host/editor/file-lens.js';
import { englishT } from '../../../src/host/format.js';
import { scanFrontmatter } from '../../../src/host/editor/frontmatter-scan.js';
import { globReport } from '../../../src/host/editor/glob-report.js';
import { includeLinks } from '../../../src/host/editor/include-links.js';
import { present } from '../../../src/host/sidebar/present.js';
import { reportText } from '../../../src/host/sidebar/report.js';
import { CASES, CONTROL, makeCaseDir, removeCaseDir } from '../../cli/hostile-corpus.js';

/** the instruction files of a case's workspace (regular files only, at most 2 MiB read) */
function instructionFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number) => {
    if (depth > 8) return;
    let ents: fs.Dirent[];
    try {
      ents = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of ents) {
      const p = path.join(d, e.name);
      if (e.isDirectory() && e.name !== '.git') walk(p, depth + 1);
      else if (e.isFile() && e.name.endsWith('.md')) out.push(p);
    }
  };
  walk(root, 0);
  return out;
}

// the cases about the workspace (not the CLI's flags, not `lint --cwd /`, not an unprivileged user)
const WORKSPACE_CASES = CASES.filter((c) => !c.expectUsage && !c.asNobody && !c.name.startsWith('lint --cwd'));

for (const c of WORKSPACE_CASES) {
  test(`host adapters: ${c.name}`, { timeout: 120_000 }, () => {
    const d = makeCaseDir();
    try {
      c.setup(d);
      const t0 = performance.now();
      const a = analyze({ cwd: d.repo, home: d.home, env: { HOME: d.home }, managedDir: path.join(d.root, 'managed') });
      const active = path.join(d.repo, 'src', 'a.ts');
      const s = present({ analysis: a, activeFile: active, version: { source: 'setting', requested: '2.1.328' }, model: 'claude-opus-5-5', trusted: true, t: englishT, locale: 'en', today: '2026-12-01' });
      const report = reportText(s);
      const ctl = CONTROL.exec(report);
      assert.equal(ctl, null, `the copied report holds a raw U+${ctl?.[0].charCodeAt(0).toString(16)}`);
      for (const f of instructionFiles(d.repo).concat(instructionFiles(d.home))) {
        const st = fs.statSync(f);
        const text = st.size > 2 * 1024 * 1024 ? '' : fs.readFileSync(f, 'utf8');
        fileLenses(a, f, text, 'claude-opus-5-5', englishT, 'en');
        scanFrontmatter(text);
        includeLinks(text, f, d.home, true);
        if (text.startsWith('---') && f.includes(`${path.sep}rules${path.sep}`)) {
          const m = /^paths:\s*(.*)$/m.exec(text.slice(0, 200_000));
          const rawPaths = m?.[1]?.trim() ? m[1].trim() : /^\s+- "(.*)"$/m.exec(text.slice(0, 200_000))?.[1];
          if (rawPaths && rulePatterns(rawPaths)) globReport({ raw: rawPaths, base: d.repo, launchDir: d.repo, home: d.home, files: [active, path.join(d.repo, `${'a'.repeat(103)}.ts`)], t: englishT, rel: (p) => path.relative(d.repo, p) || '.' });
        }
      }
      const ms = performance.now() - t0;
      assert.ok(ms < 20_000, `${ms.toFixed(0)} ms`);
    } finally {
      removeCaseDir(d);
    }
  });
}
