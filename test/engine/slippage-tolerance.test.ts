/**
 * The slippage tolerance (copier-wallet.md 4, step 3): a buy fails when `x > p_q × (1 + τ/100)`,
 * a sell when `usd_amount < Q × p_q × (1 − τ/100)`; a fill exactly at the bound lands. Doubles
 * decide fills far from the bound; the answer must be the exact comparison's, also for fills
 * that differ from the bound in their last digits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Fill } from '../../src/engine/execution.js';
import { SlippageTolerance } from '../../src/engine/slippage-tolerance.js';
import { Decimal } from '../../src/numeric/decimal.js';

function buyAt(execution: string): Fill {
  return {
    usdAmount: new Decimal(100),
    quantity: new Decimal(1),
    price: 0,
    slippage: 0,
    atReference: new Decimal(1),
    execution: new Decimal(execution),
  };
}

function sellOf(quantity: string, usdAmount: string): Fill {
  return {
    usdAmount: new Decimal(usdAmount),
    quantity: new Decimal(quantity),
    price: 0,
    slippage: 0,
    atReference: new Decimal(1),
    execution: null,
  };
}

describe('slippage tolerance', () => {
  const tenPercent = new SlippageTolerance(10);
  const quoted = new Decimal(2);

  it('lets a buy land up to p_q × 1.1 and fails it past that, by any margin', () => {
    expect(tenPercent.worst(true, quoted).toString()).toBe('2.2');
    expect(tenPercent.exceeded(true, buyAt('2.2'), quoted)).toBe(false); // at the bound: lands
    expect(tenPercent.exceeded(true, buyAt('2.2000000000000000000000000000000000001'), quoted)).toBe(true);
    expect(tenPercent.exceeded(true, buyAt('2.1999999999999999999999999999999999999'), quoted)).toBe(false);
    expect(tenPercent.exceeded(true, buyAt('2.1'), quoted)).toBe(false);
    expect(tenPercent.exceeded(true, buyAt('3'), quoted)).toBe(true);
  });

  it('fails a sell of Q tokens whose usd_amount is below Q × p_q × 0.9', () => {
    // Q = 3 at p_q = 2: the bound is 3 × 1.8 = 5.4 USD.
    expect(tenPercent.worst(false, quoted).toString()).toBe('1.8');
    expect(tenPercent.exceeded(false, sellOf('3', '5.4'), quoted)).toBe(false);
    expect(tenPercent.exceeded(false, sellOf('3', '5.3999999999999999999999999999999999999'), quoted)).toBe(true);
    expect(tenPercent.exceeded(false, sellOf('3', '5.4000000000000000000000000000000000001'), quoted)).toBe(false);
    expect(tenPercent.exceeded(false, sellOf('3', '5'), quoted)).toBe(true);
    expect(tenPercent.exceeded(false, sellOf('3', '5.9'), quoted)).toBe(false);
  });

  it('answers as the exact comparison for fills near and far from the bound', () => {
    // A fill is the bound times (1 + d × 10^-k): k from 1 (far) to 39 (the last digits).
    const digits = fc.stringMatching(/^[1-9]\d{0,11}$/);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        digits,
        fc.integer({ min: -12, max: 12 }),
        fc.integer({ min: -9, max: 9 }),
        fc.integer({ min: 1, max: 39 }),
        fc.boolean(),
        (tau, quoteDigits, quoteExponent, d, k, buy) => {
          const tolerance = new SlippageTolerance(tau);
          const quote = new Decimal(`${quoteDigits}e${quoteExponent}`);
          const worst = tolerance.worst(buy, quote);
          const nudge = new Decimal(1).plus(new Decimal(`${d}e-${k}`));
          if (buy) {
            const fill = buyAt(worst.times(nudge).toString());
            expect(tolerance.exceeded(true, fill, quote)).toBe(fill.execution!.gt(worst));
          } else {
            const quantity = new Decimal('12345.678');
            const fill = sellOf(quantity.toString(), quantity.times(worst).times(nudge).toString());
            expect(tolerance.exceeded(false, fill, quote)).toBe(fill.usdAmount.lt(quantity.times(worst)));
          }
        },
      ),
      { seed: 41, numRuns: 2000 },
    );
  });
});
