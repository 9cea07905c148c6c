import { Decimal, ZERO } from '../model/decimal.js';
import type { Deal } from './deal.js';

/**
 * The sum over open deals of `qty × known price − usd_invested`, kept incrementally: a deal is
 * re-valued only when its token's price or its position changed since the last reading, so a
 * chart point costs the deals that moved, not every open deal. A price move only flags the
 * deal (no decimal work per market swap).
 */
export class UnrealizedBook {
  private readonly dirty: Deal[] = [];
  private openDeals = 0;
  private sum: Decimal = ZERO;

  constructor(private readonly priceOf: (tokenId: number) => Decimal) {}

  open(deal: Deal): void {
    this.openDeals++;
    deal.unrealized = ZERO;
    this.markDirty(deal);
  }

  markDirty(deal: Deal): void {
    if (!deal.dirty) {
      deal.dirty = true;
      this.dirty.push(deal);
    }
  }

  close(deal: Deal): void {
    this.openDeals--;
    // With no deal open the sum is exactly zero, whatever rounding the updates left behind.
    this.sum = this.openDeals === 0 ? ZERO : this.sum.minus(deal.unrealized);
    deal.unrealized = ZERO;
  }

  /** The current sum, after re-valuing the deals that moved. */
  total(): Decimal {
    for (const deal of this.dirty) {
      deal.dirty = false;
      if (!deal.open) continue; // closed since it was flagged
      const now = deal.qty.times(this.priceOf(deal.tokenId)).minus(deal.invested);
      this.sum = this.sum.plus(now.minus(deal.unrealized));
      deal.unrealized = now;
    }
    this.dirty.length = 0;
    return this.sum;
  }
}
