// The budget gate of `claude-layers diff`: limits on what the head revision loads, from
// `.claude/context-budget.json` or `--budget`, and a limit on the startup block's growth.
// A limit is in UTF-16 units (a number) or in ≈tokens (a string ending in `t`: "3000t").
import type { DiffReport } from './compare.js';
import type { RevisionFacts } from './revision.js';

export const BUDGET_KEYS = ['startup', 'listing', 'file', 'rule', 'nested', 'import'] as const;
export type BudgetKey = (typeof BUDGET_KEYS)[number];

export interface Limit {
  value: number;
  unit: 'chars' | 'tokens';
  /** where it was set (the budget file or --budget) */
  source?: string;
}

export interface Budgets {
  limits: Partial<Record<BudgetKey, Limit>>;
  /** fail when the startup block grows by more than this many percent */
  failOnGrowth?: number;
  growthSource?: string;
  /** where the budgets came from, for the messages */
  source: string;
}

const WHAT: Record<BudgetKey, string> = {
  startup: 'the startup block as sent',
  listing: 'the skills listing as sent',
  file: 'each file of the startup block',
  rule: 'each conditional rule as injected',
  nested: 'each nested instruction file as injected',
  import: 'each @import of the startup block',
};

export function describeBudgetKey(k: BudgetKey): string {
  return WHAT[k];
}

/** `12000`, `"12000"`, `"3000t"`; a message when it is none of these */
export function parseLimit(v: unknown): Limit | string {
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return { value: Math.floor(v), unit: 'chars' };
  if (typeof v === 'string') {
    const m = /^\s*(\d+(?:_\d{3})*)\s*(t|tok|tokens)?\s*$/i.exec(v);
    if (m) return { value: Number(m[1]!.replace(/_/g, '')), unit: m[2] ? 'tokens' : 'chars' };
  }
  return `a budget is a number of characters (12000) or of tokens ("3000t"), got ${JSON.stringify(v)?.slice(0, 40)}`;
}

/** `N%` or `N` → N; a message otherwise */
export function parsePercent(v: unknown): number | string {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v : '';
  const m = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(s);
  return m ? Number(m[1]) : `a growth limit is a percentage (10%), got ${JSON.stringify(v)?.slice(0, 40)}`;
}

/** The budget file's object: `{ "startup": 12000, "rule": "1000t", "failOnGrowth": "10%" }`; unknown keys are errors. */
export function parseBudgetObject(o: unknown, source: string): Budgets | string {
  if (!o || typeof o !== 'object' || Array.isArray(o)) return `${source}: the budgets are a JSON object`;
  const b: Budgets = { limits: {}, source };
  for (const [k, v] of Object.entries(o as Record<string, unknown>)) {
    if (k === '$schema' || k === 'description') continue;
    if (k === 'failOnGrowth') {
      const p = parsePercent(v);
      if (typeof p === 'string') return `${source}: failOnGrowth: ${p}`;
      b.failOnGrowth = p;
      b.growthSource = source;
      continue;
    }
    if (!(BUDGET_KEYS as readonly string[]).includes(k)) return `${source}: unknown budget ${JSON.stringify(k)} (known: ${BUDGET_KEYS.join(', ')}, failOnGrowth)`;
    const l = parseLimit(v);
    if (typeof l === 'string') return `${source}: ${k}: ${l}`;
    b.limits[k as BudgetKey] = { ...l, source };
  }
  return b;
}

/** `startup=12000,listing=3000t,rule=4000` */
export function parseBudgetFlag(spec: string): Budgets | string {
  const o: Record<string, string> = {};
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const i = part.indexOf('=');
    if (i <= 0) return `--budget takes KEY=LIMIT,… (keys: ${BUDGET_KEYS.join(', ')}), got ${JSON.stringify(part)}`;
    o[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return parseBudgetObject(o, '--budget');
}

export interface BudgetViolation {
  budget: BudgetKey | 'growth';
  /** display path of the file over it ('' for the whole block or listing) */
  path: string;
  actual: number;
  limit: number;
  unit: 'chars' | 'tokens' | 'percent';
  message: string;
}

const n = (x: number) => Math.round(x).toLocaleString('en-US');

/** every limit the head exceeds, and the growth past --fail-on-growth */
export function checkBudgets(b: Budgets, report: DiffReport, head: RevisionFacts): BudgetViolation[] {
  const out: BudgetViolation[] = [];
  const ratio = head.charsPerToken > 0 ? head.charsPerToken : 4;
  const over = (key: BudgetKey, p: string, chars: number) => {
    const l = b.limits[key];
    if (!l) return;
    const actual = l.unit === 'tokens' ? Math.ceil(chars / ratio) : chars;
    if (actual <= l.value) return;
    const unit = l.unit === 'tokens' ? '≈tokens' : 'characters';
    out.push({
      budget: key, path: p, actual, limit: l.value, unit: l.unit,
      message: `${p ? `${p}: ` : ''}${n(actual)} ${unit} is over the ${key} budget of ${n(l.value)} (${WHAT[key]}; ${l.source ?? b.source})`,
    });
  };
  over('startup', '', head.startup);
  over('listing', '', head.listing.sentChars);
  for (const f of head.startupFiles) over('file', f.path, f.chars);
  for (const r of head.rules) over('rule', r.path, r.chars);
  for (const x of head.nested) over('nested', x.path, x.chars);
  for (const i of head.imports) over('import', i.path, i.chars);
  if (b.failOnGrowth !== undefined) {
    const { before, after } = report.startup;
    const growth = before > 0 ? ((after - before) / before) * 100 : after > 0 ? Infinity : 0;
    if (growth > b.failOnGrowth) {
      const grownMost = [...report.startup.files].sort((x, y) => y.afterChars - y.beforeChars - (x.afterChars - x.beforeChars))[0];
      out.push({
        budget: 'growth', path: grownMost?.path ?? '', actual: growth, limit: b.failOnGrowth, unit: 'percent',
        message: `the startup block grows by ${Number.isFinite(growth) ? `${growth.toFixed(1)} %` : 'its whole size'} (${n(before)} → ${n(after)} characters), over the limit of ${b.failOnGrowth} %${grownMost ? `; most from ${grownMost.path} (${grownMost.change}, ${n(grownMost.beforeChars)} → ${n(grownMost.afterChars)})` : ''} (${b.growthSource ?? b.source})`,
      });
    }
  }
  return out;
}

/** budgets from the file and from the flags: the flags win key by key */
export function mergeBudgets(file: Budgets | undefined, flag: Budgets | undefined, growth: number | undefined): Budgets | undefined {
  if (!file && !flag && growth === undefined) return undefined;
  const sources = [file?.source, flag?.source, growth !== undefined ? '--fail-on-growth' : undefined].filter(Boolean).join(' + ');
  const growthSource = growth !== undefined ? '--fail-on-growth' : flag?.failOnGrowth !== undefined ? flag.growthSource : file?.growthSource;
  return { limits: { ...file?.limits, ...flag?.limits }, failOnGrowth: growth ?? flag?.failOnGrowth ?? file?.failOnGrowth, growthSource, source: sources };
}
