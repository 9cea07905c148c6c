/**
 * The price exits' extension point (src/engine/exits/, model/exits.ts): the rules run in
 * EXIT_RULES' order, a new rule plugs in as one more entry, and the response's enums come from
 * EXIT_KINDS.
 */
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/numeric/decimal.js';
import { EXIT_KINDS } from '../../src/model/exits.js';
import { SimulatedDealSchema, SimulatedTradeSchema } from '../../src/model/response.js';
import { NO_STRATEGY } from '../../src/model/strategy.js';
import type { PriceBook } from '../../src/engine/known-prices.js';
import { EXIT_RULES, ExitRules, type ExitDeal, type ExitRule, type ExitSell } from '../../src/engine/exits/index.js';

/** A price book of one token whose known price the test sets. */
function book(price: () => number): PriceBook {
  return { priceNumber: () => price(), priceOf: () => new Decimal(price()) } as unknown as PriceBook;
}

/** A deal bought at an average of 1, open until a whole-position sell. */
function deal(): ExitDeal & { open: boolean } {
  return { index: 0, open: true, tokenId: 0, buyPriceAvg: new Decimal(1) };
}

/** Sells at one observation, the way the replay asks for them. */
function sellsAt(rules: ExitRules, d: ExitDeal & { open: boolean }, prices: PriceBook): string[] {
  rules.observe(d, prices);
  const sells: string[] = [];
  for (let sell = rules.nextSell(d); sell !== null; sell = rules.nextSell(d)) {
    sells.push(sell.type);
    if (sell.share === null) d.open = false;
  }
  return sells;
}

describe('the exit rules', () => {
  it('run the ladder, then the stop loss, then the trailing stop', () => {
    let price = 1;
    const prices = book(() => price);
    const rules = ExitRules.of({
      ...NO_STRATEGY,
      take_profit: [
        { roi: 50, sell_percent: 25 },
        { roi: 100, sell_percent: 25 },
      ],
      trailing_stop_percent: 40,
    })!;
    const d = deal();
    rules.opened(0, new Decimal(1));
    price = 2.5; // ROI 150 %: both levels fire at once, lowest first; the peak becomes 2.5
    expect(sellsAt(rules, d, prices)).toEqual(['sell_take_profit', 'sell_take_profit']);
    price = 1.5; // 1.5 ≤ 2.5 × 0.6 = 1.5: the trailing stop sells the rest
    expect(sellsAt(rules, d, prices)).toEqual(['sell_trailing_stop']);
  });

  it('take a new rule as one more entry of the list', () => {
    // A rule selling everything the first time the price is below 0.9: as a stop loss would.
    class BelowPrice implements ExitRule {
      private done = false;
      opened(): void {}
      observe(): void {}
      next(observation: { priceNumber: number }): ExitSell | null {
        if (this.done || observation.priceNumber >= 0.9) return null;
        this.done = true;
        return { type: 'sell_stop_loss', share: null };
      }
    }
    let price = 1;
    const prices = book(() => price);
    const rules = ExitRules.of({ ...NO_STRATEGY, take_profit: [{ roi: 50, sell_percent: 10 }] }, [
      ...EXIT_RULES,
      () => new BelowPrice(),
    ])!;
    const d = deal();
    rules.opened(0, new Decimal(1));
    price = 2; // only the ladder
    expect(sellsAt(rules, d, prices)).toEqual(['sell_take_profit']);
    price = 0.8; // the new rule, after the built-in ones
    expect(sellsAt(rules, d, prices)).toEqual(['sell_stop_loss']);
  });

  it('is off when no rule is turned on', () => {
    expect(ExitRules.of(NO_STRATEGY)).toBeNull();
  });

  it("give the response's trade types and special tags from EXIT_KINDS", () => {
    for (const kind of EXIT_KINDS) {
      expect(SimulatedTradeSchema.shape.type.options).toContain(kind.trade);
      expect(SimulatedDealSchema.shape.special_tag.unwrap().options).toContain(kind.tag);
    }
  });
});
