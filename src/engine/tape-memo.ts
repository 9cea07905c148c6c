import type { Decimal } from '../numeric/decimal.js';
import { rawToWord, toWord, type DoubleWord } from '../numeric/double-word.js';
import type { Liquidity } from './liquidity.js';
import type { IndexedTape } from './tape-index.js';

/**
 * Decimals of an indexed tape that depend on the tape alone, by swap index, made the first
 * time a simulation asks for them and kept with the tape (in a WeakMap): a sweep or a server
 * running many requests over one tape parses a price or works out a leader's holdings once,
 * not once per request.
 */
export class TapeMemo {
  /** `usd_price` of each swap. */
  readonly price: (Decimal | undefined)[];
  /** `usd_liquidity` of each swap that carries one. */
  readonly liquidity: (Liquidity | undefined)[];
  /** The swap's `usd_amount` (or `quantity × usd_price`). */
  readonly usdAmount: (Decimal | undefined)[];
  /** The holdings of the swap's wallet in its token just before the swap (model section 2). */
  readonly holdingsBefore: (Decimal | undefined)[];
  /** The part of a lot a sell takes; `null`: all of it (model 3.2). */
  readonly sellFraction: (Decimal | null | undefined)[];
  private pairs: SwapPairs | null = null;
  /** Price books and leader facts made on the tape so far ({@link countPriceBook}, {@link countLeaderFacts}). */
  private priceBooks = 0;
  private leaderFacts = 0;
  private swapColumns: SwapColumns | null = null;

  constructor(private readonly tape: IndexedTape) {
    const n = tape.swaps.length;
    this.price = new Array<Decimal | undefined>(n);
    this.liquidity = new Array<Liquidity | undefined>(n);
    this.usdAmount = new Array<Decimal | undefined>(n);
    this.holdingsBefore = new Array<Decimal | undefined>(n);
    this.sellFraction = new Array<Decimal | null | undefined>(n);
  }

  /**
   * Counts a price book made on the tape and gives how many were made before it: the first keeps
   * no decimal by swap (`IndexedKnownPrices`).
   */
  countPriceBook(): number {
    return this.priceBooks++;
  }

  /**
   * Counts leader facts made on the tape and gives how many were made before them: the first
   * keeps no decimal by swap (`IndexedLeaderFacts`).
   */
  countLeaderFacts(): number {
    return this.leaderFacts++;
  }

  /**
   * Each swap's `time` and its `usd_price` as a double word (`numeric/double-word.ts`), by swap
   * index: {@link SWAP_ROW} doubles a swap, at `SWAP_ROW × i` + {@link TIME}, {@link PRICE_HIGH}
   * and {@link PRICE_LOW}; the price word is 0 until made (a price is positive). The replay loop
   * reads a typed array instead of the swap objects, whose shapes vary (fields present or not)
   * and which lie scattered in memory. The price words lie beside the times because the PnL
   * chart's valuations read the words of recent swaps: the loop, reading every time in order,
   * has brought them into the cache (in an array of their own, each such read missed it).
   */
  timeline(): Float64Array {
    return this.columns().timeline;
  }

  /**
   * Makes swap `i`'s price word into `out` and the timeline, once per swap and tape: from its
   * decimal when made, else from its text. The reader checks first that the timeline's word is
   * 0 (not made).
   */
  makePriceWord(i: number, out: DoubleWord): void {
    const known = this.price[i];
    if (known !== undefined) toWord(out, known);
    else rawToWord(out, this.tape.swaps[i]!.usd_price);
    const timeline = this.columns().timeline;
    timeline[SWAP_ROW * i + PRICE_HIGH] = out[0]!;
    timeline[SWAP_ROW * i + PRICE_LOW] = out[1]!;
  }

  /** 1 for each swap that carries a liquidity (`usd_liquidity` not null nor absent), else 0. */
  carriesLiquidity(): Uint8Array {
    return this.columns().carriesLiquidity;
  }

  /**
   * 1 for each buy, 0 for each sell: with {@link timeline}, all the replay loop reads of a swap once
   * the memo holds its decimals, so it never touches the swap objects (scattered in memory, and a
   * cache miss each).
   */
  buys(): Uint8Array {
    return this.columns().buy;
  }

  /** The swaps' fields the replay loop reads, by swap index, read from the swaps in one pass. */
  private columns(): SwapColumns {
    if (this.swapColumns !== null) return this.swapColumns;
    const { swaps } = this.tape;
    const n = swaps.length;
    const columns: SwapColumns = {
      timeline: new Float64Array(SWAP_ROW * n),
      buy: new Uint8Array(n),
      carriesLiquidity: new Uint8Array(n),
    };
    for (let i = 0; i < n; i++) {
      const swap = swaps[i]!;
      columns.timeline[SWAP_ROW * i + TIME] = swap.time;
      columns.buy[i] = swap.type === 'buy' ? 1 : 0;
      columns.carriesLiquidity[i] = swap.usd_liquidity != null ? 1 : 0;
    }
    return (this.swapColumns = columns);
  }

  /**
   * Each swap's (wallet, token) pair, numbered within its wallet, and the previous swap of its
   * pair in event order: a leader's holdings before a swap follow from those before that one.
   */
  swapPairs(): SwapPairs {
    if (this.pairs !== null) return this.pairs;
    const { order, walletOf, tokenOf, tokens, walletIds } = this.tape;
    const n = order.length;
    // The swaps grouped by wallet, each group in event order (a counting sort), then each group
    // walked with the last swap of each token: typed arrays only, no map of pairs.
    const start = new Int32Array(walletIds.size + 1);
    for (let k = 0; k < n; k++) start[walletOf[order[k]!]! + 1]!++;
    for (let w = 0; w < walletIds.size; w++) start[w + 1]! += start[w]!;
    const next = start.slice(0, -1);
    const byWallet = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      const i = order[k]!;
      byWallet[next[walletOf[i]!]!++] = i;
    }
    const previous = new Int32Array(n).fill(-1);
    const pairOf = new Int32Array(n);
    const pairsOfWallet = new Int32Array(walletIds.size);
    // The last swap of each token in the group being walked, valid when stamped with its wallet.
    const lastOfToken = new Int32Array(tokens.length);
    const stamp = new Int32Array(tokens.length).fill(-1);
    for (let w = 0; w < walletIds.size; w++) {
      let pairs = 0;
      for (let at = start[w]!; at < start[w + 1]!; at++) {
        const i = byWallet[at]!;
        const token = tokenOf[i]!;
        if (stamp[token] === w) {
          const last = lastOfToken[token]!;
          previous[i] = last;
          pairOf[i] = pairOf[last]!;
        } else {
          pairOf[i] = pairs++;
        }
        stamp[token] = w;
        lastOfToken[token] = i;
      }
      pairsOfWallet[w] = pairs;
    }
    return (this.pairs = { pairOf, previous, pairsOfWallet });
  }
}

/** See {@link TapeMemo.swapPairs}. */
export interface SwapPairs {
  /** The pair of each swap, by swap index, numbered from 0 within the swap's wallet. */
  readonly pairOf: Int32Array;
  /** The previous swap of each swap's pair, by swap index, or -1. */
  readonly previous: Int32Array;
  /** How many pairs (tokens) each wallet has, by wallet id. */
  readonly pairsOfWallet: Int32Array;
}

/** See {@link TapeMemo.timeline}, {@link TapeMemo.buys} and {@link TapeMemo.carriesLiquidity}. */
interface SwapColumns {
  readonly timeline: Float64Array;
  readonly buy: Uint8Array;
  readonly carriesLiquidity: Uint8Array;
}

// A swap's row in {@link TapeMemo.timeline}: its time, then its price's double word.
export const SWAP_ROW = 3;
export const TIME = 0;
export const PRICE_HIGH = 1;
export const PRICE_LOW = 2;

const memoOfTape = new WeakMap<IndexedTape, TapeMemo>();

/** The memo kept with `tape`, made empty on first use. */
export function tapeMemo(tape: IndexedTape): TapeMemo {
  let memo = memoOfTape.get(tape);
  if (memo === undefined) memoOfTape.set(tape, (memo = new TapeMemo(tape)));
  return memo;
}
