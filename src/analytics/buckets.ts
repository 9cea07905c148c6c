import { Decimal } from '../numeric/decimal.js';
import type { IndexedTape } from '../engine/tape-index.js';
import type { Swap } from '../model/tape.js';

/** The grouping of {@link SwapBuckets} as its arrays. */
export interface SwapLayout {
  readonly walletStart: Uint32Array;
  readonly walletPos: Uint32Array;
  readonly tokenStart: Uint32Array;
  readonly tokenPos: Uint32Array;
}

/**
 * The swaps of a tape up to "now", grouped by wallet and by token in one pass. Positions are
 * event positions (index into `tape.order`); each group lists them ascending, so a group is
 * the wallet's (or token's) swaps in event order. Swaps after "now" are left out entirely.
 */
export class SwapBuckets {
  /** Number of event positions with `time ≤ now`: the positions kept are `0 … end - 1`. */
  readonly end: number;
  private readonly walletStart: Uint32Array;
  private readonly walletPos: Uint32Array;
  private readonly tokenStart: Uint32Array;
  private readonly tokenPos: Uint32Array;
  /** `usd_price` of each entry of `tokenPos` as a float64, to compare prices quickly. */
  private readonly tokenPrice: Float64Array;
  /** Each token's {@link priceBefore} the end, made when first asked for (undefined: not yet). */
  private pricesAtEnd: (Decimal | null | undefined)[] | null = null;

  constructor(
    readonly tape: IndexedTape,
    now: number,
  ) {
    const { order, walletOf, tokenOf, swaps } = tape;
    this.end = prefixEnd(tape, now);
    const wallets = groupPositions(this.end, tape.walletIds.size, (k) => walletOf[order[k]!]!);
    const tokens = groupPositions(this.end, tape.tokens.length, (k) => tokenOf[order[k]!]!);
    this.walletStart = wallets.start;
    this.walletPos = wallets.positions;
    this.tokenStart = tokens.start;
    this.tokenPos = tokens.positions;
    // The prices by token slot, read in event order: the swaps one after the other.
    this.tokenPrice = new Float64Array(this.end);
    const fill = this.tokenStart.slice(0, tape.tokens.length);
    for (let k = 0; k < this.end; k++) {
      const i = order[k]!;
      this.tokenPrice[fill[tokenOf[i]!]!++] = Number(swaps[i]!.usd_price);
    }
  }

  /**
   * Where each wallet's and token's positions lie: `walletPos[walletStart[w] … walletStart[w+1]]`
   * are wallet `w`'s, and the same for tokens. Over shared memory: another thread reads the same
   * arrays (a rank's helpers, `rank/word-rows.ts`).
   */
  get layout(): SwapLayout {
    return {
      walletStart: this.walletStart,
      walletPos: this.walletPos,
      tokenStart: this.tokenStart,
      tokenPos: this.tokenPos,
    };
  }

  /** Event positions of wallet `w`'s swaps (ascending). */
  walletPositions(w: number): Uint32Array {
    return this.walletPos.subarray(this.walletStart[w]!, this.walletStart[w + 1]!);
  }

  /**
   * Token `t`'s price at its last swap before event position `end` (null: none). At the buckets'
   * own {@link end} it is made once per token: a rank values every wallet's deals still open
   * then, thousands at a few tokens' prices.
   */
  priceBefore(t: number, end: number): Decimal | null {
    if (end !== this.end) return this.tokenSeries(t).priceBefore(end);
    const known = (this.pricesAtEnd ??= new Array<Decimal | null | undefined>(this.tape.tokens.length).fill(undefined));
    let price = known[t];
    if (price === undefined) known[t] = price = this.tokenSeries(t).priceBefore(end);
    return price;
  }

  /** Event positions of token `t`'s swaps (ascending), with their prices as float64. */
  tokenSeries(t: number): TokenSeries {
    const from = this.tokenStart[t]!;
    const to = this.tokenStart[t + 1]!;
    return new TokenSeries(this.tape, this.tokenPos.subarray(from, to), this.tokenPrice.subarray(from, to));
  }

  /** The swap at event position `k`. */
  swapAt(k: number): Swap {
    return this.tape.swaps[this.tape.order[k]!]!;
  }

  /** Number of event positions with `time ≤ t`, never more than `end`. */
  endAt(t: number): number {
    return Math.min(this.end, prefixEnd(this.tape, t));
  }
}

/** The swaps of one token: event positions ascending and their prices. */
export class TokenSeries {
  constructor(
    private readonly tape: IndexedTape,
    readonly positions: Uint32Array,
    private readonly prices: Float64Array,
  ) {}

  /** Index in `positions` of the first position ≥ `k`. */
  firstAtOrAfter(k: number): number {
    let lo = 0;
    let hi = this.positions.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.positions[mid]! < k) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Exact price of the j-th swap of the series. */
  price(j: number): Decimal {
    return new Decimal(this.tape.swaps[this.tape.order[this.positions[j]!]!]!.usd_price);
  }

  /** Known price before event position `end` (the last swap of the token before it), or null. */
  priceBefore(end: number): Decimal | null {
    const j = this.firstAtOrAfter(end) - 1;
    return j < 0 ? null : this.price(j);
  }

  /**
   * Lowest and highest price over the swaps at event positions `from … to - 1`, exactly: the
   * float64 prices order them (rounding to float64 keeps order), exact decimals break float ties.
   */
  priceRange(from: number, to: number): { low: Decimal; high: Decimal } | null {
    let j = this.firstAtOrAfter(from);
    if (j >= this.positions.length || this.positions[j]! >= to) return null;
    let low = j;
    let high = j;
    for (j++; j < this.positions.length && this.positions[j]! < to; j++) {
      const p = this.prices[j]!;
      if (p < this.prices[low]! || (p === this.prices[low]! && this.price(j).lt(this.price(low)))) low = j;
      if (p > this.prices[high]! || (p === this.prices[high]! && this.price(j).gt(this.price(high)))) high = j;
    }
    return { low: this.price(low), high: this.price(high) };
  }
}

/** Number of event positions whose swap has `time ≤ t` (binary search over the event order). */
export function prefixEnd(tape: IndexedTape, t: number): number {
  const { order, swaps } = tape;
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (swaps[order[mid]!]!.time <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Event positions `0 … end - 1` grouped by `groupOf(k)` (one of `groups`), each group's ascending:
 * group `g`'s are `positions[start[g] … start[g + 1]]`. Over shared memory.
 */
export function groupPositions(
  end: number,
  groups: number,
  groupOf: (k: number) => number,
): { readonly start: Uint32Array; readonly positions: Uint32Array } {
  const start = groupStarts(end, groups, groupOf);
  const positions = sharedUint32(end);
  const fill = start.slice(0, groups);
  for (let k = 0; k < end; k++) positions[fill[groupOf(k)]!++] = k;
  return { start, positions };
}

/** Where each group's positions start in {@link groupPositions}'s list (its `start`), over shared memory. */
export function groupStarts(end: number, groups: number, groupOf: (k: number) => number): Uint32Array {
  const start = sharedUint32(groups + 1);
  for (let k = 0; k < end; k++) start[groupOf(k) + 1]!++;
  for (let g = 0; g < groups; g++) start[g + 1]! += start[g]!;
  return start;
}

/** A `Uint32Array` over a `SharedArrayBuffer`, so that the grouping can be posted to a thread without a copy. */
function sharedUint32(length: number): Uint32Array {
  return new Uint32Array(new SharedArrayBuffer(Uint32Array.BYTES_PER_ELEMENT * length));
}
