// The lazy plan (loader.ts LoadUnit, lazy.ts): what each folder contributes is loaded once and
// replayed on later touches. It must never change an answer: per-file answers, session sequences,
// diagnostics and refreshes after changes are compared with the engine loading everything again
// (unitCacheSwitch off), over a generated monorepo and over hand-made traps (shared and cyclic
// includes, includes of rules, deep chains, symlinked rules folders, excluded files).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { defaultParams, generate, prng } from '../../bench/generate.js';
import { analyze, type Analysis, type EngineOptions } from '../../src/engine/index.js';
import { unitCacheSwitch } from '../../src/engine/instructions/loader.js';
import { makeTree } from '../helpers/fixture.js';

function withoutUnits<T>(f: () => T): T {
  unitCacheSwitch.enabled = false;
  try {
    return f();
  } finally {
    unitCacheSwitch.enabled = true;
  }
}

const show = (a: Analysis, file: string) => a.lazyFor(file).map((i) => `${i.path} | ${i.reason} | ${i.viaHook ? 'hook' : ''} | ${i.text}`);
const diags = (a: Analysis) => a.diagnostics.map((d) => `${d.path}:${d.line ?? ''} ${d.rule} ${d.message}`).sort();

function allFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(root);
  return out;
}

test('over a generated monorepo: every answer, in any order, equals loading everything again', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'lazy-plan-'));
  try {
    const tree = generate({ ...defaultParams(4000, 21), packages: 8 }, out);
    const opts: EngineOptions = { cwd: tree.repo, home: tree.home, env: { HOME: tree.home }, managedDir: tree.managed };
    const files = allFiles(tree.repo);
    const r = prng(99);
    const sample = Array.from({ length: 400 }, () => files[Math.floor(r() * files.length)]!);
    // also names that do not exist, in folders that do and do not
    sample.push(path.join(tree.repo, 'packages', 'nope', 'x.ts'), path.join(tree.deepDir, 'missing.ts'));
    const warm = analyze(opts);
    const fresh = withoutUnits(() => analyze(opts));
    for (const f of [...sample, ...sample.slice().reverse()]) {
      const want = withoutUnits(() => show(fresh, f));
      assert.deepEqual(show(warm, f), want, f);
    }
    assert.deepEqual(diags(warm), withoutUnits(() => diags(fresh)), 'the same diagnostics');
    // one session touching many files: once-per-session dedupe over replayed plans
    const s1 = warm.session();
    const s2 = withoutUnits(() => fresh.session());
    for (const f of sample.slice(0, 120)) {
      const want = withoutUnits(() => s2.touch('Read', f).map((i) => i.path));
      assert.deepEqual(s1.touch('Read', f).map((i) => i.path), want, f);
    }
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
});

test('traps: shared, cyclic and deep includes, includes of rules, symlinked rules folders, excludes', () => {
  const t = makeTree({
    'repo/CLAUDE.md': 'root',
    'repo/shared.md': 'SHARED see @deep1.md',
    'repo/deep1.md': 'D1 @deep2.md',
    'repo/deep2.md': 'D2 @deep3.md',
    'repo/deep3.md': 'D3 @deep4.md',
    'repo/deep4.md': 'D4 @deep5.md',
    'repo/deep5.md': 'D5 never at depth 5',
    'repo/a/CLAUDE.md': 'A @../shared.md @cycle.md',
    'repo/a/cycle.md': 'CYCLE @CLAUDE.md',
    'repo/a/b/CLAUDE.md': 'B @../../deep3.md @../../shared.md',
    'repo/a/b/c/x.ts': 'x',
    'repo/a/b/.claude/rules/r1.md': '---\npaths: ["**/*.ts"]\n---\nR1 @../../../../shared.md',
    'repo/a/b/.claude/rules/r2.md': 'R2 unconditional @r1.md',
    'repo/a/b/.claude/rules/sub/r3.md': '---\npaths: "c/**"\n---\nR3 @../r2.md',
    'repo/linked/.claude/rules': { symlink: '../../a/b/.claude/rules' },
    'repo/linked/CLAUDE.md': 'L @../a/CLAUDE.md',
    'repo/linked/y.ts': 'y',
    'repo/ex/CLAUDE.md': 'EXCLUDED',
    'repo/ex/z.ts': 'z',
    'repo/.claude/rules/top.md': '---\npaths: "a/**"\n---\nTOP @a/cycle.md',
    'repo/.claude/settings.json': JSON.stringify({ claudeMdExcludes: ['**/ex/CLAUDE.md'] }),
    'home/.claude/rules/u.md': '---\npaths: "**/*.ts"\n---\nUSER @~/.claude/inc.md',
    'home/.claude/inc.md': 'USER INCLUDE',
  });
  try {
    const opts: EngineOptions = { cwd: t.p('repo'), home: t.p('home'), env: { HOME: t.p('home') }, managedDir: t.p('none') };
    const targets = ['repo/a/b/c/x.ts', 'repo/a/b/c/y.md', 'repo/a/z.ts', 'repo/linked/y.ts', 'repo/ex/z.ts', 'repo/a/b/CLAUDE.md', 'repo/shared.md', 'repo/q.ts'].map(t.p);
    const orders = [targets, targets.slice().reverse(), [...targets.slice(3), ...targets.slice(0, 3)]];
    for (const order of orders) {
      const warm = analyze(opts);
      const fresh = withoutUnits(() => analyze(opts));
      for (const f of order) assert.deepEqual(show(warm, f), withoutUnits(() => show(fresh, f)), f);
      const s1 = warm.session();
      const s2 = withoutUnits(() => fresh.session());
      for (const f of order) assert.deepEqual(s1.touch('Read', f).map((i) => i.path), withoutUnits(() => s2.touch('Read', f).map((i) => i.path)), `session: ${f}`);
      assert.deepEqual(diags(warm), withoutUnits(() => diags(fresh)));
    }
  } finally {
    t.cleanup();
  }
});

test('refresh forgets exactly what a change can alter: includes, new and deleted files, rules folders, links', () => {
  const t = makeTree({
    'repo/CLAUDE.md': 'root',
    'repo/docs/inc.md': 'INC v1',
    'repo/pkg/CLAUDE.md': 'PKG @../docs/inc.md',
    'repo/pkg/src/deep/x.ts': 'x',
    'repo/pkg/.claude/rules/r.md': '---\npaths: "src/**"\n---\nRULE v1',
    'repo/other/y.ts': 'y',
    'repo/target/CLAUDE.md': 'TARGET',
  });
  try {
    const opts: EngineOptions = { cwd: t.p('repo'), home: t.p('home'), env: { HOME: t.p('home') }, managedDir: t.p('none') };
    const probes = ['repo/pkg/src/deep/x.ts', 'repo/other/y.ts', 'repo/pkg/src/z.ts'].map(t.p);
    let a = analyze(opts);
    for (const f of probes) a.lazyFor(f);
    const step = (label: string, change: () => string[]) => {
      const changed = change();
      a = a.refresh(changed);
      const fresh = withoutUnits(() => analyze(opts));
      for (const f of probes) assert.deepEqual(show(a, f), withoutUnits(() => show(fresh, f)), `${label}: ${f}`);
    };
    step('an included file changes', () => {
      fs.writeFileSync(t.p('repo/docs/inc.md'), 'INC v2');
      return [t.p('repo/docs/inc.md')];
    });
    step('a nested CLAUDE.md appears', () => {
      fs.writeFileSync(t.p('repo/pkg/src/CLAUDE.md'), 'SRC');
      return [t.p('repo/pkg/src/CLAUDE.md')];
    });
    step('a rule changes its paths', () => {
      fs.writeFileSync(t.p('repo/pkg/.claude/rules/r.md'), '---\npaths: "src/z.ts"\n---\nRULE v2');
      return [t.p('repo/pkg/.claude/rules/r.md')];
    });
    step('a rule file is added to the folder', () => {
      fs.writeFileSync(t.p('repo/pkg/.claude/rules/n.md'), 'NEW UNCONDITIONAL');
      return [t.p('repo/pkg/.claude/rules/n.md')];
    });
    step('the included file is deleted', () => {
      fs.rmSync(t.p('repo/docs/inc.md'));
      return [t.p('repo/docs/inc.md')];
    });
    step('a whole folder with rules is deleted', () => {
      fs.rmSync(t.p('repo/pkg/.claude'), { recursive: true });
      return [t.p('repo/pkg/.claude')];
    });
    step('a folder becomes a link to another', () => {
      fs.rmSync(t.p('repo/other'), { recursive: true });
      fs.symlinkSync('target', t.p('repo/other'));
      return [t.p('repo/other')];
    });
  } finally {
    t.cleanup();
  }
});

test("a session's record of the folders it applied (FolderDone) never changes what a touch injects or reports", () => {
  const t = makeTree({
    'repo/CLAUDE.md': 'root @common.md',
    'repo/common.md': 'COMMON',
    'repo/p/CLAUDE.md': { symlink: '../common.md' },
    'repo/p/q/CLAUDE.md': { symlink: '../../common.md' },
    'repo/p/q/r/CLAUDE.md': 'R @../../../shared.md @missing.md',
    'repo/p/a.ts': 'a',
    'repo/p/q/r/s/t.ts': 't',
    'repo/p/q/other/u.ts': 'u',
    'repo/p/.claude/rules/cond.md': '---\npaths: ["q/r/**/*.ts"]\n---\nCOND @../../../shared.md',
    'repo/p/.claude/rules/plain.md': 'PLAIN @../../q/CLAUDE.md',
    'repo/p/.claude/rules/late.md': '---\npaths: "q/other/**"\n---\nLATE',
    'repo/shared.md': 'SHARED',
    'repo/w/CLAUDE.local.md': 'LOCAL @../p/q/r/CLAUDE.md',
    'repo/w/.claude/CLAUDE.md': 'DOT',
    'repo/w/x/y.md': 'y',
  });
  try {
    const opts: EngineOptions = { cwd: t.p('repo'), home: t.p('home'), env: { HOME: t.p('home') }, managedDir: t.p('none') };
    // a touch in p/ first: p/q/CLAUDE.md, a link to the file p/CLAUDE.md links to, is then deduped
    // by real path only if the record of p/ gives its keys back
    const targets = ['repo/p/a.ts', 'repo/p/q/r/s/t.ts', 'repo/p/q/other/u.ts', 'repo/p/q/r/s/t.ts', 'repo/w/x/y.md', 'repo/p/q/new.ts', 'repo/w/x/z.ts', 'repo/p/q/r/s/deeper/v.ts'].map(t.p);
    const orders = [targets, targets.slice().reverse(), [...targets.slice(2), ...targets.slice(0, 2)]];
    const full = (s: ReturnType<Analysis['session']>, f: string) => s.touch('Read', f).map((i) => `${i.path} | ${i.reason} | ${i.text}`);
    let injected = 0;
    for (const order of orders) {
      const warm = analyze(opts);
      const fresh = withoutUnits(() => analyze(opts));
      const s1 = warm.session();
      const s2 = withoutUnits(() => fresh.session());
      order.forEach((f, k) => {
        const want = withoutUnits(() => full(s2, f));
        assert.deepEqual(full(s1, f), want, `touch ${k + 1}: ${f}`);
        injected += want.length;
        // a file forgotten (deleted and back) in the middle of the session is injected again
        if (k === 4) {
          s1.forget(t.p('repo/p/q/r/CLAUDE.md'));
          s2.forget(t.p('repo/p/q/r/CLAUDE.md'));
        }
      });
      assert.deepEqual(diags(warm), withoutUnits(() => diags(fresh)), 'the same diagnostics');
    }
    assert.ok(injected > 10, `the sessions injected files (${injected})`);
  } finally {
    t.cleanup();
  }
});

test("a derived analysis (diff's head) shares the plans of its base only for the same launch directory and setting sources", () => {
  const t = makeTree({
    'repo/CLAUDE.md': 'root',
    'repo/a/CLAUDE.md': 'A',
    'repo/a/CLAUDE.local.md': 'A LOCAL',
    'repo/a/b/CLAUDE.md': 'B',
    'repo/a/b/c.ts': 'c',
    'repo/a/.claude/rules/r.md': '---\npaths: "b/**"\n---\nRULE',
  });
  try {
    const opts: EngineOptions = { cwd: t.p('repo'), home: t.p('home'), env: { HOME: t.p('home') }, managedDir: t.p('none') };
    const target = t.p('repo/a/b/c.ts');
    const names = (a: Analysis) => a.session().touch('Read', target).map((i) => path.relative(t.p('repo'), i.path));
    const base = analyze(opts);
    assert.deepEqual(names(base), ['a/CLAUDE.md', 'a/CLAUDE.local.md', 'a/.claude/rules/r.md', 'a/b/CLAUDE.md']);
    // the same options: the plans made for the base serve the head, with the same answer as from scratch
    assert.deepEqual(names(analyze(opts, { analysis: base, changed: [] })), names(analyze(opts)));
    // other setting sources (no CLAUDE.local.md) or another launch directory: plans of their own
    const noLocal = { ...opts, settingSources: ['user', 'project'] as EngineOptions['settingSources'] };
    assert.deepEqual(names(analyze(noLocal, { analysis: base, changed: [] })), ['a/CLAUDE.md', 'a/.claude/rules/r.md', 'a/b/CLAUDE.md']);
    const inA = { ...opts, cwd: t.p('repo/a') };
    const fromA = (a: Analysis) => a.session().touch('Read', target).map((i) => path.relative(t.p('repo'), i.path));
    assert.deepEqual(fromA(analyze(inA, { analysis: base, changed: [] })), fromA(analyze(inA)));
    assert.deepEqual(fromA(analyze(inA)), ['a/b/CLAUDE.md', 'a/.claude/rules/r.md']);
  } finally {
    t.cleanup();
  }
});
