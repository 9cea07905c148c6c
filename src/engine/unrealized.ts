import { Decimal, ZERO } from '../model/decimal.js';
import type { Deal } from './deal.js';

/**
 * The sum over open deals of `qty × known price − usd_invested`, kept incrementally as two
 * sums: the market value `Σ qty × price`, re-valued only for the deals whose token's price or
 * position moved since the last reading, and the cost `Σ usd_invested`, moved by trades. A
 * price move only flags the deal (no decimal work per market swap); a re-valuation costs a
 * product and two additions.
 */
export class UnrealizedBook {
  private readonly dirty: Deal[] = [];
  private openDeals = 0;
  private marketValue: Decimal = ZERO;
  private invested: Decimal = ZERO;

  constructor(private readonly priceOf: (tokenId: number) => Decimal) {}

  open(deal: Deal): void {
    this.openDeals++;
    deal.marketValue = ZERO;
    deal.bookedInvested = ZERO;
  }

  /** The deal's token has a new price: re-value it at the next reading. */
  markDirty(deal: Deal): void {
    if (!deal.dirty) {
      deal.dirty = true;
      this.dirty.push(deal);
    }
  }

  /** The deal traded and stays open: its position and `usd_invested` moved. */
  traded(deal: Deal): void {
    this.invested = this.invested.plus(deal.invested.minus(deal.bookedInvested));
    deal.bookedInvested = deal.invested;
    this.markDirty(deal);
  }

  close(deal: Deal): void {
    this.openDeals--;
    if (this.openDeals === 0) {
      // With no deal open both sums are exactly zero, whatever rounding the updates left behind.
      this.marketValue = ZERO;
      this.invested = ZERO;
    } else {
      this.marketValue = this.marketValue.minus(deal.marketValue);
      this.invested = this.invested.minus(deal.bookedInvested);
    }
  }

  /** The current sum, after re-valuing the deals that moved. */
  total(): Decimal {
    for (const deal of this.dirty) {
      deal.dirty = false;
      if (!deal.open) continue; // closed since it was flagged
      const value = deal.qty.times(this.priceOf(deal.tokenId));
      this.marketValue = this.marketValue.plus(value.minus(deal.marketValue));
      deal.marketValue = value;
    }
    this.dirty.length = 0;
    return this.marketValue.minus(this.invested);
  }
}
