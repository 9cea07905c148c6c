import type { RefusalCode } from './errors.js';
import type { LiveSimulation } from './live-simulation.js';

/** Where a live run stands (`GET /status` of `copysim follow`). */
export interface LiveStatus {
  readonly network: string;
  readonly lateness: number;
  readonly window: { readonly start: number; readonly end: number };
  /** The latest time of a swap or tick applied (null before the first). */
  readonly feed_time: number | null;
  /** Swaps are applied, and actions fired, up to this time (the feed time less the lateness). */
  readonly applied_up_to: number | null;
  readonly ended: boolean;
  /** Why the run stopped, when an input could not be used. */
  readonly error: string | null;
  /** Inputs applied, by kind (`native_prices` counts points). */
  readonly inputs: {
    readonly swaps: number;
    readonly ticks: number;
    readonly tokens: number;
    readonly native_prices: number;
  };
  /** Swaps replayed (or passed over after `window_end`), and swaps held back by the lateness. */
  readonly applied_swaps: number;
  readonly held_swaps: number;
  /** Batches refused since the run started, by reason. */
  readonly refused: Readonly<Record<RefusalCode, number>>;
  /** Milliseconds from taking a swap to applying it, over the last ones. */
  readonly latency_ms: { readonly count: number; readonly p50: number; readonly p99: number; readonly max: number };
  /** The log: its file, its bytes and the inputs it holds (a feeder resumes after them). */
  readonly log: { readonly path: string; readonly bytes: number; readonly inputs: number };
}

/** The status of `live`, with what the service keeps beside it. */
export function liveStatus(
  live: LiveSimulation,
  extra: { refused: LiveStatus['refused']; latency: LiveStatus['latency_ms']; log: LiveStatus['log'] },
): LiveStatus {
  const { counts } = live;
  const finite = (t: number): number | null => (Number.isFinite(t) ? t : null);
  return {
    network: live.request.network,
    lateness: live.lateness,
    window: { start: live.window.start, end: live.window.end },
    feed_time: finite(live.feedTime),
    applied_up_to: finite(live.appliedUpTo),
    ended: live.ended,
    error: live.error?.message ?? null,
    inputs: { swaps: counts.swaps, ticks: counts.ticks, tokens: counts.tokens, native_prices: counts.nativePrices },
    applied_swaps: counts.applied,
    held_swaps: counts.held,
    refused: { ...extra.refused },
    latency_ms: extra.latency,
    log: extra.log,
  };
}
