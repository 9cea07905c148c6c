/**
 * A slow, literal reference implementation of the copy-trade simulation model (the spec,
 * ../shared/spec/simulation-model.md beside the project, model 1.2). It exists only to be compared
 * with the engine; it follows the spec step by step, recomputes everything from scratch, and
 * shares no code with src/. Model 2.0's strategy extensions (../shared/spec/strategy-extensions.md)
 * and model 3.0's copier's wallet (../shared/spec/copier-wallet.md) are woven into the same
 * replay; comments cite them as "S-x" and "W-x" (S-5 = that text's section 5). Section numbers
 * in comments are those of the spec ("I-2.8" = the interface document's section 2.8).
 * Where the texts are silent, the readings taken are listed in README.md beside this file.
 */
import { D, HUNDRED, ONE, SPEC_ARITHMETIC, ZERO, sum, useArithmetic, type Arithmetic } from './decimal.js';
import { ReferenceInputError, ReferenceRequestError } from './errors.js';
import { validateRequest } from './validate.js';
import {
  dealAvg,
  dealInvested,
  dealIsOpen,
  dealQty,
  dealRealized,
  takeFraction,
  takeFromLot,
  type ChartPoint,
  type Deal,
  type LotPart,
  type SpecialTag,
  type Trade,
  type TradeType,
} from './deal.js';
import { buyFill, sandwichedBuy, sandwichedSell, sellFill, type Fill } from './execution.js';
import { drawBelow } from './draws.js';
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
import { Wallet } from './wallet.js';

export { ReferenceInputError, ReferenceRequestError } from './errors.js';

/**
 * A copy of one leader swap (3.1, 3.2) and where it stands: the leader, its swap, the leader's
 * holdings `h` just before the swap (2), the swap's event index `i` and the attempt `k` (W-4),
 * and the attempt's quote price p_q (W-4 step 3: the leader swap's usd_price for attempt 0, the
 * failed attempt's reference price for a retry).
 */
interface Copy {
  leader: number;
  swap: Swap;
  h: D;
  eventIndex: number;
  attempt: number;
  quote: D;
}

/** S-2, W-4: a pending copy (a delayed copy or a retry), due at `due`, scheduled `seq`-th. */
interface PendingCopy extends Copy {
  seq: number;
  due: number;
}

/** S-6: one scheduled action that is due, with what orders it. */
type Scheduled =
  | { kind: 'timefix'; due: number; deal: Deal }
  | { kind: 'maxhold'; due: number; deal: Deal }
  | { kind: 'pending'; due: number; copy: PendingCopy };

/** What a trade took from the lots (a sell's parts, 3) and the leader whose swap it copied, if any (W-7). */
interface Taken {
  parts: LotPart[];
  copied: number | null;
}

/** S-6: at equal due times, time-fixes, then max-hold exits, then pending copies. */
const KIND_RANK: Record<Scheduled['kind'], number> = { timefix: 0, maxhold: 1, pending: 2 };

/** 3.2 (model 1.2): a leader sell of q ≥ h × (1 − 10⁻⁶) is a full sell. */
const FULL_SELL_SHARE = '0.999999';

// ---- the replay (1.1) ------------------------------------------------------------------

class Replay {
  readonly processed: Swap[] = []; // swaps recorded at 1.1 step 2 so far, any size
  readonly holdings = new Map<string, D>(); // leader index + token key -> h (2)
  readonly deals: Deal[] = []; // in opening order
  readonly trades: Trade[] = []; // in execution order
  readonly chart: ChartPoint[] = [];
  readonly pending: PendingCopy[] = []; // S-2: pending copies not yet fired, in scheduling order
  pendingSeq = 0;
  readonly skipped: SkippedCopy[] = []; // S-7: leader swaps not copied, in decision order
  readonly wallet: Wallet;

  constructor(
    readonly tape: Tape,
    readonly request: Request,
    readonly options: Options,
    readonly network: Network,
  ) {
    this.wallet = new Wallet(request.strategy.starting_balance_usd);
  }

  key(address: string): string {
    return addressKey(this.network, address);
  }

  /** Index of the leader (position in `wallets`) that sent this wallet's swaps, or -1. */
  leaderIndex(wallet: string): number {
    return this.request.wallets.findIndex((w) => this.key(w) === this.key(wallet));
  }

  /** 1.3 (model 1.2): a swap whose usd_amount is below min_price_swap_usd is no price observation. */
  isObservation(swap: Swap): boolean {
    return !swap.usd_amount.lessThan(this.options.min_price_swap_usd);
  }

  /**
   * 1.1: known price = usd_price of the last swap of that token, in event order, so far, swaps
   * below min_price_swap_usd excepted; 1.3: while every swap of the token so far is below it, the
   * price of its last swap of any size.
   */
  knownPrice(tokenKey: string): D {
    let lastOfAnySize: D | null = null;
    for (let i = this.processed.length - 1; i >= 0; i--) {
      const s = this.processed[i]!;
      if (this.key(s.token) !== tokenKey) continue;
      if (this.isObservation(s)) return s.usd_price;
      lastOfAnySize ??= s.usd_price;
    }
    if (lastOfAnySize !== null) return lastOfAnySize;
    throw new Error(`reference: no known price for ${tokenKey}`); // cannot happen for a deal's token
  }

  /** 1.1: known liquidity = usd_liquidity of the last observation of that token carrying one; null if none. */
  knownLiquidity(tokenKey: string): D | null {
    for (let i = this.processed.length - 1; i >= 0; i--) {
      const s = this.processed[i]!;
      if (this.key(s.token) === tokenKey && s.usd_liquidity !== null && this.isObservation(s)) return s.usd_liquidity;
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

  /** W-2, W-7: the value of the deals open now, Σ qty × known price at this moment. */
  holdingsValue(): D {
    return sum(this.deals.filter(dealIsOpen).map((d) => dealQty(d).times(this.knownPrice(d.tokenKey))));
  }

  /** 3.3 fees of a follower trade. */
  fees(time: number, usd_amount: D): { usd_network_fee: D; usd_bot_fee: D } {
    const o = this.options;
    const r = this.request;
    const usd_network_fee = o.base_fee_native.plus(r.priority_fee).plus(r.bribe).times(this.nativePriceAt(time));
    const usd_bot_fee = r.include_bot_fees ? usd_amount.times(o.bot_fee_percent).dividedBy(100) : ZERO;
    return { usd_network_fee, usd_bot_fee };
  }

  /** A new deal, opened by a buy of the token `swap` spells, at reference price `p` (3.1 step 4). */
  openNewDeal(swap: Swap, p: D): Deal {
    const deal: Deal = {
      openSeq: this.deals.length,
      tokenKey: this.key(swap.token),
      // 4 says only `address`: the spelling of the swap that opened the deal.
      // Reading (S-2): for a pending copy, the spelling of the leader swap it copies.
      tokenAddress: swap.token,
      lots: new Map(),
      bought_usd: ZERO,
      bought_qty: ZERO,
      buys: 0,
      trades: [],
      special_tag: null,
      firedLevels: new Set<number>(),
      firstReferencePrice: p, // S-5.3: the reference price of the deal's first buy
      recordedAtOpen: this.processed.length,
    };
    this.deals.push(deal);
    return deal;
  }

  /** 3: a buy of A USD copying leader L that gets `quantity` tokens: lot_L += quantity, cost_L += A. */
  recordBuy(deal: Deal, leader: number, time: number, L: D | null, fill: Fill): void {
    const lot = deal.lots.get(leader) ?? { qty: ZERO, cost: ZERO };
    deal.lots.set(leader, { qty: lot.qty.plus(fill.quantity), cost: lot.cost.plus(fill.usd_amount) });
    deal.bought_usd = deal.bought_usd.plus(fill.usd_amount);
    deal.bought_qty = deal.bought_qty.plus(fill.quantity);
    deal.buys += 1;
    this.addTrade(deal, 'buy', time, L, fill, { parts: [], copied: leader });
  }

  /**
   * A sell of deal `d` whose lots already gave `taken.parts`; when qty is 0, the deal closes with
   * `tag` (3.2, 3.4, S-7).
   */
  recordSell(d: Deal, type: TradeType, time: number, L: D | null, fill: Fill, taken: Taken, tag: SpecialTag): void {
    if (!dealIsOpen(d)) d.special_tag = tag;
    this.addTrade(d, type, time, L, fill, taken);
  }

  /**
   * Records a trade of deal `d` (its lots already moved), with its fees (3.3), the deal's
   * `usd_buy_price_avg` and `usd_invested` after it, the chart point after it (6) and the
   * change of the copier's cash (W-2).
   */
  addTrade(d: Deal, type: TradeType, time: number, L: D | null, fill: Fill, { parts, copied }: Taken): void {
    const fees = this.fees(time, fill.usd_amount);
    const trade: Trade = {
      type,
      time,
      usd_amount: fill.usd_amount,
      quantity: fill.quantity,
      usd_price: fill.usd_price,
      usd_liquidity: L,
      usd_buy_price_avg: dealAvg(d),
      usd_invested: dealInvested(d),
      slippage: fill.slippage,
      ...fees,
      slippage_loss: fill.slippage_loss,
      parts,
      copied,
      sandwich_loss: fill.sandwich_loss,
      deal: d,
    };
    d.trades.push(trade);
    this.trades.push(trade);
    // 6: pnl_realized = sum of the realized PnL of all deals so far
    const pnl_realized = sum(this.deals.map(dealRealized));
    // 6: pnl_unrealized = sum over open deals of qty × known price now − usd_invested
    const open = this.deals.filter(dealIsOpen);
    const pnl_unrealized = sum(open.map((o) => dealQty(o).times(this.knownPrice(o.tokenKey)).minus(dealInvested(o))));
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
    // W-2: a buy pays usd_amount + fees, a sell of any kind receives usd_amount − fees
    const feeSum = fees.usd_network_fee.plus(fees.usd_bot_fee);
    const delta = type === 'buy' ? fill.usd_amount.plus(feeSum).negated() : fill.usd_amount.minus(feeSum);
    this.wallet.move(delta, this.holdingsValue());
  }

  /** S-7: records a leader swap that was not copied, decided at `time`, with its reason. */
  skip(time: number, copy: Copy, reason: SkipReason): void {
    const swap = copy.swap;
    // S-7: `wallet` and `token` as the leader's swap spells them
    this.skipped.push({ time, wallet: swap.wallet, token: swap.token, type: swap.type, reason, leader: copy.leader });
  }

  /** The first swap of a token in event order (S-4.3: any wallet, inside the window or before it; 1.3: any size). */
  firstSwapTime(tokenKey: string): number {
    for (const s of this.processed) if (this.key(s.token) === tokenKey) return s.time;
    throw new Error(`reference: no swap of ${tokenKey}`); // cannot happen: the copied swap is recorded
  }

  // ---- copies: checks, attempts, failures (3.1, 3.2, S-4, W-2 to W-5) ----------------------

  /**
   * 3.1: copying a leader buy at `time` with reference price `p` and liquidity `L`: the leader
   * swap's own at step 3, the known ones at that moment for a pending copy (S-2).
   */
  copyBuy(copy: Copy, time: number, p: D, L: D | null): void {
    const r = this.request;
    const st = r.strategy;
    const swap = copy.swap;
    const tokenKey = this.key(swap.token);
    const deal = this.openDeal(tokenKey);
    // 3.1.1: dupe limit
    if (deal !== null && new D(deal.buys - 1).greaterThanOrEqualTo(r.max_dupe_buy_times)) {
      return this.skip(time, copy, 'dupe_limit');
    }
    // S-4: the filters, after step 1 and before step 2, in this order; the first that fails skips
    // S-4.1: the leader swap's usd_amount < min_leader_buy_usd
    if (swap.usd_amount.lessThan(st.min_leader_buy_usd)) return this.skip(time, copy, 'leader_buy_too_small');
    // S-4.2: the reference liquidity is null or < min_liquidity_usd.
    // Reading: at step 3 (d = 0) the reference liquidity is M 3.3's L, the leader swap's
    // usd_liquidity or, when that is null, the known liquidity (golden strategy-edge-02 confirms:
    // a buy without liquidity of a token with a known 30000 passes a 25000 bound).
    if (st.min_liquidity_usd !== null && (L === null || L.lessThan(st.min_liquidity_usd))) {
      return this.skip(time, copy, 'liquidity_too_low');
    }
    // S-4.3: the copy's time minus the time of the token's first swap is more than max_token_age_hours × 3600
    if (st.max_token_age_hours !== null && time - this.firstSwapTime(tokenKey) > st.max_token_age_hours * 3600) {
      return this.skip(time, copy, 'token_too_old');
    }
    // W-3: a buy that would open a deal while max_open_deals are open
    if (deal === null && st.max_open_deals !== null && this.deals.filter(dealIsOpen).length >= st.max_open_deals) {
      return this.skip(time, copy, 'max_open_deals');
    }
    // 3.1.2: A = min(a × buy_percentage / 100, max_buy_amount, max_position_amount − usd_invested);
    // S-3: with fixed_buy_amount F, A = min(F, max_buy_amount, max_position_amount − usd_invested)
    const invested = deal !== null ? dealInvested(deal) : ZERO;
    const first = st.fixed_buy_amount ?? swap.usd_amount.times(r.buy_percentage).dividedBy(100);
    const A = D.min(first, r.max_buy_amount, r.max_position_amount.minus(invested));
    // 3.1.3 (model 1.1): skip when A ≤ max_position_amount × 10⁻²⁰ (covers A ≤ 0 and rounding dust)
    if (A.lessThanOrEqualTo(r.max_position_amount.times(new D('1e-20')))) return this.skip(time, copy, 'position_full');
    // W-2: with a starting balance, A plus the fees it would pay if it landed must not exceed free
    if (st.starting_balance_usd !== null) {
      const fees = this.fees(time, A);
      const free = this.wallet.cash.minus(st.reserve_usd);
      if (A.plus(fees.usd_network_fee).plus(fees.usd_bot_fee).greaterThan(free)) {
        return this.skip(time, copy, 'insufficient_balance');
      }
    }
    // W-4: the attempt
    if (this.dropped(copy)) return this.fail(copy, time, p, 'failed_transaction');
    const fill = buyFill(A, p, L, this.options);
    const tolerance = st.slippage_tolerance_percent;
    let landed = fill;
    if (tolerance !== null) {
      const worst = copy.quote.times(ONE.plus(tolerance.dividedBy(100))); // p_q × (1 + τ/100)
      if (fill.usd_price.greaterThan(worst)) return this.fail(copy, time, p, 'slippage_exceeded');
      if (this.sandwiched(copy)) landed = sandwichedBuy(A, p, fill.usd_price, worst);
    }
    this.recordBuy(deal ?? this.openNewDeal(swap, p), copy.leader, time, L, landed);
  }

  /**
   * 3.2: copying a leader sell at `time` with reference price `p` and liquidity `L` (S-2: a
   * pending copy uses the q and h it remembered and the lot of its leader in the deal open when
   * it fires).
   */
  copySell(copy: Copy, time: number, p: D, L: D | null): void {
    const deal = this.openDeal(this.key(copy.swap.token));
    if (deal === null) return this.skip(time, copy, 'no_open_deal');
    let Q: D;
    let take: () => LotPart[];
    if (this.request.close_all) {
      // 3.2: close_all sells the whole qty (all lots) in one sell trade, for a sell of any leader
      Q = dealQty(deal);
      take = () => [...deal.lots.keys()].map((leader) => takeFraction(deal, leader, ONE));
    } else {
      const lot = deal.lots.get(copy.leader)?.qty ?? ZERO;
      if (lot.isZero()) return this.skip(time, copy, 'no_lot');
      // 3.2 (model 1.2): f = 1 when q ≥ h × (1 − 10⁻⁶), else f = q / h; exactly lot_L when f = 1
      const q = copy.swap.quantity;
      const h = copy.h;
      const x = q.greaterThanOrEqualTo(h.times(new D(FULL_SELL_SHARE))) ? lot : q.dividedBy(h).times(lot);
      Q = x;
      take = () => [takeFromLot(deal, copy.leader, x)];
    }
    // W-4: the attempt
    if (this.dropped(copy)) return this.fail(copy, time, p, 'failed_transaction');
    const fill = sellFill(Q, p, L, this.options);
    const tolerance = this.request.strategy.slippage_tolerance_percent;
    let landed = fill;
    if (tolerance !== null) {
      const worst = copy.quote.times(ONE.minus(tolerance.dividedBy(100))); // p_q × (1 − τ/100)
      if (fill.usd_price.lessThan(worst)) return this.fail(copy, time, p, 'slippage_exceeded');
      if (this.sandwiched(copy)) landed = sandwichedSell(Q, p, fill.usd_price, worst);
    }
    const tag = this.request.close_all ? 'close_all' : null;
    this.recordSell(deal, 'sell', time, L, landed, { parts: take(), copied: copy.leader }, tag);
  }

  /** W-4 step 1: the attempt is dropped when draw(i, k, 0) < failed_transaction_percent / 100. */
  dropped(copy: Copy): boolean {
    const st = this.request.strategy;
    return drawBelow(st.random_seed, copy.eventIndex, copy.attempt, 0, st.failed_transaction_percent);
  }

  /** W-5: a landed copy is sandwiched when draw(i, k, 1) < sandwich_percent / 100. */
  sandwiched(copy: Copy): boolean {
    const st = this.request.strategy;
    return drawBelow(st.random_seed, copy.eventIndex, copy.attempt, 1, st.sandwich_percent);
  }

  /**
   * W-4: a failed attempt at `time` whose reference price was `p`: it pays failed_fee =
   * (base_fee_native + priority_fee) × native price; a retry is due retry_delay_seconds later
   * with quote price p while k < retries, else the copy is abandoned with this attempt's reason.
   */
  fail(copy: Copy, time: number, p: D, reason: 'failed_transaction' | 'slippage_exceeded'): void {
    const r = this.request;
    const fee = this.options.base_fee_native.plus(r.priority_fee).times(this.nativePriceAt(time));
    this.wallet.fail({ leader: copy.leader, time, fee }, this.holdingsValue());
    if (copy.attempt < r.strategy.retries) {
      const due = time + r.strategy.retry_delay_seconds;
      this.pending.push({ ...copy, attempt: copy.attempt + 1, quote: p, seq: this.pendingSeq++, due });
    } else {
      this.skip(time, copy, reason);
    }
  }

  /** 1.1 step 3 with d = 0: the copy at the leader swap's own price and liquidity (3.3), now. */
  copyNow(copy: Copy): void {
    const swap = copy.swap;
    // 3.3: p and L of a copied swap: its usd_price, its usd_liquidity or else the known one
    // (1.3: also for a swap below min_price_swap_usd, "copied at its own price and liquidity")
    const L = swap.usd_liquidity ?? this.knownLiquidity(this.key(swap.token));
    if (swap.type === 'buy') this.copyBuy(copy, swap.time, swap.usd_price, L);
    else this.copySell(copy, swap.time, swap.usd_price, L);
  }

  /** S-2, W-4: a pending copy fires: known price and known liquidity at that moment, time = due time. */
  firePending(copy: PendingCopy): void {
    this.pending.splice(this.pending.indexOf(copy), 1);
    const tokenKey = this.key(copy.swap.token);
    const p = this.knownPrice(tokenKey);
    const L = this.knownLiquidity(tokenKey); // null when none: 3.3's fallback
    if (copy.swap.type === 'buy') this.copyBuy(copy, copy.due, p, L);
    else this.copySell(copy, copy.due, p, L);
  }

  // ---- exits and time-fixes (S-5, S-6, 3.4) -------------------------------------------------

  /**
   * S-5: a sell of a fraction g of qty: g × lot (and g × its cost) from every lot, in the order
   * the deal first copied each leader; the trade's quantity is the sum of these parts in that
   * order; with g = 1 every lot becomes exactly 0. Such sells never fail (W-1).
   */
  sellFraction(deal: Deal, g: D, type: TradeType, time: number, p: D, L: D | null, closeTag: SpecialTag): void {
    const parts = [...deal.lots.keys()].map((leader) => takeFraction(deal, leader, g));
    const Q = sum(parts.map((part) => part.x));
    this.recordSell(deal, type, time, L, sellFill(Q, p, L, this.options), { parts, copied: null }, closeTag);
  }

  /**
   * S-5.3: peak = the deal's first buy's reference price, then every price recorded for the token
   * while it is open (1.3: a swap below min_price_swap_usd raises no peak).
   */
  peak(deal: Deal): D {
    // Reading: "recorded while the deal is open" = the token's swaps recorded (1.1 step 2) after
    // the buy that opened it: for a pending copy fired at step 1 of a swap, that swap included;
    // for a copy at step 3, the swap copied is recorded just before the deal opens, and its price
    // is the first buy's reference price anyway.
    let peak = deal.firstReferencePrice;
    for (let i = deal.recordedAtOpen; i < this.processed.length; i++) {
      const s = this.processed[i]!;
      if (this.key(s.token) !== deal.tokenKey || !this.isObservation(s)) continue;
      if (s.usd_price.greaterThan(peak)) peak = s.usd_price;
    }
    return peak;
  }

  /**
   * S-5: after step 2 and before step 3, the exits of the swap's token's open deal, at
   * P = the swap's usd_price, avg = the deal's usd_buy_price_avg now, ROI(P) = 100 × (P − avg) / avg.
   * An exit sell: reference price P, the token's known liquidity after step 2, the swap's time.
   * 1.3: not at a swap below min_price_swap_usd.
   */
  checkExits(swap: Swap): void {
    if (!this.isObservation(swap)) return;
    const st = this.request.strategy;
    const tokenKey = this.key(swap.token);
    const deal = this.openDeal(tokenKey);
    if (deal === null) return;
    const P = swap.usd_price;
    // S-5: an exit sell takes the same fraction of every lot and of its cost, so "avg does not
    // change by it": avg and ROI(P) are taken once, here
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
      if (P.lessThanOrEqualTo(bound)) {
        this.sellFraction(deal, ONE, 'sell_trailing_stop', swap.time, P, L, 'trailing_stop');
      }
    }
  }

  /**
   * 3.4: the time-fix sell of a deal's whole qty at `time`, at the known price and liquidity;
   * S-6: the max-hold exit likewise. Reading: "sells the whole qty" (time-fix, max hold, stop loss,
   * trailing stop, close_all) is S-5's sell of the fraction g = 1: every lot and its cost to
   * exactly 0, the quantity their sum in lot order.
   */
  sellWhole(deal: Deal, time: number, type: 'sell_timefix' | 'sell_timefix_final' | 'sell_max_hold'): void {
    const tag = type === 'sell_max_hold' ? 'max_hold' : type;
    this.sellFraction(deal, ONE, type, time, this.knownPrice(deal.tokenKey), this.knownLiquidity(deal.tokenKey), tag);
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
   * (scheduling order; W-4: retries among them). Chosen afresh each time from the state as it is now.
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
    for (const c of [...this.pending].sort((x, y) => x.seq - y.seq)) due.push({ kind: 'pending', due: c.due, copy: c });
    let next: Scheduled | null = null;
    for (const a of due) {
      if (a.due > limit || a.due > windowEnd) continue;
      // candidates are listed kind by kind, each in its own order: only a strictly smaller key wins
      if (next === null || a.due < next.due) next = a;
      else if (a.due === next.due && KIND_RANK[a.kind] < KIND_RANK[next.kind]) next = a;
    }
    return next;
  }

  /** M 1.1 step 1 as S-6 makes it: fire the first due action while one is due at or before `limit`. */
  fireScheduled(limit: number): void {
    for (let next = this.nextScheduled(limit); next !== null; next = this.nextScheduled(limit)) {
      if (next.kind === 'timefix') this.sellWhole(next.deal, next.due, 'sell_timefix');
      else if (next.kind === 'maxhold') this.sellWhole(next.deal, next.due, 'sell_max_hold');
      else this.firePending(next.copy);
    }
  }

  run(): void {
    const { windowStart, windowEnd } = this.request;
    const d = this.request.strategy.copy_delay_seconds;
    // 1.1 event order: ascending time, stable for equal times; W-4: a swap's event index is its
    // position in this order
    const ordered = [...this.tape.swaps].sort((x, y) => x.time - y.time || x.index - y.index);
    for (let eventIndex = 0; eventIndex < ordered.length; eventIndex++) {
      const swap = ordered[eventIndex]!;
      if (swap.time > windowEnd) break; // 2: swaps after window_end are ignored entirely
      // step 1 (S-6): every scheduled action due at or before the swap's time
      this.fireScheduled(swap.time);
      // step 2: the swap becomes its token's latest price (and liquidity), unless below
      // min_price_swap_usd (1.3); it is kept either way for token age and the fallback price
      this.processed.push(swap);
      // S-5: the exits of its token's open deal, after step 2 and before step 3
      this.checkExits(swap);
      // step 3: copy a leader's swap in the window, with holdings from before this swap
      const leader = this.leaderIndex(swap.wallet);
      const hk = this.holdingKey(leader, this.key(swap.token));
      const h = this.holdings.get(hk) ?? ZERO;
      if (leader >= 0 && swap.time >= windowStart && swap.time <= windowEnd) {
        // W-4: attempt 0's quote price is the leader swap's usd_price
        const copy: Copy = { leader, swap, h, eventIndex, attempt: 0, quote: swap.usd_price };
        if (d === 0) this.copyNow(copy);
        // S-2: with d > 0, a pending copy due at t + d
        else this.pending.push({ ...copy, seq: this.pendingSeq++, due: swap.time + d });
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
        if (dealIsOpen(deal)) this.sellWhole(deal, windowEnd, 'sell_timefix_final');
      }
    }
    // S-2, W-7: a pending copy or retry due after window_end never fires: after_window at its due
    // time, after every other entry, in the order the copies were scheduled
    for (const c of [...this.pending].sort((x, y) => x.seq - y.seq)) this.skip(c.due, c, 'after_window');
  }
}

/**
 * The simulator's 200 response body for a tape, a request and engine options, each the raw
 * JSON of the golden folders' tape.json, request.json and options.json.
 * Throws ReferenceInputError where the command would exit 1, and ReferenceRequestError, carrying
 * the 400 body, where it would exit 2. `arithmetic` sets the digits and
 * rounding of every operation (default: the spec's 30 digits, decimal.js's default rounding).
 */
export function referenceSimulate(
  tape: unknown,
  request: unknown,
  options?: unknown,
  arithmetic: Arithmetic = SPEC_ARITHMETIC,
): unknown {
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
    request: r,
    deals: replay.deals,
    trades: replay.trades,
    chart: replay.chart,
    // 4: pnl_unrealized uses the known price at window_end (all swaps up to it are processed)
    priceAtWindowEnd: (tokenKey: string) => replay.knownPrice(tokenKey),
    skipped: replay.skipped,
    wallet: replay.wallet,
  });
}
