// `claude-layers lint`: every finding of the analysis and of the workspace checks, in the chosen
// format; the exit code says whether any finding is at or above --fail-on.
import { analyze, type Diagnostic, type Severity } from '../engine/index.js';
import { CRAWL_BUDGET_MS, lintPrepare, lintWorkspace, severityRank } from '../engine/index.js';
import { has, one, parseArgs, UsageError } from './args.js';
import { ENGINE_FLAGS, engineOptions } from './engine-options.js';
import { checkPathFlags } from './path-flags.js';
import { FORMATS, formatGithub, formatJson, formatSarif, formatText, type Format, type LintReport } from './lint-format.js';
import type { Style } from './style.js';
import { TOOL } from './tool.js';

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

/** lint's whole-run limit (ms): past it the checks not yet run are skipped with scan-truncated */
const RUN_BUDGET_MS = 30_000;

export const LINT_FLAGS = { ...ENGINE_FLAGS, format: { value: true }, 'fail-on': { value: true }, 'no-secrets': {}, verbose: {} };

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `--verbose`: the stack of every crashed check, for stderr (control characters escaped) */
export function verboseDetails(diagnostics: readonly Diagnostic[]): string {
  const esc = (s: string) => s.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return diagnostics
    .filter((d) => d.detail)
    .map((d) => `${d.rule} ${esc(d.path || '(workspace)')}: ${esc(d.message)}\n${esc(d.detail!)}\n`)
    .join('\n');
}

export async function lintCommand(argv: string[], style: Style): Promise<{ output: string; exitCode: number; details: string }> {
  const p = parseArgs(argv, LINT_FLAGS);
  if (p.positionals.length) throw new UsageError(`lint takes no positional arguments (got ${JSON.stringify(p.positionals[0])}); use --cwd DIR`);
  const format = (one(p, 'format') ?? 'text') as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format takes ${FORMATS.join(', ')}, got ${JSON.stringify(format)}`);
  const failOn = (one(p, 'fail-on') ?? 'error') as Severity;
  if (!SEVERITIES.includes(failOn)) throw new UsageError(`--fail-on takes ${SEVERITIES.join(', ')}, got ${JSON.stringify(failOn)}`);
  checkPathFlags(p);
  // one crawl of the workspace serves the analysis (as its file access) and the workspace checks
  // the crawl has a time limit (`lint --cwd /` listed every folder of the machine for minutes)
  const started = Date.now();
  // --verbose: how long each phase took (ms), for "why is lint slow here"
  const phases: [string, number][] = [];
  let t0 = performance.now();
  const lap = (name: string) => {
    const t = performance.now();
    phases.push([name, t - t0]);
    t0 = t;
  };
  const { options, index } = lintPrepare(engineOptions(p), undefined, { at: started + CRAWL_BUDGET_MS, now: Date.now });
  lap('index the workspace');
  const a = analyze(options);
  lap('analyze');
  const result = await lintWorkspace(a, { onPhase: (name, ms) => phases.push([name, ms]), secrets: !has(p, 'no-secrets'), index, runDeadline: { at: started + RUN_BUDGET_MS, now: Date.now } });
  const failing = result.diagnostics.some((d) => severityRank(d.severity) <= severityRank(failOn));
  const report: LintReport = {
    tool: TOOL,
    claudeVersion: a.version.shown,
    cwd: a.env.cwd,
    home: a.env.home,
    failOn,
    diagnostics: result.diagnostics,
    filesScanned: result.filesScanned,
    exitCode: failing ? 1 : 0,
  };
  const output =
    format === 'json' ? formatJson(report) : format === 'sarif' ? formatSarif(report) : format === 'github' ? formatGithub(report) : formatText(report, style);
  const timing = `phases (ms): ${phases.map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', ')}\n`;
  return { output, exitCode: report.exitCode, details: has(p, 'verbose') ? verboseDetails(result.diagnostics) + timing : '' };
}
