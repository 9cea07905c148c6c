/**
 * Exact values of doubles for tests. `new Decimal(x)` reads a double's shortest text, not its
 * value; here a double is read from its bits, `m × 2^e` written as the exact decimal
 * `m × 5^-e × 10^e`.
 */

const F = new Float64Array(1);
const BITS = new BigUint64Array(F.buffer);

export function bitsOf(x: number): bigint {
  F[0] = x;
  return BITS[0]!;
}

export function fromBits(bits: bigint): number {
  BITS[0] = bits;
  return F[0]!;
}

/** The exact value of a finite double as decimal text (an integer, or `digits` e `exponent`). */
export function exactText(x: number): string {
  if (x === 0) return '0';
  const bits = bitsOf(Math.abs(x));
  const biased = Number(bits >> 52n);
  let mantissa = bits & ((1n << 52n) - 1n);
  let exponent: number;
  if (biased === 0) {
    exponent = -1074;
  } else {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  const sign = x < 0 ? '-' : '';
  if (exponent >= 0) return `${sign}${mantissa << BigInt(exponent)}`;
  return `${sign}${mantissa * 5n ** BigInt(-exponent)}e${exponent}`;
}

/** The next double away from zero (x finite, nonzero, below the largest). */
export function awayFromZero(x: number): number {
  return fromBits(bitsOf(x) + 1n);
}
