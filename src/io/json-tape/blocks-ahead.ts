import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { builtScriptIfAny } from '../../built-script.js';
import type { MarketByToken } from '../../diagnose/market-prices.js';
import type { Network } from '../../model/request.js';
import { ColumnsReceiver, Doubles, type WireColumns } from '../parquet/column-wire.js';
import { DECIMAL_COLUMNS } from '../parquet/format.js';
import { decodedRowGroup, type DecodedRowGroup } from '../parquet/row-group.js';
import type { JsonTapeLayout } from './layout.js';

/** Blocks the reading thread may post before the replay takes them: memory for as many more. */
export const AHEAD = 4;
/** Places in the shared counters: blocks posted by the reading thread; blocks taken by the replay. */
export const POSTED = 0;
export const TAKEN = 1;
/** How long the replay waits for a block before it calls the reading thread lost. */
const STALL_MS = 60_000;

/** What the reading thread is given. */
export interface BlocksStart {
  readonly path: string;
  readonly from: number;
  readonly to: number;
  readonly network: Network;
  /** The request's wallets, whose places the thread looks up. */
  readonly wallets: readonly string[];
  /** `min_price_swap_usd` as a number, for the market's observations; null: no market gathered. */
  readonly least: number | null;
  /** The counters at {@link POSTED} and {@link TAKEN}. */
  readonly signal: Int32Array;
  readonly port: MessagePort;
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
    }
  | { readonly kind: 'end'; readonly market: MarketByToken | null }
  | { readonly kind: 'refused'; readonly reason: string };

/**
 * A block of the swaps array, decoded, with its bytes in the file, each swap's place in the
 * request's wallets (-1: not followed) and its token's number (`BlockNumbering`).
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
  const url = builtScriptIfAny('io/json-tape/block-thread.js');
  if (url === null) throw new NotStreamable('no compiled thread script');
  const signal = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
  const { port1, port2 } = new MessageChannel();
  const start: BlocksStart = {
    path,
    from: layout.bodyStart,
    to: layout.bodyEnd,
    network,
    wallets,
    least,
    signal,
    port: port2,
  };
  let worker: Worker;
  try {
    worker = new Worker(url, { workerData: start, transferList: [port2] });
  } catch (e) {
    port1.close();
    throw new NotStreamable(`no thread: ${(e as Error).message}`);
  }
  worker.unref();
  const receiver = new ColumnsReceiver();
  try {
    for (let taken = 0; ; taken++) {
      const reply = nextReply(port1, signal, taken);
      if (reply.kind === 'refused') throw new NotStreamable(reply.reason);
      if (reply.kind === 'end') return reply.market;
      const columns = receiver.columns(reply.columns);
      // Per block, the decimal fields whose every value was a JSON number arrive as doubles.
      const numbers = new Set<string>(DECIMAL_COLUMNS.filter((field) => columns[field] instanceof Doubles));
      const group = decodedRowGroup(columns, reply.start, reply.rows, numbers, SKIPPED, true);
      Atomics.add(signal, TAKEN, 1);
      Atomics.notify(signal, TAKEN);
      yield { ...group, from: reply.from, to: reply.to, leaders: reply.leaders, tokens: reply.tokens };
    }
  } finally {
    port1.close();
    void worker.terminate();
  }
}

/** The fields a simulation never reads, left out by the reading thread. */
const SKIPPED: ReadonlySet<string> = new Set(['transaction_hash']);

/** The thread's next reply, waited for (the `taken` before it were taken). */
function nextReply(port: MessagePort, signal: Int32Array, taken: number): BlocksReply {
  for (;;) {
    const posted = Atomics.load(signal, POSTED);
    const message = receiveMessageOnPort(port);
    if (message !== undefined) return message.message as BlocksReply;
    if (Atomics.wait(signal, POSTED, posted, STALL_MS) === 'timed-out') {
      throw new NotStreamable(`the thread reading the tape gave nothing in ${STALL_MS / 1000} s after ${taken} blocks`);
    }
  }
}
