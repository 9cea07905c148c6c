import { Decimal, type DecimalInput } from '../numeric/decimal.js';
import { doubleWord, rawToWord, toWord, type DoubleWord } from '../numeric/double-word.js';
import type { Swap } from '../model/tape.js';
import { parseLiquidity, type Liquidity } from './liquidity.js';
import type { IndexedTape } from './tape-index.js';
import { PRICE_HIGH, PRICE_LOW, SWAP_ROW, tapeMemo, type TapeMemo } from './tape-memo.js';

/** What the price book reads of a swap: a swap of a wallet not followed needs no more. */
export type PriceTick = Pick<Swap, 'time' | 'usd_price' | 'usd_liquidity'>;

/**
 * Each token's known price and known liquidity (model 1.1). Observing a swap stores only a
 * reference to it: no decimal work and no allocation for the market swaps that make up most of
 * a tape. The decimal is made when a follower trade or a valuation asks for it.
 */
export interface PriceBook {
  /** Records swap `swap` (index `i` in an indexed tape) as its token's latest price, and liquidity when it has one. */
  observe(tokenId: number, swap: PriceTick, i: number): void;
  /** The known price of a token that has been observed. */
  priceOf(tokenId: number): Decimal;
  /** A key of a token's known price for a valuation: equal keys, equal prices. */
  priceKey(tokenId: number): number | DecimalInput;
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

  /** `tokenCount`: the tokens known in advance (more may come, as in a streamed tape). */
  constructor(tokenCount = 0) {
    const empty = (): undefined[] => new Array<undefined>(tokenCount).fill(undefined);
    this.price = empty();
    this.liquidity = empty();
    this.priceDecimal = empty();
    this.priceSource = empty();
    this.liquidityDecimal = empty();
    this.liquiditySource = empty();
  }

  private readonly firstTime: (number | undefined)[] = [];

  observe(tokenId: number, swap: PriceTick): void {
    if (this.price[tokenId] === undefined) this.firstTime[tokenId] = swap.time;
    this.price[tokenId] = swap.usd_price;
    if (swap.usd_liquidity != null) this.liquidity[tokenId] = swap.usd_liquidity;
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

  priceWord(tokenId: number, out: DoubleWord): void {
    const raw = this.price[tokenId]!;
    if (this.priceSource[tokenId] === raw) toWord(out, this.priceDecimal[tokenId]!);
    else rawToWord(out, raw);
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
 */
export class IndexedKnownPrices implements PriceBook {
  private readonly swaps: readonly Swap[];
  private readonly priceMemo: (Decimal | undefined)[];
  private readonly liquidityMemo: (Liquidity | undefined)[];
  private readonly carriesLiquidity: Uint8Array;
  /** The tape's times and price words ({@link TapeMemo.timeline}). */
  private readonly timeline: Float64Array;
  /** Index of the swap that set each token's price and liquidity (-1: none yet). */
  private readonly priceSwap: Int32Array;
  private readonly liquiditySwap: Int32Array;
  /** Index of each token's first swap (-1: none yet). */
  private readonly firstSwap: Int32Array;
  /** Where {@link priceNumber} has a price word made. */
  private readonly word = doubleWord();

  constructor(tape: IndexedTape) {
    const memo = tapeMemo(tape);
    this.timeline = memo.timeline();
    this.swaps = tape.swaps;
    this.priceMemo = memo.price;
    this.liquidityMemo = memo.liquidity;
    this.carriesLiquidity = memo.carriesLiquidity();
    this.priceSwap = new Int32Array(tape.tokens.length).fill(-1);
    this.liquiditySwap = new Int32Array(tape.tokens.length).fill(-1);
    this.firstSwap = new Int32Array(tape.tokens.length).fill(-1);
  }

  observe(tokenId: number, _swap: PriceTick, i: number): void {
    if (this.priceSwap[tokenId] === -1) this.firstSwap[tokenId] = i;
    this.priceSwap[tokenId] = i;
    if (this.carriesLiquidity[i] === 1) this.liquiditySwap[tokenId] = i;
  }

  firstSeenOf(tokenId: number): number {
    return this.swaps[this.firstSwap[tokenId]!]!.time;
  }

  priceOf(tokenId: number): Decimal {
    const i = this.priceSwap[tokenId]!;
    return this.priceMemo[i] ?? (this.priceMemo[i] = new Decimal(this.swaps[i]!.usd_price));
  }

  priceKey(tokenId: number): number {
    return this.priceSwap[tokenId]!;
  }

  priceWord(tokenId: number, out: DoubleWord): void {
    const i = this.priceSwap[tokenId]!;
    const timeline = this.timeline;
    const at = SWAP_ROW * i;
    const high = timeline[at + PRICE_HIGH]!;
    if (high === 0) {
      this.makePriceWord(i, at, out);
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
    this.makePriceWord(i, at, this.word);
    return this.word[0]!;
  }

  /**
   * Makes swap `i`'s price word into `out` and the timeline, once per swap and tape. Kept out of
   * {@link priceWord}, which the re-valuation inlines: the conversion is large and, after the
   * first replay, rare.
   */
  private makePriceWord(i: number, at: number, out: DoubleWord): void {
    const known = this.priceMemo[i];
    if (known !== undefined) toWord(out, known);
    else rawToWord(out, this.swaps[i]!.usd_price);
    this.timeline[at + PRICE_HIGH] = out[0]!;
    this.timeline[at + PRICE_LOW] = out[1]!;
  }

  liquidityOf(tokenId: number): Liquidity | null {
    const i = this.liquiditySwap[tokenId]!;
    if (i < 0) return null;
    return this.liquidityMemo[i] ?? (this.liquidityMemo[i] = parseLiquidity(this.swaps[i]!.usd_liquidity!));
  }
}
