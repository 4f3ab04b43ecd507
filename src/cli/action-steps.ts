// The GitHub Action (action.yml, dist/action.js): on a pull request, `claude-layers diff` of its base
// and head, one sticky comment on the pull request (found again by its hidden marker and updated),
// a SARIF file of the findings the change adds (for github/codeql-action/upload-sarif), and the
// budget gate's exit code. The steps read what a runner gives (the event file, GITHUB_* variables,
// INPUT_* inputs) from `env`, so a test runs them against a local repository and a loopback API.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorText } from './escape.js';
import { diffCommand } from './diff-command.js';
import { COMMENT_MARKER, md } from './diff-format.js';
import { nodeGitRunner } from './git-runner.js';
import { makeStyle } from './style.js';

export type Env = Record<string, string | undefined>;

/** an input of action.yml as the runner passes it: INPUT_NAME (spaces to underscores, upper case) */
export function input(env: Env, name: string): string | undefined {
  const v = env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

interface PullRequestEvent {
  number?: number;
  pull_request?: { number?: number; base?: { sha?: string; ref?: string }; head?: { sha?: string } };
}

export interface ActionLog {
  info(s: string): void;
  /** a workflow command (::error:: / ::warning::) */
  annotate(kind: 'error' | 'warning' | 'notice', s: string): void;
}

export const consoleLog: ActionLog = {
  // line by line; a line that would read as a workflow command (`::…`) is indented
  info: (s) => process.stdout.write(`${s.split('\n').map((l) => errorText(l).replace(/^::/, ' ::')).join('\n')}\n`),
  annotate: (kind, s) => process.stdout.write(`::${kind}::${errorText(s).replace(/%/g, '%25')}\n`),
};

/** the longest the API may take to answer (ms) */
const API_TIMEOUT_MS = 30_000;

async function api(env: Env, method: string, route: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const base = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
  const token = input(env, 'github-token') ?? env.GITHUB_TOKEN;
  const res = await fetch(`${base}${route}`, {
    method,
    headers: {
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': 'claude-context-layers-action',
      ...(token && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(API_TIMEOUT_MS),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json };
}

/** posts the comment, or updates the one that carries the marker; the comment's id */
export async function stickyComment(env: Env, repo: string, pr: number, body: string): Promise<{ id: number; updated: boolean }> {
  let found: number | undefined;
  for (let page = 1; page <= 50 && found === undefined; page++) {
    const r = await api(env, 'GET', `/repos/${repo}/issues/${pr}/comments?per_page=100&page=${page}`);
    if (r.status !== 200 || !Array.isArray(r.json)) throw new Error(`listing the comments of #${pr} failed: HTTP ${r.status}`);
    const list = r.json as { id?: number; body?: string }[];
    found = list.find((c) => typeof c.body === 'string' && c.body.includes(COMMENT_MARKER) && typeof c.id === 'number')?.id;
    if (list.length < 100) break;
  }
  if (found !== undefined) {
    const r = await api(env, 'PATCH', `/repos/${repo}/issues/comments/${found}`, { body });
    if (r.status !== 200) throw new Error(`updating comment ${found} failed: HTTP ${r.status}`);
    return { id: found, updated: true };
  }
  const r = await api(env, 'POST', `/repos/${repo}/issues/${pr}/comments`, { body });
  const id = (r.json as { id?: unknown } | undefined)?.id;
  if (r.status !== 201 || typeof id !== 'number') throw new Error(`posting the comment on #${pr} failed: HTTP ${r.status}`);
  return { id, updated: false };
}

/** whether `rev` names a commit this clone has */
function hasCommit(cwd: string, rev: string): boolean {
  return nodeGitRunner(cwd).run(['cat-file', '-e', `${rev}^{commit}`]).ok;
}

/**
 * The base to compare with: the merge base of the pull request's base and head. A shallow checkout
 * (actions/checkout's default depth 1) has neither: the steps fetch the base commit and deepen the
 * history until the merge base is there (or use the base commit itself, said so in the log).
 */
export function resolveBase(cwd: string, baseSha: string, headSha: string, log: ActionLog, depth = 50): string {
  const git = nodeGitRunner(cwd);
  const line = (args: string[]) => {
    const r = git.run(args, undefined, 1024 * 1024);
    return r.ok ? Buffer.from(r.stdout).toString('utf8').trim() : undefined;
  };
  if (!hasCommit(cwd, baseSha)) {
    log.info(`fetching the base ${baseSha} (depth ${depth})`);
    const f = git.run(['fetch', '--no-tags', '--quiet', `--depth=${depth}`, 'origin', baseSha]);
    if (!f.ok) log.annotate('warning', `git fetch of the base ${baseSha} failed: ${f.message}`);
  }
  let mb = line(['merge-base', baseSha, headSha]);
  for (let i = 0; !mb && i < 3 && line(['rev-parse', '--is-shallow-repository']) === 'true'; i++) {
    log.info(`deepening the history by ${depth} to find the merge base`);
    if (!git.run(['fetch', '--no-tags', '--quiet', `--deepen=${depth}`, 'origin', baseSha, headSha]).ok) break;
    mb = line(['merge-base', baseSha, headSha]);
  }
  if (mb) return mb;
  log.annotate('notice', `no merge base of ${baseSha.slice(0, 12)} and ${headSha.slice(0, 12)} in the fetched history: comparing with the base commit itself`);
  return baseSha;
}

/** every step; the exit code (0 fine, 1 a budget exceeded, 2 could not compare) */
export async function runAction(env: Env, log: ActionLog = consoleLog): Promise<number> {
  const workspace = env.GITHUB_WORKSPACE || process.cwd();
  const cwd = path.resolve(workspace, input(env, 'working-directory') ?? '.');
  let event: PullRequestEvent = {};
  try {
    if (env.GITHUB_EVENT_PATH) event = JSON.parse(fs.readFileSync(env.GITHUB_EVENT_PATH, 'utf8')) as PullRequestEvent;
  } catch (e) {
    log.annotate('error', `cannot read the event file ${env.GITHUB_EVENT_PATH}: ${(e as Error).message}`);
    return 2;
  }
  const pr = event.pull_request;
  const number = pr?.number ?? event.number;
  const baseSha = input(env, 'base') ?? pr?.base?.sha;
  const headSha = input(env, 'head') ?? pr?.head?.sha ?? env.GITHUB_SHA;
  if (!baseSha || !headSha) {
    log.annotate('error', 'no base to compare with: run on pull_request events, or give the base (and head) inputs');
    return 2;
  }
  if (!hasCommit(cwd, headSha)) {
    const f = nodeGitRunner(cwd).run(['fetch', '--no-tags', '--quiet', '--depth=1', 'origin', headSha]);
    if (!f.ok) log.annotate('warning', `git fetch of the head ${headSha} failed: ${f.message}`);
  }
  const base = resolveBase(cwd, baseSha, headSha, log);

  const argv = ['--cwd', cwd, '--format', 'text'];
  const budget = input(env, 'budget');
  if (budget) argv.push('--budget', budget);
  const growth = input(env, 'fail-on-growth');
  if (growth) argv.push('--fail-on-growth', growth);
  const version = input(env, 'claude-version');
  if (version) argv.push('--claude-version', version);
  if (input(env, 'secrets') === 'false') argv.push('--no-secrets');
  if (input(env, 'allow-renames') === 'true') argv.push('--allow-renames');
  if (input(env, 'allow-submodules') === 'true') argv.push('--allow-submodules');
  const home = input(env, 'home');
  if (home) argv.push('--home', home);
  argv.push(base, headSha);
  let r;
  try {
    r = await diffCommand(argv, makeStyle(false));
  } catch (e) {
    log.annotate('error', `claude-layers diff: ${(e as Error).message.split('\n')[0]}`);
    return 2;
  }
  if (r.exitCode === 2 || r.markdown === undefined) {
    const lines = r.details.trim().split('\n');
    for (const l of lines) log.annotate('error', l);
    // the job summary says why as well (the annotations are easy to miss on a pull request)
    if (env.GITHUB_STEP_SUMMARY) fs.appendFileSync(env.GITHUB_STEP_SUMMARY, `**Claude Context Layers could not compare this change.**\n\n${lines.map((l) => `- ${md(l)}`).join('\n')}\n`);
    return 2;
  }
  log.info(r.output.trimEnd());

  const sarifPath = input(env, 'sarif') ?? 'claude-layers.sarif';
  if (sarifPath !== 'false') {
    const out = path.resolve(workspace, sarifPath);
    fs.writeFileSync(out, r.sarif ?? '');
    log.info(`SARIF of the findings the change adds: ${out}`);
    if (env.GITHUB_OUTPUT) fs.appendFileSync(env.GITHUB_OUTPUT, `sarif=${out}\n`);
  }
  if (env.GITHUB_STEP_SUMMARY) fs.appendFileSync(env.GITHUB_STEP_SUMMARY, r.markdown);

  if (input(env, 'comment') !== 'false') {
    const repo = env.GITHUB_REPOSITORY;
    if (!repo || !/^[\w.-]+\/[\w.-]+$/.test(repo) || typeof number !== 'number') log.annotate('warning', 'not a pull request (or no GITHUB_REPOSITORY): no comment posted');
    else
      try {
        const c = await stickyComment(env, repo, number, r.markdown);
        log.info(`${c.updated ? 'updated' : 'posted'} the comment ${c.id} on #${number}`);
      } catch (e) {
        // a pull request from a fork gets a read-only token: the gate still decides
        log.annotate('warning', `${(e as Error).message} (a pull request from a fork has a read-only token; the job summary has the report)`);
      }
  }
  for (const m of r.budgetMessages) log.annotate('error', `budget: ${m}`);
  return r.exitCode;
}
