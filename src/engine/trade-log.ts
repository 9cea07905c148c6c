import { decimal40, type Decimal40 } from '../model/decimal40.js';
import type { TradeType } from '../model/response.js';

/**
 * Exact decimals packed eight int32 to a value (sign, exponent, the six limbs of
 * {@link Decimal40}): 32 bytes each instead of an object of about 90, and nothing for the
 * garbage collector to trace. A response of a million trades keeps thirteen million decimals
 * until it is written; this is what keeps a long streamed tape within its memory budget.
 * A slot may hold null (sign 0).
 */
export class PackedDecimals {
  /** Fixed-size chunks, so growing never copies or doubles a large block (a memory peak). */
  private readonly chunks: Int32Array[] = [];
  private count = 0;

  get length(): number {
    return this.count;
  }

  push(value: Decimal40 | null): void {
    const slot = this.count & (CHUNK_VALUES - 1);
    if (slot === 0) this.chunks.push(new Int32Array(CHUNK_VALUES * 8));
    const d = this.chunks[this.chunks.length - 1]!;
    const at = slot * 8;
    this.count++;
    if (value === null) {
      d[at] = 0;
      return;
    }
    if ((value.e | 0) !== value.e) throw new RangeError(`exponent ${value.e} out of the packed range`);
    d[at] = value.s;
    d[at + 1] = value.e;
    d[at + 2] = value.c0;
    d[at + 3] = value.c1;
    d[at + 4] = value.c2;
    d[at + 5] = value.c3;
    d[at + 6] = value.c4;
    d[at + 7] = value.c5;
  }

  /** The value in slot `i`. */
  get(i: number): Decimal40 | null {
    const d = this.chunks[Math.floor(i / CHUNK_VALUES)]!;
    const at = (i & (CHUNK_VALUES - 1)) * 8;
    const s = d[at]!;
    if (s === 0) return null;
    return decimal40(s, d[at + 1]!, d[at + 2]!, d[at + 3]!, d[at + 4]!, d[at + 5]!, d[at + 6]!, d[at + 7]!);
  }
}

/** Values a chunk of {@link PackedDecimals} holds (a power of two): 512 KiB a chunk. */
const CHUNK_VALUES = 1 << 14;

/** A follower trade as the response prints it (exact decimals; JSON numbers only at the edge). */
export interface TradeRecord {
  readonly type: TradeType;
  readonly time: number;
  readonly usdAmount: Decimal40;
  readonly quantity: Decimal40;
  readonly price: Decimal40;
  readonly liquidity: Decimal40 | null;
  readonly buyPriceAvg: Decimal40;
  readonly invested: Decimal40;
  readonly slippage: Decimal40;
  readonly networkFee: Decimal40;
  readonly botFee: Decimal40;
}

const TRADE_TYPES: readonly TradeType[] = ['buy', 'sell', 'sell_timefix', 'sell_timefix_final'];
/** Decimals a trade keeps, in {@link TradeRecord} order. */
const TRADE_DECIMALS = 9;

/**
 * Every follower trade of a replay, in execution order, packed: a row is a type code, a time and
 * nine decimals. A deal keeps the numbers of its rows. Records are made again one at a time when
 * the response is written.
 */
export class TradeLog {
  private readonly types: number[] = [];
  private readonly times: number[] = [];
  private readonly values = new PackedDecimals();

  /** Appends a trade and gives its row number. */
  add(t: TradeRecord): number {
    this.types.push(TRADE_TYPES.indexOf(t.type));
    this.times.push(t.time);
    const v = this.values;
    v.push(t.usdAmount);
    v.push(t.quantity);
    v.push(t.price);
    v.push(t.liquidity);
    v.push(t.buyPriceAvg);
    v.push(t.invested);
    v.push(t.slippage);
    v.push(t.networkFee);
    v.push(t.botFee);
    return this.times.length - 1;
  }

  /** The trade in row `row`. */
  get(row: number): TradeRecord {
    const v = this.values;
    const at = row * TRADE_DECIMALS;
    return {
      type: TRADE_TYPES[this.types[row]!]!,
      time: this.times[row]!,
      usdAmount: v.get(at)!,
      quantity: v.get(at + 1)!,
      price: v.get(at + 2)!,
      liquidity: v.get(at + 3),
      buyPriceAvg: v.get(at + 4)!,
      invested: v.get(at + 5)!,
      slippage: v.get(at + 6)!,
      networkFee: v.get(at + 7)!,
      botFee: v.get(at + 8)!,
    };
  }
}

/**
 * The running totals after one follower trade: one point of the PnL and fee chart, as the
 * doubles the response prints (see `RunningSum` and `UnrealizedBook`).
 */
export interface ChartPoint {
  readonly time: number;
  readonly dealIndex: number;
  readonly realized: number;
  readonly unrealized: number;
  readonly total: number;
  readonly feeSum: number;
  readonly botFeeSum: number;
}

/** The PnL and fee chart's points of a replay: five doubles a point, in arrays of doubles. */
export class PointLog {
  private readonly times: number[] = [];
  private readonly dealIndexes: number[] = [];
  private readonly realized: number[] = [];
  private readonly unrealized: number[] = [];
  private readonly total: number[] = [];
  private readonly feeSum: number[] = [];
  private readonly botFeeSum: number[] = [];

  get length(): number {
    return this.times.length;
  }

  add(p: ChartPoint): void {
    this.times.push(p.time);
    this.dealIndexes.push(p.dealIndex);
    this.realized.push(p.realized);
    this.unrealized.push(p.unrealized);
    this.total.push(p.total);
    this.feeSum.push(p.feeSum);
    this.botFeeSum.push(p.botFeeSum);
  }

  get(i: number): ChartPoint {
    return {
      time: this.times[i]!,
      dealIndex: this.dealIndexes[i]!,
      realized: this.realized[i]!,
      unrealized: this.unrealized[i]!,
      total: this.total[i]!,
      feeSum: this.feeSum[i]!,
      botFeeSum: this.botFeeSum[i]!,
    };
  }
}
