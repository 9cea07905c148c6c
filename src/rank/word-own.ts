/**
 * A wallet's own results (a rank row's `own`) in bounded double words: its own deals as
 * analytics/own-deals.ts `computeOwnDeals` makes them, and their totals as `totalsFrom` sums the
 * deals that opened in the window, each figure as the exact engine prints it; `Undecided` when a
 * decision or a printed figure is not decided in double words (then they are made exactly).
 */
import {
  atMost,
  type Bounded,
  dividedBy,
  either,
  exactly,
  fromDecimal,
  HUNDRED_BOUNDED,
  minus,
  minusFloored,
  order,
  plus,
  printed,
  sign,
  times,
  ZERO_BOUNDED,
} from '../numeric/bounded.js';
import type { OwnResults } from './rank.js';
import { BUY, PRICE, QUANTITY, ROW, type SwapRows, TIME, TOKEN, USD } from './word-rows.js';

/** A deal of the wallet itself (own-deals.ts `OpenDeal`). */
interface OwnDeal {
  readonly openTime: number;
  readonly token: number;
  qty: Bounded;
  boughtUsd: Bounded;
  boughtQty: Bounded;
  realized: Bounded;
  /** The dust an earlier deal of the token left in the holdings: held, not in this deal. */
  carried: Bounded;
  closed: boolean;
}

/** `1 − 10⁻⁶`: a sell of at least this share of the holdings sells them all (model 3.2). */
export const ALL_BUT_DUST = fromDecimal('0.999999');

/** The wallet's own results over the window: the deals that opened at or after `start`. */
export function ownInWords(swaps: SwapRows, walletId: number, start: number): OwnResults {
  const deals = ownDeals(swaps, walletId);
  let count = 0;
  let closed = 0;
  let wins = 0;
  let pnl = ZERO_BOUNDED;
  let investment = ZERO_BOUNDED;
  for (const deal of deals) {
    if (deal.openTime < start) continue;
    count++;
    if (deal.closed) {
      closed++;
      if (sign(deal.realized, 'an own deal won') > 0) wins++;
      pnl = plus(pnl, deal.realized);
    } else {
      // `qty × price at the end − usd_invested`, the invested part `qty × avg`.
      const last = swaps.lastSwapBefore(deal.token, Infinity);
      const price = swaps.word(last * ROW + PRICE);
      const unrealized = minus(times(deal.qty, price), times(deal.qty, average(deal)));
      pnl = plus(pnl, plus(deal.realized, unrealized));
    }
    investment = plus(investment, deal.boughtUsd);
  }
  return {
    pnl_total: printed(pnl, 'own pnl_total'),
    roi_total: count === 0 ? 0 : printed(dividedBy(times(HUNDRED_BOUNDED, pnl), investment), 'own roi_total'),
    winrate: closed === 0 ? 0 : printed(dividedBy(exactly(100 * wins), exactly(closed)), 'own winrate'),
    deals: count,
  };
}

/** `usd_buy_price_avg = bought_usd / bought_qty`. */
function average(deal: OwnDeal): Bounded {
  return dividedBy(deal.boughtUsd, deal.boughtQty);
}

/**
 * The wallet's deals in the order they opened (own-deals.ts `computeOwnDeals`): per token a deal
 * opens at a buy when none is open and closes at a sell of all of the holdings, or of all but a
 * dust of at most a millionth.
 */
function ownDeals(swaps: SwapRows, walletId: number): OwnDeal[] {
  const rows = swaps.rows;
  const open = new Map<number, OwnDeal>();
  const dust = new Map<number, Bounded>();
  const all: OwnDeal[] = [];
  for (const pos of swaps.walletPositions(walletId)) {
    const at = pos * ROW;
    const token = rows[at + TOKEN]! | 0; // a small integer key: a double one is hashed as an object
    const buy = rows[at + BUY] === 1;
    const quantity = swaps.word(at + QUANTITY);
    let deal = open.get(token);
    if (deal === undefined) {
      const left = dust.get(token);
      if (!buy) {
        if (left !== undefined) dust.set(token, minusFloored(left, quantity));
        continue;
      }
      deal = {
        openTime: rows[at + TIME]!,
        token,
        qty: ZERO_BOUNDED,
        boughtUsd: ZERO_BOUNDED,
        boughtQty: ZERO_BOUNDED,
        realized: ZERO_BOUNDED,
        carried: left ?? ZERO_BOUNDED,
        closed: false,
      };
      dust.delete(token);
      open.set(token, deal);
      all.push(deal);
    }
    const held = plus(deal.qty, deal.carried);
    const usd = Number.isNaN(rows[at + USD]!) ? times(quantity, swaps.word(at + PRICE)) : swaps.word(at + USD);
    if (buy) {
      deal.qty = plus(deal.qty, quantity);
      deal.boughtUsd = plus(deal.boughtUsd, usd);
      deal.boughtQty = plus(deal.boughtQty, quantity);
      continue;
    }
    const sellsAll = atMost(times(held, ALL_BUT_DUST), quantity, 'an own sell of nearly all');
    const over = order(quantity, deal.qty);
    if (over > 0) {
      // Only the held part counts, at the swap's price per token; the rest comes off the dust.
      deal.carried = minusFloored(deal.carried, minus(quantity, deal.qty));
      sell(deal, deal.qty, dividedBy(times(usd, deal.qty), quantity));
    } else if (over < 0) {
      sell(deal, sellsAll ? deal.qty : quantity, usd);
    } else {
      // A sell of the deal's quantity, to the last digit: every branch sells it for the amount
      // (the held part's share of it is the whole), the dust taken down by nothing.
      deal.carried = either(deal.carried, minusFloored(deal.carried, minus(quantity, deal.qty)));
      sell(deal, either(deal.qty, quantity), either(usd, dividedBy(times(usd, deal.qty), quantity)));
    }
    if (sellsAll) {
      deal.closed = true;
      open.delete(token);
      // What the holdings keep beyond the sell, as 0 when nothing (no dust and a dust of 0 hold alike).
      dust.set(token, minusFloored(held, quantity));
    }
  }
  return all;
}

/** Sells `sold` tokens of the deal for `proceeds`. */
function sell(deal: OwnDeal, sold: Bounded, proceeds: Bounded): void {
  deal.realized = plus(deal.realized, minus(proceeds, times(sold, average(deal))));
  deal.qty = minus(deal.qty, sold);
}
