import { Decimal, HUNDRED, ZERO } from '../model/decimal.js';
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

/** Sums and statistics over the deals' results. */
export function summarize(results: readonly DealResult[]): Summary {
  let pnlRealized = ZERO;
  let pnlUnrealized = ZERO;
  let botFees = ZERO;
  let networkFees = ZERO;
  let slippageLoss = ZERO;
  let tradingVolume = ZERO;
  let investedClosed = ZERO;
  let investedOpen = ZERO;
  for (const r of results) {
    const { deal } = r;
    pnlRealized = pnlRealized.plus(r.pnlRealized);
    pnlUnrealized = pnlUnrealized.plus(r.pnlUnrealized);
    botFees = botFees.plus(deal.botFee);
    networkFees = networkFees.plus(deal.networkFee);
    slippageLoss = slippageLoss.plus(deal.slippageLoss);
    tradingVolume = tradingVolume.plus(deal.volume);
    if (deal.open) investedOpen = investedOpen.plus(deal.boughtUsd);
    else investedClosed = investedClosed.plus(deal.boughtUsd);
  }
  const pnlTotal = pnlRealized.plus(pnlUnrealized);
  const investmentAmount = investedClosed.plus(investedOpen);
  const roi = (pnl: Decimal): Decimal => (investmentAmount.isZero() ? ZERO : HUNDRED.times(pnl).div(investmentAmount));
  return {
    pnlTotal,
    pnlRealized,
    pnlUnrealized,
    roiTotal: roi(pnlTotal),
    roiRealized: roi(pnlRealized),
    botFees,
    networkFees,
    linearityR2ClosedDeals: linearityR2(closingOrder(results).map((r) => r.pnlTotal)),
    topDealDominance: topDealDominance(results.map((r) => r.pnlTotal)),
    tradingVolume,
    slippageLoss,
    investmentAmount,
    investmentAmountClosedDeals: investedClosed,
    investmentAmountOpenDeals: investedOpen,
  };
}
