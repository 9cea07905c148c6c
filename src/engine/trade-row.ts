import type { TradeType } from '../model/response.js';

/**
 * A follower trade's row in a {@link TradeLog}: its type's code, its time, then its values in
 * {@link TradeRecord} order (an unknown liquidity as NaN). No import but types: a thread that
 * prints the rows (`io/trade-text-thread.ts`) reads them with this module alone.
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
