import { Raw, zero40, type Decimal40Parts } from './decimal40-parts.js';
import { POW10 as POWERS_OF_TEN } from './nearest-double.js';

/**
 * Base-10^7 limb arithmetic and the rounding of a long coefficient to a Decimal40's 40 digits,
 * half to even: what parsing, the additions' general path and exact sums end with. Limbs are
 * most significant first; a product of two limbs (< 10^14) and a column of six such products
 * stay far below 2^53, exact in a float64.
 *
 * The additions and the products keep their own copies of the constants and of `floorDiv`
 * (`decimal40-add.ts`, `decimal40-multiply.ts`): an imported binding is read through a cell,
 * with a check that it is initialised, at every use (see `exact-sum.ts`).
 */

const BASE = 1e7;
/** The top limb of a 40-digit coefficient lies in [C0_START, C0_END). */
const C0_START = 1e4;
const C0_END = 1e5;
/**
 * Reciprocals for the limb splits: a product by `1e-k` is much cheaper than a division by
 * `1e k`; it may land one off after `floor`, which every split corrects.
 */
const INV_BASE = 1e-7;
const POW10: readonly number[] = POWERS_OF_TEN;
const INV_POW10: readonly number[] = POW10.map((p) => 1 / p);

/** Scratch for {@link exact40}: its result's 40 digits land in SHIFTED[8, 14). */
const SHIFTED = new Float64Array(14);

/**
 * The decimal `sign × L × 10^e` for the 40-digit coefficient `L` in `limbs[at, at + 6)`, plus
 * one unit in its last place when `roundUp` (carrying up to 10^40 = 10^39 × 10).
 */
export function fromLimbs(sign: number, e: number, limbs: Float64Array, at: number, roundUp: boolean): Decimal40Parts {
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
export function scaleLimbs(
  limbs: Float64Array,
  from: number,
  to: number,
  factor: number,
  out: Float64Array,
  outEnd: number,
): number {
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
export function propagateCarries(limbs: Float64Array, top: number, end: number): void {
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

export function anyNonZero(limbs: Float64Array, from: number, to: number): boolean {
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
export function round40(
  limbs: Float64Array,
  length: number,
  sticky: boolean,
  lowExp: number,
  sign: number,
): Decimal40Parts {
  let top = 0;
  while (top < length && limbs[top] === 0) top++;
  if (top === length) return zero40();
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
function exact40(
  limbs: Float64Array,
  top: number,
  length: number,
  shift: number,
  lowExp: number,
  sign: number,
): Decimal40Parts {
  const zeroLimbs = Math.floor(shift / 7);
  const factor = POW10[shift - 7 * zeroLimbs]!;
  SHIFTED.fill(0);
  // Written right-aligned so the result's 40 digits land in SHIFTED[8, 14).
  const end = 13 - zeroLimbs;
  SHIFTED[end - (length - top)] = scaleLimbs(limbs, top, length, factor, SHIFTED, end);
  return fromLimbs(sign, lowExp - shift, SHIFTED, 8, false);
}
