import { compareCoefficients, decimal40, Raw, zero40, type Decimal40Parts } from './decimal40-parts.js';
import { add } from './decimal40-add.js';
import { divide, multiply } from './decimal40-multiply-divide.js';
import { parse } from './decimal40-parse.js';
import { coefficientDigits, DecimalJs40, nearestNumber, plainText } from './decimal40-print.js';

/**
 * The engine's exact decimal: a floating decimal of 40 significant digits whose four operations
 * round half to even, giving exactly the results of decimal.js set to `precision: 40,
 * rounding: ROUND_HALF_EVEN` (a differential property test holds the two side by side, operation
 * by operation). It exists for speed: decimal.js keeps its digits in an array of any length and
 * handles every precision and rounding mode, which makes an addition cost about a microsecond;
 * this type knows its length (40 digits) and its rounding, keeps the digits in six small-integer
 * fields and works in locals and small typed scratch arrays, so an operation costs a few hundred
 * instructions and allocates one small object.
 *
 * Representation: `value = s × C × 10^e` with a 40-digit coefficient `C` in six base-10^7 limbs
 * (`decimal40-parts.ts`, where `Raw` builds every value). The work is done in modules of their
 * own: reading (`decimal40-parse.ts`), addition (`decimal40-add.ts`), multiplication and
 * division (`decimal40-multiply-divide.ts`), rounding long coefficients (`decimal40-rounding.ts`)
 * and printing (`decimal40-print.ts`).
 *
 * Two documented differences from decimal.js: a constructor input with more than 40 significant
 * digits is rounded half to even to 40 (decimal.js keeps them until the next operation), and
 * there is no negative zero.
 */
export class Decimal40 implements Decimal40Parts {
  // Declared, not initialised: every field is set once by `Raw`, in this order, with small
  // integers, so V8 keeps them as unboxed small integers in one object shape.
  /** Sign: 1 or -1 (zero is always 1). */
  declare readonly s: number;
  /** Exponent of the coefficient's last digit. */
  declare readonly e: number;
  /** The coefficient's six base-10^7 limbs, most significant first (`c0` below 10^5). */
  declare readonly c0: number;
  declare readonly c1: number;
  declare readonly c2: number;
  declare readonly c3: number;
  declare readonly c4: number;
  declare readonly c5: number;

  /**
   * Reads a decimal string or a finite number (as decimal.js does), or takes a Decimal40 as it
   * is (decimals are immutable). Every Decimal40, this one included, is built by `Raw`
   * (`decimal40-parts.ts`): the value made by `parse` is what the constructor returns.
   */
  constructor(value: Decimal40 | number | string) {
    return value instanceof Decimal40 ? value : (parse(value) as Decimal40);
  }

  static max(a: Decimal40, b: Decimal40): Decimal40 {
    return a.cmp(b) >= 0 ? a : b;
  }

  static min(a: Decimal40, b: Decimal40): Decimal40 {
    return a.cmp(b) <= 0 ? a : b;
  }

  plus(x: Operand): Decimal40 {
    const y = operand(x);
    return add(this, y, y.s) as Decimal40;
  }

  minus(x: Operand): Decimal40 {
    const y = operand(x);
    return add(this, y, -y.s) as Decimal40;
  }

  times(x: Operand): Decimal40 {
    return multiply(this, operand(x)) as Decimal40;
  }

  /** Throws a RangeError when `x` is zero. */
  div(x: Operand): Decimal40 {
    return divide(this, operand(x)) as Decimal40;
  }

  /** -1, 0 or 1 as this is below, equal to or above `x`. */
  cmp(x: Operand): number {
    const y = operand(x);
    if (this.c0 === 0) return y.c0 === 0 ? 0 : -y.s;
    if (y.c0 === 0 || this.s !== y.s) return this.s;
    const magnitude = this.e !== y.e ? (this.e > y.e ? 1 : -1) : compareCoefficients(this, y);
    return magnitude === 0 ? 0 : magnitude * this.s;
  }

  eq(x: Operand): boolean {
    return this.cmp(x) === 0;
  }

  lt(x: Operand): boolean {
    return this.cmp(x) < 0;
  }

  lte(x: Operand): boolean {
    return this.cmp(x) <= 0;
  }

  gt(x: Operand): boolean {
    return this.cmp(x) > 0;
  }

  gte(x: Operand): boolean {
    return this.cmp(x) >= 0;
  }

  isZero(): boolean {
    return this.c0 === 0;
  }

  isNegative(): boolean {
    return this.s < 0;
  }

  /** Strictly above zero. */
  isPositive(): boolean {
    return this.s > 0 && this.c0 !== 0;
  }

  neg(): Decimal40 {
    return this.c0 === 0
      ? this
      : (decimal40(-this.s, this.e, this.c0, this.c1, this.c2, this.c3, this.c4, this.c5) as Decimal40);
  }

  abs(): Decimal40 {
    return this.s > 0
      ? this
      : (decimal40(1, this.e, this.c0, this.c1, this.c2, this.c3, this.c4, this.c5) as Decimal40);
  }

  /** The nearest float64, as decimal.js's `toNumber` gives it. */
  toNumber(): number {
    return nearestNumber(this);
  }

  /**
   * A double within 2^-49 of the value, relatively, for magnitudes from 10^-250 to 10^250: the
   * coefficient takes eight roundings of its limbs, `10 ** e` is within a unit in the last place
   * and the product takes one more rounding, 11 × 2^-53 at most. Far cheaper than
   * {@link toNumber}: for quick tests in doubles that leave a wider margin.
   */
  toApproxNumber(): number {
    const coefficient = ((((this.c0 * 1e7 + this.c1) * 1e7 + this.c2) * 1e7 + this.c3) * 1e7 + this.c4) * 1e7 + this.c5;
    const power = POWERS_OF_TEN[this.e + POWERS_OFFSET];
    return this.s * coefficient * (power ?? 10 ** this.e);
  }

  /** Plain notation, never an exponent, as decimal.js prints with the project's settings. */
  toString(): string {
    return plainText(this);
  }

  /** As decimal.js's `toFixed` (half to even); formatting only, so it is decimal.js's own. */
  toFixed(decimalPlaces: number): string {
    return new DecimalJs40(this.toString()).toFixed(decimalPlaces);
  }

  /** As decimal.js's `toExponential` (half to even); formatting only. */
  toExponential(decimalPlaces: number): string {
    return new DecimalJs40(this.toString()).toExponential(decimalPlaces);
  }

  /** Rounded to a whole number, half away from zero. */
  roundHalfUp(): Decimal40 {
    if (this.c0 === 0 || this.e >= 0) return this;
    if (this.e <= -41) return ZERO40; // |value| < 10^(e + 40) ≤ 0.1
    const coefficient = BigInt(coefficientDigits(this));
    const unit = 10n ** BigInt(-this.e);
    let whole = coefficient / unit;
    if (2n * (coefficient - whole * unit) >= unit) whole += 1n;
    return whole === 0n ? ZERO40 : new Decimal40(`${this.s < 0 ? '-' : ''}${whole}`);
  }
}

type Operand = Decimal40 | number | string;

function operand(x: Operand): Decimal40 {
  return x instanceof Decimal40 ? x : new Decimal40(x);
}

// Every value is built by Raw, in the modules this one imports, which compute on the stored parts
// (`Decimal40Parts`). Giving Raw the class's prototype, before any value exists, makes each value
// a Decimal40: hence the casts of their results above.
(Raw as unknown as { prototype: object }).prototype = Decimal40.prototype;

/** `10 ** k` for `k` from -{@link POWERS_OFFSET} to 308 as the operator gives it ({@link Decimal40.toApproxNumber}). */
const POWERS_OFFSET = 400;
const POWERS_OF_TEN = Float64Array.from({ length: POWERS_OFFSET + 309 }, (_, k) => 10 ** (k - POWERS_OFFSET));

/** Zero: the one Decimal40 zero, which every operation returns for a zero result. */
export const ZERO40 = zero40() as Decimal40;
