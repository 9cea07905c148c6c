import { Raw, zero40, type Decimal40Parts } from './decimal40-parts.js';
import { fromLimbs, round40 } from './decimal40-rounding.js';
import { POW10 } from './nearest-double.js';

/**
 * Reading decimals: a decimal string (`[+-]digits[.digits][e[+-]digits]`) or a finite number, as
 * decimal.js reads them, into a Decimal40Parts rounded half to even to 40 digits. Most strings a tape
 * holds (at most 15 significant digits) take a short path; the rest a long one.
 */

/** A decimal as it travels in JSON: a number or a decimal string. */
export type DecimalInput = number | string;

const BASE = 1e7;

/** Digits each limb of a 40-digit coefficient holds: five, then six times seven. */
const LIMB_DIGITS = [5, 7, 7, 7, 7, 7];

// Scratch: a safe integer's limbs, the long path's limbs, what the short path's scan read.
const INTEGER = new Float64Array(3);
const PARSED = new Float64Array(6);
const SCANNED = new Float64Array(3);

/** Reads a decimal string or a finite number; throws a TypeError for anything else. */
export function parse(value: DecimalInput): Decimal40Parts {
  return typeof value === 'string' ? parseText(value) : parseNumber(value);
}

/** Reads a finite number as decimal.js does: as its shortest decimal text, `String(value)`. */
function parseNumber(value: number): Decimal40Parts {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new TypeError(`not a finite number or decimal string: ${String(value)}`);
  if (value === 0) return zero40();
  if (Number.isSafeInteger(value)) return scaledInteger(Math.abs(value), 0, value < 0 ? -1 : 1);
  return parseShortNumber(value) ?? parseText(String(value));
}

/** `sign × magnitude × 10^exponent` for a safe integer `magnitude`, exactly. */
function scaledInteger(magnitude: number, exponent: number, sign: number): Decimal40Parts {
  // Three limbs hold any safe integer; round40 left-aligns them without rounding.
  const top = Math.floor(magnitude / 1e14);
  const middle = Math.floor((magnitude - top * 1e14) / BASE);
  INTEGER[0] = top;
  INTEGER[1] = middle;
  INTEGER[2] = magnitude - top * 1e14 - middle * BASE;
  return round40(INTEGER, 3, false, exponent, sign);
}

/**
 * A number that some decimal of at most 15 significant digits reads as, read as that decimal
 * without making its text (`String` costs more than the rest of the reading); null for any other.
 *
 * Such a decimal is `m × 10^-k` for the smallest `k` (0 to 22) where `m = round(value × 10^k)`
 * is below 10^15 and `m / 10^k` is `value` again (both operands exact, so the quotient is the
 * double that decimal reads as). It is the text `String(value)` gives, the shortest that reads
 * back as `value`: two decimals of at most 15 significant digits never read as one double (a
 * double holds 15.95 digits), and `round` finds it at its `k`, as `value × 10^k` lies within a
 * quarter of a unit of `m` (half an ulp of `value`, times `10^k`, and the product's rounding,
 * each below 2^-3 for `m` below 10^15 < 2^50).
 */
function parseShortNumber(value: number): Decimal40Parts | null {
  const magnitude = Math.abs(value);
  if (!(magnitude >= 1e-7 && magnitude < 1e15)) return null;
  // No k below the place of the first digit gives a whole m of 1 or more: start there.
  for (let k = magnitude >= 1 ? 0 : Math.floor(-Math.log10(magnitude)); k <= 22; k++) {
    const power = POW10[k]!;
    const m = Math.round(magnitude * power);
    if (m >= 1e15) return null;
    if (m / power === magnitude) return scaledInteger(m, -k, value < 0 ? -1 : 1);
  }
  return null;
}

/** Reads a decimal string: most of those a tape holds on the short path, the rest on the long one. */
function parseText(text: string): Decimal40Parts {
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
function parseShortText(text: string): Decimal40Parts | null {
  if (!scanShortDecimal(text, SCANNED)) return null;
  const significant = SCANNED[2]!;
  if (significant === 0) return zero40();
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
function parseLongText(text: string): Decimal40Parts {
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
  if (significant === 0) return zero40();
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
export function parseExponent(text: string, from: number): number {
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
