import type { IndexedTape } from '../engine/tape-index.js';
import { DecimalJs40 } from '../numeric/decimal.js';
import { resolveEngineOptions, type EngineOptions, type EngineOptionsInput } from '../model/options.js';
import type { SimulatedDeal, SimulatedTrade } from '../model/response.js';
import { utcIso } from '../model/utc-time.js';
import type { Warning } from './warning.js';

/** A follower trade priced this many times above or below the market's median is far from it. */
export const FAR_FROM_MARKET = 10;
/** How many of the token's swaps on each side of a trade make "the market around it". */
export const NEIGHBOURS = 10;
/** Fewer prices than this around a trade say nothing about its market. */
const FEWEST_PRICES = 5;
/** How many trades a message names; the warning counts the rest. */
const SHOWN = 3;

/** The deals of a response, whole or made one at a time. */
export interface DealSource {
  readonly count: number;
  deal(i: number): SimulatedDeal;
}

/**
 * The warnings about the follower's own trades: those filled at a price far from the token's
 * market (`price_far_from_market`, with the tape in memory), and those into pools of unknown
 * liquidity priced with the flat slippage that nobody chose (`unknown_liquidity`: the engine
 * options, as given, set neither `assumed_liquidity_usd` nor `unknown_liquidity_slippage_percent`).
 */
export function tradeWarnings(deals: DealSource, tape: IndexedTape | null, given: EngineOptionsInput): Warning[] {
  const trades = followerTrades(deals);
  const warnings: Warning[] = [];
  if (tape !== null) {
    const far = farFromMarket(trades, tape, resolveEngineOptions(given));
    if (far !== null) warnings.push(far);
  }
  const chosen = (value: unknown): boolean => value !== undefined && value !== null;
  if (!chosen(given.assumed_liquidity_usd) && !chosen(given.unknown_liquidity_slippage_percent)) {
    const blind = unknownLiquidity(trades);
    if (blind !== null) warnings.push(blind);
  }
  return warnings;
}

/** A follower trade, with its deal's index and token: what the checks read of it. */
interface FollowerTrade {
  readonly deal: number;
  readonly token: SimulatedDeal['token'];
  readonly trade: SimulatedTrade;
}

/** Every trade of every deal, each deal made once (a response in parts makes them on demand). */
function followerTrades(deals: DealSource): FollowerTrade[] {
  const trades: FollowerTrade[] = [];
  for (let d = 0; d < deals.count; d++) {
    const deal = deals.deal(d);
    for (const trade of deal.trades) trades.push({ deal: d, token: deal.token, trade });
  }
  return trades;
}

/** A token's swaps in event order: their input indices, times and prices. */
interface TokenSeries {
  readonly swaps: number[];
  readonly times: number[];
  readonly prices: number[];
}

/** The series of the tokens the follower traded, one pass over the tape. */
function tradedSeries(
  trades: readonly FollowerTrade[],
  tape: IndexedTape,
  idOf: ReadonlyMap<string, number>,
  options: EngineOptions,
): Map<number, TokenSeries> {
  const series = new Map<number, TokenSeries>();
  for (const { token } of trades) {
    const id = idOf.get(token.address);
    if (id !== undefined && !series.has(id)) series.set(id, { swaps: [], times: [], prices: [] });
  }
  // Swaps below min_price_swap_usd are no price observations (model 1.3): not the market either.
  const least = Number(options.min_price_swap_usd);
  for (let k = 0; k < tape.order.length; k++) {
    const i = tape.order[k]!;
    const s = series.get(tape.tokenOf[i]!);
    if (s === undefined) continue;
    const swap = tape.swaps[i]!;
    if (least > 0 && swap.usd_amount !== undefined && Number(swap.usd_amount) < least) continue;
    s.swaps.push(i);
    s.times.push(swap.time);
    s.prices.push(Number(swap.usd_price));
  }
  return series;
}

/** The first position of `times` (sorted) whose time is after `t`. */
function firstAfter(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function median(values: number[]): number {
  const sorted = values.sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** How many times apart two prices are (≥ 1). */
const apart = (a: number, b: number): number => Math.max(a / b, b / a);

interface FarTrade {
  readonly deal: number;
  readonly label: string;
  readonly trade: SimulatedTrade;
  readonly median: number;
  readonly around: number;
  /** The swap whose price the fill is nearest to, among those at or before it: the print it was priced from. */
  readonly source: number | null;
}

/**
 * The follower trades filled at a price `FAR_FROM_MARKET` times or more above or below the median
 * of the token's `NEIGHBOURS` swaps before it (at or before its time) and after it: a junk print
 * (a dust trade at a stale or broken price) that the copy or an exit was priced from.
 */
function farFromMarket(trades: readonly FollowerTrade[], tape: IndexedTape, options: EngineOptions): Warning | null {
  const idOf = new Map(tape.tokens.map((t, id) => [t.address, id]));
  const series = tradedSeries(trades, tape, idOf, options);
  const found: FarTrade[] = [];
  for (const { deal, token, trade } of trades) {
    const s = series.get(idOf.get(token.address) ?? -1);
    if (s === undefined || trade.usd_price === null) continue;
    const split = firstAfter(s.times, trade.time);
    const from = Math.max(0, split - NEIGHBOURS);
    const around = s.prices.slice(from, Math.min(s.prices.length, split + NEIGHBOURS));
    if (around.length < FEWEST_PRICES) continue;
    const market = median(around);
    if (apart(trade.usd_price, market) < FAR_FROM_MARKET) continue;
    let source: number | null = null;
    for (let j = split - 1; j >= from; j--) {
      if (source === null || apart(trade.usd_price, s.prices[j]!) < apart(trade.usd_price, s.prices[source]!))
        source = j;
    }
    const label = token.symbol ?? token.name ?? token.address;
    found.push({
      deal,
      label,
      trade,
      median: market,
      around: around.length,
      source: source === null ? null : s.swaps[source]!,
    });
  }
  if (found.length === 0) return null;
  const described = found.slice(0, SHOWN).map((f) => describe(f, tape));
  const more = found.length > SHOWN ? `; and ${found.length - SHOWN} more` : '';
  const sources = [...new Set(found.flatMap((f) => (f.source === null ? [] : [f.source])))];
  return {
    code: 'price_far_from_market',
    message:
      `${found.length} follower trade${found.length === 1 ? ' was' : 's were'} filled at a price ` +
      `${FAR_FROM_MARKET}× or more away from the median of the token's ${NEIGHBOURS} swaps before and after: ` +
      `${described.join('; ')}${more}. A junk print (a dust swap at a broken price) decides such a result: ` +
      'check those swaps, or set the engine option min_price_swap_usd so that swaps that small set no price',
    swaps: sources,
  };
}

function describe(f: FarTrade, tape: IndexedTape): string {
  const times =
    f.trade.usd_price! > f.median
      ? `${round(f.trade.usd_price! / f.median)}× above`
      : `${round(f.median / f.trade.usd_price!)}× below`;
  const fill = `${f.trade.type} at ${utcIso(f.trade.time)} filled at ${price(f.trade.usd_price!)} USD`;
  const head = `deals[${f.deal}] (${f.label}) ${fill}, ${times} the median ${price(f.median)} of ${f.around} swaps`;
  if (f.source === null) return head;
  const swap = tape.swaps[f.source]!;
  const amount = swap.usd_amount === undefined ? '' : `, ${Number(swap.usd_amount)} USD`;
  const what = `${swap.type} by ${swap.wallet} at ${utcIso(swap.time)}${amount} at ${price(Number(swap.usd_price))}`;
  return `${head}; priced from swaps[${f.source}] (${what})`;
}

/**
 * Follower trades into pools whose liquidity the tape never gave (`usd_liquidity` null), while
 * no `assumed_liquidity_usd` is set: each slipped the flat `unknown_liquidity_slippage_percent`,
 * whatever its size.
 */
function unknownLiquidity(trades: readonly FollowerTrade[]): Warning | null {
  let blind = 0;
  let largest = 0;
  for (const { trade } of trades) {
    if (trade.usd_liquidity !== null) continue;
    blind++;
    largest = Math.max(largest, trade.usd_amount ?? 0);
  }
  const total = trades.length;
  if (blind === 0) return null;
  return {
    code: 'unknown_liquidity',
    message:
      `${blind} of the ${total} follower trades went into pools of unknown liquidity (the tape gives no ` +
      `usd_liquidity), the largest ${round(largest)} USD: each slipped the default flat 1 %, whatever its size. ` +
      'Set the engine option assumed_liquidity_usd ' +
      'so that a larger trade slips more, or unknown_liquidity_slippage_percent to say which flat percent is meant',
  };
}

/** Three significant digits, written out in full (no exponent). */
function round(value: number): string {
  return new DecimalJs40(value).toSignificantDigits(3).toFixed();
}

/** A price of any size with six significant digits: 0.000000198731. */
function price(value: number): string {
  return new DecimalJs40(value).toSignificantDigits(6).toFixed();
}
