import { type Decimal, ExactSum, HUNDRED, ZERO } from '../numeric/decimal.js';
import type { DealTotals } from '../engine/deal.js';
import { closingOrder, type DealResult } from './deal-results.js';
import { linearityR2, topDealDominance } from './statistics.js';

/** The simulator's summary (model section 5), exact. */
export interface Summary {
  readonly pnlTotal: Decimal;
  readonly pnlRealized: Decimal;
  readonly pnlUnrealized: Decimal;
  readonly roiTotal: Decimal;
  readonly roiRealized: Decimal;
  readonly botFees: Decimal;
  readonly networkFees: Decimal;
  readonly linearityR2ClosedDeals: Decimal;
  readonly topDealDominance: Decimal;
  readonly tradingVolume: Decimal;
  readonly slippageLoss: Decimal;
  readonly investmentAmount: Decimal;
  readonly investmentAmountClosedDeals: Decimal;
  readonly investmentAmountOpenDeals: Decimal;
}

/**
 * Sums and statistics over the deals' results; the fee, slippage and volume sums are the
 * replay's, added up deal by deal as they settled ({@link DealTotals}). The sums over the deals
 * are exact, each rounded once (docs/model.md (j)).
 */
export function summarize(results: readonly DealResult[], totals: DealTotals): Summary {
  const realized = new ExactSum();
  const unrealized = new ExactSum();
  const closedInvestment = new ExactSum();
  const openInvestment = new ExactSum();
  for (const r of results) {
    const { deal } = r;
    realized.add(r.pnlRealized);
    if (deal.open) {
      unrealized.add(r.pnlUnrealized);
      openInvestment.add(deal.boughtUsd);
    } else {
      closedInvestment.add(deal.boughtUsd);
    }
  }
  const pnlRealized = realized.value();
  const pnlUnrealized = unrealized.value();
  const investedClosed = closedInvestment.value();
  const investedOpen = openInvestment.value();
  const pnlTotal = pnlRealized.plus(pnlUnrealized);
  const investmentAmount = investedClosed.plus(investedOpen);
  const soldUsd = totals.soldUsd.value();
  const roi = (pnl: Decimal): Decimal => (investmentAmount.isZero() ? ZERO : HUNDRED.times(pnl).div(investmentAmount));
  return {
    pnlTotal,
    pnlRealized,
    pnlUnrealized,
    roiTotal: roi(pnlTotal),
    roiRealized: roi(pnlRealized),
    botFees: totals.botFee.value(),
    networkFees: totals.networkFee.value(),
    linearityR2ClosedDeals: linearityR2(closingOrder(results).map((r) => r.pnlTotal)),
    topDealDominance: topDealDominance(results.map((r) => r.pnlTotal)),
    // Every trade's usd_amount: the buys' is the investment.
    tradingVolume: investmentAmount.plus(soldUsd),
    // Σ (bought_usd − Σ quantity × p) + (Σ V − sold_usd) over the deals.
    slippageLoss: investmentAmount
      .minus(totals.boughtAtReference.value())
      .plus(totals.soldAtReference.value().minus(soldUsd)),
    investmentAmount,
    investmentAmountClosedDeals: investedClosed,
    investmentAmountOpenDeals: investedOpen,
  };
}
