import type { StreamingReplay } from '../engine/stream.js';
import type { Swap } from '../model/tape.js';
import type { DecodedRowGroup } from './parquet/row-group.js';

/** Shown every swap as it goes by, with its place in the request's wallets (-1: not followed) when known. */
export type SwapWatcher = (swap: unknown, leader?: number) => void;

/**
 * Feeds a decoded group of swaps (a Parquet row group) to a streaming replay: a followed
 * wallet's swap whole, any other as the price tick the replay reads of it (whole too when a
 * `min_price_swap_usd` reads its amount).
 * A group not known to be valid goes swap by swap through the replay's check, which names the
 * first bad one. `at.row` follows the swaps, for the caller's error messages. A group whose
 * wallets and tokens came as places in their file's tables has each looked up once, by
 * `numbers` (one for the file), not by its text at every row.
 */
export function replayGroup(
  stream: StreamingReplay,
  group: DecodedRowGroup,
  onSwap: SwapWatcher | undefined,
  at: { row: number },
  numbers: TableNumbers,
): void {
  const { walletTable, tokenTable } = group;
  if (!group.valid || walletTable === null || tokenTable === null) {
    replayByText(stream, group, onSwap, at);
    return;
  }
  numbers.cover(walletTable.table.length, tokenTable.table.length);
  const wallets = walletTable.ids;
  const tokens = tokenTable.ids;
  for (let i = 0; i < group.rows; i++) {
    at.row = group.start + i;
    const leader = numbers.leader(stream, walletTable.table, wallets[i]!);
    const tokenId = numbers.token(stream, tokenTable.table, tokens[i]!);
    replayNumberedRow(stream, group, i, leader, tokenId, onSwap);
  }
}

/**
 * Feeds row `i` of a checked group whose wallet's place among the request's wallets (`leader`,
 * -1: not followed) and token number are known: a followed wallet's swap whole, any other as the
 * price tick the replay reads of it (whole when a `min_price_swap_usd` reads its amount).
 */
export function replayNumberedRow(
  stream: StreamingReplay,
  group: DecodedRowGroup,
  i: number,
  leader: number,
  tokenId: number,
  onSwap: SwapWatcher | undefined,
): void {
  if (leader >= 0) {
    const swap = group.swap(i) as unknown as Swap;
    onSwap?.(swap, leader);
    stream.pushNumbered(swap, tokenId, leader, group.priceWords, 2 * i);
  } else {
    const tick = stream.marketReadsAmounts ? (group.swap(i) as unknown as Swap) : group.tick(i);
    onSwap?.(tick, leader);
    stream.pushMarketNumbered(tokenId, group.token(i), tick, group.priceWords, 2 * i);
  }
}

/** {@link replayGroup} of a group whose wallets and tokens are looked up by their text. */
function replayByText(
  stream: StreamingReplay,
  group: DecodedRowGroup,
  onSwap: SwapWatcher | undefined,
  at: { row: number },
): void {
  const { priceWords } = group;
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
      stream.pushChecked(swap, leader, priceWords, 2 * i);
    } else {
      const tick = stream.marketReadsAmounts ? (group.swap(i) as unknown as Swap) : group.tick(i);
      onSwap?.(tick, leader);
      stream.pushMarket(group.token(i), tick, priceWords, 2 * i);
    }
  }
}

/**
 * A file's wallets and tokens by their places in the tables its decoded groups share
 * (`column-wire.ts`): each wallet's place among the request's wallets and each token's number in
 * the replay, looked up the first time a row names it (the tokens thus numbered in the order
 * first seen, as the replay numbers them).
 */
export class TableNumbers {
  private readonly leaders = new PlaceNumbers();
  private readonly tokens = new PlaceNumbers();

  /** Makes room for tables of these lengths. */
  cover(wallets: number, tokens: number): void {
    this.leaders.cover(wallets);
    this.tokens.cover(tokens);
  }

  leader(stream: StreamingReplay, table: readonly string[], place: number): number {
    const known = this.leaders.at(place);
    return known !== NOT_LOOKED_UP ? known : this.leaders.set(place, stream.leaderIndex(table[place]!));
  }

  token(stream: StreamingReplay, table: readonly string[], place: number): number {
    const known = this.tokens.at(place);
    return known !== NOT_LOOKED_UP ? known : this.tokens.set(place, stream.tokenNumber(table[place]!));
  }
}

/** What {@link PlaceNumbers.at} gives for a place not looked up yet. */
const NOT_LOOKED_UP = -2;

/** Numbers of at least -1 by table place, each kept plus 2 so that a new place reads {@link NOT_LOOKED_UP}. */
class PlaceNumbers {
  private values = new Int32Array(0);

  cover(length: number): void {
    if (this.values.length >= length) return;
    const grown = new Int32Array(Math.max(length, 2 * this.values.length));
    grown.set(this.values);
    this.values = grown;
  }

  at(place: number): number {
    return this.values[place]! + NOT_LOOKED_UP;
  }

  /** Keeps `n` for `place`, and gives it. */
  set(place: number, n: number): number {
    this.values[place] = n - NOT_LOOKED_UP;
    return n;
  }
}
