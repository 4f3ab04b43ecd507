// `claude-layers diff`: each change kind on a fixture repository (test/fixtures/diff/CASE, made a
// git repository here) with the pull request comment compared to its golden file (CASE/comment.md;
// UPDATE_GOLDEN=1 rewrites them), the JSON's fields, the budget gate's exit codes, and the inputs it
// refuses with exit 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { diffCommand } from '../../src/cli/diff-command.js';
import { makeStyle } from '../../src/cli/style.js';
import { blobStore, deriveTree, gitTreeFileAccess, nodeFileAccess, readTree, readTreeStreamed, type DiffReport, type GitRunner } from '../../src/engine/index.js';
import { nodeGitRunner } from '../../src/cli/git-runner.js';
import { commitFiles, emptyRepo, fixtureRepo, FIXTURES, git, type TempRepo } from './diff-repos.js';

const plain = makeStyle(false);

async function diff(t: TempRepo, ...args: string[]) {
  return diffCommand([...t.flags, '--no-secrets', ...args], plain);
}

async function json(t: TempRepo, ...args: string[]): Promise<{ r: DiffReport & { budget: { exceeded: { budget: string; path: string; message: string }[] }; exitCode: number }; code: number; stderr: string }> {
  const r = await diff(t, ...args, '--format', 'json');
  return { r: JSON.parse(r.output) as DiffReport & { budget: { exceeded: { budget: string; path: string; message: string }[] }; exitCode: number }, code: r.exitCode, stderr: r.details };
}

async function golden(name: string): Promise<DiffReport> {
  const t = fixtureRepo(name);
  try {
    const r = await diff(t, '--format', 'markdown', 'main', 'pr');
    assert.equal(r.exitCode, 0, r.details);
    const file = path.join(FIXTURES, name, 'comment.md');
    if (process.env.UPDATE_GOLDEN === '1') fs.writeFileSync(file, r.output);
    assert.equal(r.output, fs.readFileSync(file, 'utf8'), `${name}: the comment differs from ${file} (UPDATE_GOLDEN=1 to rewrite it after checking the change)`);
    return (await json(t, 'main', 'pr')).r;
  } finally {
    t.cleanup();
  }
}

test('startup: a file grown, a rule without paths added, one removed, an @import added', async () => {
  const r = await golden('startup');
  const byPath = Object.fromEntries(r.startup.files.map((f) => [f.path, f]));
  assert.equal(byPath['CLAUDE.md']?.change, 'grown');
  assert.ok(byPath['CLAUDE.md'].afterChars > byPath['CLAUDE.md'].beforeChars);
  assert.equal(byPath['.claude/rules/backend.md']?.change, 'added');
  assert.equal(byPath['.claude/rules/backend.md']?.beforeChars, 0);
  assert.equal(byPath['.claude/rules/style.md']?.change, 'removed');
  assert.equal(byPath['.claude/rules/style.md']?.afterChars, 0);
  assert.equal(byPath['docs/architecture.md']?.change, 'added');
  assert.deepEqual(r.imports.map((i) => [i.from, i.path]), [['CLAUDE.md', 'docs/architecture.md']]);
  assert.equal(r.imports[0]!.chars, byPath['docs/architecture.md'].afterChars);
  // the block's growth is the files' growth plus one separator (two newlines) per entry more (same framing, same day)
  const filesDelta = r.startup.files.reduce((n, f) => n + f.afterChars - f.beforeChars, 0);
  const entriesDelta = r.startup.files.filter((f) => f.change === 'added').length - r.startup.files.filter((f) => f.change === 'removed').length;
  assert.equal(r.startup.after - r.startup.before, filesDelta + 2 * entriesDelta);
  assert.equal(r.version, '2.1.333');
  assert.equal(r.base, 'main');
  assert.equal(r.head, 'pr');
});

test('rules: a widened glob reaches more files, a narrowed one fewer, with examples of the new reach', async () => {
  const r = await golden('rules');
  const api = r.rules.find((x) => x.path === '.claude/rules/api.md')!;
  assert.deepEqual(api.paths, ['src/**']);
  assert.deepEqual(api.beforePaths, ['src/api/**']);
  assert.equal(api.beforeMatches, 2);
  assert.equal(api.afterMatches, 5);
  assert.ok(api.examples.length > 0 && api.examples.every((e) => e.startsWith('src/') && !e.startsWith('src/api/')), api.examples.join());
  const ts = r.rules.find((x) => x.path === '.claude/rules/ts.md')!;
  assert.equal(ts.beforeMatches, 5);
  assert.equal(ts.afterMatches, 1);
  assert.deepEqual(r.startup.files, []);
});

test('nested: a nested CLAUDE.md added and one grown, with the folders they load for', async () => {
  const r = await golden('nested');
  const byPath = Object.fromEntries(r.nested.map((n) => [n.path, n]));
  assert.equal(byPath['packages/cli/CLAUDE.md']?.change, 'added');
  assert.equal(byPath['packages/cli/CLAUDE.md']?.folder, 'packages/cli');
  assert.equal(byPath['packages/web/CLAUDE.md']?.change, 'grown');
  assert.ok(byPath['packages/web/CLAUDE.md'].chars > byPath['packages/web/CLAUDE.md'].beforeChars);
  assert.equal(r.startup.before, r.startup.after, 'nested files do not load at startup');
  // the changed files' own injection: a read in packages/cli now brings its CLAUDE.md
  assert.ok(r.touched.some((x) => x.path.startsWith('packages/') && x.afterChars > x.beforeChars), JSON.stringify(r.touched));
});

test('skills: one added with a description over the cap, one removed; past the budget of 7,200 the new one is listed by name only', async () => {
  const r = await golden('skills');
  assert.deepEqual(r.skills.added, ['migrate']);
  assert.deepEqual(r.skills.removed, ['review']);
  assert.deepEqual(r.skills.cut, ['migrate'], 'its description is over the 1,536-character cap');
  assert.deepEqual(r.skills.demoted, ['migrate'], 'the listing went over its budget: the engine demotes the new skill');
  assert.deepEqual(r.findings.added.map((f) => [f.rule, f.path]), [['skill-demoted', '.claude/skills/migrate/SKILL.md']]);
  assert.equal(r.skills.budget.after.budget, 7200);
  // demoted, its description is not sent: the listing is narrower than before, within the budget
  assert.ok(r.skills.budget.after.used <= 7200 && r.skills.budget.before.used <= 7200, JSON.stringify(r.skills.budget));
});

test('findings: a new rule whose glob matches nothing is a new finding; SARIF carries it', async () => {
  const r = await golden('findings');
  assert.deepEqual(r.findings.added.map((f) => [f.rule, f.path]), [['glob-matches-nothing', '.claude/rules/rust.md']]);
  assert.deepEqual(r.findings.removed, []);
  const t = fixtureRepo('findings');
  try {
    const s = await diff(t, 'main', 'pr', '--format', 'sarif');
    const sarif = JSON.parse(s.output) as { runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
    assert.deepEqual(sarif.runs[0]!.results.map((x) => [x.ruleId, x.locations[0]!.physicalLocation.artifactLocation.uri]), [['glob-matches-nothing', '.claude/rules/rust.md']]);
  } finally {
    t.cleanup();
  }
});

test('unchanged: a change that touches no instruction file says so', async () => {
  const r = await golden('unchanged');
  assert.equal(r.startup.before, r.startup.after);
  assert.deepEqual([r.startup.files, r.rules, r.nested, r.imports, r.findings.added], [[], [], [], [], []]);
  const body = fs.readFileSync(path.join(FIXTURES, 'unchanged', 'comment.md'), 'utf8');
  assert.match(body.split('\n')[1]!, /no change to what Claude Code loads/);
  assert.equal(body.split('\n')[0], '<!-- claude-context-layers -->');
});

test('default revisions: the merge base with main against the working tree (uncommitted edits included)', async () => {
  const t = fixtureRepo('startup');
  try {
    fs.appendFileSync(path.join(t.repo, 'CLAUDE.md'), 'One more line, not committed.\n');
    // a personal file git does not hold is the same on both sides (read from disk for the commit too)
    fs.writeFileSync(path.join(t.repo, '.gitignore'), 'CLAUDE.local.md\n');
    fs.writeFileSync(path.join(t.repo, 'CLAUDE.local.md'), 'My own notes.\n');
    const { r, code } = await json(t);
    assert.equal(code, 0);
    assert.equal(r.head, 'working tree');
    assert.equal(r.base, git(t.repo, 'rev-parse', 'main').trim());
    const committed = (await json(t, 'main', 'pr')).r;
    const claude = (x: DiffReport) => x.startup.files.find((f) => f.path === 'CLAUDE.md')!.afterChars;
    assert.equal(claude(r) - claude(committed), 'One more line, not committed.\n'.length);
    assert.ok(!r.startup.files.some((f) => f.path === 'CLAUDE.local.md'), JSON.stringify(r.startup.files));
    // the user's tree is not touched: still on pr, the edit still there
    assert.equal(git(t.repo, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'pr');
    assert.match(git(t.repo, 'status', '--porcelain'), /M CLAUDE\.md/);
    // the same with both sides commits: CLAUDE.local.md from disk on both
    const both = (await json(t, 'main', 'pr')).r;
    assert.ok(!both.startup.files.some((f) => f.path === 'CLAUDE.local.md'));
    assert.ok(!both.findings.added.some((f) => f.path === 'CLAUDE.local.md'));
  } finally {
    t.cleanup();
  }
});

test('the gate: budgets from the file and the flags, exit 1 naming the file and the budget; --fail-on-growth', async () => {
  const t = fixtureRepo('startup');
  try {
    let x = await json(t, 'main', 'pr', '--budget', 'file=100');
    assert.equal(x.code, 1);
    assert.equal(x.r.exitCode, 1);
    const files = x.r.budget.exceeded.map((v) => v.path);
    assert.ok(files.includes('docs/architecture.md'), files.join());
    assert.match(x.stderr, /docs\/architecture\.md: \d[\d,]* characters is over the file budget of 100 \(each file of the startup block; --budget\)/);
    x = await json(t, 'main', 'pr', '--budget', 'startup=100000,file=100000');
    assert.equal(x.code, 0);
    x = await json(t, 'main', 'pr', '--fail-on-growth', '10%');
    assert.equal(x.code, 1);
    assert.match(x.r.budget.exceeded[0]!.message, /the startup block grows by \d+\.\d %.*over the limit of 10 %; most from docs\/architecture\.md/);
    x = await json(t, 'main', 'pr', '--fail-on-growth', '1000%');
    assert.equal(x.code, 0);
    // tokens: "100t" is ≈tokens at the model's ratio
    x = await json(t, 'main', 'pr', '--budget', 'startup=10t');
    assert.equal(x.code, 1);
    assert.match(x.r.budget.exceeded[0]!.message, /≈tokens is over the startup budget of 10/);
    // the budget file of the head revision
    commitFiles(t.repo, { '.claude/context-budget.json': JSON.stringify({ rule: 50, failOnGrowth: '5%' }) }, 'budgets');
    x = await json(t, 'main', 'pr');
    assert.equal(x.code, 1);
    assert.ok(x.r.budget.exceeded.some((v) => v.budget === 'growth' && /\.claude\/context-budget\.json/.test(v.message)));
    // flags win over the file, key by key
    x = await json(t, 'main', 'pr', '--fail-on-growth', '1000%');
    assert.equal(x.code, 0, JSON.stringify(x.r.budget));
    commitFiles(t.repo, { '.claude/context-budget.json': '{"startup": 12000, "bogus": 1}' }, 'bad budgets');
    const bad = await diff(t, 'main', 'pr');
    assert.equal(bad.exitCode, 2);
    assert.match(bad.details, /context-budget\.json: unknown budget "bogus"/);
    commitFiles(t.repo, { '.claude/context-budget.json': '{"startup": ' }, 'broken budgets');
    assert.match((await diff(t, 'main', 'pr')).details, /context-budget\.json: not valid JSON/);
  } finally {
    t.cleanup();
  }
});

test('exit 2 with one clear line: a missing revision, a shallow clone without the base, a binary or huge instruction file', async () => {
  const t = fixtureRepo('unchanged');
  try {
    let r = await diff(t, 'no-such-branch', 'pr');
    assert.equal(r.exitCode, 2);
    assert.equal(r.output, '');
    assert.match(r.details, /^claude-layers diff: revision "no-such-branch" does not exist in this repository\n$/);
    r = await diff(t, 'main', 'pr~5');
    assert.match(r.details, /revision "pr~5" does not exist/);

    // a shallow clone of pr only: main's commit is not in it
    const shallow = path.join(t.root, 'shallow');
    git(t.root, 'clone', '-q', '--depth=1', '--branch', 'pr', '--no-local', `file://${t.repo}`, shallow);
    const s = { ...t, repo: shallow, flags: t.flags.map((f) => (f === t.repo ? shallow : f)) };
    const head = git(t.repo, 'rev-parse', 'main').trim();
    r = await diff(s, head, 'HEAD');
    assert.equal(r.exitCode, 2);
    assert.match(r.details, /is not in this shallow clone: fetch it \(git fetch --depth=50 origin [0-9a-f]{40}\)/);

    commitFiles(t.repo, { 'CLAUDE.md': new Uint8Array([0x23, 0x20, 0x00, 0x01, 0x02, 0xff, 0x0a]) }, 'binary');
    r = await diff(t, 'main', 'pr');
    assert.equal(r.exitCode, 2);
    assert.match(r.details, /^claude-layers diff: CLAUDE\.md \(pr\): a binary file/);

    commitFiles(t.repo, { 'CLAUDE.md': '# ok\n', 'pkg/CLAUDE.md': 'x'.repeat(4 * 1024 * 1024 + 10) }, 'huge');
    r = await diff(t, 'main', 'pr');
    assert.equal(r.exitCode, 2);
    assert.match(r.details, /pkg\/CLAUDE\.md \(pr\): 4194314 bytes, over Claude Code's 4 MiB limit/);
  } finally {
    t.cleanup();
  }
});

test('a renamed instruction file and a submodule: exit 2 naming each and the flag that compares around it; allowed, each a note', async () => {
  const t = fixtureRepo('startup');
  const sub = emptyRepo();
  try {
    git(t.repo, 'mv', '.claude/rules/backend.md', '.claude/rules/server.md');
    commitFiles(sub.repo, { 'CLAUDE.md': 'inside the submodule\n' }, 'sub');
    git(t.repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub.repo, 'vendor/lib');
    git(t.repo, 'commit', '-q', '-m', 'rename and submodule');

    // refused, both named, one line each, no report
    const refused = await diff(t, 'pr~1', 'pr');
    assert.equal(refused.exitCode, 2);
    assert.equal(refused.output, '');
    const lines = refused.details.trim().split('\n');
    assert.equal(lines.length, 2, refused.details);
    assert.match(lines[0]!, /^claude-layers diff: \.claude\/rules\/backend\.md is renamed to \.claude\/rules\/server\.md between pr~1 and pr: .*--allow-renames/);
    assert.match(lines[1]!, /^claude-layers diff: vendor\/lib is a submodule added between pr~1 and pr: .*--allow-submodules/);
    // one allowed, the other still refused
    const half = await diff(t, '--allow-renames', 'pr~1', 'pr');
    assert.equal(half.exitCode, 2);
    assert.doesNotMatch(half.details, /renamed/);
    assert.match(half.details, /vendor\/lib is a submodule added/);

    // allowed: compared around, each a note
    const { r, code } = await json(t, '--allow-submodules', 'main', 'pr');
    assert.equal(code, 0);
    assert.ok(r.notes.some((n) => /^submodule vendor\/lib added: diff does not read inside submodules/.test(n)), r.notes.join('\n'));
    const { r: r2, code: code2 } = await json(t, '--allow-renames', '--allow-submodules', 'pr~1', 'pr');
    assert.equal(code2, 0);
    assert.ok(r2.notes.some((n) => n.startsWith('renamed: .claude/rules/backend.md → .claude/rules/server.md')), r2.notes.join('\n'));
    assert.deepEqual(r2.startup.files.map((f) => [f.path, f.change]).sort(), [['.claude/rules/backend.md', 'removed'], ['.claude/rules/server.md', 'added']]);

    // a rename of a file that is not an instruction file, and edits inside the submodule's checkout: nothing refused
    git(path.join(t.repo, 'vendor/lib'), 'config', 'user.email', 't@t');
    fs.writeFileSync(path.join(t.repo, 'vendor/lib/CLAUDE.md'), 'edited in the checkout\n');
    fs.mkdirSync(path.join(t.repo, 'src'), { recursive: true });
    fs.writeFileSync(path.join(t.repo, 'src/moved-from.ts'), 'export const a = 1;\n'.repeat(20));
    git(t.repo, 'add', 'src/moved-from.ts');
    git(t.repo, 'commit', '-q', '-m', 'a source file');
    git(t.repo, 'mv', 'src/moved-from.ts', 'src/moved-to.ts');
    const wt = await diff(t, 'HEAD');
    assert.equal(wt.exitCode, 0, wt.details);
  } finally {
    t.cleanup();
    sub.cleanup();
  }
});

test('not a repository, a revision given as an option: exit 2, never a crash', async () => {
  const t = emptyRepo();
  try {
    fs.rmSync(path.join(t.repo, '.git'), { recursive: true });
    const r = await diff(t, 'main');
    assert.equal(r.exitCode, 2);
    assert.match(r.details, /is not inside a git repository/);
  } finally {
    t.cleanup();
  }
  const u = fixtureRepo('unchanged');
  try {
    const r = await diff(u, '--', '-x', 'pr');
    assert.equal(r.exitCode, 2);
    assert.match(r.details, /"-x" is not a revision/);
  } finally {
    u.cleanup();
  }
});

test('the README shows the golden comment of the startup fixture as it is', () => {
  const readme = fs.readFileSync(path.join(FIXTURES, '..', '..', '..', 'README.md'), 'utf8');
  const m = /<!-- diff-comment: startup -->\n([\s\S]*?)<!-- \/diff-comment -->/.exec(readme);
  assert.ok(m, 'README has the diff-comment block');
  assert.equal(m[1], fs.readFileSync(path.join(FIXTURES, 'startup', 'comment.md'), 'utf8'));
});

test('the two revisions share one store of objects: what they have in common is read from git once', () => {
  const t = fixtureRepo('nested');
  try {
    const runner = nodeGitRunner(t.repo);
    const calls: string[] = [];
    const counting = { run: (args: readonly string[], input?: string, max?: number) => (calls.push(args.slice(0, 2).join(' ')), runner.run(args, input, max)) };
    const base = readTree(counting, 'main');
    const head = readTree(counting, 'pr');
    assert.ok(base.ok && head.ok);
    const store = blobStore();
    const outside = nodeFileAccess;
    const b = gitTreeFileAccess(counting, base.tree, { root: t.repo, outside, store });
    const readsAfterBase = calls.filter((c) => c.startsWith('cat-file')).length;
    const known = store.blobs.size;
    const h = gitTreeFileAccess(counting, head.tree, { root: t.repo, outside, store });
    // the head asks git only for the objects the base did not have
    const headOids = [...head.tree.entries.entries()].filter(([rel, e]) => e.kind === 'file' && (rel.endsWith('.md') || rel.startsWith('.claude/'))).map(([, e]) => e.oid);
    const baseOids = new Set([...base.tree.entries.values()].map((e) => e.oid));
    const fresh = new Set(headOids.filter((o) => !baseOids.has(o)));
    assert.ok(fresh.size > 0 && fresh.size < new Set(headOids).size, 'the fixture changes some files and keeps others');
    assert.equal(store.blobs.size, known + fresh.size);
    assert.ok(calls.filter((c) => c.startsWith('cat-file')).length - readsAfterBase <= 2, 'one size check and one read for the new objects');
    // both sides still read their own content
    const file = path.join(t.repo, 'packages', 'web', 'CLAUDE.md');
    const rb = b.readFile(file, 1 << 20);
    const rh = h.readFile(file, 1 << 20);
    assert.ok(rb.ok && rh.ok);
    assert.equal(Buffer.from(rb.value).toString('utf8'), fs.readFileSync(path.join(FIXTURES, 'nested', 'base', 'packages', 'web', 'CLAUDE.md'), 'utf8'));
    assert.equal(Buffer.from(rh.value).toString('utf8'), fs.readFileSync(path.join(FIXTURES, 'nested', 'head', 'packages', 'web', 'CLAUDE.md'), 'utf8'));
  } finally {
    t.cleanup();
  }
});

test("the head's tree derived from the base's and git diff-tree is the tree git lists", () => {
  const t = emptyRepo();
  try {
    commitFiles(t.repo, {
      'CLAUDE.md': '# base\n',
      'a/x.md': 'x\n',
      'a/b/y.md': 'y\n',
      'gone/z.md': 'z\n',
      'gone/deep/w.md': 'w\n',
      'turns/file.md': 'a file that becomes a folder\n',
      'link-target.md': 't\n',
      'ab.md': 'sorted around a/ and a-b/\n',
      'a-b/k.md': 'k\n',
      'same.md': 'unchanged\n',
    });
    git(t.repo, 'checkout', '-q', '-b', 'pr');
    commitFiles(t.repo, {
      'CLAUDE.md': '# head\n',
      'a/b/y.md': null,
      'a/b/v.md': 'v\n',
      'a/new/n.md': 'n\n',
      'gone/z.md': null,
      'gone/deep/w.md': null,
      'turns/file.md': null,
      'a.md': 'a file named like the folder a, sorted before it\n',
      'c/.claude/rules/r.md': 'r\n',
    });
    fs.rmSync(path.join(t.repo, 'turns'), { recursive: true, force: true });
    fs.mkdirSync(path.join(t.repo, 'turns', 'file.md'), { recursive: true });
    fs.writeFileSync(path.join(t.repo, 'turns', 'file.md', 'inside.md'), 'now a folder\n');
    fs.symlinkSync('link-target.md', path.join(t.repo, 'link.md'));
    git(t.repo, 'add', '-A');
    git(t.repo, 'commit', '-q', '-m', 'more');
    const runner = nodeGitRunner(t.repo);
    const base = readTree(runner, 'main');
    const listed = readTree(runner, 'pr');
    assert.ok(base.ok && listed.ok);
    const derived = deriveTree(runner, base.tree, 'pr');
    assert.ok(derived?.ok);
    assert.deepEqual(new Map([...derived.tree.entries].sort()), new Map([...listed.tree.entries].sort()));
    assert.deepEqual(new Map([...derived.tree.dirs].sort()), new Map([...listed.tree.dirs].sort()), 'the same folders, each listed in the same order');
    assert.equal(derived.tree.commit, listed.tree.commit);
    // the base's own tree is left as it was
    const again = readTree(runner, 'main');
    assert.ok(again.ok);
    assert.deepEqual(new Map([...base.tree.dirs].sort()), new Map([...again.tree.dirs].sort()));
    assert.equal(deriveTree(runner, base.tree, 'no-such-rev')?.ok, false);
  } finally {
    t.cleanup();
  }
});

test('the base tree parsed while git lists it is the tree readTree parses, whatever the pieces; a failing or oversized listing is a message', async () => {
  const t = emptyRepo();
  try {
    // names in several scripts (a multi-byte character cut between two pieces), spaces, a tab-free oddity, deep folders
    const files: Record<string, string> = { 'CLAUDE.md': '# root\n', 'a b/c.md': 'c\n', '文档/说明.md': 'zh\n', 'émoji/😀.md': 'e\n', '.claude/rules/r.md': 'r\n' };
    for (let i = 0; i < 300; i++) files[`deep/d${i % 7}/f${i}-ünïcode.ts`] = `export const v${i} = ${i};\n`;
    commitFiles(t.repo, files);
    const runner = nodeGitRunner(t.repo);
    const whole = readTree(runner, 'main');
    assert.ok(whole.ok);
    const sorted = (tree: typeof whole.tree) => ({ entries: new Map([...tree.entries].sort()), dirs: new Map([...tree.dirs].sort()), commit: tree.commit });
    // the node runner's own pieces
    const streamed = await readTreeStreamed(runner, 'main');
    assert.ok(streamed.ok);
    assert.deepEqual(sorted(streamed.tree), sorted(whole.tree));
    // the same output handed over in pieces of every size from 1 to 97 bytes (cuts inside entries and characters)
    const out = runner.run(['ls-tree', '-r', '-t', '-z', '--full-tree', whole.tree.commit]);
    assert.ok(out.ok);
    for (const size of [1, 2, 3, 5, 13, 97]) {
      const pieces: GitRunner = {
        run: (...a) => runner.run(...a),
        stream: (_args, onChunk) => {
          for (let at = 0; at < out.stdout.length; at += size) onChunk(out.stdout.subarray(at, at + size));
          return Promise.resolve({ ok: true });
        },
      };
      const r = await readTreeStreamed(pieces, 'main');
      assert.ok(r.ok);
      assert.deepEqual(sorted(r.tree), sorted(whole.tree), `pieces of ${size} bytes`);
    }
    // no such revision; git failing; a runner that cannot stream
    assert.deepEqual(await readTreeStreamed(runner, 'no-such-rev'), { ok: false, message: 'revision "no-such-rev" does not exist in this repository' });
    const failing: GitRunner = { run: (...a) => runner.run(...a), stream: () => Promise.resolve({ ok: false, message: 'fatal: bad object' }) };
    assert.deepEqual(await readTreeStreamed(failing, 'main'), { ok: false, message: 'cannot list the tree of main: fatal: bad object' });
    const plain = await readTreeStreamed({ run: (...a) => runner.run(...a) }, 'main');
    assert.ok(plain.ok);
    assert.deepEqual(sorted(plain.tree), sorted(whole.tree));
    // the node runner's bound: the listing cut, git stopped, a message
    const small = await runner.stream!(['ls-tree', '-r', '-z', whole.tree.commit], () => undefined, 100);
    assert.deepEqual(small, { ok: false, message: "git's output is over 100 bytes" });
  } finally {
    t.cleanup();
  }
});
