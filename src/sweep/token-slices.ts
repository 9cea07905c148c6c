import type { ClosedDealSink } from '../engine/closing-queue.js';
import { type Deal, DealTotals } from '../engine/deal.js';
import type { ReplayResult } from '../engine/replay.js';
import { ExactSum } from '../numeric/decimal.js';
import type { SimulatorRequest } from '../model/request.js';
import type { SimulationSummary } from '../model/response.js';
import { dealResults, type DealResult } from '../report/deal-results.js';
import { summaryJson } from '../report/response.js';
import { SummaryFold } from '../report/summary.js';

/**
 * Runs of a sweep sliced by token. Without a strategy a request's deals in one token depend on no
 * other token's (no cash, no limit on open deals, exits and time-fixes by deal), so a request
 * that differs from its group's lead only in a smaller `max_dupe_buy_times` has the lead's very
 * deals in every token where the lead let through no dupe buy its limit refuses
 * (`ReplayResult.leastDupeLimitByToken`). It replays only the other tokens' leader swaps and
 * takes the lead's deals for the rest: its summary folds the two sets of closed deals merged
 * in closing order (closing time, ties in deal order: the order of the swaps that opened them),
 * the open deals, and the totals both added.
 */

/** What a lead's run leaves for the runs sliced from it. */
export interface LeadDeals {
  /** Its closed deals, in closing order, each with its settled totals. */
  readonly closed: readonly Deal[];
  /** Its deals open at the window's end, with their results, in deal order. */
  readonly open: readonly DealResult[];
  /** By token id, the least dupe limit of its deals in the token (0 past the end). */
  readonly leastByToken: readonly number[];
  /** Over its closed deals: the settled totals, `pnl_realized` and `investment_amount`, exact. */
  readonly closedTotals: DealTotals;
  readonly closedRealized: ExactSum;
  readonly closedInvested: ExactSum;
}

/** A summary-only run's closed deals as they close, kept for {@link leadDeals} and {@link slicedSummary}. */
export class ClosedDeals implements ClosedDealSink {
  readonly deals: Deal[] = [];

  add(deal: Deal): void {
    this.deals.push(deal);
  }
}

/** Whether a request's runs may be sliced by token: it has no strategy. */
export function sliceable(request: SimulatorRequest): boolean {
  return request.strategy === undefined || request.strategy === null;
}

/**
 * What a finished run of a lead leaves ({@link LeadDeals}); its run asked for `byToken`. The
 * closed deals' totals are the run's less its open deals' (settled at the window's end too).
 */
export function leadDeals(run: ReplayResult, closed: ClosedDeals): LeadDeals {
  const open = dealResults(run);
  const closedTotals = new DealTotals();
  closedTotals.addTotals(run.totals);
  for (const r of open) closedTotals.addSettled(r.deal.settledTotals!, -1);
  const closedRealized = new ExactSum();
  const closedInvested = new ExactSum();
  for (const deal of closed.deals) {
    closedRealized.add(deal.pnlRealized);
    closedInvested.add(deal.boughtUsd);
  }
  return {
    closed: closed.deals,
    open,
    leastByToken: run.leastDupeLimitByToken ?? [],
    closedTotals,
    closedRealized,
    closedInvested,
  };
}

/** The summary of a lead's own run, from what it leaves ({@link leadDeals}). */
export function leadSummary(run: ReplayResult, lead: LeadDeals): SimulationSummary {
  const fold = new SummaryFold();
  fold.addClosedSumsOf(lead.closedRealized, lead.closedInvested);
  for (const deal of lead.closed) fold.addInOrder(deal);
  for (const r of lead.open) fold.addOpen(r);
  return summaryJson(fold.summary(run.totals));
}

/** The tokens a request with dupe limit `limit` replays itself: 1 where the lead let through a dupe buy it refuses. */
export function tokensToReplay(lead: LeadDeals, limit: number): Uint8Array {
  const tokens = new Uint8Array(lead.leastByToken.length);
  lead.leastByToken.forEach((least, tokenId) => {
    if (least > limit) tokens[tokenId] = 1;
  });
  return tokens;
}

/**
 * The summary of a member's run: its own deals, and the lead's deals in the tokens it did not
 * replay (`replayed[tokenId] !== 1`). The run's totals take the lead's deals' settled totals.
 */
export function slicedSummary(
  run: ReplayResult,
  closed: ClosedDeals,
  lead: LeadDeals,
  replayed: Uint8Array,
): SimulationSummary {
  const taken = (deal: Deal): boolean => replayed[deal.tokenId] !== 1;
  const takenClosed = lead.closed.filter(taken);
  const takenOpen = lead.open.filter((r) => taken(r.deal));
  const totals = run.totals;
  const fold = new SummaryFold();
  // The taken deals' order-free sums: added one by one, or when they are most of the lead's
  // closed deals, the lead's whole sums less those of the deals not taken.
  if (2 * takenClosed.length > lead.closed.length) {
    totals.addTotals(lead.closedTotals);
    fold.addClosedSumsOf(lead.closedRealized, lead.closedInvested);
    for (const deal of lead.closed) {
      if (taken(deal)) continue;
      totals.addSettled(deal.settledTotals!, -1);
      fold.addClosedSums(deal, -1);
    }
  } else {
    for (const deal of takenClosed) {
      totals.addSettled(deal.settledTotals!);
      fold.addClosedSums(deal, 1);
    }
  }
  for (const r of takenOpen) totals.addSettled(r.deal.settledTotals!);
  for (const deal of closed.deals) fold.addClosedSums(deal, 1);
  for (const deal of inClosingOrder(takenClosed, closed.deals)) fold.addInOrder(deal);
  const open = [...takenOpen, ...dealResults(run)].sort((a, b) => a.deal.openEvent - b.deal.openEvent);
  for (const r of open) fold.addOpen(r);
  return summaryJson(fold.summary(totals));
}

/** Two lists of closed deals, each in closing order, merged: by closing time, ties in the order the deals opened. */
function inClosingOrder(a: readonly Deal[], b: readonly Deal[]): Deal[] {
  if (a.length === 0) return b as Deal[];
  if (b.length === 0) return a as Deal[];
  const out: Deal[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    const first = x.closeTime !== y.closeTime ? x.closeTime < y.closeTime : x.openEvent < y.openEvent;
    out.push(first ? x : y);
    if (first) i++;
    else j++;
  }
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}
