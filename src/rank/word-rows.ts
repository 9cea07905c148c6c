/**
 * The swaps of a rank's window as rows of doubles and double words, made once for every wallet a
 * copy in double words reads (word-copy.ts, word-own.ts): one pass in event order reads each
 * swap's decimals once, and the copies then read rows, not the swap objects and their texts from
 * all over the heap (four times the time, in wallet order). By token, its swaps' positions,
 * times and prices side by side, for the searches for a known price.
 */
import { groupPositions, groupStarts, type SwapBuckets, type SwapLayout } from '../analytics/buckets.js';
import type { IndexedTape } from '../engine/tape-index.js';
import type { Swap } from '../model/tape.js';
import { type Bounded, converted } from '../numeric/bounded.js';
import { rawToWord } from '../numeric/double-word.js';
import type { RowsTape } from './tape-rows.js';

// A swap's row: its time, token id, side (1: buy), quantity, price and USD amount as double words
// (the amount's head NaN: none), its token's known liquidity once it is recorded as a double word
// (head NaN: none yet) and its place among the token's swaps.
export const TIME = 0;
export const TOKEN = 1;
export const BUY = 2;
export const QUANTITY = 3;
export const PRICE = 5;
export const USD = 7;
export const LIQUIDITY = 9;
/** Its place among its token's swaps. */
export const SLOT = 11;
export const ROW = 12;
/** No next swap: above every event position. */
export const NO_SWAP = 0x7fffffff;

/**
 * The swaps before the window's end as rows, by event position. The known liquidity is what a
 * copy of the swap trades against: its own, or the last one known.
 */
function swapRows(tape: IndexedTape, buckets: SwapBuckets): Float64Array {
  const rows = new Float64Array(new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT * buckets.end * ROW));
  const word = new Float64Array(2);
  for (let k = 0; k < buckets.end; k++) {
    writeSwapRow(rows, k * ROW, buckets.swapAt(k), tape.tokenOf[tape.order[k]!]!, word);
  }
  knownLiquidityAndSlots(rows, buckets.end, tape.tokens.length);
  return rows;
}

/**
 * Writes the row of `swap`, whose token is numbered `token`, at `at`: its liquidity its own
 * (head NaN: none), its slot not set ({@link knownLiquidityAndSlots} sets both). `word` is
 * scratch space for the double words.
 */
export function writeSwapRow(rows: Float64Array, at: number, swap: Swap, token: number, word: Float64Array): void {
  rows[at + TIME] = swap.time;
  rows[at + TOKEN] = token;
  rows[at + BUY] = swap.type === 'buy' ? 1 : 0;
  rawToWord(word, swap.quantity);
  rows[at + QUANTITY] = word[0]!;
  rows[at + QUANTITY + 1] = word[1]!;
  rawToWord(word, swap.usd_price);
  rows[at + PRICE] = word[0]!;
  rows[at + PRICE + 1] = word[1]!;
  if (swap.usd_amount === undefined) {
    rows[at + USD] = Number.NaN;
  } else {
    rawToWord(word, swap.usd_amount);
    rows[at + USD] = word[0]!;
    rows[at + USD + 1] = word[1]!;
  }
  if (swap.usd_liquidity == null) {
    rows[at + LIQUIDITY] = Number.NaN;
  } else {
    rawToWord(word, swap.usd_liquidity);
    rows[at + LIQUIDITY] = word[0]!;
    rows[at + LIQUIDITY + 1] = word[1]!;
  }
}

/**
 * Sets each of the first `count` rows' known liquidity, its own or its token's last one before
 * it (head NaN: none yet), and its slot, its place among its token's swaps: one pass in event order.
 */
export function knownLiquidityAndSlots(rows: Float64Array, count: number, tokens: number): void {
  const known = new Float64Array(2 * tokens).fill(Number.NaN);
  const slots = new Float64Array(tokens);
  for (let k = 0; k < count; k++) {
    const at = ROW * k;
    const token = rows[at + TOKEN]!;
    if (Number.isNaN(rows[at + LIQUIDITY]!)) {
      rows[at + LIQUIDITY] = known[2 * token]!;
      rows[at + LIQUIDITY + 1] = known[2 * token + 1]!;
    } else {
      known[2 * token] = rows[at + LIQUIDITY]!;
      known[2 * token + 1] = rows[at + LIQUIDITY + 1]!;
    }
    rows[at + SLOT] = slots[token]!++;
  }
}

/**
 * A token's swaps before the window's end, in event order, four numbers a swap side by side
 * (a search and the price it finds read one or two cache lines): its event position, its time
 * and its price as a double word, at {@link AT_POSITION}, {@link AT_TIME} and {@link AT_PRICE}
 * of each {@link SERIES_STRIDE}.
 */
export type TokenSeries = Float64Array;
export const AT_POSITION = 0;
export const AT_TIME = 1;
export const AT_PRICE = 2;
export const SERIES_STRIDE = 4;

/** The swaps' grouping the rows keep: each wallet's positions, and where each token's series starts. */
export type RowsLayout = Pick<SwapLayout, 'walletStart' | 'walletPos' | 'tokenStart'>;

/**
 * What {@link SwapRows} are made of, over `SharedArrayBuffer`s: the rows, the swaps' grouping by
 * wallet and by token, and every token's series one after the other (token `t`'s from
 * `layout.tokenStart[t]`), for a thread that has not read the tape (helpers.ts).
 */
export interface SharedSwapRows {
  readonly end: number;
  readonly rows: Float64Array;
  readonly layout: RowsLayout;
  readonly series: Float64Array;
}

/**
 * Every token's series, one after the other in token order, made in one pass over the rows in
 * event order: a swap's place among its token's swaps is its row's slot. Made once and shared,
 * so that the threads that copy read one copy of it.
 */
function tokenSeries(rows: Float64Array, end: number, layout: RowsLayout): Float64Array {
  const series = new Float64Array(new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT * SERIES_STRIDE * end));
  const { tokenStart } = layout;
  for (let k = 0; k < end; k++) {
    const at = ROW * k;
    const to = SERIES_STRIDE * (tokenStart[rows[at + TOKEN]!]! + rows[at + SLOT]!);
    series[to + AT_POSITION] = k;
    series[to + AT_TIME] = rows[at + TIME]!;
    series[to + AT_PRICE] = rows[at + PRICE]!;
    series[to + AT_PRICE + 1] = rows[at + PRICE + 1]!;
  }
  return series;
}

/** The rows of the swaps before the window's end, each wallet's positions, and each token's series. */
export class SwapRows {
  readonly end: number;
  readonly rows: Float64Array;
  private readonly layout: RowsLayout;
  private readonly allSeries: Float64Array;
  /** By token, its part of {@link allSeries}, made when first asked for. */
  private readonly series: (TokenSeries | undefined)[] = [];

  /** Rows made on this thread or another. */
  constructor(from: SharedSwapRows) {
    this.end = from.end;
    this.rows = from.rows;
    this.layout = from.layout;
    this.allSeries = from.series;
  }

  /** The rows of an indexed tape's swaps before `buckets.end`. */
  static ofIndexed(tape: IndexedTape, buckets: SwapBuckets): SwapRows {
    const rows = swapRows(tape, buckets);
    const layout = buckets.layout;
    return new SwapRows({ end: buckets.end, rows, layout, series: tokenSeries(rows, buckets.end, layout) });
  }

  /** The rows of a tape read as rows (tape-rows.ts), its swaps before event position `end`. */
  static ofRowsTape(tape: RowsTape, end: number): SwapRows {
    const wallets = groupPositions(end, tape.walletIds.size, (k) => tape.walletOf[k]!);
    // A token's swaps are read from its series, which its start places: no list of positions.
    const tokenStart = groupStarts(end, tape.tokenCount, (k) => tape.rows[ROW * k + TOKEN]!);
    const layout = { walletStart: wallets.start, walletPos: wallets.positions, tokenStart };
    return new SwapRows({ end, rows: tape.rows, layout, series: tokenSeries(tape.rows, end, layout) });
  }

  /** What another thread makes the same rows of: arrays over shared memory, not copied. */
  get shared(): SharedSwapRows {
    return { end: this.end, rows: this.rows, layout: this.layout, series: this.allSeries };
  }

  /** Event positions of wallet `w`'s swaps (ascending). */
  walletPositions(w: number): Uint32Array {
    const { walletStart, walletPos } = this.layout;
    return walletPos.subarray(walletStart[w]!, walletStart[w + 1]!);
  }

  /** The double word at `at` of the rows. */
  word(at: number): Bounded {
    return converted(this.rows[at]!, this.rows[at + 1]!);
  }

  /** The token's swaps before the window's end. */
  seriesOf(token: number): TokenSeries {
    let series = this.series[token];
    if (series === undefined) {
      const { tokenStart } = this.layout;
      const from = SERIES_STRIDE * tokenStart[token]!;
      this.series[token] = series = this.allSeries.subarray(from, SERIES_STRIDE * tokenStart[token + 1]!);
    }
    return series;
  }

  /**
   * The event position of the token's last swap before `time` (Infinity: its last before the
   * window's end), whose price and liquidity are known at that moment; −1 when there is none.
   */
  lastSwapBefore(token: number, time: number, from = 0): number {
    const series = this.seriesOf(token);
    const count = series.length / SERIES_STRIDE;
    // The swaps before `time` are those before the first place at or after it: a search that
    // gallops from `from` (a place before `time`), as a time-fix falls soon after its deal's last copy.
    let lo = from;
    let step = 1;
    while (lo + step < count && series[SERIES_STRIDE * (lo + step) + AT_TIME]! < time) {
      lo += step;
      step *= 2;
    }
    let hi = Math.min(lo + step, count);
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (series[SERIES_STRIDE * mid + AT_TIME]! < time) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? -1 : series[SERIES_STRIDE * (lo - 1) + AT_POSITION]!;
  }
}
