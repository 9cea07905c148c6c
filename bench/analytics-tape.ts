import type { TapeInput } from '../src/index.js';

type SwapInput = TapeInput['swaps'][number];

/** The shape of a generated analytics tape. */
export interface AnalyticsTapeShape {
  readonly swaps: number;
  readonly wallets: number;
  readonly tokens: number;
  readonly days: number;
  readonly seed: number;
}

export const DEFAULT_ANALYTICS_SHAPE: AnalyticsTapeShape = {
  swaps: 1_000_000,
  wallets: 20_000,
  tokens: 2_000,
  days: 30,
  seed: 7,
};

/** mulberry32: a small seeded generator, so the same shape always gives the same tape. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * A seeded tape for the analytics benchmark: busy and quiet wallets (a few make most swaps),
 * each trading a handful of tokens in and out, token prices on random walks. Every swap is some
 * wallet's trade, so every wallet has deals to account for.
 */
export function analyticsTape(shape: Partial<AnalyticsTapeShape> = {}): TapeInput {
  const s = { ...DEFAULT_ANALYTICS_SHAPE, ...shape };
  const rng = random(s.seed);
  const start = 1_709_251_200; // 2024-03-01
  const wallets = Array.from({ length: s.wallets }, (_, i) => `W${i.toString(36).padStart(6, '0')}${'x'.repeat(36)}`);
  const tokens = Array.from({ length: s.tokens }, (_, i) => `T${i.toString(36).padStart(6, '0')}${'p'.repeat(36)}`);
  const price = Array.from({ length: s.tokens }, () => 1e-6 * Math.exp(8 * rng()));
  const held = new Map<number, number>();
  const step = (s.days * 86_400) / s.swaps;
  const swaps: SwapInput[] = new Array(s.swaps);
  for (let i = 0; i < s.swaps; i++) {
    const w = Math.floor(s.wallets * Math.pow(rng(), 2));
    const t = (w * 7919 + Math.floor(rng() * 5) * 104_729) % s.tokens;
    price[t] = price[t]! * Math.exp(0.05 * (rng() - 0.5));
    const p = Number(price[t]!.toPrecision(8));
    const key = w * s.tokens + t;
    const h = held.get(key) ?? 0;
    const selling = h > 0 && rng() < 0.45;
    const quantity = selling
      ? rng() < 0.5
        ? h
        : Number((h / 2).toPrecision(10))
      : Number(((20 + 2000 * rng()) / p).toPrecision(10));
    held.set(key, selling ? Math.max(0, h - quantity) : h + quantity);
    swaps[i] = {
      wallet: wallets[w]!,
      token: tokens[t]!,
      type: selling ? 'sell' : 'buy',
      time: start + Math.floor(i * step),
      quantity,
      usd_price: p,
      ...(rng() < 0.5 ? { usd_liquidity: Math.round(5_000 + 200_000 * rng()) } : {}),
    };
  }
  const native: [number, number][] = [];
  for (let day = 0; day <= s.days; day++) native.push([start + day * 86_400, 100 + 50 * rng()]);
  return { network: 'sol', tokens: {}, native_prices: native, swaps };
}
