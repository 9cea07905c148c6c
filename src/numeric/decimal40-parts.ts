/**
 * How a Decimal40 is stored, and the one way one is built (see the class in `decimal40.ts`).
 *
 * `value = s × C × 10^e`, where the coefficient `C` has exactly 40 digits, kept as six base-10^7
 * limbs `c0…c5` (`10^4 ≤ c0 < 10^5`), unless the value is zero (every limb 0, `s = 1`, `e = 0`).
 *
 * The modules that compute values (parsing, rounding, the four operations) work on these parts
 * and build their results with {@link Raw}; `decimal40.ts` gives Raw the class's prototype when it
 * loads, so every value built here is a Decimal40 with the class's methods. That module imports
 * all the others, so it has loaded before any value is made; for the same reason no value is
 * made while these modules load (hence {@link zero40} builds zero on first use).
 */

/** The stored parts of a Decimal40, as the modules that compute values read them. */
export interface Decimal40Parts {
  /** Sign: 1 or -1 (zero is always 1). */
  readonly s: number;
  /** Exponent of the coefficient's last digit. */
  readonly e: number;
  /** The coefficient's six base-10^7 limbs, most significant first (`c0` below 10^5). */
  readonly c0: number;
  readonly c1: number;
  readonly c2: number;
  readonly c3: number;
  readonly c4: number;
  readonly c5: number;
}

type WritableParts = { -readonly [K in keyof Decimal40Parts]: number };

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
export const Raw = function (
  this: WritableParts,
  s: number,
  e: number,
  c0: number,
  c1: number,
  c2: number,
  c3: number,
  c4: number,
  c5: number,
): void {
  this.s = s;
  this.e = e;
  this.c0 = c0 | 0;
  this.c1 = c1 | 0;
  this.c2 = c2 | 0;
  this.c3 = c3 | 0;
  this.c4 = c4 | 0;
  this.c5 = c5 | 0;
} as unknown as new (
  s: number,
  e: number,
  c0: number,
  c1: number,
  c2: number,
  c3: number,
  c4: number,
  c5: number,
) => Decimal40Parts;

/** @internal The decimal `s × C × 10^e` from its stored parts (no checks). */
export function decimal40(
  s: number,
  e: number,
  c0: number,
  c1: number,
  c2: number,
  c3: number,
  c4: number,
  c5: number,
): Decimal40Parts {
  return new Raw(s, e, c0, c1, c2, c3, c4, c5);
}

let zero: Decimal40Parts | null = null;

/** Zero, one value for all (built on first use: see the module's comment). */
export function zero40(): Decimal40Parts {
  return (zero ??= new Raw(1, 0, 0, 0, 0, 0, 0, 0));
}

/** @internal The coefficient of `d` as six base-10^7 limbs into `out`. */
export function unpack(d: Decimal40Parts, out: Float64Array): void {
  out[0] = d.c0;
  out[1] = d.c1;
  out[2] = d.c2;
  out[3] = d.c3;
  out[4] = d.c4;
  out[5] = d.c5;
}

/** -1, 0 or 1 as the coefficient of `a` is below, equal to or above that of `b`. */
export function compareCoefficients(a: Decimal40Parts, b: Decimal40Parts): number {
  if (a.c0 !== b.c0) return a.c0 > b.c0 ? 1 : -1;
  if (a.c1 !== b.c1) return a.c1 > b.c1 ? 1 : -1;
  if (a.c2 !== b.c2) return a.c2 > b.c2 ? 1 : -1;
  if (a.c3 !== b.c3) return a.c3 > b.c3 ? 1 : -1;
  if (a.c4 !== b.c4) return a.c4 > b.c4 ? 1 : -1;
  if (a.c5 !== b.c5) return a.c5 > b.c5 ? 1 : -1;
  return 0;
}
