/**
 * The building blocks of the bundled example tapes (see `make-example.ts`): a seeded random
 * source, addresses, and the price life of a pump-and-dump token. Only +, −, ×, ÷ and √ are used
 * on floats, which IEEE 754 rounds the same way on every machine, so a seed gives the same tape
 * everywhere.
 */

/** A seeded pseudo-random source (mulberry32): the same seed gives the same sequence. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A number in [lo, hi). */
  between(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** A whole number in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One item of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** `count` distinct items of a list, in list order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(count, items.length)) chosen.add(Math.floor(this.next() * items.length));
    return items.filter((_, i) => chosen.has(i));
  }

  /** A string of `length` characters of `alphabet`. */
  text(alphabet: string, length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const HEX = '0123456789abcdef';

/** Address and transaction-hash spellings of a network. */
export interface AddressBook {
  wallet(rng: Random): string;
  token(rng: Random): string;
  txHash(rng: Random): string;
}

export const SOL_ADDRESSES: AddressBook = {
  wallet: (rng) => rng.text(BASE58, 44),
  // Tokens launched on pump.fun end in "pump".
  token: (rng) => `${rng.text(BASE58, 40)}pump`,
  txHash: (rng) => rng.text(BASE58, 88),
};

export const ETH_ADDRESSES: AddressBook = {
  wallet: (rng) => `0x${rng.text(HEX, 40)}`,
  token: (rng) => `0x${rng.text(HEX, 40)}`,
  txHash: (rng) => `0x${rng.text(HEX, 64)}`,
};

const HOUR = 3600;

/**
 * The life of one token: launched at `launch`, its price rises for `pumpHours` to `peak` times
 * the launch price, collapses over `dumpHours` to `floor` of the peak, then bleeds slowly.
 */
export interface TokenLife {
  readonly address: string;
  readonly launch: number;
  readonly launchPrice: number;
  readonly pumpHours: number;
  readonly peak: number;
  readonly dumpHours: number;
  readonly floor: number;
  /** Pool liquidity (USD, both sides) at launch; null: the data source never reports it. */
  readonly launchLiquidity: number | null;
  /** The developer pulls most of the liquidity during the dump. */
  readonly rug: boolean;
}

/** Where in its life a token is at time `t`: `pump` x or `dump` y in [0, 1], or `tail`. */
export type Phase = { kind: 'pump'; x: number } | { kind: 'dump'; y: number } | { kind: 'tail'; hours: number };

export function phaseAt(life: TokenLife, t: number): Phase {
  const pumpEnd = life.launch + life.pumpHours * HOUR;
  const dumpEnd = pumpEnd + life.dumpHours * HOUR;
  if (t < pumpEnd) return { kind: 'pump', x: Math.max(0, (t - life.launch) / (pumpEnd - life.launch)) };
  if (t < dumpEnd) return { kind: 'dump', y: (t - pumpEnd) / (dumpEnd - pumpEnd) };
  return { kind: 'tail', hours: (t - dumpEnd) / HOUR };
}

/** The price multiple of the launch price at time `t`: convex rise, fast fall, slow bleed. */
export function multipleAt(life: TokenLife, t: number): number {
  const phase = phaseAt(life, t);
  if (phase.kind === 'pump') return 1 + (life.peak - 1) * phase.x * phase.x;
  if (phase.kind === 'dump') {
    const fallen = 1 - (1 - phase.y) * (1 - phase.y);
    return life.peak * (1 - (1 - life.floor) * fallen);
  }
  return life.peak * life.floor * (1 - 0.4 * Math.min(1, phase.hours / 48));
}

/** Pool liquidity at time `t`: grows with the square root of the price (a constant-product pool). */
export function liquidityAt(life: TokenLife, t: number): number | null {
  if (life.launchLiquidity === null) return null;
  const phase = phaseAt(life, t);
  const pulled = !life.rug || phase.kind === 'pump' ? 1 : phase.kind === 'dump' ? 1 - 0.85 * phase.y : 0.15;
  return life.launchLiquidity * Math.sqrt(multipleAt(life, t)) * pulled;
}

/** How many market swaps an hour a token sees: busy while it pumps and dumps, quiet after. */
export function swapsPerHour(life: TokenLife, t: number): number {
  const phase = phaseAt(life, t);
  if (phase.kind === 'pump') return 6 + 10 * phase.x;
  if (phase.kind === 'dump') return 12 - 6 * phase.y;
  return phase.hours < 12 ? 1.2 : 0.4;
}

/** The chance that a market swap is a buy: crowds buy the pump and sell the dump. */
export function buyChance(life: TokenLife, t: number): number {
  const phase = phaseAt(life, t);
  if (phase.kind === 'pump') return 0.68;
  if (phase.kind === 'dump') return 0.3;
  return 0.45;
}

/**
 * The crowd's answer to a leader's swap: copy bots and followers pile in within seconds, moving
 * the price by up to `size` (0.12: 12 % up; −0.1: 10 % down), then the move fades over minutes.
 * This is what a late copy pays: memecoin prices move in the seconds after a known wallet trades.
 */
export interface Reaction {
  readonly time: number;
  readonly size: number;
}

/** Seconds to half of a reaction's move: most of it lands within the first ten seconds. */
export const REACTION_HALF_SECONDS = 6;
/** Seconds for a reaction's move to fade by half. */
export const REACTION_FADE_SECONDS = 1200;

/**
 * A reaction's share of the price at time `t`: 0 up to its swap, then `size × d / (d + 6)`
 * faded by `1200 / (1200 + d)`, `d` the seconds since (rational, so every machine rounds alike):
 * 14 % of the move after 1 s, 45 % after 5 s, 83 % after 30 s, 87 % after two minutes.
 */
export function reactionAt(reaction: Reaction, t: number): number {
  if (t <= reaction.time) return 0;
  const d = t - reaction.time;
  return ((reaction.size * d) / (d + REACTION_HALF_SECONDS)) * (REACTION_FADE_SECONDS / (REACTION_FADE_SECONDS + d));
}

/** The price factor of all the reactions to a token's leader swaps at time `t`. */
export function reactionFactor(reactions: readonly Reaction[], t: number): number {
  let factor = 1;
  for (const r of reactions) if (r.time < t && t - r.time < 48 * HOUR) factor *= 1 + reactionAt(r, t);
  return factor;
}
