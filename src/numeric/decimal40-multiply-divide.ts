import { decimal40, Raw, unpack, zero40, type Decimal40Parts } from './decimal40-parts.js';
import { anyNonZero, fromLimbs, propagateCarries } from './decimal40-rounding.js';
import { POW10 as POWERS_OF_TEN } from './nearest-double.js';

/**
 * Multiplication and division of Decimal40s, rounded half to even to 40 digits. Both end the same
 * way: limbs of the exact product or quotient, carried and rounded in locals by `roundTop`.
 */

// The hot paths read these as this module's own constants and function: an imported binding is
// read through a cell, with a check that it is initialised, at every use (see `exact-sum.ts`).
const BASE = 1e7;
const INV_BASE = 1e-7;
const C0_START = 1e4;
const POW10: readonly number[] = POWERS_OF_TEN;
const INV_POW10: readonly number[] = POW10.map((p) => 1 / p);

/** `floor(v / unit)` exactly, as in `decimal40-rounding.ts`. */
function floorDiv(v: number, unit: number, inverse: number): number {
  const q = Math.floor(v * inverse);
  const rest = v - q * unit;
  return rest < 0 ? q - 1 : rest >= unit ? q + 1 : q;
}

// Scratch arrays, base-10^7 limbs, most significant first. Every operation fills what it reads.
const Y = new Float64Array(6);
const WORK = new Float64Array(6);
const REMAINDER = new Float64Array(13);
/**
 * The limbs that roundTop rounds, `COLUMNS[1, 7)`: a product's top column sums, or a division's
 * quotient limbs (its first one in `COLUMNS[0]`).
 */
const COLUMNS = new Float64Array(7);

export function multiply(a: Decimal40Parts, b: Decimal40Parts): Decimal40Parts {
  if (a.c0 === 0 || b.c0 === 0) return zero40();
  if (hasOneLimb(b)) return b.c0 === C0_START ? shifted(a, b) : multiplyByOneLimb(a, b);
  if (hasOneLimb(a)) return a.c0 === C0_START ? shifted(b, a) : multiplyByOneLimb(b, a);
  if (hasTwoLimbs(b)) return multiplyByTwoLimbs(a, b);
  if (hasTwoLimbs(a)) return multiplyByTwoLimbs(b, a);
  const a0 = a.c0;
  const a1 = a.c1;
  const a2 = a.c2;
  const a3 = a.c3;
  const a4 = a.c4;
  const a5 = a.c5;
  const b0 = b.c0;
  const b1 = b.c1;
  const b2 = b.c2;
  const b3 = b.c3;
  const b4 = b.c4;
  const b5 = b.c5;
  // Column sums of the schoolbook product, written out in locals: each is at most six products
  // below 10^14, exact in a float64. The five columns below p6 are carried up at once; of them
  // only whether any is nonzero is kept.
  let p = a5 * b5;
  let carry = floorDiv(p, BASE, INV_BASE);
  let below = p !== carry * BASE;
  p = a4 * b5 + a5 * b4 + carry;
  carry = floorDiv(p, BASE, INV_BASE);
  below = below || p !== carry * BASE;
  p = a3 * b5 + a4 * b4 + a5 * b3 + carry;
  carry = floorDiv(p, BASE, INV_BASE);
  below = below || p !== carry * BASE;
  p = a2 * b5 + a3 * b4 + a4 * b3 + a5 * b2 + carry;
  carry = floorDiv(p, BASE, INV_BASE);
  below = below || p !== carry * BASE;
  p = a1 * b5 + a2 * b4 + a3 * b3 + a4 * b2 + a5 * b1 + carry;
  carry = floorDiv(p, BASE, INV_BASE);
  below = below || p !== carry * BASE;
  // The top six columns go to roundTop through a typed array: as arguments of a call, each
  // (beyond 2^31) would be boxed.
  const columns = COLUMNS;
  columns[1] = a0 * b0;
  columns[2] = a0 * b1 + a1 * b0;
  columns[3] = a0 * b2 + a1 * b1 + a2 * b0;
  columns[4] = a0 * b3 + a1 * b2 + a2 * b1 + a3 * b0;
  columns[5] = a0 * b4 + a1 * b3 + a2 * b2 + a3 * b1 + a4 * b0;
  columns[6] = a0 * b5 + a1 * b4 + a2 * b3 + a3 * b2 + a4 * b1 + a5 * b0 + carry;
  return roundTop(a.s * b.s, a.e + b.e + 35, 0, below);
}

/**
 * `a × b` for a power of ten `b` (`b.c0 = 10^4`, no other digit: a rate such as 1 % or a buy
 * percentage of 10 %): exact, `a`'s coefficient times 10^39, so only the exponent moves. A
 * function of its own, called through `decimal40`: written into `multiplyByOneLimb`, it makes
 * `multiply` too large for V8 to inline its helpers (`floorDiv` becomes a call, `new Raw` a
 * generic construction), which costs the summary replay more than the shortcut saves.
 */
function shifted(a: Decimal40Parts, b: Decimal40Parts): Decimal40Parts {
  return decimal40(a.s * b.s, a.e + b.e + 39, a.c0, a.c1, a.c2, a.c3, a.c4, a.c5);
}

/** True when the coefficient of `d` lies in its top limb: at most five significant digits. */
function hasOneLimb(d: Decimal40Parts): boolean {
  return d.c1 === 0 && hasTwoLimbs(d);
}

/** True when the coefficient of `d` lies in its top two limbs: at most twelve significant digits. */
function hasTwoLimbs(d: Decimal40Parts): boolean {
  return d.c2 === 0 && d.c3 === 0 && d.c4 === 0 && d.c5 === 0;
}

/**
 * {@link multiply} when `b` has at most twelve significant digits (a price as a tape writes it,
 * in the PnL chart's valuations): two limb products per limb of `a`, one column below the sixth.
 */
function multiplyByTwoLimbs(a: Decimal40Parts, b: Decimal40Parts): Decimal40Parts {
  const b0 = b.c0;
  const b1 = b.c1;
  const p = a.c5 * b1;
  const carry = floorDiv(p, BASE, INV_BASE);
  const columns = COLUMNS;
  columns[1] = a.c0 * b0;
  columns[2] = a.c0 * b1 + a.c1 * b0;
  columns[3] = a.c1 * b1 + a.c2 * b0;
  columns[4] = a.c2 * b1 + a.c3 * b0;
  columns[5] = a.c3 * b1 + a.c4 * b0;
  columns[6] = a.c4 * b1 + a.c5 * b0 + carry;
  return roundTop(a.s * b.s, a.e + b.e + 35, 0, p !== carry * BASE);
}

/**
 * {@link multiply} when `b` has at most five significant digits (its coefficient is `b.c0 ×
 * 10^35`, a constant such as 100 or 0.5 or a round amount): one limb product per limb of `a`,
 * and nothing below the sixth column.
 */
function multiplyByOneLimb(a: Decimal40Parts, b: Decimal40Parts): Decimal40Parts {
  const y = b.c0;
  const columns = COLUMNS;
  columns[1] = a.c0 * y;
  columns[2] = a.c1 * y;
  columns[3] = a.c2 * y;
  columns[4] = a.c3 * y;
  columns[5] = a.c4 * y;
  columns[6] = a.c5 * y;
  return roundTop(a.s * b.s, a.e + b.e + 35, 0, false);
}

/**
 * The end of a product or a quotient, written in locals for speed: the decimal
 * `sign × (Σ p_k × 10^(7 × (6 − k))) × 10^e6` rounded half to even to 40 digits, for the limbs
 * `p1…p6` in `COLUMNS[1, 7)` and `p0 = top`, given before their carries (any integers below 2^53
 * in magnitude: a product's column sums, p6 with the carry of the columns below it, or a long
 * division's quotient limbs) and `below`, whether anything nonzero lies below p6.
 *
 * Once carried, the top limb `p0` has 0 to 3 digits: 2 or 3 for the product of two 40-digit
 * coefficients (79 or 80 digits), 0 or 1 for the quotient `A × 10^42 / B` (42 or 43 digits). The
 * 40 digits are then those of `p0…p5` and the top of `p6`, and each new limb is the low digits of
 * one carried limb, shifted up, and the high digits of the next.
 */
function roundTop(sign: number, e6: number, top: number, below: boolean): Decimal40Parts {
  let p1 = COLUMNS[1]!;
  let p2 = COLUMNS[2]!;
  let p3 = COLUMNS[3]!;
  let p4 = COLUMNS[4]!;
  let p5 = COLUMNS[5]!;
  let p6 = COLUMNS[6]!;
  let carry = floorDiv(p6, BASE, INV_BASE);
  p6 -= carry * BASE;
  p5 += carry;
  carry = floorDiv(p5, BASE, INV_BASE);
  p5 -= carry * BASE;
  p4 += carry;
  carry = floorDiv(p4, BASE, INV_BASE);
  p4 -= carry * BASE;
  p3 += carry;
  carry = floorDiv(p3, BASE, INV_BASE);
  p3 -= carry * BASE;
  p2 += carry;
  carry = floorDiv(p2, BASE, INV_BASE);
  p2 -= carry * BASE;
  p1 += carry;
  carry = floorDiv(p1, BASE, INV_BASE);
  p1 -= carry * BASE;
  const p0 = top + carry;
  // The low `cut` digits of each limb move down to the next new limb.
  const cut = p0 === 0 ? 2 : p0 < 10 ? 3 : p0 < 100 ? 4 : 5;
  const unit = POW10[cut]!;
  const inverse = INV_POW10[cut]!;
  const scale = BASE / unit;
  let high = floorDiv(p1, unit, inverse);
  const c0 = p0 * scale + high;
  let rest = p1 - high * unit;
  high = floorDiv(p2, unit, inverse);
  const c1 = rest * scale + high;
  rest = p2 - high * unit;
  high = floorDiv(p3, unit, inverse);
  const c2 = rest * scale + high;
  rest = p3 - high * unit;
  high = floorDiv(p4, unit, inverse);
  const c3 = rest * scale + high;
  rest = p4 - high * unit;
  high = floorDiv(p5, unit, inverse);
  const c4 = rest * scale + high;
  rest = p5 - high * unit;
  high = floorDiv(p6, unit, inverse);
  const c5 = rest * scale + high;
  rest = p6 - high * unit;
  const half = unit / 2;
  const above = rest > half ? 1 : rest < half ? -1 : below ? 1 : 0;
  const e = e6 + cut;
  if (above < 0 || (above === 0 && c5 % 2 === 0)) return new Raw(sign, e, c0, c1, c2, c3, c4, c5);
  if (c5 + 1 < BASE) return new Raw(sign, e, c0, c1, c2, c3, c4, c5 + 1);
  WORK[0] = c0;
  WORK[1] = c1;
  WORK[2] = c2;
  WORK[3] = c3;
  WORK[4] = c4;
  WORK[5] = c5;
  return fromLimbs(sign, e, WORK, 0, true);
}

/**
 * `a / b`: the quotient of `A × 10^42` by `B` (A, B the coefficients) by long division in base
 * 10^7, seven quotient limbs (42 or 43 digits, so at least two below the 40th), the remainder
 * as the sticky part.
 *
 * Carries are put off to the end. Each quotient limb is estimated in float64 from the leading
 * limbs of the remainder and of `B`, and `q × B` is taken from the remainder limb by limb with
 * no carry: a limb may go negative or past the base, but stays an integer far below 2^53, so
 * exact. The estimate may be one off either way; the next limb's estimate then comes out
 * negative or past the base and makes up for it. Once at the end the remainder is normalised
 * (and brought into `[0, B)` by a last correction) and the quotient limbs are carried.
 */
export function divide(a: Decimal40Parts, b: Decimal40Parts): Decimal40Parts {
  if (b.c0 === 0) throw new RangeError('division by zero');
  if (a.c0 === 0) return zero40();
  unpack(b, Y);
  const y0 = Y[0]!;
  const y1 = Y[1]!;
  const y2 = Y[2]!;
  const y3 = Y[3]!;
  const y4 = Y[4]!;
  const y5 = Y[5]!;
  const r = REMAINDER;
  r[0] = 0;
  r[1] = a.c0;
  r[2] = a.c1;
  r[3] = a.c2;
  r[4] = a.c3;
  r[5] = a.c4;
  r[6] = a.c5;
  for (let t = 7; t < 13; t++) r[t] = 0;
  const divisorTopInverse = 1 / ((y0 * BASE + y1) * BASE + y2);
  for (let j = 0; j < 7; j++) {
    const windowTop = ((r[j]! * BASE + r[j + 1]!) * BASE + r[j + 2]!) * BASE + r[j + 3]!;
    const q = Math.floor(windowTop * divisorTopInverse);
    // The window's top limb goes into the next one: what is left of it is a few units at most.
    r[j + 1] = r[j]! * BASE + r[j + 1]! - q * y0;
    r[j + 2] = r[j + 2]! - q * y1;
    r[j + 3] = r[j + 3]! - q * y2;
    r[j + 4] = r[j + 4]! - q * y3;
    r[j + 5] = r[j + 5]! - q * y4;
    r[j + 6] = r[j + 6]! - q * y5;
    r[j] = 0;
    COLUMNS[j] = q;
  }
  // The remainder, r[7, 13), normalised: every limb below the top one in [0, BASE).
  propagateCarries(r, 7, 13);
  let correction = 0;
  while (r[7]! < 0) {
    correction--;
    addDivisorToRemainder(r, Y, 1);
  }
  while (remainderAtLeast(r, Y)) {
    correction++;
    addDivisorToRemainder(r, Y, -1);
  }
  const sticky = anyNonZero(r, 7, 13);
  COLUMNS[6] = COLUMNS[6]! + correction;
  return roundTop(a.s * b.s, a.e - b.e - 42, COLUMNS[0]!, sticky);
}

/**
 * `r[7, 13) += sign × y` for a remainder whose limbs below the top one are in [0, BASE); they
 * stay so, and the top limb takes the carry.
 */
function addDivisorToRemainder(r: Float64Array, y: Float64Array, sign: number): void {
  let carry = 0;
  for (let t = 5; t > 0; t--) {
    let v = r[7 + t]! + sign * y[t]! + carry;
    carry = v < 0 ? -1 : v >= BASE ? 1 : 0;
    v -= carry * BASE;
    r[7 + t] = v;
  }
  r[7] = r[7]! + sign * y[0]! + carry;
}

/** True when the normalised remainder `r[7, 13)` (top limb ≥ 0) is at least the divisor `y`. */
function remainderAtLeast(r: Float64Array, y: Float64Array): boolean {
  for (let t = 0; t < 6; t++) {
    const v = r[7 + t]!;
    const w = y[t]!;
    if (v !== w) return v > w;
  }
  return true;
}
