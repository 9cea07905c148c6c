import { Decimal40 } from './decimal40.js';
import type { DecimalInput } from './decimal40-parse.js';
import { DecimalJs40 } from './decimal40-print.js';
import { CONVERSION_ERROR, decide, doubleWord, toWord } from './double-word.js';
import { InputError } from '../model/errors.js';
import { nearestDouble, POW10 } from './nearest-double.js';

/**
 * The decimal type of all money arithmetic: 40 significant digits, half to even (the model asks
 * for decimal.js with at least 30). It is {@link Decimal40}, which gives decimal.js's results
 * exactly, operation by operation, several times faster (see its doc comment and the
 * differential tests in `test/numeric/decimal40.test.ts`).
 */
export const Decimal = Decimal40;
export type Decimal = Decimal40;

/** Exact sums of decimals and products, rounded once when read (the PnL chart's exact readings). */
export { ExactSum } from './exact-sum.js';

/**
 * decimal.js itself at the same settings (`Decimal40`'s reference): also the type of the
 * importers, which need its wider toolbox (significant digits, integer checks) on raw input.
 */
export { DecimalJs40 };
export type DecimalJs40 = InstanceType<typeof DecimalJs40>;

/** A decimal as it travels in JSON: a number or a decimal string. */
export type { DecimalInput };

export const ZERO = new Decimal(0);
export const ONE = new Decimal(1);
export const HUNDRED = new Decimal(100);
export const HALF = new Decimal(0.5);

/**
 * Converts a decimal to the nearest float64 for a JSON response (only at the edge). A value
 * beyond float64's range would print as `null`; it throws instead of writing a broken result.
 */
export function toJsonNumber(value: Decimal): number {
  const n = value.c0 === 0 ? 0 : nearestOf(value);
  if (!Number.isFinite(n)) {
    throw new InputError(
      `a result (${value.toExponential(6)}) lies beyond the range of a JSON number; the inputs are too large`,
      {
        source: 'result',
      },
    );
  }
  // -0 would print as 0 anyway; normalise so byte-identical output never depends on it.
  return n === 0 ? 0 : n;
}

/**
 * The double nearest to a nonzero decimal: the fast conversion for magnitudes near 10^±22 and
 * below (`nearestDouble`), else the decimal's double word (far-off magnitudes such as tiny
 * prices), and its text only near a tie.
 */
function nearestOf(value: Decimal): number {
  const fast = nearestDouble(value.e, value.c0, value.c1, value.c2, value.c3, value.c4, value.c5);
  if (fast === fast) return value.s * fast;
  const word = doubleWord();
  toWord(word, value);
  const high = word[0]!;
  const quick = decide(high, word[1]!, Math.abs(high) * CONVERSION_ERROR);
  return quick === quick ? quick : value.toNumber();
}

/** Rounds to a whole number, half away from zero (the model's rule for the deal charts). */
export function roundHalfAwayFromZero(value: Decimal): number {
  const whole = roundedBelow1e15(value);
  return whole === whole ? whole : toJsonNumber(value.roundHalfUp());
}

/**
 * {@link roundHalfAwayFromZero} of a value below 10^15 in magnitude, from its limbs, in doubles
 * (each an integer below 10^15, exact); NaN for a larger one. A magnitude rounds up exactly when
 * the digit after its whole part is 5 or more; of the 40 digits `c0…c5` (5, then 7 each) the
 * whole part is the first `40 + e`.
 */
function roundedBelow1e15(value: Decimal): number {
  if (value.c0 === 0) return 0;
  const whole = 40 + value.e; // digits of the whole part
  if (whole > 15) return NaN;
  if (whole < 0) return 0;
  const top = value.c0 * 1e7 + value.c1; // the first 12 digits
  let integer: number;
  let next: number;
  if (whole <= 11) {
    integer = Math.floor(top / POW10[12 - whole]!);
    next = Math.floor(top / POW10[11 - whole]!) % 10;
  } else {
    // 12 to 15 digits: the first 0 to 3 of c2 join the 12.
    const more = whole - 12;
    integer = top * POW10[more]! + Math.floor(value.c2 / POW10[7 - more]!);
    next = Math.floor(value.c2 / POW10[6 - more]!) % 10;
  }
  const rounded = next >= 5 ? integer + 1 : integer;
  return rounded === 0 ? 0 : value.s * rounded;
}

const DECIMAL_STRING = /^\+?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The magnitudes a tape's decimals may take. Wide enough for any token (memecoin prices of
 * 1e-12 USD, supplies of 1e15), narrow enough that no product or quotient of the model leaves
 * float64's range when the response is written.
 */
export const MIN_TAPE_DECIMAL = 1e-60;
export const MAX_TAPE_DECIMAL = 1e60;

/** True for a decimal string such as "0.0123" or "1e-9" (no sign, no spaces). */
export function isDecimalString(text: string): boolean {
  return DECIMAL_STRING.test(text);
}

/** True for a number in the tape's range: `MIN_TAPE_DECIMAL ≤ value ≤ MAX_TAPE_DECIMAL`. */
export function isTapeMagnitude(value: number): boolean {
  return value >= MIN_TAPE_DECIMAL && value <= MAX_TAPE_DECIMAL;
}

/** The definition of {@link isPositiveDecimalString}: the grammar, then the value's range. */
export function isPositiveDecimalStringByDefinition(text: string): boolean {
  return DECIMAL_STRING.test(text) && isTapeMagnitude(Number(text));
}

const ZERO_CODE = 48;
const NINE_CODE = 57;

/**
 * True for a decimal string whose value is above zero, within the tape's range. Every decimal of
 * a tape passes here, so it scans the characters once instead of matching the grammar and then
 * parsing the number: the range follows from the power of ten of the first significant digit,
 * and only a value within two powers of a bound is parsed to decide (a property test holds it
 * to {@link isPositiveDecimalStringByDefinition}).
 */
export function isPositiveDecimalString(text: string): boolean {
  return isPositiveDecimalText(text, 0, text.length);
}

/**
 * {@link isPositiveDecimalString} of `text.slice(start, end)`, without making the slice: a
 * columnar reader checks a whole column of decimals held as one text.
 */
export function isPositiveDecimalText(text: string, start: number, end: number): boolean {
  const n = end;
  let i = start < n && text.charCodeAt(start) === 43 ? start + 1 : start; // '+'
  let digits = 0;
  let firstSignificant = -1;
  let c = 0;
  while (i < n && (c = text.charCodeAt(i)) >= ZERO_CODE && c <= NINE_CODE) {
    if (firstSignificant < 0 && c !== ZERO_CODE) firstSignificant = digits;
    digits++;
    i++;
  }
  const integerDigits = digits;
  if (i < n && text.charCodeAt(i) === 46) {
    // '.'
    i++;
    while (i < n && (c = text.charCodeAt(i)) >= ZERO_CODE && c <= NINE_CODE) {
      if (firstSignificant < 0 && c !== ZERO_CODE) firstSignificant = digits;
      digits++;
      i++;
    }
  }
  if (digits === 0) return false;
  let exponent = 0;
  if (i < n) {
    c = text.charCodeAt(i);
    if (c !== 101 && c !== 69) return false; // 'e', 'E'
    i++;
    const negative = i < n && text.charCodeAt(i) === 45;
    if (negative || (i < n && text.charCodeAt(i) === 43)) i++;
    const digitsStart = i;
    while (i < n && (c = text.charCodeAt(i)) >= ZERO_CODE && c <= NINE_CODE) {
      exponent = exponent * 10 + (c - ZERO_CODE);
      i++;
    }
    if (i === digitsStart || i < n) return false;
    // Beyond 7 digits the exponent's value is not tracked exactly: ask the definition.
    if (i - digitsStart > 7) return isPositiveDecimalStringByDefinition(text.slice(start, end));
    if (negative) exponent = -exponent;
  }
  if (firstSignificant < 0) return false; // zero
  const power = integerDigits - 1 - firstSignificant + exponent;
  if (power >= -59 && power <= 58) return true;
  if (power < -61 || power > 60) return false;
  return isPositiveDecimalStringByDefinition(text.slice(start, end));
}
