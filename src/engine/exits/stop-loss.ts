import { Decimal } from '../../numeric/decimal.js';
import type { Strategy } from '../../model/strategy.js';
import type { ExitRule, ExitSell } from './exit-rule.js';
import type { PriceObservation } from './observation.js';

const SELL: ExitSell = { type: 'sell_stop_loss', share: null };

/** The stop loss: sells the whole position once `ROI(P) ≤ −stop_loss_percent`. */
export class StopLoss implements ExitRule {
  /** `−stop_loss_percent`, exact and as a double. */
  private readonly limit: Decimal;
  private readonly limitNumber: number;
  /** The deal and observation it has answered (a rule gives one sell an observation). */
  private answered: PriceObservation | null = null;

  static of(strategy: Strategy): StopLoss | null {
    return strategy.stop_loss_percent === null ? null : new StopLoss(strategy.stop_loss_percent);
  }

  private constructor(percent: number) {
    this.limit = new Decimal(percent).neg();
    this.limitNumber = -percent;
  }

  opened(): void {}

  observe(): void {
    this.answered = null;
  }

  next(observation: PriceObservation): ExitSell | null {
    if (this.answered === observation) return null;
    this.answered = observation;
    return observation.mayFallTo(this.limitNumber) && observation.exactRoi().lte(this.limit) ? SELL : null;
  }
}
