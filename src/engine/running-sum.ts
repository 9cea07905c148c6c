import { ExactSum, toJsonNumber, type Decimal } from '../model/decimal.js';
import { accumulate, CONVERSION_ERROR, decide40, restartAt, toWord, W } from '../model/double-word.js';

/**
 * A running sum of the PnL chart (realized PnL, fees), printed after every trade as the double
 * nearest to its exact value rounded to 40 digits. The terms go into an {@link ExactSum} (a few
 * multiply-adds, no rounding) and into a double-word sum with a bound on its error; a reading
 * decides the printed double from the double word, and only when the bound reaches the edge of a
 * double's rounding cell reads the exact sum (see `decide` in `model/double-word.ts`). The
 * printed numbers are the exact ones; a reading costs a few dozen floating-point operations
 * instead of a 40-digit addition per term and a rounding.
 */
export class RunningSum {
  /**
   * The sum as a double word and a bound on its distance to the exact sum: in a typed array, as
   * double fields of an object may be kept as boxed numbers, one allocation a store.
   */
  private readonly state = new Float64Array(3);
  /** Readings that had to read the exact sum (for tests and diagnostics). */
  exactReadings = 0;
  private readonly exact = new ExactSum();

  get high(): number {
    return this.state[0]!;
  }

  get low(): number {
    return this.state[1]!;
  }

  get bound(): number {
    return this.state[2]!;
  }

  /** Adds `sign × d` (`sign` 1 or -1). */
  add(d: Decimal, sign = 1): void {
    if (d.c0 === 0) return;
    this.exact.add(d, sign);
    toWord(d);
    const high = sign * W[0]!;
    accumulate(this.state, high, sign * W[1]!, Math.abs(high) * CONVERSION_ERROR);
  }

  /** The exact sum rounded half to even to 40 digits. */
  value(): Decimal {
    return this.exact.value();
  }

  /** The double nearest to {@link value}. */
  read(): number {
    const state = this.state;
    // No error at all: only zeros were added, the sum is exactly 0.
    if (state[2] === 0) return 0;
    const printed = decide40(state[0]!, state[1]!, state[2]!);
    if (printed === printed) return printed;
    this.exactReadings++;
    const value = this.exact.value();
    restartAt(state, value);
    return toJsonNumber(value);
  }
}
