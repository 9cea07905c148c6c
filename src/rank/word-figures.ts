/**
 * A rank row's statistics over a copier's deals in bounded double words (word-copy.ts): the
 * summary's sums and ratios (model 5; report/summary.ts and report/statistics.ts), and the closed
 * deals' figures in closing order (rank.ts `rankedRow`), each as the exact engine prints it.
 */
import type { SimulationSummary } from '../model/response.js';
import {
  type Bounded,
  dividedBy,
  exactly,
  HUNDRED_BOUNDED,
  larger,
  minus,
  minusFloored,
  plus,
  printed,
  sign,
  times,
  ZERO_BOUNDED,
} from '../numeric/bounded.js';

/** What the summary needs of a deal. */
export interface DealSums {
  readonly networkFees: Bounded;
  /** `bought_usd` and `sold_usd`. */
  readonly bought: Bounded;
  readonly sold: Bounded;
  /** The trades at the reference price: the buys' `quantity × p`, the sells' `V`. */
  readonly boughtAtReference: Bounded;
  readonly soldAtReference: Bounded;
}

/** The summary's sums over the deals (model 5; report/summary.ts `SummaryFold`). */
export class SummarySums {
  private realized = ZERO_BOUNDED;
  private unrealized = ZERO_BOUNDED;
  private closedInvestment = ZERO_BOUNDED;
  private openInvestment = ZERO_BOUNDED;
  private botFees = ZERO_BOUNDED;
  private networkFees = ZERO_BOUNDED;
  private soldUsd = ZERO_BOUNDED;
  private boughtAtReference = ZERO_BOUNDED;
  private soldAtReference = ZERO_BOUNDED;
  private deals = 0;
  private readonly dominance = new Dominance();

  /** A deal with its `pnl_realized` and bot fee, and its `pnl_unrealized` when open (null: closed). */
  add(deal: DealSums, realized: Bounded, botFee: Bounded, unrealized: Bounded | null): void {
    this.deals++;
    this.realized = plus(this.realized, realized);
    this.botFees = plus(this.botFees, botFee);
    this.networkFees = plus(this.networkFees, deal.networkFees);
    this.soldUsd = plus(this.soldUsd, deal.sold);
    this.boughtAtReference = plus(this.boughtAtReference, deal.boughtAtReference);
    this.soldAtReference = plus(this.soldAtReference, deal.soldAtReference);
    if (unrealized !== null) {
      this.unrealized = plus(this.unrealized, unrealized);
      this.openInvestment = plus(this.openInvestment, deal.bought);
      this.dominance.add(plus(realized, unrealized));
    } else {
      this.closedInvestment = plus(this.closedInvestment, deal.bought);
      this.dominance.add(realized);
    }
  }

  /** The printed summary, `linearity` made apart (it needs the closing order). */
  summary(linearity: number): SimulationSummary {
    const pnlTotal = plus(this.realized, this.unrealized);
    const investment = plus(this.closedInvestment, this.openInvestment);
    const roi = (pnl: Bounded): number =>
      this.deals === 0 ? 0 : printed(dividedBy(times(HUNDRED_BOUNDED, pnl), investment), 'ROI');
    const slippageLoss = plus(minus(investment, this.boughtAtReference), minus(this.soldAtReference, this.soldUsd));
    return {
      pnl_total: printed(pnlTotal, 'pnl_total'),
      pnl_realized: printed(this.realized, 'pnl_realized'),
      pnl_unrealized: printed(this.unrealized, 'pnl_unrealized'),
      roi_total: roi(pnlTotal),
      roi_realized: roi(this.realized),
      bot_fees: printed(this.botFees, 'bot_fees'),
      network_fees: printed(this.networkFees, 'network_fees'),
      linearity_r2_closed_deals: linearity,
      top_deal_dominance: this.dominance.value(),
      trading_volume: printed(plus(investment, this.soldUsd), 'trading_volume'),
      slippage_loss: printed(slippageLoss, 'slippage_loss'),
      investment_amount: printed(investment, 'investment_amount'),
      investment_amount_closed_deals: printed(this.closedInvestment, 'investment_amount_closed_deals'),
      investment_amount_open_deals: printed(this.openInvestment, 'investment_amount_open_deals'),
    };
  }
}

/**
 * The figures of the closed deals in closing order (rank.ts `rankedRow`): the win rate, the
 * profit factor, the drawdown of their cumulative PnL, and the linearity.
 */
export class ClosedFigures {
  readonly linearity = new Linearity();
  private count = 0;
  private wins = 0;
  private gains = ZERO_BOUNDED;
  private losses = ZERO_BOUNDED;
  private cumulative = ZERO_BOUNDED;
  private peak = ZERO_BOUNDED;
  drawdown = ZERO_BOUNDED;

  add(pnl: Bounded): void {
    this.count++;
    this.linearity.add(pnl);
    const s = sign(pnl, 'a deal won or lost');
    if (s > 0) {
      this.wins++;
      this.gains = plus(this.gains, pnl);
    } else if (s < 0) {
      this.losses = plus(this.losses, pnl);
    }
    this.cumulative = plus(this.cumulative, pnl);
    const before = this.peak;
    this.peak = larger(before, this.cumulative);
    // The fall from the peak: 0 when the cumulative PnL is a new peak.
    this.drawdown = larger(this.drawdown, minusFloored(before, this.cumulative));
  }

  winrate(): number {
    return this.count === 0 ? 0 : printed(dividedBy(exactly(100 * this.wins), exactly(this.count)), 'winrate');
  }

  /** Σ gains over |Σ losses|; null without a losing deal. */
  profitFactor(): number | null {
    if (sign(this.losses, 'the losses') === 0) return null;
    return printed(dividedBy(this.gains, minus(ZERO_BOUNDED, this.losses)), 'profit_factor');
  }
}

/** `100 × max(pnl_total) / Σ positive pnl_total` over the deals (model 5; report/statistics.ts). */
class Dominance {
  private positive = ZERO_BOUNDED;
  private best: Bounded | null = null;

  add(pnl: Bounded): void {
    if (sign(pnl, 'a deal won or lost') > 0) this.positive = plus(this.positive, pnl);
    this.best = this.best === null ? pnl : larger(this.best, pnl);
  }

  value(): number {
    if (this.best === null || sign(this.positive, 'the gains') === 0) return 0;
    return printed(dividedBy(times(HUNDRED_BOUNDED, this.best), this.positive), 'top_deal_dominance');
  }
}

/**
 * R² of the least-squares line through the cumulative closed PnL, in the closed form and from the
 * sums of report/statistics.ts's `LinearityFold`: `S_xy² / (S_xx × SS_tot)` from the points
 * shifted by the first.
 */
class Linearity {
  private n = 0;
  private first = ZERO_BOUNDED;
  private y = ZERO_BOUNDED;
  private prefix = ZERO_BOUNDED;
  private prefixes = ZERO_BOUNDED;
  private squares = ZERO_BOUNDED;

  add(value: Bounded): void {
    if (this.n++ === 0) {
      this.first = this.y = value;
      return;
    }
    this.y = plus(this.y, value);
    const z = minus(this.y, this.first);
    this.prefixes = plus(this.prefixes, this.prefix);
    this.prefix = plus(this.prefix, z);
    this.squares = plus(this.squares, times(z, z));
  }

  value(): number {
    const n = this.n;
    if (n < 2) return 0;
    if (sign(this.squares, 'a sum of squares') === 0) return 0;
    const count = exactly(n);
    const ssTot = minus(this.squares, dividedBy(times(this.prefix, this.prefix), count));
    const sxy = minus(dividedBy(times(this.prefix, exactly(n - 1)), exactly(2)), this.prefixes);
    const sxx = dividedBy(times(times(exactly(n - 1), count), exactly(n + 1)), exactly(12));
    return printed(dividedBy(times(sxy, sxy), times(sxx, ssTot)), 'linearity_r2_closed_deals');
  }
}
