import { ZERO, type Decimal } from '../numeric/decimal.js';
import type { Deal } from './deal.js';
import { DealTerms } from './deal-terms.js';
import type { PriceBook, PriceKey } from './known-prices.js';
import { OpenDeals } from './open-deals.js';

/**
 * `Σ qty × known price` over the open deals, for the copier's equity after each change of cash
 * (copier-wallet.md 7). Most changes of cash need only to know that the equity is no new peak
 * and no new drawdown, and the double a report draws: a bounded double-word sum ({@link
 * DealTerms} without `usd_invested`) answers them at a few floating-point operations a moved
 * deal ({@link approximate}); {@link exact} makes the sum as the model does when a comparison
 * is too close to call.
 *
 * A replay that sees every price of the tokens it holds says which moved ({@link priceMoved}).
 * One walking a tape among many followers (a rank, a sweep), told only of its own trades, does
 * not (`scanning`): before each reading its open deals' prices are compared with those their
 * terms were made at, and only the deals that moved are re-valued.
 */
export class HeldValue {
  /** The double-word sum. */
  private readonly terms: DealTerms;
  /** The open deals in deal order, for the exact sum, added in that order. */
  private readonly deals = new OpenDeals();

  /**
   * `scanning`: the replay is not told of price moves; `shared`: the chart's terms, which give
   * `Σ qty × price` beside the unrealized PnL and see the same trades and prices (null: kept here).
   */
  constructor(
    private readonly prices: PriceBook,
    private readonly scanning: boolean,
    shared: DealTerms | null = null,
  ) {
    this.terms = shared ?? new DealTerms(prices, false);
  }

  /** A deal opened (its first trade follows). */
  opened(deal: Deal): void {
    this.deals.opened(deal);
  }

  /** The deal traded and stays open: its position moved. */
  traded(deal: Deal): void {
    this.terms.traded(deal);
  }

  /** The token of an open deal has a new price. */
  priceMoved(tokenId: number): void {
    this.terms.priceMoved(tokenId);
  }

  /** The deal closed: it holds nothing. */
  closed(deal: Deal): void {
    this.terms.close(deal);
    this.deals.closed();
  }

  /**
   * The sum at the prices known now as a double word and a bound on its distance to the model's
   * sum: `out[0] + out[1]` within `out[2]`.
   */
  approximate(out: Float64Array): void {
    const terms = this.terms;
    if (this.scanning) terms.revalueAll();
    else terms.revalue();
    terms.readProducts(out);
  }

  /** The sum as the model makes it: each open deal's `qty × price` rounded to 40 digits, added in deal order. */
  exact(): Decimal {
    return this.snapshot()();
  }

  /**
   * What makes {@link exact}'s sum of this moment later, when asked (a peak or a fall that a
   * later comparison cannot tell from its bounds, or the printed drawdown): each open deal's
   * position and price key in deal order, the products and the additions made as {@link exact}
   * makes them. A snapshot costs a read of each deal; most are never made.
   */
  snapshot(): () => Decimal {
    // Each deal's position and price key side by side: one array, made at its length (a third
    // of a rank's equity readings take a snapshot, and pushes would grow it step by step).
    const made = new Array<Decimal | PriceKey>(2 * this.deals.count);
    const prices = this.prices;
    const deals = this.deals.listed;
    for (let k = 0, at = 0; k < deals.length; k++) {
      const deal = deals[k]!;
      if (!deal.open) continue;
      made[at++] = deal.qty;
      made[at++] = prices.priceKey(deal.tokenId);
    }
    return () => {
      let value = ZERO;
      for (let k = 0; k < made.length; k += 2) {
        value = value.plus((made[k] as Decimal).times(prices.priceOfKey(made[k + 1] as PriceKey)));
      }
      return value;
    };
  }
}
