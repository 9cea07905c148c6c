/**
 * A slow, literal reference implementation of the copy-trade simulation model (the spec,
 * ../shared/spec/simulation-model.md beside the project). It exists only to be compared with
 * the engine; it follows the spec step by step, recomputes everything from scratch, and shares
 * no code with src/. Section numbers in comments are those of the spec ("I-2.8" = the interface
 * document's section 2.8).
 */
import { D, HUNDRED, ONE, SPEC_ARITHMETIC, TWO, ZERO, sum, useArithmetic, type Arithmetic } from './decimal.js';
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
import { buildResponse } from './report.js';

/** The cases where the command exits 1 (spec 7, 8): an unusable tape or options. */
export class ReferenceInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReferenceInputError';
  }
}

// ---- the replay (1.1) ------------------------------------------------------------------

class Replay {
  readonly processed: Swap[] = []; // swaps recorded as price observations so far (1.1 step 2)
  readonly holdings = new Map<string, D>(); // leader index + token key -> h (2)
  readonly deals: Deal[] = []; // in opening order
  readonly trades: Trade[] = []; // in execution order
  readonly chart: ChartPoint[] = [];

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

  /** 3.3 buy of A USD at reference price p and liquidity L; opens a deal when `deal` is null. */
  executeBuy(deal: Deal | null, swap: Swap, leader: number, A: D, p: D, L: D | null): void {
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
        tokenAddress: swap.token, // 4 says only `address`: the spelling of the swap that opened the deal
        lots: new Map<number, D>(),
        bought_usd: ZERO,
        bought_qty: ZERO,
        buys: 0,
        trades: [],
        special_tag: null,
      };
      this.deals.push(d);
    }
    d.lots.set(leader, (d.lots.get(leader) ?? ZERO).plus(quantity));
    d.bought_usd = d.bought_usd.plus(A);
    d.bought_qty = d.bought_qty.plus(quantity);
    d.buys += 1;
    this.addTrade(d, { type: 'buy', time: swap.time, usd_amount: A, quantity, usd_price: executionPrice, usd_liquidity: L, slippage, slippage_loss });
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

  /** 3.1: copying a leader buy. */
  copyBuy(swap: Swap, leader: number): void {
    const r = this.request;
    const tokenKey = this.key(swap.token);
    const deal = this.openDeal(tokenKey);
    // 3.1.1: dupe limit
    if (deal !== null && new D(deal.buys - 1).greaterThanOrEqualTo(r.max_dupe_buy_times)) return;
    // 3.1.2: A = min(a × buy_percentage / 100, max_buy_amount, max_position_amount − usd_invested)
    const invested = deal !== null ? dealInvested(deal) : ZERO;
    const a = swap.usd_amount;
    const A = D.min(a.times(r.buy_percentage).dividedBy(100), r.max_buy_amount, r.max_position_amount.minus(invested));
    // 3.1.3 (model 1.1): skip when A ≤ max_position_amount × 10⁻²⁰ (covers A ≤ 0 and rounding dust)
    if (A.lessThanOrEqualTo(r.max_position_amount.times(new D('1e-20')))) return;
    // 3.3: p and L of a copied swap: its usd_price, its usd_liquidity or else the known one
    const L = swap.usd_liquidity !== null ? swap.usd_liquidity : this.knownLiquidity(tokenKey);
    this.executeBuy(deal, swap, leader, A, swap.usd_price, L);
  }

  /** 3.2: copying a leader sell; `h` = the leader's holdings just before this sell. */
  copySell(swap: Swap, leader: number, h: D): void {
    const tokenKey = this.key(swap.token);
    const deal = this.openDeal(tokenKey);
    if (deal === null) return;
    const L = swap.usd_liquidity !== null ? swap.usd_liquidity : this.knownLiquidity(tokenKey);
    if (this.request.close_all) {
      // 3.2: close_all sells the whole qty (all lots) in one sell trade, for a sell of any leader
      const Q = dealQty(deal);
      emptyLots(deal);
      this.executeSell(deal, 'sell', swap.time, Q, swap.usd_price, L, 'close_all');
      return;
    }
    const lot = deal.lots.get(leader) ?? ZERO;
    if (lot.isZero()) return;
    const q = swap.quantity;
    let Q: D;
    if (h.lessThanOrEqualTo(q)) {
      Q = lot; // f = 1: exactly lot_L
    } else {
      const f = q.dividedBy(h);
      Q = f.times(lot);
    }
    deal.lots.set(leader, lot.minus(Q));
    this.executeSell(deal, 'sell', swap.time, Q, swap.usd_price, L, null);
  }

  /** 3.4: the time-fix sell of a deal's whole qty at `time`, at the known price and liquidity. */
  timeFixSell(deal: Deal, time: number, type: 'sell_timefix' | 'sell_timefix_final'): void {
    const Q = dealQty(deal);
    emptyLots(deal);
    this.executeSell(deal, type, time, Q, this.knownPrice(deal.tokenKey), this.knownLiquidity(deal.tokenKey), type);
  }

  /** 3.4: due moment of an open deal = last_operation_time + hours × 3600. */
  dueTime(deal: Deal): number {
    const last = deal.trades[deal.trades.length - 1]!;
    return last.time + (this.request.inactivity_hours ?? 0) * 3600;
  }

  /** 1.1 step 1 / 3.4: fire every time-fix due at or before `limit`, earliest first, ties in deal order. */
  fireDueTimeFixes(limit: number): void {
    if (this.request.inactivity_hours === null) return;
    for (;;) {
      let next: Deal | null = null;
      for (const d of this.deals) {
        if (!dealIsOpen(d)) continue;
        const due = this.dueTime(d);
        if (due > limit || due > this.request.windowEnd) continue;
        if (next === null || due < this.dueTime(next)) next = d; // deals are in deal order: ties keep the first
      }
      if (next === null) return;
      this.timeFixSell(next, this.dueTime(next), 'sell_timefix');
    }
  }

  run(): void {
    const { windowStart, windowEnd } = this.request;
    // 1.1 event order: ascending time, stable for equal times
    const ordered = [...this.tape.swaps].sort((x, y) => x.time - y.time || x.index - y.index);
    for (const swap of ordered) {
      if (swap.time > windowEnd) break; // 2: swaps after window_end are ignored entirely
      // step 1
      this.fireDueTimeFixes(swap.time);
      // step 2: the swap becomes its token's latest price (and liquidity)
      this.processed.push(swap);
      // step 3: copy a leader's swap in the window, with holdings from before this swap
      const leader = this.leaderIndex(swap.wallet);
      const hk = this.holdingKey(leader, this.key(swap.token));
      const h = this.holdings.get(hk) ?? ZERO;
      if (leader >= 0 && swap.time >= windowStart && swap.time <= windowEnd) {
        if (swap.type === 'buy') this.copyBuy(swap, leader);
        else this.copySell(swap, leader, h);
      }
      // step 4: leader holdings (2): buy adds, sell subtracts floored at 0
      if (leader >= 0) {
        const next = swap.type === 'buy' ? h.plus(swap.quantity) : D.max(h.minus(swap.quantity), ZERO);
        this.holdings.set(hk, next);
      }
    }
    // after the last swap: time-fixes still due by window_end, then the final time-fix (3.4)
    if (this.request.inactivity_hours !== null) {
      this.fireDueTimeFixes(windowEnd);
      for (const d of this.deals) {
        if (dealIsOpen(d)) this.timeFixSell(d, windowEnd, 'sell_timefix_final');
      }
    }
  }
}

/** Sells every lot (close_all, time-fix): each lot to 0, their order kept. */
function emptyLots(deal: Deal): void {
  for (const leader of deal.lots.keys()) deal.lots.set(leader, ZERO);
}

/**
 * The simulator's 200 response body for a tape, a request and engine options, each the raw
 * JSON of the golden folders' tape.json, request.json and options.json.
 * Throws ReferenceInputError where the command would exit 1. `arithmetic` sets the digits and
 * rounding of every operation (default: the spec's 30 digits, decimal.js's default rounding).
 */
export function referenceSimulate(tape: unknown, request: unknown, options?: unknown, arithmetic: Arithmetic = SPEC_ARITHMETIC): unknown {
  useArithmetic(arithmetic);
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
  });
}
