// One session scenario on one Claude Code version: the tree in a fresh temp folder (every file given its
// own modification time, in the order the scenario lists them), the engine CLI first on the pristine
// tree (`render --session TURNS.json --json`, hermetic), then the real binary through the whole
// session (src/ground-truth/session-driver.ts), and the per-turn extraction of what it sent.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSession, type DriverTurn, type SessionRun } from '../../../src/ground-truth/session-driver.js';
import { extractSession, type ExtractedTurn } from '../../../src/engine/transcript/wire-session.js';
import type { RenderJson } from '../../../src/cli/render-command.js';
import type { SessionJson } from '../../../src/cli/session-command.js';
import { claudeBin, ENGINE_CLI, materialise, subst } from '../capture.js';
import { engineVersion, VERSIONS, type ClaudeVersion, type Tree } from '../scenario.js';

export const SESSION_VERSIONS = VERSIONS;
export type SessionVersion = ClaudeVersion;

export interface SessionScenario {
  name: string;
  description: string;
  files: Tree;
  /** ROOT-relative folders to `git init` (default: the launch folder) */
  git?: string[];
  /** launch folder, ROOT-relative (default `repo`) */
  cwd?: string;
  /** the session; `{ROOT}` in paths and contents */
  turns: DriverTurn[];
  env?: Record<string, string>;
  versions?: SessionVersion[];
  /** checks of the binary's own output (the fixture shows what it claims), given the extracted turns */
  guard?: (turns: ExtractedTurn[], root: string, version: SessionVersion) => string[];
  /** checks of the live read-back (`claude-layers session --json`) beyond the judged keys: what the turn list, its
   *  marks and hooks must show, measured against what the binary sent (the outcome's requests) */
  readBack?: (session: SessionJson['session'], o: SessionOutcome, version: SessionVersion) => string[];
}

export interface SessionOutcome {
  root: string;
  engine: { code: number | null; stdout: string; stderr: string; json: RenderJson | null };
  claude: SessionRun;
  extracted: ExtractedTurn[];
  turns: DriverTurn[];
  cleanup(): void;
}

function substTurns(turns: DriverTurn[], root: string): DriverTurn[] {
  return JSON.parse(subst(JSON.stringify(turns), root)) as DriverTurn[];
}

/** every file of the tree gets its own modification time, one second apart, in the scenario's order */
function stampTree(tree: Tree, root: string): void {
  const base = Math.floor(Date.now() / 1000) - 10 * 60;
  let i = 0;
  for (const rel of Object.keys(tree)) {
    const p = path.join(root, subst(rel, root));
    let st: fs.Stats;
    try {
      st = fs.lstatSync(p);
    } catch {
      continue;
    }
    if (!st.isFile()) continue;
    const t = base + i++;
    fs.utimesSync(p, t, t);
  }
}

export async function runSessionScenario(s: SessionScenario, version: SessionVersion): Promise<SessionOutcome> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-sess-')));
  const cwdRel = s.cwd ?? 'repo';
  materialise({ name: s.name, spec: [], files: s.files, git: s.git ?? [cwdRel], cwd: cwdRel }, root);
  stampTree(s.files, root);
  const home = path.join(root, 'home');
  const cwd = path.join(root, cwdRel);
  const turns = substTurns(s.turns, root);
  const script = path.join(root, 'turns.json');
  fs.writeFileSync(script, JSON.stringify(turns));
  const env = Object.fromEntries(Object.entries(s.env ?? {}).map(([k, v]) => [k, subst(v, root)]));

  // the engine first, on the pristine tree
  const args = [ENGINE_CLI, 'render', '--cwd', cwd, '--home', home, '--claude-version', engineVersion(version), '--session', script, '--json'];
  for (const [k, v] of Object.entries(env)) args.push('--env', `${k}=${v}`);
  let engine: SessionOutcome['engine'];
  try {
    const stdout = execFileSync(process.execPath, args, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    engine = { code: 0, stdout, stderr: '', json: JSON.parse(stdout) as SessionOutcome['engine']['json'] };
  } catch (e) {
    const err = e as { status?: number; stdout?: string; stderr?: string };
    engine = { code: err.status ?? null, stdout: err.stdout ?? '', stderr: err.stderr ?? String(e), json: null };
  }
  const claude = await runSession({ bin: claudeBin(version), cwd, home, turns, env, timeoutMs: 240_000 });
  const extracted = extractSession(claude.requests, turns, version);
  return { root, engine, claude, extracted, turns, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** keeps a failing run's captures for debugging */
export function saveSessionArtifacts(o: SessionOutcome, dir: string, report: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'requests'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'report.txt'), report);
  fs.writeFileSync(path.join(dir, 'turns.json'), JSON.stringify(o.turns, null, 1));
  fs.writeFileSync(path.join(dir, 'extracted.json'), JSON.stringify(o.extracted, null, 1));
  fs.writeFileSync(path.join(dir, 'engine.json'), o.engine.stdout || o.engine.stderr);
  fs.writeFileSync(path.join(dir, 'claude.stderr'), o.claude.stderr);
  for (const r of o.claude.requests) fs.writeFileSync(path.join(dir, 'requests', `${String(r.index).padStart(3, '0')}-${r.kind}-t${r.turn}.json`), r.body);
}
