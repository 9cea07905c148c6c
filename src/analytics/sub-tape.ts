import type { IndexedTape } from '../engine/tape-index.js';
import type { Swap } from '../model/tape.js';
import type { SwapBuckets } from './buckets.js';

/**
 * The part of a tape that a simulation following wallet `walletId` alone can see: the wallet's
 * swaps and every swap of the tokens it traded, before event position `end`. Nothing else
 * moves that follower (model 1.1: other tokens' swaps only price other tokens), so simulating
 * over it gives the same deals as over the whole tape, much faster.
 *
 * The result is an {@link IndexedTape} over the same interned ids: it shares the wallet ids,
 * the token list and the native prices of `tape`, lists the kept swaps in event order
 * (`order` is the identity) and keeps each swap's wallet and token id.
 */
export function walletSubTape(buckets: SwapBuckets, walletId: number, end: number): IndexedTape {
  const tape = buckets.tape;
  const traded = tradedTokens(buckets, walletId, end);
  let size = 0;
  for (const tokenId of traded) size += buckets.tokenSeries(tokenId).firstAtOrAfter(end);
  const positions = new Uint32Array(size);
  let filled = 0;
  for (const tokenId of traded) {
    const series = buckets.tokenSeries(tokenId);
    const count = series.firstAtOrAfter(end);
    positions.set(series.positions.subarray(0, count), filled);
    filled += count;
  }
  positions.sort();

  const swaps: Swap[] = new Array<Swap>(size);
  const order = new Uint32Array(size);
  const walletOf = new Uint32Array(size);
  const tokenOf = new Uint32Array(size);
  for (let k = 0; k < size; k++) {
    const i = tape.order[positions[k]!]!;
    swaps[k] = tape.swaps[i]!;
    order[k] = k;
    walletOf[k] = tape.walletOf[i]!;
    tokenOf[k] = tape.tokenOf[i]!;
  }
  return {
    kind: 'indexed-tape',
    network: tape.network,
    swaps,
    order,
    walletOf,
    tokenOf,
    walletIds: tape.walletIds,
    tokens: tape.tokens,
    native: tape.native,
  };
}

/** The tokens wallet `walletId` traded before event position `end`, by first trade. */
export function tradedTokens(buckets: SwapBuckets, walletId: number, end: number): number[] {
  const tape = buckets.tape;
  const seen = new Set<number>();
  for (const pos of buckets.walletPositions(walletId)) {
    if (pos >= end) break;
    seen.add(tape.tokenOf[tape.order[pos]!]!);
  }
  return [...seen];
}
