import { InputError } from '../model/errors.js';
import type { EngineOptions } from '../model/options.js';
import type { SimulatorRequest } from '../model/request.js';
import { parseSwap, type Swap, type TapeHeader } from '../model/tape.js';
import { KnownPrices, PriceThreshold, type PriceTick } from './known-prices.js';
import { NativePriceSeries } from './native-prices.js';
import { Replay, type ReplayResult } from './replay.js';
import { isValidSwap } from './tape-check.js';
import { LeaderLookup, TokenTable, type TokenInfo } from './tokens.js';

/**
 * A replay fed one swap at a time, for tapes too large to hold in memory (a JSONL file). The
 * swaps must come in event order, that is in non-decreasing time (the model's stable sort then
 * keeps them as they come); a swap earlier than the one before it is an input error, as is an
 * invalid swap. Every swap is validated, also those after `window_end`, so a tape is accepted
 * or refused whatever the request. State grows with tokens, leaders and open deals only.
 *
 * @example
 * const stream = new StreamingReplay(header, request, options);
 * for (const swap of swaps) stream.push(swap);
 * const { result, tokens } = stream.finish();
 */
export class StreamingReplay {
  private readonly run: Replay;
  private readonly prices: KnownPrices;
  private readonly tokens: TokenTable;
  private readonly leaders: LeaderLookup;
  private readonly end: number;
  /**
   * True when a swap of a wallet not followed must come whole to {@link pushMarket}: with a
   * `min_price_swap_usd`, its `usd_amount` (or quantity) decides whether it sets a price.
   */
  readonly marketReadsAmounts: boolean;
  private count = 0;
  private lastTime = -Infinity;

  constructor(header: TapeHeader, request: SimulatorRequest, options: EngineOptions) {
    this.prices = new KnownPrices(0, PriceThreshold.of(options.min_price_swap_usd));
    this.run = new Replay({
      network: header.network,
      native: new NativePriceSeries(header.native_prices),
      request,
      options,
      prices: this.prices,
    });
    this.end = this.run.window.end;
    this.marketReadsAmounts = PriceThreshold.of(options.min_price_swap_usd) !== null;
    this.tokens = new TokenTable(header.network, header.tokens);
    this.leaders = new LeaderLookup(header.network, request.wallets);
  }

  /** Swaps pushed so far. */
  get swapCount(): number {
    return this.count;
  }

  /** Validates the next swap of the tape and replays it when it lies at or before `window_end`. */
  push(value: unknown): void {
    const swap = isValidSwap(value) ? value : parseSwap(value, this.count);
    this.pushChecked(swap, this.leaderIndex(swap.wallet));
  }

  /** The index of a wallet in the request's `wallets`, or -1 for a wallet not followed. */
  leaderIndex(wallet: string): number {
    return this.leaders.of(wallet);
  }

  /** The number this replay gives token `address` (a new one for a token not seen yet), for {@link pushNumbered}. */
  tokenNumber(address: string): number {
    return this.tokens.intern(address);
  }

  /**
   * {@link push} for a swap the caller has validated as {@link isValidSwap} does, from a source
   * that checks whole columns at once (a Parquet row group); `leader` is its {@link leaderIndex}.
   * `words`, when not null: the swap's price as a double word at `at` (see {@link pushNumbered}).
   */
  pushChecked(swap: Swap, leader: number, words: Float64Array | null = null, at = 0): void {
    if (!this.inOrder(swap.time)) return;
    const id = this.tokens.intern(swap.token);
    this.prices.wordMade(id, swap.usd_price, words, at);
    this.run.step(swap, id, leader);
  }

  /**
   * {@link pushChecked} for a valid swap of a wallet not followed: only its token, time, price
   * and liquidity take part in the replay (and its USD amount or quantity when
   * {@link marketReadsAmounts}), so a columnar source need not build the rest.
   */
  pushMarket(token: string, tick: PriceTick, words: Float64Array | null = null, at = 0): void {
    if (!this.inOrder(tick.time)) return;
    const id = this.tokens.intern(token);
    this.prices.wordMade(id, tick.usd_price, words, at);
    this.run.observe(tick, id);
  }

  /**
   * {@link pushChecked} for a swap whose token the caller has numbered as this replay numbers
   * tokens: in the order first seen, by address key (`addressKey`), every swap counted. A
   * source that looks the tokens up on another thread saves the lookup here. `words[at]` and
   * `words[at + 1]`: the swap's `usd_price` as `rawToWord` makes it, made on that thread too
   * (the valuations of the chart read it instead of making it here).
   */
  pushNumbered(swap: Swap, tokenId: number, leader: number, words: Float64Array | null, at: number): void {
    if (!this.inOrder(swap.time)) return;
    const id = this.numbered(tokenId, swap.token);
    this.prices.wordMade(id, swap.usd_price, words, at);
    this.run.step(swap, id, leader);
  }

  /**
   * {@link pushMarket} with the token numbered and the price's word made by the caller, as
   * {@link pushNumbered} has them.
   */
  pushMarketNumbered(tokenId: number, token: string, tick: PriceTick, words: Float64Array | null, at: number): void {
    if (!this.inOrder(tick.time)) return;
    const id = this.numbered(tokenId, token);
    this.prices.wordMade(id, tick.usd_price, words, at);
    this.run.observe(tick, id);
  }

  /** The token's number, a new token interned: the caller's numbering and this one agree. */
  private numbered(tokenId: number, token: string): number {
    if (tokenId < this.tokens.list.length) return tokenId;
    const id = this.tokens.intern(token);
    if (id !== tokenId) throw new Error(`token ${token} came numbered ${tokenId}; the replay numbers it ${id}`);
    return id;
  }

  /** Counts a swap at `time`, refused when earlier than the one before it; true when it lies in the window. */
  private inOrder(time: number): boolean {
    const index = this.count;
    if (time < this.lastTime) {
      throw new InputError(
        `tape: swap ${index}: time ${time} is earlier than the time ${this.lastTime} of the swap before it; ` +
          'a streamed tape must list its swaps in non-decreasing time',
        { source: 'tape', path: `swaps[${index}].time`, swapIndex: index },
      );
    }
    this.lastTime = time;
    this.count++;
    return time <= this.end;
  }

  /** Closes the window (model 3.4) and gives the result with the tokens it refers to. */
  finish(): { readonly result: ReplayResult; readonly tokens: readonly TokenInfo[] } {
    return { result: this.run.finish(), tokens: this.tokens.list };
  }
}
