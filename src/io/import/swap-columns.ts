import type { DecimalJs40 as Decimal } from '../../numeric/decimal.js';
import type { TapeInput } from '../../model/tape.js';
import { grown } from '../../typed-arrays.js';
import { exactQuotient, type DigitsDecimal } from './export-decimal.js';
import type { ImportRows } from './outliers.js';
import type { RowPlace } from './report.js';
import {
  compareSeqRanges,
  exactDecimal,
  numberOf,
  tapeSwapOf,
  whyNotTapeReady,
  type SwapDecimal,
} from './tape-builder.js';

/** What a collected swap holds besides its numbers (see {@link SwapColumns}). */
export class SwapRecord {
  constructor(
    readonly wallet: string,
    readonly token: string,
    readonly quantity: SwapDecimal,
    /** A quotient's price as its tape text (the {@link QUOTIENT} flag), else the price itself. */
    readonly usdPrice: SwapDecimal,
    readonly usdAmount: SwapDecimal,
    readonly hash: string | null,
    readonly where: RowPlace,
  ) {}
}

const BUY = 1;
const FITS = 2;
const QUOTIENT = 4;

/**
 * The swaps of a collector: a small record each, its numbers in typed arrays (swap i is the i-th
 * of each). An import keeps its swaps until the tape is made, and an object with every field, an
 * order array and a price object a swap were most of what the young-generation collections
 * copied; numbers in typed arrays cost the collector nothing. The tape's objects are made last,
 * in the tape's order.
 */
export class SwapColumns implements ImportRows {
  count = 0;
  private readonly records: SwapRecord[] = [];
  private time = new Float64Array(1024);
  /**
   * {@link BUY}, {@link FITS} (known to fit the tape), {@link QUOTIENT} (the price is usdAmount / quantity, held as its
   * tape text).
   */
  private flags = new Uint8Array(1024);
  /** Each swap's order within its second: seq[seqStart[i], seqStart[i + 1]). */
  private seq = new Float64Array(4096);
  private seqStart = new Int32Array(1025);

  add(
    record: SwapRecord,
    type: 'buy' | 'sell',
    time: number,
    seq: readonly number[],
    fits: boolean,
    isQuotient: boolean,
  ): void {
    const i = this.count++;
    if (i === this.time.length) {
      this.time = grown(this.time, i);
      this.flags = grown(this.flags, i);
      this.seqStart = grown(this.seqStart, i + 1);
    }
    this.records.push(record);
    this.time[i] = time;
    this.flags[i] = (type === 'buy' ? BUY : 0) | (fits ? FITS : 0) | (isQuotient ? QUOTIENT : 0);
    let at = this.seqStart[i]!;
    if (at + seq.length > this.seq.length) this.seq = grown(this.seq, at + seq.length - 1);
    for (const s of seq) this.seq[at++] = s;
    this.seqStart[i + 1] = at;
  }

  timeOf(i: number): number {
    return this.time[i]!;
  }

  misfit(i: number): string | null {
    const r = this.records[i]!;
    return this.flags[i]! & FITS
      ? null
      : whyNotTapeReady(r.quantity, r.usdPrice, r.usdAmount, null, this.time[i]!, () => this.exactPrice(i));
  }

  token(i: number): string {
    return this.records[i]!.token;
  }

  priceNumber(i: number): number {
    return numberOf(this.records[i]!.usdPrice);
  }

  /** A swap's exact price: a quotient divided again. */
  exactPrice(i: number): Decimal {
    const r = this.records[i]!;
    return this.flags[i]! & QUOTIENT
      ? exactQuotient(r.usdAmount as string | DigitsDecimal, r.quantity as string | DigitsDecimal)
      : exactDecimal(r.usdPrice);
  }

  where(i: number): RowPlace {
    return this.records[i]!.where;
  }

  /** The swaps `kept` as the tape writes them: by time, then by their order within the second, then file order. */
  tapeSwaps(kept: readonly number[]): TapeInput['swaps'] {
    const time = this.time;
    const byTape = (a: number, b: number): number => time[a]! - time[b]! || this.compareSeq(a, b) || a - b;
    // Exports usually come in the tape's order already: one look at each neighbour then spares
    // the sort, which compares n log n times even when nothing moves.
    const order = Int32Array.from(kept);
    if (!inOrder(order, byTape)) order.sort(byTape);
    return Array.from(order, (i) => {
      const r = this.records[i]!;
      return tapeSwapOf(
        r.wallet,
        r.token,
        this.flags[i]! & BUY ? 'buy' : 'sell',
        time[i]!,
        r.quantity,
        r.usdPrice,
        r.usdAmount,
        null,
        r.hash,
      );
    });
  }

  private compareSeq(a: number, b: number): number {
    const starts = this.seqStart;
    return compareSeqRanges(this.seq, starts[a]!, starts[a + 1]!, this.seq, starts[b]!, starts[b + 1]!);
  }
}

/** True when `items` is already sorted by `compare`. */
function inOrder(items: Int32Array, compare: (a: number, b: number) => number): boolean {
  for (let k = 1; k < items.length; k++) if (compare(items[k - 1]!, items[k]!) > 0) return false;
  return true;
}
