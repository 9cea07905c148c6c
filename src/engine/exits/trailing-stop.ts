import { Decimal, HUNDRED, ONE } from '../../numeric/decimal.js';
import type { Strategy } from '../../model/strategy.js';
import type { ExitRule, ExitSell } from './exit-rule.js';
import { MARGIN, type PriceObservation } from './observation.js';

const SELL: ExitSell = { type: 'sell_trailing_stop', share: null };

/**
 * The trailing stop: `peak` is the highest known price since the deal opened (its first buy's
 * reference price, then every observation, the current one first); the whole position is sold
 * once `P ≤ peak × (1 − trailing_stop_percent / 100)`.
 */
export class TrailingStop implements ExitRule {
  /** `1 − trailing_stop_percent / 100`, exact and as a double. */
  private readonly factor: Decimal;
  private readonly factorNumber: number;
  /** Per deal: the peak, and its double. */
  private readonly peak: Decimal[] = [];
  private readonly peakNumber: number[] = [];
  private answered: PriceObservation | null = null;

  static of(strategy: Strategy): TrailingStop | null {
    return strategy.trailing_stop_percent === null ? null : new TrailingStop(strategy.trailing_stop_percent);
  }

  private constructor(percent: number) {
    this.factor = ONE.minus(new Decimal(percent).div(HUNDRED));
    this.factorNumber = this.factor.toApproxNumber();
  }

  opened(deal: number, price: Decimal): void {
    this.peak[deal] = price;
    this.peakNumber[deal] = price.toApproxNumber();
  }

  observe(observation: PriceObservation, deal: number): void {
    this.answered = null;
    const p = observation.priceNumber;
    if (p >= this.peakNumber[deal]! * (1 - MARGIN)) {
      const price = observation.exactPrice();
      if (this.peak[deal]!.lt(price)) {
        this.peak[deal] = price;
        this.peakNumber[deal] = p;
      }
    }
  }

  next(observation: PriceObservation, deal: number): ExitSell | null {
    if (this.answered === observation) return null;
    this.answered = observation;
    if (observation.priceNumber > this.peakNumber[deal]! * this.factorNumber * (1 + MARGIN)) return null;
    return observation.exactPrice().lte(this.peak[deal]!.times(this.factor)) ? SELL : null;
  }
}
