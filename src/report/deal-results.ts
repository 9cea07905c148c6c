import { type Decimal, HUNDRED, ZERO } from '../numeric/decimal.js';
import type { Deal } from '../engine/deal.js';
import type { ReplayResult } from '../engine/replay.js';

/** A deal's PnL (model section 4), exact: what the summary needs. */
export interface DealResult {
  readonly deal: Deal;
  readonly pnlRealized: Decimal;
  readonly pnlUnrealized: Decimal;
  readonly pnlTotal: Decimal;
}

/** Results of every deal of a replay, in deal order, the open ones valued at `window_end`. */
export function dealResults(run: ReplayResult): DealResult[] {
  return run.deals.map((deal) =>
    deal.open ? openDealResult(deal, run.priceAtEnd(deal.tokenId)) : closedDealResult(deal),
  );
}

/** Results of an open deal; `priceAtEnd` is its token's known price at `window_end`. */
function openDealResult(deal: Deal, priceAtEnd: Decimal): DealResult {
  const pnlUnrealized = deal.qty.times(priceAtEnd).minus(deal.invested);
  const pnlRealized = deal.pnlRealized;
  return { deal, pnlRealized, pnlUnrealized, pnlTotal: pnlRealized.plus(pnlUnrealized) };
}

/** Results of a closed deal: no price needed, nothing unrealized. */
function closedDealResult(deal: Deal): DealResult {
  const pnlRealized = deal.pnlRealized;
  return { deal, pnlRealized, pnlUnrealized: ZERO, pnlTotal: pnlRealized };
}

/**
 * A deal's ROIs and closed position (model section 4): three divisions, made only for a deal
 * that is printed (a sweep's summary does without them).
 */
export function dealRatios({ deal, pnlRealized, pnlTotal }: DealResult): {
  readonly roiRealized: Decimal;
  readonly roiTotal: Decimal;
  readonly closedPosition: Decimal;
} {
  const investment = deal.boughtUsd;
  return {
    roiRealized: HUNDRED.times(pnlRealized).div(investment),
    roiTotal: HUNDRED.times(pnlTotal).div(investment),
    closedPosition: HUNDRED.times(deal.soldQty).div(deal.boughtQty),
  };
}

/** The closed deals in the order they closed: by closing time, ties in deal order (model 5). */
export function closingOrder(results: readonly DealResult[]): DealResult[] {
  // Deals are already in deal order, and both sorts keep ties in it.
  const closed = results.filter((r) => !r.deal.open);
  return sortedByKeys(closed) ?? closed.sort((a, b) => a.deal.closeTime - b.deal.closeTime);
}

/** Closed deals a sort by keys takes: positions below 2^21, below its key's unit. */
const KEY_POSITIONS = 2 ** 21;

/**
 * `closed` by closing time, ties by position, as one sort of numbers: each deal's key is
 * `closeTime × 2^21 + position`, exact in a double for whole times below 2^32 (the year 2106)
 * and fewer than 2^21 deals, and a typed array sorts numbers far faster than an array of objects
 * sorts by a comparison (a summary sorts its closed deals, a sweep once a request). Null when a
 * time or the count lies outside those bounds.
 */
function sortedByKeys(closed: readonly DealResult[]): DealResult[] | null {
  const count = closed.length;
  if (count > KEY_POSITIONS) return null;
  const keys = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    const time = closed[k]!.deal.closeTime;
    if (!(Number.isInteger(time) && time >= 0 && time < 2 ** 32)) return null;
    keys[k] = time * KEY_POSITIONS + k;
  }
  keys.sort();
  const sorted = new Array<DealResult>(count);
  for (let k = 0; k < count; k++) {
    const key = keys[k]!;
    // Dividing by a power of two is exact: the quotient's floor is the time, the rest the position.
    sorted[k] = closed[key - Math.floor(key / KEY_POSITIONS) * KEY_POSITIONS]!;
  }
  return sorted;
}
