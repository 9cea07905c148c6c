/**
 * The draws of copier-wallet 6: SplitMix64's output function on exact 64-bit integers (BigInt),
 * and the exact comparison `draw < f / 100`, i.e. `100 × mix(…) < f × 2^64`, for a percent `f`
 * that may have any number of decimals.
 */
import type { D } from './decimal.js';

const MASK = (1n << 64n) - 1n; // mod 2^64
const TWO_64 = 1n << 64n;

/** Copier-wallet 6: mix(z), every step mod 2^64, `>>` a logical shift. */
export function mix(input: bigint): bigint {
  let z = (input + 0x9e3779b97f4a7c15n) & MASK;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
  return z ^ (z >> 31n);
}

/** Copier-wallet 6: the integer behind draw(i, k, c) = mix(mix(random_seed) XOR (16 i + 2 k + c)) / 2^64. */
export function drawBits(seed: number, eventIndex: number, attempt: number, c: 0 | 1): bigint {
  const salt = 16n * BigInt(eventIndex) + 2n * BigInt(attempt) + BigInt(c);
  return mix(mix(BigInt(seed)) ^ salt);
}

/** A decimal as an exact fraction numerator / 10^scale. */
function exactFraction(d: D): { numerator: bigint; scale: bigint } {
  const text = d.toFixed(); // every digit of the decimal, no exponent
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const numerator = BigInt(`${whole}${fraction}`);
  return { numerator: negative ? -numerator : numerator, scale: BigInt(fraction.length) };
}

/** Copier-wallet 6: `draw(i, k, c) < percent / 100`, compared exactly as `100 × mix(…) < percent × 2^64`. */
export function drawBelow(seed: number, eventIndex: number, attempt: number, c: 0 | 1, percent: D): boolean {
  const { numerator, scale } = exactFraction(percent);
  // 100 × m < (numerator / 10^scale) × 2^64  ⇔  100 × m × 10^scale < numerator × 2^64
  return 100n * drawBits(seed, eventIndex, attempt, c) * 10n ** scale < numerator * TWO_64;
}
