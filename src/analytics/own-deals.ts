import { sellsAll } from '../engine/leader-facts.js';
import { Decimal, ZERO } from '../numeric/decimal.js';
import type { Swap } from '../model/tape.js';
import type { SwapBuckets } from './buckets.js';
import type { DealState } from './deal-state.js';

/** What every indicator needs of a deal, for the wallet's own deals and the follower's alike. */
export interface DealFigures {
  readonly openTime: number;
  readonly closed: boolean;
  readonly realized: Decimal;
  /** `qty × known price now − usd_invested`; 0 when closed. */
  readonly unrealized: Decimal;
  /** USD spent on buys (`investment_amount`). */
  readonly investment: Decimal;
  /** Sum of the `usd_amount` of its trades. */
  readonly volume: Decimal;
}

/** One of the wallet's own trades inside a deal, with the deal's state right after it. */
export interface OwnTrade extends DealState {
  /** Index of the swap in the tape's input list. */
  readonly swapIndex: number;
  readonly swap: Swap;
  readonly type: 'buy' | 'sell';
  readonly time: number;
  /** The swap's `usd_amount` (`quantity × usd_price` when the tape leaves it out). */
  readonly usdAmount: Decimal;
  readonly quantity: Decimal;
  readonly price: Decimal;
  /** Realized PnL this trade added to its deal. */
  readonly realizedDelta: Decimal;
}

/** A deal of the wallet itself (the `initial` side), in exact decimals. */
export interface OwnDeal extends DealFigures {
  /** Position among the wallet's deals in the order they opened (0-based). */
  readonly index: number;
  readonly tokenId: number;
  readonly openPos: number;
  readonly lastTime: number;
  readonly qty: Decimal;
  readonly boughtQty: Decimal;
  readonly soldQty: Decimal;
  readonly tradesNumber: number;
  /** The most USD invested at once (highest `usd_invested` after any of its trades); detailed only. */
  readonly capitalRequired: Decimal;
  /** Its trades; detailed only. */
  readonly trades: readonly OwnTrade[];
}

/** A wallet's deals, and the sells that could not belong to one. */
export interface OwnDealsResult {
  readonly deals: OwnDeal[];
  /** Sells while the wallet held none of the token (no open deal): ignored. */
  readonly ignoredSells: number;
  /** Sells of more than the wallet's deal held: only the held part counts. */
  readonly oversoldSells: number;
}

class OpenDeal {
  qty = ZERO;
  boughtUsd = ZERO;
  boughtQty = ZERO;
  soldQty = ZERO;
  realized = ZERO;
  /** USD received for sells (trading volume = bought + sold USD). */
  soldUsd = ZERO;
  capital = ZERO;
  tradesNumber = 0;
  closed = false;
  lastTime: number;
  readonly trades: OwnTrade[] = [];
  /** `usd_buy_price_avg`, computed when first needed after a buy. */
  private avgCache: Decimal | null = ZERO;

  constructor(
    readonly index: number,
    readonly tokenId: number,
    readonly openTime: number,
    readonly openPos: number,
    /** The dust an earlier deal of the token left in the holdings: held, not in this deal. */
    private carried: Decimal,
  ) {
    this.lastTime = openTime;
  }

  /** The wallet's holdings of the token (model section 2): the deal's quantity and the dust carried. */
  get holdings(): Decimal {
    return this.carried.isZero() ? this.qty : this.qty.plus(this.carried);
  }

  /** A sell of `excess` more than the deal holds takes it from the dust carried, down to 0. */
  takeCarried(excess: Decimal): void {
    if (!this.carried.isZero()) this.carried = this.carried.lte(excess) ? ZERO : this.carried.minus(excess);
  }

  get avg(): Decimal {
    return (this.avgCache ??= this.boughtUsd.div(this.boughtQty));
  }

  get invested(): Decimal {
    return this.qty.times(this.avg);
  }

  buy(quantity: Decimal, usdAmount: Decimal): void {
    this.qty = this.qty.plus(quantity);
    this.boughtUsd = this.boughtUsd.plus(usdAmount);
    this.boughtQty = this.boughtQty.plus(quantity);
    this.avgCache = null;
  }

  /** Sells `sold` tokens for `proceeds` (of the swap's `usdAmount`); returns the realized PnL. */
  sell(sold: Decimal, proceeds: Decimal, usdAmount: Decimal): Decimal {
    this.soldUsd = this.soldUsd.plus(usdAmount);
    const realized = proceeds.minus(sold.times(this.avg));
    this.realized = this.realized.plus(realized);
    this.qty = this.qty.minus(sold);
    this.soldQty = this.soldQty.plus(sold);
    return realized;
  }
}

/**
 * The wallet's own deals from its swaps before event position `end` (model sections 2 to 4 at
 * the swaps' own prices: no slippage, no fees, as the tape carries none). Per token a deal opens
 * at a buy when none is open and closes at a sell of all of the wallet's holdings, or of all but
 * a dust of at most a millionth (the model's rule for a leader's sell, 3.2, so that the
 * follower's deal closes on the same sell): that sell sells the deal's whole quantity for its
 * `usd_amount`. Open deals are valued at
 * their token's known price before `end`. Only `detailed` records the trades and
 * `capitalRequired` (0 otherwise): the indicators need neither.
 *
 * @example
 * const { deals } = computeOwnDeals(buckets, walletId, buckets.end, false);
 */
export function computeOwnDeals(
  buckets: SwapBuckets,
  walletId: number,
  end: number,
  detailed: boolean,
): OwnDealsResult {
  const tape = buckets.tape;
  const open = new Map<number, OpenDeal>();
  /** By token, the holdings a deal that closed on a sell of all but a dust left (model section 2). */
  const dust = new Map<number, Decimal>();
  const all: OpenDeal[] = [];
  let ignoredSells = 0;
  let oversoldSells = 0;
  for (const pos of buckets.walletPositions(walletId)) {
    if (pos >= end) break;
    const swapIndex = tape.order[pos]!;
    const swap = tape.swaps[swapIndex]!;
    const tokenId = tape.tokenOf[swapIndex]!;
    let deal = open.get(tokenId);
    if (deal === undefined) {
      const left = dust.get(tokenId);
      if (swap.type === 'sell') {
        ignoredSells++;
        if (left !== undefined) {
          const quantity = new Decimal(swap.quantity);
          dust.set(tokenId, left.lte(quantity) ? ZERO : left.minus(quantity));
        }
        continue;
      }
      deal = new OpenDeal(all.length, tokenId, swap.time, pos, left ?? ZERO);
      dust.delete(tokenId);
      open.set(tokenId, deal);
      all.push(deal);
    }
    const quantity = new Decimal(swap.quantity);
    const held = deal.holdings;
    const sellsAllHeld = swap.type === 'sell' && sellsAllOf(quantity, held);
    const usdAmount = swap.usd_amount === undefined ? quantity.times(swap.usd_price) : new Decimal(swap.usd_amount);
    let realizedDelta = ZERO;
    if (swap.type === 'buy') {
      deal.buy(quantity, usdAmount);
    } else if (quantity.gt(deal.qty)) {
      // A sell of more than the deal holds counts only the held part, at the swap's price per token.
      oversoldSells++;
      deal.takeCarried(quantity.minus(deal.qty));
      realizedDelta = deal.sell(deal.qty, usdAmount.times(deal.qty).div(quantity), usdAmount);
    } else if (sellsAllHeld) {
      // All but a dust: the deal's whole quantity goes for the swap's amount.
      realizedDelta = deal.sell(deal.qty, usdAmount, usdAmount);
    } else {
      realizedDelta = deal.sell(quantity, usdAmount, usdAmount);
    }
    deal.tradesNumber++;
    deal.lastTime = swap.time;
    if (detailed) {
      const invested = deal.invested;
      if (invested.gt(deal.capital)) deal.capital = invested;
      deal.trades.push({
        pos,
        swapIndex,
        swap,
        type: swap.type,
        time: swap.time,
        usdAmount,
        quantity,
        price: new Decimal(swap.usd_price),
        realizedDelta,
        realized: deal.realized,
        qty: deal.qty,
        invested,
        boughtUsd: deal.boughtUsd,
      });
    }
    // Only a sell of all the holdings closes the deal: a deal emptied while the wallet still holds
    // a dust from an earlier deal stays open, as the follower's does.
    if (sellsAllHeld) {
      deal.closed = true;
      open.delete(tokenId);
      if (held.gt(quantity)) dust.set(tokenId, held.minus(quantity));
    }
  }
  const deals = all.map((d) => finish(d, buckets, end));
  return { deals, ignoredSells, oversoldSells };
}

/**
 * {@link sellsAll}, decided in doubles when they are clear of the limit: each approximation lies
 * within 2^-49 of its decimal, so a quantity below the limit by a factor of 1 − 2^-40 in doubles
 * is below it exactly. Most sells of part of the holdings are far below it.
 */
function sellsAllOf(quantity: Decimal, held: Decimal): boolean {
  if (quantity.toApproxNumber() < held.toApproxNumber() * ALL_BUT_DUST_BELOW) return false;
  return quantity.gte(held) || sellsAll(quantity, held);
}

/** `1 − 10⁻⁶`, less a margin for the doubles' errors. */
const ALL_BUT_DUST_BELOW = 0.999999 * (1 - 2 ** -40);

function finish(d: OpenDeal, buckets: SwapBuckets, end: number): OwnDeal {
  const closed = d.closed;
  let unrealized = ZERO;
  if (!closed) {
    // The deal's own swaps are in the series, so a known price exists.
    const price = buckets.priceBefore(d.tokenId, end)!;
    unrealized = d.qty.times(price).minus(d.invested);
  }
  return {
    index: d.index,
    tokenId: d.tokenId,
    openTime: d.openTime,
    openPos: d.openPos,
    lastTime: d.lastTime,
    closed,
    realized: d.realized,
    unrealized,
    investment: d.boughtUsd,
    volume: d.boughtUsd.plus(d.soldUsd),
    qty: d.qty,
    boughtQty: d.boughtQty,
    soldQty: d.soldQty,
    tradesNumber: d.tradesNumber,
    capitalRequired: d.capital,
    trades: d.trades,
  };
}
