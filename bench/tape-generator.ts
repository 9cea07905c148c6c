import { Random } from './random.js';
import { TimeHeap } from './time-heap.js';

/**
 * A seeded, realistic benchmark tape: tokens with pump-and-dump lifecycles (price climbs to a
 * peak, then dumps), a set of leaders that buy early and sell in chunks later, and a crowd of
 * market wallets. Swaps come out in time order one at a time, so a tape of any size is written
 * with constant memory.
 */
export interface TapeShape {
  readonly swaps: number;
  readonly leaders: number;
  readonly tokens: number;
  readonly marketWallets: number;
  /** Share of the swaps made by leaders. */
  readonly leaderShare: number;
  /** Tokens launch over this many days. */
  readonly days: number;
  readonly seed: number;
  /** First second of the tape (UTC). */
  readonly start: number;
}

export const DEFAULT_SHAPE: TapeShape = {
  swaps: 1_000_000,
  leaders: 100,
  tokens: 2_000,
  marketWallets: 20_000,
  leaderShare: 0.5,
  days: 30,
  seed: 1,
  start: Date.UTC(2024, 2, 1) / 1000,
};

/** A swap as the JSON tape spells it (decimals as strings or numbers, as real feeds mix them). */
export interface SwapJson {
  wallet: string;
  token: string;
  type: 'buy' | 'sell';
  time: number;
  quantity: string;
  usd_price: string;
  usd_amount?: number;
  usd_liquidity?: number | null;
  transaction_hash?: string;
}

export interface TapeHeaderJson {
  network: 'sol';
  tokens: Record<string, { name: string; symbol: string }>;
  native_prices: [number, number][];
}

interface TokenPlan {
  readonly address: string;
  readonly launch: number;
  readonly duration: number;
  /** Swaps still to emit, and the last order statistic drawn in [0, 1). */
  remaining: number;
  x: number;
  readonly logStart: number;
  readonly logPeak: number;
  readonly logEnd: number;
  /** Fraction of the lifecycle at which the price peaks. */
  readonly peakAt: number;
  readonly liquidity: number;
  readonly leaders: readonly number[];
  /** Holdings of each of `leaders`, approximate: only to make their sells plausible. */
  readonly held: Float64Array;
}

const HOUR = 3600;
/** Activity is denser early in a token's life: time fraction = x^WARP. */
const WARP = 1.3;

/** A tape of the given shape: its header, its leaders, and its swaps in time order. */
export class TapeGenerator {
  readonly shape: TapeShape;
  readonly leaders: readonly string[];
  readonly header: TapeHeaderJson;
  /** Last second any token trades. */
  readonly end: number;
  private readonly rng: Random;
  private readonly plans: TokenPlan[];
  private readonly market: readonly string[];

  constructor(shape: Partial<TapeShape> = {}) {
    this.shape = { ...DEFAULT_SHAPE, ...shape };
    const { seed, leaders, marketWallets, tokens } = this.shape;
    this.rng = new Random(seed);
    this.leaders = Array.from({ length: leaders }, () => this.rng.base58(44));
    this.market = Array.from({ length: marketWallets }, () => this.rng.base58(44));
    this.plans = this.planTokens(tokens);
    this.end = Math.max(this.shape.start, ...this.plans.map((p) => p.launch + p.duration));
    this.header = {
      network: 'sol',
      tokens: Object.fromEntries(this.plans.map((p, i) => [p.address, { name: `Token ${i}`, symbol: `T${i}` }])),
      native_prices: this.nativePrices(),
    };
  }

  /** A request that follows every leader over the whole tape, with typical settings. */
  request(): Record<string, unknown> {
    const day = (t: number): string => new Date(t * 1000).toISOString().slice(0, 10);
    return {
      wallets: this.leaders.slice(0, 100),
      network: 'sol',
      from_date: day(this.shape.start),
      to_date: day(this.end),
      buy_percentage: 10,
      max_buy_amount: 100,
      max_position_amount: 300,
      priority_fee: 0.0001,
      bribe: 0,
      max_dupe_buy_times: 2,
      close_all: false,
      inactivity_time_fix: { hours: 24 },
      include_bot_fees: true,
    };
  }

  /** The swaps in non-decreasing time (ties by token), exactly `shape.swaps` of them. */
  *swaps(): Generator<SwapJson> {
    const heap = new TimeHeap();
    this.plans.forEach((plan, id) => {
      if (plan.remaining > 0) heap.push(this.advance(plan), id);
    });
    while (heap.size > 0) {
      const { time, id } = heap.pop();
      const plan = this.plans[id]!;
      const swap = this.swapOf(plan, time);
      if (plan.remaining > 0) heap.push(this.advance(plan), id);
      yield swap;
    }
  }

  private planTokens(count: number): TokenPlan[] {
    const rng = this.rng;
    const weights = Array.from({ length: count }, () => Math.pow(1 - rng.next(), -0.6));
    const total = weights.reduce((a, b) => a + b, 0);
    const counts = weights.map((w) => Math.floor((this.shape.swaps * w) / total));
    let left = this.shape.swaps - counts.reduce((a, b) => a + b, 0);
    for (let i = 0; left > 0; i = (i + 1) % count, left--) counts[i]!++;
    const span = this.shape.days * 86_400 * 0.9;
    return counts.map((remaining) => {
      const logStart = Math.log(rng.logUniform(1e-7, 1e-3));
      const leaderCount = 3 + rng.int(10);
      const leaders = Array.from({ length: leaderCount }, () =>
        Math.floor(this.shape.leaders * Math.pow(rng.next(), 1.5)),
      );
      return {
        address: `${rng.base58(40)}pump`,
        launch: this.shape.start + Math.floor(rng.next() * span),
        duration: Math.floor(rng.logUniform(2 * HOUR, 72 * HOUR)),
        remaining,
        x: 0,
        logStart,
        logPeak: logStart + Math.log(rng.logUniform(2, 200)),
        logEnd: logStart + Math.log(rng.logUniform(0.02, 0.6)),
        peakAt: 0.15 + 0.35 * rng.next(),
        liquidity: rng.logUniform(5_000, 200_000),
        leaders: [...new Set(leaders)],
        held: new Float64Array(leaderCount),
      };
    });
  }

  private nativePrices(): [number, number][] {
    const points: [number, number][] = [];
    let price = 150;
    for (let t = this.shape.start; t <= this.end + HOUR; t += HOUR) {
      price *= Math.exp(0.01 * this.rng.normal());
      points.push([t, Math.round(price * 100) / 100]);
    }
    return points;
  }

  /** Draws the plan's next order statistic and returns its time. */
  private advance(plan: TokenPlan): number {
    plan.x += (1 - plan.x) * (1 - Math.pow(1 - this.rng.next(), 1 / plan.remaining));
    plan.remaining--;
    return plan.launch + Math.floor(plan.duration * Math.pow(plan.x, WARP));
  }

  private swapOf(plan: TokenPlan, time: number): SwapJson {
    const rng = this.rng;
    const phase = Math.min(1, (time - plan.launch) / plan.duration);
    const rising = phase < plan.peakAt;
    const logPrice = rising
      ? plan.logStart + (plan.logPeak - plan.logStart) * Math.pow(phase / plan.peakAt, 1.5)
      : plan.logPeak + (plan.logEnd - plan.logPeak) * Math.sqrt((phase - plan.peakAt) / (1 - plan.peakAt));
    const price = Number(Math.exp(logPrice + 0.03 * rng.normal()).toPrecision(8));

    let wallet: string;
    let type: 'buy' | 'sell';
    let quantity: number;
    if (rng.chance(this.shape.leaderShare)) {
      const slot = rng.int(plan.leaders.length);
      wallet = this.leaders[plan.leaders[slot]!]!;
      const held = plan.held[slot]!;
      type =
        held === 0
          ? phase < 0.8 || rng.chance(0.3)
            ? 'buy'
            : 'sell'
          : rng.chance(rising ? 0.7 : 0.2)
            ? 'buy'
            : 'sell';
      if (type === 'buy') {
        quantity = rng.logUniform(20, 5_000) / price;
        plan.held[slot] = held + quantity;
      } else {
        // Chunks of a quarter, a half or all of the bag; now and then more than the bag.
        const part = [0.25, 0.5, 1, 1.1][rng.int(4)]!;
        quantity = held > 0 ? held * part : rng.logUniform(20, 500) / price;
        plan.held[slot] = Math.max(0, held - quantity);
      }
    } else {
      wallet = this.market[rng.int(this.market.length)]!;
      type = rng.chance(rising ? 0.65 : 0.4) ? 'buy' : 'sell';
      quantity = rng.logUniform(5, 2_000) / price;
    }

    const q = Number(quantity.toPrecision(9));
    const swap: SwapJson = { wallet, token: plan.address, type, time, quantity: String(q), usd_price: String(price) };
    if (rng.chance(0.8)) swap.usd_amount = Math.max(0.01, Math.round(q * price * 100) / 100);
    const liquidityRoll = rng.next();
    if (liquidityRoll < 0.8)
      swap.usd_liquidity = Math.round(plan.liquidity * Math.sqrt(Math.exp(logPrice - plan.logStart)));
    else if (liquidityRoll < 0.9) swap.usd_liquidity = null;
    if (rng.chance(0.95)) swap.transaction_hash = rng.base58(88);
    return swap;
  }
}

/**
 * `count` settings around `base` for a sweep: buy percentage, caps, dupe limit, close-all,
 * time-fix and leader subsets vary, seeded.
 */
export function requestVariants(base: Record<string, unknown>, count: number, seed = 7): Record<string, unknown>[] {
  const rng = new Random(seed);
  const wallets = base.wallets as string[];
  return Array.from({ length: count }, () => {
    const followed = wallets.filter(() => rng.chance(0.6));
    return {
      ...base,
      wallets: followed.length > 0 ? followed : wallets.slice(0, 1),
      buy_percentage: [5, 10, 25, 50, 100][rng.int(5)],
      max_buy_amount: [25, 50, 100, 250][rng.int(4)],
      max_position_amount: [100, 250, 500, 1000][rng.int(4)],
      max_dupe_buy_times: rng.int(4),
      close_all: rng.chance(0.2),
      inactivity_time_fix: rng.chance(0.5) ? { hours: [1, 6, 24, 72][rng.int(4)] } : null,
      include_bot_fees: rng.chance(0.5),
    };
  });
}
