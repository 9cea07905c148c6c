import type { SimulatedTrade } from '../model/response.js';
import type { TradeRecord } from '../engine/trade-row.js';

/**
 * A trade as the response's JSON: every member, in the order of the interface. No import but
 * types, as the thread that prints a response's trades (`io/response-text-thread.ts`) loads it.
 */
export function tradeJson(t: TradeRecord): SimulatedTrade {
  return {
    type: t.type,
    time: t.time,
    usd_amount: t.usdAmount,
    quantity: t.quantity,
    usd_price: t.price,
    usd_liquidity: t.liquidity,
    usd_buy_price_avg: t.buyPriceAvg,
    usd_invested: t.invested,
    slippage: t.slippage,
    usd_network_fee: t.networkFee,
    usd_bot_fee: t.botFee,
  };
}

/** A trade of a response's JSON as its record (the inverse of {@link tradeJson}; a missing amount or price as NaN). */
export function tradeRecordOf(t: SimulatedTrade): TradeRecord {
  return {
    type: t.type,
    time: t.time,
    usdAmount: t.usd_amount ?? Number.NaN,
    quantity: t.quantity,
    price: t.usd_price ?? Number.NaN,
    liquidity: t.usd_liquidity ?? null,
    buyPriceAvg: t.usd_buy_price_avg,
    invested: t.usd_invested,
    slippage: t.slippage,
    networkFee: t.usd_network_fee,
    botFee: t.usd_bot_fee,
  };
}
