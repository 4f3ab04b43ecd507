// `explain --advice`: each always-loaded text with its price, over the last sessions of this project
// (their transcripts, read locally). Dollars only with --prices (input, cache write, cache read in
// dollars per million tokens); without it, tokens and session counts.
import * as path from 'node:path';
import { decodeUtf8, displayPath, pricedAdvice, recentSessions, type AdviceItem, type Analysis, type ModelPrices } from '../engine/index.js';
import { has, one, UsageError, type FlagSpec, type ParsedArgs } from './args.js';
import { safe, type Style } from './style.js';

export const ADVICE_FLAGS: Record<string, FlagSpec> = { advice: {}, sessions: { value: true }, prices: { value: true } };

export function parsePrices(s: string): ModelPrices {
  const parts = s.split(',').map((x) => Number(x.trim()));
  if (parts.length !== 3 || parts.some((x) => !Number.isFinite(x) || x < 0)) throw new UsageError(`--prices takes INPUT,CACHE_WRITE,CACHE_READ in dollars per million tokens (e.g. 3,3.75,0.3), got ${JSON.stringify(s)}`);
  return { input: parts[0]!, cacheWrite: parts[1]!, cacheRead: parts[2]! };
}

/** the MCP servers of the project's .mcp.json */
function mcpServers(a: Analysis): string[] {
  const r = a.env.fs.readFile(path.join(a.env.cwd, '.mcp.json'), 1024 * 1024);
  if (!r.ok) return [];
  try {
    const servers = (JSON.parse(decodeUtf8(r.value)) as { mcpServers?: unknown }).mcpServers;
    return servers && typeof servers === 'object' && !Array.isArray(servers) ? Object.keys(servers) : [];
  } catch {
    return [];
  }
}

export interface AdviceOut {
  items: AdviceItem[];
  sessions: number;
  prices?: ModelPrices;
}

export function adviceFor(p: ParsedArgs, a: Analysis): AdviceOut | undefined {
  if (!has(p, 'advice')) {
    if (has(p, 'sessions') || has(p, 'prices')) throw new UsageError('--sessions and --prices go with --advice');
    return undefined;
  }
  const nStr = one(p, 'sessions') ?? '30';
  const n = Number(nStr);
  if (!Number.isInteger(n) || n < 0 || n > 10_000) throw new UsageError(`--sessions takes a number of sessions (0 to 10,000), got ${JSON.stringify(nStr)}`);
  const prices = one(p, 'prices') === undefined ? undefined : parsePrices(one(p, 'prices')!);
  const sessions = n ? recentSessions(a.env.fs, a.env.cwd, a.env.home, a.env.env, n) : [];
  return { items: pricedAdvice(a, sessions, prices, mcpServers(a)), sessions: sessions.length, ...(prices && { prices }) };
}

export function renderAdvice(o: AdviceOut, a: Analysis, st: Style): string {
  const out = [st.bold('advice, priced')];
  out.push(
    st.dim(
      o.sessions
        ? `over the last ${o.sessions} session${o.sessions === 1 ? '' : 's'} of this project (its transcripts, read here)`
        : 'no transcripts of this project: tokens only',
    ),
  );
  out.push(st.dim(o.prices ? `prices assumed: $${o.prices.input}/MTok input, $${o.prices.cacheWrite} cache write, $${o.prices.cacheRead} cache read (--prices)` : 'no prices given (--prices INPUT,CACHE_WRITE,CACHE_READ in $/MTok): no dollars'));
  for (const i of o.items) out.push(`  ${safe(displayPath(i.path, a.env.cwd, a.env.home))}: ${safe(i.message)}`);
  return out.join('\n') + '\n';
}
