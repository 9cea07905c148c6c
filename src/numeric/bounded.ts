/**
 * Doubles with a proven error bound, for a quick pass that must agree with the exact arithmetic:
 * a {@link Bounded} is a double `value` and a `radius` such that the number it stands for, `x`,
 * lies in `[value − radius, value + radius]`. "The number it stands for" is the one the exact
 * engine computes with the same formula: `Decimal40` rounds each result to 40 digits, so every
 * operation here widens its radius by a relative {@link SLACK} that covers three things at once:
 *
 * - the rounding of the double result itself (at most half a unit in the last place, a relative
 *   2^-53);
 * - the rounding of the engine's own result to 40 significant digits (a relative 5 × 10^-41);
 * - the rounding of the few double operations that compute the radius (each a relative 2^-53).
 *
 * With `SLACK = 2^-50` (8 × 2^-53) and the radius also multiplied by `1 + SLACK`, each bound
 * holds with room to spare; {@link TINY} covers results near the subnormal range, where a relative
 * bound fails. A comparison whose two intervals overlap cannot be decided in doubles: it throws
 * {@link Undecided}, and the caller falls back to the exact arithmetic for that whole case.
 */

/** Relative widening of every result: see the module comment. */
export const SLACK = 2 ** -50;
/** Absolute widening of every radius: far below any amount a tape carries, above the subnormals. */
export const TINY = 2 ** -1000;
const GROW = 1 + SLACK;

/** A real number within `radius` of `value`. */
export class Bounded {
  constructor(
    readonly value: number,
    readonly radius: number,
  ) {}

  /** Lowest value the number may take, as a double not above it. */
  get low(): number {
    return this.value - this.radius * GROW - Math.abs(this.value) * SLACK;
  }

  /** Highest value the number may take, as a double not below it. */
  get high(): number {
    return this.value + this.radius * GROW + Math.abs(this.value) * SLACK;
  }
}

/** Thrown when doubles cannot decide a comparison the exact arithmetic makes. */
export class Undecided extends Error {
  constructor(what: string) {
    super(`undecided in doubles: ${what}`);
  }
}

export const ZERO_BOUNDED = new Bounded(0, 0);

/** A number known exactly (a whole number of tokens, a count, a zero). */
export function exactly(value: number): Bounded {
  return new Bounded(value, 0);
}

/**
 * A decimal of the input (a JSON number or decimal text): `Number` rounds it correctly, so it
 * is within half a unit in the last place, a relative 2^-53.
 */
export function fromDecimal(raw: number | string): Bounded {
  return roundedDecimal(typeof raw === 'number' ? raw : Number(raw));
}

/** A decimal given as the double `Number` reads it as (correctly rounded); one beyond a double's range is undecided. */
export function roundedDecimal(value: number): Bounded {
  if (!Number.isFinite(value)) throw new Undecided(`the decimal ${value} is beyond a double's range`);
  return new Bounded(value, Math.abs(value) * SLACK + TINY);
}

/** The radius of a result `value` whose operands contribute `spread`. */
function widened(value: number, spread: number): number {
  return (spread + Math.abs(value) * SLACK) * GROW + TINY;
}

export function plus(a: Bounded, b: Bounded): Bounded {
  const value = a.value + b.value;
  return new Bounded(value, widened(value, a.radius + b.radius));
}

export function minus(a: Bounded, b: Bounded): Bounded {
  const value = a.value - b.value;
  return new Bounded(value, widened(value, a.radius + b.radius));
}

/** `|xy − ab| ≤ |a|·rb + |b|·ra + ra·rb` for `x` within `ra` of `a`, `y` within `rb` of `b`. */
export function times(a: Bounded, b: Bounded): Bounded {
  const value = a.value * b.value;
  const spread = Math.abs(a.value) * b.radius + Math.abs(b.value) * a.radius + a.radius * b.radius;
  return new Bounded(value, widened(value, spread));
}

/**
 * `|x/y − a/b| ≤ (ra + |a/b|·rb) / (|b| − rb)` while `|b| > rb`; a divisor whose interval holds
 * zero is undecided.
 */
export function dividedBy(a: Bounded, b: Bounded): Bounded {
  const floor = Math.abs(b.value) - b.radius * GROW;
  if (!(floor > 0)) throw new Undecided('a divisor that may be zero');
  const value = a.value / b.value;
  const spread = ((a.radius + Math.abs(value) * GROW * b.radius) / floor) * GROW;
  return new Bounded(value, widened(value, spread));
}

/**
 * The smaller of two numbers, whichever it is: the one surely below the other, or, when their
 * intervals overlap, either (the exact arithmetic's `min` is one of them), both within the
 * radius given of the smaller value.
 */
export function smaller(a: Bounded, b: Bounded): Bounded {
  const [low, other] = a.value <= b.value ? [a, b] : [b, a];
  if (low.high < other.low) return low;
  const reach = other.radius + (other.value - low.value);
  return new Bounded(low.value, Math.max(low.radius, reach) * GROW);
}

/** `x ≤ y`, decided; throws {@link Undecided} when the two intervals overlap. */
export function atMost(a: Bounded, b: Bounded, what: string): boolean {
  if (a.radius === 0 && b.radius === 0) return a.value <= b.value;
  if (a.high < b.low) return true;
  if (a.low > b.high) return false;
  throw new Undecided(what);
}

/**
 * `x − y`, floored at 0 (model section 2: a leader's holdings after a sell): exactly 0 when
 * surely `x ≤ y`, and within `[0, high]` when that cannot be decided (either answer of the exact
 * arithmetic lies there).
 */
export function minusFloored(a: Bounded, b: Bounded): Bounded {
  if (a.radius === 0 && b.radius === 0 && a.value <= b.value) return ZERO_BOUNDED;
  const difference = minus(a, b);
  if (difference.low > 0) return difference;
  const high = difference.high;
  if (high <= 0) return ZERO_BOUNDED;
  return new Bounded(high / 2, (high / 2) * GROW);
}
