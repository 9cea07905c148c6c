import { Decimal as DecimalJs } from 'decimal.js';
import { nearestDouble, POW10 } from './nearest-double.js';

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
 * Representation: `value = s × C × 10^e`, where the coefficient `C` has exactly 40 digits, kept
 * as six base-10^7 limbs `c0…c5` (`10^4 ≤ c0 < 10^5`), unless the value is zero (every limb 0,
 * `s = 1`, `e = 0`). Limbs below 10^7 are small integers, which V8 stores unboxed in the object
 * when they are stored as such (see `decimal40`, which builds every value).
 * The working arrays hold limbs of the same base, most significant first, so a product of two
 * limbs (< 10^14) and a column of six such products stay far below 2^53: exact in a float64.
 *
 * Two documented differences from decimal.js: a constructor input with more than 40 significant
 * digits is rounded half to even to 40 (decimal.js keeps them until the next operation), and
 * there is no negative zero.
 */
export class Decimal40 {
  // Declared, not initialised: every field is set once by `decimal40`, in this order, with small
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
   * is (decimals are immutable). Every Decimal40, this one included, is built by
   * {@link decimal40}: the value made by `parse` is what the constructor returns.
   */
  constructor(value: Decimal40 | number | string) {
    return value instanceof Decimal40 ? value : parse(value);
  }

  static max(a: Decimal40, b: Decimal40): Decimal40 {
    return a.cmp(b) >= 0 ? a : b;
  }

  static min(a: Decimal40, b: Decimal40): Decimal40 {
    return a.cmp(b) <= 0 ? a : b;
  }

  plus(x: Operand): Decimal40 {
    const y = operand(x);
    return add(this, y, y.s);
  }

  minus(x: Operand): Decimal40 {
    const y = operand(x);
    return add(this, y, -y.s);
  }

  times(x: Operand): Decimal40 {
    return multiply(this, operand(x));
  }

  /** Throws a RangeError when `x` is zero. */
  div(x: Operand): Decimal40 {
    return divide(this, operand(x));
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
    return this.c0 === 0 ? this : decimal40(-this.s, this.e, this.c0, this.c1, this.c2, this.c3, this.c4, this.c5);
  }

  abs(): Decimal40 {
    return this.s > 0 ? this : decimal40(1, this.e, this.c0, this.c1, this.c2, this.c3, this.c4, this.c5);
  }

  /** The nearest float64, as decimal.js's `toNumber` gives it. */
  toNumber(): number {
    if (this.c0 === 0) return 0;
    const nearest = nearestDouble(this.e, this.c0, this.c1, this.c2, this.c3, this.c4, this.c5);
    if (!Number.isNaN(nearest)) return this.s * nearest;
    return Number(`${this.s < 0 ? '-' : ''}${this.coefficientDigits()}e${this.e}`);
  }

  /** Plain notation, never an exponent, as decimal.js prints with the project's settings. */
  toString(): string {
    if (this.c0 === 0) return '0';
    const digits = this.coefficientDigits().replace(/0+$/, '');
    const exponent = this.e + 40 - digits.length;
    const sign = this.s < 0 ? '-' : '';
    if (exponent >= 0) return sign + digits + '0'.repeat(exponent);
    const point = digits.length + exponent;
    if (point > 0) return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
    return `${sign}0.${'0'.repeat(-point)}${digits}`;
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
    const coefficient = BigInt(this.coefficientDigits());
    const unit = 10n ** BigInt(-this.e);
    let whole = coefficient / unit;
    if (2n * (coefficient - whole * unit) >= unit) whole += 1n;
    return whole === 0n ? ZERO40 : new Decimal40(`${this.s < 0 ? '-' : ''}${whole}`);
  }

  /** The 40 digits of the coefficient. */
  private coefficientDigits(): string {
    // Pairs of limbs make exact 14-digit integers: fewer pieces to pad and join.
    return `${this.c0}${pad14(this.c1 * BASE + this.c2)}${pad14(this.c3 * BASE + this.c4)}${String(this.c5).padStart(7, '0')}`;
  }
}

type Operand = Decimal40 | number | string;

/** The fields of a Decimal40 as {@link decimal40} writes them. */
type Parts = { -readonly [K in 's' | 'e' | 'c0' | 'c1' | 'c2' | 'c3' | 'c4' | 'c5']: number };

/**
 * Builds every Decimal40: a plain constructor function sharing the class's prototype (so
 * `instanceof` and the methods hold), which stores the eight fields and nothing else. Being
 * this small, V8 inlines it into each operation, where the class constructor (which also reads
 * strings and numbers) would not be; and since no Decimal40 is made any other way, all of them
 * share one object shape.
 *
 * `| 0` makes each limb a small integer before it is stored: a limb read from a Float64Array is
 * a float64, and stored as one it would make V8 box every limb of every Decimal40 separately (six
 * more allocations a value). Limbs are integers below 10^7.
 */
const Raw = function (this: Parts, s: number, e: number, c0: number, c1: number, c2: number, c3: number, c4: number, c5: number): void {
  this.s = s;
  this.e = e;
  this.c0 = c0 | 0;
  this.c1 = c1 | 0;
  this.c2 = c2 | 0;
  this.c3 = c3 | 0;
  this.c4 = c4 | 0;
  this.c5 = c5 | 0;
} as unknown as new (s: number, e: number, c0: number, c1: number, c2: number, c3: number, c4: number, c5: number) => Decimal40;
Raw.prototype = Decimal40.prototype;

/** @internal The decimal `s × C × 10^e` from its stored parts (no checks): see {@link Decimal40}. */
export function decimal40(s: number, e: number, c0: number, c1: number, c2: number, c3: number, c4: number, c5: number): Decimal40 {
  return new Raw(s, e, c0, c1, c2, c3, c4, c5);
}

/**
 * decimal.js itself at the same settings, a private clone so a caller's global Decimal settings
 * never leak in: the reference `Decimal40` reproduces, and its formatter.
 */
export const DecimalJs40 = DecimalJs.clone({ precision: 40, rounding: DecimalJs.ROUND_HALF_EVEN, toExpNeg: -9e15, toExpPos: 9e15 });

const BASE = 1e7;
/** The top limb of a 40-digit coefficient lies in [C0_START, C0_END). */
const C0_START = 1e4;
const C0_END = 1e5;
/**
 * Reciprocals for the limb splits: a product by `1e-k` is much cheaper than a division by
 * `1e k`; it may land one off after `floor`, which every split corrects.
 */
const INV_BASE = 1e-7;
const INV_POW10: readonly number[] = POW10.map((p) => 1 / p);

export const ZERO40 = decimal40(1, 0, 0, 0, 0, 0, 0, 0);

function operand(x: Operand): Decimal40 {
  return x instanceof Decimal40 ? x : new Decimal40(x);
}

function pad14(x: number): string {
  return String(x).padStart(14, '0');
}

function compareCoefficients(a: Decimal40, b: Decimal40): number {
  if (a.c0 !== b.c0) return a.c0 > b.c0 ? 1 : -1;
  if (a.c1 !== b.c1) return a.c1 > b.c1 ? 1 : -1;
  if (a.c2 !== b.c2) return a.c2 > b.c2 ? 1 : -1;
  if (a.c3 !== b.c3) return a.c3 > b.c3 ? 1 : -1;
  if (a.c4 !== b.c4) return a.c4 > b.c4 ? 1 : -1;
  if (a.c5 !== b.c5) return a.c5 > b.c5 ? 1 : -1;
  return 0;
}

// ---- parsing --------------------------------------------------------------------------------

function parse(value: number | string): Decimal40 {
  if (typeof value === 'string') return parseText(value);
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`not a finite number or decimal string: ${String(value)}`);
  if (value === 0) return ZERO40;
  if (Number.isSafeInteger(value)) {
    // Three limbs hold any safe integer; round40 left-aligns them without rounding.
    const magnitude = Math.abs(value);
    const top = Math.floor(magnitude / 1e14);
    const middle = Math.floor((magnitude - top * 1e14) / BASE);
    WORK[0] = top;
    WORK[1] = middle;
    WORK[2] = magnitude - top * 1e14 - middle * BASE;
    return round40(WORK, 3, false, 0, value < 0 ? -1 : 1);
  }
  // decimal.js reads a number as its shortest decimal text, String(value).
  return parseText(String(value));
}

/** Digits each limb of a 40-digit coefficient holds: five, then six times seven. */
const LIMB_DIGITS = [5, 7, 7, 7, 7, 7];

/** Reads a decimal string: most of those a tape holds on the short path, the rest on the long one. */
function parseText(text: string): Decimal40 {
  return parseShortText(text) ?? parseLongText(text);
}

/**
 * Reads a well-formed decimal string of at most 15 significant digits (a price, an amount or a
 * quantity as a tape writes them) into `out`: its digits as one integer with its sign (exact in a
 * float64 below 10^15), the exponent of its last digit and the number of significant digits.
 * False for any other string, which the long path then reads (or rejects, with its message).
 * Shared by {@link parseShortText} and the double words of `double-word.ts`.
 */
export function scanShortDecimal(text: string, out: Float64Array): boolean {
  const length = text.length;
  let i = 0;
  let sign = 1;
  const first = text.charCodeAt(0);
  if (first === 45 /* - */) {
    sign = -1;
    i++;
  }
  let value = 0;
  let digits = 0;
  let significant = 0;
  let fractionDigits = 0;
  let point = false;
  let exponent = 0;
  for (; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      digits++;
      if (point) fractionDigits++;
      if (significant === 0 && c === 48) continue;
      if (++significant > 15) return false;
      value = value * 10 + (c - 48);
    } else if (c === 46 /* . */ && !point) {
      point = true;
    } else if ((c === 101 || c === 69) /* e E */ && digits > 0) {
      exponent = parseExponent(text, i + 1);
      // NaN (malformed) fails both tests; an exponent beyond ±10^9 is left to the long path.
      if (!(exponent >= -1e9 && exponent <= 1e9)) return false;
      break;
    } else {
      return false;
    }
  }
  if (digits === 0) return false;
  out[0] = sign * value;
  out[1] = exponent - fractionDigits;
  out[2] = significant;
  return true;
}

/**
 * {@link parseLongText} for a string {@link scanShortDecimal} reads, or null for any other. The
 * digits are cut into the three top limbs at the end: no limb array to clear and fill digit by
 * digit.
 */
function parseShortText(text: string): Decimal40 | null {
  if (!scanShortDecimal(text, SCANNED)) return null;
  const significant = SCANNED[2]!;
  if (significant === 0) return ZERO40;
  const signed = SCANNED[0]!;
  const sign = signed < 0 ? -1 : 1;
  const value = signed * sign;
  const lastDigitExponent = SCANNED[1]!;
  // The coefficient is `value × 10^(40 − significant)`: five digits in c0, seven in c1, c2.
  const e = (lastDigitExponent - (40 - significant)) | 0;
  if (significant <= 5) return new Raw(sign, e, value * POW10[5 - significant]!, 0, 0, 0, 0, 0);
  // `value / 10^k` rounds to the integer below it or to the exact quotient (the gap to the next
  // integer is at least 10^-k, far above the rounding error), so `floor` cuts exactly.
  const belowTop = POW10[significant - 5]!;
  const c0 = Math.floor(value / belowTop);
  const rest = value - c0 * belowTop;
  if (significant <= 12) return new Raw(sign, e, c0, rest * POW10[12 - significant]!, 0, 0, 0, 0);
  const belowSecond = POW10[significant - 12]!;
  const c1 = Math.floor(rest / belowSecond);
  return new Raw(sign, e, c0, c1, (rest - c1 * belowSecond) * POW10[19 - significant]!, 0, 0, 0);
}

/**
 * Reads a decimal string (`[+-]digits[.digits][e[+-]digits]`, at least one digit before the
 * exponent) in one pass: the first 40 significant digits go straight into their limbs, the
 * 41st and whether any later one is nonzero decide the rounding.
 */
function parseLongText(text: string): Decimal40 {
  const length = text.length;
  let i = 0;
  let sign = 1;
  const first = text.charCodeAt(0);
  if (first === 45 /* - */) {
    sign = -1;
    i++;
  } else if (first === 43 /* + */) {
    i++;
  }
  const limbs = PARSED;
  limbs.fill(0);
  let digits = 0; // every digit read, zeros included
  let significant = 0; // digits from the first nonzero one
  let fractionDigits = 0;
  let point = false;
  let roundingDigit = 0;
  let sticky = false;
  let exponent = 0;
  for (; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      digits++;
      if (point) fractionDigits++;
      const d = c - 48;
      if (significant === 0 && d === 0) continue;
      if (significant < 40) {
        const k = significant < 5 ? 0 : 1 + Math.floor((significant - 5) / 7);
        limbs[k] = limbs[k]! * 10 + d;
      } else if (significant === 40) {
        roundingDigit = d;
      } else if (d !== 0) {
        sticky = true;
      }
      significant++;
    } else if (c === 46 /* . */ && !point) {
      point = true;
    } else if ((c === 101 || c === 69) /* e E */ && digits > 0) {
      exponent = parseExponent(text, i + 1);
      if (Number.isNaN(exponent)) throw notADecimal(text);
      break;
    } else {
      throw notADecimal(text);
    }
  }
  if (digits === 0) throw notADecimal(text);
  if (significant === 0) return ZERO40;
  let e = exponent - fractionDigits;
  let roundUp = false;
  if (significant > 40) {
    e += significant - 40;
    roundUp = roundingDigit > 5 || (roundingDigit === 5 && (sticky || limbs[5]! % 2 === 1));
  } else {
    e -= 40 - significant;
    // Left-align the limb the last digit fell in; the limbs after it are zero.
    let k = 0;
    let filled = significant;
    while (filled > LIMB_DIGITS[k]!) filled -= LIMB_DIGITS[k++]!;
    limbs[k] = limbs[k]! * POW10[LIMB_DIGITS[k]! - filled]!;
  }
  return fromLimbs(sign, e, limbs, 0, roundUp);
}

/**
 * The exponent after an `e` at `from`: an optional sign and at least one digit, to the end; NaN
 * when the text there is not that.
 */
function parseExponent(text: string, from: number): number {
  let i = from;
  let sign = 1;
  const c = text.charCodeAt(i);
  if (c === 45 || c === 43) {
    if (c === 45) sign = -1;
    i++;
  }
  if (i >= text.length) return NaN;
  let value = 0;
  for (; i < text.length; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    value = value * 10 + d;
  }
  return sign * value;
}

function notADecimal(text: string): TypeError {
  return new TypeError(`not a decimal: ${JSON.stringify(text)}`);
}

// ---- arithmetic -----------------------------------------------------------------------------

// Scratch arrays, base-10^7 limbs, most significant first. Every operation fills what it reads.
const X = new Float64Array(6);
const Y = new Float64Array(6);
const WORK = new Float64Array(14);
const REMAINDER = new Float64Array(13);
const SHIFTED = new Float64Array(14);
/**
 * The limbs that roundTop rounds, `COLUMNS[1, 7)`: a product's top column sums, or a division's
 * quotient limbs (its first one in `COLUMNS[0]`).
 */
const COLUMNS = new Float64Array(7);
const PARSED = new Float64Array(6);
/** What {@link scanShortDecimal} read for {@link parseShortText}. */
const SCANNED = new Float64Array(3);

/** @internal The coefficient of `d` as six base-10^7 limbs into `out`. */
export function unpack(d: Decimal40, out: Float64Array): void {
  out[0] = d.c0;
  out[1] = d.c1;
  out[2] = d.c2;
  out[3] = d.c3;
  out[4] = d.c4;
  out[5] = d.c5;
}

/**
 * The decimal `sign × L × 10^e` for the 40-digit coefficient `L` in `limbs[at, at + 6)`, plus
 * one unit in its last place when `roundUp` (carrying up to 10^40 = 10^39 × 10).
 */
function fromLimbs(sign: number, e: number, limbs: Float64Array, at: number, roundUp: boolean): Decimal40 {
  let c0 = limbs[at]!;
  let c1 = limbs[at + 1]!;
  let c2 = limbs[at + 2]!;
  let c3 = limbs[at + 3]!;
  let c4 = limbs[at + 4]!;
  let c5 = limbs[at + 5]!;
  if (roundUp && ++c5 === BASE) {
    c5 = 0;
    if (++c4 === BASE) {
      c4 = 0;
      if (++c3 === BASE) {
        c3 = 0;
        if (++c2 === BASE) {
          c2 = 0;
          if (++c1 === BASE) {
            c1 = 0;
            if (++c0 === C0_END) {
              c0 = C0_START;
              e++;
            }
          }
        }
      }
    }
  }
  return new Raw(sign, e, c0, c1, c2, c3, c4, c5);
}

/**
 * `floor(v / unit)` exactly, for an integer `|v| < 2^53` and `unit = 10^k` with `inverse =
 * 10^-k`: a product by the inverse is much cheaper than a division and lands at most one off
 * (its rounding error is far below one unit), which the remainder's sign or size corrects.
 */
function floorDiv(v: number, unit: number, inverse: number): number {
  const q = Math.floor(v * inverse);
  const rest = v - q * unit;
  return rest < 0 ? q - 1 : rest >= unit ? q + 1 : q;
}

/**
 * Writes `limbs[from, to) × factor` (factor a power of ten below 10^7) as base-10^7 limbs ending
 * at `out[outEnd]`, and returns the carry out of the top limb.
 */
function scaleLimbs(limbs: Float64Array, from: number, to: number, factor: number, out: Float64Array, outEnd: number): number {
  let carry = 0;
  for (let j = to - 1, at = outEnd; j >= from; j--, at--) {
    const v = limbs[j]! * factor + carry;
    carry = floorDiv(v, BASE, INV_BASE);
    out[at] = v - carry * BASE;
  }
  return carry;
}

/**
 * Normalises the carries of `limbs[top, end)` into base 10^7: every limb but the top one ends in
 * [0, BASE), the top one takes what is carried out. Limbs may come negative (a division's
 * remainder); all must be integers of magnitude below 2^53.
 */
function propagateCarries(limbs: Float64Array, top: number, end: number): void {
  for (let j = end - 1; j > top; j--) {
    const v = limbs[j]!;
    if (v >= 0 && v < BASE) continue;
    const carry = floorDiv(v, BASE, INV_BASE);
    limbs[j] = v - carry * BASE;
    limbs[j - 1] = limbs[j - 1]! + carry;
  }
}

function digitCount(x: number): number {
  if (x < 1e3) return x < 10 ? 1 : x < 100 ? 2 : 3;
  if (x < 1e5) return x < 1e4 ? 4 : 5;
  return x < 1e6 ? 6 : 7;
}

function anyNonZero(limbs: Float64Array, from: number, to: number): boolean {
  for (let j = from; j < to; j++) if (limbs[j] !== 0) return true;
  return false;
}

/**
 * The decimal `sign × A × 10^lowExp` rounded half to even to 40 digits, where `A` is the integer
 * in `limbs[0, length)` (base 10^7) and `sticky` says a nonzero amount below `A`'s last digit was
 * left out (a division's remainder). `A` must have at least 41 digits when `sticky` is set.
 * The limbs are used as scratch.
 * @internal
 */
export function round40(limbs: Float64Array, length: number, sticky: boolean, lowExp: number, sign: number): Decimal40 {
  let top = 0;
  while (top < length && limbs[top] === 0) top++;
  if (top === length) return ZERO40;
  const total = digitCount(limbs[top]!) + 7 * (length - 1 - top);
  if (total <= 40) return exact40(limbs, top, length, 40 - total, lowExp, sign);

  const cut = total - 40;
  const dropped = Math.floor(cut / 7);
  const digitsInLimb = cut - 7 * dropped;
  const keep = length - dropped; // limbs [top, keep) hold floor(A / 10^(7·dropped))
  let above: number; // the discarded part against half a unit: -1, 0 or 1
  if (digitsInLimb > 0) {
    const unit = POW10[digitsInLimb]!;
    const inverse = INV_POW10[digitsInLimb]!;
    // Each kept limb splits into its top (7 − k) digits and its last k; a new limb is the last k
    // digits of the limb before, shifted up, and the top of this one: no carry chain.
    const scale = BASE / unit;
    let rest = 0;
    for (let j = top; j < keep; j++) {
      const limb = limbs[j]!;
      const high = floorDiv(limb, unit, inverse);
      limbs[j] = rest * scale + high;
      rest = limb - high * unit;
    }
    const half = unit / 2;
    above = rest > half ? 1 : rest < half ? -1 : sticky || anyNonZero(limbs, keep, length) ? 1 : 0;
  } else {
    const first = limbs[keep]!;
    above = first > 5e6 ? 1 : first < 5e6 ? -1 : sticky || anyNonZero(limbs, keep + 1, length) ? 1 : 0;
  }
  // Exactly 40 digits are left: they sit in the last six kept limbs.
  const last = limbs[keep - 1]!;
  return fromLimbs(sign, lowExp + cut, limbs, keep - 6, above > 0 || (above === 0 && last % 2 === 1));
}

/** `A × 10^shift` for an `A` of at most 40 digits in `limbs[top, length)`: no rounding. */
function exact40(limbs: Float64Array, top: number, length: number, shift: number, lowExp: number, sign: number): Decimal40 {
  const zeroLimbs = Math.floor(shift / 7);
  const factor = POW10[shift - 7 * zeroLimbs]!;
  SHIFTED.fill(0);
  // Written right-aligned so the result's 40 digits land in SHIFTED[8, 14).
  const end = 13 - zeroLimbs;
  SHIFTED[end - (length - top)] = scaleLimbs(limbs, top, length, factor, SHIFTED, end);
  return fromLimbs(sign, lowExp - shift, SHIFTED, 8, false);
}

/** `a + ySign × |b|`. */
function add(a: Decimal40, b: Decimal40, ySign: number): Decimal40 {
  if (b.c0 === 0) return a;
  if (a.c0 === 0) return ySign === b.s ? b : b.neg();
  // x is the operand of the larger magnitude.
  let x = a;
  let xSign = a.s;
  let y = b;
  let order = a.e - b.e;
  if (order === 0) order = compareCoefficients(a, b);
  if (order < 0) {
    x = b;
    xSign = ySign;
    y = a;
    ySign = a.s;
  }
  const d = x.e - y.e;
  // y is below a thousandth of x's last unit: x is the correctly rounded result (also when x
  // is a power of ten and the difference has one more 9 than x has digits).
  if (d > 42) return xSign === x.s ? x : x.neg();
  const subtract = xSign !== ySign;
  if (subtract && order === 0) return ZERO40;
  const aligned = addAtScaleOfX(x, y, d, subtract, xSign);
  if (aligned !== null) return aligned;
  // Leading digits cancelled. With equal exponents WORK[0, 6) already holds the exact difference.
  if (d === 0) return round40(WORK, 6, false, x.e, xSign);

  // WORK[0, length) = |x| × 10^d, then |y| added or taken at the bottom.
  const zeroLimbs = Math.floor(d / 7);
  const factor = POW10[d - 7 * zeroLimbs]!;
  const length = 7 + zeroLimbs;
  unpack(x, X);
  WORK[0] = scaleLimbs(X, 0, 6, factor, WORK, 6);
  for (let j = 7; j < length; j++) WORK[j] = 0;

  unpack(y, Y);
  addLimbs(WORK, length, Y, length - 6, subtract, 0, WORK);
  return round40(WORK, length, false, y.e, xSign);
}

/**
 * `out[k] = a[k] ± b[k − offset]` for k from `length − 1` down to 0 (`b` is 0 outside its six
 * limbs), with the carry (adding) or borrow (subtracting) passed up from limb to limb, starting
 * with `flow`. Gives what flows out of limb 0. `out` may be `a`.
 */
function addLimbs(a: Float64Array, length: number, b: Float64Array, offset: number, subtract: boolean, flow: number, out: Float64Array): number {
  for (let k = length - 1; k >= 0; k--) {
    const i = k - offset;
    const w = i >= 0 && i < 6 ? b[i]! : 0;
    let v: number;
    if (subtract) {
      v = a[k]! - w - flow;
      flow = v < 0 ? 1 : 0;
      if (flow) v += BASE;
    } else {
      v = a[k]! + w + flow;
      flow = v >= BASE ? 1 : 0;
      if (flow) v -= BASE;
    }
    out[k] = v;
  }
  return flow;
}

/**
 * `|x| ± |y|` when `y`'s exponent is `d ≥ 0` below `x`'s, computed at `x`'s scale: `y` is shifted
 * down by `d` digits instead of `x` up, so the 40 digits of the result (41 after a carry) already
 * sit in `x`'s limbs and the digits of `y` shifted out only decide the rounding. Null when a
 * subtraction leaves fewer than 40 digits (the general path handles that cancellation).
 */
function addAtScaleOfX(x: Decimal40, y: Decimal40, d: number, subtract: boolean, sign: number): Decimal40 | null {
  if (d < 7) return addWithinALimb(x, y, d, subtract, sign);
  unpack(x, X);
  unpack(y, Y);
  const droppedLimbs = Math.floor(d / 7);
  const digits = d - 7 * droppedLimbs;
  // Z = floor(|y| / 10^digits) in place in Y; `rest` = |y| mod 10^digits.
  let rest = 0;
  if (digits > 0) {
    const unit = POW10[digits]!;
    const inverse = INV_POW10[digits]!;
    const scale = BASE / unit;
    for (let k = 0; k < 6; k++) {
      const limb = Y[k]!;
      const high = floorDiv(limb, unit, inverse);
      Y[k] = rest * scale + high;
      rest = limb - high * unit;
    }
  }
  // The part of |y| below x's last digit, R (d digits), against half a unit: -1, 0 or 1.
  let versusHalf: number;
  let belowNonZero: boolean;
  if (droppedLimbs > 0) {
    const top = Y[6 - droppedLimbs]!;
    const lower = rest !== 0 || anyNonZero(Y, 7 - droppedLimbs, 6);
    versusHalf = top > 5e6 ? 1 : top < 5e6 ? -1 : lower ? 1 : 0;
    belowNonZero = top !== 0 || lower;
  } else {
    const half = POW10[digits]! / 2;
    versusHalf = rest > half ? 1 : rest < half ? -1 : 0;
    belowNonZero = rest !== 0;
  }
  // S = |x| ± floor(|y| / 10^d) in WORK[0, 6) (a subtraction also takes the unit R borrows).
  // No carry leaves WORK[0]: the top limb stays below 2·10^5.
  addLimbs(X, 6, Y, droppedLimbs, subtract, subtract && belowNonZero ? 1 : 0, WORK);
  return roundAligned(sign, x.e, subtract, versusHalf, belowNonZero);
}

/**
 * The end of {@link addAtScaleOfX}: the sum or difference `S` at `x`'s scale is in WORK[0, 6);
 * `versusHalf` and `belowNonZero` describe the part of `y` below `x`'s last digit, R. Null when
 * a subtraction left fewer than 40 digits (WORK still holds S).
 */
function roundAligned(sign: number, e: number, subtract: boolean, versusHalf: number, belowNonZero: boolean): Decimal40 | null {
  if (subtract) {
    if (WORK[0]! < C0_START) return null; // fewer than 40 digits left
    // What remains below the last digit is 10^d − R (when R ≠ 0): above half exactly when R is below.
    const above = belowNonZero ? -versusHalf : -1;
    return fromLimbs(sign, e, WORK, 0, above > 0 || (above === 0 && WORK[5]! % 2 === 1));
  }
  if (WORK[0]! < C0_END) {
    return fromLimbs(sign, e, WORK, 0, versusHalf > 0 || (versusHalf === 0 && WORK[5]! % 2 === 1));
  }
  // 41 digits: drop the last one, which with R decides the rounding.
  let digit = 0;
  for (let k = 0; k < 6; k++) {
    const limb = WORK[k]!;
    const high = floorDiv(limb, 10, 0.1);
    WORK[k] = digit * 1e6 + high;
    digit = limb - high * 10;
  }
  const above = digit > 5 ? 1 : digit < 5 ? -1 : belowNonZero ? 1 : 0;
  return fromLimbs(sign, e + 1, WORK, 0, above > 0 || (above === 0 && WORK[5]! % 2 === 1));
}

/**
 * {@link addAtScaleOfX} for `d < 7`, the common case (operands of like size), written out limb
 * by limb in locals: `y` shifts down by `d` digits within its limbs (each new limb is the low
 * digits of the limb above and the high digits of its own), and no limb is dropped.
 */
function addWithinALimb(x: Decimal40, y: Decimal40, d: number, subtract: boolean, sign: number): Decimal40 | null {
  let z0 = y.c0;
  let z1 = y.c1;
  let z2 = y.c2;
  let z3 = y.c3;
  let z4 = y.c4;
  let z5 = y.c5;
  let rest = 0;
  let versusHalf = -1;
  if (d > 0) {
    const unit = POW10[d]!;
    const inverse = INV_POW10[d]!;
    const scale = BASE / unit;
    let high = floorDiv(z0, unit, inverse);
    rest = z0 - high * unit;
    z0 = high;
    high = floorDiv(z1, unit, inverse);
    let low = z1 - high * unit;
    z1 = rest * scale + high;
    high = floorDiv(z2, unit, inverse);
    rest = z2 - high * unit;
    z2 = low * scale + high;
    high = floorDiv(z3, unit, inverse);
    low = z3 - high * unit;
    z3 = rest * scale + high;
    high = floorDiv(z4, unit, inverse);
    rest = z4 - high * unit;
    z4 = low * scale + high;
    high = floorDiv(z5, unit, inverse);
    low = z5 - high * unit;
    z5 = rest * scale + high;
    rest = low;
    const half = unit / 2;
    versusHalf = rest > half ? 1 : rest < half ? -1 : 0;
  }
  const belowNonZero = rest !== 0;
  // S = |x| ± Z in WORK, limb by limb from the bottom (a subtraction also takes the unit R
  // borrows); the carry is -1, 0 or 1 either way.
  const direction = subtract ? -1 : 1;
  let carry = subtract && belowNonZero ? -1 : 0;
  let v = x.c5 + direction * z5 + carry;
  carry = v < 0 ? -1 : v >= BASE ? 1 : 0;
  const s5 = v - carry * BASE;
  v = x.c4 + direction * z4 + carry;
  carry = v < 0 ? -1 : v >= BASE ? 1 : 0;
  const s4 = v - carry * BASE;
  v = x.c3 + direction * z3 + carry;
  carry = v < 0 ? -1 : v >= BASE ? 1 : 0;
  const s3 = v - carry * BASE;
  v = x.c2 + direction * z2 + carry;
  carry = v < 0 ? -1 : v >= BASE ? 1 : 0;
  const s2 = v - carry * BASE;
  v = x.c1 + direction * z1 + carry;
  carry = v < 0 ? -1 : v >= BASE ? 1 : 0;
  const s1 = v - carry * BASE;
  const s0 = x.c0 + direction * z0 + carry;
  // The common ending, straight from the locals (see roundAligned): the result keeps 40 digits
  // at x's scale (no carry into a 41st, no cancellation) and R rounds it, carrying no further
  // than its last limb. Equal exponents always leave R = 0, so exact.
  if (subtract ? s0 >= C0_START : s0 < C0_END) {
    // What is left below the last digit, against half a unit (of a subtraction: 10^d − R).
    const above = subtract ? (belowNonZero ? -versusHalf : -1) : versusHalf;
    if (above < 0 || (above === 0 && s5 % 2 === 0)) return new Raw(sign, x.e, s0, s1, s2, s3, s4, s5);
    if (s5 + 1 < BASE) return new Raw(sign, x.e, s0, s1, s2, s3, s4, s5 + 1);
  }
  WORK[0] = s0;
  WORK[1] = s1;
  WORK[2] = s2;
  WORK[3] = s3;
  WORK[4] = s4;
  WORK[5] = s5;
  return roundAligned(sign, x.e, subtract, versusHalf, belowNonZero);
}

function multiply(a: Decimal40, b: Decimal40): Decimal40 {
  if (a.c0 === 0 || b.c0 === 0) return ZERO40;
  if (hasOneLimb(b)) return b.c0 === C0_START ? shifted(a, b) : multiplyByOneLimb(a, b);
  if (hasOneLimb(a)) return a.c0 === C0_START ? shifted(b, a) : multiplyByOneLimb(b, a);
  if (hasTwoLimbs(b)) return multiplyByTwoLimbs(a, b);
  if (hasTwoLimbs(a)) return multiplyByTwoLimbs(b, a);
  const a0 = a.c0;
  const a1 = a.c1;
  const a2 = a.c2;
  const a3 = a.c3;
  const a4 = a.c4;
  const a5 = a.c5;
  const b0 = b.c0;
  const b1 = b.c1;
  const b2 = b.c2;
  const b3 = b.c3;
  const b4 = b.c4;
  const b5 = b.c5;
  // Column sums of the schoolbook product, written out in locals: each is at most six products
  // below 10^14, exact in a float64. The five columns below p6 are carried up at once; of them
  // only whether any is nonzero is kept.
  let p = a5 * b5;
  let carry = floorDiv(p, BASE, INV_BASE);
  let below = p !== carry * BASE;
  p = a4 * b5 + a5 * b4 + carry;
  carry = floorDiv(p, BASE, INV_BASE);
  below = below || p !== carry * BASE;
  p = a3 * b5 + a4 * b4 + a5 * b3 + carry;
  carry = floorDiv(p, BASE, INV_BASE);
  below = below || p !== carry * BASE;
  p = a2 * b5 + a3 * b4 + a4 * b3 + a5 * b2 + carry;
  carry = floorDiv(p, BASE, INV_BASE);
  below = below || p !== carry * BASE;
  p = a1 * b5 + a2 * b4 + a3 * b3 + a4 * b2 + a5 * b1 + carry;
  carry = floorDiv(p, BASE, INV_BASE);
  below = below || p !== carry * BASE;
  // The top six columns go to roundTop through a typed array: as arguments of a call, each
  // (beyond 2^31) would be boxed.
  const columns = COLUMNS;
  columns[1] = a0 * b0;
  columns[2] = a0 * b1 + a1 * b0;
  columns[3] = a0 * b2 + a1 * b1 + a2 * b0;
  columns[4] = a0 * b3 + a1 * b2 + a2 * b1 + a3 * b0;
  columns[5] = a0 * b4 + a1 * b3 + a2 * b2 + a3 * b1 + a4 * b0;
  columns[6] = a0 * b5 + a1 * b4 + a2 * b3 + a3 * b2 + a4 * b1 + a5 * b0 + carry;
  return roundTop(a.s * b.s, a.e + b.e + 35, 0, below);
}

/**
 * `a × b` for a power of ten `b` (`b.c0 = 10^4`, no other digit: a rate such as 1 % or a buy
 * percentage of 10 %): exact, `a`'s coefficient times 10^39, so only the exponent moves. A
 * function of its own, called through `decimal40`: written into `multiplyByOneLimb`, it made
 * `multiply` too large for V8 to inline its helpers (`floorDiv` became a call, `new Raw` a
 * generic construction) and cost the summary replay more than it saved.
 */
function shifted(a: Decimal40, b: Decimal40): Decimal40 {
  return decimal40(a.s * b.s, a.e + b.e + 39, a.c0, a.c1, a.c2, a.c3, a.c4, a.c5);
}

/** True when the coefficient of `d` lies in its top limb: at most five significant digits. */
function hasOneLimb(d: Decimal40): boolean {
  return d.c1 === 0 && hasTwoLimbs(d);
}

/** True when the coefficient of `d` lies in its top two limbs: at most twelve significant digits. */
function hasTwoLimbs(d: Decimal40): boolean {
  return d.c2 === 0 && d.c3 === 0 && d.c4 === 0 && d.c5 === 0;
}

/**
 * {@link multiply} when `b` has at most twelve significant digits (a price as a tape writes it,
 * in the PnL chart's valuations): two limb products per limb of `a`, one column below the sixth.
 */
function multiplyByTwoLimbs(a: Decimal40, b: Decimal40): Decimal40 {
  const b0 = b.c0;
  const b1 = b.c1;
  const p = a.c5 * b1;
  const carry = floorDiv(p, BASE, INV_BASE);
  const columns = COLUMNS;
  columns[1] = a.c0 * b0;
  columns[2] = a.c0 * b1 + a.c1 * b0;
  columns[3] = a.c1 * b1 + a.c2 * b0;
  columns[4] = a.c2 * b1 + a.c3 * b0;
  columns[5] = a.c3 * b1 + a.c4 * b0;
  columns[6] = a.c4 * b1 + a.c5 * b0 + carry;
  return roundTop(a.s * b.s, a.e + b.e + 35, 0, p !== carry * BASE);
}

/**
 * {@link multiply} when `b` has at most five significant digits (its coefficient is `b.c0 ×
 * 10^35`, a constant such as 100 or 0.5 or a round amount): one limb product per limb of `a`,
 * and nothing below the sixth column.
 */
function multiplyByOneLimb(a: Decimal40, b: Decimal40): Decimal40 {
  const y = b.c0;
  const columns = COLUMNS;
  columns[1] = a.c0 * y;
  columns[2] = a.c1 * y;
  columns[3] = a.c2 * y;
  columns[4] = a.c3 * y;
  columns[5] = a.c4 * y;
  columns[6] = a.c5 * y;
  return roundTop(a.s * b.s, a.e + b.e + 35, 0, false);
}

/**
 * The end of a product or a quotient, written in locals for speed: the decimal
 * `sign × (Σ p_k × 10^(7 × (6 − k))) × 10^e6` rounded half to even to 40 digits, for the limbs
 * `p1…p6` in `COLUMNS[1, 7)` and `p0 = top`, given before their carries (any integers below 2^53
 * in magnitude: a product's column sums, p6 with the carry of the columns below it, or a long
 * division's quotient limbs) and `below`, whether anything nonzero lies below p6.
 *
 * Once carried, the top limb `p0` has 0 to 3 digits: 2 or 3 for the product of two 40-digit
 * coefficients (79 or 80 digits), 0 or 1 for the quotient `A × 10^42 / B` (42 or 43 digits). The
 * 40 digits are then those of `p0…p5` and the top of `p6`, and each new limb is the low digits of
 * one carried limb, shifted up, and the high digits of the next.
 */
function roundTop(sign: number, e6: number, top: number, below: boolean): Decimal40 {
  let p1 = COLUMNS[1]!;
  let p2 = COLUMNS[2]!;
  let p3 = COLUMNS[3]!;
  let p4 = COLUMNS[4]!;
  let p5 = COLUMNS[5]!;
  let p6 = COLUMNS[6]!;
  let carry = floorDiv(p6, BASE, INV_BASE);
  p6 -= carry * BASE;
  p5 += carry;
  carry = floorDiv(p5, BASE, INV_BASE);
  p5 -= carry * BASE;
  p4 += carry;
  carry = floorDiv(p4, BASE, INV_BASE);
  p4 -= carry * BASE;
  p3 += carry;
  carry = floorDiv(p3, BASE, INV_BASE);
  p3 -= carry * BASE;
  p2 += carry;
  carry = floorDiv(p2, BASE, INV_BASE);
  p2 -= carry * BASE;
  p1 += carry;
  carry = floorDiv(p1, BASE, INV_BASE);
  p1 -= carry * BASE;
  const p0 = top + carry;
  // The low `cut` digits of each limb move down to the next new limb.
  const cut = p0 === 0 ? 2 : p0 < 10 ? 3 : p0 < 100 ? 4 : 5;
  const unit = POW10[cut]!;
  const inverse = INV_POW10[cut]!;
  const scale = BASE / unit;
  let high = floorDiv(p1, unit, inverse);
  const c0 = p0 * scale + high;
  let rest = p1 - high * unit;
  high = floorDiv(p2, unit, inverse);
  const c1 = rest * scale + high;
  rest = p2 - high * unit;
  high = floorDiv(p3, unit, inverse);
  const c2 = rest * scale + high;
  rest = p3 - high * unit;
  high = floorDiv(p4, unit, inverse);
  const c3 = rest * scale + high;
  rest = p4 - high * unit;
  high = floorDiv(p5, unit, inverse);
  const c4 = rest * scale + high;
  rest = p5 - high * unit;
  high = floorDiv(p6, unit, inverse);
  const c5 = rest * scale + high;
  rest = p6 - high * unit;
  const half = unit / 2;
  const above = rest > half ? 1 : rest < half ? -1 : below ? 1 : 0;
  const e = e6 + cut;
  if (above < 0 || (above === 0 && c5 % 2 === 0)) return new Raw(sign, e, c0, c1, c2, c3, c4, c5);
  if (c5 + 1 < BASE) return new Raw(sign, e, c0, c1, c2, c3, c4, c5 + 1);
  WORK[0] = c0;
  WORK[1] = c1;
  WORK[2] = c2;
  WORK[3] = c3;
  WORK[4] = c4;
  WORK[5] = c5;
  return fromLimbs(sign, e, WORK, 0, true);
}

/**
 * `a / b`: the quotient of `A × 10^42` by `B` (A, B the coefficients) by long division in base
 * 10^7, seven quotient limbs (42 or 43 digits, so at least two below the 40th), the remainder
 * as the sticky part.
 *
 * Carries are put off to the end. Each quotient limb is estimated in float64 from the leading
 * limbs of the remainder and of `B`, and `q × B` is taken from the remainder limb by limb with
 * no carry: a limb may go negative or past the base, but stays an integer far below 2^53, so
 * exact. The estimate may be one off either way; the next limb's estimate then comes out
 * negative or past the base and makes up for it. Once at the end the remainder is normalised
 * (and brought into `[0, B)` by a last correction) and the quotient limbs are carried.
 */
function divide(a: Decimal40, b: Decimal40): Decimal40 {
  if (b.c0 === 0) throw new RangeError('division by zero');
  if (a.c0 === 0) return ZERO40;
  unpack(b, Y);
  const y0 = Y[0]!;
  const y1 = Y[1]!;
  const y2 = Y[2]!;
  const y3 = Y[3]!;
  const y4 = Y[4]!;
  const y5 = Y[5]!;
  const r = REMAINDER;
  r[0] = 0;
  r[1] = a.c0;
  r[2] = a.c1;
  r[3] = a.c2;
  r[4] = a.c3;
  r[5] = a.c4;
  r[6] = a.c5;
  for (let t = 7; t < 13; t++) r[t] = 0;
  const divisorTopInverse = 1 / ((y0 * BASE + y1) * BASE + y2);
  for (let j = 0; j < 7; j++) {
    const windowTop = ((r[j]! * BASE + r[j + 1]!) * BASE + r[j + 2]!) * BASE + r[j + 3]!;
    const q = Math.floor(windowTop * divisorTopInverse);
    // The window's top limb goes into the next one: what is left of it is a few units at most.
    r[j + 1] = r[j]! * BASE + r[j + 1]! - q * y0;
    r[j + 2] = r[j + 2]! - q * y1;
    r[j + 3] = r[j + 3]! - q * y2;
    r[j + 4] = r[j + 4]! - q * y3;
    r[j + 5] = r[j + 5]! - q * y4;
    r[j + 6] = r[j + 6]! - q * y5;
    r[j] = 0;
    COLUMNS[j] = q;
  }
  // The remainder, r[7, 13), normalised: every limb below the top one in [0, BASE).
  propagateCarries(r, 7, 13);
  let correction = 0;
  while (r[7]! < 0) {
    correction--;
    addDivisorToRemainder(r, Y, 1);
  }
  while (remainderAtLeast(r, Y)) {
    correction++;
    addDivisorToRemainder(r, Y, -1);
  }
  const sticky = anyNonZero(r, 7, 13);
  COLUMNS[6] = COLUMNS[6]! + correction;
  return roundTop(a.s * b.s, a.e - b.e - 42, COLUMNS[0]!, sticky);
}

/**
 * `r[7, 13) += sign × y` for a remainder whose limbs below the top one are in [0, BASE); they
 * stay so, and the top limb takes the carry.
 */
function addDivisorToRemainder(r: Float64Array, y: Float64Array, sign: number): void {
  let carry = 0;
  for (let t = 5; t > 0; t--) {
    let v = r[7 + t]! + sign * y[t]! + carry;
    carry = v < 0 ? -1 : v >= BASE ? 1 : 0;
    v -= carry * BASE;
    r[7 + t] = v;
  }
  r[7] = r[7]! + sign * y[0]! + carry;
}

/** True when the normalised remainder `r[7, 13)` (top limb ≥ 0) is at least the divisor `y`. */
function remainderAtLeast(r: Float64Array, y: Float64Array): boolean {
  for (let t = 0; t < 6; t++) {
    const v = r[7 + t]!;
    const w = y[t]!;
    if (v !== w) return v > w;
  }
  return true;
}
