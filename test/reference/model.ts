/**
 * A slow, literal reference implementation of the copy-trade simulation model (the spec,
 * ../shared/spec/simulation-model.md beside the project). It exists only to be compared with
 * the engine; it follows the spec step by step, recomputes everything from scratch, and shares
 * no code with src/. Model 2.0's strategy extensions (../shared/spec/strategy-extensions.md) are
 * woven into the same replay; comments cite them as "S-x" (S-5 = that text's section 5).
 * Section numbers in comments are those of the spec ("I-2.8" = the interface
 * document's section 2.8).
 */
import { D, HUNDRED, ONE, SPEC_ARITHMETIC, TWO, ZERO, sum, useArithmetic, type Arithmetic } from './decimal.js';
import { ReferenceInputError, ReferenceRequestError } from './errors.js';
import { validateRequest } from './validate.js';
import {
  dealAvg,
  dealInvested,
  dealIsOpen,
  dealQty,
  dealRealized,
  type ChartPoint,
  type Deal,
  type SpecialTag,
  type Trade,
  type TradeType,
} from './deal.js';
import {
  addressKey,
  readOptions,
  readRequest,
  readTape,
  type Network,
  type Options,
  type Request,
  type Swap,
  type Tape,
} from './inputs.js';
import { buildResponse, type SkippedCopy, type SkipReason } from './report.js';

export { ReferenceInputError, ReferenceRequestError } from './errors.js';

/**
 * S-2: a pending copy, scheduled at step 3 when copy_delay_seconds > 0. It remembers the leader,
 * the leader's swap (its token as spelled, type, usd_amount, and for a sell its quantity `q`),
 * the leader's holdings `h` just before the swap, and its due time `t + d`.
 */
interface PendingCopy {
  seq: number; // the order in which copies were scheduled (S-6 ties)
  leader: number;
  swap: Swap;
  h: D;
  due: number;
}

/** S-6: one scheduled action that is due, with what orders it. */
type Scheduled =
  | { kind: 'timefix'; due: number; deal: Deal }
  | { kind: 'maxhold'; due: number; deal: Deal }
  | { kind: 'pending'; due: number; copy: PendingCopy };

/** S-6: at equal due times, time-fixes, then max-hold exits, then pending copies. */
const KIND_RANK: Record<Scheduled['kind'], number> = { timefix: 0, maxhold: 1, pending: 2 };

// ---- the replay (1.1) ------------------------------------------------------------------

class Replay {
  readonly processed: Swap[] = []; // swaps recorded as price observations so far (1.1 step 2)
  readonly holdings = new Map<string, D>(); // leader index + token key -> h (2)
  readonly deals: Deal[] = []; // in opening order
  readonly trades: Trade[] = []; // in execution order
  readonly chart: ChartPoint[] = [];
  readonly pending: PendingCopy[] = []; // S-2: pending copies not yet fired, in scheduling order
  pendingSeq = 0;
  readonly skipped: SkippedCopy[] = []; // S-7: leader swaps not copied, in decision order

  constructor(
    readonly tape: Tape,
    readonly request: Request,
    readonly options: Options,
    readonly network: Network,
  ) {}

  key(address: string): string {
    return addressKey(this.network, address);
  }

  /** Index of the leader (position in `wallets`) that sent this wallet's swaps, or -1. */
  leaderIndex(wallet: string): number {
    return this.request.wallets.findIndex((w) => this.key(w) === this.key(wallet));
  }

  /** 1.1: known price = usd_price of the last swap of that token, in event order, so far. */
  knownPrice(tokenKey: string): D {
    for (let i = this.processed.length - 1; i >= 0; i--) {
      const s = this.processed[i]!;
      if (this.key(s.token) === tokenKey) return s.usd_price;
    }
    throw new Error(`reference: no known price for ${tokenKey}`); // cannot happen for a deal's token
  }

  /** 1.1: known liquidity = usd_liquidity of the last swap of that token carrying one; null if none. */
  knownLiquidity(tokenKey: string): D | null {
    for (let i = this.processed.length - 1; i >= 0; i--) {
      const s = this.processed[i]!;
      if (this.key(s.token) === tokenKey && s.usd_liquidity !== null) return s.usd_liquidity;
    }
    return null;
  }

  /**
   * 1.1: native price at t = price of the last native point with time ≤ t; before the first
   * point, the first point's price; an empty list when fees are needed is an input error.
   * "Last"/"first" are read by time (ties: the later / earlier point in the list).
   */
  nativePriceAt(t: number): D {
    const points = this.tape.nativePrices;
    if (points.length === 0) {
      throw new ReferenceInputError(`native_prices is empty but a follower trade at time ${t} needs a network fee`);
    }
    let best: { time: number; price: D } | null = null;
    for (const p of points) {
      if (p.time <= t && (best === null || p.time >= best.time)) best = p;
    }
    if (best !== null) return best.price;
    let first = points[0]!;
    for (const p of points) if (p.time < first.time) first = p;
    return first.price;
  }

  holdingKey(leader: number, tokenKey: string): string {
    return `${leader}\u0000${tokenKey}`;
  }

  /** The open deal of a token (3: at most one), or null. */
  openDeal(tokenKey: string): Deal | null {
    for (const d of this.deals) if (d.tokenKey === tokenKey && dealIsOpen(d)) return d;
    return null;
  }

  /** 3.3 fees of a follower trade. */
  fees(time: number, usd_amount: D): { usd_network_fee: D; usd_bot_fee: D } {
    const o = this.options;
    const r = this.request;
    const usd_network_fee = o.base_fee_native.plus(r.priority_fee).plus(r.bribe).times(this.nativePriceAt(time));
    const usd_bot_fee = r.include_bot_fees ? usd_amount.times(o.bot_fee_percent).dividedBy(100) : ZERO;
    return { usd_network_fee, usd_bot_fee };
  }

  /** 3.3: s = X / (L/2), or unknown_liquidity_slippage_percent / 100 when L is null. */
  slippageRate(x: D, L: D | null): D {
    if (L === null) return this.options.unknown_liquidity_slippage_percent.dividedBy(100);
    return x.dividedBy(L.dividedBy(TWO));
  }

  /**
   * 3.3 buy of A USD at reference price p and liquidity L, at `time`; opens a deal when `deal`
   * is null (its token as `swap`, the leader's swap, spells it).
   */
  executeBuy(deal: Deal | null, swap: Swap, leader: number, time: number, A: D, p: D, L: D | null): void {
    const s = this.slippageRate(A, L);
    const executionPrice = p.times(ONE.plus(s));
    const quantity = A.dividedBy(p.times(ONE.plus(s)));
    const slippage = HUNDRED.times(s);
    const slippage_loss = A.minus(quantity.times(p));
    let d = deal;
    if (d === null) {
      // 3.1 step 4: this buy opens a new deal
      d = {
        openSeq: this.deals.length,
        tokenKey: this.key(swap.token),
        // 4 says only `address`: the spelling of the swap that opened the deal.
        // Reading (S-2): for a pending copy, the spelling of the leader swap it copies.
        tokenAddress: swap.token,
        lots: new Map<number, D>(),
        bought_usd: ZERO,
        bought_qty: ZERO,
        buys: 0,
        trades: [],
        special_tag: null,
        firedLevels: new Set<number>(),
        firstReferencePrice: p, // S-5.3: the reference price of the deal's first buy
        recordedAtOpen: this.processed.length,
      };
      this.deals.push(d);
    }
    d.lots.set(leader, (d.lots.get(leader) ?? ZERO).plus(quantity));
    d.bought_usd = d.bought_usd.plus(A);
    d.bought_qty = d.bought_qty.plus(quantity);
    d.buys += 1;
    this.addTrade(d, { type: 'buy', time, usd_amount: A, quantity, usd_price: executionPrice, usd_liquidity: L, slippage, slippage_loss });
  }

  /**
   * 3.3 sell of Q tokens at reference price p and liquidity L. The caller has already taken
   * the tokens out of the lots; this records the trade and, when qty is 0, the special tag.
   */
  executeSell(d: Deal, type: TradeType, time: number, Q: D, p: D, L: D | null, closeTag: SpecialTag): void {
    const V = Q.times(p);
    const s = this.slippageRate(V, L);
    const usd_amount = V.dividedBy(ONE.plus(s));
    const executionPrice = usd_amount.dividedBy(Q);
    const slippage = HUNDRED.times(s).dividedBy(ONE.plus(s));
    const slippage_loss = V.minus(usd_amount);
    if (!dealIsOpen(d)) d.special_tag = closeTag; // 3.2, 3.4: the deal closes
    this.addTrade(d, { type, time, usd_amount, quantity: Q, usd_price: executionPrice, usd_liquidity: L, slippage, slippage_loss });
  }

  /**
   * Records a trade of deal `d` (its lots already moved), with its fees (3.3) and the deal's
   * `usd_buy_price_avg` and `usd_invested` after it, and the chart point after it (6).
   */
  addTrade(d: Deal, fill: Omit<Trade, 'usd_network_fee' | 'usd_bot_fee' | 'usd_buy_price_avg' | 'usd_invested' | 'deal'>): void {
    const trade: Trade = { ...fill, ...this.fees(fill.time, fill.usd_amount), usd_buy_price_avg: dealAvg(d), usd_invested: dealInvested(d), deal: d };
    d.trades.push(trade);
    this.trades.push(trade);
    // 6: pnl_realized = sum of the realized PnL of all deals so far
    const pnl_realized = sum(this.deals.map(dealRealized));
    // 6: pnl_unrealized = sum over open deals of qty × known price now − usd_invested
    const unrealized: D[] = [];
    for (const d of this.deals) {
      if (dealIsOpen(d)) unrealized.push(dealQty(d).times(this.knownPrice(d.tokenKey)).minus(dealInvested(d)));
    }
    const pnl_unrealized = sum(unrealized);
    this.chart.push({
      pnl_realized,
      pnl_unrealized,
      pnl_total: pnl_realized.plus(pnl_unrealized),
      // 6: fee_sum = cumulative usd_network_fee + usd_bot_fee; bot_fee = cumulative usd_bot_fee
      fee_sum: sum(this.trades.map((t) => t.usd_network_fee.plus(t.usd_bot_fee))),
      bot_fee: sum(this.trades.map((t) => t.usd_bot_fee)),
      deal: trade.deal,
      timestamp: trade.time,
    });
  }

  /** S-7: records a leader swap that was not copied, decided at `time`, with its reason. */
  skip(time: number, swap: Swap, reason: SkipReason): void {
    // S-7: `wallet` and `token` as the leader's swap spells them
    this.skipped.push({ time, wallet: swap.wallet, token: swap.token, type: swap.type, reason });
  }

  /** The first swap of a token in event order (S-4.3: any wallet, inside the window or before it). */
  firstSwapTime(tokenKey: string): number {
    for (const s of this.processed) if (this.key(s.token) === tokenKey) return s.time;
    throw new Error(`reference: no swap of ${tokenKey}`); // cannot happen: the copied swap is recorded
  }

  /**
   * 3.1: copying a leader buy (`swap`), at `time` with reference price `p` and liquidity `L`:
   * the leader swap's own at step 3, the known ones at that moment for a pending copy (S-2).
   */
  copyBuy(swap: Swap, leader: number, time: number, p: D, L: D | null): void {
    const r = this.request;
    const st = r.strategy;
    const tokenKey = this.key(swap.token);
    const deal = this.openDeal(tokenKey);
    // 3.1.1: dupe limit
    if (deal !== null && new D(deal.buys - 1).greaterThanOrEqualTo(r.max_dupe_buy_times)) return this.skip(time, swap, 'dupe_limit');
    // S-4: the filters, after step 1 and before step 2, in this order; the first that fails skips
    // S-4.1: the leader swap's usd_amount < min_leader_buy_usd
    if (swap.usd_amount.lessThan(st.min_leader_buy_usd)) return this.skip(time, swap, 'leader_buy_too_small');
    // S-4.2: the reference liquidity is null or < min_liquidity_usd.
    // Reading: at step 3 (d = 0) the reference liquidity is M 3.3's L, the leader swap's
    // usd_liquidity or, when that is null, the known liquidity (golden strategy-edge-02 confirms:
    // a buy without liquidity of a token with a known 30000 passes a 25000 bound).
    if (st.min_liquidity_usd !== null && (L === null || L.lessThan(st.min_liquidity_usd))) return this.skip(time, swap, 'liquidity_too_low');
    // S-4.3: the copy's time minus the time of the token's first swap is more than max_token_age_hours × 3600
    if (st.max_token_age_hours !== null && time - this.firstSwapTime(tokenKey) > st.max_token_age_hours * 3600) {
      return this.skip(time, swap, 'token_too_old');
    }
    // 3.1.2: A = min(a × buy_percentage / 100, max_buy_amount, max_position_amount − usd_invested);
    // S-3: with fixed_buy_amount F, A = min(F, max_buy_amount, max_position_amount − usd_invested)
    const invested = deal !== null ? dealInvested(deal) : ZERO;
    const a = swap.usd_amount;
    const first = st.fixed_buy_amount !== null ? st.fixed_buy_amount : a.times(r.buy_percentage).dividedBy(100);
    const A = D.min(first, r.max_buy_amount, r.max_position_amount.minus(invested));
    // 3.1.3 (model 1.1): skip when A ≤ max_position_amount × 10⁻²⁰ (covers A ≤ 0 and rounding dust)
    if (A.lessThanOrEqualTo(r.max_position_amount.times(new D('1e-20')))) return this.skip(time, swap, 'position_full');
    this.executeBuy(deal, swap, leader, time, A, p, L);
  }

  /**
   * 3.2: copying a leader sell (`swap`) with the leader's holdings `h` just before it, at `time`
   * with reference price `p` and liquidity `L` (S-2: a pending copy uses the q and h it
   * remembered and the lot of its leader in the deal open when it fires).
   */
  copySell(swap: Swap, leader: number, h: D, time: number, p: D, L: D | null): void {
    const tokenKey = this.key(swap.token);
    const deal = this.openDeal(tokenKey);
    if (deal === null) return this.skip(time, swap, 'no_open_deal');
    if (this.request.close_all) {
      // 3.2: close_all sells the whole qty (all lots) in one sell trade, for a sell of any leader
      const Q = dealQty(deal);
      emptyLots(deal);
      this.executeSell(deal, 'sell', time, Q, p, L, 'close_all');
      return;
    }
    const lot = deal.lots.get(leader) ?? ZERO;
    if (lot.isZero()) return this.skip(time, swap, 'no_lot');
    const q = swap.quantity;
    let Q: D;
    if (h.lessThanOrEqualTo(q)) {
      Q = lot; // f = 1: exactly lot_L
    } else {
      const f = q.dividedBy(h);
      Q = f.times(lot);
    }
    deal.lots.set(leader, lot.minus(Q));
    this.executeSell(deal, 'sell', time, Q, p, L, null);
  }

  /** 1.1 step 3 with d = 0: the copy at the leader swap's own price and liquidity (3.3), now. */
  copyNow(swap: Swap, leader: number, h: D): void {
    // 3.3: p and L of a copied swap: its usd_price, its usd_liquidity or else the known one
    const L = swap.usd_liquidity !== null ? swap.usd_liquidity : this.knownLiquidity(this.key(swap.token));
    if (swap.type === 'buy') this.copyBuy(swap, leader, swap.time, swap.usd_price, L);
    else this.copySell(swap, leader, h, swap.time, swap.usd_price, L);
  }

  /** S-2: a pending copy fires: known price and known liquidity at that moment, time = due time. */
  firePending(copy: PendingCopy): void {
    this.pending.splice(this.pending.indexOf(copy), 1);
    const tokenKey = this.key(copy.swap.token);
    const p = this.knownPrice(tokenKey);
    const L = this.knownLiquidity(tokenKey); // null when none: 3.3's fallback
    if (copy.swap.type === 'buy') this.copyBuy(copy.swap, copy.leader, copy.due, p, L);
    else this.copySell(copy.swap, copy.leader, copy.h, copy.due, p, L);
  }

  /**
   * S-5: a sell of a fraction g of qty: g × lot from every lot, in the order the deal first
   * copied each leader; the trade's quantity is the sum of these parts in that order; with
   * g = 1 every lot becomes exactly 0.
   */
  sellFraction(deal: Deal, g: D, type: TradeType, time: number, p: D, L: D | null, closeTag: SpecialTag): void {
    const parts: D[] = [];
    for (const [leader, lot] of deal.lots) {
      const part = g.equals(ONE) ? lot : g.times(lot);
      deal.lots.set(leader, g.equals(ONE) ? ZERO : lot.minus(part));
      parts.push(part);
    }
    this.executeSell(deal, type, time, sum(parts), p, L, closeTag);
  }

  /** S-5.3: peak = the deal's first buy's reference price, then every price recorded for the token while it is open. */
  peak(deal: Deal): D {
    // Reading: "recorded while the deal is open" = the token's swaps recorded (1.1 step 2) after
    // the buy that opened it: for a pending copy fired at step 1 of a swap, that swap included;
    // for a copy at step 3, the swap copied is recorded just before the deal opens, and its price
    // is the first buy's reference price anyway.
    let peak = deal.firstReferencePrice;
    for (let i = deal.recordedAtOpen; i < this.processed.length; i++) {
      const s = this.processed[i]!;
      if (this.key(s.token) === deal.tokenKey && s.usd_price.greaterThan(peak)) peak = s.usd_price;
    }
    return peak;
  }

  /**
   * S-5: after step 2 and before step 3, the exits of the swap's token's open deal, at
   * P = the swap's usd_price, avg = the deal's usd_buy_price_avg now, ROI(P) = 100 × (P − avg) / avg.
   * An exit sell: reference price P, the token's known liquidity after step 2, the swap's time.
   */
  checkExits(swap: Swap): void {
    const st = this.request.strategy;
    const tokenKey = this.key(swap.token);
    const deal = this.openDeal(tokenKey);
    if (deal === null) return;
    const P = swap.usd_price;
    // S-5: "avg does not change by a sell", so avg and ROI(P) are taken once, here
    const avg = dealAvg(deal);
    const roi = HUNDRED.times(P.minus(avg)).dividedBy(avg);
    const L = this.knownLiquidity(tokenKey);
    // S-5.1: each level not yet fired in this deal, in ascending roi (validated strictly
    // increasing, so the request's order), each its own trade, lowest first
    for (let i = 0; i < st.take_profit.length; i++) {
      if (!dealIsOpen(deal)) return; // the checks stop as soon as the deal is closed
      const level = st.take_profit[i]!;
      if (deal.firedLevels.has(i)) continue;
      if (roi.greaterThanOrEqualTo(level.roi)) {
        deal.firedLevels.add(i);
        // sell_percent % of the deal's qty at that moment
        this.sellFraction(deal, level.sell_percent.dividedBy(100), 'sell_take_profit', swap.time, P, L, 'take_profit');
      }
    }
    if (!dealIsOpen(deal)) return;
    // S-5.2: stop loss, ROI(P) ≤ −stop_loss_percent: the whole qty
    if (st.stop_loss_percent !== null && roi.lessThanOrEqualTo(st.stop_loss_percent.negated())) {
      this.sellFraction(deal, ONE, 'sell_stop_loss', swap.time, P, L, 'stop_loss');
      return;
    }
    // S-5.3: trailing stop, P ≤ peak × (1 − trailing_stop_percent / 100): the whole qty
    if (st.trailing_stop_percent !== null) {
      const bound = this.peak(deal).times(ONE.minus(st.trailing_stop_percent.dividedBy(100)));
      if (P.lessThanOrEqualTo(bound)) this.sellFraction(deal, ONE, 'sell_trailing_stop', swap.time, P, L, 'trailing_stop');
    }
  }

  /** 3.4: the time-fix sell of a deal's whole qty at `time`, at the known price and liquidity. */
  timeFixSell(deal: Deal, time: number, type: 'sell_timefix' | 'sell_timefix_final'): void {
    const Q = dealQty(deal);
    emptyLots(deal);
    this.executeSell(deal, type, time, Q, this.knownPrice(deal.tokenKey), this.knownLiquidity(deal.tokenKey), type);
  }

  /** S-6: the max-hold exit: the whole qty at the known price and known liquidity of that moment. */
  maxHoldSell(deal: Deal, time: number): void {
    // Reading: "sells the whole qty" (max hold, stop loss, trailing stop) is S-5's sell of the
    // fraction g = 1: every lot to exactly 0, the quantity their sum in lot order, as 3.4's
    // time-fix sells it.
    this.sellFraction(deal, ONE, 'sell_max_hold', time, this.knownPrice(deal.tokenKey), this.knownLiquidity(deal.tokenKey), 'max_hold');
  }

  /** 3.4: due moment of an open deal = last_operation_time + hours × 3600. */
  dueTime(deal: Deal): number {
    const last = deal.trades[deal.trades.length - 1]!;
    return last.time + (this.request.inactivity_hours ?? 0) * 3600;
  }

  /** S-6: due moment of a deal's max-hold exit = open_time + max_hold_hours × 3600. */
  maxHoldDue(deal: Deal): number {
    const first = deal.trades[0]!;
    return first.time + (this.request.strategy.max_hold_hours ?? 0) * 3600;
  }

  /**
   * S-6: the first scheduled action due at or before `limit`: earliest due time; at equal due
   * times time-fixes (deal order), then max-hold exits (deal order), then pending copies
   * (scheduling order). Chosen afresh each time from the state as it is now.
   */
  nextScheduled(limit: number): Scheduled | null {
    const { windowEnd, inactivity_hours, strategy } = this.request;
    const due: Scheduled[] = [];
    // Reading: "deal order" is the order in which deals opened (this.deals); as deals open in
    // non-decreasing time, it is also their order in the response's `deals` (4).
    // a mid time-fix of an open deal, when at or before window_end (3.4)
    if (inactivity_hours !== null) {
      for (const d of this.deals) if (dealIsOpen(d)) due.push({ kind: 'timefix', due: this.dueTime(d), deal: d });
    }
    // a max-hold exit of an open deal, when at or before window_end
    if (strategy.max_hold_hours !== null) {
      for (const d of this.deals) if (dealIsOpen(d)) due.push({ kind: 'maxhold', due: this.maxHoldDue(d), deal: d });
    }
    // a pending copy (S-2: one due after window_end never fires)
    for (const c of this.pending) due.push({ kind: 'pending', due: c.due, copy: c });
    let next: Scheduled | null = null;
    for (const a of due) {
      if (a.due > limit || a.due > windowEnd) continue;
      // candidates are listed kind by kind, each in its own order: only a strictly smaller key wins
      if (next === null || a.due < next.due || (a.due === next.due && KIND_RANK[a.kind] < KIND_RANK[next.kind])) next = a;
    }
    return next;
  }

  /** M 1.1 step 1 as S-6 makes it: fire the first due action while one is due at or before `limit`. */
  fireScheduled(limit: number): void {
    for (let next = this.nextScheduled(limit); next !== null; next = this.nextScheduled(limit)) {
      if (next.kind === 'timefix') this.timeFixSell(next.deal, next.due, 'sell_timefix');
      else if (next.kind === 'maxhold') this.maxHoldSell(next.deal, next.due);
      else this.firePending(next.copy);
    }
  }

  run(): void {
    const { windowStart, windowEnd } = this.request;
    const d = this.request.strategy.copy_delay_seconds;
    // 1.1 event order: ascending time, stable for equal times
    const ordered = [...this.tape.swaps].sort((x, y) => x.time - y.time || x.index - y.index);
    for (const swap of ordered) {
      if (swap.time > windowEnd) break; // 2: swaps after window_end are ignored entirely
      // step 1 (S-6): every scheduled action due at or before the swap's time
      this.fireScheduled(swap.time);
      // step 2: the swap becomes its token's latest price (and liquidity)
      this.processed.push(swap);
      // S-5: the exits of its token's open deal, after step 2 and before step 3
      this.checkExits(swap);
      // step 3: copy a leader's swap in the window, with holdings from before this swap
      const leader = this.leaderIndex(swap.wallet);
      const hk = this.holdingKey(leader, this.key(swap.token));
      const h = this.holdings.get(hk) ?? ZERO;
      if (leader >= 0 && swap.time >= windowStart && swap.time <= windowEnd) {
        if (d === 0) this.copyNow(swap, leader, h);
        // S-2: with d > 0, a pending copy due at t + d
        else this.pending.push({ seq: this.pendingSeq++, leader, swap, h, due: swap.time + d });
      }
      // step 4: leader holdings (2): buy adds, sell subtracts floored at 0
      if (leader >= 0) {
        const next = swap.type === 'buy' ? h.plus(swap.quantity) : D.max(h.minus(swap.quantity), ZERO);
        this.holdings.set(hk, next);
      }
    }
    // after the last swap (S-6): the scheduled actions due by window_end, then the final time-fix (3.4)
    this.fireScheduled(windowEnd);
    if (this.request.inactivity_hours !== null) {
      for (const deal of this.deals) {
        if (dealIsOpen(deal)) this.timeFixSell(deal, windowEnd, 'sell_timefix_final');
      }
    }
    // S-2: a pending copy due after window_end never fires: after_window at its due time, after
    // every other entry, in the order the copies were scheduled
    for (const c of [...this.pending].sort((x, y) => x.seq - y.seq)) this.skip(c.due, c.swap, 'after_window');
  }
}

/** Sells every lot (close_all, time-fix): each lot to 0, their order kept. */
function emptyLots(deal: Deal): void {
  for (const leader of deal.lots.keys()) deal.lots.set(leader, ZERO);
}

/**
 * The simulator's 200 response body for a tape, a request and engine options, each the raw
 * JSON of the golden folders' tape.json, request.json and options.json.
 * Throws ReferenceInputError where the command would exit 1, and ReferenceRequestError, carrying
 * the 400 body, where it would exit 2. `arithmetic` sets the digits and
 * rounding of every operation (default: the spec's 30 digits, decimal.js's default rounding).
 */
export function referenceSimulate(tape: unknown, request: unknown, options?: unknown, arithmetic: Arithmetic = SPEC_ARITHMETIC): unknown {
  useArithmetic(arithmetic);
  // 1.2, 7, S-1: a request that fails validation gets the 400 body (the command's exit 2).
  // Reading: the request is judged before the tape is read, so a bad request and a bad tape
  // together give the 400 (exit 2), not exit 1.
  const problem = validateRequest(request);
  if (problem !== null) throw new ReferenceRequestError(problem);
  const t = readTape(tape);
  const r = readRequest(request);
  // 1.1: "a request for another network is an input error"
  if (t.network !== r.network) {
    throw new ReferenceInputError(`the tape is of network ${t.network} but the request asks for ${r.network}`);
  }
  const o = readOptions(options ?? {}, r.network);
  const replay = new Replay(t, r, o, r.network);
  replay.run();
  return buildResponse({
    tape: t,
    network: r.network,
    deals: replay.deals,
    trades: replay.trades,
    chart: replay.chart,
    // 4: pnl_unrealized uses the known price at window_end (all swaps up to it are processed)
    priceAtWindowEnd: (tokenKey: string) => replay.knownPrice(tokenKey),
    // S-7: skipped_copies only with report_skipped
    skipped: r.strategy.report_skipped ? replay.skipped : null,
  });
}
