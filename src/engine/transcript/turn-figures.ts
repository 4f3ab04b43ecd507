// The figures a recorded session gets on every read, in every version: per turn its API requests, usage, cost, cache
// state and hooks (usage.ts, attachment-layers.ts); for the session its cost, its MCP servers, listings and, where the
// version records no request, the derived breakdown. One function for the CLI and the editor.
import type { ClaudeProfile } from '../profiles.js';
import { modelFacts } from '../skills/models.js';
import { derivedBreakdown, hookRuns, sessionListings, type DerivedBreakdown, type SessionListings } from './attachment-layers.js';
import type { PricingOverride } from './pricing.js';
import type { Replay } from './replay.js';
import { accountSession, type SessionAccounting } from './usage.js';

export interface SessionFigures {
  /** USD of every priced request; null when none could be priced */
  cost: number | null;
  /** models whose requests have no price (left out of `cost`) */
  unpriced: string[];
  pricing: SessionAccounting['pricing'];
  cacheLife: SessionAccounting['cacheLife'];
  /** the largest context a request reported (compactions' preTokens included) */
  maxContext: number;
  /** preTokens of the compactions Claude Code made on its own */
  autoCompactions: number[];
  listings: SessionListings;
  /** a version that records no request: the context by layer, derived (attachment-layers.ts) */
  breakdown: DerivedBreakdown | null;
}

/** sets each turn's `requests`, `usage`, `cost`, `cache` and `hooks`, and gives the session's figures */
export function applyFigures(r: Replay, profile: ClaudeProfile, override?: PricingOverride): SessionFigures {
  const turns = r.turnLedgers.map((ledger, k) => ({ ledger, resumed: r.turns[k]?.resumed }));
  const acc = accountSession(turns, profile, r.requests, override);
  const autoCompactions: number[] = [];
  let maxContext = acc.maxContext;
  r.turnRecords.forEach((records, k) => {
    const t = r.turns[k];
    if (!t) return;
    const a = acc.turns[k]!;
    // a version that records requests counts them (a compaction's own request included); the others by their answers
    if (r.source !== 'requests' || !t.requests) t.requests = a.requests;
    t.usage = a.usage;
    t.cost = a.cost;
    t.cache = a.cache;
    const leading = k === 0 ? hookRuns(r.leadingRecords) : [];
    t.hooks = [...leading, ...hookRuns(records)].map((h) => ({ event: h.event, command: h.command, chars: h.chars, dropped: h.dropped }));
    for (const b of r.turnLedgers[k]!.boundaries) {
      if (b.preTokens === undefined) continue;
      maxContext = Math.max(maxContext, b.preTokens);
      if (b.trigger === 'auto') autoCompactions.push(b.preTokens);
    }
  });
  let breakdown: DerivedBreakdown | null = null;
  if (r.source !== 'requests') {
    const bpt = r.model ? modelFacts(r.model, profile).bytesPerToken : 4;
    breakdown = derivedBreakdown(r.leadingRecords, r.turnLedgers, 1 / bpt);
  }
  return { cost: acc.cost, unpriced: acc.unpriced, pricing: acc.pricing, cacheLife: acc.cacheLife, maxContext, autoCompactions, listings: sessionListings([r.leadingRecords, ...r.turnRecords], r.requests), breakdown };
}
