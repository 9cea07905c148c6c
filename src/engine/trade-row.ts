import type { TradeType } from '../model/response.js';

/**
 * The rows of a replay's logs (`trade-log.ts`). No import but types: the thread that prints a
 * response's trades and chart (`io/response-text-thread.ts`) reads the rows with this module.
 *
 * A follower trade's row in a `TradeLog`: its type's code, its time, then its values in
 * {@link TradeRecord} order (an unknown liquidity as NaN).
 */
export const TYPE = 0;
export const TIME = 1;
export const USD_AMOUNT = 2;
export const QUANTITY = 3;
export const PRICE = 4;
export const LIQUIDITY = 5;
export const BUY_PRICE_AVG = 6;
export const INVESTED = 7;
export const SLIPPAGE = 8;
export const NETWORK_FEE = 9;
export const BOT_FEE = 10;
/** Doubles a row holds. */
export const TRADE_ROW_WIDTH = BOT_FEE + 1;

/**
 * A follower trade as the response prints it: every value the double the response prints (the
 * nearest to the model's 40-digit result), `liquidity` null when unknown.
 */
export interface TradeRecord {
  readonly type: TradeType;
  readonly time: number;
  readonly usdAmount: number;
  readonly quantity: number;
  readonly price: number;
  readonly liquidity: number | null;
  readonly buyPriceAvg: number;
  readonly invested: number;
  readonly slippage: number;
  readonly networkFee: number;
  readonly botFee: number;
}

/** The trade whose row starts at `values[at]`; `types` names the type codes (the schema's order). */
export function recordAt(values: ArrayLike<number>, at: number, types: readonly TradeType[]): TradeRecord {
  const liquidity = values[at + LIQUIDITY]!;
  return {
    type: types[values[at + TYPE]!]!,
    time: values[at + TIME]!,
    usdAmount: values[at + USD_AMOUNT]!,
    quantity: values[at + QUANTITY]!,
    price: values[at + PRICE]!,
    liquidity: liquidity === liquidity ? liquidity : null,
    buyPriceAvg: values[at + BUY_PRICE_AVG]!,
    invested: values[at + INVESTED]!,
    slippage: values[at + SLIPPAGE]!,
    networkFee: values[at + NETWORK_FEE]!,
    botFee: values[at + BOT_FEE]!,
  };
}

/** Writes trade `r` as its row at `values[at]`, its type as its place in `types` (the inverse of {@link recordAt}). */
export function writeRecordAt(
  values: { [i: number]: number },
  at: number,
  r: TradeRecord,
  types: readonly TradeType[],
): void {
  values[at + TYPE] = types.indexOf(r.type);
  values[at + TIME] = r.time;
  values[at + USD_AMOUNT] = r.usdAmount;
  values[at + QUANTITY] = r.quantity;
  values[at + PRICE] = r.price;
  values[at + LIQUIDITY] = r.liquidity ?? Number.NaN;
  values[at + BUY_PRICE_AVG] = r.buyPriceAvg;
  values[at + INVESTED] = r.invested;
  values[at + SLIPPAGE] = r.slippage;
  values[at + NETWORK_FEE] = r.networkFee;
  values[at + BOT_FEE] = r.botFee;
}

/**
 * The running totals after one follower trade: one point of the PnL and fee chart, as the
 * doubles the response prints (see `ChartSums` and `UnrealizedBook`).
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

/** Doubles a chart point's row in a `PointLog` holds: its members in {@link ChartPoint} order. */
export const POINT_ROW_WIDTH = 7;

/** The chart point whose row starts at `values[at]`. */
export function pointAt(values: ArrayLike<number>, at: number): ChartPoint {
  return {
    time: values[at]!,
    dealIndex: values[at + 1]!,
    realized: values[at + 2]!,
    unrealized: values[at + 3]!,
    total: values[at + 4]!,
    feeSum: values[at + 5]!,
    botFeeSum: values[at + 6]!,
  };
}

/** Chart points by number: a `PointLog`, or its rows given to another thread. */
export interface ChartPoints {
  readonly length: number;
  get(i: number): ChartPoint;
}
