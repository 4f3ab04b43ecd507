// The GitHub Action's steps (src/cli/action.ts) run as a script, as a runner runs them: a shallow
// checkout of a pull request's head (the base not in it), the event file, GITHUB_* variables and
// INPUT_* inputs, against a loopback stand-in of GitHub's REST API (127.0.0.1 only). It must fetch
// the base, post one comment with the marker, update that same comment on the next run, write the
// SARIF file, and fail (exit 1) on a budget.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fixtureRepo, FIXTURES, git } from './diff-repos.js';

const ROOT = path.resolve(__dirname, '..', '..');

interface Comment {
  id: number;
  body: string;
}

/** GitHub's issue comments API, in memory */
function fakeGitHub(): Promise<{ url: string; comments: Comment[]; requests: string[]; auth: string[]; close: () => void }> {
  const comments: Comment[] = [{ id: 1, body: 'an unrelated comment' }];
  const requests: string[] = [];
  const auth: string[] = [];
  let next = 100;
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString('utf8')));
    req.on('end', () => {
      requests.push(`${req.method} ${req.url}`);
      auth.push(String(req.headers.authorization));
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const list = /^\/repos\/octo\/repo\/issues\/7\/comments(\?.*)?$/.exec(req.url ?? '');
      const one = /^\/repos\/octo\/repo\/issues\/comments\/(\d+)$/.exec(req.url ?? '');
      if (list && req.method === 'GET') return send(200, comments);
      if (list && req.method === 'POST') {
        const c = { id: next++, body: (JSON.parse(data) as { body: string }).body };
        comments.push(c);
        return send(201, c);
      }
      if (one && req.method === 'PATCH') {
        const c = comments.find((x) => x.id === Number(one[1]));
        if (!c) return send(404, {});
        c.body = (JSON.parse(data) as { body: string }).body;
        return send(200, c);
      }
      send(404, { message: 'Not Found' });
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, comments, requests, auth, close: () => server.close() });
    }),
  );
}

/** the steps as a script (cwd: the repository, for tsx; the workspace is GITHUB_WORKSPACE) */
function runScript(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'action.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

test('the action: fetches the base of a shallow checkout, posts one sticky comment, updates it, writes SARIF, fails on a budget', { timeout: 400_000 }, async () => {
  const t = fixtureRepo('startup');
  const api = await fakeGitHub();
  try {
    const baseSha = git(t.repo, 'rev-parse', 'main').trim();
    const headSha = git(t.repo, 'rev-parse', 'pr').trim();
    // the runner's checkout: depth 1, the head only
    // (a name as long as the fixture's `repo`: the `Contents of /abs/path` headers count in the sizes)
    const ws = path.join(t.root, 'work');
    git(t.root, 'clone', '-q', '--depth=1', '--branch', 'pr', '--no-local', `file://${t.repo}`, ws);
    assert.throws(() => git(ws, 'cat-file', '-e', `${baseSha}^{commit}`), 'the base is not in the shallow clone');
    const event = path.join(t.root, 'event.json');
    fs.writeFileSync(event, JSON.stringify({ number: 7, pull_request: { number: 7, base: { sha: baseSha, ref: 'main' }, head: { sha: headSha } } }));
    const summary = path.join(t.root, 'summary.md');
    const output = path.join(t.root, 'output.txt');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: t.home,
      GITHUB_WORKSPACE: ws,
      GITHUB_EVENT_PATH: event,
      GITHUB_REPOSITORY: 'octo/repo',
      GITHUB_API_URL: api.url,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_OUTPUT: output,
      'INPUT_GITHUB-TOKEN': 'test-token',
      INPUT_COMMENT: 'true',
      INPUT_SARIF: 'out/claude.sarif',
      'INPUT_CLAUDE-VERSION': '2.1.333',
      INPUT_HOME: t.home,
      INPUT_SECRETS: 'false',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_ALLOW_PROTOCOL: 'file',
    };
    fs.mkdirSync(path.join(ws, 'out'));

    const first = await runScript(env);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.match(first.stdout, /fetching the base [0-9a-f]{40}/);
    assert.match(first.stdout, /posted the comment 100 on #7/);
    assert.deepEqual(api.requests.filter((r) => r !== 'GET /repos/octo/repo/issues/7/comments?per_page=100&page=1'), ['POST /repos/octo/repo/issues/7/comments']);
    assert.ok(api.auth.every((a) => a === 'Bearer test-token'));
    const body = api.comments.find((c) => c.id === 100)!.body;
    assert.equal(body.split('\n')[0], '<!-- claude-context-layers -->');
    // the same report as the fixture's golden comment, but for the revisions' names in the footer
    const golden = fs.readFileSync(path.join(FIXTURES, 'startup', 'comment.md'), 'utf8');
    const noFooter = (s: string) => s.replace(/<sub>.*<\/sub>\n$/, '');
    assert.equal(noFooter(body), noFooter(golden));
    assert.match(body, new RegExp(`<sub>${baseSha}\\.\\.${headSha} · Claude Code 2\\.1\\.333`));
    assert.equal(fs.readFileSync(summary, 'utf8'), body);
    const sarif = JSON.parse(fs.readFileSync(path.join(ws, 'out', 'claude.sarif'), 'utf8')) as { version: string; runs: { results: unknown[] }[] };
    assert.equal(sarif.version, '2.1.0');
    assert.deepEqual(sarif.runs[0]!.results, []);
    assert.equal(fs.readFileSync(output, 'utf8'), `sarif=${path.join(ws, 'out', 'claude.sarif')}\n`);

    // the next push: the same comment is updated, not a second one; the growth limit fails the job
    const second = await runScript({ ...env, 'INPUT_FAIL-ON-GROWTH': '10%', INPUT_BUDGET: 'file=250' });
    assert.equal(second.code, 1, second.stdout + second.stderr);
    assert.match(second.stdout, /updated the comment 100 on #7/);
    assert.equal(api.comments.length, 2, 'the unrelated comment and ours');
    assert.equal(api.requests.filter((r) => r.startsWith('POST')).length, 1);
    assert.equal(api.requests.filter((r) => r.startsWith('PATCH')).length, 1);
    const updated = api.comments.find((c) => c.id === 100)!.body;
    assert.match(updated, /❌ over budget \(2\)/);
    assert.match(updated, /docs\/architecture\.md: 292 characters is over the file budget of 250/);
    assert.match(second.stdout, /^::error::budget: the startup block grows by 81\.5 %/m);

    // a base that does not exist: exit 2, one error line, the comment left as it was
    fs.writeFileSync(event, JSON.stringify({ pull_request: { number: 7, base: { sha: 'f'.repeat(40) }, head: { sha: headSha } } }));
    const third = await runScript(env);
    assert.equal(third.code, 2, third.stdout + third.stderr);
    // (the first run fetched the whole two-commit history: the clone is no longer shallow)
    assert.match(third.stdout, /^::error::claude-layers diff: revision "f{40}" does not exist in this repository$/m);
    assert.equal(api.comments.find((c) => c.id === 100)!.body, updated);
    // the job summary says why, in inert Markdown, after what the earlier runs wrote there
    assert.match(fs.readFileSync(summary, 'utf8'), /\*\*Claude Context Layers could not compare this change\.\*\*\n\n- claude-layers diff: revision "f{40}" does not exist in this repository\n$/);
    assert.doesNotMatch(third.stderr, /\n\s+at /, 'no stack trace');
  } finally {
    api.close();
    t.cleanup();
  }
});
