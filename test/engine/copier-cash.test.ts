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
import { ADDITION_ERROR, addWords, CONVERSION_ERROR, toWord } from '../../src/numeric/double-word.js';

/** How often the equity was made exactly: at the change of cash, or later from a snapshot. */
interface Counter {
  exact: number;
  snapshots: number;
  made: number;
}

/**
 * A held value known exactly, read as the engine's `HeldValue` reads one: its word and a bound;
 * the word moved by `offset` (a reading as loose as many deals' sum), the bound grown to match.
 */
function heldOf(value: Decimal, counter: Counter, offset = 0): HeldReading {
  return {
    approximate(out) {
      toWord(out, value);
      const conversion = Math.abs(out[0]!) * CONVERSION_ERROR;
      addWords(out, out[0]!, out[1]!, offset, 0);
      out[2] = conversion + Math.abs(offset) + Math.abs(out[0]!) * ADDITION_ERROR;
    },
    exact() {
      counter.exact++;
      return value;
    },
    snapshot() {
      counter.snapshots++;
      return () => {
        counter.made++;
        return value;
      };
    },
  };
}

/** The rule as copier-wallet.md 7 states it, every equity made exactly. */
function exactly(balance: Decimal | null, steps: readonly { cash: Decimal; held: Decimal }[]) {
  let peak = balance ?? ZERO;
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
    if (balance === null || !peak.gt(ZERO)) continue;
    if (HUNDRED.times(fall).gt(percent.times(peak))) percent = HUNDRED.times(fall).div(peak);
  }
  return { drawdown: drawdown.toString(), percent: percent.toString(), points };
}

/** Replays the steps through `CopierCash`, the cash set directly as trades would leave it. */
function quickly(balance: Decimal | null, steps: readonly { cash: Decimal; held: Decimal; offset?: number }[]) {
  const counter = { exact: 0, snapshots: 0, made: 0 };
  const wallet = new CopierCash(balance === null ? null : balance.toNumber(), 0, true);
  for (const [t, { cash, held, offset }] of steps.entries()) {
    wallet.cash = cash;
    wallet.changed(heldOf(held, counter, offset), t);
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
  it('gives the exact answers near zero, below it, and without a balance (fast-check)', () => {
    // Equities around 0 test the percent's rule for a peak ≤ 0; without a balance there is no percent.
    const nearZero = fc
      .tuple(
        fc.constantFrom('0', '-5', '5', '1e-30', '-2.5e-12'),
        fc.integer({ min: -3, max: 3 }),
        fc.integer({ min: 0, max: 40 }),
      )
      .map(([base, units, digits]) => new Decimal(base).plus(new Decimal(`${units}e-${digits}`)));
    fc.assert(
      fc.property(
        fc.constantFrom<Decimal | null>(ZERO, new Decimal(5), null),
        fc.array(fc.record({ cash: nearZero, held: nearZero }), { minLength: 1, maxLength: 40 }),
        (balance, steps) => {
          const { counter, ...answers } = quickly(balance, steps);
          expect(answers).toEqual(exactly(balance, steps));
        },
      ),
      { numRuns: 400, seed: 45 },
    );
  });

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

  it('gives the exact answers from loose readings of the held value (fast-check)', () => {
    // Readings off by up to 10^-8 of the amounts, with bounds to match: the radii, not the
    // doubles' own roundings, decide which comparisons are close.
    const offsetArb = fc
      .tuple(fc.integer({ min: -9, max: 9 }), fc.integer({ min: 6, max: 16 }))
      .map(([units, digits]) => units * 10 ** -digits);
    fc.assert(
      fc.property(
        fc.constantFrom<Decimal | null>(new Decimal(2000), new Decimal(1000), null),
        fc.array(fc.record({ cash: amountArb, held: amountArb, offset: offsetArb }), { minLength: 1, maxLength: 40 }),
        (balance, steps) => {
          const { counter, ...answers } = quickly(balance, steps);
          expect(answers).toEqual(exactly(balance, steps));
        },
      ),
      { numRuns: 400, seed: 46 },
    );
  });

  it('makes the equity exactly only when a comparison is close', () => {
    // Balance 1,000: equity 1,100 (surely a new peak: a snapshot), 1,050 (surely a first fall: a
    // snapshot), 1,080 and 1,060 (falls of 20 and 40, below the largest 50: quick), 1,040 (fall
    // 60 > 50: a snapshot). No comparison is close; reading the drawdown makes 1,100 and 1,040.
    const at = (equity: number) => ({ cash: new Decimal(0), held: new Decimal(equity) });
    const steps = [1100, 1050, 1080, 1060, 1040].map(at);
    const quick = quickly(new Decimal(1000), steps);
    expect(quick.counter).toEqual({ exact: 0, snapshots: 3, made: 2 });
    expect(quick.drawdown).toBe('60');
    // 100 × 60 / 1,100 = 5.4545…
    expect(Number(quick.percent)).toBeCloseTo(5.454545, 5);
    expect(quick.points).toEqual([0, 0, 1100, 1, 0, 1050, 2, 0, 1080, 3, 0, 1060, 4, 0, 1040]);
  });

  it('makes the peak exactly when an equity comes too close to it', () => {
    // 1,100, then 1,100 + 10^-36 (a new peak by less than the bounds tell): both made exactly.
    const steps = [new Decimal(1100), new Decimal('1100.000000000000000000000000000000000001')].map((held) => ({
      cash: ZERO,
      held,
    }));
    const quick = quickly(new Decimal(1000), steps);
    expect(quick.counter).toEqual({ exact: 0, snapshots: 2, made: 2 });
    expect(quick.drawdown).toBe('0');
  });
});

describe("the copier's cash check (copier-wallet.md 2)", () => {
  /** A wallet of `balance` and `reserve` that has spent `spent` (a buy of that amount, no fees). */
  function walletAfter(balance: number, reserve: number, spent: string): CopierCash {
    const cash = new CopierCash(balance, reserve);
    cash.bought(new Decimal(spent), ZERO, ZERO);
    return cash;
  }

  it('lets a buy spend down to the reserve, not past it', () => {
    // 1000 − 400 = 600 left; with a reserve of 100, 500 are free.
    const cash = walletAfter(1000, 100, '400');
    expect(cash.affords(new Decimal(490), new Decimal(4), new Decimal(6))).toBe(true); // 500: at the limit
    expect(cash.affords(new Decimal('490.0000000000000000000000000000000001'), new Decimal(4), new Decimal(6))).toBe(
      false,
    );
    expect(cash.affords(new Decimal(489), new Decimal(4), new Decimal(6))).toBe(true);
    expect(cash.affords(new Decimal(600), ZERO, ZERO)).toBe(false);
  });

  it('answers as the exact comparison for costs near and far from the free cash (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.stringMatching(/^[1-9]\d{0,5}\.\d{1,30}$/),
        fc.integer({ min: -9, max: 9 }),
        fc.integer({ min: 1, max: 39 }),
        (balance, reserve, spent, d, k) => {
          const cash = walletAfter(balance, reserve, spent);
          const free = cash.cash.minus(new Decimal(reserve));
          // A cost of the free cash times (1 + d × 10^-k), split into an amount and two fees.
          const cost = free.times(new Decimal(1).plus(new Decimal(`${d}e-${k}`)));
          const fee = new Decimal('0.25');
          const amount = cost.minus(fee).minus(fee);
          const exact = amount.plus(fee).plus(fee).lte(free);
          expect(cash.affords(amount, fee, fee)).toBe(exact);
        },
      ),
      { seed: 43, numRuns: 2000 },
    );
  });
});
