// Runner for the memory and skills conformance scenarios (issue 3). It reuses the suite's tree
// materialisation, mock API and extraction, and adds what those scenarios need beyond the shared
// format: `--settings` (flag settings), `--plugin-dir`, the skills listing (found in messages[1]
// role system, or in a `<system-reminder>` part of the first user message for legacy models), and
// the AutoMem entry.
import { run } from '../../../src/ground-truth/process.js';
import fs from 'node:fs';
import path from 'node:path';
import { absPath, claudeBin, ENGINE_CLI, materialise, shq, subst } from '../capture.js';
import { extract, lastMainLoopBody, type Extracted } from '../../../src/engine/transcript/wire.js';
import { MockApi } from '../../../src/ground-truth/mock-api.js';
import { engineVersion, type ClaudeVersion, type Scenario } from '../scenario.js';

export interface MSScenario extends Scenario {
  /** `--settings` (flag settings), given to both as a JSON file */
  flagSettings?: Record<string, unknown>;
  /** `--plugin-dir` folders (claude only; the engine gets them as --plugin-dir when it supports them) */
  pluginDirs?: string[];
  /** what to compare: the skills listing, the memory entry, or both (default both) */
  check?: { skills?: boolean; memory?: boolean };
  /** MEMORY.md (and topic files) to put in the default memory folder of `memoryRoot` (ROOT-relative
   *  project root whose real path makes the key; default: the git root of cwd, else cwd) */
  memory?: Record<string, string | Buffer>;
  memoryRoot?: string;
  /** ~/.claude.json contents (written before the run; `{NOW}` in strings is replaced by Date.now()) */
  globalConfig?: Record<string, unknown>;
  /** skills the listing must show by name only, and why (render --json's `demoted` and `reason`); every other
   *  entry must not be demoted */
  demotions?: Record<string, 'budget' | 'override'>;
  /** reads the scenario ran with (touch the files in this order; skills lazy layers are checked) */
  lazyReads?: string[];
  /** checks of the binary's own output, guarding the fixture (placeholders {ROOT} and {HOME} allowed) */
  guard?: Guard;
  guardByVersion?: Partial<Record<ClaudeVersion, Guard>>;
}

export interface Guard {
  /** substrings of the startup instructions text */
  startup?: string[];
  noStartup?: string[];
  /** substrings of the skills listing */
  listing?: string[];
  noListing?: string[];
  /** the # Memory section is present (true) or absent (false) */
  memorySection?: boolean;
}

/** The memory key as the spec gives it (A1), kept apart from the engine's own implementation. */
export function specMemoryKey(root: string): string {
  const s = root.replace(/[^a-zA-Z0-9]/g, '-');
  if (s.length <= 200) return s;
  let h = 0;
  for (let i = 0; i < root.length; i++) h = ((h << 5) - h + root.charCodeAt(i)) | 0;
  return `${s.slice(0, 200)}-${Math.abs(h).toString(36)}`;
}

function gitRootOf(dir: string): string | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, '.git'))) return d;
    if (path.dirname(d) === d) return undefined;
  }
}

export interface EngineSkills {
  text: string;
  entries: { name: string; text: string; demoted: boolean; reason?: 'budget' | 'override'; bundled: boolean }[];
}

export interface EngineJson {
  claudeVersion: string;
  instructions: { text: string; entries: { path: string; type: string; text: string }[] } | null;
  skills: EngineSkills | null;
  touches: { tool: string; path: string; injected: { path: string; text: string }[] }[];
  diagnostics: unknown[];
}

export interface MSOutcome {
  root: string;
  /** the last main-loop request body */
  body: Record<string, unknown> | null;
  extracted: Extracted | null;
  /** the skills listing as sent (header to last entry), null when none */
  listing: string | null;
  /** where the listing was found */
  listingWhere: string;
  /** the AutoMem entry text ("Contents of …MEMORY.md (user's auto-memory…):\n\n…"), null when none */
  memoryEntry: string | null;
  /** the `# Memory` system section, if present */
  memorySection: string | null;
  claude: { code: number | null; stdout: string; stderr: string };
  engine: { code: number | null; stdout: string; stderr: string; json: EngineJson | null } | null;
  cleanup(): void;
}

const HEADER = 'The following skills are available for use with the Skill tool:\n\n';

interface Part {
  type: string;
  text?: string;
}

function textsOf(m: { content?: unknown }): string[] {
  if (typeof m.content === 'string') return [m.content];
  if (!Array.isArray(m.content)) return [];
  return (m.content as Part[]).filter((p) => p.type === 'text' && typeof p.text === 'string').map((p) => p.text!);
}

/** The startup skills listing of a first request: from its header line to its last entry. */
export function extractListing(body: { messages?: { role: string; content?: unknown }[] }): { text: string | null; where: string } {
  const msgs = body.messages ?? [];
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i]!;
    if (m.role === 'assistant') break;
    for (const t of textsOf(m)) {
      const at = t.indexOf(HEADER);
      if (at < 0) continue;
      let rest = t.slice(at);
      if (m.role === 'system') {
        // the listing ends at the first of: "\n\n<total_tokens>…" (235, and 328 on some models), "\n\nToday's date is …" (328)
        const ends = ["\n\nToday's date is ", '\n\n<total_tokens>'];
        let cut = -1;
        for (const e of ends) {
          const k = rest.indexOf(e);
          if (k >= 0 && (cut < 0 || k < cut)) cut = k;
        }
        if (cut >= 0) rest = rest.slice(0, cut);
      } else if (rest.endsWith('\n</system-reminder>')) rest = rest.slice(0, -'\n</system-reminder>'.length);
      return { text: rest, where: `messages[${i}] role ${m.role}` };
    }
  }
  return { text: null, where: 'none' };
}

const AUTOMEM_SUFFIX = " (user's auto-memory, persists across conversations):\n\n";

export function memoryEntryOf(startup: string | null): string | null {
  if (!startup) return null;
  const i = startup.indexOf(AUTOMEM_SUFFIX);
  if (i < 0) return null;
  const start = startup.lastIndexOf('Contents of ', i);
  return startup.slice(start);
}

export function memorySectionOf(body: { system?: unknown }): string | null {
  const sys = body.system;
  const texts = Array.isArray(sys) ? (sys as Part[]).map((p) => p.text ?? '') : typeof sys === 'string' ? [sys] : [];
  for (const t of texts) {
    // `# Memory` (Claude 5 prompts) or `# auto memory` (the longer prompt of older models)
    const m = /\n# (?:Memory|auto memory)\n/.exec(t);
    if (!m) continue;
    const i = m.index;
    const j = t.indexOf('\n# ', i + m[0].length);
    return t.slice(i + 1, j < 0 ? undefined : j + 1);
  }
  return null;
}

const read = (p: string) => {
  try {
    return fs.readFileSync(p, 'utf8');
  } catch {
    return '';
  }
};

export function msEngineArgs(s: MSScenario, version: ClaudeVersion, root: string, settingsFile?: string): string[] {
  const a = [ENGINE_CLI, 'render', '--cwd', path.join(root, s.cwd), '--home', path.join(root, 'home'), '--claude-version', engineVersion(version)];
  if (s.model) a.push('--model', s.model);
  for (const d of s.addDirs ?? []) a.push('--add-dir', absPath(d, root));
  for (const d of s.pluginDirs ?? []) a.push('--plugin-dir', absPath(d, root));
  if (s.settingSources !== undefined) a.push('--setting-sources', s.settingSources);
  for (const [k, v] of Object.entries(s.env ?? {})) a.push('--env', `${k}=${subst(v, root)}`);
  if (s.bare) a.push('--bare');
  if (settingsFile) a.push('--settings', settingsFile);
  for (const t of s.touches ?? []) if (t.tool === 'Read') a.push('--touch', `Read:${absPath(t.path, root)}`);
  a.push('--json');
  return a;
}

export async function runMS(s: MSScenario, version: ClaudeVersion, opts: { engine?: boolean; keep?: boolean } = {}): Promise<MSOutcome> {
  const root = fs.realpathSync(fs.mkdtempSync('/tmp/ccl-ms-'));
  const work = fs.realpathSync(fs.mkdtempSync('/tmp/ccl-ms-work-'));
  const cleanup = () => {
    if (opts.keep) return;
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  };
  const reads = [...(s.touches ?? []).filter((t) => t.tool === 'Read').map((t) => t.path), ...(s.lazyReads ?? [])];
  const steps = [...reads.map((p) => ({ tool_use: { name: 'Read', input: { file_path: absPath(p, root) } } })), { text: 'done' }];
  const mock = new MockApi(steps);
  try {
    materialise(s, root);
    const home = path.join(root, 'home');
    if (s.memory) {
      const base = fs.realpathSync(path.join(root, s.memoryRoot ?? s.cwd));
      let projectRoot = s.memoryRoot ? base : gitRootOf(base) ?? base;
      // a linked worktree's memory is its main repository's
      const dotGit = path.join(projectRoot, '.git');
      if (fs.existsSync(dotGit) && fs.statSync(dotGit).isFile()) {
        const gitdir = /gitdir:\s*(.+)/.exec(fs.readFileSync(dotGit, 'utf8'))?.[1]?.trim();
        if (gitdir) projectRoot = fs.realpathSync(path.resolve(path.resolve(projectRoot, gitdir), fs.readFileSync(path.join(path.resolve(projectRoot, gitdir), 'commondir'), 'utf8').trim(), '..'));
      }
      const dir = path.join(home, '.claude', 'projects', specMemoryKey(projectRoot), 'memory');
      for (const [name, content] of Object.entries(s.memory)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), typeof content === 'string' ? subst(content, root) : content);
      }
    }
    if (s.globalConfig) {
      const now = Date.now();
      const json = JSON.stringify(s.globalConfig, (_k, v: unknown) => (typeof v === 'string' && v.startsWith('{NOW') ? now + Number(/^\{NOW([-+]\d+)?\}$/.exec(v)?.[1] ?? 0) : v));
      fs.writeFileSync(path.join(home, '.claude.json'), json);
    }
    const cwd = path.join(root, s.cwd);
    const tmp = path.join(work, 'tmp');
    fs.mkdirSync(tmp, { mode: 0o1777 });
    let settingsFile: string | undefined;
    if (s.flagSettings) {
      settingsFile = path.join(work, 'flag-settings.json');
      fs.writeFileSync(settingsFile, subst(JSON.stringify(s.flagSettings), root));
    }
    const port = await mock.start();
    const lines = ['#!/bin/bash', 'set -u'];
    const runEngine = opts.engine ?? fs.existsSync(ENGINE_CLI);
    if (runEngine) {
      const argv = ['env', '-i', `PATH=${process.env.PATH}`, 'HOME=/nonexistent-conformance-home', `TMPDIR=${tmp}`, 'timeout', '60', process.execPath, ...msEngineArgs(s, version, root, settingsFile)];
      lines.push(`cd ${shq(cwd)} && ${argv.map(shq).join(' ')} >${shq(work + '/engine.stdout')} 2>${shq(work + '/engine.stderr')}; echo $? >${shq(work + '/engine.rc')}`);
    }
    const env = [
      `PATH=${process.env.PATH}`, `HOME=${home}`, 'USER=root', 'LOGNAME=root', 'SHELL=/bin/bash', `TMPDIR=${tmp}`,
      `ANTHROPIC_BASE_URL=http://127.0.0.1:${port}`, 'ANTHROPIC_API_KEY=sk-conformance-dummy', 'DISABLE_TELEMETRY=1',
      'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1',
      ...Object.entries(s.env ?? {}).map(([k, v]) => `${k}=${subst(v, root)}`),
    ];
    const args = ['-p', 'say hi', '--allowedTools', 'Read,Glob,Grep'];
    if (s.model) args.push('--model', s.model);
    if (s.settingSources !== undefined) args.push('--setting-sources', s.settingSources);
    if (s.bare) args.push('--bare');
    if (settingsFile) args.push('--settings', settingsFile);
    for (const d of s.addDirs ?? []) args.push('--add-dir', absPath(d, root));
    for (const d of s.pluginDirs ?? []) args.push('--plugin-dir', absPath(d, root));
    const argv = ['env', '-i', ...env, 'timeout', '60', claudeBin(version), ...args];
    lines.push(`cd ${shq(cwd)} && ${argv.map(shq).join(' ')} </dev/null >${shq(work + '/claude.stdout')} 2>${shq(work + '/claude.stderr')}; echo $? >${shq(work + '/claude.rc')}`);
    fs.writeFileSync(path.join(work, 'run.sh'), lines.join('\n') + '\n');
    await run('bash', [path.join(work, 'run.sh')], { cwd: process.cwd(), env: { PATH: process.env.PATH ?? '' }, timeoutMs: 150_000 });
    const rc = (f: string) => (read(path.join(work, f)).trim() === '' ? null : Number(read(path.join(work, f)).trim()));
    const body = lastMainLoopBody(mock.requests.filter((q) => q.method === 'POST').map((q) => q.body)) as Record<string, unknown> | null;
    const extracted = body ? extract(body, version) : null;
    const lst = body ? extractListing(body) : { text: null, where: 'no request' };
    let engine: MSOutcome['engine'] = null;
    if (runEngine) {
      const stdout = read(path.join(work, 'engine.stdout'));
      let json: EngineJson | null = null;
      try {
        json = JSON.parse(stdout) as EngineJson;
      } catch {
        /* reported by the caller */
      }
      engine = { code: rc('engine.rc'), stdout, stderr: read(path.join(work, 'engine.stderr')), json };
    }
    return {
      root,
      body,
      extracted,
      listing: lst.text,
      listingWhere: lst.where,
      memoryEntry: memoryEntryOf(extracted?.startup ?? null),
      memorySection: body ? memorySectionOf(body) : null,
      claude: { code: rc('claude.rc'), stdout: read(path.join(work, 'claude.stdout')), stderr: read(path.join(work, 'claude.stderr')) },
      engine,
      cleanup,
    };
  } catch (e) {
    cleanup();
    throw e;
  } finally {
    await mock.close();
  }
}
