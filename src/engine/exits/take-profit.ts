import { Decimal, HUNDRED } from '../../numeric/decimal.js';
import type { Strategy } from '../../model/strategy.js';
import type { ExitRule, ExitSell } from './exit-rule.js';
import type { PriceObservation } from './observation.js';

interface Level {
  readonly roi: Decimal;
  /** `roi` as a double, for the quick test. */
  readonly roiNumber: number;
  /** The level's sell, with `sell_percent / 100` as its share (null for 100 %: the whole position). */
  readonly sell: ExitSell;
}

/**
 * The take-profit ladder: each level that has not fired in the deal, lowest `roi` first, sells
 * `sell_percent` % of what is held once `ROI(P) ≥ roi`; several may fire at one observation.
 */
export class TakeProfit implements ExitRule {
  private readonly levels: readonly Level[];
  /** Per deal: how many levels fired (always the lowest ones: `roi` rises level by level). */
  private readonly fired: number[] = [];

  static of(strategy: Strategy): TakeProfit | null {
    return strategy.take_profit.length === 0 ? null : new TakeProfit(strategy.take_profit);
  }

  private constructor(levels: Strategy['take_profit']) {
    this.levels = levels.map((l) => ({
      roi: new Decimal(l.roi),
      roiNumber: l.roi,
      sell: {
        type: 'sell_take_profit',
        share: l.sell_percent === 100 ? null : new Decimal(l.sell_percent).div(HUNDRED),
      },
    }));
  }

  opened(deal: number): void {
    this.fired[deal] = 0;
  }

  observe(): void {}

  next(observation: PriceObservation, deal: number): ExitSell | null {
    const next = this.fired[deal]!;
    const level = this.levels[next];
    if (level === undefined || !observation.mayReach(level.roiNumber) || observation.exactRoi().lt(level.roi))
      return null;
    this.fired[deal] = next + 1;
    return level.sell;
  }
}
