/**
 * A small seeded random source for the benchmark tapes (mulberry32): the same seed gives the
 * same tape on every machine.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** A float in [lo, hi) whose logarithm is uniform: prices, sizes, durations. */
  logUniform(lo: number, hi: number): number {
    return lo * Math.exp(this.next() * Math.log(hi / lo));
  }

  /** A standard normal draw (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A random base58 string, the look of a Solana address or signature. */
  base58(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += BASE58[this.int(58)];
    return out;
  }
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
