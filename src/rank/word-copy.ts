/**
 * A wallet copied alone in bounded double words (`numeric/bounded.ts`): the copier's deals and
 * every figure of its rank row but the wallet's own results, each a {@link Bounded} that holds
 * the number the exact engine computes. The screen of a rank with `top` (screen.ts) reads one
 * sum of it; a rank row is made of it outright when every printed figure is decided
 * ({@link WordCopy.row}), and the wallet is copied exactly only when one is not
 * (docs/rank.md, "Rows in double words").
 *
 * The replay follows model 1.2 (docs/model.md) for one leader: leader holdings (2), deals and
 * their lots and costs (3), copied buys and sells (3.1, 3.2), fills and fees (3.3), the
 * inactivity time-fix (3.4), the results and the summary (4, 5), and the copier's cash, lowest
 * cash and equity curve (copier-wallet.md 2 and 7). It knows no other strategy member, and every
 * swap is a price observation (`min_price_swap_usd` 0): otherwise it is not used
 * ({@link wordCopyApplies}). A decision the double words cannot make (a comparison whose
 * intervals overlap, such as a deal at its position cap to the last digit) throws `Undecided`.
 */
import { InputError } from '../model/errors.js';
import type { EngineOptions, EngineOptionsInput } from '../model/options.js';
import { prepare } from '../simulate.js';
import { type Network, requestWindow, type SimulatorRequest } from '../model/request.js';
import { NO_STRATEGY } from '../model/strategy.js';
import type { Decimal } from '../numeric/decimal.js';
import {
  atMost,
  type Bounded,
  converted,
  dividedBy,
  fromDecimal,
  HUNDRED_BOUNDED,
  larger,
  minus,
  minusFloored,
  ONE_BOUNDED,
  plus,
  printed,
  smaller,
  times,
  Undecided,
  ZERO_BOUNDED,
} from '../numeric/bounded.js';
import type { CopierResultJson } from '../model/response.js';
import { type OwnResults, type RankContext, type RankedWallet, rankRequest } from './rank.js';
import { ALL_BUT_DUST, ownInWords } from './word-own.js';
import { ClosedFigures, SummarySums } from './word-figures.js';
import {
  AT_POSITION,
  AT_PRICE,
  AT_TIME,
  BUY,
  LIQUIDITY,
  NO_SWAP,
  PRICE,
  QUANTITY,
  ROW,
  SERIES_STRIDE,
  SLOT,
  type SwapRows,
  TIME,
  TOKEN,
  type TokenSeries,
  USD,
} from './word-rows.js';

/** An open or closed deal of the replay. */
interface WordDeal {
  readonly token: number;
  readonly index: number;
  buys: number;
  /** Tokens held, `qty`, and their cost, `usd_invested`. */
  lot: Bounded;
  cost: Bounded;
  /** `bought_usd`, `sold_usd`, the sells' cost bases, the network fees paid. */
  bought: Bounded;
  sold: Bounded;
  soldCost: Bounded;
  networkFees: Bounded;
  /** The trades at the reference price: the buys' `quantity × p`, the sells' `V`. */
  boughtAtReference: Bounded;
  soldAtReference: Bounded;
  /** Last follower trade: its time-fix is due `hours` later. */
  lastTime: number;
  /** The place among its token's swaps of the last swap whose price it traded at or was valued at. */
  lastSlot: number;
  /** The time of the trade that closed it; NaN while open. */
  closeTime: number;
  /**
   * While open and the copier's equity is kept: `qty × known price` as last read, and the place
   * among its token's swaps of the price it was read at (-1: to be read again, as `qty` moved).
   */
  value: Bounded;
  valueSlot: number;
  /** Its place in the copier's list of open deals. */
  listed: number;
}

/** A time-fix deadline of a deal, as of one of its trades. */
interface Deadline {
  readonly deadline: number;
  readonly deal: WordDeal;
}

/**
 * The time-fix deadlines of a copier's trades, in the order they were made, which is their
 * order: a copier trades in time order, and every deadline lies the same hours after its trade.
 */
class Deadlines {
  private readonly entries: Deadline[] = [];
  private next = 0;

  first(): Deadline | null {
    return this.entries[this.next] ?? null;
  }

  add(entry: Deadline): void {
    this.entries.push(entry);
  }

  take(): void {
    this.next++;
  }
}

/** One copier's state through the replay. */
interface Copier {
  readonly deals: WordDeal[];
  /** The open deal of each token, in the order they opened (a `Map` keeps insertion order). */
  readonly open: Map<number, WordDeal>;
  /** The same open deals in a list (in no order), read at every reading of the equity. */
  readonly openList: WordDeal[];
  /**
   * By place in that list, the event position of the deal's token's swap after the one its term
   * was read at ({@link NO_SWAP}: none; -1: its `qty` moved): side by side, so that a reading
   * scans them without touching the deals.
   */
  nextSwaps: Int32Array;
  /** By the same place, that swap's time (-Infinity: its `qty` moved; Infinity: none). */
  nextTimes: Float64Array;
  /** The copier's cash (copier-wallet.md 2): from the starting balance, or from 0. */
  cash: Bounded;
  /** The lowest cash so far, the equity's peak and its largest fall (copier-wallet.md 7), when kept. */
  lowest: Bounded;
  peak: Bounded;
  drawdown: Bounded;
  /** With a starting balance, the largest fall from the peak in percent of it (copier-wallet.md 7). */
  drawdownPercent: Bounded;
  /** The copied buys skipped for want of cash (`insufficient_balance`). */
  skippedForCash: number;
  readonly deadlines: Deadlines;
  /** Whether the equity is kept: the lowest cash, the peak and the fall. */
  readonly withEquity: boolean;
  /** `Σ qty × known price` over the open deals, as last read. */
  held: Bounded;
  /**
   * The swaps whose prices are known: those before event position `knownBefore` whose time is
   * before `knownUntil` (a copy trades once the swaps up to its own are known; a time-fix before
   * the swaps at its due time).
   */
  knownBefore: number;
  knownUntil: number;
}

/** What a wallet copied alone made: its deal counts and the sums the screen bounds. */
export interface WordSums {
  readonly deals: number;
  readonly closed: number;
  readonly invested: Bounded;
  readonly volume: Bounded;
  readonly pnl: Bounded;
}

/** A rank row's figures from the copy, all but the wallet's address and own results. */
export type WordRow = Omit<RankedWallet, 'wallet' | 'own'>;

/** Members of a request's `strategy` the replay takes: those that change no deal, and the starting balance. */
const TAKEN_MEMBERS: ReadonlySet<string> = new Set(['report_wallet', 'report_leaders', 'starting_balance_usd']);

/**
 * Whether a rank of `request` (as parsed) with these engine options can be copied in double
 * words: a strategy whose every other member is at its default, and every swap a price
 * observation (`min_price_swap_usd` 0).
 */
export function wordCopyApplies(request: SimulatorRequest, engineOptions: EngineOptions): boolean {
  if (Number(engineOptions.min_price_swap_usd) !== 0) return false;
  const strategy = request.strategy;
  if (strategy === null) return true;
  const given = strategy as Readonly<Record<string, unknown>>;
  const plain = NO_STRATEGY as Readonly<Record<string, unknown>>;
  for (const member of new Set([...Object.keys(given), ...Object.keys(plain)])) {
    if (!TAKEN_MEMBERS.has(member) && JSON.stringify(given[member]) !== JSON.stringify(plain[member])) return false;
  }
  return true;
}

/** A rank's request and engine options as parsed; null when they do not parse (the rank names what is wrong). */
function parsedRank(
  request: unknown,
  engineOptions: EngineOptionsInput,
): { readonly parsed: SimulatorRequest; readonly engineOptions: EngineOptions } | null {
  try {
    return prepare(rankRequest(request, undefined), engineOptions);
  } catch {
    return null;
  }
}

/**
 * Whether a rank of `request` (as given) with these engine options is copied in double words.
 */
export function copyInWordsApplies(request: unknown, engineOptions: EngineOptionsInput): boolean {
  const made = parsedRank(request, engineOptions);
  return made !== null && wordCopyApplies(made.parsed, made.engineOptions);
}

/** The copy in double words of each rank context, made once: its rows of swaps serve every wallet. */
const COPIES = new WeakMap<RankContext, WordCopy>();

/** The context's {@link WordCopy}, made when first asked for. */
export function wordCopyOf(context: RankContext): WordCopy {
  let copy = COPIES.get(context);
  if (copy === undefined) {
    const { request, engineOptions, network, native } = context;
    const source = { request, engineOptions, network, native, swaps: context.rows };
    COPIES.set(context, (copy = new WordCopy(source)));
  }
  return copy;
}

/** What a copy in double words reads: the settings, the native coin's prices and the swaps as rows. */
export interface WordSource {
  readonly request: SimulatorRequest;
  readonly engineOptions: EngineOptions;
  readonly network: Network;
  readonly native: { at(time: number): Decimal };
  readonly swaps: SwapRows;
}

/**
 * Copies wallets alone in double words: the settings of the request and options as bounded
 * numbers, and the tape's swaps as rows of double words, made once for all the wallets it copies.
 */
export class WordCopy {
  private readonly request: SimulatorRequest;
  private readonly start: number;
  private readonly end: number;
  private readonly fraction: Bounded;
  private readonly maxBuy: Bounded;
  private readonly maxPosition: Bounded;
  private readonly dust: Bounded;
  private readonly feeNative: Bounded;
  /** `bot_fee_percent / 100`, or null when bot fees are not included (then they are exactly 0). */
  private readonly botRate: Bounded | null;
  private readonly unknownOnePlusS: Bounded;
  private readonly assumedHalf: Bounded | null;
  private readonly timeFixSeconds: number | null;
  /** `starting_balance_usd`: a copied buy whose amount and fees exceed the cash is skipped; null: unlimited. */
  private readonly balance: Bounded | null;
  private readonly half = fromDecimal('0.5');
  /** The network fee at each native price asked for. */
  private readonly fees = new Map<Decimal, Bounded>();
  /** The swaps before the window's end as rows ({@link SwapRows}). */
  readonly swaps: SwapRows;
  private readonly rows: Float64Array;

  constructor(private readonly source: WordSource) {
    const { request, engineOptions } = source;
    this.request = request;
    const window = requestWindow(request);
    this.start = window.start;
    this.end = window.end;
    this.fraction = dividedBy(fromDecimal(request.buy_percentage), HUNDRED_BOUNDED);
    this.maxBuy = fromDecimal(request.max_buy_amount);
    this.maxPosition = fromDecimal(request.max_position_amount);
    this.dust = times(this.maxPosition, fromDecimal('1e-20'));
    this.feeNative = feeNative(request, engineOptions, source.network);
    this.botRate = request.include_bot_fees
      ? dividedBy(fromDecimal(engineOptions.bot_fee_percent), HUNDRED_BOUNDED)
      : null;
    const s = dividedBy(fromDecimal(engineOptions.unknown_liquidity_slippage_percent), HUNDRED_BOUNDED);
    this.unknownOnePlusS = plus(ONE_BOUNDED, s);
    const assumed = engineOptions.assumed_liquidity_usd;
    this.assumedHalf = assumed === null ? null : times(fromDecimal(assumed), this.half);
    this.timeFixSeconds = request.inactivity_time_fix === null ? null : request.inactivity_time_fix.hours * 3600;
    const balance = request.strategy?.starting_balance_usd;
    this.balance = balance === undefined || balance === null ? null : fromDecimal(balance);
    this.swaps = source.swaps;
    this.rows = this.swaps.rows;
  }

  /** Wallet `id` copied alone: its deal counts and sums (the screen's figures). */
  sums(id: number): WordSums {
    const copier = this.copy(id, false);
    let pnl = ZERO_BOUNDED;
    for (const deal of copier.deals) pnl = plus(pnl, this.dealTotal(deal));
    let closed = 0;
    let invested = ZERO_BOUNDED;
    let sold = ZERO_BOUNDED;
    for (const deal of copier.deals) {
      if (!Number.isNaN(deal.closeTime)) closed++;
      invested = plus(invested, deal.bought);
      sold = plus(sold, deal.sold);
    }
    // The trading volume, every trade's `usd_amount`: the buys' is the investment.
    return { deals: copier.deals.length, closed, invested, volume: plus(invested, sold), pnl };
  }

  /**
   * Wallet `id` copied alone: its row's figures as the exact engine prints them, or null when a
   * decision or a printed figure is not decided in double words (then it is copied exactly).
   */
  row(id: number): WordRow | null {
    return decided(() => this.rowOf(this.copy(id, true)));
  }

  /** Wallet `id`'s own results, or null when they are not decided in double words (then made exactly). */
  own(id: number): OwnResults | null {
    return decided(() => ownInWords(this.swaps, id, this.start));
  }

  private copy(id: number, withEquity: boolean): Copier {
    const swaps = this.swaps;
    const start = this.balance ?? ZERO_BOUNDED;
    const copier: Copier = {
      deals: [],
      open: new Map(),
      openList: [],
      nextSwaps: new Int32Array(16),
      nextTimes: new Float64Array(16),
      cash: start,
      lowest: start,
      peak: withEquity ? start : ZERO_BOUNDED,
      drawdown: ZERO_BOUNDED,
      drawdownPercent: ZERO_BOUNDED,
      skippedForCash: 0,
      deadlines: new Deadlines(),
      withEquity,
      held: ZERO_BOUNDED,
      knownBefore: 0,
      knownUntil: Infinity,
    };
    const holdings = new Map<number, Bounded>();
    const rows = this.rows;
    for (const k of swaps.walletPositions(id)) {
      const at = k * ROW;
      const time = rows[at + TIME]!;
      const token = rows[at + TOKEN]! | 0; // a small integer key: a double one is hashed as an object
      if (this.timeFixSeconds !== null) this.fireTimeFixes(copier, time, k);
      const quantity = this.swaps.word(at + QUANTITY);
      const held = holdings.get(token) ?? ZERO_BOUNDED;
      const buy = rows[at + BUY] === 1;
      holdings.set(token, buy ? plus(held, quantity) : minusFloored(held, quantity));
      if (time < this.start) continue;
      // The copy trades at this swap: the swaps up to it are known.
      copier.knownBefore = k + 1;
      copier.knownUntil = Infinity;
      if (buy) this.copyBuy(copier, at, quantity);
      else this.copySell(copier, at, quantity, held);
    }
    if (this.timeFixSeconds !== null) {
      this.fireTimeFixes(copier, this.end, swaps.end);
      copier.knownBefore = swaps.end;
      copier.knownUntil = Infinity;
      for (const deal of [...copier.open.values()]) this.sellWhole(copier, deal, this.end, Infinity);
    }
    return copier;
  }

  /** Model 3.1 for a leader buy of `quantity`, the swap's row at `at`. */
  private copyBuy(copier: Copier, at: number, quantity: Bounded): void {
    const rows = this.rows;
    const token = rows[at + TOKEN]! | 0;
    const time = rows[at + TIME]!;
    let deal = copier.open.get(token);
    if (deal !== undefined && deal.buys - 1 >= this.request.max_dupe_buy_times) return;
    const room = deal === undefined ? this.maxPosition : minus(this.maxPosition, deal.cost);
    if (atMost(room, this.dust, 'a position at its cap')) return;
    const price = this.swaps.word(at + PRICE);
    const leaderUsd = Number.isNaN(rows[at + USD]!) ? times(quantity, price) : this.swaps.word(at + USD);
    const amount = smaller(smaller(times(leaderUsd, this.fraction), this.maxBuy), room);
    if (atMost(amount, this.dust, 'a buy of dust')) return;
    const networkFee = this.networkFee(time);
    const botFee = this.botFee(amount);
    // The cash check: the amount and the fees of a landed buy at most the cash.
    if (
      this.balance !== null &&
      !atMost(plus(plus(amount, networkFee), botFee), copier.cash, 'a buy at the edge of the cash')
    ) {
      copier.skippedForCash++;
      return;
    }
    const half = this.liquidityHalf(at + LIQUIDITY);
    const onePlusS = half === null ? this.unknownOnePlusS : plus(ONE_BOUNDED, dividedBy(amount, half));
    const bought = dividedBy(amount, times(price, onePlusS));
    if (deal === undefined) {
      deal = {
        token,
        index: copier.deals.length,
        buys: 0,
        lot: ZERO_BOUNDED,
        cost: ZERO_BOUNDED,
        bought: ZERO_BOUNDED,
        sold: ZERO_BOUNDED,
        soldCost: ZERO_BOUNDED,
        networkFees: ZERO_BOUNDED,
        boughtAtReference: ZERO_BOUNDED,
        soldAtReference: ZERO_BOUNDED,
        lastTime: time,
        lastSlot: 0,
        closeTime: Number.NaN,
        value: ZERO_BOUNDED,
        valueSlot: -1,
        listed: -1,
      };
      if (copier.withEquity) listOpened(copier, deal);
      copier.deals.push(deal);
      copier.open.set(token, deal);
    }
    deal.buys++;
    deal.lastSlot = rows[at + SLOT]!;
    deal.lot = plus(deal.lot, bought);
    deal.cost = plus(deal.cost, amount);
    deal.bought = plus(deal.bought, amount);
    deal.boughtAtReference = plus(deal.boughtAtReference, times(bought, price));
    this.traded(copier, deal, time, networkFee);
    this.cashMoved(copier, deal, minus(minus(ZERO_BOUNDED, amount), plus(networkFee, botFee)));
  }

  /** Model 3.2 for a leader sell of `quantity` with holdings `held` before it, the swap's row at `at`. */
  private copySell(copier: Copier, at: number, quantity: Bounded, held: Bounded): void {
    const rows = this.rows;
    const deal = copier.open.get(rows[at + TOKEN]! | 0);
    if (deal === undefined) return;
    const time = rows[at + TIME]!;
    const price = this.swaps.word(at + PRICE);
    const half = this.liquidityHalf(at + LIQUIDITY);
    deal.lastSlot = rows[at + SLOT]!;
    if (this.request.close_all || atMost(times(held, ALL_BUT_DUST), quantity, 'a sell of nearly all')) {
      this.sellAll(copier, deal, time, price, half);
      return;
    }
    const fraction = dividedBy(quantity, held);
    const sold = times(deal.lot, fraction);
    const value = times(sold, price);
    const usd = this.sellProceeds(value, half);
    const basis = times(deal.cost, fraction);
    deal.cost = minus(deal.cost, basis);
    deal.lot = minus(deal.lot, sold);
    this.booked(copier, deal, time, usd, value, basis);
  }

  /** A time-fix (3.4) of `deal` at `time`, priced at the swaps before `before` (a time, or Infinity: all). */
  private sellWhole(copier: Copier, deal: WordDeal, time: number, before: number): void {
    const last = this.swaps.lastSwapBefore(deal.token, before, deal.lastSlot);
    if (last < 0) throw new Undecided('a token without a known price');
    const at = last * ROW;
    deal.lastSlot = this.rows[at + SLOT]!;
    this.sellAll(copier, deal, time, this.swaps.word(at + PRICE), this.liquidityHalf(at + LIQUIDITY));
  }

  /** A sell of the deal's whole lot, which closes it. */
  private sellAll(copier: Copier, deal: WordDeal, time: number, price: Bounded, half: Bounded | null): void {
    const value = times(deal.lot, price);
    const usd = this.sellProceeds(value, half);
    const basis = deal.cost;
    deal.lot = ZERO_BOUNDED;
    deal.cost = ZERO_BOUNDED;
    copier.open.delete(deal.token);
    if (copier.withEquity) unlist(copier, deal);
    deal.closeTime = time;
    this.booked(copier, deal, time, usd, value, basis);
  }

  /** A landed sell of `usd` (`V` at the reference price), cost basis `basis`: the deal's sums, the fees, the cash. */
  private booked(copier: Copier, deal: WordDeal, time: number, usd: Bounded, value: Bounded, basis: Bounded): void {
    deal.sold = plus(deal.sold, usd);
    deal.soldCost = plus(deal.soldCost, basis);
    deal.soldAtReference = plus(deal.soldAtReference, value);
    const networkFee = this.networkFee(time);
    this.traded(copier, deal, time, networkFee);
    this.cashMoved(copier, deal, minus(usd, plus(networkFee, this.botFee(usd))));
  }

  /**
   * The time-fixes due by `until` (and by `window_end`), earliest first and, at one deadline, in
   * deal order (engine/timefix.ts), before the swap at event position `at`.
   */
  private fireTimeFixes(copier: Copier, until: number, at: number): void {
    const limit = Math.min(until, this.end);
    const due = copier.deadlines;
    for (let next = due.first(); next !== null && next.deadline <= limit; next = due.first()) {
      const deadline = next.deadline;
      const deals: WordDeal[] = [];
      for (; next !== null && next.deadline === deadline; next = due.first()) {
        due.take();
        const deal = next.deal;
        // An entry of a deal closed since, or traded since (a later entry holds its deadline), is stale.
        const live = copier.open.get(deal.token) === deal && deal.lastTime + this.timeFixSeconds! === deadline;
        if (live && !deals.includes(deal)) deals.push(deal);
      }
      deals.sort((a, b) => a.index - b.index);
      // The action fires before the swaps at its due time: the known prices are those before it.
      copier.knownBefore = at;
      copier.knownUntil = deadline;
      for (const deal of deals) this.sellWhole(copier, deal, deadline, deadline);
    }
  }

  /** A sell's `usd_amount` (3.3) from `V = Q × p`: `V / (1 + s)`, `s = V / (L/2)`. */
  private sellProceeds(value: Bounded, half: Bounded | null): Bounded {
    if (half === null) return dividedBy(value, this.unknownOnePlusS);
    return dividedBy(times(value, half), plus(half, value));
  }

  /** The deal's fees and time-fix after a follower trade at `time`. */
  private traded(copier: Copier, deal: WordDeal, time: number, networkFee: Bounded): void {
    deal.networkFees = plus(deal.networkFees, networkFee);
    deal.lastTime = time;
    if (this.timeFixSeconds !== null && time + this.timeFixSeconds <= this.end) {
      copier.deadlines.add({ deadline: time + this.timeFixSeconds, deal });
    }
  }

  /**
   * The copier's cash moved by `change` after a trade of `deal`: its lowest so far, and, when
   * kept, the equity `cash + Σ qty × known price` over the open deals against its peak and
   * largest fall. The open deals' sum is kept: a deal's term is read again when its `qty` moved
   * or a swap of its token became known since.
   */
  private cashMoved(copier: Copier, deal: WordDeal, change: Bounded): void {
    copier.cash = plus(copier.cash, change);
    if (!copier.withEquity) return;
    copier.lowest = smaller(copier.lowest, copier.cash);
    if (Number.isNaN(deal.closeTime)) {
      copier.nextSwaps[deal.listed] = -1;
      copier.nextTimes[deal.listed] = -Infinity;
    } else {
      copier.held = minus(copier.held, deal.value);
      deal.value = ZERO_BOUNDED;
    }
    let held = copier.held;
    const list = copier.openList;
    const before = copier.knownBefore;
    const until = copier.knownUntil;
    const nextSwaps = copier.nextSwaps;
    // Read again the terms of the deals whose `qty` moved (-1) or whose token's next swap is
    // known now; after a copy every swap before it is (most readings: one comparison a deal).
    const open = list.length;
    if (until === Infinity) {
      for (let j = 0; j < open; j++) if (nextSwaps[j]! < before) held = this.valuedAgain(copier, list[j]!, held);
    } else {
      const nextTimes = copier.nextTimes;
      for (let j = 0; j < open; j++) {
        if (nextSwaps[j]! < before && nextTimes[j]! < until) held = this.valuedAgain(copier, list[j]!, held);
      }
    }
    copier.held = held;
    const equity = plus(copier.cash, held);
    const peak = copier.peak;
    copier.peak = larger(peak, equity);
    // The fall from the peak: 0 when the equity is a new peak.
    const fall = minusFloored(peak, equity);
    copier.drawdown = larger(copier.drawdown, fall);
    // In percent of the peak, with a starting balance: the peak is then at least the balance, above 0.
    if (this.balance !== null) {
      copier.drawdownPercent = larger(copier.drawdownPercent, dividedBy(times(HUNDRED_BOUNDED, fall), peak));
    }
  }

  /** `held` with the deal's term `qty × known price` read again. */
  private valuedAgain(copier: Copier, deal: WordDeal, held: Bounded): Bounded {
    const value = times(deal.lot, this.knownPrice(deal, copier));
    const sum = plus(minus(held, deal.value), value);
    deal.value = value;
    return sum;
  }

  /**
   * The price of the deal's token known now: its last known swap's, by a search that gallops from
   * the last read. Sets the deal's next swap (its event position and time) in the copier's list.
   */
  private knownPrice(deal: WordDeal, copier: Copier): Bounded {
    const series = this.swaps.seriesOf(deal.token);
    const count = series.length / SERIES_STRIDE;
    const before = copier.knownBefore;
    const until = copier.knownUntil;
    let lo = Math.max(deal.valueSlot, deal.lastSlot, 0);
    if (!isKnown(series, lo, before, until)) throw new Undecided('a token without a known price');
    // lo is known: find the last known place after it.
    let step = 1;
    while (lo + step < count && isKnown(series, lo + step, before, until)) {
      lo += step;
      step *= 2;
    }
    let hi = Math.min(lo + step, count) - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (isKnown(series, mid, before, until)) lo = mid;
      else hi = mid - 1;
    }
    deal.valueSlot = lo;
    const next = SERIES_STRIDE * (lo + 1);
    const last = lo + 1 >= count;
    copier.nextSwaps[deal.listed] = last ? NO_SWAP : series[next + AT_POSITION]!;
    copier.nextTimes[deal.listed] = last ? Infinity : series[next + AT_TIME]!;
    const at = SERIES_STRIDE * lo + AT_PRICE;
    return converted(series[at]!, series[at + 1]!);
  }

  /** A deal's bot fee (model 4): on its bought and sold USD, exactly 0 when bot fees are not included. */
  private dealBotFee(deal: WordDeal): Bounded {
    return this.botRate === null ? ZERO_BOUNDED : times(plus(deal.bought, deal.sold), this.botRate);
  }

  /** A deal's `pnl_realized` (model 4): `sold_usd − cost of what was sold − fees`. */
  private dealRealized(deal: WordDeal, botFee: Bounded): Bounded {
    return minus(minus(minus(deal.sold, deal.soldCost), deal.networkFees), botFee);
  }

  /** A deal's `pnl_unrealized` at the window's end: `qty × price − usd_invested`. */
  private dealUnrealized(deal: WordDeal): Bounded {
    return minus(times(deal.lot, this.priceAtEnd(deal)), deal.cost);
  }

  /** The price of the deal's token known at the window's end: its last swap's before it. */
  private priceAtEnd(deal: WordDeal): Bounded {
    const last = this.swaps.lastSwapBefore(deal.token, Infinity, deal.lastSlot);
    if (last < 0) throw new Undecided('a token without a known price');
    return this.swaps.word(last * ROW + PRICE);
  }

  /** A deal's `pnl_total`. */
  private dealTotal(deal: WordDeal): Bounded {
    const realized = this.dealRealized(deal, this.dealBotFee(deal));
    return Number.isNaN(deal.closeTime) ? plus(realized, this.dealUnrealized(deal)) : realized;
  }

  /** The row's figures from the copier's deals (model 5; rank.ts `rankedRow`). */
  private rowOf(copier: Copier): WordRow {
    const sums = new SummarySums();
    const closed: { deal: WordDeal; pnl: Bounded }[] = [];
    for (const deal of copier.deals) {
      const botFee = this.dealBotFee(deal);
      const realized = this.dealRealized(deal, botFee);
      const open = Number.isNaN(deal.closeTime);
      sums.add(deal, realized, botFee, open ? this.dealUnrealized(deal) : null);
      if (!open) closed.push({ deal, pnl: realized });
    }
    // The closing order: by closing time, ties in deal order (the deals are in deal order).
    closed.sort((a, b) => a.deal.closeTime - b.deal.closeTime || a.deal.index - b.deal.index);
    const inOrder = new ClosedFigures();
    for (const { pnl } of closed) inOrder.add(pnl);
    const capital = minus(this.balance ?? ZERO_BOUNDED, copier.lowest);
    return {
      summary: sums.summary(inOrder.linearity.value()),
      deals: copier.deals.length,
      closed_deals: closed.length,
      winrate: inOrder.winrate(),
      profit_factor: inOrder.profitFactor(),
      max_drawdown: printed(inOrder.drawdown, 'max_drawdown'),
      copier: {
        ...this.balanceFigures(copier),
        capital_required: printed(capital, 'capital_required'),
        max_drawdown: printed(copier.drawdown, 'the copier max_drawdown'),
        max_drawdown_percent:
          this.balance === null ? null : printed(copier.drawdownPercent, 'the copier max_drawdown_percent'),
        failed_transactions: 0,
        failed_transaction_fees: 0,
        sandwiched_trades: 0,
        sandwich_loss: 0,
        skipped_for_cash: copier.skippedForCash,
      },
    };
  }

  /**
   * The copier's figures of a starting balance (copier-wallet.md 7), null without one: the
   * balance, the cash after the run, the equity (the cash and the open deals at the known prices
   * at `window_end`), and the ROI on the balance.
   */
  private balanceFigures(
    copier: Copier,
  ): Pick<CopierResultJson, 'starting_balance' | 'ending_cash' | 'ending_equity' | 'roi_on_balance'> {
    const balance = this.balance;
    if (balance === null)
      return { starting_balance: null, ending_cash: null, ending_equity: null, roi_on_balance: null };
    let held = ZERO_BOUNDED;
    for (const deal of copier.open.values()) held = plus(held, times(deal.lot, this.priceAtEnd(deal)));
    const equity = plus(copier.cash, held);
    return {
      starting_balance: printed(balance, 'the starting balance'),
      ending_cash: printed(copier.cash, 'the ending cash'),
      ending_equity: printed(equity, 'the ending equity'),
      roi_on_balance: printed(dividedBy(times(HUNDRED_BOUNDED, minus(equity, balance)), balance), 'roi_on_balance'),
    };
  }

  /** The bot fee of a trade of `usd` (3.3), exactly 0 when bot fees are not included. */
  private botFee(usd: Bounded): Bounded {
    return this.botRate === null ? ZERO_BOUNDED : times(usd, this.botRate);
  }

  private networkFee(time: number): Bounded {
    const native = this.source.native.at(time);
    let fee = this.fees.get(native);
    if (fee === undefined) this.fees.set(native, (fee = times(this.feeNative, fromDecimal(native.toString()))));
    return fee;
  }

  /** Half of the known liquidity at `at` (NaN: none known, then the assumed one, or null for the flat slippage). */
  private liquidityHalf(at: number): Bounded | null {
    return Number.isNaN(this.rows[at]!) ? this.assumedHalf : times(this.swaps.word(at), this.half);
  }
}

/**
 * What `make` makes in double words, or null when it is not decided there. An input error (no
 * native price for a fee) is left to the exact copy too, which reports it in its own words.
 */
export function decided<T>(make: () => T): T | null {
  try {
    return make();
  } catch (e) {
    if (e instanceof Undecided || e instanceof InputError) return null;
    throw e;
  }
}

/** Whether the swap at place `j` of a token's series is known: before event position `before` and time `until`. */
function isKnown(series: TokenSeries, j: number, before: number, until: number): boolean {
  return series[SERIES_STRIDE * j + AT_POSITION]! < before && series[SERIES_STRIDE * j + AT_TIME]! < until;
}

/** A deal opened: it joins the copier's list of open deals, its term read at the next reading. */
function listOpened(copier: Copier, deal: WordDeal): void {
  deal.listed = copier.openList.length;
  copier.openList.push(deal);
  if (deal.listed === copier.nextSwaps.length) {
    const grown = new Int32Array(2 * deal.listed);
    grown.set(copier.nextSwaps);
    copier.nextSwaps = grown;
    const grownTimes = new Float64Array(2 * deal.listed);
    grownTimes.set(copier.nextTimes);
    copier.nextTimes = grownTimes;
  }
  copier.nextSwaps[deal.listed] = -1;
  copier.nextTimes[deal.listed] = -Infinity;
}

/** A deal closed: the last of the list takes its place. */
function unlist(copier: Copier, deal: WordDeal): void {
  const list = copier.openList;
  const moved = list.pop()!;
  if (moved === deal) return;
  list[deal.listed] = moved;
  copier.nextSwaps[deal.listed] = copier.nextSwaps[moved.listed]!;
  copier.nextTimes[deal.listed] = copier.nextTimes[moved.listed]!;
  moved.listed = deal.listed;
}

/** `(base_fee_native + priority_fee + bribe)`, native coin per transaction (3.3). */
function feeNative(request: SimulatorRequest, options: EngineOptions, network: SimulatorRequest['network']): Bounded {
  const base = fromDecimal(options.base_fee_native[network]);
  return plus(plus(base, fromDecimal(request.priority_fee)), fromDecimal(request.bribe));
}
