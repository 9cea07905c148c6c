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
