import type { MarketByToken } from '../../diagnose/market-prices.js';
import type { Network } from '../../model/request.js';
import { ColumnsReceiver, Doubles, type WireColumns } from '../parquet/column-wire.js';
import { DECIMAL_COLUMNS } from '../parquet/format.js';
import { decodedRowGroup, type DecodedRowGroup } from '../parquet/row-group.js';
import type { JsonTapeLayout } from './layout.js';
import {
  countTaken,
  nextPost,
  startReadingThread,
  stopReadingThread,
  type ReadingThread,
  type ThreadLink,
} from '../reading-thread.js';

/**
 * Blocks the reading thread may post before the replay takes them: memory for as many more. A
 * replay that copies much is slower than the reading at first, while its code compiles, and
 * quicker later: a long lead lets the early reading cover the late (docs/performance.md).
 */
export const AHEAD = 12;
/** How long the replay waits for a block before it calls the reading thread lost. */
const STALL_MS = 60_000;

/** What the reading thread is given. */
export interface BlocksStart extends ThreadLink {
  readonly path: string;
  readonly from: number;
  readonly to: number;
  readonly network: Network;
  /** The request's wallets, whose places the thread looks up. */
  readonly wallets: readonly string[];
  /** `min_price_swap_usd` as a number, for the market's observations; null: no market gathered. */
  readonly least: number | null;
}

/** What the reading thread posts: a block, the end with the market, or why the file must be read whole. */
export type BlocksReply =
  | {
      readonly kind: 'block';
      readonly start: number;
      readonly rows: number;
      readonly from: number;
      readonly to: number;
      readonly columns: WireColumns;
      readonly leaders: Int32Array;
      readonly tokens: Int32Array;
      readonly priceWords: Float64Array;
    }
  | { readonly kind: 'end'; readonly market: MarketByToken | null }
  | { readonly kind: 'refused'; readonly reason: string };

/**
 * A block of the swaps array, decoded (its prices' double words made by the reading thread),
 * with its bytes in the file, each swap's place in the request's wallets (-1: not followed) and
 * its token's number (`BlockNumbering`).
 */
export type JsonBlock = DecodedRowGroup & {
  readonly from: number;
  readonly to: number;
  readonly leaders: Int32Array;
  readonly tokens: Int32Array;
};

/** The file cannot be streamed (not in time order, a bad swap, a thread lost): read it whole. */
export class NotStreamable extends Error {}

/**
 * The blocks of a JSON tape's swaps array, read, parsed, checked and put in columns by a thread
 * of their own while this one replays them; returns the tape's market (`MarketByToken`) once
 * all are given, when asked for. Throws {@link NotStreamable} when the thread refuses a block or cannot start
 * (a build without the compiled thread script): the caller then reads the file whole, where
 * any error is named.
 */
export function* jsonBlocksAhead(
  path: string,
  layout: JsonTapeLayout,
  network: Network,
  wallets: readonly string[],
  /** `min_price_swap_usd` as a number, or null to gather no market. */
  least: number | null,
): Generator<JsonBlock, MarketByToken | null> {
  const data: Omit<BlocksStart, keyof ThreadLink> = {
    path,
    from: layout.bodyStart,
    to: layout.bodyEnd,
    network,
    wallets,
    least,
  };
  const thread = startReadingThread('io/json-tape/block-thread.js', data);
  if (thread === null) throw new NotStreamable('no thread to read the tape (or no compiled thread script)');
  const receiver = new ColumnsReceiver();
  try {
    for (let taken = 0; ; taken++) {
      const reply = nextReply(thread, taken);
      if (reply.kind === 'refused') throw new NotStreamable(reply.reason);
      if (reply.kind === 'end') return reply.market;
      const columns = receiver.columns(reply.columns);
      // Per block, the decimal fields whose every value was a JSON number arrive as doubles.
      const numbers = new Set<string>(DECIMAL_COLUMNS.filter((field) => columns[field] instanceof Doubles));
      const group = decodedRowGroup(columns, reply.start, reply.rows, numbers, SKIPPED, true, reply.priceWords);
      countTaken(thread.signal);
      yield { ...group, from: reply.from, to: reply.to, leaders: reply.leaders, tokens: reply.tokens };
    }
  } finally {
    stopReadingThread(thread);
  }
}

/** The fields a simulation never reads, left out by the reading thread. */
const SKIPPED: ReadonlySet<string> = new Set(['transaction_hash']);

/** The thread's next reply, waited for (the `taken` before it were taken). */
function nextReply(thread: ReadingThread, taken: number): BlocksReply {
  const reply = nextPost(thread, STALL_MS);
  if (reply === undefined) {
    throw new NotStreamable(`the thread reading the tape gave nothing in ${STALL_MS / 1000} s after ${taken} blocks`);
  }
  return reply as BlocksReply;
}
