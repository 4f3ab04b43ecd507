// `claude-layers diff [BASE] [HEAD]`: what a change does to Claude Code's context, from git (no
// checkout: a commit is read through git's object store), with the budget gate. Exit 0 fine, 1 a
// budget exceeded, 2 a usage error or a repository the diff cannot compare (one line saying why).
import { mergeBudgets, parseBudgetFlag, parsePercent, runDiff, type GitRunner } from '../engine/index.js';
import { has, one, parseArgs, UsageError } from './args.js';
import { DIFF_FORMATS, formatDiffJson, formatDiffMarkdown, formatDiffSarif, formatDiffText, type DiffFormat } from './diff-format.js';
import { ENGINE_FLAGS, engineOptions } from './engine-options.js';
import { nodeGitRunner } from './git-runner.js';
import { checkPathFlags } from './path-flags.js';
import type { Style } from './style.js';

export const DIFF_FLAGS = { ...ENGINE_FLAGS, format: { value: true }, budget: { value: true }, 'fail-on-growth': { value: true }, 'no-secrets': {}, 'allow-renames': {}, 'allow-submodules': {} };

/** the whole run's limit (ms): both sides' lint */
const RUN_BUDGET_MS = 60_000;

export interface DiffCommandResult {
  output: string;
  exitCode: number;
  /** stderr: the reason for exit 2, the budget messages */
  details: string;
  /** the other formats, for the action (which writes a comment and a SARIF file from one run) */
  markdown?: string;
  sarif?: string;
  /** each budget exceeded, one line */
  budgetMessages: string[];
}

export async function diffCommand(argv: string[], style: Style, git?: GitRunner): Promise<DiffCommandResult> {
  const p = parseArgs(argv, DIFF_FLAGS);
  if (p.positionals.length > 2) throw new UsageError(`diff takes at most two revisions (BASE HEAD), got ${p.positionals.length}`);
  const format = (one(p, 'format') ?? 'text') as DiffFormat;
  if (!DIFF_FORMATS.includes(format)) throw new UsageError(`--format takes ${DIFF_FORMATS.join(', ')}, got ${JSON.stringify(format)}`);
  const flagBudget = one(p, 'budget');
  const parsedBudget = flagBudget === undefined ? undefined : parseBudgetFlag(flagBudget);
  if (typeof parsedBudget === 'string') throw new UsageError(parsedBudget);
  const growthFlag = one(p, 'fail-on-growth');
  const growth = growthFlag === undefined ? undefined : parsePercent(growthFlag);
  if (typeof growth === 'string') throw new UsageError(`--fail-on-growth: ${growth}`);
  checkPathFlags(p);
  const options = engineOptions(p);
  const [base, head] = p.positionals;
  const started = Date.now();
  const result = await runDiff(git ?? nodeGitRunner(options.cwd), {
    options,
    base,
    head,
    secrets: !has(p, 'no-secrets'),
    allow: { renames: has(p, 'allow-renames'), submodules: has(p, 'allow-submodules') },
    budgets: (file) => mergeBudgets(file, parsedBudget, growth),
    deadline: { at: started + RUN_BUDGET_MS, now: Date.now },
  });
  if (!result.ok) return { output: '', exitCode: 2, details: `claude-layers diff: ${result.message.split('\n').join('\nclaude-layers diff: ')}\n`, budgetMessages: [] };
  const exitCode = result.violations.length ? 1 : 0;
  const view = { report: result.report, violations: result.violations, exitCode, cwd: result.after.analysis.env.cwd, home: result.after.analysis.env.home };
  const output = format === 'json' ? formatDiffJson(view) : format === 'markdown' ? formatDiffMarkdown(view) : format === 'sarif' ? formatDiffSarif(view) : formatDiffText(view, style);
  const details = format === 'text' ? '' : result.violations.map((v) => `claude-layers diff: budget: ${v.message}\n`).join('');
  return { output, exitCode, details, markdown: formatDiffMarkdown(view), sarif: formatDiffSarif(view), budgetMessages: result.violations.map((v) => v.message) };
}
