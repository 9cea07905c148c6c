import type { Decimal } from '../numeric/decimal.js';
import type { ChartSums } from './chart-sums.js';
import type { CopierCash } from './copier-cash.js';
import { DealTotals } from './deal.js';
import type { ExecutionModel, Fill } from './execution.js';

/**
 * The follower's own running state beside its deals: what every trade adds to, and what a cost
 * that belongs to no deal (a failed transaction's fee) adds to as well. `Deal` stays pure
 * per-position accounting; the summary reads {@link totals}, the PnL chart {@link chart}, and the
 * `copier` member {@link cash}.
 */
export class FollowerLedger {
  /** The settled deals' fee, slippage and volume sums (the summary's). */
  readonly totals = new DealTotals();

  /**
   * `chart`: the PnL chart's running sums, null when the chart is not kept; `cash`: the copier's
   * cash and equity, null when the request sets none of the copier's wallet.
   */
  constructor(
    readonly chart: ChartSums | null,
    readonly cash: CopierCash | null,
    /** The bot fee of a trade's amount (0 when bot fees are not included). */
    private readonly fees: Pick<ExecutionModel, 'botFee'>,
  ) {}

  /**
   * A trade: its amount and network fee, and a sell's cost basis (null for a buy). The chart's
   * sums and the cash move; the deal has booked it already.
   */
  traded(fill: Fill, networkFee: Decimal, cost: Decimal | null): void {
    this.chart?.addTrade(fill.usdAmount, cost, networkFee);
    const cash = this.cash;
    if (cash === null) return;
    const botFee = this.fees.botFee(fill.usdAmount);
    if (cost === null) cash.bought(fill.usdAmount, networkFee, botFee);
    else cash.sold(fill.usdAmount, networkFee, botFee);
  }

  /** A failed attempt, which belongs to no deal: only its fee, and only the cash sees it. */
  failed(fee: Decimal): void {
    this.cash?.failed(fee);
  }
}
