/**
 * The copier's equity test (copier-wallet.md 7): `CopierCash.changed` decides most changes of
 * cash from a bounded double-word equity and makes it exactly only when a comparison is too close
 * to call. Its answers (peak, drawdown in USD and percent, the points a report draws) must be
 * those of the exact comparison at every change, also when equities differ in their last digits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CopierCash, type HeldReading } from '../../src/engine/copier-cash.js';
import { Decimal, HUNDRED, toJsonNumber, ZERO } from '../../src/numeric/decimal.js';
import { CONVERSION_ERROR, toWord } from '../../src/numeric/double-word.js';

/** A held value known exactly, read as the engine's `HeldValue` reads one: its word and a bound. */
function heldOf(value: Decimal, counter: { exact: number }): HeldReading {
  return {
    approximates: true,
    approximate(out) {
      toWord(out, value);
      out[2] = Math.abs(out[0]!) * CONVERSION_ERROR;
    },
    exact() {
      counter.exact++;
      return value;
    },
  };
}

/** The rule as copier-wallet.md 7 states it, every equity made exactly. */
function exactly(balance: Decimal, steps: readonly { cash: Decimal; held: Decimal }[]) {
  let peak = balance;
  let drawdown = ZERO;
  let percent = ZERO;
  const points: number[] = [];
  for (const [t, { cash, held }] of steps.entries()) {
    const equity = cash.plus(held);
    points.push(t, toJsonNumber(cash), toJsonNumber(equity));
    if (!equity.lt(peak)) {
      peak = equity;
      continue;
    }
    const fall = peak.minus(equity);
    if (fall.gt(drawdown)) drawdown = fall;
    if (HUNDRED.times(fall).gt(percent.times(peak))) percent = HUNDRED.times(fall).div(peak);
  }
  return { drawdown: drawdown.toString(), percent: percent.toString(), points };
}

/** Replays the steps through `CopierCash`, the cash set directly as trades would leave it. */
function quickly(balance: Decimal, steps: readonly { cash: Decimal; held: Decimal }[]) {
  const counter = { exact: 0 };
  const wallet = new CopierCash(balance.toNumber(), 0, true);
  for (const [t, { cash, held }] of steps.entries()) {
    wallet.cash = cash;
    wallet.changed(heldOf(held, counter), t);
  }
  const percent = wallet.drawdownPercent ?? ZERO;
  return { drawdown: wallet.maxDrawdown.toString(), percent: percent.toString(), points: wallet.points!, counter };
}

/** Amounts near one another: a few bases, moved by anything from a unit to the 38th digit. */
const amountArb = fc
  .tuple(
    fc.constantFrom('1000', '1000.5', '999.75', '1250'),
    fc.integer({ min: -3, max: 3 }),
    fc.integer({ min: 0, max: 36 }),
  )
  .map(([base, units, digits]) => new Decimal(base).plus(new Decimal(`${units}e-${digits}`)));

describe("the copier's equity: quick test and exact comparison", () => {
  it('gives the exact answers on equities that differ in any digit (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ cash: amountArb, held: amountArb }), { minLength: 1, maxLength: 40 }),
        (steps) => {
          const balance = new Decimal(2000);
          const quick = quickly(balance, steps);
          const { counter, ...answers } = quick;
          expect(answers).toEqual(exactly(balance, steps));
        },
      ),
      { numRuns: 400, seed: 44 },
    );
  });

  it('makes the equity exactly only when a comparison is close', () => {
    // Balance 1,000: equity 1,100 (new peak, exact), 1,050 (first fall: no drawdown yet, exact),
    // 1,080 and 1,060 (falls of 20 and 40, below the largest 50: quick), 1,040 (fall 60 > 50: exact).
    const at = (equity: number) => ({ cash: new Decimal(0), held: new Decimal(equity) });
    const steps = [1100, 1050, 1080, 1060, 1040].map(at);
    const quick = quickly(new Decimal(1000), steps);
    expect(quick.counter.exact).toBe(3);
    expect(quick.drawdown).toBe('60');
    // 100 × 60 / 1,100 = 5.4545…
    expect(Number(quick.percent)).toBeCloseTo(5.454545, 5);
    expect(quick.points).toEqual([0, 0, 1100, 1, 0, 1050, 2, 0, 1080, 3, 0, 1060, 4, 0, 1040]);
  });
});
