import { Decimal, HUNDRED, ONE } from '../numeric/decimal.js';
import type { Strategy } from '../model/strategy.js';

/** A price exit's sell: the trade type and the share `g` of the deal's lots it sells (null: the whole position). */
export interface ExitSell {
  readonly type: 'sell_take_profit' | 'sell_stop_loss' | 'sell_trailing_stop';
  readonly share: Decimal | null;
}

/** What the exit rules read of a deal when a price is observed. */
export interface ExitDeal {
  readonly index: number;
  readonly open: boolean;
  /** `usd_buy_price_avg` (sells do not change it). */
  readonly buyPriceAvg: Decimal;
}

interface Level {
  readonly roi: Decimal;
  /** `sell_percent / 100`, or null for 100 %: the whole position. */
  readonly share: Decimal | null;
}

/**
 * The strategy's price exits (strategy extensions 5): the take-profit ladder, the stop loss and
 * the trailing stop, fed with the price observations of a token whose deal is open. Each deal's
 * state (the ladder levels that fired, the trailing stop's peak) is kept here by deal index, so a
 * deal stays pure accounting.
 *
 * The replay asks {@link nextSell} for one sell at a time and executes it before asking again:
 * the checks stop as soon as the deal is closed.
 */
export class ExitRules {
  private readonly levels: readonly Level[];
  private readonly stopLoss: Decimal | null;
  /** `1 − trailing_stop_percent / 100`. */
  private readonly trailingFactor: Decimal | null;
  /** Per deal: a bit per ladder level that fired. */
  private readonly fired: number[] = [];
  /** Per deal: the highest price recorded since it opened. */
  private readonly peak: Decimal[] = [];
  /** The observation being checked: its deal, price, ROI and how far the checks went. */
  private deal = -1;
  private price: Decimal = ONE;
  private roi: Decimal = ONE;
  private stage = 0;

  /** Null when the strategy has no price exit (nothing to check at any swap). */
  static of(strategy: Strategy): ExitRules | null {
    const { take_profit, stop_loss_percent, trailing_stop_percent } = strategy;
    if (take_profit.length === 0 && stop_loss_percent === null && trailing_stop_percent === null) return null;
    return new ExitRules(strategy);
  }

  private constructor(strategy: Strategy) {
    this.levels = strategy.take_profit.map((l) => ({
      roi: new Decimal(l.roi),
      share: l.sell_percent === 100 ? null : new Decimal(l.sell_percent).div(HUNDRED),
    }));
    this.stopLoss = strategy.stop_loss_percent === null ? null : new Decimal(strategy.stop_loss_percent).neg();
    this.trailingFactor = strategy.trailing_stop_percent === null ? null : ONE.minus(new Decimal(strategy.trailing_stop_percent).div(HUNDRED));
  }

  /** A deal opened by a buy at reference price `price`: the trailing stop's first peak. */
  opened(deal: number, price: Decimal): void {
    this.fired[deal] = 0;
    this.peak[deal] = price;
  }

  /**
   * A price `price` recorded for the token of the open `deal` (step 2 of a swap): starts the
   * checks of strategy extensions 5 at this price. The trailing stop's peak takes it first.
   */
  observe(deal: ExitDeal, price: Decimal): void {
    this.deal = deal.index;
    this.price = price;
    if (this.peak[deal.index]!.lt(price)) this.peak[deal.index] = price;
    const avg = deal.buyPriceAvg;
    // ROI(P) = 100 × (P − avg) / avg, in the text's order.
    this.roi = HUNDRED.times(price.minus(avg)).div(avg);
    this.stage = 0;
  }

  /**
   * The next exit sell at the observed price, or null when no more fires. Call after
   * {@link observe}, execute the sell, and call again while the deal is open.
   */
  nextSell(deal: ExitDeal): ExitSell | null {
    if (!deal.open || deal.index !== this.deal) return null;
    const levels = this.levels;
    // Stages 0 … levels.length − 1: the ladder, lowest ROI first; then the stop loss; then the trailing stop.
    while (this.stage < levels.length) {
      const level = this.stage++;
      const bit = 1 << level;
      if ((this.fired[deal.index]! & bit) === 0 && this.roi.gte(levels[level]!.roi)) {
        this.fired[deal.index]! |= bit;
        return { type: 'sell_take_profit', share: levels[level]!.share };
      }
    }
    if (this.stage === levels.length) {
      this.stage++;
      if (this.stopLoss !== null && this.roi.lte(this.stopLoss)) return { type: 'sell_stop_loss', share: null };
    }
    if (this.stage === levels.length + 1) {
      this.stage++;
      if (this.trailingFactor !== null && this.price.lte(this.peak[deal.index]!.times(this.trailingFactor))) {
        return { type: 'sell_trailing_stop', share: null };
      }
    }
    return null;
  }
}
