// `explain --advice`: each always-loaded text with its price, over the last sessions of this project
// (their transcripts, read locally). Priced at the sessions' model from the profile's table (or the
// managed `modelPricing`), the assumption printed; `--prices INPUT,CACHE_WRITE,CACHE_READ` (dollars per
// million tokens) replaces the table's price.
import * as path from 'node:path';
import { advicePrice, decodeUtf8, nodeFileAccess, displayPath, priceAssumption, pricedAdvice, recentSessions, type AdviceItem, type AdvicePrice, type Analysis, type ModelPrices } from '../engine/index.js';
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
  /** the price assumed (absent when the model has no price): the model, where it and the price come from, the rates */
  price?: Omit<AdvicePrice, 'price'> & { assumption: string };
}

export function adviceFor(p: ParsedArgs, a: Analysis): AdviceOut | undefined {
  if (!has(p, 'advice')) {
    if (has(p, 'sessions') || has(p, 'prices')) throw new UsageError('--sessions and --prices go with --advice');
    return undefined;
  }
  const nStr = one(p, 'sessions') ?? '30';
  const n = Number(nStr);
  if (!Number.isInteger(n) || n < 0 || n > 10_000) throw new UsageError(`--sessions takes a number of sessions (0 to 10,000), got ${JSON.stringify(nStr)}`);
  const given = one(p, 'prices') === undefined ? undefined : parsePrices(one(p, 'prices')!);
  // transcripts are read from the disk as they are now (not through the analysis' snapshot, which would hold them)
  const sessions = n ? recentSessions(nodeFileAccess, a.env.cwd, a.env.home, a.env.env, n) : [];
  const price = advicePrice(a, sessions, given);
  const shown = price && (({ price: _, ...rest }) => ({ ...rest, assumption: priceAssumption(price) }))(price);
  return { items: pricedAdvice(a, sessions, price, mcpServers(a), nodeFileAccess), sessions: sessions.length, ...(shown && { price: shown }) };
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
  out.push(st.dim(o.price ? safe(o.price.assumption) : 'no price for this model in the profile (--prices INPUT,CACHE_WRITE,CACHE_READ in $/MTok gives one): no dollars'));
  for (const i of o.items) out.push(`  ${safe(displayPath(i.path, a.env.cwd, a.env.home))}: ${safe(i.message)}`);
  return out.join('\n') + '\n';
}
