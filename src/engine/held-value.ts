import { ZERO, type Decimal } from '../numeric/decimal.js';
import type { Deal } from './deal.js';
import { DealTerms } from './deal-terms.js';
import type { PriceBook, PriceKey } from './known-prices.js';

/**
 * `Σ qty × known price` over the open deals, for the copier's equity after each change of cash
 * (copier-wallet.md 7). Most changes of cash need only to know that the equity is no new peak
 * and no new drawdown, and the double a report draws: a bounded double-word sum ({@link
 * DealTerms} without `usd_invested`) answers them at a few floating-point operations a moved
 * deal ({@link approximate}); {@link exact} makes the sum as the model does when a comparison
 * is too close to call.
 *
 * A replay that sees every price of the tokens it holds says which moved ({@link priceMoved}) and
 * keeps the double-word sum. One walking a tape among many followers (a rank, a sweep), told only
 * of its own trades, does not ({@link approximates} false): such a follower holds few deals and
 * meets a new peak or drawdown at most of its few changes of cash, so the sum is made exactly at
 * each, its products made again only for the deals that moved.
 */
export class HeldValue {
  /** The double-word sum, null when scanning (no approximation). */
  private readonly terms: DealTerms | null;
  /**
   * The open deals in deal order (they open in that order, and a Map iterates in insertion
   * order), each with its last exact `qty × price` and what it was made from.
   */
  private readonly products = new Map<Deal, ExactProduct>();
  /** A scanning replay's total of the products, moved by differences ({@link exact}). */
  private total: Decimal = ZERO;

  /**
   * `scanning`: the replay is not told of price moves; `shared`: the chart's terms, which give
   * `Σ qty × price` beside the unrealized PnL and see the same trades and prices (null: kept here).
   */
  constructor(
    private readonly prices: PriceBook,
    scanning: boolean,
    shared: DealTerms | null = null,
  ) {
    this.terms = scanning ? null : (shared ?? new DealTerms(prices, false));
  }

  /** Whether {@link approximate} may be asked: false when scanning. */
  get approximates(): boolean {
    return this.terms !== null;
  }

  /** A deal opened (its first trade follows). */
  opened(deal: Deal): void {
    this.products.set(deal, { qty: ZERO, priceKey: undefined, product: ZERO });
  }

  /** The deal traded and stays open: its position moved. */
  traded(deal: Deal): void {
    this.terms?.traded(deal);
  }

  /** The token of an open deal has a new price. */
  priceMoved(tokenId: number): void {
    this.terms?.priceMoved(tokenId);
  }

  /** The deal closed: it holds nothing. */
  closed(deal: Deal): void {
    this.terms?.close(deal);
    const made = this.products.get(deal);
    if (made === undefined) return;
    this.products.delete(deal);
    if (this.terms !== null) return; // the total is the scanning replay's
    // Nothing open: exactly zero, not what the differences left.
    this.total = this.products.size === 0 ? ZERO : this.total.minus(made.product);
  }

  /**
   * The sum at the prices known now as a double word and a bound on its distance to the model's
   * sum: `out[0] + out[1]` within `out[2]`. Only when {@link approximates}.
   */
  approximate(out: Float64Array): void {
    const terms = this.terms!;
    terms.revalue();
    terms.readProducts(out);
  }

  /**
   * The sum exactly, each open deal's `qty × price` rounded to 40 digits and made again only
   * when the deal's position or price moved. With the double-word sum (rare readings, near an
   * extreme) the products are added in deal order, each addition rounded to 40 digits, as the
   * model makes the sum. A scanning replay reads at every change of cash, with many deals open
   * and few of them moved: its total moves by the moved products' differences, each rounded to
   * 40 digits, a few units of the 40th digit from the sum made afresh over a long run, far below
   * what a JSON number shows.
   */
  exact(): Decimal {
    if (this.terms === null) return this.movedTotal();
    let value = ZERO;
    for (const [deal, made] of this.products) value = value.plus(this.productOf(deal, made));
    return value;
  }

  /**
   * What makes {@link exact}'s sum of this moment later, when asked (a peak or a fall that a
   * later comparison cannot tell from its bounds, or the printed drawdown): each open deal's
   * position and price key in deal order, the products and the additions made as {@link exact}
   * makes them. A snapshot costs a read of each deal; most are never made.
   */
  snapshot(): () => Decimal {
    // Each deal's position and price key side by side: one array.
    const made: (Decimal | PriceKey)[] = [];
    const prices = this.prices;
    for (const deal of this.products.keys()) made.push(deal.qty, prices.priceKey(deal.tokenId));
    return () => {
      let value = ZERO;
      for (let k = 0; k < made.length; k += 2) {
        value = value.plus((made[k] as Decimal).times(prices.priceOfKey(made[k + 1] as PriceKey)));
      }
      return value;
    };
  }

  /** The scanning replay's total, moved by the differences of the products that moved. */
  private movedTotal(): Decimal {
    let total = this.total;
    for (const [deal, made] of this.products) {
      const before = made.product;
      const product = this.productOf(deal, made);
      if (product !== before) total = total.minus(before).plus(product);
    }
    return (this.total = total);
  }

  /** The deal's `qty × price` at the known price, made again when its position or price moved. */
  private productOf(deal: Deal, made: ExactProduct): Decimal {
    const priceKey = this.prices.priceKey(deal.tokenId);
    if (made.qty !== deal.qty || made.priceKey !== priceKey) {
      made.qty = deal.qty;
      made.priceKey = priceKey;
      made.product = deal.qty.times(this.prices.priceOf(deal.tokenId));
    }
    return made.product;
  }
}

/** An open deal's `qty × price` as last made, and the position and price key it was made from. */
interface ExactProduct {
  qty: Decimal;
  priceKey: unknown;
  product: Decimal;
}
