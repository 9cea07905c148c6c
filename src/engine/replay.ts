import { type Decimal, toJsonNumber, ZERO } from '../numeric/decimal.js';
import { printedQuotient } from '../numeric/printed-double.js';
import type { EngineOptions } from '../model/options.js';
import { requestWindow, type Network, type SimulatorRequest, type Window } from '../model/request.js';
import type { SkippedCopyJson, SpecialTag, TradeType } from '../model/response.js';
import { NO_STRATEGY, reportsCopier, type Strategy } from '../model/strategy.js';
import { BuySizer } from './buy-sizer.js';
import { Draws, percentOf, type Percent } from './draws.js';
import { CopierCash } from './copier-cash.js';
import { FollowerLedger } from './follower-ledger.js';
import { HeldValue } from './held-value.js';
import { LeaderBook } from './leader-book.js';
import { SlippageTolerance } from './slippage-tolerance.js';
import type { Liquidity } from './liquidity.js';
import type { Swap } from '../model/tape.js';
import { BuyFilters, type SkipReason } from './buy-filters.js';
import { ExitRules } from './exits/index.js';
import { EXIT_KINDS } from '../model/exits.js';
import { type ClosedDealSink, ClosingQueue } from './closing-queue.js';
import { Deal, type DealTotals } from './deal.js';
import { OpenDeals } from './open-deals.js';
import { ExecutionModel, type Fill } from './execution.js';
import { IndexedKnownPrices, KnownPrices, PriceThreshold, type PriceBook, type PriceTick } from './known-prices.js';
import { IndexedLeaderFacts, StreamLeaderFacts, type LeaderFacts } from './leader-facts.js';
import type { NativePriceSeries } from './native-prices.js';
import { ChartSums } from './chart-sums.js';
import { addressKey, type IndexedTape } from './tape-index.js';
import { SWAP_ROW, tapeMemo, TIME } from './tape-memo.js';
import { Scheduler, type PendingCopy } from './scheduler.js';
import { SkipLog } from './skip-log.js';
import { PointLog, TradeLog } from './trade-log.js';
import { UnrealizedBook } from './unrealized.js';
import type { DealTerms } from './deal-terms.js';

export type { ChartPoint, TradeRecord } from './trade-row.js';

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
  /** Each leader's share of the result, when the strategy asks for it (`report_leaders`), else null. */
  readonly leaders: LeaderBook | null;
  /** The request's `wallets`, as it spells them. */
  readonly wallets: readonly string[];
  /** The copier's wallet, when the strategy sets one of its members (copier-wallet.md 7), else null. */
  readonly copier: CopierResult | null;
  /**
   * The least `max_dupe_buy_times` that lets through every dupe buy this run let through: each
   * limit from it to the request's own gives this very run, since the limit decides nothing else
   * (a sweep answers such requests with one run: `SharedRuns` in src/sweep/).
   */
  readonly leastDupeLimit: number;
  /**
   * The same by token id (0 for a token with no dupe buy let through, and past the array's end),
   * when the control asks for it (`byToken`), else null: without a strategy the deals of one
   * token depend on no other token's, so a limit from a token's entry up gives that token's deals.
   */
  readonly leastDupeLimitByToken: readonly number[] | null;
}

/** The copier's wallet at the end of a replay (copier-wallet.md 7), in exact decimals. */
export interface CopierResult {
  readonly ledger: CopierCash;
  /** `ending_cash + Σ open deals qty × known price at window_end`, null without a starting balance. */
  readonly endingEquity: Decimal | null;
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
  /**
   * True to keep the copier's cash and equity after each change of cash
   * (`ResponseParts.copierPoints`), which the HTML and text reports draw and a response does
   * not print. Default false.
   */
  readonly copierPoints?: boolean;
  /**
   * For a summary-only replay (`trades: false`, `chart: false`): where follower `f` (0 for
   * `replay`) puts each deal once it has closed, in closing order, instead of keeping it; the
   * result's `deals` are then the deals open at the end. Default: every deal is kept.
   */
  readonly closedDeals?: (follower: number) => ClosedDealSink;
  /**
   * For `replayFollowers`: false when no later walk follows these followers' leaders (a rank
   * copies each wallet in one walk), so that the swaps' price and liquidity decimals and the
   * leaders' holdings a walk makes are not kept with the tape for walks that would not read
   * them. Default true.
   */
  readonly keepTapeDecimals?: boolean;
  /**
   * For a run sliced by token (a sweep's, `src/sweep/token-slices.ts`): follower `f` copies only
   * the leader swaps of the tokens whose entry is 1 (undefined: every token).
   */
  readonly onlyTokens?: (follower: number) => Uint8Array | undefined;
  /**
   * True for a follower `f` that keeps, by token, the least dupe limit of its run
   * ({@link ReplayResult.leastDupeLimitByToken}), and what each deal added to the totals
   * ({@link Deal.settledTotals}): a sweep's lead, whose deals its members take. Default: none.
   */
  readonly byToken?: (follower: number) => boolean;
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
  /** Keep the copier's points (see {@link ReplayControl.copierPoints}); default: when the chart is kept. */
  readonly copierPoints?: boolean;
  /** Where closed deals go instead of the result (see {@link ReplayControl.closedDeals}). */
  readonly closedDeals?: ClosedDealSink;
  /** The tokens whose leader swaps are copied (see {@link ReplayControl.onlyTokens}); default every one. */
  readonly onlyTokens?: Uint8Array;
  /** See {@link ReplayControl.byToken}: this follower keeps its figures by token. */
  readonly byToken?: boolean;
  /** Leader holdings and the like; default: computed as the swaps come ({@link StreamLeaderFacts}). */
  readonly facts?: LeaderFacts;
  /** Known prices; default: kept from the swaps as they come ({@link KnownPrices}). */
  readonly prices?: PriceBook;
  /** Told when a deal opens in a token (true) and when it closes (false): for a walk of many followers. */
  readonly onHolding?: (tokenId: number, held: boolean) => void;
  /**
   * What follows from the settings alone, made once for many followers of the same settings
   * ({@link replaySettings}).
   */
  readonly settings?: ReplaySettings;
  /**
   * True when the price book is shared with other followers, which are told a price only when
   * they watch prices ({@link Replay.watchesPrices}): then the copier's equity finds the moved
   * prices itself.
   */
  readonly sharedPrices?: boolean;
}

/**
 * What a replay derives from its request's settings alone, not from its wallets: the window, the
 * execution model and the buy sizing. Followers of one walk with the same settings (a ranking's
 * every wallet) share one, instead of each parsing the dates and the amounts again. The
 * execution model's only state is a memo of the last native price's fee, the same for every
 * follower at the same time.
 */
export interface ReplaySettings {
  readonly window: Window;
  readonly exec: ExecutionModel;
  readonly sizer: BuySizer;
}

/**
 * The members of a request that {@link replaySettings} reads, and nothing else: the settings
 * are made from this object alone, and {@link replaySettingsKey} is this object, so a setting
 * added here is part of the key.
 */
function settingsInput(request: SimulatorRequest) {
  return {
    from_date: request.from_date,
    to_date: request.to_date,
    priority_fee: request.priority_fee,
    bribe: request.bribe,
    include_bot_fees: request.include_bot_fees,
    buy_percentage: request.buy_percentage,
    max_buy_amount: request.max_buy_amount,
    max_position_amount: request.max_position_amount,
    strategy: { fixed_buy_amount: request.strategy?.fixed_buy_amount ?? null } as Pick<Strategy, 'fixed_buy_amount'>,
  };
}

/** The {@link ReplaySettings} of a request. */
export function replaySettings({ network, native, request, options, trades = true }: ReplaySetup): ReplaySettings {
  const input = settingsInput(request);
  return {
    window: requestWindow(input),
    exec: new ExecutionModel({
      network,
      options,
      priorityFee: input.priority_fee,
      bribe: input.bribe,
      includeBotFees: input.include_bot_fees,
      native,
      printed: trades,
    }),
    sizer: new BuySizer({ ...input, strategy: { ...NO_STRATEGY, ...input.strategy } }),
  };
}

/**
 * A key equal for two requests exactly when their {@link ReplaySettings} are equal (with the same
 * tape, options and `trades`).
 */
export function replaySettingsKey(request: SimulatorRequest): string {
  return JSON.stringify(settingsInput(request));
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
export function replay(
  tape: IndexedTape,
  request: SimulatorRequest,
  options: EngineOptions,
  control: ReplayControl = {},
): ReplayResult {
  const { network, native } = tape;
  const run = new Replay({
    network,
    native,
    request,
    options,
    tokenCount: tape.tokens.length,
    ...setupFrom(control, 0),
    facts: new IndexedLeaderFacts(tape),
    prices: new IndexedKnownPrices(tape, PriceThreshold.of(options.min_price_swap_usd)),
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
 * What follower `follower` (0 for `replay`) of a replay of an indexed tape is set up with, as its
 * control asks: the chart and the trades unless told not to, the copier's points only when asked
 * for, where its closed deals go, the tokens it copies and whether it keeps its figures by token.
 */
export function setupFrom(
  control: ReplayControl,
  follower: number,
): Pick<ReplaySetup, 'chart' | 'trades' | 'copierPoints' | 'closedDeals' | 'onlyTokens' | 'byToken'> {
  const closedDeals = control.closedDeals?.(follower);
  const onlyTokens = control.onlyTokens?.(follower);
  return {
    chart: control.chart ?? true,
    trades: control.trades ?? true,
    copierPoints: control.copierPoints ?? false,
    ...(closedDeals !== undefined ? { closedDeals } : {}),
    ...(onlyTokens !== undefined ? { onlyTokens } : {}),
    byToken: control.byToken?.(follower) ?? false,
  };
}

/**
 * The replay's loop: every swap up to `window_end`, in event order, through `run`. A function of
 * its own, so that the optimised code V8 makes for the loop ends with it: code after the loop
 * in the same function (the finish) has no type feedback when the loop is compiled, and every
 * replay would leave the loop's compiled code there by a deoptimisation.
 */
function replaySwaps(
  run: Replay,
  tape: IndexedTape,
  leaderOfWallet: Int32Array,
  onProgress: ReplayControl['onProgress'],
): void {
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
  /** The open deal of each token, by token id, and how many deals are open. */
  private readonly openDeal: (Deal | undefined)[];
  private openCount = 0;
  private readonly facts: LeaderFacts;
  /** Every deal, in deal order; null when closed deals go to {@link closing}. */
  private readonly deals: Deal[] | null;
  private readonly closing: ClosingQueue | null;
  /** Without {@link deals}: the open deals, in deal order. */
  private readonly openDealList: OpenDeals | null;
  /** Deals opened so far: the next deal's index. */
  private dealCount = 0;
  private readonly points = new PointLog();
  /** Where deals record their trades (null: not kept). */
  private readonly trades: TradeLog | null;
  /** Time-fixes, and with a strategy max-hold exits, delayed copies and retries. */
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
  private readonly sizer: BuySizer;
  /** The follower's running state beside its deals: the summary's totals, the chart's sums, the copier's cash. */
  private readonly ledger: FollowerLedger;
  private readonly onHolding: ((tokenId: number, held: boolean) => void) | null;
  /** The copier's wallet (model 3.0); null when the request sets none of its members. */
  private readonly wallet: CopierWallet | null;
  /** Each leader's share (`report_leaders`), else null. */
  private readonly leaders: LeaderBook | null;
  /** Swaps observed so far: the event index of the next one (copier's wallet 6). */
  private events = 0;
  /** See {@link ReplayResult.leastDupeLimit}: the most dupe buys a deal had when one more was let through, plus one. */
  private leastDupeLimit = 0;
  /** See {@link ReplayResult.leastDupeLimitByToken}; null when not asked for. */
  private readonly leastDupeLimitByToken: number[] | null;
  /** See {@link ReplaySetup.onlyTokens}; null: every token. */
  private readonly onlyTokens: Uint8Array | null;

  constructor(setup: ReplaySetup) {
    const { request, options, tokenCount = 0, chart = true, trades = true, facts, prices, onHolding } = setup;
    const copierPoints = setup.copierPoints ?? chart;
    const settings = setup.settings ?? replaySettings(setup);
    this.request = request;
    this.onHolding = onHolding ?? null;
    this.closing = setup.closedDeals === undefined ? null : new ClosingQueue(setup.closedDeals);
    this.deals = this.closing === null ? [] : null;
    this.openDealList = this.closing === null ? null : new OpenDeals();
    this.leastDupeLimitByToken = setup.byToken === true ? [] : null;
    this.onlyTokens = setup.onlyTokens ?? null;
    this.facts = facts ?? new StreamLeaderFacts(request.wallets.length);
    this.window = settings.window;
    this.exec = settings.exec;
    this.sizer = settings.sizer;
    this.trades = trades
      ? new TradeLog({ botFees: this.exec.botFeeRate === null ? null : this.exec, valuedAfterTrades: chart })
      : null;
    this.prices = prices ?? new KnownPrices(tokenCount, PriceThreshold.of(options.min_price_swap_usd));
    this.openDeal = new Array<Deal | undefined>(tokenCount).fill(undefined);
    const strategy = request.strategy ?? NO_STRATEGY;
    this.exits = ExitRules.of(strategy);
    // A follower of a shared price book is told prices only when it watches them (the chart, exits).
    const toldPrices = setup.sharedPrices !== true || chart || this.exits !== null;
    // With the chart on, the copier's equity reads the chart's valuations of the open deals.
    this.unrealized = chart ? new UnrealizedBook(this.prices, reportsCopier(strategy)) : null;
    this.wallet = CopierWallet.of(
      strategy,
      this.prices,
      copierPoints,
      !toldPrices,
      this.unrealized?.sharedTerms ?? null,
    );
    this.leaders = strategy.report_leaders === true ? new LeaderBook(request.wallets.length) : null;
    this.scheduler = new Scheduler({
      timeFixSeconds: request.inactivity_time_fix === null ? null : request.inactivity_time_fix.hours * 3600,
      maxHoldSeconds: strategy.max_hold_hours === null ? null : strategy.max_hold_hours * 3600,
      copyDelaySeconds: strategy.copy_delay_seconds,
      windowEnd: this.window.end,
      retries: this.wallet !== null && this.wallet.retries > 0,
    });
    this.filters = BuyFilters.of(strategy);
    this.skipped = strategy.report_skipped ? new SkipLog() : null;
    this.ledger = new FollowerLedger(
      chart ? new ChartSums(this.exec.botFeeRate) : null,
      this.wallet?.cash ?? null,
      this.exec,
    );
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
    const event = this.events;
    const counted = this.observe(swap, tokenId, i, time);
    if (leader >= 0) this.leaderSwap(swap, tokenId, leader, i, time, buy, event, counted);
  }

  /**
   * Steps 1 and 2 of {@link step}, all a swap of a wallet not followed takes part in; false when
   * the swap is no price observation (below `min_price_swap_usd`).
   */
  observe(tick: PriceTick, tokenId: number, i = -1, time = tick.time): boolean {
    if (this.nextDue <= time) this.fireScheduled(time);
    const counted = this.prices.observe(tokenId, tick, i);
    this.events++;
    this.priceRecorded(tokenId, time, counted);
    return counted;
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
   * price book: the open deal of the token is to be re-valued, and its exits checked when the
   * swap is a price observation (`counted`: not below `min_price_swap_usd`).
   */
  priceRecorded(tokenId: number, time: number, counted = true): void {
    const deal = this.openDeal[tokenId];
    if (deal !== undefined) {
      this.unrealized?.priceMoved(tokenId);
      this.wallet?.held.priceMoved(tokenId);
      if (this.exits !== null && counted) this.checkExits(this.exits, deal, time);
    }
  }

  /** True when a price of a token it holds matters between its own trades (the chart, price exits). */
  get watchesPrices(): boolean {
    return this.unrealized !== null || this.exits !== null;
  }

  /**
   * Steps 3 and 4 for a swap of leader `leader` (its index in the request's wallets); `event` is
   * the swap's position in event order over the whole tape. An immediate copy trades at the
   * swap's own price and liquidity (the known liquidity when it carries none), whether or not
   * the swap was a price observation (`counted`, model 1.3's `min_price_swap_usd`): for one that
   * was, those are the known price and liquidity just recorded, already made as decimals.
   */
  leaderSwap(
    swap: Swap,
    tokenId: number,
    leader: number,
    i: number,
    time: number,
    buy: boolean,
    event = -1,
    counted = true,
  ): void {
    this.facts.moveHoldings(swap, i, tokenId, leader);
    if (time < this.window.start) return;
    // A run sliced by token: the leader's holdings above are still asked, in event order.
    if (this.onlyTokens !== null && this.onlyTokens[tokenId] !== 1) return;
    if (this.scheduler.delaysCopies) {
      this.schedule({
        due: time + this.scheduler.copyDelay,
        swap,
        index: i,
        event,
        leader,
        tokenId,
        buy,
        held: this.facts.heldBefore(),
        attempt: 0,
        quote: null,
      });
      return;
    }
    // Most of a busy leader's swaps are refused before a price is read (a buy into a deal at its
    // dupe limit, a sell of what the copier does not hold of it): their price and liquidity
    // decimals would be made for nothing.
    const refused = this.refusedOutright(tokenId, leader, buy);
    if (refused !== null) return this.skip(swap, leader, buy, time, refused);
    const prices = this.prices;
    const price = counted ? prices.priceOf(tokenId) : prices.swapPrice(swap, i);
    const liquidity = (counted ? null : prices.swapLiquidity(swap, i)) ?? prices.liquidityOf(tokenId);
    if (buy) this.copyBuy(swap, i, event, leader, tokenId, time, price, liquidity, 0, null);
    else this.copySell(swap, i, event, leader, tokenId, this.facts.heldBefore(), time, price, liquidity, 0, null);
  }

  /**
   * Closes the window: the actions due by `window_end`, then the final time-fix (model 3.4); the
   * delayed copies and retries due later never fire (strategy extensions 2, copier's wallet 4).
   */
  finish(): ReplayResult {
    const { end } = this.window;
    this.fireScheduled(end);
    if (this.request.inactivity_time_fix !== null) {
      for (const deal of this.openDeals()) this.sellAll(deal, 'sell_timefix_final', end);
    }
    for (const copy of this.scheduler.unfired()) this.skip(copy.swap, copy.leader, copy.buy, copy.due, 'after_window');
    return this.settled();
  }

  /**
   * The result of a replay in progress (a live feed's state so far): the deals as they stand,
   * the open ones valued at the known prices; no action fired, no final time-fix, the delayed
   * copies still pending. It settles the open deals as {@link finish} does, so the replay cannot
   * go on after it: take it of a replay made for the look.
   */
  resultSoFar(): ReplayResult {
    return this.settled();
  }

  /** The result once nothing more will trade: the open deals settled and valued at the known prices. */
  private settled(): ReplayResult {
    // The open deals' prices at window_end, taken now: a price book shared with other followers
    // (replayFollowers) moves on after this follower's window has ended.
    this.closing?.flush();
    const atEnd = new Map<number, Decimal>();
    let held = ZERO;
    const open = this.openDeals();
    for (const deal of open) {
      deal.settle(this.ledger.totals);
      const price = this.prices.priceOf(deal.tokenId);
      atEnd.set(deal.tokenId, price);
      if (this.wallet !== null) held = held.plus(deal.qty.times(price));
      if (this.leaders !== null) {
        for (const leader of deal.lotLeaders())
          this.leaders.held(leader, deal.lot(leader), deal.lotCost(leader), price);
      }
    }
    const cash = this.ledger.cash;
    return {
      window: this.window,
      deals: this.deals ?? open,
      trades: this.trades ?? new TradeLog(),
      points: this.points,
      priceAtEnd: (t) => atEnd.get(t) ?? this.prices.priceOf(t),
      totals: this.ledger.totals,
      skipped: this.skipped?.entries ?? null,
      leaders: this.leaders,
      wallets: this.request.wallets,
      leastDupeLimit: this.leastDupeLimit,
      leastDupeLimitByToken: this.leastDupeLimitByToken,
      copier:
        cash === null || !this.wallet!.reported
          ? null
          : { ledger: cash, endingEquity: cash.startingBalance === null ? null : cash.cash.plus(held) },
    };
  }

  /**
   * Model 3.1 with the strategy's sizing and filters and the copier's wallet, for attempt
   * `attempt` of a copy at `time` at reference price `price` and liquidity `liquidity`: the
   * leader's swap itself, or its delayed copy or retry (then the known price and liquidity of
   * that moment).
   */
  private copyBuy(
    swap: Swap,
    i: number,
    event: number,
    leader: number,
    tokenId: number,
    time: number,
    price: Decimal,
    liquidity: Liquidity | null,
    attempt: number,
    quote: Decimal | null,
  ): void {
    const deal = this.openDeal[tokenId];
    const refused = this.refusedOutright(tokenId, leader, true);
    if (refused !== null) return this.skip(swap, leader, true, time, refused);
    const leaderUsd = this.facts.usdAmount(swap, i);
    if (this.filters !== null) {
      const reason = this.filters.check(leaderUsd, liquidity, time, this.prices.firstSeenOf(tokenId));
      if (reason !== null) return this.skip(swap, leader, true, time, reason);
    }
    const wallet = this.wallet;
    if (
      wallet !== null &&
      deal === undefined &&
      wallet.maxOpenDeals !== null &&
      this.openCount >= wallet.maxOpenDeals
    ) {
      return this.skip(swap, leader, true, time, 'max_open_deals');
    }
    const amount = this.sizer.amount(leaderUsd, deal === undefined ? null : deal.invested);
    if (amount === null) return this.skip(swap, leader, true, time, 'position_full');
    const networkFee = this.exec.networkFee(time);
    let fill: Fill;
    if (wallet === null) {
      fill = this.exec.buy(amount, price, liquidity);
    } else {
      if (!wallet.cash.affords(amount, networkFee, this.exec.botFee(amount))) {
        wallet.cash.skippedForCash++;
        return this.skip(swap, leader, true, time, 'insufficient_balance');
      }
      const landed = this.attempt(
        wallet,
        swap,
        i,
        event,
        leader,
        tokenId,
        true,
        ZERO,
        time,
        price,
        liquidity,
        attempt,
        quote,
        amount,
      );
      if (landed === null) return;
      fill = landed;
    }
    let target = deal;
    if (target === undefined) {
      target = new Deal({
        index: this.dealCount++,
        tokenId,
        tokenAddress: swap.token,
        leader,
        time,
        botFeeRate: this.exec.botFeeRate,
        detailed: this.trades !== null,
        sellParts: this.leaders?.sellParts ?? null,
        openEvent: event,
        keepsTotals: this.leastDupeLimitByToken !== null,
      });
      this.deals?.push(target);
      this.openDealList?.opened(target);
      this.openDeal[tokenId] = target;
      this.openCount++;
      wallet?.held.opened(target);
      this.scheduler.opened(target);
      this.exits?.opened(target.index, price);
      this.onHolding?.(tokenId, true);
    }
    target.addBuy(leader, time, fill, networkFee);
    this.trades?.record(target, 'buy', fill, liquidity, networkFee);
    this.leaders?.bought(leader, fill.usdAmount, networkFee, this.exec.botFee(fill.usdAmount));
    this.afterTrade(target, fill, networkFee, null);
  }

  /** Model 3.2 for attempt `attempt` of a copy at `time`; `held` is the leader's holdings just before its sell. */
  private copySell(
    swap: Swap,
    i: number,
    event: number,
    leader: number,
    tokenId: number,
    held: Decimal,
    time: number,
    price: Decimal,
    liquidity: Liquidity | null,
    attempt: number,
    quote: Decimal | null,
  ): void {
    const refused = this.refusedOutright(tokenId, leader, false);
    if (refused !== null) return this.skip(swap, leader, false, time, refused);
    const deal = this.openDeal[tokenId]!;
    let sold: Decimal;
    let fraction: Decimal | null = null;
    if (this.request.close_all) {
      sold = deal.qty;
    } else {
      const lot = deal.lot(leader);
      fraction = this.facts.sellFraction(swap, i, held);
      sold = fraction === null ? lot : lot.times(fraction);
    }
    let fill: Fill;
    if (this.wallet === null) {
      fill = this.exec.sell(sold, price, liquidity);
    } else {
      const landed = this.attempt(
        this.wallet,
        swap,
        i,
        event,
        leader,
        tokenId,
        false,
        held,
        time,
        price,
        liquidity,
        attempt,
        quote,
        sold,
      );
      if (landed === null) return;
      fill = landed;
    }
    const networkFee = this.exec.networkFee(time);
    this.leaders?.copiedSell(leader);
    if (this.request.close_all) {
      this.bookWholeSell(deal, 'sell', time, fill, liquidity, networkFee);
      return;
    }
    const cost = deal.addLotSell(leader, fraction, time, fill, networkFee);
    this.trades?.record(deal, 'sell', fill, liquidity, networkFee);
    if (deal.qty.isZero()) deal.close(null);
    this.afterSell(fill, networkFee);
    this.afterTrade(deal, fill, networkFee, cost);
  }

  /**
   * One attempt of a copy that passed every check (copier's wallet 4 and 5): dropped by the
   * chain, or failed against the slippage tolerance, or landed and perhaps sandwiched. Gives the
   * fill of a landed trade, or null when it failed (its fee paid, its retry scheduled or the
   * copy abandoned). `size`: a buy's USD amount or a sell's tokens.
   */
  private attempt(
    wallet: CopierWallet,
    swap: Swap,
    i: number,
    event: number,
    leader: number,
    tokenId: number,
    buy: boolean,
    held: Decimal,
    time: number,
    price: Decimal,
    liquidity: Liquidity | null,
    attempt: number,
    quote: Decimal | null,
    size: Decimal,
  ): Fill | null {
    const landed = this.landing(wallet, swap, i, event, buy, price, liquidity, attempt, quote, size);
    if (typeof landed !== 'string') return landed;
    return this.failAttempt(wallet, swap, i, event, leader, tokenId, buy, held, time, price, attempt, landed);
  }

  /** {@link attempt}'s fill, landed and perhaps sandwiched, or why the attempt failed. */
  private landing(
    wallet: CopierWallet,
    swap: Swap,
    i: number,
    event: number,
    buy: boolean,
    price: Decimal,
    liquidity: Liquidity | null,
    attempt: number,
    quote: Decimal | null,
    size: Decimal,
  ): Fill | AttemptFailure {
    if (wallet.failPercent !== null && wallet.draws.below(event, attempt, 0, wallet.failPercent))
      return 'failed_transaction';
    const fill = buy ? this.exec.buy(size, price, liquidity) : this.exec.sell(size, price, liquidity);
    const tolerance = wallet.tolerance;
    if (tolerance === null) return fill;
    const quoted = quote ?? this.prices.swapPrice(swap, i);
    if (tolerance.exceeded(buy, fill, quoted)) return 'slippage_exceeded';
    if (wallet.sandwichPercent === null || !wallet.draws.below(event, attempt, 1, wallet.sandwichPercent)) return fill;
    const worst = tolerance.worst(buy, quoted);
    return buy ? this.sandwichBuy(wallet, fill, price, worst) : this.sandwichSell(wallet, fill, price, worst);
  }

  /**
   * A failed attempt (copier's wallet 4): it pays its fee, and its retry is scheduled at the
   * quote `price`, or the copy is abandoned with `reason` after the last one. Gives null, the
   * attempt's answer.
   */
  private failAttempt(
    wallet: CopierWallet,
    swap: Swap,
    index: number,
    event: number,
    leader: number,
    tokenId: number,
    buy: boolean,
    held: Decimal,
    time: number,
    price: Decimal,
    attempt: number,
    reason: AttemptFailure,
  ): null {
    const fee = this.exec.failedFee(time);
    this.ledger.failed(fee);
    this.leaders?.failed(leader, fee);
    this.cashChanged(time);
    if (attempt < wallet.retries) {
      const due = time + wallet.retryDelay;
      this.scheduler.retry({ due, swap, index, event, leader, tokenId, buy, held, attempt: attempt + 1, quote: price });
      this.nextDue = this.scheduler.nextDue;
    } else {
      this.skip(swap, leader, buy, time, reason);
    }
    return null;
  }

  /**
   * A landed buy sandwiched to the worst price `w` its tolerance allows (copier's wallet 5),
   * instead of its fill at `x`; `p` is the reference price. Its loss, `(A / x − A / w) × p`, goes
   * to the ledger.
   */
  private sandwichBuy(wallet: CopierWallet, fill: Fill, p: Decimal, w: Decimal): Fill {
    const printed = this.trades !== null;
    const amount = fill.usdAmount;
    const quantity = amount.div(w);
    wallet.cash.sandwichedBuy(fill.quantity, quantity, p);
    return {
      usdAmount: amount,
      quantity,
      price: printed ? toJsonNumber(w) : 0,
      slippage: printed ? printedQuotient(w.minus(p), p, 100) : 0,
      atReference: quantity.times(p),
      execution: w,
    };
  }

  /**
   * A landed sell of `Q` tokens sandwiched to the worst price `w`: it gets `Q × w` instead of its
   * fill's `usd_amount = Q × x`; its loss `Q × (x − w)` is the difference.
   */
  private sandwichSell(wallet: CopierWallet, fill: Fill, p: Decimal, w: Decimal): Fill {
    const printed = this.trades !== null;
    const worstValue = fill.quantity.times(w);
    wallet.cash.sandwichedSell(fill.usdAmount, worstValue);
    return {
      usdAmount: worstValue,
      quantity: fill.quantity,
      price: printed ? toJsonNumber(w) : 0,
      slippage: printed ? printedQuotient(p.minus(w), p, 100) : 0,
      atReference: fill.atReference,
      execution: w,
    };
  }

  /** Strategy extensions 5: the price exits at the swap just recorded for `deal`'s token. */
  private checkExits(exits: ExitRules, deal: Deal, time: number): void {
    exits.observe(deal, this.prices);
    for (let sell = exits.nextSell(deal); sell !== null; sell = exits.nextSell(deal)) {
      if (sell.share === null) this.sellAll(deal, sell.type, time);
      else this.sellShare(deal, sell.type, sell.share, time);
    }
  }

  /** Sells a deal's whole position at the known price and closes it (time-fixes, exits). */
  private sellAll(deal: Deal, type: WholeSell, time: number): void {
    const liquidity = this.prices.liquidityOf(deal.tokenId);
    const fill = this.exec.sell(deal.qty, this.prices.priceOf(deal.tokenId), liquidity);
    this.bookWholeSell(deal, type, time, fill, liquidity, this.exec.networkFee(time));
  }

  /** Books a sell of a deal's whole position and closes the deal with the tag of `type`. */
  private bookWholeSell(
    deal: Deal,
    type: WholeSell,
    time: number,
    fill: Fill,
    liquidity: Liquidity | null,
    networkFee: Decimal,
  ): void {
    const cost = deal.addWholeSell(time, fill, networkFee);
    this.trades?.record(deal, type, fill, liquidity, networkFee);
    deal.close(CLOSING_TAG[type]);
    this.afterSell(fill, networkFee);
    this.afterTrade(deal, fill, networkFee, cost);
  }

  /** Sells the share `share` (< 1) of every lot of a deal at the known price (a take-profit level). */
  private sellShare(deal: Deal, type: TradeType, share: Decimal, time: number): void {
    const liquidity = this.prices.liquidityOf(deal.tokenId);
    const fill = this.exec.sell(deal.shareOfLots(share), this.prices.priceOf(deal.tokenId), liquidity);
    const networkFee = this.exec.networkFee(time);
    const cost = deal.addShareSell(share, time, fill, networkFee);
    this.trades?.record(deal, type, fill, liquidity, networkFee);
    this.afterSell(fill, networkFee);
    this.afterTrade(deal, fill, networkFee, cost);
  }

  /** A sell's parts by lot, shared among the leaders (`report_leaders`). */
  private afterSell(fill: Fill, networkFee: Decimal): void {
    this.leaders?.sold(fill.usdAmount, fill.quantity, networkFee, this.exec.botFee(fill.usdAmount));
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
        const { swap, index, event, leader, tokenId, buy, held, attempt, quote } = action.copy;
        const price = this.prices.priceOf(tokenId);
        const liquidity = this.prices.liquidityOf(tokenId);
        if (buy) this.copyBuy(swap, index, event, leader, tokenId, action.due, price, liquidity, attempt, quote);
        else this.copySell(swap, index, event, leader, tokenId, held, action.due, price, liquidity, attempt, quote);
      }
    }
    this.nextDue = this.scheduler.nextDue;
  }

  /**
   * The first checks of a copy of leader `leader` (models 3.1 and 3.2), which need neither price
   * nor size: a buy into a deal that has had its `max_dupe_buy_times` dupes; a sell of a token
   * with no open deal, or, without `close_all`, none of whose lot is the leader's.
   */
  private refusedOutright(tokenId: number, leader: number, buy: boolean): SkipReason | null {
    const deal = this.openDeal[tokenId];
    if (buy) {
      if (deal === undefined) return null;
      const dupes = deal.buys - 1;
      if (dupes >= this.request.max_dupe_buy_times) return 'dupe_limit';
      if (dupes >= this.leastDupeLimit) this.leastDupeLimit = dupes + 1;
      const byToken = this.leastDupeLimitByToken;
      if (byToken !== null) {
        while (byToken.length <= tokenId) byToken.push(0);
        if (dupes >= byToken[tokenId]!) byToken[tokenId] = dupes + 1;
      }
      return null;
    }
    if (deal === undefined) return 'no_open_deal';
    return !this.request.close_all && deal.lot(leader).isZero() ? 'no_lot' : null;
  }

  /** Notes a leader swap whose copy ended without a trade, for the skip log and the leaders' report. */
  private skip(swap: Swap, leader: number, buy: boolean, time: number, reason: SkipReason): void {
    this.skipped?.add(time, swap.wallet, swap.token, buy, reason);
    this.leaders?.skip(leader);
  }

  /**
   * After a trade of `deal`: its time-fix, the open deal of its token, the wallet, the chart. `cost`: a sell's basis.
   */
  private afterTrade(deal: Deal, fill: Fill, networkFee: Decimal, cost: Decimal | null): void {
    if (deal.open) {
      this.scheduler.traded(deal, deal.lastOperationTime);
    } else {
      this.openDeal[deal.tokenId] = undefined;
      this.openCount--;
      this.wallet?.held.closed(deal);
      this.onHolding?.(deal.tokenId, false);
    }
    this.nextDue = this.scheduler.nextDue;
    this.ledger.traded(fill, networkFee, cost);
    if (this.wallet !== null) {
      if (deal.open) this.wallet.held.traded(deal);
      this.cashChanged(deal.lastOperationTime);
    }
    if (this.unrealized !== null) this.addChartPoint(deal, this.unrealized, this.ledger.chart!);
    if (!deal.open) {
      deal.settle(this.ledger.totals);
      this.closing?.add(deal);
      this.openDealList?.closed();
    }
  }

  /** The deals open now, in deal order. */
  private openDeals(): Deal[] {
    return this.deals?.filter((deal) => deal.open) ?? this.openDealList!.inOrder();
  }

  /** After a change of the copier's cash: its equity, the open deals valued at the known prices. */
  private cashChanged(time: number): void {
    this.wallet!.cash.changed(this.wallet!.held, time);
  }

  /**
   * One point of the PnL and fee chart after a trade of `deal`: the ledger's chart sums (which
   * the trade has moved) and the open deals' unrealized PnL (model 6).
   */
  private addChartPoint(deal: Deal, unrealized: UnrealizedBook, sums: ChartSums): void {
    if (deal.open) unrealized.traded(deal);
    else unrealized.close(deal);
    sums.read();
    unrealized.read(sums);
    this.points.add(deal, sums, unrealized);
  }
}

/**
 * The copier's wallet settings of a request (copier-wallet.md 1), with their defaults, and its
 * ledger and draws. Null when the request sets none of its members: then nothing of model 3.0
 * runs and the response is model 2.0's byte for byte.
 */
class CopierWallet {
  readonly cash: CopierCash;
  readonly draws: Draws;
  /** The open deals' value, for the equity after each change of cash. */
  readonly held: HeldValue;
  readonly maxOpenDeals: number | null;
  readonly retries: number;
  readonly retryDelay: number;
  /** The slippage tolerance, or null without one. */
  readonly tolerance: SlippageTolerance | null;
  /** The failure and sandwich shares, null when 0. */
  readonly failPercent: Percent | null;
  readonly sandwichPercent: Percent | null;
  /** True when the response reports the wallet (`copier`); false when only `report_leaders` is set. */
  readonly reported: boolean;

  /**
   * `keepPoints`: keep the cash and equity after each change, for the reports; `scanning`: the
   * replay is not told the prices of the tokens it holds ({@link HeldValue}).
   */
  static of(
    strategy: Strategy,
    prices: PriceBook,
    keepPoints: boolean,
    scanning: boolean,
    sharedTerms: DealTerms | null,
  ): CopierWallet | null {
    const reported = reportsCopier(strategy);
    return reported ? new CopierWallet(strategy, prices, reported, keepPoints, scanning, sharedTerms) : null;
  }

  private constructor(
    strategy: Strategy,
    prices: PriceBook,
    reported: boolean,
    keepPoints: boolean,
    scanning: boolean,
    sharedTerms: DealTerms | null,
  ) {
    this.held = new HeldValue(prices, scanning, sharedTerms);
    this.reported = reported;
    this.cash = new CopierCash(strategy.starting_balance_usd ?? null, strategy.reserve_usd ?? 0, keepPoints);
    this.draws = new Draws(strategy.random_seed ?? 0);
    this.maxOpenDeals = strategy.max_open_deals ?? null;
    this.retries = strategy.retries ?? 0;
    this.retryDelay = strategy.retry_delay_seconds ?? 2;
    const tau = strategy.slippage_tolerance_percent ?? null;
    this.tolerance = tau === null ? null : new SlippageTolerance(tau);
    const fail = strategy.failed_transaction_percent ?? 0;
    this.failPercent = fail === 0 ? null : percentOf(fail);
    const sandwich = strategy.sandwich_percent ?? 0;
    this.sandwichPercent = sandwich === 0 ? null : percentOf(sandwich);
  }
}

/** Why an attempt of a copy failed (copier's wallet 4): dropped by the chain, or past the tolerance. */
type AttemptFailure = 'failed_transaction' | 'slippage_exceeded';

/**
 * The trades that sell a whole position, and the tag each gives the deal it closes (the exits' from `model/exits.ts`).
 */
type WholeSell = Exclude<TradeType, 'buy'>;
const CLOSING_TAG = {
  sell: 'close_all',
  sell_timefix: 'sell_timefix',
  sell_timefix_final: 'sell_timefix_final',
  ...Object.fromEntries(EXIT_KINDS.map((kind) => [kind.trade, kind.tag])),
} as Readonly<Record<WholeSell, SpecialTag>>;
