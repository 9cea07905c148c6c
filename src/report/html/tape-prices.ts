import type { IndexedTape } from '../../engine/tape-index.js';
import { addressKey } from '../../engine/tape-index.js';
import type { SimulatedDeal } from '../../model/response.js';
import { minMaxIndices } from './thin.js';

/**
 * Price points drawn for one deal, compactly: times as differences (the first from the deal's
 * open time), prices as integers of `10^e` USD (six significant digits of the deal's highest
 * price: a chart cannot show more).
 */
export interface PricePoints {
  readonly t: number[];
  readonly p: number[];
}

/** The tape around one deal: every swap of its token over the deal's life, and the leaders' own. */
export interface DealPrices {
  readonly e: number;
  readonly market: PricePoints;
  readonly leader_buys: PricePoints;
  readonly leader_sells: PricePoints;
}

/**
 * About this many price points in a whole report: a deal's swaps are thinned to
 * `PRICE_POINT_BUDGET / (2 × deals)` columns (16 to 600), so a report of ten thousand deals stays
 * a few megabytes and one of a few deals keeps every swap.
 */
export const PRICE_POINT_BUDGET = 300_000;

export function columnsPerDeal(deals: number): number {
  return Math.max(16, Math.min(600, Math.floor(PRICE_POINT_BUDGET / (2 * Math.max(1, deals)))));
}

/**
 * For each deal, the swaps of its token between its open time and its last operation, from the
 * tape, in event order; the followed wallets' swaps apart. Thinned for display
 * ({@link minMaxIndices}); null for a deal whose token the tape does not hold.
 */
export function dealPrices(
  tape: IndexedTape,
  deals: readonly SimulatedDeal[],
  leaders: readonly string[],
): (DealPrices | null)[] {
  const tokenIds = new Map(tape.tokens.map((t, id) => [t.address, id]));
  const wanted = new Set(deals.map((d) => tokenIds.get(d.token.address)).filter((id) => id !== undefined));
  const leaderIds = new Set(
    leaders.map((w) => tape.walletIds.get(addressKey(tape.network, w))).filter((id) => id !== undefined),
  );

  // Each wanted token's swaps (input indices) in event order: one walk of the tape.
  const swapsOf = new Map<number, number[]>();
  for (const i of tape.order) {
    const token = tape.tokenOf[i]!;
    if (!wanted.has(token)) continue;
    let list = swapsOf.get(token);
    if (list === undefined) swapsOf.set(token, (list = []));
    list.push(i);
  }

  const columns = columnsPerDeal(deals.length);
  return deals.map((deal) => {
    const id = tokenIds.get(deal.token.address);
    if (id === undefined) return null;
    const list = swapsOf.get(id) ?? [];
    const from = firstAtOrAfter(tape, list, deal.open_time);
    const to = firstAtOrAfter(tape, list, deal.last_operation_time + 1);
    const market: number[] = [];
    const buys: number[] = [];
    const sells: number[] = [];
    for (let k = from; k < to; k++) {
      const i = list[k]!;
      market.push(i);
      if (leaderIds.has(tape.walletOf[i]!)) (tape.swaps[i]!.type === 'buy' ? buys : sells).push(i);
    }
    let highest = 0;
    for (const i of market) highest = Math.max(highest, Number(tape.swaps[i]!.usd_price));
    const e = highest > 0 ? Math.floor(Math.log10(highest)) - 5 : 0;
    // The leaders' swaps are markers beside the price line: half its resolution is plenty.
    const points = (indices: number[], width: number): PricePoints => encode(tape, indices, width, deal.open_time, e);
    const half = Math.ceil(columns / 2);
    return { e, market: points(market, columns), leader_buys: points(buys, half), leader_sells: points(sells, half) };
  });
}

/** The position in `list` (swap indices in event order) of the first swap at or after `time`. */
function firstAtOrAfter(tape: IndexedTape, list: readonly number[], time: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tape.swaps[list[mid]!]!.time < time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function encode(tape: IndexedTape, indices: readonly number[], columns: number, start: number, e: number): PricePoints {
  const times = indices.map((i) => tape.swaps[i]!.time);
  const prices = indices.map((i) => Number(tape.swaps[i]!.usd_price));
  const kept = minMaxIndices(times, prices, columns);
  const scale = 10 ** -e;
  const t: number[] = [];
  const p: number[] = [];
  let previous = start;
  for (const k of kept) {
    t.push(times[k]! - previous);
    previous = times[k]!;
    p.push(Math.round(prices[k]! * scale));
  }
  return { t, p };
}
