/**
 * The copier's equity test (copier-wallet.md 7): `CopierCash.changed` decides most changes of
 * cash from a bounded double-word equity and makes it exactly only when a comparison is too close
 * to call. Its answers (peak, drawdown in USD and percent, the points a report draws) must be
 * those of the exact comparison at every change, also when equities differ in their last digits.
 * The cash itself is an exact sum, rounded once to 40 digits when read: its readings, the lowest
 * cash and the cash check must be those of the exact sum, which a sum rounded after every change
 * can miss in the 40th digit.
 */
import { Decimal as DecimalJs } from 'decimal.js';
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

/**
 * Replays the steps through `CopierCash`, each step's cash reached by a sell of that cash with
 * the cash before it as its fee: the exact sum then holds the step's cash exactly.
 */
function quickly(balance: Decimal | null, steps: readonly { cash: Decimal; held: Decimal; offset?: number }[]) {
  const counter = { exact: 0, snapshots: 0, made: 0 };
  const wallet = new CopierCash(balance === null ? null : balance.toNumber(), 0, true);
  let previous = balance ?? ZERO;
  for (const [t, { cash, held, offset }] of steps.entries()) {
    wallet.sold(cash, previous, ZERO);
    previous = cash;
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

/** Wide enough that every sum of the tests below is exact. */
const Wide = DecimalJs.clone({ precision: 1000, rounding: DecimalJs.ROUND_HALF_EVEN, toExpNeg: -9e15, toExpPos: 9e15 });
type Wide = InstanceType<typeof Wide>;

/** An exact value read as the engine reads its cash: rounded once, half to even, to 40 digits. */
function read(exact: Wide): Decimal {
  return new Decimal(exact.toSignificantDigits(40).toString());
}

describe("the copier's cash: an exact sum, rounded once when read", () => {
  it('keeps the digits that a sum rounded after every change drops (hand-computed)', () => {
    // 2,000 less a buy of 999.5 leaves 1,000.5; two failed attempts pay 4e-37 each. Rounded to 40
    // digits after each, the cash stays 1,000.5 (1,000.4999…9996 has 41 digits and rounds up);
    // exactly it is 1,000.5 − 8e-37 = 1,000.4 and 35 nines and a 2, which reads as 1,000.4 and 35 nines.
    const cash = new CopierCash(2000, 0);
    cash.bought(new Decimal('999.5'), ZERO, ZERO);
    cash.failed(new Decimal('4e-37'));
    cash.failed(new Decimal('4e-37'));
    const reading = `1000.4${'9'.repeat(35)}`;
    expect(cash.cash.toString()).toBe(reading);
    // The lowest cash is that reading: 2,000 − 1,000.4999…9 = 999.5000…01 (36 decimals).
    expect(cash.capitalRequired.toString()).toBe(`999.5${'0'.repeat(34)}1`);
    // The whole 1,000.5 is no longer there to spend; the reading is.
    expect(cash.affords(new Decimal('1000.5'), ZERO, ZERO)).toBe(false);
    expect(cash.affords(new Decimal(reading), ZERO, ZERO)).toBe(true);
  });

  it('adds up what a sum rounded after every change rounds away (hand-computed)', () => {
    // 1,000 + 4e-37 rounds back to 1,000 at 40 digits, every time; twice exactly, 1,000 + 8e-37
    // reads as 1,000 and 1e-36. The equity is made from the reading: with a held value of
    // −1,000 (a double exactly: its reading has no bound) it is 0, then 1e-36, not the exact
    // sum's 8e-37.
    const cash = new CopierCash(1000, 0, true);
    const minus1000 = new Decimal(-1000);
    const held: HeldReading = {
      approximate(out) {
        out.set([-1000, 0, 0]);
      },
      exact: () => minus1000,
      snapshot: () => () => minus1000,
    };
    cash.sold(new Decimal('4e-37'), ZERO, ZERO);
    cash.changed(held, 0);
    cash.sold(new Decimal('4e-37'), ZERO, ZERO);
    cash.changed(held, 1);
    expect(cash.cash.toString()).toBe(`1000.${'0'.repeat(35)}1`);
    expect(cash.capitalRequired.toString()).toBe('0');
    expect(cash.points).toEqual([0, 1000, 0, 1, 1000, 1e-36]);
  });

  /** Amounts of up to 40 digits, moved by a few units in any digit from the 1st to the 40th. */
  const movedArb = fc
    .tuple(
      fc.constantFrom(
        '999.5',
        '0.1234567890123456789012345678901234567891',
        '123.4567890123456789012345678901234567891',
      ),
      fc.integer({ min: -3, max: 3 }),
      fc.integer({ min: -2, max: 40 }),
    )
    .map(([base, units, digits]) => new Decimal(base).plus(new Decimal(`${units}e${-digits}`)).abs());
  const feeArb = fc.constantFrom('0', '0.25', '1e-30', '4e-37', '0.003000000000000000000000000000000000000007');

  it('reads, keeps the lowest, and checks a buy as the exact sum does (fast-check)', () => {
    // Each round trip buys an amount and sells one near it, each paying a fee, or fails an attempt:
    // the cash comes back near its lowest, at any digit. Every decision and reading is the exact
    // sum's, the same rule as the copier's wallet states it.
    fc.assert(
      fc.property(
        fc.constantFrom(1000, 2000, 1_000_000),
        fc.constantFrom(0, 10, 0.1),
        fc.array(fc.tuple(movedArb, movedArb, feeArb, fc.boolean()), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: -9, max: 9 }),
        fc.integer({ min: 1, max: 39 }),
        (balance, reserve, trips, d, k) => {
          const counter = { exact: 0, snapshots: 0, made: 0 };
          const cash = new CopierCash(balance, reserve, true);
          let exact = new Wide(balance);
          let lowest = exact;
          const readings: { cash: Decimal; held: Decimal }[] = [];
          const moved = (delta: Wide) => {
            exact = exact.plus(delta);
            if (exact.lt(lowest)) lowest = exact;
            cash.changed(heldOf(ZERO, counter), readings.length);
            readings.push({ cash: read(exact), held: ZERO });
          };
          for (const [bought, sold, feeText, fails] of trips) {
            const fee = new Decimal(feeText);
            if (fails) {
              cash.failed(fee);
              moved(new Wide(fee.toString()).neg());
              continue;
            }
            cash.bought(bought, fee, ZERO);
            moved(new Wide(bought.toString()).plus(fee.toString()).neg());
            cash.sold(sold, ZERO, fee);
            moved(new Wide(sold.toString()).minus(fee.toString()));
          }
          expect(cash.cash.toString()).toBe(read(exact).toString());
          expect(cash.capitalRequired.toString()).toBe(new Decimal(balance).minus(read(lowest)).toString());
          const answers = exactly(new Decimal(balance), readings);
          expect({ drawdown: cash.maxDrawdown.toString(), percent: cash.drawdownPercent!.toString() }).toEqual({
            drawdown: answers.drawdown,
            percent: answers.percent,
          });
          expect(cash.points).toEqual(answers.points);
          // A cost of the free cash times (1 + d × 10^-k), split into an amount and two fees.
          const free = read(exact).minus(new Decimal(reserve));
          const cost = free.times(new Decimal(1).plus(new Decimal(`${d}e-${k}`)));
          const fee = new Decimal('0.25');
          const amount = cost.minus(fee).minus(fee);
          expect(cash.affords(amount, fee, fee)).toBe(amount.plus(fee).plus(fee).lte(free));
        },
      ),
      { numRuns: 500, seed: 47 },
    );
  });
});
