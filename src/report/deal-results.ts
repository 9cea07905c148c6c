import { Decimal, HUNDRED, ZERO } from '../model/decimal.js';
import type { Deal } from '../engine/deal.js';

/** A deal's results (model section 4), exact. */
export interface DealResult {
  readonly deal: Deal;
  readonly pnlRealized: Decimal;
  readonly pnlUnrealized: Decimal;
  readonly pnlTotal: Decimal;
  readonly roiRealized: Decimal;
  readonly roiTotal: Decimal;
  readonly closedPosition: Decimal;
}

/** Results of one deal; `priceAtEnd` is its token's known price at `window_end`. */
export function dealResult(deal: Deal, priceAtEnd: Decimal): DealResult {
  const pnlUnrealized = deal.open ? deal.qty.times(priceAtEnd).minus(deal.invested) : ZERO;
  const pnlRealized = deal.realized;
  const pnlTotal = pnlRealized.plus(pnlUnrealized);
  const investment = deal.boughtUsd;
  return {
    deal,
    pnlRealized,
    pnlUnrealized,
    pnlTotal,
    roiRealized: HUNDRED.times(pnlRealized).div(investment),
    roiTotal: HUNDRED.times(pnlTotal).div(investment),
    closedPosition: HUNDRED.times(deal.soldQty).div(deal.boughtQty),
  };
}

/** The closed deals in the order they closed: by closing time, ties in deal order (model 5). */
export function closingOrder(results: readonly DealResult[]): DealResult[] {
  // Deals are already in deal order and the sort is stable.
  return results.filter((r) => !r.deal.open).sort((a, b) => a.deal.closeTime - b.deal.closeTime);
}
