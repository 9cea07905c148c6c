import { Decimal, type DecimalInput } from '../numeric/decimal.js';
import { doubleWord, rawToWord, toWord, type DoubleWord } from '../numeric/double-word.js';
import type { Swap } from '../model/tape.js';
import { parseLiquidity, type Liquidity } from './liquidity.js';
import type { IndexedTape } from './tape-index.js';
import { PRICE_HIGH, PRICE_LOW, SWAP_ROW, tapeMemo, type TapeMemo } from './tape-memo.js';

/**
 * What the price book reads of a swap: a swap of a wallet not followed needs no more. Its
 * quantity and USD amount are read only with a `min_price_swap_usd` (model 1.3).
 */
export type PriceTick = Pick<Swap, 'time' | 'usd_price' | 'usd_liquidity'> &
  Partial<Pick<Swap, 'quantity' | 'usd_amount'>>;

/** A swap's `usd_amount`, or `quantity × usd_price` when it has none. */
export function usdAmountOf(tick: PriceTick): Decimal {
  if (tick.usd_amount !== undefined) return new Decimal(tick.usd_amount);
  if (tick.quantity === undefined)
    throw new Error('a price tick without usd_amount or quantity under min_price_swap_usd');
  return new Decimal(tick.quantity).times(tick.usd_price);
}

/**
 * The engine option `min_price_swap_usd` (model 1.3): which swaps are price observations. A swap
 * whose `usd_amount` is below it sets neither the known price nor the known liquidity, except
 * that while every swap of a token so far is below it, the known price is the last one's.
 */
export class PriceThreshold {
  /** Per token: 1 once a swap at or above the threshold has been recorded. */
  private counted = new Uint8Array(0);

  constructor(private readonly min: Decimal) {}

  /** The threshold of the engine options, or null when it is 0 (every swap counts). */
  static of(min: DecimalInput): PriceThreshold | null {
    const value = new Decimal(min);
    return value.isZero() ? null : new PriceThreshold(value);
  }

  /** Whether a swap of `tokenId` with this USD amount is a price observation; notes it when it is. */
  counts(tokenId: number, usdAmount: Decimal): boolean {
    if (usdAmount.lt(this.min)) return false;
    if (tokenId >= this.counted.length) {
      const grown = new Uint8Array(Math.max(tokenId + 1, 2 * this.counted.length));
      grown.set(this.counted);
      this.counted = grown;
    }
    this.counted[tokenId] = 1;
    return true;
  }

  /** True while no swap of the token has counted: then a swap below the threshold still sets its price. */
  noneCounted(tokenId: number): boolean {
    return tokenId >= this.counted.length || this.counted[tokenId] === 0;
  }
}

/** A key of a known price ({@link PriceBook.priceKey}). */
export type PriceKey = number | DecimalInput;

/**
 * Each token's known price and known liquidity (model 1.1). Observing a swap stores only a
 * reference to it: no decimal work and no allocation for the market swaps that make up most of
 * a tape. The decimal is made when a follower trade or a valuation asks for it.
 */
export interface PriceBook {
  /**
   * Records swap `swap` (index `i` in an indexed tape) as its token's latest price, and liquidity
   * when it has one; gives false when it is no price observation (below `min_price_swap_usd`).
   */
  observe(tokenId: number, swap: PriceTick, i: number): boolean;
  /** The price of swap `swap` itself (index `i` in an indexed tape), whether it is an observation or not. */
  swapPrice(swap: PriceTick, i: number): Decimal;
  /** The liquidity of swap `swap` itself, or null when it carries none. */
  swapLiquidity(swap: PriceTick, i: number): Liquidity | null;
  /** The known price of a token that has been observed. */
  priceOf(tokenId: number): Decimal;
  /** A key of a token's known price for a valuation: equal keys, equal prices. */
  priceKey(tokenId: number): PriceKey;
  /** The price a {@link priceKey} stands for, also after the token's price has moved on. */
  priceOfKey(key: PriceKey): Decimal;
  /**
   * The token's known price as a double word, into `out` (`numeric/double-word.ts`), for a
   * valuation: made from the raw tape value without making a decimal.
   */
  priceWord(tokenId: number, out: DoubleWord): void;
  /**
   * The high part of {@link priceWord}: the price to within 2^-53, relatively, for the quick
   * tests of the exit rules.
   */
  priceNumber(tokenId: number): number;
  /** The known liquidity of a token, or null when none of its swaps carried one. */
  liquidityOf(tokenId: number): Liquidity | null;
  /** The time of the token's first swap in event order (a token observed at least once). */
  firstSeenOf(tokenId: number): number;
}

/** The price book of a streamed tape: a token's decimal is kept until its price moves again. */
export class KnownPrices implements PriceBook {
  private readonly price: (DecimalInput | undefined)[];
  private readonly liquidity: (DecimalInput | undefined)[];
  private readonly priceDecimal: (Decimal | undefined)[];
  private readonly priceSource: (DecimalInput | undefined)[];
  private readonly liquidityDecimal: (Liquidity | undefined)[];
  private readonly liquiditySource: (DecimalInput | undefined)[];
  /** Where {@link priceNumber} has the price word made. */
  private readonly word = doubleWord();
  /**
   * By token, a price's double word made by the caller ({@link wordMade}) and the raw price it
   * is of: a valuation of a price equal to it reads it instead of making one.
   */
  private readonly wordSource: (DecimalInput | undefined)[] = [];
  private readonly wordHigh: number[] = [];
  private readonly wordLow: number[] = [];

  /**
   * `tokenCount`: the tokens known in advance (more may come, as in a streamed tape);
   * `threshold`: the option `min_price_swap_usd`, null when every swap is an observation.
   */
  constructor(
    tokenCount = 0,
    private readonly threshold: PriceThreshold | null = null,
  ) {
    const empty = (): undefined[] => new Array<undefined>(tokenCount).fill(undefined);
    this.price = empty();
    this.liquidity = empty();
    this.priceDecimal = empty();
    this.priceSource = empty();
    this.liquidityDecimal = empty();
    this.liquiditySource = empty();
  }

  private readonly firstTime: (number | undefined)[] = [];

  observe(tokenId: number, swap: PriceTick): boolean {
    if (this.firstTime[tokenId] === undefined) this.firstTime[tokenId] = swap.time;
    const threshold = this.threshold;
    if (threshold !== null && !threshold.counts(tokenId, usdAmountOf(swap))) {
      if (threshold.noneCounted(tokenId)) this.price[tokenId] = swap.usd_price;
      return false;
    }
    this.price[tokenId] = swap.usd_price;
    if (swap.usd_liquidity != null) this.liquidity[tokenId] = swap.usd_liquidity;
    return true;
  }

  swapPrice(swap: PriceTick): Decimal {
    return new Decimal(swap.usd_price);
  }

  swapLiquidity(swap: PriceTick): Liquidity | null {
    return swap.usd_liquidity == null ? null : parseLiquidity(swap.usd_liquidity);
  }

  firstSeenOf(tokenId: number): number {
    return this.firstTime[tokenId]!;
  }

  priceOf(tokenId: number): Decimal {
    const raw = this.price[tokenId]!;
    if (this.priceSource[tokenId] === raw) return this.priceDecimal[tokenId]!;
    const value = new Decimal(raw);
    this.priceSource[tokenId] = raw;
    this.priceDecimal[tokenId] = value;
    return value;
  }

  priceKey(tokenId: number): DecimalInput {
    return this.price[tokenId]!;
  }

  priceOfKey(key: DecimalInput): Decimal {
    return new Decimal(key);
  }

  priceWord(tokenId: number, out: DoubleWord): void {
    const raw = this.price[tokenId]!;
    if (this.wordSource[tokenId] === raw) {
      out[0] = this.wordHigh[tokenId]!;
      out[1] = this.wordLow[tokenId]!;
    } else if (this.priceSource[tokenId] === raw) toWord(out, this.priceDecimal[tokenId]!);
    else rawToWord(out, raw);
  }

  /**
   * The double word of price `raw` of token `tokenId`, as `rawToWord` makes it, made by the
   * caller (the thread that reads the tape, beside the replay): `words[at]` and `words[at + 1]`;
   * none when `words` is null. Given before the swap of that price is observed, it is the
   * token's price word for as long as the token's known price equals `raw`. Any word within
   * `rawToWord`'s error serves: a valuation's printed value is decided with that error in its
   * bound.
   */
  wordMade(tokenId: number, raw: DecimalInput, words: Float64Array | null, at: number): void {
    if (words === null) return;
    const source = this.wordSource;
    while (source.length <= tokenId) {
      source.push(undefined);
      this.wordHigh.push(0.5);
      this.wordLow.push(0.5);
    }
    source[tokenId] = raw;
    this.wordHigh[tokenId] = words[at]!;
    this.wordLow[tokenId] = words[at + 1]!;
  }

  priceNumber(tokenId: number): number {
    this.priceWord(tokenId, this.word);
    return this.word[0]!;
  }

  liquidityOf(tokenId: number): Liquidity | null {
    const raw = this.liquidity[tokenId];
    if (raw === undefined) return null;
    if (this.liquiditySource[tokenId] === raw) return this.liquidityDecimal[tokenId]!;
    const value = parseLiquidity(raw);
    this.liquiditySource[tokenId] = raw;
    this.liquidityDecimal[tokenId] = value;
    return value;
  }
}

/**
 * The price book of an indexed tape: a token's latest price and liquidity are swap indices, and
 * their decimals are parsed once per tape ({@link TapeMemo}), whatever the number of requests.
 * Only the prices trades ask for are kept as decimals: a valuation takes a swap's price as a
 * double word ({@link priceWord}), made once per swap and tape and kept beside its time.
 *
 * A tape's first price book keeps only each token's latest decimals ({@link SwapDecimals}): a
 * tape replayed once gains nothing from a decimal per swap, which lives to the end and is copied
 * by the young generation's collections on its way to the old one (a tenth of a 1M-swap
 * `simulate`). The price books after it, of a tape replayed again, keep one per swap.
 */
export class IndexedKnownPrices implements PriceBook {
  private readonly swaps: readonly Swap[];
  /** The swaps' `usd_price` and `usd_liquidity` as decimals, made when first asked for. */
  private readonly prices: SwapDecimals<Decimal>;
  private readonly liquidities: SwapDecimals<Liquidity>;
  private readonly carriesLiquidity: Uint8Array;
  /** The tape's times and price words ({@link TapeMemo.timeline}). */
  private readonly timeline: Float64Array;
  /** Index of the swap that set each token's price and liquidity (-1: none yet). */
  private readonly priceSwap: Int32Array;
  private readonly liquiditySwap: Int32Array;
  /** Index of each token's first swap (-1: none yet). */
  private readonly firstSwap: Int32Array;
  private readonly usdAmountMemo: (Decimal | undefined)[];
  /** Where {@link priceNumber} has a price word made. */
  private readonly word = doubleWord();
  private readonly memo: TapeMemo;

  /**
   * `threshold`: the option `min_price_swap_usd`, null when every swap is an observation.
   * `keep` false: keep no decimal by swap with the tape, only each token's latest, as a tape's
   * first book does (for walks that share few of their swaps' decimals: a rank's).
   */
  constructor(
    tape: IndexedTape,
    private readonly threshold: PriceThreshold | null = null,
    keep = true,
  ) {
    const memo = tapeMemo(tape);
    this.memo = memo;
    this.usdAmountMemo = memo.usdAmount;
    this.timeline = memo.timeline();
    this.swaps = tape.swaps;
    const perSwap = keep && memo.countPriceBook() > 0;
    const swaps = tape.swaps;
    this.prices = new SwapDecimals(tape, perSwap ? memo.price : null, (i) => new Decimal(swaps[i]!.usd_price));
    this.liquidities = new SwapDecimals(tape, perSwap ? memo.liquidity : null, (i) =>
      parseLiquidity(swaps[i]!.usd_liquidity!),
    );
    this.carriesLiquidity = memo.carriesLiquidity();
    this.priceSwap = new Int32Array(tape.tokens.length).fill(-1);
    this.liquiditySwap = new Int32Array(tape.tokens.length).fill(-1);
    this.firstSwap = new Int32Array(tape.tokens.length).fill(-1);
  }

  observe(tokenId: number, swap: PriceTick, i: number): boolean {
    if (this.firstSwap[tokenId] === -1) this.firstSwap[tokenId] = i;
    const threshold = this.threshold;
    if (
      threshold !== null &&
      !threshold.counts(tokenId, this.usdAmountMemo[i] ?? (this.usdAmountMemo[i] = usdAmountOf(swap)))
    ) {
      if (threshold.noneCounted(tokenId)) this.priceSwap[tokenId] = i;
      return false;
    }
    this.priceSwap[tokenId] = i;
    if (this.carriesLiquidity[i] === 1) this.liquiditySwap[tokenId] = i;
    return true;
  }

  swapPrice(_swap: PriceTick, i: number): Decimal {
    return this.prices.at(i, this.priceSwap);
  }

  swapLiquidity(_swap: PriceTick, i: number): Liquidity | null {
    if (this.carriesLiquidity[i] !== 1) return null;
    return this.liquidities.at(i, this.liquiditySwap);
  }

  firstSeenOf(tokenId: number): number {
    return this.swaps[this.firstSwap[tokenId]!]!.time;
  }

  priceOf(tokenId: number): Decimal {
    const i = this.priceSwap[tokenId]!;
    return this.prices.at(i, this.priceSwap);
  }

  priceKey(tokenId: number): number {
    return this.priceSwap[tokenId]!;
  }

  priceOfKey(i: number): Decimal {
    return this.prices.at(i, this.priceSwap);
  }

  priceWord(tokenId: number, out: DoubleWord): void {
    const i = this.priceSwap[tokenId]!;
    const timeline = this.timeline;
    const at = SWAP_ROW * i;
    const high = timeline[at + PRICE_HIGH]!;
    if (high === 0) {
      this.memo.makePriceWord(i, out);
      return;
    }
    out[0] = high;
    out[1] = timeline[at + PRICE_LOW]!;
  }

  priceNumber(tokenId: number): number {
    const i = this.priceSwap[tokenId]!;
    const at = SWAP_ROW * i;
    const high = this.timeline[at + PRICE_HIGH]!;
    if (high !== 0) return high;
    this.memo.makePriceWord(i, this.word);
    return this.word[0]!;
  }

  liquidityOf(tokenId: number): Liquidity | null {
    const i = this.liquiditySwap[tokenId]!;
    if (i < 0) return null;
    return this.liquidities.at(i, this.liquiditySwap);
  }
}

/**
 * The decimals of one field of the swaps, made when first asked for: kept by swap in the tape
 * memo (`bySwap`), or, without it, only each token's latest (the decimal of the swap that set
 * the token's known value, while it stands).
 */
class SwapDecimals<T> {
  private readonly tokenOf: Uint32Array;
  /** Per token, the swap whose decimal is kept (-1: none) and that decimal. */
  private readonly latestSwap: Int32Array;
  private readonly latest: (T | undefined)[];

  constructor(
    tape: IndexedTape,
    private readonly bySwap: (T | undefined)[] | null,
    private readonly make: (i: number) => T,
  ) {
    this.tokenOf = tape.tokenOf;
    this.latestSwap = new Int32Array(tape.tokens.length).fill(-1);
    this.latest = new Array<T | undefined>(tape.tokens.length);
  }

  /** Swap `i`'s decimal; `current`: the swap that set each token's known value. */
  at(i: number, current: Int32Array): T {
    const bySwap = this.bySwap;
    if (bySwap !== null) return bySwap[i] ?? (bySwap[i] = this.make(i));
    const tokenId = this.tokenOf[i]!;
    if (this.latestSwap[tokenId] === i) return this.latest[tokenId]!;
    const value = this.make(i);
    if (current[tokenId] === i) {
      this.latestSwap[tokenId] = i;
      this.latest[tokenId] = value;
    }
    return value;
  }
}
