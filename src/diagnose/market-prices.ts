import type { IndexedTape } from '../engine/tape-index.js';
import { PRICE_HIGH, SWAP_ROW, TIME, tapeMemo, type TapeMemo } from '../engine/tape-memo.js';
import { addressKey } from '../engine/tokens.js';
import type { EngineOptions } from '../model/options.js';
import type { Network } from '../model/request.js';
import type { Swap } from '../model/tape.js';
import { doubleWord } from '../numeric/double-word.js';

/**
 * The market a follower trade is checked against (`price_far_from_market`): each token's price
 * observations in event order, as positions in one array. Token `t`'s are the positions
 * `start[t] .. start[t + 1]`. Only the price observations count: swaps below
 * `min_price_swap_usd` are none (model 1.2), and not the market either.
 */
export interface MarketPrices {
  readonly start: ArrayLike<number>;
  /** The token's number here, by the address a deal names it with; undefined when no swap has it. */
  tokenId(address: string): number | undefined;
  /** The first position of token `t`'s observations whose time is after `time`. */
  firstAfter(t: number, time: number): number;
  /** The observation's price: the high part of the engine's price word (to within 2^-100). */
  price(at: number): number;
  /** The observation's swap, by its index in the tape. */
  swapIndex(at: number): number;
  /** A swap of the tape by its index (for the message; a few are asked for). */
  swap(index: number): Swap;
}

/**
 * Whether a swap of this `usd_amount` is a price observation under `min_price_swap_usd` as the
 * number `least` (model 1.2: a smaller swap sets no price).
 */
function observes(amount: Swap['usd_amount'], least: number): boolean {
  return !(least > 0 && amount !== undefined && Number(amount) < least);
}

/** The first position of `[lo, hi)` whose time is after `time` (`times` ascending there). */
function firstAfterIn(times: ArrayLike<number>, lo: number, hi: number, time: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! <= time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The market of a tape in memory (a counting sort of its event order by token), with its prices
 * read from the tape's memo as asked. The arrays as long as the tape are plain arrays, on the
 * heap: a typed array's memory is external to it, and V8 answers each 64 MB of new external
 * memory with a full collection, here of a heap holding the whole tape (about 0.2 s on a
 * 1M-swap tape, after the replay's own typed arrays).
 */
export class TapeMarket implements MarketPrices {
  readonly start: Int32Array;
  private readonly swaps: number[];
  private readonly times: number[];
  private readonly ids: Map<string, number>;
  private readonly memo: TapeMemo;
  /** The memo's times and price words (`TapeMemo.timeline`). */
  private readonly timeline: Float64Array;
  /**
   * The prices by position, 0 until read: the neighbours of a token's trades overlap, and read
   * here they lie side by side, where the timeline holds them by swap index, far apart.
   */
  private readonly prices: number[];
  private readonly word = doubleWord();

  constructor(
    private readonly tape: IndexedTape,
    options: EngineOptions,
  ) {
    const { order, tokenOf, swaps } = tape;
    const least = Number(options.min_price_swap_usd);
    this.ids = new Map(tape.tokens.map((t, id) => [addressKey(tape.network, t.address), id]));
    // 1 for each swap (by position in event order) that is a price observation: read once.
    const counted = new Uint8Array(order.length);
    const start = new Int32Array(tape.tokens.length + 1);
    for (let k = 0; k < order.length; k++) {
      const i = order[k]!;
      // The swaps' objects are read only with a threshold: most tapes are read from typed arrays here.
      if (least > 0 && !observes(swaps[i]!.usd_amount, least)) continue;
      counted[k] = 1;
      start[tokenOf[i]! + 1]!++;
    }
    for (let t = 0; t < tape.tokens.length; t++) start[t + 1]! += start[t]!;
    const next = start.slice(0, -1);
    const count = start[tape.tokens.length]!;
    this.swaps = new Array<number>(count).fill(0);
    this.times = doubles(count);
    this.memo = tapeMemo(tape);
    this.timeline = this.memo.timeline();
    for (let k = 0; k < order.length; k++) {
      if (counted[k] === 0) continue;
      const i = order[k]!;
      const at = next[tokenOf[i]!]!++;
      this.swaps[at] = i;
      this.times[at] = this.timeline[SWAP_ROW * i + TIME]!;
    }
    this.start = start;
    this.prices = doubles(count);
  }

  tokenId(address: string): number | undefined {
    // A deal names its token as the swap that opened it spelled it: on eth, in any case.
    return this.ids.get(addressKey(this.tape.network, address));
  }

  price(at: number): number {
    const known = this.prices[at]!;
    if (known !== 0) return known;
    const i = this.swaps[at]!;
    let high = this.timeline[SWAP_ROW * i + PRICE_HIGH]!;
    if (high === 0) {
      this.memo.makePriceWord(i, this.word);
      high = this.word[0]!;
    }
    this.prices[at] = high;
    return high;
  }

  firstAfter(t: number, time: number): number {
    return firstAfterIn(this.times, this.start[t]!, this.start[t + 1]!, time);
  }

  swapIndex(at: number): number {
    return this.swaps[at]!;
  }

  swap(index: number): Swap {
    return this.tape.swaps[index]!;
  }
}

/** `n` zeros in an array of unboxed doubles (filled with a fraction first, it holds doubles from the start). */
function doubles(n: number): number[] {
  return new Array<number>(n).fill(0.5).fill(0);
}

/**
 * The price observations of a tape that streams by in event order, gathered swap by swap (by
 * the thread that reads a JSON tape's swaps, io/json-tape/), then put by token.
 */
export class MarketObservations {
  private readonly tokens: number[] = [];
  private readonly times: number[] = [];
  private readonly prices: number[] = [];
  private readonly swaps: number[] = [];

  /** @param least `min_price_swap_usd`: a swap of a smaller `usd_amount` sets no price (model 1.2). */
  constructor(private readonly least: number) {}

  /**
   * The tape's swap `index`, valid (`isValidSwap`), the swaps before it given; `token` numbers
   * its token (one number a token, by address key); `price`: its `usd_price` as a double (the
   * high part of `rawToWord`'s word).
   */
  add(swap: Swap, index: number, token: number, price: number): void {
    if (!observes(swap.usd_amount, this.least)) return;
    this.tokens.push(token);
    this.times.push(swap.time);
    this.prices.push(price);
    this.swaps.push(index);
  }

  /**
   * The observations by token (a counting sort, each token's kept in event order); `keys`: each
   * token's address key, by its number.
   */
  byToken(keys: readonly string[]): MarketByToken {
    const count = this.tokens.length;
    const start = new Int32Array(keys.length + 1);
    for (let k = 0; k < count; k++) start[this.tokens[k]! + 1]!++;
    for (let t = 0; t < keys.length; t++) start[t + 1]! += start[t]!;
    const next = start.slice(0, -1);
    const swaps = new Int32Array(count);
    const times = new Float64Array(count);
    const prices = new Float64Array(count);
    for (let k = 0; k < count; k++) {
      const at = next[this.tokens[k]!]!++;
      swaps[at] = this.swaps[k]!;
      times[at] = this.times[k]!;
      prices[at] = this.prices[k]!;
    }
    return { keys, start, swaps, times, prices };
  }
}

/** {@link MarketObservations} by token: plain data, to send to another thread. */
export interface MarketByToken {
  /** Each token's address key (`addressKey`), by its number. */
  readonly keys: readonly string[];
  readonly start: Int32Array;
  readonly swaps: Int32Array;
  readonly times: Float64Array;
  readonly prices: Float64Array;
}

/** The market of a streamed tape, from its observations by token; its swaps read again as asked. */
export class StreamedMarket implements MarketPrices {
  readonly start: Int32Array;
  private readonly ids: Map<string, number>;

  constructor(
    private readonly network: Network,
    private readonly market: MarketByToken,
    /** The tape's swap by its index, read again from the file. */
    private readonly swapAt: (index: number) => Swap,
  ) {
    this.start = market.start;
    this.ids = new Map(market.keys.map((key, id) => [key, id]));
  }

  tokenId(address: string): number | undefined {
    return this.ids.get(addressKey(this.network, address));
  }

  price(at: number): number {
    return this.market.prices[at]!;
  }

  firstAfter(t: number, time: number): number {
    return firstAfterIn(this.market.times, this.start[t]!, this.start[t + 1]!, time);
  }

  swapIndex(at: number): number {
    return this.market.swaps[at]!;
  }

  swap(index: number): Swap {
    return this.swapAt(index);
  }
}
