import { Decimal, HUNDRED, ONE } from '../numeric/decimal.js';
import type { Strategy } from '../model/strategy.js';
import type { PriceBook } from './known-prices.js';

/** A price exit's sell: the trade type and the share `g` of the deal's lots it sells (null: the whole position). */
export interface ExitSell {
  readonly type: 'sell_take_profit' | 'sell_stop_loss' | 'sell_trailing_stop';
  readonly share: Decimal | null;
}

/** What the exit rules read of a deal when a price is observed. */
export interface ExitDeal {
  readonly index: number;
  readonly open: boolean;
  readonly tokenId: number;
  /** `usd_buy_price_avg` (sells do not change it). */
  readonly buyPriceAvg: Decimal;
}

interface Level {
  readonly roi: Decimal;
  /** `roi` as a double, for the quick test. */
  readonly roiNumber: number;
  /** `sell_percent / 100`, or null for 100 %: the whole position. */
  readonly share: Decimal | null;
}

/**
 * How far a comparison made in doubles may be from the exact one. The doubles of a price, an
 * average or a peak are within 2⁻⁵² of the decimals; a ROI made from them is within about
 * 10⁻¹³ percent of the exact one, far inside this margin. Only an observation inside the margin
 * of a threshold is decided in exact decimals.
 */
const MARGIN = 1e-9;

/**
 * The strategy's price exits (strategy extensions 5): the take-profit ladder, the stop loss and
 * the trailing stop, fed with the price observations of a token whose deal is open. Each deal's
 * state (how many ladder levels fired, the trailing stop's peak) is kept here by deal index, so
 * a deal stays pure accounting.
 *
 * Every rule is decided in the model's exact decimals, `ROI(P) = 100 × (P − avg) / avg` in the
 * text's order; a test in doubles first sets aside the observations that are clearly far from
 * every threshold (most of them), so a swap of a token with an open deal costs a few double
 * operations, not a decimal division.
 *
 * The replay asks {@link nextSell} for one sell at a time and executes it before asking again:
 * the checks stop as soon as the deal is closed.
 */
export class ExitRules {
  private readonly levels: readonly Level[];
  /** `−stop_loss_percent`. */
  private readonly stopLoss: Decimal | null;
  private readonly stopLossNumber: number;
  /** `1 − trailing_stop_percent / 100`. */
  private readonly trailingFactor: Decimal | null;
  private readonly trailingFactorNumber: number;
  /** Per deal: how many ladder levels fired (always the lowest ones: `roi` rises level by level). */
  private readonly fired: number[] = [];
  /** Per deal: the highest price recorded since it opened, and its double (kept with a trailing stop only). */
  private readonly peak: Decimal[] = [];
  private readonly peakNumber: number[] = [];
  /** Per deal: the average the last ROI was made from, and its double. */
  private readonly avg: (Decimal | undefined)[] = [];
  private readonly avgNumber: number[] = [];

  // The observation being checked: its deal, price (exact when made) and ROI, and how far the checks went.
  private deal = -1;
  private tokenId = -1;
  private prices: PriceBook | null = null;
  private price: Decimal | null = null;
  private priceNumber = 0;
  private roi: Decimal | null = null;
  private roiNumber = 0;
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
      roiNumber: l.roi,
      share: l.sell_percent === 100 ? null : new Decimal(l.sell_percent).div(HUNDRED),
    }));
    this.stopLoss = strategy.stop_loss_percent === null ? null : new Decimal(strategy.stop_loss_percent).neg();
    this.stopLossNumber = strategy.stop_loss_percent === null ? -Infinity : -strategy.stop_loss_percent;
    this.trailingFactor = strategy.trailing_stop_percent === null ? null : ONE.minus(new Decimal(strategy.trailing_stop_percent).div(HUNDRED));
    this.trailingFactorNumber = this.trailingFactor === null ? 0 : this.trailingFactor.toApproxNumber();
  }

  /** A deal opened by a buy at reference price `price`: the trailing stop's first peak. */
  opened(deal: number, price: Decimal): void {
    this.fired[deal] = 0;
    this.peak[deal] = price;
    this.peakNumber[deal] = price.toApproxNumber();
  }

  /**
   * The known price of the open `deal`'s token was just recorded (step 2 of a swap): starts the
   * checks of strategy extensions 5 at it. The trailing stop's peak takes it first.
   */
  observe(deal: ExitDeal, prices: PriceBook): void {
    const index = deal.index;
    const p = prices.priceNumber(deal.tokenId);
    this.deal = index;
    this.tokenId = deal.tokenId;
    this.prices = prices;
    this.price = null;
    this.priceNumber = p;
    this.roi = null;
    this.stage = 0;
    if (this.trailingFactor !== null && p >= this.peakNumber[index]! * (1 - MARGIN)) {
      const price = this.exactPrice();
      if (this.peak[index]!.lt(price)) {
        this.peak[index] = price;
        this.peakNumber[index] = p;
      }
    }
    const avg = deal.buyPriceAvg;
    if (this.avg[index] !== avg) {
      this.avg[index] = avg;
      this.avgNumber[index] = avg.toApproxNumber();
    }
    const a = this.avgNumber[index]!;
    this.roiNumber = (100 * (p - a)) / a;
  }

  /**
   * The next exit sell at the observed price, or null when no more fires. Call after
   * {@link observe}, execute the sell, and call again while the deal is open.
   */
  nextSell(deal: ExitDeal): ExitSell | null {
    if (!deal.open || deal.index !== this.deal) return null;
    const levels = this.levels;
    // Stage 0: the ladder, lowest ROI first; 1: the stop loss; 2: the trailing stop.
    if (this.stage === 0) {
      const next = this.fired[deal.index]!;
      if (next < levels.length && this.mayReach(levels[next]!.roiNumber) && this.exactRoi(deal).gte(levels[next]!.roi)) {
        this.fired[deal.index] = next + 1;
        return { type: 'sell_take_profit', share: levels[next]!.share };
      }
      this.stage = 1;
    }
    if (this.stage === 1) {
      this.stage = 2;
      if (this.stopLoss !== null && this.mayFallTo(this.stopLossNumber) && this.exactRoi(deal).lte(this.stopLoss)) {
        return { type: 'sell_stop_loss', share: null };
      }
    }
    if (this.stage === 2) {
      this.stage = 3;
      const factor = this.trailingFactor;
      if (factor !== null && this.priceNumber <= this.peakNumber[deal.index]! * this.trailingFactorNumber * (1 + MARGIN)) {
        if (this.exactPrice().lte(this.peak[deal.index]!.times(factor))) return { type: 'sell_trailing_stop', share: null };
      }
    }
    return null;
  }

  /** False only when the ROI is surely below `roi`. */
  private mayReach(roi: number): boolean {
    return this.roiNumber >= roi - MARGIN * (1 + Math.abs(roi));
  }

  /** False only when the ROI is surely above `roi`. */
  private mayFallTo(roi: number): boolean {
    return this.roiNumber <= roi + MARGIN * (1 + Math.abs(roi));
  }

  private exactPrice(): Decimal {
    return (this.price ??= this.prices!.priceOf(this.tokenId));
  }

  /** `ROI(P) = 100 × (P − avg) / avg`, in the text's order. */
  private exactRoi(deal: ExitDeal): Decimal {
    if (this.roi === null) {
      const avg = deal.buyPriceAvg;
      this.roi = HUNDRED.times(this.exactPrice().minus(avg)).div(avg);
    }
    return this.roi;
  }
}
