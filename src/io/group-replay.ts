import type { StreamingReplay } from '../engine/stream.js';
import type { Swap } from '../model/tape.js';
import type { DecodedRowGroup } from './parquet/row-group.js';

/** Shown every swap as it goes by, with its place in the request's wallets (-1: not followed) when known. */
export type SwapWatcher = (swap: unknown, leader?: number) => void;

/**
 * Feeds a decoded group of swaps (a Parquet row group, a block of a JSON tape) to a streaming
 * replay: a followed wallet's swap whole, any other as the price tick the replay reads of it
 * (whole too when a `min_price_swap_usd` reads its amount).
 * A group not known to be valid goes swap by swap through the replay's check, which names the
 * first bad one. `at.row` follows the swaps, for the caller's error messages.
 */
export function replayGroup(
  stream: StreamingReplay,
  group: DecodedRowGroup,
  onSwap: SwapWatcher | undefined,
  at: { row: number },
): void {
  for (let i = 0; i < group.rows; i++) {
    at.row = group.start + i;
    if (!group.valid) {
      const swap = group.swap(i);
      onSwap?.(swap);
      stream.push(swap);
      continue;
    }
    const leader = stream.leaderIndex(group.wallet(i));
    if (leader >= 0) {
      const swap = group.swap(i) as unknown as Swap;
      onSwap?.(swap, leader);
      stream.pushChecked(swap, leader, group.priceWords, 2 * i);
    } else {
      const tick = stream.marketReadsAmounts ? (group.swap(i) as unknown as Swap) : group.tick(i);
      onSwap?.(tick, leader);
      stream.pushMarket(group.token(i), tick, group.priceWords, 2 * i);
    }
  }
}
