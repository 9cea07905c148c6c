import { compareCoefficients, Raw, unpack, zero40, type Decimal40Parts } from './decimal40-parts.js';
import { anyNonZero, fromLimbs, round40, scaleLimbs } from './decimal40-rounding.js';
import { POW10 as POWERS_OF_TEN } from './nearest-double.js';

/**
 * Addition and subtraction of Decimal40s, rounded half to even to 40 digits. Operands of like
 * size (exponents less than seven digits apart) take a path written out limb by limb in locals;
 * farther apart, the smaller operand is shifted down to the larger one's scale; only when leading
 * digits cancel is the exact difference formed and rounded (`round40`).
 */

// The hot paths read these as this module's own constants and function: an imported binding is
// read through a cell, with a check that it is initialised, at every use (see `exact-sum.ts`).
const BASE = 1e7;
const C0_START = 1e4;
const C0_END = 1e5;
const POW10: readonly number[] = POWERS_OF_TEN;
const INV_POW10: readonly number[] = POW10.map((p) => 1 / p);

/** `floor(v / unit)` exactly, as in `decimal40-rounding.ts`. */
function floorDiv(v: number, unit: number, inverse: number): number {
  const q = Math.floor(v * inverse);
  const rest = v - q * unit;
  return rest < 0 ? q - 1 : rest >= unit ? q + 1 : q;
}

// Scratch arrays, base-10^7 limbs, most significant first. Every operation fills what it reads.
const X = new Float64Array(6);
const Y = new Float64Array(6);
const WORK = new Float64Array(14);

/** `a + ySign × |b|`. */
export function add(a: Decimal40Parts, b: Decimal40Parts, ySign: number): Decimal40Parts {
  if (b.c0 === 0) return a;
  if (a.c0 === 0) return ySign === b.s ? b : negated(b);
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
  if (d > 42) return xSign === x.s ? x : negated(x);
  const subtract = xSign !== ySign;
  if (subtract && order === 0) return zero40();
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

/** `-d` for a nonzero `d`. */
function negated(d: Decimal40Parts): Decimal40Parts {
  return new Raw(-d.s, d.e, d.c0, d.c1, d.c2, d.c3, d.c4, d.c5);
}

/**
 * `out[k] = a[k] ± b[k − offset]` for k from `length − 1` down to 0 (`b` is 0 outside its six
 * limbs), with the carry (adding) or borrow (subtracting) passed up from limb to limb, starting
 * with `flow`. Gives what flows out of limb 0. `out` may be `a`.
 */
function addLimbs(
  a: Float64Array,
  length: number,
  b: Float64Array,
  offset: number,
  subtract: boolean,
  flow: number,
  out: Float64Array,
): number {
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
function addAtScaleOfX(
  x: Decimal40Parts,
  y: Decimal40Parts,
  d: number,
  subtract: boolean,
  sign: number,
): Decimal40Parts | null {
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
function roundAligned(
  sign: number,
  e: number,
  subtract: boolean,
  versusHalf: number,
  belowNonZero: boolean,
): Decimal40Parts | null {
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
function addWithinALimb(
  x: Decimal40Parts,
  y: Decimal40Parts,
  d: number,
  subtract: boolean,
  sign: number,
): Decimal40Parts | null {
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
