import type { Decimal } from '../../numeric/decimal.js';
import type { Strategy } from '../../model/strategy.js';
import type { PriceBook } from '../known-prices.js';
import type { ExitRule, ExitSell } from './exit-rule.js';
import { PriceObservation, type ExitDeal } from './observation.js';
import { StopLoss } from './stop-loss.js';
import { TakeProfit } from './take-profit.js';
import { TrailingStop } from './trailing-stop.js';

export type { ExitRule, ExitSell } from './exit-rule.js';
export type { ExitDeal } from './observation.js';

/**
 * The price exits, in the order they are checked at an observation (strategy extensions 5): each
 * makes its rule from the strategy, or null when the strategy does not turn it on. To add one,
 * see `model/exits.ts`.
 */
export const EXIT_RULES: readonly ((strategy: Strategy) => ExitRule | null)[] = [
  (s) => TakeProfit.of(s),
  (s) => StopLoss.of(s),
  (s) => TrailingStop.of(s),
];

/**
 * The strategy's price exits at work, fed with the price observations of tokens whose deal is
 * open. Every rule is decided in the model's exact decimals; a test in doubles first sets aside
 * the observations clearly far from every threshold (most of them), so a swap of a token with an
 * open deal costs a few double operations, not a decimal division.
 *
 * The replay asks {@link nextSell} for one sell at a time and executes it before asking again:
 * the checks stop as soon as the deal is closed.
 */
export class ExitRules {
  private readonly observation = new PriceObservation();
  /** Per deal: the average the last observation's ROI was made from, and its double. */
  private readonly avg: (Decimal | undefined)[] = [];
  private readonly avgNumber: number[] = [];
  /** The rule being asked at the current observation. */
  private stage = 0;

  private constructor(private readonly rules: readonly ExitRule[]) {}

  /** Null when the strategy has no price exit (nothing to check at any swap). */
  static of(strategy: Strategy, rules = EXIT_RULES): ExitRules | null {
    const on = rules.map((make) => make(strategy)).filter((rule) => rule !== null);
    return on.length === 0 ? null : new ExitRules(on);
  }

  /** A deal opened by a buy at reference price `price`. */
  opened(deal: number, price: Decimal): void {
    for (const rule of this.rules) rule.opened(deal, price);
  }

  /** The known price of the open `deal`'s token was just recorded (step 2 of a swap): starts the checks at it. */
  observe(deal: ExitDeal, prices: PriceBook): void {
    const index = deal.index;
    const avg = deal.buyPriceAvg;
    if (this.avg[index] !== avg) {
      this.avg[index] = avg;
      this.avgNumber[index] = avg.toApproxNumber();
    }
    this.observation.start(deal, prices, this.avgNumber[index]!);
    this.stage = 0;
    for (const rule of this.rules) rule.observe(this.observation, index);
  }

  /**
   * The next exit sell at the observed price, or null when no more fires. Call after
   * {@link observe}, execute the sell, and call again while the deal is open.
   */
  nextSell(deal: ExitDeal): ExitSell | null {
    if (!deal.open || deal !== this.observation.deal) return null;
    for (; this.stage < this.rules.length; this.stage++) {
      const sell = this.rules[this.stage]!.next(this.observation, deal.index);
      if (sell !== null) return sell;
    }
    return null;
  }
}
