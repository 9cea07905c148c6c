/**
 * The float64 nearest to a positive 40-digit decimal, without building its text for `Number`:
 * the last step of every response, where reading each value's text with `Number` would take a
 * tenth of `copysim simulate`'s time.
 *
 * The decimal is `V = C × 10^e` with the coefficient `C` in six base-10^7 limbs (as Decimal40
 * keeps it), `C` in [10^39, 10^40). A coefficient of at most 12 significant digits with a small
 * exponent takes one correctly rounded operation between two exact doubles. Otherwise write
 * `C = H × 10^25 + L`, with `H` its top 15 digits (an exact double) and `l = L / 10^25 ∈ [0, 1)`,
 * so that `V = (H + l) × 10^k` with `k = e + 25`. When `10^k` or `10^-k` is an exact double
 * (|k| ≤ 22):
 *
 * 1. `H × 10^k` (or `H / 10^-k`) is formed as a double `a` plus its exact error (Dekker's
 *    error-free product, without a fused multiply-add), so `V = a + δ` with `δ` known to a
 *    relative error near 2^-50, and `|δ|` at most a few dozen units in the last place of `a`;
 * 2. `x = a + δ` is rounded once, and the exact rounding error `r` of that addition follows
 *    (Fast2Sum: `|a| ≥ |δ|`), so `V − x = r` up to the tiny error of `δ`;
 * 3. `x` is the nearest double when `|r|` stays clearly below half a unit in the last place of
 *    `x`. When it does not (a near tie), or `x` is a power of two (the spacing below it is half
 *    the spacing above), or `|k| > 22`, the answer is `NaN`: the caller then reads the decimal's
 *    text with `Number`, which is always exact. The margin makes that fallback rare (about one
 *    value in 10^5, for digits that fall at random) and keeps the fast answer exact.
 */
export function nearestDouble(
  e: number,
  c0: number,
  c1: number,
  c2: number,
  c3: number,
  c4: number,
  c5: number,
): number {
  if (c2 === 0 && c3 === 0 && c4 === 0 && c5 === 0) {
    // A coefficient of at most 12 digits is an exact double: with a small exponent, one
    // correctly rounded product or quotient by an exact power of ten is the answer.
    let c = c0 * 1e7 + c1;
    let exponent = e + 28;
    // Trailing zeros are stripped (a division by 10 each, a remainder of doubles) only when
    // that can bring a tiny value's exponent into range.
    while (exponent < -22 && c % 10 === 0) {
      c /= 10;
      exponent++;
    }
    if (exponent >= 0 && exponent <= 22) return c * POW10[exponent]!;
    if (exponent < 0 && exponent >= -22) return c / POW10[-exponent]!;
  }
  const k = e + 25;
  if (k > 22 || k < -22) return NaN;
  const c2High = Math.floor(c2 / 1e4);
  const h = c0 * 1e10 + c1 * 1e3 + c2High; // < 10^15: exact
  // l = L / 10^25, from the bottom limb up: a relative error of a few units in 2^-53.
  const l = (c2 - c2High * 1e4 + (c3 + (c4 + c5 * 1e-7) * 1e-7) * 1e-7) * 1e-4;
  let a: number;
  let delta: number;
  if (k >= 0) {
    const p = POW10[k]!;
    a = h * p;
    delta = productError(h, p, a) + l * p;
  } else {
    const p = POW10[-k]!;
    a = h / p;
    // The exact rest of the division, h − a × p: Sterbenz makes h − (a × p)'s head exact.
    const head = a * p;
    const rest = h - head - productError(a, p, head);
    delta = (rest + l) / p;
  }
  const x = a + delta;
  const r = delta - (x - a);
  F64[0] = x;
  const high = U32[HIGH]!;
  const exponentBits = high >>> 20;
  if ((high & 0xfffff) === 0 && U32[LOW] === 0) return NaN; // a power of two
  // Half a unit in the last place of x, 2^(exponent − 53), as a double with that exponent.
  U32[HIGH] = (exponentBits - 53) << 20;
  U32[LOW] = 0;
  const halfUnit = F64[0]!;
  const gap = halfUnit - Math.abs(r);
  return gap > halfUnit * MARGIN ? x : NaN;
}

/** `a × b − fl(a × b)` exactly, for the product `ab = fl(a × b)` of two doubles (Dekker, Veltkamp). */
export function productError(a: number, b: number, ab: number): number {
  let t = SPLITTER * a;
  const aHigh = t - (t - a);
  const aLow = a - aHigh;
  t = SPLITTER * b;
  const bHigh = t - (t - b);
  const bLow = b - bHigh;
  return aHigh * bHigh - ab + aHigh * bLow + aLow * bHigh + aLow * bLow;
}

/** 2^27 + 1: splits a double into two halves of 26 significant bits. */
const SPLITTER = 134217729;
/**
 * How far from a tie `V` must be, as a share of half a unit: the error of `δ` is below 2^-40 of
 * a unit, so 2^-20 leaves a wide berth.
 */
const MARGIN = 2 ** -20;
/** 10^0 … 10^22: the powers of ten that are exact doubles. */
export const POW10: readonly number[] = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));
const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);
/** The 32-bit halves of a float64 in this machine's byte order. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HIGH = LITTLE_ENDIAN ? 1 : 0;
const LOW = LITTLE_ENDIAN ? 0 : 1;
