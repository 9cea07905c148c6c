import { ExactSum, toJsonNumber, type Decimal } from '../model/decimal.js';
import { accumulate, ADDITION_ERROR, addWords, CONVERSION_ERROR, decide40, multiplyWords, PRODUCT_ERROR, restartAt, toWord, W } from '../model/double-word.js';

/**
 * A sum the PnL chart prints: its double word and the bound on its distance to the exact sum, in
 * a typed array (double fields of an object may be kept as boxed numbers, one allocation a
 * store), and its exact value.
 */
export abstract class BoundedSum {
  /** The double word (high, low) and the bound, then any doubles of the subclass's own. */
  protected readonly state: Float64Array;
  protected readonly exact = new ExactSum();
  /** Readings that had to read the exact sum (for tests and diagnostics). */
  exactReadings = 0;

  constructor(doubles: number) {
    this.state = new Float64Array(doubles);
  }

  get high(): number {
    return this.state[0]!;
  }

  get low(): number {
    return this.state[1]!;
  }

  get bound(): number {
    return this.state[2]!;
  }

  /** The exact sum rounded half to even to 40 digits. */
  abstract value(): Decimal;
}

/**
 * A running sum of the PnL chart (gains, fees), printed after every trade as the double
 * nearest to its exact value rounded to 40 digits. The terms go into an {@link ExactSum} (a few
 * multiply-adds, no rounding) and into a double-word sum with a bound on its error; a reading
 * decides the printed double from the double word, and only when the bound reaches the edge of a
 * double's rounding cell reads the exact sum (see `decide` in `model/double-word.ts`). The
 * printed numbers are the exact ones; a reading costs a few dozen floating-point operations
 * instead of a 40-digit addition per term and a rounding.
 */
export class RunningSum extends BoundedSum {
  /** The last factor of {@link addProduct}, whose double word is kept in `state` (3 and 4). */
  private factor: Decimal | null = null;

  constructor() {
    super(5);
  }

  /** Adds `sign × d` (`sign` 1 or -1). */
  add(d: Decimal, sign = 1): void {
    if (d.c0 === 0) return;
    this.exact.add(d, sign);
    toWord(d);
    const high = sign * W[0]!;
    accumulate(this.state, high, sign * W[1]!, Math.abs(high) * CONVERSION_ERROR);
  }

  /**
   * Adds `sign × a × b`, the exact product (no 40-digit rounding). `b` is meant to change
   * seldom (a rate): its double word is made once for each new `b`.
   */
  addProduct(a: Decimal, b: Decimal, sign = 1): void {
    if (a.c0 === 0 || b.c0 === 0) return;
    this.exact.addProduct(a, b, sign);
    const state = this.state;
    if (b !== this.factor) {
      toWord(b);
      state[3] = W[0]!;
      state[4] = W[1]!;
      this.factor = b;
    }
    toWord(a);
    multiplyWords(W[0]!, W[1]!, state[3]!, state[4]!);
    const high = sign * W[0]!;
    accumulate(state, high, sign * W[1]!, Math.abs(high) * PRODUCT_TERM_ERROR);
  }

  /** Adds this sum's exact value, times `sign`, to `sum`. */
  addExactTo(sum: ExactSum, sign: 1 | -1): void {
    sum.addSum(this.exact, sign);
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

/**
 * A product of two conversions (< 2^-100 each, counted as {@link CONVERSION_ERROR}) and a
 * double-word product ({@link PRODUCT_ERROR}).
 */
const PRODUCT_TERM_ERROR = 2 * CONVERSION_ERROR + PRODUCT_ERROR;

/**
 * `a + b` or `a + b + c` of running sums, each with a sign, read as a {@link RunningSum} is: the
 * chart's fee sum (network fees plus bot fees) and realized PnL (gains less both), which keep no
 * running sums of their own. A reading adds the parts' double words and bounds; when that does
 * not decide the printed double, it adds their exact sums.
 */
export class CombinedSum extends BoundedSum {
  // `state` holds the last reading's double word and bound; `exact` is scratch for an exact reading.
  constructor(
    private readonly a: RunningSum,
    private readonly aSign: 1 | -1,
    private readonly b: RunningSum,
    private readonly bSign: 1 | -1,
    private readonly c: RunningSum | null = null,
    private readonly cSign: 1 | -1 = 1,
  ) {
    super(3);
  }

  /** The exact sum of the parts rounded half to even to 40 digits. */
  value(): Decimal {
    const sum = this.exact;
    sum.clear();
    this.a.addExactTo(sum, this.aSign);
    this.b.addExactTo(sum, this.bSign);
    this.c?.addExactTo(sum, this.cSign);
    return sum.value();
  }

  /** The double nearest to {@link value}. */
  read(): number {
    const { a, b, c, state } = this;
    const aSign = this.aSign;
    const bSign = this.bSign;
    addWords(aSign * a.high, aSign * a.low, bSign * b.high, bSign * b.low);
    let high = W[0]!;
    let low = W[1]!;
    let bound = a.bound + b.bound + Math.abs(high) * ADDITION_ERROR;
    if (c !== null) {
      const cSign = this.cSign;
      addWords(high, low, cSign * c.high, cSign * c.low);
      high = W[0]!;
      low = W[1]!;
      bound += c.bound + Math.abs(high) * ADDITION_ERROR;
    }
    state[0] = high;
    state[1] = low;
    state[2] = bound;
    // No error at all: every part is exactly 0.
    if (bound === 0) return 0;
    const printed = decide40(high, low, bound);
    if (printed === printed) return printed;
    this.exactReadings++;
    return toJsonNumber(this.value());
  }
}
