import { ZERO, type Decimal } from '../numeric/decimal.js';
import type { Deal } from './deal.js';
import type { PriceBook } from './known-prices.js';

/**
 * `Σ qty × known price` over the open deals, for the copier's equity after each change of cash
 * (copier-wallet.md 7). Kept as deals trade and prices move: a reading values again only the
 * deals whose position or price moved since the last one, so a trade costs a few products, not
 * one per open deal. The total moves by differences, each rounded to 40 digits: it departs from
 * a sum made afresh by a few units of the 40th digit over a long run, far below what a JSON
 * number shows.
 */
export class HeldValue {
  /** Each open deal's value as counted in {@link total}. */
  private readonly values = new Map<Deal, Decimal>();
  /** Open deals to value again at the next reading, in the order they moved. */
  private readonly moved = new Set<Deal>();
  private total: Decimal = ZERO;

  /** A deal opened, traded, or its token's price moved. */
  touch(deal: Deal): void {
    this.moved.add(deal);
  }

  /** A deal closed: it holds nothing. */
  closed(deal: Deal): void {
    const value = this.values.get(deal);
    if (value !== undefined) this.total = this.total.minus(value);
    this.values.delete(deal);
    this.moved.delete(deal);
  }

  /** The open deals' value at the prices known now. */
  read(prices: PriceBook): Decimal {
    for (const deal of this.moved) {
      const value = deal.qty.times(prices.priceOf(deal.tokenId));
      const before = this.values.get(deal);
      this.total = before === undefined ? this.total.plus(value) : this.total.minus(before).plus(value);
      this.values.set(deal, value);
    }
    this.moved.clear();
    return this.total;
  }
}
