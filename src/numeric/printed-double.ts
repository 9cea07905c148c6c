import { toJsonNumber, type Decimal } from './decimal.js';
import {
  CONVERSION_ERROR,
  decide40,
  divideWords,
  doubleWord,
  multiplyWords,
  PRODUCT_ERROR,
  ROUNDING_40_ERROR,
  toWord,
  type DoubleWord,
} from './double-word.js';

/**
 * The doubles a response prints for results that nothing else reads: a trade's execution price
 * of a sell, its slippage, `usd_buy_price_avg` and `usd_invested` after a buy. Each is the
 * nearest double to the model's 40-digit result, as `toJsonNumber` of the decimal would give it,
 * but decided from double-word arithmetic (`numeric/double-word.ts`): a quotient costs a few dozen
 * floating-point operations instead of a 40-digit long division. When the error bound reaches
 * the edge of a double's rounding cell, the decimal is computed after all. The calls work in one
 * module-level double word ({@link WORD}): none calls another while it holds its result, and a
 * typed array allocated at every call would cost the replay more than the arithmetic.
 */

/** Where the functions below do their double-word arithmetic. */
const WORD = doubleWord();

/** `round40(a / b) × scale` as printed, for `scale` 1 or a power of ten (which shifts the digits exactly). */
export function printedQuotient(a: Decimal, b: Decimal, scale: number): number {
  const word = WORD;
  quotientToWord(word, a, b);
  if (scale !== 1) multiplyWords(word, word[0]!, word[1]!, scale, 0);
  const high = word[0]!;
  // Two conversions, the quotient and the scaling; decide40 adds the 40-digit rounding.
  const printed = decide40(high, word[1]!, Math.abs(high) * (2 * CONVERSION_ERROR + 2 * PRODUCT_ERROR));
  if (printed === printed) return printed;
  const quotient = a.div(b);
  return toJsonNumber(scale === 1 ? quotient : quotient.times(scale));
}

/** `round40(a × b)` as printed. */
export function printedProduct(a: Decimal, b: Decimal): number {
  const word = WORD;
  toWord(word, b);
  const bHigh = word[0]!;
  const bLow = word[1]!;
  toWord(word, a);
  multiplyWords(word, word[0]!, word[1]!, bHigh, bLow);
  const high = word[0]!;
  const printed = decide40(high, word[1]!, Math.abs(high) * (2 * CONVERSION_ERROR + PRODUCT_ERROR));
  return printed === printed ? printed : toJsonNumber(a.times(b));
}

/** `round40(q × round40(a / b))` as printed: a position's `usd_invested`, `qty × usd_buy_price_avg`. */
export function printedProductOfQuotient(q: Decimal, a: Decimal, b: Decimal): number {
  const word = WORD;
  quotientToWord(word, a, b);
  const quotientHigh = word[0]!;
  const quotientLow = word[1]!;
  toWord(word, q);
  multiplyWords(word, word[0]!, word[1]!, quotientHigh, quotientLow);
  const high = word[0]!;
  // Three conversions, the quotient, the product, and the quotient's own 40-digit rounding.
  const bound = Math.abs(high) * (3 * CONVERSION_ERROR + 2 * PRODUCT_ERROR + ROUNDING_40_ERROR);
  const printed = decide40(high, word[1]!, bound);
  return printed === printed ? printed : toJsonNumber(q.times(a.div(b)));
}

/** `out = a / b` from the decimals' double words: two conversions and a quotient. */
function quotientToWord(out: DoubleWord, a: Decimal, b: Decimal): void {
  toWord(out, b);
  const bHigh = out[0]!;
  const bLow = out[1]!;
  toWord(out, a);
  divideWords(out, out[0]!, out[1]!, bHigh, bLow);
}
