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
 * since the last one. A replay that sees every price of the tokens it holds says which moved
 * ({@link touch}); one walking a tape among many followers, told only of its own trades, has
 * the reading find them by comparing each open deal's `qty` and its token's price key ({@link
 * scanning}), which costs no decimal work for a deal that did not move. The total moves by
 * differences, each rounded to 40 digits: it departs from a sum made afresh by a few units of
 * the 40th digit over a long run, far below what a JSON number shows.
 */
export class HeldValue {
  /** The open deals, in the order they opened, with what was counted of each. */
  private readonly counted = new Map<Deal, Counted>();
  /** The deals touched since the last reading (when not scanning). */
  private readonly moved = new Set<Deal>();
  private total: Decimal = ZERO;

  /** `scanning`: true when the replay is not told the prices of the tokens it holds. */
  constructor(private readonly scanning: boolean) {}

  /** A deal opened: it is counted at the next reading. */
  opened(deal: Deal): void {
    this.counted.set(deal, { qty: ZERO, priceKey: undefined, value: ZERO });
    this.moved.add(deal);
  }

  /** A deal traded, or its token's price moved. */
  touch(deal: Deal): void {
    if (!this.scanning) this.moved.add(deal);
  }

  /** A deal closed: it holds nothing. */
  closed(deal: Deal): void {
    const entry = this.counted.get(deal);
    if (entry === undefined) return;
    this.total = this.total.minus(entry.value);
    this.counted.delete(deal);
    this.moved.delete(deal);
  }

  /** The open deals' value at the prices known now. */
  read(prices: PriceBook): Decimal {
    if (this.scanning) {
      for (const [deal, entry] of this.counted) this.count(deal, entry, prices);
    } else {
      for (const deal of this.moved) this.count(deal, this.counted.get(deal)!, prices);
      this.moved.clear();
    }
    return this.total;
  }

  /** Values `deal` again when its position or price moved since it was counted. */
  private count(deal: Deal, entry: Counted, prices: PriceBook): void {
    const priceKey = prices.priceKey(deal.tokenId);
    if (entry.qty === deal.qty && entry.priceKey === priceKey) return;
    const value = deal.qty.times(prices.priceOf(deal.tokenId));
    this.total = this.total.minus(entry.value).plus(value);
    entry.qty = deal.qty;
    entry.priceKey = priceKey;
    entry.value = value;
  }
}
