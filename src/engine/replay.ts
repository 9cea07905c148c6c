import { Decimal, HUNDRED, ZERO } from '../model/decimal.js';
import type { EngineOptions } from '../model/options.js';
import { requestWindow, type SimulatorRequest, type Window } from '../model/request.js';
import type { Swap } from '../model/tape.js';
import { Deal, type TradeRecord } from './deal.js';
import { ExecutionModel } from './execution.js';
import { addressKey, type IndexedTape } from './tape-index.js';
import { TimeFixQueue } from './timefix.js';
import { UnrealizedBook } from './unrealized.js';

/** The running totals after one follower trade: one point of the PnL and fee chart. */
export interface ChartPoint {
  readonly time: number;
  readonly dealIndex: number;
  readonly realized: Decimal;
  readonly unrealized: Decimal;
  readonly feeSum: Decimal;
  readonly botFeeSum: Decimal;
}

/** What a replay leaves for the reports: the deals, the chart points and the prices at the end. */
export interface ReplayResult {
  readonly window: Window;
  readonly deals: readonly Deal[];
  readonly points: readonly ChartPoint[];
  /** Known price of a token at `window_end` (tokens of deals only). */
  readonly priceAtEnd: (tokenId: number) => Decimal;
}

/**
 * Replays a tape for one request (model 1.1 to 3.4): each swap in event order fires the due
 * time-fixes, becomes its token's latest price, is copied when a leader made it inside the
 * window, and moves the leader's holdings. Execution (slippage, fees) is the
 * {@link ExecutionModel}'s; the reports are built from the result elsewhere.
 */
export function replay(tape: IndexedTape, request: SimulatorRequest, options: EngineOptions): ReplayResult {
  return new Replay(tape, request, options).run();
}

class Replay {
  private readonly window: Window;
  private readonly exec: ExecutionModel;
  private readonly leaderOfWallet: Int32Array;
  private readonly leaderCount: number;
  /** Input index of the swap that last priced each token (-1: none yet). */
  private readonly lastPriced: Int32Array;
  /** Input index of the last swap of each token that carried a liquidity (-1: none). */
  private readonly lastLiquid: Int32Array;
  private readonly openDeal: (Deal | undefined)[];
  /** Leader holdings, keyed by `tokenId × leaderCount + leader`. */
  private readonly holdings = new Map<number, Decimal>();
  private readonly deals: Deal[] = [];
  private readonly points: ChartPoint[] = [];
  private readonly timeFix: TimeFixQueue | null;
  private readonly unrealized: UnrealizedBook;
  private readonly buyFraction: Decimal;
  private readonly maxBuy: Decimal;
  private readonly maxPosition: Decimal;
  private realized: Decimal = ZERO;
  private feeSum: Decimal = ZERO;
  private botFeeSum: Decimal = ZERO;

  constructor(
    private readonly tape: IndexedTape,
    private readonly request: SimulatorRequest,
    options: EngineOptions,
  ) {
    this.window = requestWindow(request);
    this.exec = new ExecutionModel(
      tape.network,
      options,
      request.priority_fee,
      request.bribe,
      request.include_bot_fees,
      tape.native,
    );
    this.leaderOfWallet = new Int32Array(tape.walletIds.size).fill(-1);
    request.wallets.forEach((wallet, leader) => {
      const id = tape.walletIds.get(addressKey(tape.network, wallet));
      if (id !== undefined) this.leaderOfWallet[id] = leader;
    });
    this.leaderCount = request.wallets.length;
    this.lastPriced = new Int32Array(tape.tokens.length).fill(-1);
    this.lastLiquid = new Int32Array(tape.tokens.length).fill(-1);
    this.openDeal = new Array<Deal | undefined>(tape.tokens.length).fill(undefined);
    const fix = request.inactivity_time_fix;
    this.timeFix = fix === null ? null : new TimeFixQueue(fix.hours * 3600);
    this.unrealized = new UnrealizedBook((tokenId) => this.knownPrice(tokenId));
    this.buyFraction = new Decimal(request.buy_percentage).div(HUNDRED);
    this.maxBuy = new Decimal(request.max_buy_amount);
    this.maxPosition = new Decimal(request.max_position_amount);
  }

  run(): ReplayResult {
    const { order, swaps, walletOf, tokenOf } = this.tape;
    const { start, end } = this.window;
    for (let k = 0; k < order.length; k++) {
      const i = order[k]!;
      const swap = swaps[i]!;
      const time = swap.time;
      if (time > end) break;
      if (this.timeFix !== null) this.fireTimeFixes(time);
      const tokenId = tokenOf[i]!;
      this.lastPriced[tokenId] = i;
      if (swap.usd_liquidity != null) this.lastLiquid[tokenId] = i;
      const deal = this.openDeal[tokenId];
      if (deal !== undefined) this.unrealized.markDirty(deal);
      const leader = this.leaderOfWallet[walletOf[i]!]!;
      if (leader >= 0) {
        const key = tokenId * this.leaderCount + leader;
        const held = this.holdings.get(key) ?? ZERO;
        const quantity = new Decimal(swap.quantity);
        if (time >= start) {
          if (swap.type === 'buy') this.copyBuy(swap, leader, tokenId);
          else this.copySell(swap, leader, tokenId, held, quantity);
        }
        this.holdings.set(key, swap.type === 'buy' ? held.plus(quantity) : Decimal.max(held.minus(quantity), ZERO));
      }
    }
    if (this.timeFix !== null) {
      this.fireTimeFixes(end);
      for (const deal of this.deals) {
        if (deal.open) this.sellAll(deal, 'sell_timefix_final', end);
      }
    }
    return { window: this.window, deals: this.deals, points: this.points, priceAtEnd: (t) => this.knownPrice(t) };
  }

  /** Known price of a token now: the `usd_price` of its last swap so far. */
  private knownPrice(tokenId: number): Decimal {
    return new Decimal(this.tape.swaps[this.lastPriced[tokenId]!]!.usd_price);
  }

  /** Known liquidity of a token now: its last non-null `usd_liquidity`, or null. */
  private knownLiquidity(tokenId: number): Decimal | null {
    const i = this.lastLiquid[tokenId]!;
    return i < 0 ? null : new Decimal(this.tape.swaps[i]!.usd_liquidity!);
  }

  /** Model 3.1. */
  private copyBuy(swap: Swap, leader: number, tokenId: number): void {
    const deal = this.openDeal[tokenId];
    if (deal !== undefined && deal.buys - 1 >= this.request.max_dupe_buy_times) return;
    const leaderUsd =
      swap.usd_amount !== undefined ? new Decimal(swap.usd_amount) : new Decimal(swap.quantity).times(swap.usd_price);
    const room = deal === undefined ? this.maxPosition : this.maxPosition.minus(deal.invested);
    const amount = Decimal.min(leaderUsd.times(this.buyFraction), this.maxBuy, room);
    if (amount.lte(0)) return;
    const liquidity = this.knownLiquidity(tokenId);
    const fill = this.exec.buy(amount, new Decimal(swap.usd_price), liquidity);
    const fees = this.exec.fees(amount, swap.time);
    let target = deal;
    if (target === undefined) {
      target = new Deal(this.deals.length, tokenId, swap.time);
      this.deals.push(target);
      this.openDeal[tokenId] = target;
      this.unrealized.open(target);
    }
    this.afterTrade(target, target.addBuy(leader, swap.time, fill, liquidity, fees));
  }

  /** Model 3.2; `held` is the leader's holdings just before this sell. */
  private copySell(swap: Swap, leader: number, tokenId: number, held: Decimal, quantity: Decimal): void {
    const deal = this.openDeal[tokenId];
    if (deal === undefined) return;
    if (this.request.close_all) {
      this.sellAll(deal, 'sell', swap.time);
      return;
    }
    const lot = deal.lot(leader);
    if (lot.isZero()) return;
    const sold = held.lte(quantity) ? lot : lot.times(quantity.div(held));
    const liquidity = this.knownLiquidity(tokenId);
    const fill = this.exec.sell(sold, new Decimal(swap.usd_price), liquidity);
    const fees = this.exec.fees(fill.usdAmount, swap.time);
    const trade = deal.addSell('sell', leader, swap.time, fill, liquidity, fees);
    if (deal.qty.isZero()) deal.close(null);
    this.afterTrade(deal, trade);
  }

  /** Sells a deal's whole position at the known price and closes it (close_all and time-fixes). */
  private sellAll(deal: Deal, type: 'sell' | 'sell_timefix' | 'sell_timefix_final', time: number): void {
    const liquidity = this.knownLiquidity(deal.tokenId);
    const fill = this.exec.sell(deal.qty, this.knownPrice(deal.tokenId), liquidity);
    const fees = this.exec.fees(fill.usdAmount, time);
    const trade = deal.addSell(type, null, time, fill, liquidity, fees);
    deal.close(type === 'sell' ? 'close_all' : type);
    this.afterTrade(deal, trade);
  }

  /** Model 3.4, in the middle: closes every deal inactive since `hours` by `until`. */
  private fireTimeFixes(until: number): void {
    const queue = this.timeFix!;
    for (let due = queue.takeDue(until); due !== null; due = queue.takeDue(until)) {
      for (const deal of due.deals) this.sellAll(deal, 'sell_timefix', due.deadline);
    }
  }

  private afterTrade(deal: Deal, trade: TradeRecord): void {
    this.realized = this.realized.plus(trade.realized);
    this.feeSum = this.feeSum.plus(trade.networkFee).plus(trade.botFee);
    this.botFeeSum = this.botFeeSum.plus(trade.botFee);
    if (deal.open) {
      this.timeFix?.touch(deal, trade.time);
      this.unrealized.markDirty(deal);
    } else {
      this.openDeal[deal.tokenId] = undefined;
      this.unrealized.close(deal);
    }
    this.points.push({
      time: trade.time,
      dealIndex: deal.index,
      realized: this.realized,
      unrealized: this.unrealized.total(),
      feeSum: this.feeSum,
      botFeeSum: this.botFeeSum,
    });
  }
}
