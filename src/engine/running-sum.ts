import { ExactSum, toJsonNumber, type Decimal } from '../model/decimal.js';
import { addWords, decide, toWord, W } from '../model/double-word.js';

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
    const term = sign * W[0]!;
    const state = this.state;
    addWords(state[0]!, state[1]!, term, sign * W[1]!);
    const sum = W[0]!;
    state[0] = sum;
    state[1] = W[1]!;
    // The term's conversion errs by < 2^-100 of it, the addition by < 2^-104 of the result.
    state[2] = state[2]! + Math.abs(term) * TWO_M98 + Math.abs(sum) * TWO_M100;
  }

  /** The exact sum rounded half to even to 40 digits. */
  value(): Decimal {
    return this.exact.value();
  }

  /** The double nearest to {@link value}. */
  read(): number {
    // No error at all: only zeros were added, the sum is exactly 0.
    const state = this.state;
    const high = state[0]!;
    if (state[2] === 0) return 0;
    const printed = decide(high, state[1]!, state[2]! * SAFETY + Math.abs(high) * TWO_M128);
    if (printed === printed) return printed;
    this.exactReadings++;
    const value = this.exact.value();
    toWord(value);
    state[0] = W[0]!;
    state[1] = W[1]!;
    state[2] = Math.abs(W[0]!) * TWO_M98;
    return toJsonNumber(value);
  }
}

const TWO_M98 = 2 ** -98;
const TWO_M100 = 2 ** -100;
/** The 40-digit rounding moves a value by at most 5 × 10^-40 of itself, below 2^-128. */
const TWO_M128 = 2 ** -128;
/** Covers the rounding of the bound's own arithmetic (relative 2^-53 a step). */
const SAFETY = 1.001;
