import { isIndexedTape, type IndexedTape } from '../engine/tape-index.js';
import { DecimalJs40 } from '../numeric/decimal.js';
import { resolveEngineOptions, type EngineOptionsInput } from '../model/options.js';
import type { SimulatedDeal, SimulatedTrade } from '../model/response.js';
import type { TradeTable } from '../engine/trade-log.js';
import { LIQUIDITY, PRICE, recordAt, TIME, TRADE_ROW_WIDTH, USD_AMOUNT } from '../engine/trade-row.js';
import { tradeJson } from '../report/trade-json.js';
import { utcIso } from '../model/utc-time.js';
import type { Warning } from './warning.js';
import { TapeMarket, type MarketPrices } from './market-prices.js';

/** A follower trade priced this many times above or below the market's median is far from it. */
export const FAR_FROM_MARKET = 10;
/** How many of the token's swaps on each side of a trade make "the market around it". */
export const NEIGHBOURS = 10;
/** Fewer prices than this around a trade say nothing about its market. */
const FEWEST_PRICES = 5;
/** How many trades a message names; the warning counts the rest. */
const SHOWN = 3;

/**
 * The deals of a response, whole or made one at a time: what the checks read of each, its token,
 * and the rows of every deal's trades (deal `i`'s rows from `trades.offsets[i]`), which a
 * response in parts keeps without making each trade's object.
 */
export interface DealSource {
  readonly count: number;
  token(i: number): SimulatedDeal['token'];
  readonly trades: TradeTable;
}

/**
 * The warnings about the follower's own trades: those filled at a price far from the token's
 * market (`price_far_from_market`, with the tape in memory or its market gathered as it streamed
 * by), and those into pools of unknown liquidity priced with the flat slippage that nobody chose
 * (`unknown_liquidity`: the engine options, as given, set neither `assumed_liquidity_usd` nor
 * `unknown_liquidity_slippage_percent`).
 */
export function tradeWarnings(
  deals: DealSource,
  market: IndexedTape | MarketPrices | null,
  given: EngineOptionsInput,
): Warning[] {
  const prices =
    market === null || !isIndexedTape(market) ? market : new TapeMarket(market, resolveEngineOptions(given));
  const far = prices === null ? null : new FarFromMarket(prices);
  const chosen = (value: unknown): boolean => value !== undefined && value !== null;
  const blind =
    chosen(given.assumed_liquidity_usd) || chosen(given.unknown_liquidity_slippage_percent)
      ? null
      : new UnknownLiquidity();
  if (far === null && blind === null) return [];
  const { offsets } = deals.trades;
  for (let d = 0; d < deals.count; d++) {
    far?.check(d, deals.token(d), deals.trades, offsets[d]!, offsets[d + 1]!);
    blind?.count(deals.trades, offsets[d]!, offsets[d + 1]!);
  }
  return [far?.warning(), blind?.warning()].filter((w): w is Warning => w !== null && w !== undefined);
}

/** The median of `values[0 .. n)`, sorted in place (an insertion sort: n is at most 2 × NEIGHBOURS). */
function median(values: Float64Array, n: number): number {
  for (let i = 1; i < n; i++) {
    const v = values[i]!;
    let j = i - 1;
    while (j >= 0 && values[j]! > v) {
      values[j + 1] = values[j]!;
      j--;
    }
    values[j + 1] = v;
  }
  const mid = n >> 1;
  return n % 2 === 1 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
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
class FarFromMarket {
  private readonly around = new Float64Array(2 * NEIGHBOURS);
  private readonly found: FarTrade[] = [];

  constructor(private readonly market: MarketPrices) {}

  /** Checks the trades of deal `deal`, rows `first` to `end` of `trades`. */
  check(deal: number, token: SimulatedDeal['token'], trades: TradeTable, first: number, end: number): void {
    const { market, around } = this;
    const t = market.tokenId(token.address);
    if (t === undefined) return;
    const { values } = trades;
    for (let row = first; row < end; row++) {
      const at = row * TRADE_ROW_WIDTH;
      const price = values[at + PRICE]!;
      if (price !== price) continue; // NaN: a trade with no price
      const split = market.firstAfter(t, values[at + TIME]!);
      const from = Math.max(market.start[t]!, split - NEIGHBOURS);
      const to = Math.min(market.start[t + 1]!, split + NEIGHBOURS);
      if (to - from < FEWEST_PRICES) continue;
      let lowest = Infinity;
      let highest = -Infinity;
      for (let at = from; at < to; at++) {
        const price = market.price(at);
        around[at - from] = price;
        if (price < lowest) lowest = price;
        if (price > highest) highest = price;
      }
      // The median lies between the lowest and the highest price, and a rounded quotient moves with
      // its operands: within 10× of both, the trade is within 10× of the median, which is not made.
      if (price / lowest < FAR_FROM_MARKET && highest / price < FAR_FROM_MARKET) continue;
      const middle = median(around, to - from);
      if (apart(price, middle) < FAR_FROM_MARKET) continue;
      let source: number | null = null;
      for (let j = split - 1; j >= from; j--) {
        if (source === null || apart(price, market.price(j)) < apart(price, market.price(source))) source = j;
      }
      this.found.push({
        deal,
        label: token.symbol ?? token.name ?? token.address,
        trade: tradeJson(recordAt(values, at, trades.types)),
        median: middle,
        around: to - from,
        source: source === null ? null : market.swapIndex(source),
      });
    }
  }

  /** The warning naming the trades found far from their market; null when none was. */
  warning(): Warning | null {
    const { found, market } = this;
    if (found.length === 0) return null;
    const described = found.slice(0, SHOWN).map((f) => describe(f, market));
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
}

function describe(f: FarTrade, market: MarketPrices): string {
  const times =
    f.trade.usd_price! > f.median
      ? `${round(f.trade.usd_price! / f.median)}× above`
      : `${round(f.median / f.trade.usd_price!)}× below`;
  const fill = `${f.trade.type} at ${utcIso(f.trade.time)} filled at ${price(f.trade.usd_price!)} USD`;
  const head = `deals[${f.deal}] (${f.label}) ${fill}, ${times} the median ${price(f.median)} of ${f.around} swaps`;
  if (f.source === null) return head;
  const swap = market.swap(f.source);
  const amount = swap.usd_amount === undefined ? '' : `, ${Number(swap.usd_amount)} USD`;
  const what = `${swap.type} by ${swap.wallet} at ${utcIso(swap.time)}${amount} at ${price(Number(swap.usd_price))}`;
  return `${head}; priced from swaps[${f.source}] (${what})`;
}

/**
 * Follower trades into pools whose liquidity the tape never gave (`usd_liquidity` null), while
 * no `assumed_liquidity_usd` is set: each slipped the flat `unknown_liquidity_slippage_percent`,
 * whatever its size.
 */
class UnknownLiquidity {
  private blind = 0;
  private total = 0;
  private largest = 0;

  /** Counts rows `first` to `end` of `trades`. */
  count(trades: TradeTable, first: number, end: number): void {
    this.total += end - first;
    const { values } = trades;
    for (let at = first * TRADE_ROW_WIDTH; at < end * TRADE_ROW_WIDTH; at += TRADE_ROW_WIDTH) {
      if (values[at + LIQUIDITY] === values[at + LIQUIDITY]) continue; // known: not NaN
      this.blind++;
      const amount = values[at + USD_AMOUNT]!;
      if (amount > this.largest) this.largest = amount; // NaN (no amount) is not
    }
  }

  /** The warning counting the trades into pools of unknown liquidity; null when there was none. */
  warning(): Warning | null {
    const { blind, total, largest } = this;
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
}

/** Three significant digits, written out in full (no exponent). */
function round(value: number): string {
  return new DecimalJs40(value).toSignificantDigits(3).toFixed();
}

/** A price of any size with six significant digits: 0.000000198731. */
function price(value: number): string {
  return new DecimalJs40(value).toSignificantDigits(6).toFixed();
}
