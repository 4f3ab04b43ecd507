// The figures a recorded session gets on every read, in every version: per turn its API requests, usage, cost, cache
// state and hooks (usage.ts, attachment-layers.ts); for the session its cost, its MCP servers, listings and, where the
// version records no request, the derived breakdown. One function for the CLI and the editor.
import type { ClaudeProfile } from '../profiles.js';
import { modelFacts, thinkingKeptAcrossTurns } from '../skills/models.js';
import { derivedBreakdown, hookRuns, sessionListings, type DerivedBreakdown, type SessionListings } from './attachment-layers.js';
import { sumCosts, type PricingOverride } from './pricing.js';
import type { Replay, TurnAgent } from './replay.js';
import { accountSession, addUsage, zeroUsage, type SessionAccounting, type TurnUsage } from './usage.js';

export interface SessionFigures {
  /** USD of every priced request, the main loop's and its agents'; null when none could be priced */
  cost: number | null;
  /** the subagents' and workflow agents' own transcripts, summed: files read, requests, usage and cost */
  agents: { files: number; requests: number; usage: TurnUsage; cost: number | null };
  /** the main loop's requests (every turn's) and the agents', with their usage summed */
  totals: { requests: number; usage: TurnUsage };
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

/** sets each turn's `requests`, `usage`, `cost`, `cache`, `hooks` and `agents`, and gives the session's figures */
export function applyFigures(r: Replay, profile: ClaudeProfile, override?: PricingOverride): SessionFigures {
  const turns = r.turnLedgers.map((ledger, k) => ({ ledger, resumed: r.turns[k]?.resumed }));
  const acc = accountSession(turns, profile, r.requests, override, r.agents.map((a) => a.ledger));
  const byTurn = new Map<number, TurnAgent[]>();
  // their cost null (as a turn's) once a request of theirs has no price
  const agents: SessionFigures['agents'] = { files: r.agents.length, requests: 0, usage: zeroUsage(), cost: r.agents.length ? sumCosts(acc.agents.map((f) => f.cost)) : null };
  r.agents.forEach((a, i) => {
    const f = acc.agents[i]!;
    agents.requests += f.requests;
    addUsage(agents.usage, f.usage);
    const list = byTurn.get(a.turn) ?? [];
    list.push({ agentId: a.agentId, agentType: a.agentType, workflow: a.workflow, toolUseId: a.toolUseId, transcript: a.file, requests: f.requests, usage: f.usage, cost: f.cost });
    byTurn.set(a.turn, list);
  });
  const totals: SessionFigures['totals'] = { requests: agents.requests, usage: zeroUsage() };
  addUsage(totals.usage, agents.usage);
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
    t.agents = byTurn.get(k) ?? [];
    totals.requests += t.requests;
    addUsage(totals.usage, a.usage);
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
    breakdown = derivedBreakdown(r.leadingRecords, r.turnLedgers, 1 / bpt, thinkingKeptAcrossTurns);
  }
  return { cost: acc.cost, agents, totals, unpriced: acc.unpriced, pricing: acc.pricing, cacheLife: acc.cacheLife, maxContext, autoCompactions, listings: sessionListings([r.leadingRecords, ...r.turnRecords], r.requests), breakdown };
}

/** a turn's agents by the call that started them, and those no call of the turn started (placed by the time they
 *  started: a run no call names), as the CLI and the view list them */
export function agentsByCall(calls: readonly { id: string }[], agents: readonly TurnAgent[] = []): { ofCall: Map<string, TurnAgent[]>; unplaced: TurnAgent[] } {
  const ids = new Set(calls.map((c) => c.id));
  const ofCall = new Map<string, TurnAgent[]>();
  const unplaced: TurnAgent[] = [];
  for (const a of agents) {
    if (a.toolUseId === null || !ids.has(a.toolUseId)) unplaced.push(a);
    else ofCall.set(a.toolUseId, [...(ofCall.get(a.toolUseId) ?? []), a]);
  }
  return { ofCall, unplaced };
}
