// What an API request cost: its usage priced by the model's list price from the profile table
// (`profile.models.prices`), or by Claude Code's `modelPricing` setting where the user's organisation set one.
//
// `modelPricing` as the binary defines it (2.1.328 on; read from the 2.1.333 binary's settings schema):
// `{ "multiplier"?: (0, 10], "overrides"?: { MODEL_ID: { "input", "output", "cacheRead", "cacheWrite" } } }`, USD per
// million tokens, `cacheWrite` for both the 5-minute and the 1-hour writes; a built-in model id covers every dated and
// provider spelling of it, any other key matches that id only (case-insensitive) and wins; the multiplier scales every
// cost. Honoured only from managed settings (or a host application that manages the provider).
import type { ClaudeProfile, ModelPrice } from '../profiles.js';
import type { Settings } from '../settings.js';
import { canonicalModel, inFamily } from '../skills/models.js';
import { num, obj } from './records.js';

/** the usage of one request, with the cache write split by life where the answer recorded it */
export interface PricedUsage {
  input: number;
  cacheRead: number;
  cacheCreation: number;
  output: number;
  /** `usage.cache_creation.ephemeral_5m_input_tokens` / `…_1h_…`; null when the answer did not split them */
  cacheWrite5m: number | null;
  cacheWrite1h: number | null;
}

interface Rates {
  input: number;
  output: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  cacheRead: number;
}

/** `modelPricing` from managed settings, checked as the binary checks it (a bad row is left out) */
export interface PricingOverride {
  multiplier: number;
  /** lower-case model id → rates */
  rows: Map<string, Rates>;
}

const rate = (v: unknown): number | undefined => {
  const n = num(v);
  return n !== undefined && n >= 0 && n <= 10_000 ? n : undefined;
};

/** the managed `modelPricing` (policy layer only: Claude Code ignores it in user, project, local and --settings) */
export function pricingOverride(settings: Settings | undefined): PricingOverride | undefined {
  const layer = settings?.layers.find((l) => l.name === 'policy');
  const mp = obj(layer?.data.modelPricing);
  if (!mp) return undefined;
  const m = num(mp.multiplier);
  const rows = new Map<string, Rates>();
  for (const [k, v] of Object.entries(obj(mp.overrides) ?? {})) {
    const r = obj(v);
    const input = rate(r?.input);
    const output = rate(r?.output);
    const cacheRead = rate(r?.cacheRead);
    const cacheWrite = rate(r?.cacheWrite);
    if (input === undefined || output === undefined || cacheRead === undefined || cacheWrite === undefined || k === '__proto__' || k === 'constructor') continue;
    rows.set(k.toLowerCase(), { input, output, cacheRead, cacheWrite5m: cacheWrite, cacheWrite1h: cacheWrite });
  }
  return { multiplier: m !== undefined && m > 0 && m <= 10 ? m : 1, rows };
}

/** the list price of a model id (any dated, Bedrock or Vertex spelling, `[1m]` or not), or undefined */
export function listPrice(model: string, profile: ClaudeProfile): ModelPrice | undefined {
  const c = canonicalModel(model);
  let best: ModelPrice | undefined;
  for (const p of profile.models.prices) if (inFamily(c, p.family) && (!best || p.family.length > best.family.length)) best = p;
  return best;
}

export interface Price {
  rates: (promptTokens: number) => Rates;
  multiplier: number;
  from: 'list' | 'modelPricing';
}

/** the price a request of `model` is charged at, or undefined when neither the table nor the override knows it */
export function priceOf(model: string | undefined, profile: ClaudeProfile, override?: PricingOverride): Price | undefined {
  if (!model) return undefined;
  const multiplier = override?.multiplier ?? 1;
  const exact = override?.rows.get(model.toLowerCase()) ?? override?.rows.get(model.toLowerCase().replace(/\[1m\]$/, ''));
  if (exact) return { rates: () => exact, multiplier, from: 'modelPricing' };
  const c = canonicalModel(model);
  if (override) for (const [k, r] of override.rows) if (canonicalModel(k) === c) return { rates: () => r, multiplier, from: 'modelPricing' };
  const p = listPrice(model, profile);
  if (!p) return undefined;
  return { rates: (prompt) => (p.longPrompt && prompt > p.longPrompt.above ? p.longPrompt : p), multiplier, from: 'list' };
}

/** USD of one request's usage at a price (cache writes without a recorded split at the 5-minute rate) */
export function costOf(u: PricedUsage, price: Price): number {
  const r = price.rates(u.input + u.cacheRead + u.cacheCreation);
  const w1h = u.cacheWrite1h ?? 0;
  const w5m = Math.max(0, u.cacheCreation - w1h);
  return ((u.input * r.input + u.output * r.output + u.cacheRead * r.cacheRead + w5m * r.cacheWrite5m + w1h * r.cacheWrite1h) / 1_000_000) * price.multiplier;
}

/** costs summed, null once one of them is (a request whose model has no price) */
export function sumCosts(costs: Iterable<number | null>): number | null {
  let sum = 0;
  for (const c of costs) {
    if (c === null) return null;
    sum += c;
  }
  return sum;
}
