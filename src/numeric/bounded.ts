/**
 * Double words with a proven error bound, for a pass that must agree with the exact arithmetic:
 * a {@link Bounded} is a double word `head + tail` (numeric/double-word.ts, about 106 bits) and a
 * `radius` such that the number it stands for, `x`, lies within `radius` of `head + tail`. "The
 * number it stands for" is the one the exact engine computes with the same formula: `Decimal40`
 * rounds each result to 40 digits, so every operation widens its radius by a relative
 * {@link SLACK} of its result that covers at once:
 *
 * - the double-word operation's own error (an addition < 3 × 2^-106 of its result, a product
 *   < 2^-102, a quotient < 15 × 2^-106 + 56 × 2^-159: Joldes, Muller and Popescu, 2017);
 * - the engine's rounding of its result to 40 significant digits (< 5 × 10^-40, about 2^-130);
 * - the engine's roundings of the intermediate results of a formula written here in an equal
 *   form (such as `V / (1 + s)` against `V × (1 / (1 + s))`): a few 40-digit roundings of
 *   numbers of the result's size.
 *
 * With `SLACK = 2^-98`, each bound holds with room to spare; the radius's own double arithmetic
 * (a relative 2^-53 a step) is covered by multiplying it by {@link GROW}, and {@link TINY} covers
 * results near the subnormal range. A decision whose two sides overlap cannot be made here: it
 * throws {@link Undecided}, and the caller falls back to the exact arithmetic for that whole case.
 * A printed figure is the double nearest to the exact value ({@link printed}): decided when every
 * number within the radius rounds to the same double, which at a radius near 2^-98 of the value
 * fails only within about 2^-45 of a rounding boundary.
 */
import { addWords, CONVERSION_ERROR, decide40, divideWords, multiplyWords, rawToWord } from './double-word.js';
import type { DecimalInput } from './decimal40-parse.js';

/** Relative widening of every result: see the module comment. */
const SLACK = 2 ** -98;
/** Absolute widening of every radius that is not zero: far below any amount a tape carries. */
const TINY = 2 ** -1000;
const GROW = 1 + 2 ** -50;
/** A double word's head bounds its magnitude within this factor (its tail is at most half an ulp). */
const HEAD_BOUND = 1 + 2 ** -52;

/** A real number within `radius` of the double word `head + tail`. */
export class Bounded {
  constructor(
    readonly head: number,
    readonly tail: number,
    readonly radius: number,
  ) {}

  /** Lowest value the number may take, as a double not above it. */
  get low(): number {
    return this.head - (Math.abs(this.tail) + this.radius) * GROW - Math.abs(this.head) * 2 ** -52;
  }

  /** Highest value the number may take, as a double not below it. */
  get high(): number {
    return this.head + (Math.abs(this.tail) + this.radius) * GROW + Math.abs(this.head) * 2 ** -52;
  }
}

/** Thrown when double words cannot decide a comparison the exact arithmetic makes. */
export class Undecided extends Error {
  constructor(what: string) {
    super(`undecided in double words: ${what}`);
  }
}

export const ZERO_BOUNDED = new Bounded(0, 0, 0);
export const ONE_BOUNDED = new Bounded(1, 0, 0);
export const HUNDRED_BOUNDED = new Bounded(100, 0, 0);

/** A number known exactly as a double (a whole number of tokens below 2^53, a count, a zero). */
export function exactly(value: number): Bounded {
  return new Bounded(value, 0, 0);
}

/** Where the double-word operations leave their results. */
const WORD = new Float64Array(2);

/**
 * A decimal of the input (a JSON number or decimal text, as `Decimal` reads it), within 2^-100 of
 * it (`rawToWord`); one beyond the range of the table of powers is undecided.
 */
export function fromDecimal(raw: DecimalInput): Bounded {
  // A whole number below 10^15 is a double exactly (a balance of 1000, a fee of 0).
  if (typeof raw === 'number' ? Number.isSafeInteger(raw) && raw >= 0 : /^\d{1,15}$/.test(raw)) {
    return exactly(Number(raw));
  }
  rawToWord(WORD, raw);
  return converted(WORD[0]!, WORD[1]!);
}

/** A decimal already converted to a double word (within 2^-100 of it, as `rawToWord` gives). */
export function converted(head: number, tail: number): Bounded {
  if (!Number.isFinite(head)) throw new Undecided(`a decimal beyond the range of double words`);
  return new Bounded(head, tail, head === 0 && tail === 0 ? 0 : Math.abs(head) * CONVERSION_ERROR + TINY);
}

/** The radius of a result of head `head` whose operands contribute `spread`. */
function widened(head: number, spread: number): number {
  if (spread === 0 && head === 0) return 0;
  return (spread + Math.abs(head) * SLACK) * GROW + TINY;
}

function result(spread: number): Bounded {
  const head = WORD[0]!;
  if (!Number.isFinite(head)) throw new Undecided('a result beyond the range of doubles');
  return new Bounded(head, WORD[1]!, widened(head, spread));
}

export function plus(a: Bounded, b: Bounded): Bounded {
  // Adding an exact 0 rounds nothing.
  if (isExactZero(b)) return a;
  if (isExactZero(a)) return b;
  addWords(WORD, a.head, a.tail, b.head, b.tail);
  return result(a.radius + b.radius);
}

export function minus(a: Bounded, b: Bounded): Bounded {
  // A number less itself is 0 exactly, less an exact 0 itself.
  if (a === b) return ZERO_BOUNDED;
  if (isExactZero(b)) return a;
  addWords(WORD, a.head, a.tail, -b.head, -b.tail);
  return result(a.radius + b.radius);
}

function isExactZero(x: Bounded): boolean {
  return x.head === 0 && x.tail === 0 && x.radius === 0;
}

/** `|xy − ab| ≤ |a|·rb + |b|·ra + ra·rb` for `x` within `ra` of `a`, `y` within `rb` of `b`. */
export function times(a: Bounded, b: Bounded): Bounded {
  multiplyWords(WORD, a.head, a.tail, b.head, b.tail);
  const spread =
    Math.abs(a.head) * HEAD_BOUND * b.radius + Math.abs(b.head) * HEAD_BOUND * a.radius + a.radius * b.radius;
  return result(spread);
}

/**
 * `|x/y − a/b| ≤ (ra + |a/b|·rb) / (|b| − rb)` while `|b| > rb`; a divisor whose interval holds
 * zero is undecided.
 */
export function dividedBy(a: Bounded, b: Bounded): Bounded {
  const floor = Math.abs(b.head) / HEAD_BOUND - b.radius * GROW;
  if (!(floor > 0)) throw new Undecided('a divisor that may be zero');
  divideWords(WORD, a.head, a.tail, b.head, b.tail);
  const spread = ((a.radius + Math.abs(WORD[0]!) * HEAD_BOUND * b.radius) / floor) * GROW;
  return result(spread);
}

/** The sign of the number: 1, -1, or 0 for an exact zero; undecided when its interval holds zero and more. */
export function sign(a: Bounded, what: string): number {
  if (a.radius === 0) return a.head > 0 ? 1 : a.head < 0 ? -1 : 0;
  if (Math.abs(a.head) / HEAD_BOUND > a.radius * GROW) return a.head > 0 ? 1 : -1;
  throw new Undecided(what);
}

/** `x ≤ y`, decided; throws {@link Undecided} when the two intervals overlap. */
export function atMost(a: Bounded, b: Bounded, what: string): boolean {
  if (a.radius === 0 && b.radius === 0 && a.tail === 0 && b.tail === 0) return a.head <= b.head;
  const o = order(b, a);
  if (o === 0) throw new Undecided(what);
  return o > 0;
}

/**
 * Whether `a − b` is surely positive (1), surely negative (-1), or not decided (0): the sign of
 * the difference as {@link minus} would bound it, made without a result object.
 */
export function order(a: Bounded, b: Bounded): number {
  addWords(WORD, a.head, a.tail, -b.head, -b.tail);
  const head = WORD[0]!;
  const spread = a.radius + b.radius;
  if (spread === 0 && head === 0) return 0;
  const radius = widened(head, spread);
  return Math.abs(head) / HEAD_BOUND > radius * GROW ? (head > 0 ? 1 : -1) : 0;
}

/**
 * A number, centred on `center`, whose interval holds both `center`'s and `other`'s: the larger or
 * smaller of two that cannot be told apart, or two results the exact arithmetic tells apart only
 * where they are equal but for its roundings (two branches that meet at a tie).
 */
export function either(center: Bounded, other: Bounded): Bounded {
  if (center.radius === 0 && other.radius === 0 && center.head === other.head && center.tail === other.tail) {
    return center; // the same exact number
  }
  const reach = other.radius + Math.abs(other.head - center.head) * HEAD_BOUND + Math.abs(other.tail - center.tail);
  return new Bounded(center.head, center.tail, Math.max(center.radius, reach) * GROW + TINY);
}

/**
 * The smaller of two numbers, whichever it is: the one surely below the other, or, when that is
 * not decided, a number whose interval holds both (the exact arithmetic's `min` is one of them).
 */
export function smaller(a: Bounded, b: Bounded): Bounded {
  const o = order(a, b);
  return o < 0 ? a : o > 0 ? b : either(a, b);
}

/** The larger of two numbers, as {@link smaller}. */
export function larger(a: Bounded, b: Bounded): Bounded {
  const o = order(a, b);
  return o > 0 ? a : o < 0 ? b : either(a, b);
}

/**
 * `x − y`, floored at 0 (model section 2: a leader's holdings after a sell; a fall from a peak):
 * exactly 0 when surely `x ≤ y`, and a number within `[0, high]` when that cannot be decided
 * (either answer of the exact arithmetic lies there).
 */
export function minusFloored(a: Bounded, b: Bounded): Bounded {
  const o = order(a, b);
  if (o <= 0 && a.radius === 0 && b.radius === 0 && a.tail === 0 && b.tail === 0) return ZERO_BOUNDED;
  if (o < 0) return ZERO_BOUNDED;
  const difference = minus(a, b);
  if (o > 0) return difference;
  const high = difference.high;
  if (high <= 0) return ZERO_BOUNDED;
  return new Bounded(high / 2, 0, (high / 2) * GROW + TINY);
}

/**
 * The double the response prints for the number (the nearest double of the exact value, as
 * `toJsonNumber` gives it): exact zeros and exact doubles as they are, otherwise decided when
 * every value within the radius rounds to the same double; undecided when not.
 */
export function printed(a: Bounded, what: string): number {
  if (a.radius === 0 && a.tail === 0) return a.head === 0 ? 0 : a.head;
  const d = decide40(a.head, a.tail, a.radius);
  if (d !== d) throw new Undecided(`the printed ${what}`);
  return d;
}
