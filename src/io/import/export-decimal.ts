import { Decimal40 } from '../../numeric/decimal40.js';
import { divide } from '../../numeric/decimal40-multiply-divide.js';
import { parse } from '../../numeric/decimal40-parse.js';
import type { Decimal40Parts } from '../../numeric/decimal40-parts.js';
import { DecimalJs40 as Decimal } from '../../numeric/decimal.js';

/**
 * Positive decimals of an export read from their text, without decimal.js: an import only
 * copies most amounts into the tape, and building a decimal.js value for each one (then its text
 * again) would be most of an import's time. Every result equals what decimal.js (40 digits, half to
 * even, plain notation) gives for the same text: `test/import/export-decimal.test.ts` holds them
 * side by side.
 */

/** Significant digits a tape writes: more than float64 holds, far fewer than 40. */
export const TAPE_DIGITS = 20;

/** Inputs the fast path reads: Decimal40 holds 40 digits, and exponents stay far from its limits. */
const MAX_DIGITS = 40;
const MAX_SCALE = 400;

/** A decimal's magnitude as its significant digits and the power of ten of the last one. */
export class DigitsDecimal implements ReadyDecimal {
  private tapeText: string | undefined;
  private exact: Decimal | undefined;

  /**
   * @param digits significant digits, no leading or trailing zeros ('' for zero)
   * @param scale the power of ten of the last digit
   * @param written the text it was read from when that is already its plain form (no copy to make)
   */
  constructor(
    readonly digits: string,
    readonly scale: number,
    private readonly written?: string,
  ) {}

  isZero(): boolean {
    return this.digits === '';
  }

  /** The text a tape holds: plain notation, rounded half to even to {@link TAPE_DIGITS} significant digits. */
  get tape(): string {
    if (this.tapeText === undefined) {
      this.tapeText =
        this.digits.length <= TAPE_DIGITS
          ? (this.written ?? plain(this.digits, this.scale))
          : roundedPlain(this.digits, this.scale, TAPE_DIGITS);
    }
    return this.tapeText;
  }

  /** The nearest float64 (as decimal.js's `toNumber`: the text's correctly rounded value). */
  toNumber(): number {
    return this.digits === '' ? 0 : Number(`${this.digits}e${this.scale}`);
  }

  /** The value as decimal.js, for the rare exact comparison. */
  toDecimal(): Decimal {
    this.exact ??= new Decimal(this.digits === '' ? 0 : `${this.digits}e${this.scale}`);
    return this.exact;
  }

  /** The value as a Decimal40 (exact: at most 40 digits). */
  toDecimal40(): Decimal40 {
    return new Decimal40(this.digits === '' ? 0 : (this.written ?? `${this.digits}e${this.scale}`));
  }

  /** Its tape text when that is the exact value (at most 20 digits), the smaller thing to keep; else itself. */
  compact(): string | DigitsDecimal {
    return this.digits.length <= TAPE_DIGITS ? this.tape : this;
  }
}

/**
 * The magnitude of a decimal text (`[+-]digits[.digits][e[+-]digits]`, the form the importers
 * accept, surrounding white space aside): null when the text is not one, undefined when it is
 * one the fast path leaves to decimal.js (more than 40 significant digits, or a far exponent).
 *
 * @example
 * readDigitsDecimal('-0012.50e1')!.tape; // '125'
 */
export function readDigitsDecimal(value: string): DigitsDecimal | null | undefined {
  const text = isTrimmed(value) ? value : value.trim();
  const length = text.length;
  let i = 0;
  let c = text.charCodeAt(0);
  const signed = c === 43 /* + */ || c === 45; /* - */
  if (signed) i++;
  const mantissaStart = i;
  let point = -1;
  let first = -1;
  let last = -1;
  let digitCount = 0;
  for (; i < length; i++) {
    c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      digitCount++;
      if (c !== 48) {
        if (first < 0) first = i;
        last = i;
      }
    } else if (c === 46 /* . */ && point < 0) point = i;
    else break;
  }
  if (digitCount === 0) return null;
  const mantissaEnd = i;
  let exponent = 0;
  const hasExponent = i < length;
  if (hasExponent) {
    if (c !== 101 && c !== 69) return null; // e E
    i++;
    let negative = false;
    c = text.charCodeAt(i);
    if (c === 43 || c === 45) {
      negative = c === 45;
      i++;
    }
    const exponentStart = i;
    for (; i < length; i++) {
      c = text.charCodeAt(i);
      if (c < 48 || c > 57) return null;
    }
    if (i === exponentStart) return null;
    // A long exponent is valid text but no export's: decimal.js decides it.
    if (i - exponentStart > 6) return undefined;
    exponent = Number(text.slice(exponentStart, i));
    if (negative) exponent = -exponent;
  }
  if (first < 0) return new DigitsDecimal('', 0);
  const pointAt = point < 0 ? mantissaEnd : point;
  const scale = exponent + (last < pointAt ? pointAt - last - 1 : pointAt - last);
  const across = first < pointAt && pointAt < last;
  const count = last - first + 1 - (across ? 1 : 0);
  if (count > MAX_DIGITS || scale > MAX_SCALE || scale < -MAX_SCALE) return undefined;
  const digits = across ? text.slice(first, pointAt) + text.slice(pointAt + 1, last + 1) : text.slice(first, last + 1);
  const plainAlready = !signed && !hasExponent && isPlainForm(text, mantissaStart, mantissaEnd, point, first);
  return new DigitsDecimal(digits, scale, plainAlready ? text : undefined);
}

/**
 * The number of significant digits of a text already in tape form: a positive decimal in plain
 * notation (digits, at most one point, no sign, no leading zero but the one before a point, no
 * trailing zero after it), at most 20 digits; -1 for any other text. Such a text is its own tape
 * text and needs no object to stand for it: most of an export's amounts are.
 *
 * @example
 * tapeFormDigits('0.0125'); // 3
 * tapeFormDigits('1.50');   // -1 (a trailing zero)
 */
export function tapeFormDigits(text: string): number {
  const length = text.length;
  let point = -1;
  let first = -1;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 49 && c <= 57) {
      if (first < 0) first = i;
    } else if (c === 46 && point < 0) point = i;
    else if (c !== 48) return -1;
  }
  if (first < 0) return -1;
  if (!isPlainForm(text, 0, length, point, first)) return -1;
  const digits = length - first - (point > first ? 1 : 0);
  return digits <= TAPE_DIGITS ? digits : -1;
}

/** True when nothing at either end of the text is white space (the usual, trimmed cell). */
function isTrimmed(text: string): boolean {
  if (text.length === 0) return true;
  const a = text.charCodeAt(0);
  const b = text.charCodeAt(text.length - 1);
  return a > 32 && a < 127 && b > 32 && b < 127;
}

/**
 * True when an unsigned mantissa without exponent is already spelled as decimal.js prints its
 * value: no leading zeros but the one before a point, no trailing zeros after a point, no
 * point at either end. (Zero has been handled: the text has a nonzero digit.)
 */
function isPlainForm(text: string, start: number, end: number, point: number, first: number): boolean {
  if (point < 0) return first === start;
  if (point === start || point === end - 1 || text.charCodeAt(end - 1) === 48) return false;
  // Before the point: one '0' when the value is below 1, else no leading zero.
  return first < point ? first === start : point === start + 1 && text.charCodeAt(start) === 48;
}

/** digits × 10^scale in plain notation, as decimal.js prints with the project's settings. */
export function plain(digits: string, scale: number): string {
  if (digits === '') return '0';
  if (scale >= 0) return scale === 0 ? digits : digits + '0'.repeat(scale);
  const point = digits.length + scale;
  if (point > 0) return `${digits.slice(0, point)}.${digits.slice(point)}`;
  return `0.${'0'.repeat(-point)}${digits}`;
}

/**
 * digits × 10^scale rounded half to even to `keep` significant digits (decimal.js's
 * `toSignificantDigits(keep)` at ROUND_HALF_EVEN), in plain notation. `digits` has no trailing
 * zero, so any digit past the first dropped one makes the rest more than a half.
 */
export function roundedPlain(digits: string, scale: number, keep: number): string {
  if (digits.length <= keep) return plain(digits, scale);
  const dropped = digits.charCodeAt(keep) - 48;
  const beyond = digits.length > keep + 1;
  const kept = digits.slice(0, keep);
  const odd = (kept.charCodeAt(keep - 1) - 48) % 2 === 1;
  const up = dropped > 5 || (dropped === 5 && (beyond || odd));
  let rounded = up ? incremented(kept) : kept;
  let newScale = scale + digits.length - keep;
  // A carry out of the top digit (99…9 + 1) gives one more digit: drop it again.
  if (rounded.length > keep) {
    rounded = rounded.slice(0, keep);
    newScale++;
  }
  let end = rounded.length;
  while (end > 1 && rounded.charCodeAt(end - 1) === 48) end--;
  return plain(rounded.slice(0, end), newScale + rounded.length - end);
}

/** A digit string plus one ('999' gives '1000'). */
function incremented(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits.charCodeAt(i) === 57) i--;
  if (i < 0) return `1${'0'.repeat(digits.length)}`;
  return digits.slice(0, i) + String.fromCharCode(digits.charCodeAt(i) + 1) + '0'.repeat(digits.length - 1 - i);
}

/** A decimal an export gave the digits of, with its tape text known. */
export interface ReadyDecimal {
  /** The text a tape holds: plain notation, rounded half to even to {@link TAPE_DIGITS} significant digits. */
  readonly tape: string;
  /** The nearest float64 (decimal.js's `toNumber`): larger values never give smaller ones. */
  toNumber(): number;
  /** The value as decimal.js, for the rare exact comparison. */
  toDecimal(): Decimal;
}

/** Decimal40's own reading, without its constructor's wrapper. */
function decimal40(d: DigitsDecimal | string): Decimal40Parts {
  return typeof d === 'string' ? parse(d) : d.toDecimal40();
}

/** The 20 digits of a rounded quotient, then its text, written here (see {@link tapeTextOf}). */
const DIGITS = new Uint8Array(TAPE_DIGITS);
const TEXT = Buffer.alloc(128);

/**
 * A positive Decimal40 rounded half to even to 20 significant digits, in plain notation. Its 40
 * digits are limbs of 5 and 7 × 7: the first 20 are c0, c1, c2 and c3's first digit; the other 20
 * decide the rounding. The text is written as bytes and made one flat string: an import keeps a
 * price a row until its tape is written, and a string joined from pieces would be kept as its
 * pieces (and copied as such by every young-generation collection it survives).
 */
function tapeTextOf(q: Decimal40): string {
  let d0 = q.c0;
  let d1 = q.c1;
  let d2 = q.c2;
  let d3 = Math.floor(q.c3 / 1e6);
  const rest = q.c3 - d3 * 1e6;
  // The power of ten of the 20th digit (`e` is the 40th's).
  let scale = q.e + 20;
  if (rest > 5e5 || (rest === 5e5 && (q.c4 !== 0 || q.c5 !== 0 || d3 % 2 === 1))) {
    if (++d3 === 10) {
      d3 = 0;
      if (++d2 === 1e7) {
        d2 = 0;
        if (++d1 === 1e7) {
          d1 = 0;
          // 99…9 + 1 has 21 digits: the last, a zero, is dropped.
          if (++d0 === 1e5) {
            d0 = 1e4;
            scale++;
          }
        }
      }
    }
  }
  putDigits(d0, 0, 5);
  putDigits(d1, 5, 7);
  putDigits(d2, 12, 7);
  DIGITS[19] = d3;
  // Without trailing zeros: `count` digits, the last of power `scale`.
  let count = TAPE_DIGITS;
  while (count > 1 && DIGITS[count - 1] === 0) {
    count--;
    scale++;
  }
  const point = count + scale;
  const length = scale >= 0 ? point : point > 0 ? count + 1 : count + 2 - point;
  // Beyond the buffer (a quotient past 1e100 or below 1e-100, which no tape holds): the same text from strings.
  if (length > TEXT.length) return plain(Array.from(DIGITS.subarray(0, count)).join(''), scale);
  let at = 0;
  if (point <= 0) {
    TEXT[at++] = 48;
    TEXT[at++] = 46;
    for (let k = point; k < 0; k++) TEXT[at++] = 48;
  }
  for (let k = 0; k < count; k++) {
    if (k === point && point > 0) TEXT[at++] = 46;
    TEXT[at++] = 48 + DIGITS[k]!;
  }
  for (let k = 0; k < scale; k++) TEXT[at++] = 48;
  return TEXT.toString('latin1', 0, at);
}

/** `limb`'s `width` digits (leading zeros included) into DIGITS from `at`. */
function putDigits(limb: number, at: number, width: number): void {
  for (let k = at + width - 1; k >= at; k--) {
    const rest = Math.floor(limb / 10);
    DIGITS[k] = limb - rest * 10;
    limb = rest;
  }
}

/**
 * The tape text of amount / quantity as decimal.js divides them (40 digits, half to even), then
 * rounded to 20: both have at most 40 digits (texts in tape form have at most 20), where
 * Decimal40 gives decimal.js's quotient. An import keeps only this text a row, never the
 * quotient; the rare exact comparison divides again ({@link exactQuotient}).
 */
export function quotientTape(amount: DigitsDecimal | string, quantity: DigitsDecimal | string): string {
  return tapeTextOf(quotient40(amount, quantity));
}

/** amount / quantity exactly as decimal.js divides them (40 digits, half to even). */
export function exactQuotient(amount: DigitsDecimal | string, quantity: DigitsDecimal | string): Decimal {
  return new Decimal(quotient40(amount, quantity).toString());
}

/** amount / quantity as Decimal40: decimal.js's quotient (40 digits, half to even), without its objects. */
export function quotient40(amount: DigitsDecimal | string, quantity: DigitsDecimal | string): Decimal40 {
  return divide(decimal40(amount), decimal40(quantity)) as Decimal40;
}
