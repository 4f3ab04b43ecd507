// Runs one scenario on one claude version: materialises the tree in a fresh temp folder, starts the
// loopback mock, runs the engine CLI (when built) and then the real binary in the same wrapper
// (inside `unshare -m` with /etc/claude-code bind-mounted for managed scenarios; under setpriv for
// runAs scenarios), and extracts the instruction text from the last main-loop request.
//
// The engine runs FIRST, on the pristine tree: claude's Edit/Write touches and its own state files
// (~/.claude.json, ~/.claude/projects/…) would otherwise be visible to it.
import { execFileSync } from 'node:child_process';
import { run } from '../../src/ground-truth/process.js';
import fs from 'node:fs';
import path from 'node:path';
import { MockApi, type RecordedRequest, type Step } from '../../src/ground-truth/mock-api.js';
import { extract, lastMainLoopBody, type Extracted } from '../../src/engine/transcript/wire.js';
import { copyBuiltCli } from '../helpers/built-cli.js';
import { engineVersion, type ClaudeVersion, type EngineTool, type Scenario, type Touch, type Tree } from './scenario.js';

export const REPO_DIR = path.resolve(__dirname, '../..');
export const ENGINE_CLI = path.join(REPO_DIR, 'dist/cli.js');
export const CACHE_DIR = process.env.CLAUDE_LAYERS_CACHE || path.join(process.env.HOME || '/root', '.cache/claude-context-layers');
export const CLAUDE_TIMEOUT_S = 60;
const NOBODY = 65534;
const MANAGED_DIR = '/etc/claude-code';

export function claudeBin(version: ClaudeVersion): string {
  return path.join(CACHE_DIR, 'bin', version, 'node_modules/@anthropic-ai/claude-code-linux-x64/claude');
}

export interface EngineEntry {
  path: string;
  type: string;
  text: string;
}
export interface EngineOutput {
  claudeVersion: string;
  instructions: { text: string; entries: EngineEntry[] } | null;
  skills?: unknown;
  touches: { tool: string; path: string; injected: { path: string; text: string }[] }[];
  diagnostics?: unknown[];
}

export interface ProcResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOutcome {
  scenario: Scenario;
  version: ClaudeVersion;
  root: string;
  work: string;
  /** Absolute engine touch list, in scenario order, with the scenario touch index. */
  engineTouches: { index: number; tool: EngineTool; path: string }[];
  requests: RecordedRequest[];
  extracted: Extracted | null;
  claude: ProcResult;
  /** null: engine not run (dist/cli.js missing or disabled). */
  engine: (ProcResult & { json: EngineOutput | null; parseError?: string }) | null;
  script: string;
  durationMs: number;
  /** Removes the temp tree and the work folder. */
  cleanup(): void;
}

// ---------------------------------------------------------------- helpers

export function shq(s: string): string {
  return /^[A-Za-z0-9_\/.,:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Auto-memory folder key of an absolute path (short form of spec instructions §2.5). */
export function slug(abs: string): string {
  return abs.replace(/[^A-Za-z0-9]/g, '-');
}

export function subst(s: string, root: string): string {
  return s
    .replace(/\{SLUG:([^}]*)\}/g, (_m, rel: string) => slug(path.join(root, rel)))
    .replace(/\{ROOT\}/g, root)
    .replace(/\{HOME\}/g, path.join(root, 'home'));
}

export function absPath(p: string, root: string): string {
  const s = subst(p, root);
  return s.startsWith('/') ? s : path.join(root, s);
}

function writeTree(tree: Tree, base: string, root: string): void {
  const modes: [string, number][] = [];
  const links: [string, string][] = [];
  for (const [rel, node] of Object.entries(tree)) {
    const p = path.join(base, subst(rel, root));
    if (typeof node === 'string' || Buffer.isBuffer(node)) {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, typeof node === 'string' ? subst(node, root) : node);
    } else if ('file' in node) {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, typeof node.file === 'string' ? subst(node.file, root) : node.file);
      if (node.mode !== undefined) modes.push([p, node.mode]);
    } else if ('symlink' in node) {
      links.push([p, subst(node.symlink, root)]);
    } else {
      fs.mkdirSync(p, { recursive: true });
      if (node.mode !== undefined) modes.push([p, node.mode]);
    }
  }
  for (const [p, target] of links) {
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.symlinkSync(target, p);
  }
  // modes last, deepest first, so that a chmod 000 directory does not block writing its children
  modes.sort((a, b) => b[0].length - a[0].length);
  for (const [p, m] of modes) fs.chmodSync(p, m);
}

function gitEnv(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'conformance',
    GIT_AUTHOR_EMAIL: 'conformance@example.invalid',
    GIT_COMMITTER_NAME: 'conformance',
    GIT_COMMITTER_EMAIL: 'conformance@example.invalid',
  };
}

/** Creates ROOT/home, the git repos and worktrees, then the files; returns nothing (ROOT exists). */
export function materialise(s: Scenario, root: string): void {
  const home = path.join(root, 'home');
  fs.mkdirSync(home, { recursive: true });
  const env = gitEnv(home);
  const git = (args: string[], cwd: string) => execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, env, stdio: 'pipe' });
  for (const g of s.git ?? []) {
    const d = path.join(root, g);
    fs.mkdirSync(d, { recursive: true });
    git(['init', '-q'], d);
  }
  for (const w of s.worktrees ?? []) {
    const d = path.join(root, w.repo);
    git(['commit', '-q', '--allow-empty', '-m', 'init'], d);
    git(['worktree', 'add', '-q', path.join(root, w.path)], d);
  }
  writeTree(s.files, root, root);
  fs.mkdirSync(path.join(root, s.cwd), { recursive: true });
}

function chownTree(p: string, uid: number): void {
  fs.lchownSync(p, uid, uid);
  const st = fs.lstatSync(p);
  if (st.isDirectory()) for (const e of fs.readdirSync(p)) chownTree(path.join(p, e), uid);
}

function stepFor(t: Touch, root: string): Step {
  switch (t.tool) {
    case 'Read':
      return { tool_use: { name: 'Read', input: { file_path: absPath(t.path, root) } } };
    case 'Edit':
      return {
        tool_use: {
          name: 'Edit',
          input: { file_path: absPath(t.path, root), old_string: t.oldString ?? 'EDIT_ME', new_string: t.newString ?? 'EDITED', replace_all: false },
        },
      };
    case 'Write':
      return { tool_use: { name: 'Write', input: { file_path: absPath(t.path, root), content: t.content ?? 'written by the conformance suite\n' } } };
    case 'Bash': {
      const abs = absPath(t.path, root);
      const command = t.command ? t.command.replace(/\{PATH\}/g, abs) : `cat ${shq(abs)}`;
      return { tool_use: { name: 'Bash', input: { command, description: 'Print a file' } } };
    }
    case 'Glob':
    case 'Grep': {
      const input: Record<string, unknown> = { pattern: t.pattern };
      if (t.path) input.path = absPath(t.path, root);
      return { tool_use: { name: t.tool, input } };
    }
  }
}

export function engineTouches(s: Scenario, root: string): { index: number; tool: EngineTool; path: string }[] {
  const out: { index: number; tool: EngineTool; path: string }[] = [];
  (s.touches ?? []).forEach((t, index) => {
    if (t.tool === 'Glob' || t.tool === 'Grep') return;
    out.push({ index, tool: t.tool, path: absPath(t.path, root) });
  });
  return out;
}

/** The engine CLI argv (after `node`), exactly as the contract says. */
export function engineArgs(s: Scenario, version: ClaudeVersion, root: string, cli = ENGINE_CLI): string[] {
  const a = [cli, 'render', '--cwd', path.join(root, s.cwd), '--home', path.join(root, 'home'), '--claude-version', engineVersion(version)];
  if (s.model) a.push('--model', s.model);
  for (const d of s.addDirs ?? []) a.push('--add-dir', absPath(d, root));
  if (s.settingSources !== undefined) a.push('--setting-sources', s.settingSources);
  for (const [k, v] of Object.entries(s.env ?? {})) a.push('--env', `${k}=${subst(v, root)}`);
  if (s.bare) a.push('--bare');
  for (const t of engineTouches(s, root)) a.push('--touch', `${t.tool}:${t.path}`);
  a.push('--json');
  return a;
}

export function claudeArgs(s: Scenario): string[] {
  const a = ['-p', 'say hi', '--allowedTools', 'Read,Glob,Grep,Edit,Write,Bash'];
  if (s.model) a.push('--model', s.model);
  if (s.settingSources !== undefined) a.push('--setting-sources', s.settingSources);
  if (s.bare) a.push('--bare');
  return a;
}

// /etc/claude-code mount point: created (empty) only if missing, removed when the last managed run
// of ANY conformance process ends (a registry of holders in /tmp, so two suites running at once do not
// pull the mount point from under each other). Never written into.
const REGISTRY = '/tmp/ccl-conf-managed-holders';
const CREATED_MARK = path.join(REGISTRY, 'created');
let holdSeq = 0;
const myHolds = new Set<string>();

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function acquireManagedMountPoint(): string {
  fs.mkdirSync(REGISTRY, { recursive: true });
  const token = path.join(REGISTRY, `${process.pid}.${holdSeq++}`);
  fs.writeFileSync(token, '');
  myHolds.add(token);
  if (!fs.existsSync(MANAGED_DIR)) {
    try {
      fs.mkdirSync(MANAGED_DIR);
      fs.writeFileSync(CREATED_MARK, '');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  return token;
}

function releaseManagedMountPoint(token: string): void {
  myHolds.delete(token);
  fs.rmSync(token, { force: true });
  let names: string[] = [];
  try {
    names = fs.readdirSync(REGISTRY);
  } catch {
    return;
  }
  for (const n of names) {
    const pid = Number(n.split('.')[0]);
    if (n !== 'created' && Number.isInteger(pid) && !pidAlive(pid)) fs.rmSync(path.join(REGISTRY, n), { force: true });
  }
  if (fs.readdirSync(REGISTRY).filter((n) => n !== 'created').length > 0) return;
  if (fs.existsSync(CREATED_MARK)) {
    try {
      fs.rmdirSync(MANAGED_DIR); // only ever an empty mount point we created
    } catch {
      /* not empty or gone: leave it rather than delete anything */
    }
    fs.rmSync(CREATED_MARK, { force: true });
  }
  try {
    fs.rmdirSync(REGISTRY);
  } catch {
    /* another holder appeared */
  }
}
process.on('exit', () => {
  for (const t of [...myHolds]) releaseManagedMountPoint(t);
});
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    for (const t of [...myHolds]) releaseManagedMountPoint(t);
    process.exit(sig === 'SIGINT' ? 130 : 143);
  });
}

function readOr(p: string, d = ''): string {
  try {
    return fs.readFileSync(p, 'utf8');
  } catch {
    return d;
  }
}

export interface RunOptions {
  /** Path of the engine CLI; null = do not run the engine. Default: dist/cli.js when it exists. */
  engineCli?: string | null;
  /** Where the temp folders go (default /tmp). */
  tmpBase?: string;
}

export async function runScenario(s: Scenario, version: ClaudeVersion, opts: RunOptions = {}): Promise<RunOutcome> {
  const t0 = Date.now();
  const tmpBase = opts.tmpBase ?? '/tmp';
  const root = fs.realpathSync(fs.mkdtempSync(path.join(tmpBase, 'ccl-conf-')));
  const work = fs.realpathSync(fs.mkdtempSync(path.join(tmpBase, 'ccl-conf-work-')));
  const cleanup = () => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  };
  const engineCli = opts.engineCli === undefined ? (fs.existsSync(ENGINE_CLI) ? ENGINE_CLI : null) : opts.engineCli;
  const mock = new MockApi([...(s.touches ?? []).map((t) => stepFor(t, root)), { text: 'done' }]);
  let managedToken: string | null = null;
  try {
    fs.chmodSync(root, 0o755);
    fs.chmodSync(work, 0o755);
    materialise(s, root);
    const home = path.join(root, 'home');
    const cwd = path.join(root, s.cwd);
    const tmp = path.join(work, 'tmp');
    fs.mkdirSync(tmp, { mode: 0o1777 });
    fs.chmodSync(tmp, 0o1777);
    let bin = claudeBin(version);
    if (s.managed) {
      const mgd = path.join(work, 'mgd');
      fs.mkdirSync(mgd);
      writeTree(s.managed, mgd, root);
    }
    const port = await mock.start();
    const asNobody = s.runAs === 'nobody';
    if (asNobody) {
      // the cache lives under /root (0700): give nobody a hard link (same inode, mode 0755) in work/
      const link = path.join(work, 'claude');
      try {
        fs.linkSync(bin, link);
      } catch {
        fs.copyFileSync(bin, link);
        fs.chmodSync(link, 0o755);
      }
      bin = link;
      chownTree(root, NOBODY);
      // re-apply the scenario's modes (lchown keeps them, but be explicit for setuid-less trees)
    }
    const user = asNobody ? 'nobody' : 'root';
    const priv = asNobody ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'] : [];
    const scenarioEnv = Object.entries(s.env ?? {}).map(([k, v]) => `${k}=${subst(v, root)}`);
    const claudeEnv = [
      `PATH=${process.env.PATH}`,
      `HOME=${home}`,
      `USER=${user}`,
      `LOGNAME=${user}`,
      'SHELL=/bin/bash',
      `TMPDIR=${tmp}`,
      `ANTHROPIC_BASE_URL=http://127.0.0.1:${port}`,
      'ANTHROPIC_API_KEY=sk-conformance-dummy',
      'DISABLE_TELEMETRY=1',
      'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1',
      ...scenarioEnv,
    ];
    const claudeArgv = [...priv, 'env', '-i', ...claudeEnv, 'timeout', String(CLAUDE_TIMEOUT_S), bin, ...claudeArgs(s)];
    for (const d of s.addDirs ?? []) claudeArgv.push('--add-dir', absPath(d, root));
    const lines = ['#!/bin/bash', `# conformance run: scenario ${s.name}, claude ${version}`, 'set -u'];
    if (s.managed) {
      lines.push(`mount --bind ${shq(path.join(work, 'mgd'))} ${MANAGED_DIR} || exit 97`);
    }
    if (engineCli) {
      // nobody cannot reach a checkout under a private folder (/root, a mkdtemp clone): it runs a copy of
      // the self-contained bundle from the work folder (the launcher, the CLI it starts and the chunks)
      const cli = asNobody ? copyBuiltCli(path.dirname(engineCli), work) : engineCli;
      // hermetic engine: HOME points nowhere, everything comes through its flags
      const engineArgv = [...priv, 'env', '-i', `PATH=${process.env.PATH}`, 'HOME=/nonexistent-conformance-home', `TMPDIR=${tmp}`,
        'timeout', String(CLAUDE_TIMEOUT_S), process.execPath, ...engineArgs(s, version, root, cli)];
      lines.push(`cd ${shq(cwd)} && ${engineArgv.map(shq).join(' ')} >${shq(work + '/engine.stdout')} 2>${shq(work + '/engine.stderr')}`);
      lines.push(`echo $? >${shq(work + '/engine.rc')}`);
    }
    lines.push(`cd ${shq(cwd)} && ${claudeArgv.map(shq).join(' ')} </dev/null >${shq(work + '/claude.stdout')} 2>${shq(work + '/claude.stderr')}`);
    lines.push(`echo $? >${shq(work + '/claude.rc')}`);
    const script = lines.join('\n') + '\n';
    const scriptPath = path.join(work, 'run.sh');
    fs.writeFileSync(scriptPath, script, { mode: 0o755 });
    if (s.managed) managedToken = acquireManagedMountPoint();
    const wrapper = s.managed ? ['unshare', '-m', 'bash', scriptPath] : ['bash', scriptPath];
    const r = await run(wrapper[0]!, wrapper.slice(1), { cwd: process.cwd(), env: { PATH: process.env.PATH ?? '' }, timeoutMs: (CLAUDE_TIMEOUT_S * 2 + 30) * 1000 });
    if (managedToken) {
      releaseManagedMountPoint(managedToken);
      managedToken = null;
    }
    if (r.exitCode === 97) throw new Error(`mounting over ${MANAGED_DIR} failed: ${r.stderr}`);
    const rc = (f: string) => {
      const t = readOr(path.join(work, f)).trim();
      return t === '' ? null : Number(t);
    };
    const claude: ProcResult = { exitCode: rc('claude.rc'), stdout: readOr(path.join(work, 'claude.stdout')), stderr: readOr(path.join(work, 'claude.stderr')) + r.stderr };
    let engine: RunOutcome['engine'] = null;
    if (engineCli) {
      const stdout = readOr(path.join(work, 'engine.stdout'));
      engine = { exitCode: rc('engine.rc'), stdout, stderr: readOr(path.join(work, 'engine.stderr')), json: null };
      try {
        engine.json = JSON.parse(stdout) as EngineOutput;
      } catch (e) {
        engine.parseError = (e as Error).message;
      }
    }
    const body = lastMainLoopBody(mock.requests.filter((q) => q.method === 'POST').map((q) => q.body));
    const extracted = body ? extract(body, version) : null;
    return {
      scenario: s,
      version,
      root,
      work,
      engineTouches: engineTouches(s, root),
      requests: mock.requests,
      extracted,
      claude,
      engine,
      script,
      durationMs: Date.now() - t0,
      cleanup,
    };
  } catch (e) {
    cleanup();
    throw e;
  } finally {
    if (managedToken) releaseManagedMountPoint(managedToken);
    await mock.close();
  }
}

/** Saves everything needed to debug a run into DIR (requests, outputs, script, tree listing). */
/** a Buffer as JSON.stringify hands it to a replacer (after its toJSON) */
function isBufferJson(v: unknown): v is { type: 'Buffer'; data: number[] } {
  return typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'Buffer' && Array.isArray((v as { data?: unknown }).data);
}

export function saveArtifacts(o: RunOutcome, dir: string, extra: Record<string, string> = {}): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'requests'), { recursive: true });
  for (const q of o.requests) {
    const name = `${String(q.index).padStart(3, '0')}-${q.method}-${q.url.replace(/[^a-z0-9]/gi, '_').slice(0, 60)}.json`;
    let body: unknown = q.body;
    try {
      body = JSON.parse(q.body);
    } catch {
      /* keep raw */
    }
    fs.writeFileSync(path.join(dir, 'requests', name), JSON.stringify({ url: q.url, headers: q.headers, body }, null, 1));
  }
  fs.writeFileSync(path.join(dir, 'run.sh'), o.script);
  fs.writeFileSync(path.join(dir, 'claude.stdout'), o.claude.stdout);
  fs.writeFileSync(path.join(dir, 'claude.stderr'), o.claude.stderr);
  fs.writeFileSync(path.join(dir, 'claude.rc'), String(o.claude.exitCode));
  if (o.engine) {
    fs.writeFileSync(path.join(dir, 'engine.stdout'), o.engine.stdout);
    fs.writeFileSync(path.join(dir, 'engine.stderr'), o.engine.stderr);
    fs.writeFileSync(path.join(dir, 'engine.rc'), String(o.engine.exitCode));
  }
  if (o.extracted) {
    fs.writeFileSync(path.join(dir, 'extracted.json'), JSON.stringify(o.extracted, null, 1));
    if (o.extracted.startup !== null) fs.writeFileSync(path.join(dir, 'claude-startup.txt'), o.extracted.startup);
  }
  if (o.engine?.json?.instructions) fs.writeFileSync(path.join(dir, 'engine-startup.txt'), o.engine.json.instructions.text);
  fs.writeFileSync(path.join(dir, 'tree.txt'), listTree(o.root) + '\n# work\n' + listTree(o.work));
  fs.writeFileSync(path.join(dir, 'scenario.json'), JSON.stringify(o.scenario, (_k, v: unknown) => (isBufferJson(v) ? `<Buffer ${v.data.length} bytes>` : v), 1));
  for (const [k, v] of Object.entries(extra)) fs.writeFileSync(path.join(dir, k), v);
}

export function listTree(dir: string): string {
  const out: string[] = [];
  const walk = (p: string, rel: string) => {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(p);
    } catch {
      return;
    }
    const mode = (st.mode & 0o7777).toString(8).padStart(4, '0');
    if (st.isSymbolicLink()) out.push(`${mode} l ${rel} -> ${fs.readlinkSync(p)}`);
    else if (st.isDirectory()) {
      out.push(`${mode} d ${rel}/`);
      if (rel.endsWith('/.git') || rel === '.git') return;
      let names: string[] = [];
      try {
        names = fs.readdirSync(p);
      } catch {
        return;
      }
      for (const n of names) walk(path.join(p, n), rel ? `${rel}/${n}` : n);
    } else out.push(`${mode} f ${rel} (${st.size} bytes)`);
  };
  walk(dir, '');
  return out.join('\n');
}
