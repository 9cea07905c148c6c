/**
 * The screen of a rank with `top`: every candidate copied alone in doubles with a proven error
 * bound (`numeric/bounded.ts`), to find the wallets whose exact rows can be among the first
 * `top`; only those are then copied exactly. The rows, and so the output, are those of the
 * exact rank, byte for byte (docs/rank.md, "The screen of a rank with `--top`").
 *
 * The screen replays model 1.2 (docs/model.md) for one leader: leader holdings (2), deals and
 * their lots and costs (3), copied buys and sells (3.1, 3.2), fills and fees (3.3) and the
 * inactivity time-fix (3.4), and the copier's cash with a starting balance (copier-wallet.md 2),
 * each quantity a {@link Bounded} that holds the value the exact engine computes. It knows no
 * other strategy member, and every swap is a price observation (`min_price_swap_usd` 0):
 * otherwise no screen is made ({@link screenApplies}).
 * A decision the doubles cannot make (a comparison whose intervals overlap, such as a deal at its
 * position cap to the last digit) leaves the wallet undecided, and it is copied exactly.
 */
import type { EngineOptions } from '../model/options.js';
import { requestWindow, type SimulatorRequest } from '../model/request.js';
import type { Decimal } from '../numeric/decimal.js';
import {
  atMost,
  type Bounded,
  dividedBy,
  exactly,
  fromDecimal,
  minus,
  minusFloored,
  plus,
  roundedDecimal,
  smaller,
  times,
  Undecided,
  ZERO_BOUNDED,
} from '../numeric/bounded.js';
import type { Candidate, RankContext, RankedWallet, RankMetric, RankOptions } from './rank.js';
import { metricOf } from './rank.js';

/** The sort metrics the screen bounds: sums over a copier's deals, and its deal counts. */
export const SCREENED_METRICS = [
  'pnl_total',
  'roi_total',
  'investment_amount',
  'trading_volume',
  'deals',
  'closed_deals',
] as const satisfies readonly RankMetric[];
export type ScreenedMetric = (typeof SCREENED_METRICS)[number];

/** The largest `top` a screen is made for: beyond a walk's worth of wallets it saves little. */
export const SCREEN_TOP_LIMIT = 500;

/**
 * Members of a request's `strategy` a screen takes: those that change no deal, and the copier's
 * starting balance (a buy it cannot pay for is skipped).
 */
const SCREENED_MEMBERS = new Set(['report_wallet', 'report_leaders', 'starting_balance_usd']);

/**
 * Whether a rank of `request` (as given, before `rankRequest` adds the copier's wallet) with
 * these options is screened: a `top` of at most {@link SCREEN_TOP_LIMIT}, a screened metric, a
 * strategy that only reports or sets a starting balance, and every swap a price observation.
 */
export function screenApplies(
  request: unknown,
  options: Pick<RankOptions, 'top' | 'sortBy' | 'engineOptions'>,
): boolean {
  if (options.top === undefined || options.top > SCREEN_TOP_LIMIT) return false;
  if (!(SCREENED_METRICS as readonly string[]).includes(options.sortBy ?? 'pnl_total')) return false;
  const min = (options.engineOptions as { min_price_swap_usd?: unknown } | undefined)?.min_price_swap_usd;
  if (min !== undefined && Number(min) !== 0) return false;
  if (request === null || typeof request !== 'object') return false;
  const strategy = (request as { strategy?: unknown }).strategy;
  if (strategy === undefined || strategy === null) return true;
  return (
    typeof strategy === 'object' &&
    !Array.isArray(strategy) &&
    Object.keys(strategy).every((member) => SCREENED_MEMBERS.has(member))
  );
}

/** A candidate's screened figures: its deal count and the interval of the sort metric. */
export interface ScreenedWallet {
  readonly deals: number;
  /** The metric as the row prints it (the nearest double of the exact value) lies in [low, high]. */
  readonly low: number;
  readonly high: number;
}

/** What the screen chose: the wallets to copy exactly, and the bounds of each decided one to check them by. */
export interface ScreenVerdict {
  readonly confirm: Candidate[];
  /** By wallet id; absent for a wallet the doubles left undecided. */
  readonly bounds: ReadonlyMap<number, ScreenedWallet>;
}

/** The screened figures of the candidates the doubles decide, by wallet id. */
export type ScreenBounds = Map<number, ScreenedWallet>;

/**
 * The wallets to copy exactly (in the order given) once the candidates are screened, or null when
 * the screen leaves out none of them. A wallet is left out only when its metric is surely below
 * the `top`-th largest lower bound among wallets that surely pass `minDeals` (so at least `top`
 * wallets kept rank above it), or it surely fails `minDeals`.
 */
export function contenders(
  candidates: readonly Candidate[],
  bounds: ScreenBounds,
  options: Pick<RankOptions, 'top' | 'minDeals'>,
): ScreenVerdict | null {
  const top = options.top!;
  const minDeals = options.minDeals ?? 0;
  const lows: number[] = [];
  for (const b of bounds.values()) if (b.deals >= minDeals) lows.push(b.low);
  if (lows.length < top) return null;
  lows.sort((a, b) => b - a);
  const threshold = lows[top - 1]!;
  const confirm = candidates.filter(({ id }) => {
    const b = bounds.get(id);
    return b === undefined || (b.deals >= minDeals && b.high >= threshold);
  });
  return confirm.length === candidates.length ? null : { confirm, bounds };
}

/** The screen's figures as numbers for another thread: id, deals, low and high of each decided wallet. */
export function packBounds(bounds: ScreenBounds): Float64Array {
  const packed = new Float64Array(4 * bounds.size);
  let at = 0;
  for (const [id, b] of bounds) {
    packed.set([id, b.deals, b.low, b.high], at);
    at += 4;
  }
  return packed;
}

/** Adds the figures {@link packBounds} gave to `into`. */
export function unpackBounds(packed: Float64Array, into: ScreenBounds): void {
  for (let at = 0; at < packed.length; at += 4) {
    into.set(packed[at]!, { deals: packed[at + 1]!, low: packed[at + 2]!, high: packed[at + 3]! });
  }
}

/**
 * True when every exact row agrees with its screened bounds (the same deal count, the metric
 * within them): the screen's own check that its replay matches the engine's. A row that does
 * not makes the rank copy every candidate instead.
 */
export function rowsAgree(rows: readonly RankedWallet[], verdict: ScreenVerdict, metric: RankMetric): boolean {
  return rows.every((row, k) => {
    const b = verdict.bounds.get(verdict.confirm[k]!.id);
    if (b === undefined) return true;
    const value = metricOf(row, metric);
    return row.deals === b.deals && value !== null && value >= b.low && value <= b.high;
  });
}

/** An open or closed deal of the screen's replay. */
interface ScreenDeal {
  readonly token: number;
  readonly index: number;
  buys: number;
  /** Tokens held (the one leader's lot) and their cost, `usd_invested`. */
  lot: Bounded;
  cost: Bounded;
  bought: Bounded;
  sold: Bounded;
  networkFees: Bounded;
  /** Last follower trade: its time-fix is due `hours` later. */
  lastTime: number;
  /** The place among its token's swaps of the leader swap it last copied: its time-fix is priced at or after it. */
  lastSlot: number;
}

/** Running sums of one copier. */
interface CopierSums {
  deals: number;
  closed: number;
  pnl: Bounded;
  invested: Bounded;
  volume: Bounded;
  /** The copier's cash, with a starting balance (copier-wallet.md 2). */
  cash: Bounded;
  /** The open deals' time-fix deadlines, an entry a trade: the entries a later trade moved are skipped. */
  readonly deadlines: Deadlines;
}

/** A time-fix deadline of a deal, as of one of its trades. */
interface Deadline {
  readonly deadline: number;
  readonly deal: ScreenDeal;
}

/**
 * The time-fix deadlines of a copier's trades, in the order they were made, which is their
 * order: a copier trades in time order, and every deadline lies the same hours after its trade.
 * Deals due at the same moment sell at the same prices and fees, so their order changes no sum.
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

/**
 * Copies wallets alone in doubles: the settings of the request and options as bounded numbers,
 * and the tape's swaps as rows, made once for all the wallets it screens.
 */
export class WalletScreen {
  private readonly request: SimulatorRequest;
  private readonly start: number;
  private readonly end: number;
  private readonly fraction: Bounded;
  private readonly maxBuy: Bounded;
  private readonly maxPosition: Bounded;
  private readonly dust: Bounded;
  private readonly feeNative: Bounded;
  private readonly botRate: Bounded;
  private readonly unknownOnePlusS: Bounded;
  private readonly assumedHalf: Bounded | null;
  private readonly timeFixSeconds: number | null;
  /** `starting_balance_usd`: a copied buy whose amount and fees exceed the cash is skipped; null: unlimited. */
  private readonly balance: Bounded | null;
  private readonly allButDust = fromDecimal('0.999999');
  private readonly one = exactly(1);
  private readonly hundred = exactly(100);
  private readonly half = fromDecimal('0.5');
  /** The network fee at each native price asked for. */
  private readonly fees = new Map<Decimal, Bounded>();
  /** The swaps before the window's end as rows of doubles ({@link swapRows}). */
  private readonly rows: Float64Array;
  /** By token, the event positions of its swaps and their times (for the searches), made when first asked for. */
  private readonly tokenPositions: (Uint32Array | undefined)[] = [];
  private readonly tokenTimes: (Float64Array | undefined)[] = [];

  constructor(private readonly context: RankContext) {
    const { request, engineOptions } = context;
    this.request = request;
    const window = requestWindow(request);
    this.start = window.start;
    this.end = window.end;
    this.fraction = dividedBy(fromDecimal(request.buy_percentage), this.hundred);
    this.maxBuy = fromDecimal(request.max_buy_amount);
    this.maxPosition = fromDecimal(request.max_position_amount);
    this.dust = times(this.maxPosition, fromDecimal('1e-20'));
    this.feeNative = feeNative(request, engineOptions, context.tape.network);
    this.botRate = request.include_bot_fees
      ? dividedBy(fromDecimal(engineOptions.bot_fee_percent), this.hundred)
      : ZERO_BOUNDED;
    const s = dividedBy(fromDecimal(engineOptions.unknown_liquidity_slippage_percent), this.hundred);
    this.unknownOnePlusS = plus(this.one, s);
    const assumed = engineOptions.assumed_liquidity_usd;
    this.assumedHalf = assumed === null ? null : times(fromDecimal(assumed), this.half);
    this.timeFixSeconds = request.inactivity_time_fix === null ? null : request.inactivity_time_fix.hours * 3600;
    const balance = request.strategy?.starting_balance_usd;
    this.balance = balance === undefined || balance === null ? null : fromDecimal(balance);
    this.rows = swapRows(context);
  }

  /** Each candidate copied alone: its screened figures by wallet id, for those the doubles decide. */
  bounds(candidates: readonly Candidate[], metric: ScreenedMetric): ScreenBounds {
    const bounds: ScreenBounds = new Map();
    for (const { id } of candidates) {
      const screened = this.wallet(id, metric);
      if (screened !== null) bounds.set(id, screened);
    }
    return bounds;
  }

  /** Wallet `id` copied alone: its deal count and the metric's bounds, or null when undecided. */
  private wallet(id: number, metric: ScreenedMetric): ScreenedWallet | null {
    try {
      const sums = this.copy(id);
      const value = metricValue(sums, metric, this.hundred);
      return { deals: sums.deals, low: value.low, high: value.high };
    } catch (e) {
      if (e instanceof Undecided) return null;
      throw e;
    }
  }

  private copy(id: number): CopierSums {
    const { buckets } = this.context;
    const sums: CopierSums = {
      deals: 0,
      closed: 0,
      pnl: ZERO_BOUNDED,
      invested: ZERO_BOUNDED,
      volume: ZERO_BOUNDED,
      cash: this.balance ?? ZERO_BOUNDED,
      deadlines: new Deadlines(),
    };
    const holdings = new Map<number, Bounded>();
    const open = new Map<number, ScreenDeal>();
    const rows = this.rows;
    for (const k of buckets.walletPositions(id)) {
      const at = k * ROW;
      const time = rows[at + TIME]!;
      const token = rows[at + TOKEN]! | 0; // a small integer key: a double one is hashed as an object
      if (this.timeFixSeconds !== null) this.fireTimeFixes(open, time, sums);
      const quantity = roundedDecimal(rows[at + QUANTITY]!);
      const held = holdings.get(token) ?? ZERO_BOUNDED;
      const buy = rows[at + BUY] === 1;
      holdings.set(token, buy ? plus(held, quantity) : minusFloored(held, quantity));
      if (time < this.start) continue;
      if (buy) this.copyBuy(open, at, quantity, sums);
      else this.copySell(open, at, quantity, held, sums);
    }
    if (this.timeFixSeconds !== null) {
      this.fireTimeFixes(open, this.end, sums);
      for (const deal of [...open.values()]) this.sellWhole(open, deal, this.end, Infinity, sums);
    } else {
      for (const deal of open.values()) {
        const last = this.lastSwapBefore(deal.token, Infinity);
        const price = roundedDecimal(this.rows[last * ROW + PRICE]!);
        sums.pnl = plus(sums.pnl, plus(this.dealPnl(deal), times(deal.lot, price)));
      }
    }
    return sums;
  }

  /** Model 3.1 for a leader buy of `quantity`, the swap's row at `at`. */
  private copyBuy(open: Map<number, ScreenDeal>, at: number, quantity: Bounded, sums: CopierSums): void {
    const rows = this.rows;
    const token = rows[at + TOKEN]! | 0; // a small integer key: a double one is hashed as an object
    const time = rows[at + TIME]!;
    let deal = open.get(token);
    if (deal !== undefined && deal.buys - 1 >= this.request.max_dupe_buy_times) return;
    const room = deal === undefined ? this.maxPosition : minus(this.maxPosition, deal.cost);
    if (atMost(room, this.dust, 'a position at its cap')) return;
    const price = roundedDecimal(rows[at + PRICE]!);
    const usd = rows[at + USD]!;
    const leaderUsd = Number.isNaN(usd) ? times(quantity, price) : roundedDecimal(usd);
    const amount = smaller(smaller(times(leaderUsd, this.fraction), this.maxBuy), room);
    if (atMost(amount, this.dust, 'a buy of dust')) return;
    const networkFee = this.networkFee(time);
    // The cash check: the amount and the fees of a landed buy at most the cash.
    const fees = this.balance === null ? null : plus(networkFee, times(amount, this.botRate));
    if (fees !== null && !atMost(plus(amount, fees), sums.cash, 'a buy at the edge of the cash')) return;
    const half = this.liquidityHalf(rows[at + LIQUIDITY]!);
    const onePlusS = half === null ? this.unknownOnePlusS : plus(this.one, dividedBy(amount, half));
    const bought = dividedBy(amount, times(price, onePlusS));
    if (deal === undefined) {
      deal = {
        token,
        index: sums.deals++,
        buys: 0,
        lot: ZERO_BOUNDED,
        cost: ZERO_BOUNDED,
        bought: ZERO_BOUNDED,
        sold: ZERO_BOUNDED,
        networkFees: ZERO_BOUNDED,
        lastTime: time,
        lastSlot: 0,
      };
      open.set(token, deal);
    }
    deal.buys++;
    deal.lastSlot = rows[at + SLOT]!;
    deal.lot = plus(deal.lot, bought);
    deal.cost = plus(deal.cost, amount);
    deal.bought = plus(deal.bought, amount);
    this.traded(deal, time, amount, networkFee, sums);
    sums.invested = plus(sums.invested, amount);
    if (fees !== null) sums.cash = minus(sums.cash, plus(amount, fees));
  }

  /** Model 3.2 for a leader sell of `quantity` with holdings `held` before it, the swap's row at `at`. */
  private copySell(
    open: Map<number, ScreenDeal>,
    at: number,
    quantity: Bounded,
    held: Bounded,
    sums: CopierSums,
  ): void {
    const rows = this.rows;
    const deal = open.get(rows[at + TOKEN]! | 0);
    if (deal === undefined) return;
    const time = rows[at + TIME]!;
    const price = roundedDecimal(rows[at + PRICE]!);
    const half = this.liquidityHalf(rows[at + LIQUIDITY]!);
    if (this.request.close_all || atMost(times(held, this.allButDust), quantity, 'a sell of nearly all')) {
      this.sellAll(open, deal, time, price, half, sums);
      return;
    }
    const fraction = dividedBy(quantity, held);
    const sold = times(deal.lot, fraction);
    const usd = this.sellProceeds(sold, price, half);
    deal.cost = minus(deal.cost, times(deal.cost, fraction));
    deal.lot = minus(deal.lot, sold);
    deal.lastSlot = rows[at + SLOT]!;
    deal.sold = plus(deal.sold, usd);
    const networkFee = this.networkFee(time);
    this.traded(deal, time, usd, networkFee, sums);
    this.cashIn(usd, networkFee, sums);
  }

  /** A time-fix (3.4) of `deal` at `time`, priced at the swaps before `before` (a time, or Infinity: all). */
  private sellWhole(
    open: Map<number, ScreenDeal>,
    deal: ScreenDeal,
    time: number,
    before: number,
    sums: CopierSums,
  ): void {
    const last = this.lastSwapBefore(deal.token, before, deal.lastSlot);
    if (last < 0) throw new Undecided('a token without a known price');
    const at = last * ROW;
    this.sellAll(
      open,
      deal,
      time,
      roundedDecimal(this.rows[at + PRICE]!),
      this.liquidityHalf(this.rows[at + LIQUIDITY]!),
      sums,
    );
  }

  /** A sell of the deal's whole lot, which closes it. */
  private sellAll(
    open: Map<number, ScreenDeal>,
    deal: ScreenDeal,
    time: number,
    price: Bounded,
    half: Bounded | null,
    sums: CopierSums,
  ): void {
    const usd = this.sellProceeds(deal.lot, price, half);
    deal.sold = plus(deal.sold, usd);
    deal.lot = ZERO_BOUNDED;
    deal.cost = ZERO_BOUNDED;
    const networkFee = this.networkFee(time);
    this.traded(deal, time, usd, networkFee, sums);
    this.cashIn(usd, networkFee, sums);
    open.delete(deal.token);
    sums.closed++;
    sums.pnl = plus(sums.pnl, this.dealPnl(deal));
  }

  /** The time-fixes due by `until` (and by `window_end`), earliest first. */
  private fireTimeFixes(open: Map<number, ScreenDeal>, until: number, sums: CopierSums): void {
    const limit = Math.min(until, this.end);
    const due = sums.deadlines;
    for (let next = due.first(); next !== null && next.deadline <= limit; next = due.first()) {
      due.take();
      const deal = next.deal;
      // An entry of a deal closed since, or traded since (a later entry holds its deadline), is stale.
      if (open.get(deal.token) === deal && deal.lastTime + this.timeFixSeconds! === next.deadline) {
        this.sellWhole(open, deal, next.deadline, next.deadline, sums);
      }
    }
  }

  /** A sell's `usd_amount` (3.3): `V / (1 + s)` with `V = Q × p`, `s = V / (L/2)`. */
  private sellProceeds(sold: Bounded, price: Bounded, half: Bounded | null): Bounded {
    const value = times(sold, price);
    if (half === null) return dividedBy(value, this.unknownOnePlusS);
    return dividedBy(times(value, half), plus(half, value));
  }

  /** The fees and sums of a follower trade of `usd` at `time` in `deal`, its network fee `networkFee`. */
  private traded(deal: ScreenDeal, time: number, usd: Bounded, networkFee: Bounded, sums: CopierSums): void {
    deal.networkFees = plus(deal.networkFees, networkFee);
    deal.lastTime = time;
    if (this.timeFixSeconds !== null && time + this.timeFixSeconds <= this.end) {
      sums.deadlines.add({ deadline: time + this.timeFixSeconds, deal });
    }
    sums.volume = plus(sums.volume, usd);
  }

  /** A landed sell's `usd_amount` less its fees into the cash, with a starting balance. */
  private cashIn(usd: Bounded, networkFee: Bounded, sums: CopierSums): void {
    if (this.balance === null) return;
    sums.cash = plus(sums.cash, minus(usd, plus(networkFee, times(usd, this.botRate))));
  }

  /** A deal's `pnl_realized` less its value still held: `sold − bought − fees` (4). */
  private dealPnl(deal: ScreenDeal): Bounded {
    const botFee = times(plus(deal.bought, deal.sold), this.botRate);
    return minus(minus(minus(deal.sold, deal.bought), deal.networkFees), botFee);
  }

  private networkFee(time: number): Bounded {
    const native = this.context.tape.native.at(time);
    let fee = this.fees.get(native);
    if (fee === undefined) this.fees.set(native, (fee = times(this.feeNative, fromDecimal(native.toString()))));
    return fee;
  }

  /** Half of a known liquidity (NaN: none known, then the assumed one, or null for the flat slippage). */
  private liquidityHalf(liquidity: number): Bounded | null {
    return Number.isNaN(liquidity) ? this.assumedHalf : times(roundedDecimal(liquidity), this.half);
  }

  /**
   * The event position of the token's last swap before `time` (Infinity: its last before the
   * window's end), whose price and liquidity are known at that moment; −1 when there is none.
   */
  private lastSwapBefore(token: number, time: number, from = 0): number {
    let positions = this.tokenPositions[token];
    let times = this.tokenTimes[token];
    if (positions === undefined || times === undefined) {
      positions = this.context.buckets.tokenSeries(token).positions;
      times = new Float64Array(positions.length);
      for (let j = 0; j < positions.length; j++) times[j] = this.rows[positions[j]! * ROW + TIME]!;
      this.tokenPositions[token] = positions;
      this.tokenTimes[token] = times;
    }
    // The swaps before `time` are those before the first place at or after it: a search that
    // gallops from `from` (a place before `time`), as a time-fix falls soon after its deal's last copy.
    let lo = from;
    let step = 1;
    while (lo + step < times.length && times[lo + step]! < time) {
      lo += step;
      step *= 2;
    }
    let hi = Math.min(lo + step, times.length);
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (times[mid]! < time) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? -1 : positions[lo - 1]!;
  }
}

// A swap's row: its time, token id, side (1: buy), quantity, price, USD amount (NaN: none), its
// token's known liquidity once it is recorded (NaN: none yet) and its place among the token's swaps.
const TIME = 0;
const TOKEN = 1;
const BUY = 2;
const QUANTITY = 3;
const PRICE = 4;
const USD = 5;
const LIQUIDITY = 6;
/** Its place among its token's swaps. */
const SLOT = 7;
const ROW = 8;

/**
 * The swaps before the window's end as rows of doubles, by event position: one pass in event
 * order reads each swap's decimals once, and the copiers then read a row each, not the swap
 * objects and their texts from all over the heap (four times the time, in wallet order). The
 * known liquidity is what a copy of the swap trades against: its own, or the last one known.
 */
function swapRows(context: RankContext): Float64Array {
  const { buckets, tape } = context;
  const rows = new Float64Array(buckets.end * ROW);
  const known = new Float64Array(tape.tokens.length).fill(Number.NaN);
  const counts = new Float64Array(tape.tokens.length);
  for (let k = 0; k < buckets.end; k++) {
    const swap = buckets.swapAt(k);
    const token = tape.tokenOf[tape.order[k]!]!;
    const at = k * ROW;
    if (swap.usd_liquidity != null) known[token] = Number(swap.usd_liquidity);
    rows[at + TIME] = swap.time;
    rows[at + TOKEN] = token;
    rows[at + BUY] = swap.type === 'buy' ? 1 : 0;
    rows[at + QUANTITY] = Number(swap.quantity);
    rows[at + PRICE] = Number(swap.usd_price);
    rows[at + USD] = swap.usd_amount === undefined ? Number.NaN : Number(swap.usd_amount);
    rows[at + LIQUIDITY] = known[token]!;
    rows[at + SLOT] = counts[token]!++;
  }
  return rows;
}

/** `(base_fee_native + priority_fee + bribe)`, native coin per transaction (3.3). */
function feeNative(request: SimulatorRequest, options: EngineOptions, network: SimulatorRequest['network']): Bounded {
  const base = fromDecimal(options.base_fee_native[network]);
  return plus(plus(base, fromDecimal(request.priority_fee)), fromDecimal(request.bribe));
}

/** The metric of a copier's sums, as the row prints it. */
function metricValue(sums: CopierSums, metric: ScreenedMetric, hundred: Bounded): Bounded {
  switch (metric) {
    case 'deals':
      return exactly(sums.deals);
    case 'closed_deals':
      return exactly(sums.closed);
    case 'investment_amount':
      return sums.invested;
    case 'trading_volume':
      return sums.volume;
    case 'pnl_total':
      return sums.pnl;
    case 'roi_total':
      return sums.deals === 0 ? ZERO_BOUNDED : dividedBy(times(hundred, sums.pnl), sums.invested);
  }
}
