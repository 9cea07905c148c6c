/**
 * Deal state of the reference model (spec 3, 4): the follower's trades and deals, and the
 * quantities derived from them, each recomputed from scratch when asked.
 */
import { D, sum } from './decimal.js';

/** I-2.8, and strategy-extensions 7: the exit sells' types. */
export type TradeType =
  | 'buy'
  | 'sell'
  | 'sell_timefix'
  | 'sell_timefix_final'
  | 'sell_take_profit'
  | 'sell_stop_loss'
  | 'sell_trailing_stop'
  | 'sell_max_hold';
/** I-2.7, and strategy-extensions 7: a deal closed by an exit. */
export type SpecialTag =
  | 'sell_timefix_final'
  | 'sell_timefix'
  | 'close_all'
  | 'take_profit'
  | 'stop_loss'
  | 'trailing_stop'
  | 'max_hold'
  | null;

/** A follower trade (3.3, I-2.8) plus what the results need (its slippage loss, its deal). */
export interface Trade {
  type: TradeType;
  time: number;
  usd_amount: D;
  quantity: D;
  usd_price: D; // execution price
  usd_liquidity: D | null; // L
  usd_buy_price_avg: D; // of the deal after this trade
  usd_invested: D; // of the deal after this trade
  slippage: D;
  usd_network_fee: D;
  usd_bot_fee: D;
  slippage_loss: D; // 3.3
  deal: Deal;
}

/** A deal (3): the follower's position in one token, with one lot per leader. */
export interface Deal {
  openSeq: number; // the order in which deals opened
  tokenKey: string; // the token as compared (1.1)
  tokenAddress: string; // the token as written in the swap that opened the deal
  lots: Map<number, D>; // leader index -> lot, in the order the deal first copied each leader
  bought_usd: D;
  bought_qty: D;
  buys: number;
  trades: Trade[];
  special_tag: SpecialTag;
  /** Strategy-extensions 5.1: indexes of the take-profit levels that fired in this deal. */
  firedLevels: Set<number>;
  /** Strategy-extensions 5.3: the reference price of the deal's first buy (the peak's start). */
  firstReferencePrice: D;
  /** Strategy-extensions 5.3: how many swaps had been recorded (1.1 step 2) when the deal opened. */
  recordedAtOpen: number;
}

/** One point of cumulative_pnl_and_fee_chart (6), still exact. */
export interface ChartPoint {
  pnl_realized: D;
  pnl_unrealized: D;
  pnl_total: D;
  fee_sum: D;
  bot_fee: D;
  deal: Deal;
  timestamp: number;
}

// ---- deal state (3) --------------------------------------------------------------------

/**
 * 3: qty = tokens held = sum of lots. The spec does not say in which order; at 40 digits the
 * order can move the last digit once three leaders hold lots. The project's reading
 * (docs/model.md §14 (g)): in the order the deal first copied each leader, as a map keyed by
 * leader holds them.
 */
export function dealQty(deal: Deal): D {
  return sum([...deal.lots.values()]);
}

/** 3: usd_buy_price_avg = bought_usd / bought_qty. */
export function dealAvg(deal: Deal): D {
  return deal.bought_usd.dividedBy(deal.bought_qty);
}

/** 3: usd_invested = qty × usd_buy_price_avg. */
export function dealInvested(deal: Deal): D {
  return dealQty(deal).times(dealAvg(deal));
}

/** 4: status closed when qty is 0. */
export function dealIsOpen(deal: Deal): boolean {
  return !dealQty(deal).isZero();
}

/**
 * 4: pnl_realized = Σ over sells (usd_amount − quantity × usd_buy_price_avg at that sell)
 *    − Σ over all its trades (usd_network_fee + usd_bot_fee), over the trades made so far.
 */
export function dealRealized(deal: Deal): D {
  const sells: D[] = [];
  const fees: D[] = [];
  for (const t of deal.trades) {
    if (t.type !== 'buy') sells.push(t.usd_amount.minus(t.quantity.times(t.usd_buy_price_avg)));
    fees.push(t.usd_network_fee.plus(t.usd_bot_fee));
  }
  return sum(sells).minus(sum(fees));
}
