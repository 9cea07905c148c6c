/**
 * Deal state of the reference model (spec 3, 4): the follower's trades and deals, and the
 * quantities derived from them, each recomputed from scratch when asked.
 */
import { ZERO, sum, type D } from './decimal.js';

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

/** The part of a sell taken from one lot (3): its tokens `x` and the cost basis that went with them. */
export interface LotPart {
  leader: number;
  x: D;
  basis: D;
}

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
  /** A sell's parts by lot, in lot order (3); empty for a buy. */
  parts: LotPart[];
  /** Copier-wallet 7: the leader whose swap this trade copied (buy or `sell`), null for exits and time-fixes. */
  copied: number | null;
  /** Copier-wallet 5: the sandwich loss, null when the trade was not sandwiched. */
  sandwich_loss: D | null;
  deal: Deal;
}

/** A lot (3): the tokens bought copying one leader less those sold, and their cost. */
export interface Lot {
  qty: D;
  cost: D;
}

/** A deal (3): the follower's position in one token, with one lot per leader. */
export interface Deal {
  openSeq: number; // the order in which deals opened
  tokenKey: string; // the token as compared (1.1)
  tokenAddress: string; // the token as written in the swap that opened the deal
  lots: Map<number, Lot>; // leader index -> lot, in the order the deal first copied each leader
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
  return sum([...deal.lots.values()].map((lot) => lot.qty));
}

/** 3 (model 1.2): usd_invested = Σ cost_L, in lot order. */
export function dealInvested(deal: Deal): D {
  return sum([...deal.lots.values()].map((lot) => lot.cost));
}

/**
 * 3 (model 1.2): usd_buy_price_avg = usd_invested / qty while qty > 0; a trade that empties the
 * deal keeps the value it had before that trade (its last trade's, as no trade is recorded yet).
 */
export function dealAvg(deal: Deal): D {
  const qty = dealQty(deal);
  if (!qty.isZero()) return dealInvested(deal).dividedBy(qty);
  const last = deal.trades[deal.trades.length - 1];
  if (last === undefined) throw new Error('reference: an empty deal without trades');
  return last.usd_buy_price_avg;
}

/** 4: status closed when qty is 0. */
export function dealIsOpen(deal: Deal): boolean {
  return !dealQty(deal).isZero();
}

/** 3: a sell's cost basis, the sum over the lots it sells from. */
export function sellBasis(trade: Trade): D {
  return sum(trade.parts.map((part) => part.basis));
}

/**
 * 4 (model 1.2): pnl_realized = Σ over sells (usd_amount − the sell's cost basis)
 *    − Σ over all its trades (usd_network_fee + usd_bot_fee), over the trades made so far.
 */
export function dealRealized(deal: Deal): D {
  const sells: D[] = [];
  const fees: D[] = [];
  for (const t of deal.trades) {
    if (t.type !== 'buy') sells.push(t.usd_amount.minus(sellBasis(t)));
    fees.push(t.usd_network_fee.plus(t.usd_bot_fee));
  }
  return sum(sells).minus(sum(fees));
}

/**
 * 3 (model 1.2): selling `x` tokens from a lot removes the cost basis cost_L × x / lot_L (all of
 * cost_L when x = lot_L, so an emptied lot has cost 0 exactly) and x from lot_L. Returns the part.
 */
export function takeFromLot(deal: Deal, leader: number, x: D): LotPart {
  const lot = lotOf(deal, leader);
  if (x.equals(lot.qty)) return emptyLot(deal, leader);
  const basis = lot.cost.times(x).dividedBy(lot.qty);
  deal.lots.set(leader, { qty: lot.qty.minus(x), cost: lot.cost.minus(basis) });
  return { leader, x, basis };
}

/**
 * Strategy-extensions 5 (on model 1.2): an exit sell "takes the same fraction of every lot and of
 * its cost": g × lot_L tokens and g × cost_L of cost; with g = 1 the whole lot and the whole cost.
 */
export function takeFraction(deal: Deal, leader: number, g: D): LotPart {
  const lot = lotOf(deal, leader);
  if (g.equals(1)) return emptyLot(deal, leader);
  const x = g.times(lot.qty);
  const basis = g.times(lot.cost);
  deal.lots.set(leader, { qty: lot.qty.minus(x), cost: lot.cost.minus(basis) });
  return { leader, x, basis };
}

/** Sells a whole lot: its tokens and its cost, both to exactly 0. */
function emptyLot(deal: Deal, leader: number): LotPart {
  const lot = lotOf(deal, leader);
  deal.lots.set(leader, { qty: ZERO, cost: ZERO });
  return { leader, x: lot.qty, basis: lot.cost };
}

function lotOf(deal: Deal, leader: number): Lot {
  const lot = deal.lots.get(leader);
  if (lot === undefined) throw new Error(`reference: the deal has no lot of leader ${leader}`);
  return lot;
}
