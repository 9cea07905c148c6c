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

/** The seeded draws of one request: `draw(i, k, c) < f / 100` without leaving the integers. */
export class Draws {
  private readonly seed: bigint;

  constructor(randomSeed: number) {
    this.seed = mix(BigInt(randomSeed));
  }

  /** `mix(mix(random_seed) XOR (16 × i + 2 × k + c))`: the draw times 2^64. */
  raw(i: number, k: number, c: number): bigint {
    return mix(this.seed ^ BigInt(16 * i + 2 * k + c));
  }

  /** `draw(i, k, c) < percent / 100`, exactly. */
  below(i: number, k: number, c: number, percent: Percent): boolean {
    if (percent.numerator === 0n) return false;
    // 100 × raw < (numerator / 10^scale) × 2^64  ⇔  100 × raw × 10^scale < numerator × 2^64
    return 100n * this.raw(i, k, c) * percent.power < percent.numerator << 64n;
  }
}

/** A percent as an exact fraction, made once per request ({@link percentOf}). */
export interface Percent {
  readonly numerator: bigint;
  /** `10^scale`. */
  readonly power: bigint;
}

/** The exact fraction of a percent given as a JSON number. */
export function percentOf(f: number): Percent {
  const { numerator, scale } = decimalFraction(f);
  return { numerator, power: 10n ** scale };
}
