import { Decimal, HUNDRED } from '../numeric/decimal.js';
import type { EngineOptions } from '../model/options.js';
import { requestWindow, type Network, type SimulatorRequest, type Window } from '../model/request.js';
import type { SkippedCopyJson, SpecialTag, TradeType } from '../model/response.js';
import { NO_STRATEGY } from '../model/strategy.js';
import type { Swap } from '../model/tape.js';
import { BuyFilters, type SkipReason } from './buy-filters.js';
import { ExitRules } from './exit-rules.js';
import { Deal, DealTotals } from './deal.js';
import { ExecutionModel, type Fill } from './execution.js';
import { IndexedKnownPrices, KnownPrices, type PriceBook, type PriceTick } from './known-prices.js';
import { IndexedLeaderFacts, StreamLeaderFacts, type LeaderFacts } from './leader-facts.js';
import type { NativePriceSeries } from './native-prices.js';
import { ChartSums } from './chart-sums.js';
import { addressKey, type IndexedTape } from './tape-index.js';
import { SWAP_ROW, tapeMemo, TIME } from './tape-memo.js';
import { Scheduler, type PendingCopy } from './scheduler.js';
import { SkipLog } from './skip-log.js';
import { PointLog, TradeLog } from './trade-log.js';
import { UnrealizedBook } from './unrealized.js';

/** Model 3.1 step 3: the share of `max_position_amount` at or below which a buy is dust. */
const DUST_FRACTION = new Decimal('1e-20');

export type { ChartPoint, TradeRecord } from './trade-log.js';

/** What a replay leaves for the reports: the deals, their trades, the chart points and the prices at the end. */
export interface ReplayResult {
  readonly window: Window;
  readonly deals: readonly Deal[];
  /** The follower trades (empty when not kept, see {@link ReplayControl.trades}); deals hold their rows. */
  readonly trades: TradeLog;
  /** Points of the PnL and fee chart (empty without the chart). */
  readonly points: PointLog;
  /** Known price of a token at `window_end` (tokens of deals only). */
  readonly priceAtEnd: (tokenId: number) => Decimal;
  /** The deals' fee, slippage and volume sums, added up (every deal is settled by the end). */
  readonly totals: DealTotals;
  /** The leader swaps not copied, when the strategy asks for them (`report_skipped`), else null. */
  readonly skipped: readonly SkippedCopyJson[] | null;
}

/** Hooks into a long replay and what to keep of it. */
export interface ReplayControl {
  /** Called now and then with the swaps replayed so far and the total; never changes the result. */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * False to skip the points of the PnL and fee chart, and the valuations of open deals they
   * need, when only the summary and the deals are wanted (a sweep). Default true.
   */
  readonly chart?: boolean;
  /**
   * False to keep no record of the trades, only each deal's sums (a sweep's summary needs no
   * more). Default true.
   */
  readonly trades?: boolean;
}

/** What a {@link Replay} is set up with. */
export interface ReplaySetup {
  readonly network: Network;
  readonly native: NativePriceSeries;
  readonly request: SimulatorRequest;
  readonly options: EngineOptions;
  /** Tokens known in advance (more may come, as in a streamed tape). */
  readonly tokenCount?: number;
  /** Keep the PnL chart's points (see {@link ReplayControl.chart}). */
  readonly chart?: boolean;
  /** Keep the trades (see {@link ReplayControl.trades}). */
  readonly trades?: boolean;
  /** Leader holdings and the like; default: computed as the swaps come ({@link StreamLeaderFacts}). */
  readonly facts?: LeaderFacts;
  /** Known prices; default: kept from the swaps as they come ({@link KnownPrices}). */
  readonly prices?: PriceBook;
  /** Told when a deal opens in a token (true) and when it closes (false): for a walk of many followers. */
  readonly onHolding?: (tokenId: number, held: boolean) => void;
  /** What follows from the settings alone, made once for many followers of the same settings ({@link replaySettings}). */
  readonly settings?: ReplaySettings;
}

/**
 * What a replay derives from its request's settings alone, not from its wallets: the window, the
 * execution model and the buy sizing's decimals. Followers of one walk with the same settings
 * (a ranking's every wallet) share one, instead of each parsing the dates and the amounts again.
 * The execution model's only state is a memo of the last native price's fee, the same for
 * every follower at the same time.
 */
export interface ReplaySettings {
  readonly window: Window;
  readonly exec: ExecutionModel;
  readonly buyFraction: Decimal;
  /** The strategy's `fixed_buy_amount`, replacing `a × buy_percentage / 100`. */
  readonly fixedBuy: Decimal | null;
  readonly maxBuy: Decimal;
  readonly maxPosition: Decimal;
  /** Model 3.1 step 3: a buy of at most this is dust (`max_position_amount × 10⁻²⁰`) and skipped. */
  readonly dustLimit: Decimal;
}

/** The {@link ReplaySettings} of a request. */
export function replaySettings({ network, native, request, options, trades = true }: ReplaySetup): ReplaySettings {
  const strategy = request.strategy ?? NO_STRATEGY;
  const maxPosition = new Decimal(request.max_position_amount);
  return {
    window: requestWindow(request),
    exec: new ExecutionModel({
      network,
      options,
      priorityFee: request.priority_fee,
      bribe: request.bribe,
      includeBotFees: request.include_bot_fees,
      native,
      printed: trades,
    }),
    buyFraction: new Decimal(request.buy_percentage).div(HUNDRED),
    fixedBuy: strategy.fixed_buy_amount === null ? null : new Decimal(strategy.fixed_buy_amount),
    maxBuy: new Decimal(request.max_buy_amount),
    maxPosition,
    dustLimit: maxPosition.times(DUST_FRACTION),
  };
}

/**
 * A key equal for two requests exactly when their {@link ReplaySettings} are equal (with the same
 * tape, options and `trades`).
 */
export function replaySettingsKey(request: SimulatorRequest): string {
  return JSON.stringify([
    request.from_date,
    request.to_date,
    request.priority_fee,
    request.bribe,
    request.include_bot_fees,
    request.buy_percentage,
    request.strategy?.fixed_buy_amount ?? null,
    request.max_buy_amount,
    request.max_position_amount,
  ]);
}

/** Swaps between two progress reports. */
export const PROGRESS_EVERY = 1 << 16;

/**
 * Replays an indexed tape for one request (model 1.1 to 3.4): the swaps in event order, up to
 * the last one at or before `window_end`, through a {@link Replay}.
 *
 * @example
 * const result = replay(indexTape(tape), request, resolveEngineOptions({}));
 * result.deals.length;
 */
export function replay(tape: IndexedTape, request: SimulatorRequest, options: EngineOptions, control: ReplayControl = {}): ReplayResult {
  const { network, native } = tape;
  const run = new Replay({
    network,
    native,
    request,
    options,
    tokenCount: tape.tokens.length,
    chart: control.chart ?? true,
    trades: control.trades ?? true,
    facts: new IndexedLeaderFacts(tape),
    prices: new IndexedKnownPrices(tape),
  });
  const leaderOfWallet = new Int32Array(tape.walletIds.size).fill(-1);
  request.wallets.forEach((wallet, leader) => {
    const id = tape.walletIds.get(addressKey(tape.network, wallet));
    if (id !== undefined) leaderOfWallet[id] = leader;
  });
  replaySwaps(run, tape, leaderOfWallet, control.onProgress);
  control.onProgress?.(tape.order.length, tape.order.length);
  return run.finish();
}

/**
 * The replay's loop: every swap up to `window_end`, in event order, through `run`. A function of
 * its own, so that the optimised code V8 makes for the loop ends with it: code after the loop
 * in the same function (the finish) has no type feedback when the loop is compiled, and every
 * replay would leave the loop's compiled code there by a deoptimisation.
 */
function replaySwaps(run: Replay, tape: IndexedTape, leaderOfWallet: Int32Array, onProgress: ReplayControl['onProgress']): void {
  const { order, swaps, walletOf, tokenOf } = tape;
  const memo = tapeMemo(tape);
  const timeline = memo.timeline();
  const buys = memo.buys();
  const end = run.window.end;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const time = timeline[SWAP_ROW * i + TIME]!;
    if (time > end) break;
    run.step(swaps[i]!, tokenOf[i]!, leaderOfWallet[walletOf[i]!]!, i, time, buys[i] === 1);
    if (onProgress !== undefined && (k & (PROGRESS_EVERY - 1)) === 0) onProgress(k, order.length);
  }
}

/**
 * One simulation in progress (model 1.1 to 3.4). Fed the swaps in event order with {@link step},
 * each one fires the due time-fixes, becomes its token's latest price, is copied when a leader
 * made it inside the window, and moves the leader's holdings; {@link finish} closes the window.
 * Execution (slippage, fees) is the {@link ExecutionModel}'s; the reports are built elsewhere.
 *
 * State grows with tokens, leaders and deals, never with the tape, so a streamed tape of any
 * length can be fed through it.
 */
export class Replay {
  readonly window: Window;
  private readonly exec: ExecutionModel;
  private readonly prices: PriceBook;
  /** The open deal of each token, by token id. */
  private readonly openDeal: (Deal | undefined)[];
  private readonly facts: LeaderFacts;
  private readonly deals: Deal[] = [];
  private readonly points = new PointLog();
  /** Where deals record their trades (null: not kept). */
  private readonly trades: TradeLog | null;
  /** Time-fixes, and with a strategy max-hold exits and delayed copies. */
  private readonly scheduler: Scheduler;
  /**
   * The scheduler's next due time (a lower bound), kept up to date after every change of the
   * scheduler: the one test every swap makes costs a field read, not a walk of its queues.
   */
  private nextDue = Infinity;
  /** The strategy's price exits, buy filters and skip log; null when it has none. */
  private readonly exits: ExitRules | null;
  private readonly filters: BuyFilters | null;
  private readonly skipped: SkipLog | null;
  /** Null when the chart is not wanted: then nothing is valued before the end. */
  private readonly unrealized: UnrealizedBook | null;
  private readonly request: SimulatorRequest;
  private readonly buyFraction: Decimal;
  /** The strategy's `fixed_buy_amount`, replacing `a × buy_percentage / 100`. */
  private readonly fixedBuy: Decimal | null;
  private readonly maxBuy: Decimal;
  private readonly maxPosition: Decimal;
  /** Model 3.1 step 3: a buy of at most this is dust (`max_position_amount × 10⁻²⁰`) and skipped. */
  private readonly dustLimit: Decimal;
  /** The chart's realized PnL, fee and bot fee sums (null without the chart). */
  private readonly sums: ChartSums | null;
  private readonly totals = new DealTotals();
  private readonly onHolding: ((tokenId: number, held: boolean) => void) | null;

  constructor(setup: ReplaySetup) {
    const { request, tokenCount = 0, chart = true, trades = true, facts, prices, onHolding } = setup;
    const settings = setup.settings ?? replaySettings(setup);
    this.request = request;
    this.onHolding = onHolding ?? null;
    this.facts = facts ?? new StreamLeaderFacts(request.wallets.length);
    this.window = settings.window;
    this.exec = settings.exec;
    this.trades = trades ? new TradeLog({ botFeeRate: this.exec.botFeeRate, valuedAfterTrades: chart }) : null;
    this.prices = prices ?? new KnownPrices(tokenCount);
    this.openDeal = new Array<Deal | undefined>(tokenCount).fill(undefined);
    const strategy = request.strategy ?? NO_STRATEGY;
    this.scheduler = new Scheduler({
      timeFixSeconds: request.inactivity_time_fix === null ? null : request.inactivity_time_fix.hours * 3600,
      maxHoldSeconds: strategy.max_hold_hours === null ? null : strategy.max_hold_hours * 3600,
      copyDelaySeconds: strategy.copy_delay_seconds,
      windowEnd: this.window.end,
    });
    this.exits = ExitRules.of(strategy);
    this.filters = BuyFilters.of(strategy);
    this.skipped = strategy.report_skipped ? new SkipLog() : null;
    this.unrealized = chart ? new UnrealizedBook(this.prices) : null;
    this.sums = chart ? new ChartSums(this.exec.botFeeRate) : null;
    this.buyFraction = settings.buyFraction;
    this.fixedBuy = settings.fixedBuy;
    this.maxBuy = settings.maxBuy;
    this.maxPosition = settings.maxPosition;
    this.dustLimit = settings.dustLimit;
  }

  /**
   * One step of the replay for a swap at or before `window_end`, in event order; `leader` is
   * the index of its wallet in the request's `wallets`, or -1 for market data; `i` is its index
   * in an indexed tape (for the {@link LeaderFacts} and prices kept with it), `time` its time and
   * `buy` its side (an indexed replay reads both from typed arrays: once the tape's memo holds
   * a swap's decimals, its object is never read).
   */
  step(swap: Swap, tokenId: number, leader: number, i = -1, time = swap.time, buy = swap.type === 'buy'): void {
    // 1. the scheduled actions due by now; 2. the swap's price, and what it moves of an open deal;
    // 3. a leader's swap in the window is copied, now or after the delay; 4. its holdings move.
    this.observe(swap, tokenId, i, time);
    if (leader >= 0) this.leaderSwap(swap, tokenId, leader, i, time, buy);
  }

  /** Steps 1 and 2 of {@link step}, all a swap of a wallet not followed takes part in. */
  observe(tick: PriceTick, tokenId: number, i = -1, time = tick.time): void {
    if (this.nextDue <= time) this.fireScheduled(time);
    this.prices.observe(tokenId, tick, i);
    this.priceRecorded(tokenId, time);
  }

  /**
   * The next time a scheduled action may be due (Infinity when none is): a replay that walks a
   * tape for many followers at once fires a follower's actions, with {@link fireDue}, before
   * recording a swap at or after it.
   */
  get dueTime(): number {
    return this.nextDue;
  }

  /** Step 1 alone: the actions due by `time`. */
  fireDue(time: number): void {
    if (this.nextDue <= time) this.fireScheduled(time);
  }

  /**
   * Step 2's consequences for this follower, once the swap's price is recorded in the shared
   * price book: the open deal of the token is to be re-valued, and its exits checked.
   */
  priceRecorded(tokenId: number, time: number): void {
    const deal = this.openDeal[tokenId];
    if (deal !== undefined) {
      this.unrealized?.priceMoved(tokenId);
      if (this.exits !== null) this.checkExits(this.exits, deal, time);
    }
  }

  /** True when a price of a token it holds matters between its own trades (the chart, price exits). */
  get watchesPrices(): boolean {
    return this.unrealized !== null || this.exits !== null;
  }

  /** Steps 3 and 4 for a swap of leader `leader` (its index in the request's wallets). */
  leaderSwap(swap: Swap, tokenId: number, leader: number, i: number, time: number, buy: boolean): void {
    const held = this.facts.holdingsBefore(swap, i, tokenId, leader);
    if (time < this.window.start) return;
    if (this.scheduler.delaysCopies) this.schedule({ due: time + this.scheduler.copyDelay, swap, index: i, leader, tokenId, buy, held });
    else if (buy) this.copyBuy(swap, i, leader, tokenId, time);
    else this.copySell(swap, i, leader, tokenId, held, time);
  }

  /**
   * Closes the window: the actions due by `window_end`, then the final time-fix (model 3.4); the
   * delayed copies due later never fire (strategy extensions 2).
   */
  finish(): ReplayResult {
    const { end } = this.window;
    this.fireScheduled(end);
    if (this.request.inactivity_time_fix !== null) {
      for (const deal of this.deals) {
        if (deal.open) this.sellAll(deal, 'sell_timefix_final', end);
      }
    }
    if (this.skipped !== null) {
      for (const copy of this.scheduler.unfired()) this.skip(copy.swap, copy.buy, copy.due, 'after_window');
    }
    // The open deals' prices at window_end, taken now: a price book shared with other followers
    // (replayFollowers) moves on after this follower's window has ended.
    const atEnd = new Map<number, Decimal>();
    for (const deal of this.deals) {
      if (!deal.open) continue;
      deal.settle(this.totals);
      atEnd.set(deal.tokenId, this.prices.priceOf(deal.tokenId));
    }
    return {
      window: this.window,
      deals: this.deals,
      trades: this.trades ?? new TradeLog(),
      points: this.points,
      priceAtEnd: (t) => atEnd.get(t) ?? this.prices.priceOf(t),
      totals: this.totals,
      skipped: this.skipped?.entries ?? null,
    };
  }

  /**
   * Model 3.1 with the strategy's sizing and filters, for a copy at `time`: the leader's swap
   * itself, or its delayed copy (then the known price and liquidity are those of that moment).
   */
  private copyBuy(swap: Swap, i: number, leader: number, tokenId: number, time: number): void {
    const deal = this.openDeal[tokenId];
    if (deal !== undefined && deal.buys - 1 >= this.request.max_dupe_buy_times) return this.skip(swap, true, time, 'dupe_limit');
    const liquidity = this.prices.liquidityOf(tokenId);
    if (this.filters !== null) {
      const reason = this.filters.check(this.facts.usdAmount(swap, i), liquidity, time, this.prices.firstSeenOf(tokenId));
      if (reason !== null) return this.skip(swap, true, time, reason);
    }
    const room = deal === undefined ? this.maxPosition : this.maxPosition.minus(deal.invested);
    // A full position leaves rounding dust as room, not space to buy (model 1.1, 3.1 step 3).
    if (room.lte(this.dustLimit)) return this.skip(swap, true, time, 'position_full');
    let amount = this.fixedBuy ?? this.facts.usdAmount(swap, i).times(this.buyFraction);
    if (this.maxBuy.lt(amount)) amount = this.maxBuy;
    if (room.lt(amount)) amount = room;
    if (amount.lte(this.dustLimit)) return this.skip(swap, true, time, 'position_full');
    const price = this.prices.priceOf(tokenId);
    const fill = this.exec.buy(amount, price, liquidity);
    const networkFee = this.exec.networkFee(time);
    let target = deal;
    if (target === undefined) {
      target = new Deal({
        index: this.deals.length,
        tokenId,
        tokenAddress: swap.token,
        leader,
        time,
        botFeeRate: this.exec.botFeeRate,
        detailed: this.trades !== null,
      });
      this.deals.push(target);
      this.openDeal[tokenId] = target;
      this.scheduler.opened(target);
      this.exits?.opened(target.index, price);
      this.onHolding?.(tokenId, true);
    }
    target.addBuy(leader, time, fill, networkFee);
    this.trades?.record(target, 'buy', fill, liquidity, networkFee);
    this.afterTrade(target, fill, networkFee, null);
  }

  /** Model 3.2 for a copy at `time`; `held` is the leader's holdings just before its sell. */
  private copySell(swap: Swap, i: number, leader: number, tokenId: number, held: Decimal, time: number): void {
    const deal = this.openDeal[tokenId];
    if (deal === undefined) return this.skip(swap, false, time, 'no_open_deal');
    if (this.request.close_all) {
      this.sellAll(deal, 'sell', time);
      return;
    }
    const lot = deal.lot(leader);
    if (lot.isZero()) return this.skip(swap, false, time, 'no_lot');
    const fraction = this.facts.sellFraction(swap, i, held);
    const sold = fraction === null ? lot : lot.times(fraction);
    const liquidity = this.prices.liquidityOf(tokenId);
    const fill = this.exec.sell(sold, this.prices.priceOf(tokenId), liquidity);
    const networkFee = this.exec.networkFee(time);
    const cost = deal.addSell(leader, time, fill, networkFee);
    this.trades?.record(deal, 'sell', fill, liquidity, networkFee);
    if (deal.qty.isZero()) deal.close(null);
    this.afterTrade(deal, fill, networkFee, cost);
  }

  /** Strategy extensions 5: the price exits at the swap just recorded for `deal`'s token. */
  private checkExits(exits: ExitRules, deal: Deal, time: number): void {
    exits.observe(deal, this.prices);
    for (let sell = exits.nextSell(deal); sell !== null; sell = exits.nextSell(deal)) {
      if (sell.share === null) this.sellAll(deal, sell.type, time);
      else this.sellShare(deal, sell.type, sell.share, time);
    }
  }

  /** Sells a deal's whole position at the known price and closes it (close_all, time-fixes, exits). */
  private sellAll(deal: Deal, type: WholeSell, time: number): void {
    const liquidity = this.prices.liquidityOf(deal.tokenId);
    const fill = this.exec.sell(deal.qty, this.prices.priceOf(deal.tokenId), liquidity);
    const networkFee = this.exec.networkFee(time);
    const cost = deal.addSell(null, time, fill, networkFee);
    this.trades?.record(deal, type, fill, liquidity, networkFee);
    deal.close(CLOSING_TAG[type]);
    this.afterTrade(deal, fill, networkFee, cost);
  }

  /** Sells the share `share` (< 1) of every lot of a deal at the known price (a take-profit level). */
  private sellShare(deal: Deal, type: TradeType, share: Decimal, time: number): void {
    const liquidity = this.prices.liquidityOf(deal.tokenId);
    const fill = this.exec.sell(deal.shareOfLots(share), this.prices.priceOf(deal.tokenId), liquidity);
    const networkFee = this.exec.networkFee(time);
    const cost = deal.addShareSell(share, time, fill, networkFee);
    this.trades?.record(deal, type, fill, liquidity, networkFee);
    this.afterTrade(deal, fill, networkFee, cost);
  }

  /** Strategy extensions 2: a leader swap's copy waits for the delay. */
  private schedule(copy: PendingCopy): void {
    this.scheduler.schedule(copy);
    this.nextDue = this.scheduler.nextDue;
  }

  /** Step 1 (strategy extensions 6): fires the scheduled actions due by `until`, first due first. */
  private fireScheduled(until: number): void {
    for (let action = this.scheduler.next(until); action !== null; action = this.scheduler.next(until)) {
      if (action.kind === 'time_fix') {
        for (const deal of action.deals) this.sellAll(deal, 'sell_timefix', action.due);
      } else if (action.kind === 'max_hold') {
        this.sellAll(action.deal, 'sell_max_hold', action.due);
      } else {
        const { swap, index, leader, tokenId, buy, held } = action.copy;
        if (buy) this.copyBuy(swap, index, leader, tokenId, action.due);
        else this.copySell(swap, index, leader, tokenId, held, action.due);
      }
    }
    this.nextDue = this.scheduler.nextDue;
  }

  /** Notes a leader swap not copied, when the strategy asks for the skip log. */
  private skip(swap: Swap, buy: boolean, time: number, reason: SkipReason): void {
    this.skipped?.add(time, swap.wallet, swap.token, buy, reason);
  }

  /** After a trade of `deal`: its time-fix, the open deal of its token, the chart. `cost`: a sell's cost. */
  private afterTrade(deal: Deal, fill: Fill, networkFee: Decimal, cost: Decimal | null): void {
    if (deal.open) {
      this.scheduler.traded(deal, deal.lastOperationTime);
    } else {
      this.openDeal[deal.tokenId] = undefined;
      this.onHolding?.(deal.tokenId, false);
    }
    this.nextDue = this.scheduler.nextDue;
    if (this.unrealized !== null) this.addChartPoint(deal, this.unrealized, this.sums!, fill, networkFee, cost);
    if (!deal.open) deal.settle(this.totals);
  }

  /**
   * One point of the PnL and fee chart: the running totals after a trade, whose realized PnL is
   * its gain (`usd_amount − cost` of a sell, 0 of a buy) less its fees (model 4).
   */
  private addChartPoint(deal: Deal, unrealized: UnrealizedBook, sums: ChartSums, fill: Fill, networkFee: Decimal, cost: Decimal | null): void {
    sums.addTrade(fill.usdAmount, cost, networkFee);
    if (deal.open) unrealized.traded(deal);
    else unrealized.close(deal);
    sums.read();
    unrealized.read(sums);
    this.points.add(deal, sums, unrealized);
  }
}

/** The trades that sell a whole position, and the tag each gives the deal it closes. */
type WholeSell = Exclude<TradeType, 'buy'>;
const CLOSING_TAG: Readonly<Record<WholeSell, SpecialTag>> = {
  sell: 'close_all',
  sell_timefix: 'sell_timefix',
  sell_timefix_final: 'sell_timefix_final',
  sell_take_profit: 'take_profit',
  sell_stop_loss: 'stop_loss',
  sell_trailing_stop: 'trailing_stop',
  sell_max_hold: 'max_hold',
};
