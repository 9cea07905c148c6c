// Decimal40 is the engine's Decimal; taken from its own module, so that decimal.ts may use this one.
import { Decimal40 as Decimal } from './decimal40.js';
import { scanShortDecimal, type DecimalInput } from './decimal40-parse.js';
import { productError } from './nearest-double.js';

/**
 * Double-word arithmetic: a value is the unevaluated sum `high + low` of two doubles with
 * |low| ≤ half a unit in the last place of `high`, about 106 significant bits (Dekker; Joldes,
 * Muller and Popescu, "Tight and rigorous error bounds for basic building blocks of double-word
 * arithmetic", 2017). The PnL chart keeps its unrealized sum in it, with a bound on its error,
 * and decides from it the doubles the response prints (`engine/unrealized.ts`). Each operation
 * writes its result into a {@link DoubleWord} its caller owns and passes, so that nothing is
 * allocated and no result passes through state that other callers share.
 */

/**
 * Where a double-word operation writes its result: `high` at index 0, `low` at 1. A caller keeps
 * its own (an engine object holds one as a field) and reads it right after the call; the result
 * may be written into the array an operand was read from, as the operands are taken as numbers.
 */
export type DoubleWord = Float64Array;

/** A new {@link DoubleWord}, holding (0, 0). */
export function doubleWord(): DoubleWord {
  return new Float64Array(2);
}

/** `out = x + y` for double words, relative error < 3 × 2^-106 (AccurateDWPlusDW). */
export function addWords(out: DoubleWord, xHigh: number, xLow: number, yHigh: number, yLow: number): void {
  let s = xHigh + yHigh;
  let v = s - xHigh;
  const sLow = xHigh - (s - v) + (yHigh - v);
  const t = xLow + yLow;
  v = t - xLow;
  const tLow = xLow - (t - v) + (yLow - v);
  let c = sLow + t;
  let high = s + c;
  c = c - (high - s);
  s = high;
  c += tLow;
  high = s + c;
  out[0] = high;
  out[1] = c - (high - s);
}

/** `out = x × y` for double words, relative error < 2^-102 (Dekker's product, then the cross terms). */
export function multiplyWords(out: DoubleWord, xHigh: number, xLow: number, yHigh: number, yLow: number): void {
  const p = xHigh * yHigh;
  const low = productError(xHigh, yHigh, p) + (xHigh * yLow + xLow * yHigh);
  const high = p + low;
  out[0] = high;
  out[1] = low - (high - p);
}

/**
 * `out = x / y` for double words, relative error < 15 × 2^-106 + 56 × 2^-159 (DWDivDW2 of Joldes,
 * Muller and Popescu): the quotient of the heads, corrected by the remainder `x − y × head`.
 */
export function divideWords(out: DoubleWord, xHigh: number, xLow: number, yHigh: number, yLow: number): void {
  const t = xHigh / yHigh;
  // y × t as a double word (DWTimesFP1): Dekker's product of the heads, the low part's product.
  const c = yHigh * t;
  const cError = productError(yHigh, t, c);
  const cLow = yLow * t;
  const r = c + cLow;
  const rLow = cError + (cLow - (r - c));
  const rHigh = r + rLow;
  const rLow2 = rLow - (rHigh - r);
  // x − y × t: the heads cancel exactly (Sterbenz), the low parts are rounded once.
  const delta = xHigh - rHigh + (xLow - rLow2);
  const tLow = delta / yHigh;
  const high = t + tLow;
  out[0] = high;
  out[1] = tLow - (high - t);
}

/**
 * `out` = the decimal as a double word, relative error < 2^-100; NaN in `out[0]` when its exponent
 * is outside the table (beyond about 10^±250, where no money amount of the engine lies).
 * The 40-digit coefficient is split into three integers exact in a double, `H` (12 digits),
 * `M` and `L` (14 each): `C = H × 10^28 + M × 10^14 + L`.
 */
export function toWord(out: DoubleWord, d: Decimal): void {
  const e = d.e;
  const k = e + 28 - POW10_LOW_EXPONENT;
  if (k < 28 || k >= POW10_HIGH.length) {
    out[0] = d.c0 === 0 ? 0 : NaN;
    out[1] = 0;
    return;
  }
  const sign = d.s;
  const h = (d.c0 * 1e7 + d.c1) * sign;
  // H × 10^(e+28) exactly as a double and its error, with the table's low part.
  const ph = POW10_HIGH[k]!;
  let high = h * ph;
  let low = productError(h, ph, high) + h * POW10_LOW[k]!;
  if (d.c2 !== 0 || d.c3 !== 0 || d.c4 !== 0 || d.c5 !== 0) {
    // M × 10^(e+14) is up to 10^-11 of the value, so its product is also taken exactly and
    // added to the head exactly (Fast2Sum: |head| ≥ |M part|); L × 10^e, below 10^-25 of the
    // value, and the table's low part of 10^(e+14) need one rounded product each.
    const m = (d.c2 * 1e7 + d.c3) * sign;
    const l = (d.c4 * 1e7 + d.c5) * sign;
    const pm = POW10_HIGH[k - 14]!;
    const q = m * pm;
    const head = high + q;
    low += q - (head - high) + productError(m, pm, q) + (m * POW10_LOW[k - 14]! + l * POW10_HIGH[k - 28]!);
    high = head;
  }
  const sum = high + low;
  out[0] = sum;
  out[1] = low - (sum - high);
}

/**
 * `out` = a tape's raw decimal (a string or a number, as `Decimal` reads it) as a double word,
 * relative error < 2^-100, without making a decimal when it has at most 15 significant digits.
 */
export function rawToWord(out: DoubleWord, raw: DecimalInput): void {
  if (typeof raw === 'string' ? shortTextToWord(out, raw) || longTextToWord(out, raw) : numberToWord(out, raw)) return;
  toWord(out, new Decimal(raw));
}

/**
 * `out` = a plain decimal string of 16 to 30 significant digits (`2068191271.290775`), relative
 * error < 2^-100: its first 15 significant digits and the rest as two integers exact in a double,
 * each scaled by its power of ten (`scaledToWord`, < 2^-104 of it), the two added (< 3 × 2^-106
 * of the sum; they have the same sign). False for any other string (an exponent, a sign other
 * than a leading minus, more digits), which the decimal path then reads.
 */
function longTextToWord(out: DoubleWord, text: string): boolean {
  const length = text.length;
  let i = text.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  const sign = i === 1 ? -1 : 1;
  let high = 0;
  let low = 0;
  let significant = 0;
  let fractionDigits = 0;
  let point = false;
  for (; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (point) fractionDigits++;
      if (significant === 0 && c === 48) continue;
      significant++;
      if (significant <= 15) high = high * 10 + (c - 48);
      else if (significant <= 30) low = low * 10 + (c - 48);
      else return false;
    } else if (c === 46 /* . */ && !point) {
      point = true;
    } else {
      return false;
    }
  }
  if (significant <= 15) return false;
  const lowDigits = significant - 15;
  if (!scaledToWord(LONG_PARTS, high, lowDigits - fractionDigits)) return false;
  const highHead = LONG_PARTS[0]!;
  const highTail = LONG_PARTS[1]!;
  if (!scaledToWord(LONG_PARTS, low, -fractionDigits)) return false;
  addWords(out, highHead, highTail, LONG_PARTS[0]!, LONG_PARTS[1]!);
  if (sign < 0) {
    out[0] = -out[0]!;
    out[1] = -out[1]!;
  }
  return true;
}

/** `out` = a decimal string of at most 15 significant digits (`12.5`, `3e-7`); false for any other. */
function shortTextToWord(out: DoubleWord, text: string): boolean {
  return scanShortDecimal(text, SCANNED) && scaledToWord(out, SCANNED[0]!, SCANNED[1]!);
}

/**
 * `out` = a number as `Decimal` reads it, its shortest decimal text. When `c × 10^-j` with
 * `c < 10^15` rounds to the number, it is that text's value (two decimals of at most 15
 * significant digits lie too far apart to round to the same double); false when none is found.
 */
function numberToWord(out: DoubleWord, n: number): boolean {
  if (Number.isSafeInteger(n)) {
    out[0] = n;
    out[1] = 0;
    return true;
  }
  const magnitude = Math.abs(n);
  if (!(magnitude >= 1e-250 && magnitude <= 1e250)) return false;
  // 10^t ≤ magnitude < 10^(t+1) for t = ⌊log10(magnitude)⌋, which the binary exponent b gives
  // to within one: ⌊b × log10(2)⌋ is t or t − 1. Then c = magnitude × 10^(14 − t) < 10^15.
  F64[0] = magnitude;
  let j = 14 - Math.floor(((U32[HIGH_WORD]! >>> 20) - 1023) * LOG10_2);
  let at = j - POW10_LOW_EXPONENT;
  if (at < 1 || at >= POW10_HIGH.length) return false;
  let c = Math.round(magnitude * POW10_HIGH[at]!);
  if (c >= 1e15) {
    j--;
    at--;
    c = Math.round(magnitude * POW10_HIGH[at]!);
  }
  if (c >= 1e15 || !scaledToWord(out, c, -j)) return false;
  // c × 10^-j is within 2^-104 of `out`: it is the number's value when it rounds to the number.
  if (decide(out[0]!, out[1]!, magnitude * TWO_M100) !== magnitude) return false;
  if (n < 0) {
    out[0] = -out[0]!;
    out[1] = -out[1]!;
  }
  return true;
}

/** `out` = `c × 10^k` for an integer `|c| < 2^53`; false when `10^k` is outside the table. */
function scaledToWord(out: DoubleWord, c: number, k: number): boolean {
  const at = k - POW10_LOW_EXPONENT;
  if (at < 0 || at >= POW10_HIGH.length) return false;
  const ph = POW10_HIGH[at]!;
  const p = c * ph;
  const low = productError(c, ph, p) + c * POW10_LOW[at]!;
  const high = p + low;
  out[0] = high;
  out[1] = low - (high - p);
  return true;
}

/**
 * The double nearest to every value within `bound` of the double word `high + low`, or NaN when
 * that interval reaches the edge of `high`'s rounding cell (or `high` is zero, tiny or huge): then
 * the value must be computed exactly.
 */
export function decide(high: number, low: number, bound: number): number {
  const magnitude = Math.abs(high);
  if (!(magnitude >= 1e-250 && magnitude <= 1e250)) return NaN;
  F64[0] = magnitude;
  const top = U32[HIGH_WORD]!;
  const powerOfTwo = (top & 0xfffff) === 0 && U32[LOW_WORD] === 0;
  // Half a unit in the last place of `high`: 2^(exponent − 53), built from the exponent bits.
  U32[HIGH_WORD] = ((top >>> 20) - 53) << 20;
  U32[LOW_WORD] = 0;
  const half = F64[0]!;
  // Toward zero, the doubles below a power of two lie twice as close.
  const halfTowardZero = powerOfTwo ? half / 2 : half;
  const away = high > 0 ? low : -low;
  return away + bound < half && away - bound > -halfTowardZero ? high : NaN;
}

// ---- Sums with a bound ----------------------------------------------------------------------
// A bounded sum is a `Float64Array` whose first three entries are a double word (high, low) and a
// bound on its distance to the exact sum it stands for. The bounds count a decimal's conversion
// (< 2^-100 of it) as 2^-98, a double-word addition (< 2^-104 of its result) as 2^-100, and a
// 40-digit rounding (at most 5 × 10^-40 of a value) as 2^-128.

/** The relative error a bound counts for a decimal's conversion to a double word ({@link toWord}). */
export const CONVERSION_ERROR = 2 ** -98;
/** The relative error a bound counts for a 40-digit rounding. */
export const ROUNDING_40_ERROR = 2 ** -128;
/** The relative error a bound counts for a double-word addition ({@link addWords}). */
export const ADDITION_ERROR = 2 ** -100;
/**
 * The relative error a bound counts for a double-word product or quotient ({@link multiplyWords},
 * {@link divideWords}).
 */
export const PRODUCT_ERROR = 2 ** -100;
/** Covers the rounding of a bound's own arithmetic (relative 2^-53 a step). */
const BOUND_SAFETY = 1.001;

/** Adds to a bounded sum a double word within `termBound` of its exact term. */
export function accumulate(sum: Float64Array, high: number, low: number, termBound: number): void {
  addWords(sum, sum[0]!, sum[1]!, high, low);
  sum[2] = sum[2]! + termBound + Math.abs(sum[0]!) * ADDITION_ERROR;
}

/**
 * {@link accumulate} for a term kept in `terms` at `at` (high, low, bound), added with `sign` 1
 * or taken away with -1. Its arguments are objects and small integers, so a call that the
 * compiler does not inline boxes no double (three allocations a call with {@link accumulate}).
 */
export function accumulateKept(sum: Float64Array, terms: Float64Array, at: number, sign: 1 | -1): void {
  addWords(sum, sum[0]!, sum[1]!, sign * terms[at]!, sign * terms[at + 1]!);
  sum[2] = sum[2]! + terms[at + 2]! + Math.abs(sum[0]!) * ADDITION_ERROR;
}

/** A bounded sum starts again at the decimal `d` (its exact value, with the conversion's bound). */
export function restartAt(sum: Float64Array, d: Decimal): void {
  toWord(sum, d);
  sum[2] = Math.abs(sum[0]!) * CONVERSION_ERROR;
}

/**
 * The double the response prints for an exact value within `bound` of `high + low`, rounded to
 * 40 digits: {@link decide} with the rounding and the bound's own error added; NaN when the
 * value must be computed exactly.
 */
export function decide40(high: number, low: number, bound: number): number {
  return decide(high, low, bound * BOUND_SAFETY + Math.abs(high) * ROUNDING_40_ERROR);
}

const TWO_M100 = 2 ** -100;
/** The parts of {@link longTextToWord}. */
const LONG_PARTS = new Float64Array(2);
/** What {@link scanShortDecimal} read for {@link shortTextToWord}. */
const SCANNED = new Float64Array(3);
const LOG10_2 = Math.log10(2);
const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HIGH_WORD = LITTLE_ENDIAN ? 1 : 0;
const LOW_WORD = LITTLE_ENDIAN ? 0 : 1;

/**
 * 10^k as a double word `POW10_HIGH[k − POW10_LOW_EXPONENT] + POW10_LOW[…]`, for k in
 * [-290, 300], within 2^-106 of 10^k: computed once from exact integers.
 */
const POW10_LOW_EXPONENT = -290;
const POW10_HIGH_EXPONENT = 300;
const POW10_HIGH = new Float64Array(POW10_HIGH_EXPONENT - POW10_LOW_EXPONENT + 1);
const POW10_LOW = new Float64Array(POW10_HIGH.length);
for (let k = POW10_LOW_EXPONENT; k <= POW10_HIGH_EXPONENT; k++) {
  const i = k - POW10_LOW_EXPONENT;
  if (k >= 0) {
    const n = 10n ** BigInt(k);
    const high = Number(n);
    POW10_HIGH[i] = high;
    POW10_LOW[i] = Number(n - BigInt(high));
  } else {
    // 10^k = q × 2^-m, q = ⌊2^m / 10^-k⌋ of about 130 bits (its truncation is far below 2^-106).
    const d = 10n ** BigInt(-k);
    const m = d.toString(2).length + 130;
    const q = (1n << BigInt(m)) / d;
    const high = Number(q);
    const scale = (x: number): number => x * 2 ** -(m >> 1) * 2 ** -(m - (m >> 1));
    POW10_HIGH[i] = scale(high);
    POW10_LOW[i] = scale(Number(q - BigInt(high)));
  }
}
