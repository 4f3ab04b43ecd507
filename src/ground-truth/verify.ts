// `verify`: run the user's real `claude` once against a loopback stand-in of the Messages API and
// compare what it sends with the engine's prediction, section by section.
//
// The run: `claude -p` in the launch directory, a dummy API key, the child's environment cleared of
// credentials and cloud providers (child-env.ts), `--settings` with hooks off and every credential
// helper emptied, no MCP servers, only Read allowed, and a scripted Read of one file. Nothing is
// forwarded anywhere: the stand-in answers on 127.0.0.1 and refuses everything else. Afterwards the
// session transcript of the run is deleted and what else it touched is reported (side-effects.ts).
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { analyze, chooseProfile, versionList, type EngineOptions, type SettingSource } from '../engine/index.js';
import { resolveEnvironment } from '../engine/index.js';
import { childEnv, DUMMY_API_KEY, flagSettings, policyProblems, removedVariables, settingsEnvKeys, settingsFiles } from './child-env.js';
import { unifiedDiff } from './diff.js';
import { extract, lastMainLoopBody, wireFormat, type Extracted } from '../engine/index.js';
import { MockApi, type Step } from './mock-api.js';
import { claudeVersion, NotRunnable, resolveClaude, run } from './process.js';
import { cleanUpAndCompare, snapshot, type SideEffects } from './side-effects.js';
import { transcriptDirs } from './transcript.js';

export const DEFAULT_TIMEOUT_MS = 90_000;
const PROMPT = 'say hi';

export interface VerifyOptions {
  /** the launch directory */
  cwd: string;
  /** the file the scripted Read touches (absolute, or relative to cwd); none: startup only */
  file?: string;
  /** an explicit `claude` (absolute); default: `claude` on PATH */
  claudePath?: string;
  /** predict with this version's profile instead of the detected version's */
  version?: string;
  timeoutMs?: number;
  /** the environment to start from (default process.env); credentials are removed from it */
  env?: Record<string, string | undefined>;
  /** HOME for claude and the engine (default env.HOME) */
  home?: string;
  model?: string;
  addDirs?: string[];
  settingSources?: SettingSource[];
  /** the managed-policy folder the ENGINE reads (claude always reads its own); default the platform's */
  managedDir?: string;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
  /** test seam: alter the prediction before it is compared */
  alterPrediction?: (p: Prediction) => Prediction;
}

export interface Prediction {
  /** the startup section (preamble + entries), null when nothing loads */
  startup: string | null;
  /** the entries the scripted Read injects, in order */
  lazy: string[] | null;
}

export interface Plan {
  claudePath: string;
  version?: string;
  versionOutput: string;
  versionError?: string;
  profile: { version: string; exact: boolean; note?: string; forced: boolean };
  cwd: string;
  file?: string;
  home: string;
  /** the command line, with the stand-in's port as PORT */
  command: string[];
  /** variables removed from the child's environment (names only) */
  removedVariables: string[];
  /** what the run writes, for the confirmation */
  touches: string[];
  /** reasons not to run (a managed policy that --settings cannot override) */
  blockers: string[];
  /** internal: resolved inputs (not enumerable: JSON.stringify leaves them out) */
  readonly inputs: { parentEnv: Record<string, string | undefined>; userDir: string; globalConfigPath: string; memoryDir: string; transcriptDirs: string[]; settingsEnvKeys: string[] };
}

export type SectionStatus = 'equal' | 'differs';

export interface Section {
  id: 'startup' | 'lazy';
  title: string;
  status: SectionStatus;
  predicted: string | null;
  actual: string | null;
  /** unified diff, predicted (---) vs actual (+++); '' when equal */
  diff: string;
  /** entry lists, for lazy sections */
  predictedEntries?: string[];
  actualEntries?: string[];
  notes: string[];
}

export type Verdict = 'match' | 'mismatch' | 'error';

export interface VerifyResult {
  verdict: Verdict;
  /** one line: what happened */
  summary: string;
  plan: Plan;
  sections: Section[];
  run?: {
    exitCode: number | null;
    signal: string | null;
    timedOut: boolean;
    aborted: boolean;
    durationMs: number;
    requests: number;
    /** hosts other than the stand-in that claude tried to reach (refused) */
    otherHosts: string[];
    /** every request carried only the dummy key */
    dummyKeyOnly: boolean;
    stderrTail: string;
  };
  sideEffects?: SideEffects;
  warnings: string[];
  error?: string;
}

function absFile(cwd: string, f: string | undefined): string | undefined {
  if (f === undefined || f === '') return undefined;
  return path.resolve(cwd, f);
}

function claudeArgs(o: { sessionId: string; settings: string; model?: string; settingSources?: SettingSource[]; addDirs?: string[] }): string[] {
  const a = ['-p', PROMPT, '--session-id', o.sessionId, '--settings', o.settings, '--strict-mcp-config', '--mcp-config', '{"mcpServers":{}}', '--allowedTools', 'Read'];
  if (o.model) a.push('--model', o.model);
  if (o.settingSources) a.push('--setting-sources', o.settingSources.join(','));
  for (const d of o.addDirs ?? []) a.push('--add-dir', d);
  return a;
}

/** finds claude, reads its version, chooses the profile and describes the run (nothing is run but `claude --version`) */
export async function planVerify(o: VerifyOptions): Promise<Plan> {
  const parentEnv: Record<string, string | undefined> = { ...(o.env ?? process.env) };
  if (o.home) parentEnv.HOME = o.home;
  const home = parentEnv.HOME ?? os.homedir();
  parentEnv.HOME = home;
  const cwd = path.resolve(o.cwd);
  let st: fs.Stats;
  try {
    st = fs.statSync(cwd);
  } catch {
    throw new NotRunnable(`the launch directory ${cwd} does not exist`);
  }
  if (!st.isDirectory()) throw new NotRunnable(`the launch directory ${cwd} is not a folder`);
  const claudePath = resolveClaude(o.claudePath, parentEnv.PATH ?? '');
  const env0 = childEnv(parentEnv, 0);
  const v = await claudeVersion(claudePath, env0, cwd);
  const requested = o.version ?? v.version;
  const choice = chooseProfile(requested);
  const engineEnv = resolveEnvironment({ cwd, home, env: env0 });
  const a = analyze({ cwd, home, env: env0, claudeVersion: choice.profile.version, managedDir: o.managedDir, addDirs: o.addDirs, settingSources: o.settingSources });
  const memoryDir = a.memory.location.dir;
  const tDirs = transcriptDirs(cwd, engineEnv.userDir);
  const keys = [...settingsEnvKeys(settingsFiles(engineEnv.userDir, cwd))];
  const file = absFile(cwd, o.file);
  const settings = JSON.stringify(flagSettings(0, keys)).split('http://127.0.0.1:0"').join('http://127.0.0.1:PORT"');
  const command = [claudePath, ...claudeArgs({ sessionId: 'SESSION-ID', settings, model: o.model, settingSources: o.settingSources, addDirs: o.addDirs })];
  const blockers = policyProblems(resolveEnvironment({ cwd, home, env: env0 }).managedDir);
  if (v.error && !o.version) blockers.push(v.error);
  const touches = [
    `a session transcript ${path.join(tDirs[0]!, 'SESSION-ID.jsonl')} (deleted after the run)`,
    fs.existsSync(memoryDir) ? `the memory folder ${memoryDir.replace(/[\\/]+$/, '')} (exists; this run does not write to it)` : `the memory folder ${memoryDir.replace(/[\\/]+$/, '')} (Claude Code creates it at startup; removed again if it stays empty)`,
    `${engineEnv.globalConfigPath} (Claude Code updates it on every run: start counters, per-project state)`,
    `${path.join(engineEnv.userDir, 'backups')} (Claude Code may write a backup of ${path.basename(engineEnv.globalConfigPath)})`,
    ...(file ? [`reads ${file} (the scripted Read)`] : []),
  ];
  const plan: Omit<Plan, 'inputs'> = {
    claudePath,
    version: v.version,
    versionOutput: v.output,
    versionError: v.error,
    profile: { version: choice.profile.version, exact: choice.exact, note: choice.note, forced: o.version !== undefined },
    cwd,
    file,
    home,
    command,
    removedVariables: removedVariables(parentEnv),
    touches,
    blockers,
  };
  // the resolved inputs hold the parent environment (secrets included): kept out of JSON and reports
  const inputs: Plan['inputs'] = { parentEnv, userDir: engineEnv.userDir, globalConfigPath: engineEnv.globalConfigPath, memoryDir, transcriptDirs: tDirs, settingsEnvKeys: keys };
  return Object.defineProperty(plan, 'inputs', { value: inputs, enumerable: false }) as Plan;
}

/** the engine's prediction under the run's conditions */
export function predict(plan: Plan, o: VerifyOptions, port: number): Prediction {
  const env = childEnv(plan.inputs.parentEnv, port);
  const options: EngineOptions = {
    cwd: plan.cwd,
    home: plan.home,
    env,
    claudeVersion: plan.profile.version,
    model: o.model ?? env.ANTHROPIC_MODEL,
    addDirs: o.addDirs,
    settingSources: o.settingSources,
    managedDir: o.managedDir,
    flagSettings: flagSettings(port, plan.inputs.settingsEnvKeys),
  };
  const a = analyze(options);
  return { startup: a.startupText ?? null, lazy: plan.file ? a.session().touch('Read', plan.file).map((i) => i.text) : null };
}

function section(id: Section['id'], title: string, predicted: string | null, actual: string | null, notes: string[] = []): Section {
  const status: SectionStatus = predicted === actual ? 'equal' : 'differs';
  return { id, title, status, predicted, actual, diff: status === 'equal' ? '' : unifiedDiff(predicted, actual, { a: `predicted (${title})`, b: `claude (${title})` }), notes };
}

function lazySection(file: string, predicted: string[], actual: string[], notes: string[]): Section {
  const join = (l: string[]) => l.join('\n\n');
  const s = section('lazy', `Read ${file}`, join(predicted), join(actual), notes);
  // the lists decide, not their joined text
  s.status = JSON.stringify(predicted) === JSON.stringify(actual) ? 'equal' : 'differs';
  if (s.status === 'differs' && !s.diff) s.diff = `entries differ: predicted ${predicted.length}, claude ${actual.length}`;
  if (s.status === 'equal') s.diff = '';
  s.predictedEntries = predicted;
  s.actualEntries = actual;
  return s;
}

/** compares a prediction with what was extracted from the run */
export function compare(p: Prediction, x: Extracted, file: string | undefined): Section[] {
  const out: Section[] = [section('startup', 'startup instructions', p.startup, x.startup)];
  if (file) {
    const t = x.touches[0];
    const notes: string[] = [];
    if (!t) notes.push('the scripted Read did not reach claude');
    else if (t.isError) notes.push(`Claude Code's Read failed: ${t.result.split('\n')[0]!.slice(0, 200)}`);
    out.push(lazySection(file, p.lazy ?? [], t?.injected ?? [], notes));
  }
  return out;
}

function tail(s: string, n = 2000): string {
  return s.length > n ? `…${s.slice(-n)}` : s;
}

/** runs a planned verification (after the user agreed) */
export async function runVerify(plan: Plan, o: VerifyOptions): Promise<VerifyResult> {
  const warnings: string[] = [];
  const progress = o.onProgress ?? (() => undefined);
  const fail = (error: string, extra: Partial<VerifyResult> = {}): VerifyResult => ({ verdict: 'error', summary: error, plan, sections: [], warnings, error, ...extra });
  if (plan.blockers.length) return fail(plan.blockers.join('; '));
  if (plan.profile.note) warnings.push(plan.profile.note);
  const steps: Step[] = plan.file ? [{ tool_use: { name: 'Read', input: { file_path: plan.file } } }, { text: 'done' }] : [{ text: 'done' }];
  const mock = new MockApi(steps);
  const sessionId = randomUUID();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'claude-layers-verify-'));
  let sideEffects: SideEffects | undefined;
  try {
    progress('starting the loopback stand-in');
    const port = await mock.start();
    // predict first, on the pristine tree (the run creates the memory folder and state files)
    let prediction = predict(plan, o, port);
    if (o.alterPrediction) prediction = o.alterPrediction(prediction);
    const env = { ...childEnv(plan.inputs.parentEnv, port), TMPDIR: tmp };
    const settings = JSON.stringify(flagSettings(port, plan.inputs.settingsEnvKeys));
    const watch = [...plan.inputs.transcriptDirs, plan.inputs.memoryDir.replace(/[\\/]+$/, ''), path.dirname(plan.inputs.memoryDir.replace(/[\\/]+$/, ''))];
    const before = snapshot(plan.inputs.userDir, plan.inputs.globalConfigPath, watch);
    progress(`running ${path.basename(plan.claudePath)} ${plan.version ?? ''}`.trim());
    const r = await run(plan.claudePath, claudeArgs({ sessionId, settings, model: o.model, settingSources: o.settingSources, addDirs: o.addDirs }), {
      cwd: plan.cwd,
      env,
      timeoutMs: o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      signal: o.signal,
    });
    await mock.close();
    sideEffects = cleanUpAndCompare(before, { userDir: plan.inputs.userDir, sessionId, transcriptDirs: plan.inputs.transcriptDirs, memoryDir: plan.inputs.memoryDir });
    const posts = mock.requests.filter((q) => q.method === 'POST' && q.url.startsWith('/v1/messages'));
    const dummyKeyOnly = posts.every((q) => q.headers['x-api-key'] === DUMMY_API_KEY && q.headers.authorization === undefined);
    if (!dummyKeyOnly) warnings.push('a request reached the stand-in with a credential other than the dummy key (it stayed on this machine and was not recorded)');
    const runInfo = {
      exitCode: r.exitCode,
      signal: r.signal,
      timedOut: r.timedOut,
      aborted: r.aborted,
      durationMs: r.durationMs,
      requests: mock.requests.length,
      otherHosts: mock.otherHosts(),
      dummyKeyOnly,
      stderrTail: tail(r.stderr),
    };
    if (runInfo.otherHosts.length) warnings.push(`claude tried to reach ${runInfo.otherHosts.join(', ')}: refused by the stand-in`);
    if (sideEffects.transcriptsLeft.length) warnings.push(`could not delete ${sideEffects.transcriptsLeft.join(', ')}`);
    if (r.aborted) return fail('cancelled', { run: runInfo, sideEffects });
    if (r.timedOut) return fail(`claude did not finish within ${Math.round((o.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s (its process group was ended)`, { run: runInfo, sideEffects });
    const body = lastMainLoopBody(posts.map((q) => q.body));
    if (!body) return fail(`no request reached the stand-in (claude exited ${r.exitCode ?? r.signal}${r.stderr.trim() ? `: ${r.stderr.trim().split('\n')[0]!.slice(0, 300)}` : ''})`, { run: runInfo, sideEffects });
    progress('comparing');
    // the layout is the binary's (detected version), whatever profile the prediction used
    const layoutVersion = plan.version ?? plan.profile.version;
    let x = extract(body, layoutVersion);
    if (x.startup === null && prediction.startup !== null) {
      const other = wireFormat(layoutVersion) === 'own-reminder' ? 'claude-md-section' : 'own-reminder';
      const y = extract(body, other);
      if (y.startup !== null) {
        warnings.push(`the request lays the instructions out as ${versionList((p) => p.startupPlacement === other)} does, not as the ${plan.profile.version} profile says`);
        x = y;
      }
    }
    for (const w of x.warnings) warnings.push(`extraction: ${w}`);
    const sections = compare(prediction, x, plan.file);
    if (r.exitCode !== 0) warnings.push(`claude exited with ${r.exitCode ?? r.signal}${r.stderr.trim() ? `: ${r.stderr.trim().split('\n')[0]!.slice(0, 300)}` : ''}`);
    const same = sections.every((s) => s.status === 'equal');
    const readFailed = sections.some((s) => s.notes.some((n) => n.startsWith('the scripted Read did not reach')));
    const verdict: Verdict = readFailed ? 'error' : same ? 'match' : 'mismatch';
    const prof = plan.profile.exact ? `profile ${plan.profile.version}` : `the ${plan.profile.version} profile (no profile for ${plan.version ?? 'this version'})`;
    const differing = sections.filter((s) => s.status === 'differs').map((s) => s.title);
    const summary =
      verdict === 'match'
        ? `claude ${plan.version ?? '?'} sent exactly what ${prof} predicts`
        : verdict === 'mismatch'
          ? `claude ${plan.version ?? '?'} differs from ${prof} in ${differing.join(', ')}`
          : 'the scripted Read did not reach claude';
    return { verdict, summary, plan, sections, run: runInfo, sideEffects, warnings, ...(verdict === 'error' && { error: summary }) };
  } catch (e) {
    return fail(e instanceof Error ? e.message : String(e), { sideEffects });
  } finally {
    await mock.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** plan, then run (no confirmation: callers that ask first use planVerify, then runVerify) */
export async function verify(o: VerifyOptions): Promise<VerifyResult> {
  return runVerify(await planVerify(o), o);
}

export { NotRunnable };
