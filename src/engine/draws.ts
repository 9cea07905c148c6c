/**
 * The draws of the copier's wallet (copier-wallet.md 6): `draw(i, k, c)`, a number in [0, 1) the
 * same in every implementation, from SplitMix64's output function over 64-bit integers. Whether
 * an attempt fails or is sandwiched is `draw < f / 100`, compared exactly as
 * `100 × mix(…) < f × 2^64`, with `f` read as the decimal its JSON number prints as.
 */
const MASK = (1n << 64n) - 1n;
const GOLDEN = 0x9e3779b97f4a7c15n;
const MIX_1 = 0xbf58476d1ce4e5b9n;
const MIX_2 = 0x94d049bb133111ebn;

/** SplitMix64's output function of `z` (an integer in [0, 2^64)). */
export function mix(z: bigint): bigint {
  z = (z + GOLDEN) & MASK;
  z = ((z ^ (z >> 30n)) * MIX_1) & MASK;
  z = ((z ^ (z >> 27n)) * MIX_2) & MASK;
  return z ^ (z >> 31n);
}

/**
 * A percent `f` (a finite number ≥ 0) as the exact fraction `numerator / 10^scale` of the
 * decimal it prints as (JSON's shortest round-trip text).
 */
function decimalFraction(f: number): { numerator: bigint; scale: bigint } {
  const [mantissa, exponentText] = String(f).split('e') as [string, string | undefined];
  const [whole, fraction = ''] = mantissa.split('.') as [string, string | undefined];
  let scale = BigInt(fraction.length) - BigInt(exponentText ?? 0);
  let numerator = BigInt(whole + fraction);
  if (scale < 0n) {
    numerator *= 10n ** -scale;
    scale = 0n;
  }
  return { numerator, scale };
}

const TWO_32 = 2 ** 32;

/** The high 32 bits of the 64-bit product of two unsigned 32-bit integers. */
function productHigh(a: number, b: number): number {
  const a0 = a & 0xffff;
  const a1 = a >>> 16;
  const b0 = b & 0xffff;
  const b1 = b >>> 16;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const carry = (((a0 * b0) >>> 16) + (p01 & 0xffff) + (p10 & 0xffff)) >>> 16;
  return (a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + carry) >>> 0;
}

/**
 * SplitMix64's output function ({@link mix}) on 64-bit integers held as two unsigned 32-bit
 * halves, without BigInt (which allocates at every operation): writes the result to `out`.
 */
function mix32(hi: number, lo: number, out: Uint32Array): void {
  // z = z + 0x9E3779B97F4A7C15
  let l = lo + 0x7f4a7c15;
  let h = (hi + 0x9e3779b9 + (l >= TWO_32 ? 1 : 0)) >>> 0;
  l >>>= 0;
  // z = (z ^ (z >> 30)) × 0xBF58476D1CE4E5B9
  l = (l ^ ((l >>> 30) | (h << 2))) >>> 0;
  h = (h ^ (h >>> 30)) >>> 0;
  let nh = (productHigh(l, 0x1ce4e5b9) + Math.imul(h, 0x1ce4e5b9) + Math.imul(l, 0xbf58476d)) >>> 0;
  l = Math.imul(l, 0x1ce4e5b9) >>> 0;
  h = nh;
  // z = (z ^ (z >> 27)) × 0x94D049BB133111EB
  l = (l ^ ((l >>> 27) | (h << 5))) >>> 0;
  h = (h ^ (h >>> 27)) >>> 0;
  nh = (productHigh(l, 0x133111eb) + Math.imul(h, 0x133111eb) + Math.imul(l, 0x94d049bb)) >>> 0;
  l = Math.imul(l, 0x133111eb) >>> 0;
  h = nh;
  // z ^ (z >> 31)
  out[0] = (h ^ (h >>> 31)) >>> 0;
  out[1] = (l ^ ((l >>> 31) | (h << 1))) >>> 0;
}

/** The seeded draws of one request: `draw(i, k, c) < f / 100` without leaving the integers. */
export class Draws {
  private readonly seed: bigint;
  /** `mix(random_seed)` as two 32-bit halves. */
  private readonly seedHigh: number;
  private readonly seedLow: number;
  private readonly word = new Uint32Array(2);

  constructor(randomSeed: number) {
    this.seed = mix(BigInt(randomSeed));
    this.seedHigh = Number(this.seed >> 32n);
    this.seedLow = Number(this.seed & 0xffffffffn);
  }

  /** `mix(mix(random_seed) XOR (16 × i + 2 × k + c))`: the draw times 2^64. */
  raw(i: number, k: number, c: number): bigint {
    return mix(this.seed ^ BigInt(16 * i + 2 * k + c));
  }

  /** `draw(i, k, c) < percent / 100`, exactly: the draw's 64 bits against the percent's threshold. */
  below(i: number, k: number, c: number, percent: Percent): boolean {
    if (percent.always) return true;
    const v = 16 * i + 2 * k + c;
    const word = this.word;
    mix32((this.seedHigh ^ Math.floor(v / TWO_32)) >>> 0, (this.seedLow ^ v) >>> 0, word);
    return word[0]! < percent.high || (word[0] === percent.high && word[1]! < percent.low);
  }
}

/**
 * A percent `f` as the threshold of the draws: `100 × raw < f × 2^64` exactly when `raw` is below
 * `⌈f × 2^64 / 100⌉` (held as two 32-bit halves), or always when that reaches 2^64.
 */
export interface Percent {
  readonly high: number;
  readonly low: number;
  readonly always: boolean;
}

/** The threshold of a percent given as a JSON number (made once per request). */
export function percentOf(f: number): Percent {
  const { numerator, scale } = decimalFraction(f);
  const denominator = 100n * 10n ** scale;
  const scaled = numerator << 64n;
  const threshold = (scaled + denominator - 1n) / denominator;
  if (threshold >= 1n << 64n) return { high: 0, low: 0, always: true };
  return { high: Number(threshold >> 32n), low: Number(threshold & 0xffffffffn), always: false };
}
