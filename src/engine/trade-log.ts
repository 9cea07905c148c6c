import { toJsonNumber, type Decimal } from '../numeric/decimal.js';
import { printedQuotient } from '../numeric/printed-double.js';
import { SimulatedTradeSchema, type TradeType } from '../model/response.js';
import type { ChartSums } from './chart-sums.js';
import type { Deal } from './deal.js';
import type { ExecutionModel, Fill } from './execution.js';
import type { Liquidity } from './liquidity.js';
import type { UnrealizedBook } from './unrealized.js';
import {
  BOT_FEE,
  BUY_PRICE_AVG,
  INVESTED,
  LIQUIDITY,
  NETWORK_FEE,
  PRICE,
  QUANTITY,
  pointAt,
  POINT_ROW_WIDTH,
  recordAt,
  SLIPPAGE,
  TIME,
  TRADE_ROW_WIDTH,
  TYPE,
  USD_AMOUNT,
  type ChartPoint,
  type ChartPoints,
  type TradeRecord,
} from './trade-row.js';

/**
 * Rows of `width` doubles in fixed-size chunks: nothing for the garbage collector to trace, and
 * growing never copies or doubles a large block (a memory peak). {@link next} makes room for a
 * row, which is then written in place: `chunk[at + k]` for its values `k`.
 *
 * The chunks are arrays of doubles, not typed arrays. A typed array's buffer is external memory,
 * and V8 answers every 64 MB of new external memory with a full mark-compact of the whole heap:
 * with a large tape in memory (500 MB for a million swaps), 400 ms every few replays. An array of
 * doubles lives in the heap (as a flat block of doubles, which marking does not scan) and counts
 * against the old generation's limit, which grows with the heap.
 */
export class DoubleRows {
  /** The chunk of the row {@link next} made room for, and where in it the row starts. */
  chunk: number[] = [];
  at = 0;
  private readonly chunks: number[][] = [];
  private count = 0;

  constructor(private readonly width: number) {}

  get length(): number {
    return this.count;
  }

  /** Makes room for one more row (at {@link chunk}, {@link at}) and gives its number. */
  next(): number {
    const slot = this.count & (CHUNK_ROWS - 1);
    if (slot === 0) {
      this.chunk = blankChunk(this.width);
      this.chunks.push(this.chunk);
    }
    this.at = slot * this.width;
    return this.count++;
  }

  /** Value `k` of row `i`. */
  get(i: number, k: number): number {
    return this.chunks[Math.floor(i / CHUNK_ROWS)]![(i & (CHUNK_ROWS - 1)) * this.width + k]!;
  }

  /** Copies row `i` into `into` from `at` on. */
  copyRow(i: number, into: Float64Array, at: number): void {
    const chunk = this.chunkOf(i);
    const from = this.offsetOf(i);
    for (let k = 0; k < this.width; k++) into[at + k] = chunk[from + k]!;
  }

  /** The chunk holding row `i`, whose values start at {@link offsetOf} `i` in it. */
  chunkOf(i: number): readonly number[] {
    return this.chunks[Math.floor(i / CHUNK_ROWS)]!;
  }

  offsetOf(i: number): number {
    return (i & (CHUNK_ROWS - 1)) * this.width;
  }
}

/** Rows a chunk of {@link DoubleRows} holds (a power of two). */
const CHUNK_ROWS = 1 << 12;

/** A blank chunk for each row width, never written: chunks are copies of it. */
const BLANK_CHUNKS: number[][] = [];

/**
 * A new chunk of rows of `width` doubles, holding unboxed doubles from the start (it is filled
 * with a fraction). Copied from a blank one: `slice` of an array of doubles copies one block,
 * where `new Array(n).fill(0.5)` first makes an array of holes as large, then stores element by
 * element while changing the array's kind.
 */
function blankChunk(width: number): number[] {
  const blank = (BLANK_CHUNKS[width] ??= new Array<number>(CHUNK_ROWS * width).fill(0.5));
  return blank.slice();
}

/** The trade types in the response schema's order; a row stores a type as its index here. */
export const TRADE_TYPES: readonly TradeType[] = SimulatedTradeSchema.shape.type.options;

/** How a {@link TradeLog} prints a deal's trades. */
export interface TradeLogSetup {
  /** The bot fee of a trade's amount, or null when bot fees are not included. */
  readonly botFees: Pick<ExecutionModel, 'botFee'> | null;
  /**
   * True when the PnL chart values the open deals after every trade: it makes a deal's
   * `usd_buy_price_avg` and `usd_invested` anyway, so a record prints them from the decimals.
   */
  readonly valuedAfterTrades: boolean;
}

/**
 * Every follower trade of a replay, in execution order, as the doubles the response prints: 88
 * bytes a trade, and the row numbers of each deal's trades. {@link record} prints a trade of a
 * deal; a row may also be written directly: {@link start} it, then write its values in place, at
 * `chunk[at + USD_AMOUNT]` … `chunk[at + BOT_FEE]`.
 */
export class TradeLog {
  private readonly rows = new DoubleRows(TRADE_ROW_WIDTH);
  /** The row numbers of each deal's trades, by deal index. */
  private readonly rowsOfDeal: number[][] = [];
  private readonly botFees: Pick<ExecutionModel, 'botFee'> | null;
  private readonly valuedAfterTrades: boolean;
  /**
   * The last network fee printed and its printed double: a fee stays the same decimal until the
   * native price moves, so it is converted once per change, not once per trade.
   */
  private lastFee: Decimal | null = null;
  private lastPrintedFee = 0;

  constructor({ botFees, valuedAfterTrades }: TradeLogSetup = { botFees: null, valuedAfterTrades: false }) {
    this.botFees = botFees;
    this.valuedAfterTrades = valuedAfterTrades;
  }

  /** The chunk of the trade being written, and where in it its row starts. */
  get chunk(): number[] {
    return this.rows.chunk;
  }

  get at(): number {
    return this.rows.at;
  }

  /** Starts a trade's row with its type and time, and gives its row number. */
  start(type: TradeType, time: number): number {
    const rows = this.rows;
    const n = rows.next();
    const chunk = rows.chunk;
    const at = rows.at;
    // The type's index in TRADE_TYPES, by comparison for the model's own types: cheaper in the
    // replay loop than a lookup; the strategy's exit types are rarer and searched for.
    chunk[at + TYPE] =
      type === 'buy'
        ? 0
        : type === 'sell'
          ? 1
          : type === 'sell_timefix'
            ? 2
            : type === 'sell_timefix_final'
              ? 3
              : TRADE_TYPES.indexOf(type);
    chunk[at + TIME] = time;
    return n;
  }

  /**
   * Prints a trade `deal` has just made (its accounting already moved by it) as the response
   * prints it. `usd_buy_price_avg` and `usd_invested` are printed from the deal's decimals when a
   * sell, a cap or the chart's valuation makes them, else straight from its running sums (see
   * `numeric/printed-double.ts`), so a buy costs no 40-digit division only to be printed.
   */
  record(deal: Deal, type: TradeType, fill: Fill, liquidity: Liquidity | null, networkFee: Decimal): void {
    const n = this.start(type, deal.lastOperationTime);
    (this.rowsOfDeal[deal.index] ??= []).push(n);
    const row = this.rows.chunk;
    const at = this.rows.at;
    row[at + USD_AMOUNT] = toJsonNumber(fill.usdAmount);
    row[at + QUANTITY] = toJsonNumber(fill.quantity);
    row[at + PRICE] = fill.price;
    row[at + LIQUIDITY] = liquidity === null ? NaN : liquidity.printed;
    if (this.valuedAfterTrades && deal.open) {
      row[at + BUY_PRICE_AVG] = toJsonNumber(deal.buyPriceAvg);
      row[at + INVESTED] = toJsonNumber(deal.invested);
    } else printPosition(deal, row, at);
    row[at + SLIPPAGE] = fill.slippage;
    if (networkFee !== this.lastFee) {
      this.lastFee = networkFee;
      this.lastPrintedFee = toJsonNumber(networkFee);
    }
    row[at + NETWORK_FEE] = this.lastPrintedFee;
    const botFees = this.botFees;
    row[at + BOT_FEE] = botFees === null ? 0 : toJsonNumber(botFees.botFee(fill.usdAmount));
  }

  /** The row numbers of the trades of deal `index`, in execution order. */
  rowsOf(index: number): readonly number[] {
    return this.rowsOfDeal[index] ?? NO_ROWS;
  }

  /** The trade in row `i`. */
  get(i: number): TradeRecord {
    const rows = this.rows;
    return recordAt(rows.chunkOf(i), rows.offsetOf(i), TRADE_TYPES);
  }

  /**
   * The rows of the trades of deals `dealIndexes`, deal after deal, in one array of doubles a
   * thread can be given (`io/response-texts.ts`): deal `k`'s rows from `offsets[k]` to
   * `offsets[k + 1]`, {@link TRADE_ROW_WIDTH} doubles each.
   */
  table(dealIndexes: readonly number[]): TradeTable {
    const offsets = new Int32Array(dealIndexes.length + 1);
    let count = 0;
    dealIndexes.forEach((index, k) => {
      count += this.rowsOf(index).length;
      offsets[k + 1] = count;
    });
    const values = new Float64Array(count * TRADE_ROW_WIDTH);
    let at = 0;
    for (const index of dealIndexes) {
      for (const row of this.rowsOf(index)) {
        this.rows.copyRow(row, values, at);
        at += TRADE_ROW_WIDTH;
      }
    }
    return { values, offsets, types: TRADE_TYPES };
  }
}

const NO_ROWS: readonly number[] = [];

/** The trade rows of some deals, for a thread that prints them ({@link TradeLog.table}). */
export interface TradeTable {
  readonly values: Float64Array;
  readonly offsets: Int32Array;
  /** The trade types by code. */
  readonly types: readonly TradeType[];
}

/**
 * A deal's `usd_buy_price_avg` and `usd_invested` into the row at `at`, without making the
 * decimals that no one else needs.
 */
function printPosition(deal: Deal, row: number[], at: number): void {
  const avg = deal.buyPriceAvgIfMade;
  row[at + BUY_PRICE_AVG] =
    avg !== null ? toJsonNumber(avg) : printedQuotient(deal.avgNumerator, deal.avgDenominator, 1);
  row[at + INVESTED] = toJsonNumber(deal.invested);
}

/** The PnL and fee chart's points of a replay: seven doubles a point (time and deal index too). */
export class PointLog implements ChartPoints {
  private readonly rows = new DoubleRows(POINT_ROW_WIDTH);

  get length(): number {
    return this.rows.length;
  }

  /**
   * Adds the point after a trade of `deal`: its time and index, the chart's running sums as
   * `sums` and `unrealized` last read them. Read from those objects rather than passed as seven
   * numbers: the replay's loop calls this once per follower trade.
   */
  add(
    deal: Pick<Deal, 'lastOperationTime' | 'index'>,
    sums: Pick<ChartSums, 'realizedPnl' | 'feeSum' | 'botFeeSum'>,
    unrealized: Pick<UnrealizedBook, 'unrealized' | 'total'>,
  ): void {
    const rows = this.rows;
    rows.next();
    const row = rows.chunk;
    const at = rows.at;
    row[at] = deal.lastOperationTime;
    row[at + 1] = deal.index;
    row[at + 2] = sums.realizedPnl;
    row[at + 3] = unrealized.unrealized;
    row[at + 4] = unrealized.total;
    row[at + 5] = sums.feeSum;
    row[at + 6] = sums.botFeeSum;
  }

  get(i: number): ChartPoint {
    const rows = this.rows;
    return pointAt(rows.chunkOf(i), rows.offsetOf(i));
  }

  /** Every point's row, in order, in one array of doubles a thread can be given. */
  table(): Float64Array {
    const rows = this.rows;
    const values = new Float64Array(rows.length * POINT_ROW_WIDTH);
    for (let i = 0; i < rows.length; i++) rows.copyRow(i, values, i * POINT_ROW_WIDTH);
    return values;
  }
}
