/**
 * A feeder for the live tests: a tape delivered as a live feed would deliver it. The tape's
 * tokens and native prices first, then its swaps in event order with jitter inside the lateness
 * (each second's swaps keep their order, as a feed keeps a block's), clock ticks between them,
 * in batches of random sizes, and a last tick past `window_end` that ends the run.
 */
import { Random } from '../../../bench/random.js';

export interface FeedPlan {
  readonly lateness: number;
  readonly windowEnd: number;
  readonly seed: number;
  /** Largest batch (default 50). */
  readonly maxBatch?: number;
  /** Chance of a tick after a swap (default 0.05). */
  readonly tickChance?: number;
}

interface Timed {
  readonly time: number;
}

/** The swaps of a tape in event order: by time, in tape order within a second. */
export function eventOrder<T extends Timed>(swaps: readonly T[]): T[] {
  return swaps
    .map((s, i) => ({ s, i }))
    .sort((a, b) => a.s.time - b.s.time || a.i - b.i)
    .map((x) => x.s);
}

/**
 * The swaps (items of any form with a `time`) in a delivery order a feed with lateness L may
 * have: each second's block moved later by up to L seconds, blocks of one second kept whole.
 * No item then comes more than L seconds before the latest time delivered before it.
 */
export function jittered<T extends Timed>(ordered: readonly T[], lateness: number, random: Random): T[] {
  const blocks: { key: number; items: T[] }[] = [];
  for (const item of ordered) {
    const last = blocks.at(-1);
    if (last !== undefined && last.items[0]!.time === item.time) last.items.push(item);
    else blocks.push({ key: item.time + Math.floor(random.next() * (lateness + 1)), items: [item] });
  }
  return blocks
    .map((b, i) => ({ ...b, i }))
    .sort((a, b) => a.key - b.key || a.i - b.i)
    .flatMap((b) => b.items);
}

/**
 * The delivered items with ticks among them: a tick's time lies between the latest time so
 * far less the lateness and the earliest time still to come plus the lateness, so no swap is
 * late after it.
 */
export function withTicks<T extends Timed>(
  delivered: readonly T[],
  plan: FeedPlan,
  random: Random,
): (T | { tick: number })[] {
  const { lateness } = plan;
  const chance = plan.tickChance ?? 0.05;
  const minAfter = new Array<number>(delivered.length + 1).fill(Infinity);
  for (let i = delivered.length - 1; i >= 0; i--) minAfter[i] = Math.min(minAfter[i + 1]!, delivered[i]!.time);
  const out: (T | { tick: number })[] = [];
  let latest = -Infinity;
  delivered.forEach((item, i) => {
    out.push(item);
    latest = Math.max(latest, item.time);
    if (!random.chance(chance)) return;
    const low = Math.ceil(latest - lateness);
    const high = Math.max(low, Math.min(minAfter[i + 1]! + lateness, latest + 3600));
    const tick = low + random.int(Math.floor(high - low) + 1);
    latest = Math.max(latest, tick);
    out.push({ tick });
  });
  return out;
}

/** Cuts `items` into batches of 1 to `max` items. */
export function batches<T>(items: readonly T[], max: number, random: Random): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; ) {
    const size = 1 + random.int(max);
    out.push(items.slice(i, i + size));
    i += size;
  }
  return out;
}

/** A tape as the feeder needs it. */
export interface FeedTape {
  readonly tokens?: Record<string, unknown>;
  readonly native_prices?: readonly (readonly [number, unknown])[];
  readonly swaps: readonly Timed[];
}

/** The whole feed of a tape, batch by batch: tokens, native prices, the swaps, the closing tick. */
export function feedOf(tape: FeedTape, plan: FeedPlan): unknown[][] {
  const random = new Random(plan.seed);
  const delivered = withTicks(jittered(eventOrder(tape.swaps), plan.lateness, random), plan, random);
  const head: unknown[][] = [];
  if (tape.tokens !== undefined && Object.keys(tape.tokens).length > 0) head.push([{ tokens: tape.tokens }]);
  if (tape.native_prices !== undefined && tape.native_prices.length > 0)
    head.push([{ native_prices: tape.native_prices }]);
  return [
    ...head,
    ...batches(delivered, plan.maxBatch ?? 50, random),
    [{ tick: plan.windowEnd + Math.ceil(plan.lateness) + 1 }],
  ];
}

/**
 * The feed of Helius transactions (`timestamp` their time), as a Helius webhook and a clock
 * would post it: the native prices first, then the transactions in event order with jitter
 * inside the lateness, in batches, ticks between them, and the closing tick.
 */
export function heliusFeedOf(
  nativePrices: readonly (readonly [number, unknown])[],
  transactions: readonly { readonly timestamp: number }[],
  plan: FeedPlan,
): { path: string; body: unknown }[] {
  const random = new Random(plan.seed);
  const timed = transactions.map((tx) => ({ time: tx.timestamp, tx }));
  const delivered = withTicks(jittered(eventOrder(timed), plan.lateness, random), plan, random);
  const steps: { path: string; body: unknown }[] = [{ path: '/feed/native-prices', body: nativePrices }];
  for (const batch of batches(delivered, plan.maxBatch ?? 50, random)) {
    let txs: unknown[] = [];
    for (const item of batch) {
      if ('tx' in item) {
        txs.push(item.tx);
        continue;
      }
      if (txs.length > 0) steps.push({ path: '/feed/helius', body: txs });
      txs = [];
      steps.push({ path: '/feed/tick', body: { time: item.tick } });
    }
    if (txs.length > 0) steps.push({ path: '/feed/helius', body: txs });
  }
  steps.push({ path: '/feed/tick', body: { time: plan.windowEnd + Math.ceil(plan.lateness) + 1 } });
  return steps;
}
