// The host's workspace lint: debounced on a fake clock (two schedules, one run), each folder's findings
// kept with the analysis they came from (a newer analysis has none until its own run), and a run that a
// newer one overtook publishes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, type Analysis } from '../../../src/engine/index.js';
import { LintRunner } from '../../../src/host/workspace/lint-runner.js';
import { makeTree } from '../../helpers/fixture.js';

test('lint runner: debounced, kept per analysis, an overtaken run publishes nothing', async (tc) => {
  const t = makeTree({
    'repo/.git/HEAD': 'ref: refs/heads/main\n',
    'repo/CLAUDE.md': '# Demo\n',
    'repo/.claude/rules/dead.md': '---\npaths: ["nowhere/**"]\n---\nnever loads\n',
  });
  try {
    const opts = { cwd: t.p('repo'), home: t.p('home'), env: {}, managedDir: t.p('none'), claudeVersion: '2.1.332' };
    let a: Analysis = analyze(opts);
    let done = 0;
    let runs = 0;
    const logged: string[] = [];
    const runner = new LintRunner(() => (runs++, [['k', a]]), () => done++, (m) => logged.push(m), 800);
    // the debounce on node:test's fake clock (as the analysis service's test does); real timers again
    // once the run has started, for secretlint's own asynchronous work
    tc.mock.timers.enable({ apis: ['setTimeout'] });
    runner.schedule();
    tc.mock.timers.tick(500);
    runner.schedule();
    tc.mock.timers.tick(799);
    assert.equal(runs, 0, 'a second schedule starts the wait again');
    assert.equal(runner.diagnosticsFor('k', a), undefined, 'nothing before the run');
    tc.mock.timers.tick(1);
    tc.mock.timers.reset();
    assert.equal(runs, 1, 'two schedules, one run');
    // the run is async (secretlint): wait for its publication
    for (let i = 0; i < 200 && !done; i++) await new Promise<void>((r) => setImmediate(r));
    assert.equal(done, 1);
    const found = runner.diagnosticsFor('k', a);
    assert.ok(found?.some((d) => d.path.endsWith("dead.md")), `the dead glob is found: ${JSON.stringify(found?.map((d) => d.rule))}`);
    const before = a;
    a = analyze(opts);
    assert.equal(runner.diagnosticsFor('k', a), undefined, 'a newer analysis has no findings until its own run');
    assert.ok(runner.diagnosticsFor('k', before), 'the older one keeps its own');
    // two runs at once: the first is overtaken and publishes nothing; only the second does
    const first = runner.run();
    const second = runner.run();
    await Promise.all([first, second]);
    assert.equal(done, 2, 'one publication for the two runs');
    assert.deepEqual(logged, []);
    runner.dispose();
  } finally {
    t.cleanup();
  }
});
