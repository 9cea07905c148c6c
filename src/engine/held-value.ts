import { ZERO, type Decimal } from '../numeric/decimal.js';
import type { Deal } from './deal.js';
import type { PriceBook } from './known-prices.js';

/** An open deal's value as last counted, and the position and price it was made from. */
interface Counted {
  qty: Decimal;
  priceKey: unknown;
  value: Decimal;
}

/**
 * `Σ qty × known price` over the open deals, for the copier's equity after each change of cash
 * (copier-wallet.md 7). A reading values again only the deals whose position or price moved
 * since the last one, found by comparing each deal's `qty` and its token's price key (no
 * decimal work for the others), so the replay tells it nothing between changes of cash. The
 * total moves by differences, each rounded to 40 digits: it departs from a sum made afresh by a
 * few units of the 40th digit over a long run, far below what a JSON number shows.
 */
export class HeldValue {
  /** The open deals, in the order they opened, with what was counted of each. */
  private readonly counted = new Map<Deal, Counted>();
  private total: Decimal = ZERO;

  /** A deal opened: it is counted at the next reading. */
  opened(deal: Deal): void {
    this.counted.set(deal, { qty: ZERO, priceKey: undefined, value: ZERO });
  }

  /** A deal closed: it holds nothing. */
  closed(deal: Deal): void {
    const entry = this.counted.get(deal);
    if (entry === undefined) return;
    this.total = this.total.minus(entry.value);
    this.counted.delete(deal);
  }

  /** The open deals' value at the prices known now. */
  read(prices: PriceBook): Decimal {
    for (const [deal, entry] of this.counted) {
      const priceKey = prices.priceKey(deal.tokenId);
      if (entry.qty === deal.qty && entry.priceKey === priceKey) continue;
      const value = deal.qty.times(prices.priceOf(deal.tokenId));
      this.total = this.total.minus(entry.value).plus(value);
      entry.qty = deal.qty;
      entry.priceKey = priceKey;
      entry.value = value;
    }
    return this.total;
  }
}
