import { type Decimal, ExactSum, HUNDRED, ZERO } from '../numeric/decimal.js';
import type { ClosedDealSink } from '../engine/closing-queue.js';
import type { Deal, DealTotals } from '../engine/deal.js';
import { closingOrder, type DealResult } from './deal-results.js';
import { DominanceFold, LinearityFold } from './statistics.js';

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
 * are exact, each rounded once (docs/model.md (j)). `fold`: one the replay has already given its
 * closed deals (`ReplayControl.closedDeals`); then `results` are the open deals'.
 */
export function summarize(results: readonly DealResult[], totals: DealTotals, fold = new SummaryFold()): Summary {
  for (const r of closingOrder(results)) fold.add(r.deal);
  for (const r of results) if (r.deal.open) fold.addOpen(r);
  return fold.summary(totals);
}

/**
 * The summary's sums over the deals, given one at a time: the closed deals in closing order
 * (as a summary-only replay closes them, so that it need not keep them), then the open deals'
 * results at the window's end.
 */
export class SummaryFold implements ClosedDealSink {
  private readonly realized = new ExactSum();
  private readonly unrealized = new ExactSum();
  private readonly closedInvestment = new ExactSum();
  private readonly openInvestment = new ExactSum();
  private readonly linearity = new LinearityFold();
  private readonly dominance = new DominanceFold();

  /** The next closed deal in closing order: its `pnl_total` is its `pnl_realized`. */
  add(deal: Deal): void {
    this.addClosedSums(deal, 1);
    this.addInOrder(deal);
  }

  /**
   * The next closed deal's place in the closing order alone, its sums given apart
   * ({@link addClosedSums}, {@link addClosedSumsOf}): the figures that depend on the order.
   */
  addInOrder(deal: Deal): void {
    const pnl = deal.pnlRealized;
    this.linearity.add(pnl);
    this.dominance.add(pnl);
  }

  /** A closed deal's sums, whatever its place in the order; `sign` -1 takes them away. */
  addClosedSums(deal: Deal, sign: 1 | -1): void {
    this.realized.add(deal.pnlRealized, sign);
    this.closedInvestment.add(deal.boughtUsd, sign);
  }

  /** Closed deals' sums at once: their `pnl_realized` and `investment_amount`, as exact sums. */
  addClosedSumsOf(realized: ExactSum, invested: ExactSum): void {
    this.realized.addSum(realized);
    this.closedInvestment.addSum(invested);
  }

  /** The result of a deal open at the window's end. */
  addOpen(r: DealResult): void {
    this.realized.add(r.pnlRealized);
    this.unrealized.add(r.pnlUnrealized);
    this.openInvestment.add(r.deal.boughtUsd);
    this.dominance.add(r.pnlTotal);
  }

  summary(totals: DealTotals): Summary {
    const pnlRealized = this.realized.value();
    const pnlUnrealized = this.unrealized.value();
    const investedClosed = this.closedInvestment.value();
    const investedOpen = this.openInvestment.value();
    const pnlTotal = pnlRealized.plus(pnlUnrealized);
    const investmentAmount = investedClosed.plus(investedOpen);
    const soldUsd = totals.soldUsd.value();
    const roi = (pnl: Decimal): Decimal =>
      investmentAmount.isZero() ? ZERO : HUNDRED.times(pnl).div(investmentAmount);
    return {
      pnlTotal,
      pnlRealized,
      pnlUnrealized,
      roiTotal: roi(pnlTotal),
      roiRealized: roi(pnlRealized),
      botFees: totals.botFee.value(),
      networkFees: totals.networkFee.value(),
      linearityR2ClosedDeals: this.linearity.value(),
      topDealDominance: this.dominance.value(),
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
}
