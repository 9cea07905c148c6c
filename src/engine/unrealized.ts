import { ExactSum, type Decimal } from '../model/decimal.js';
import type { Deal } from './deal.js';

/**
 * The sum over open deals of `qty × known price − usd_invested`, kept exactly in an
 * {@link ExactSum} and rounded once, to 40 digits, when read. Each open deal's terms stay in the
 * sum as last booked: `qty × price` at its last valuation, re-valued only for the deals whose
 * token's price or position moved since the last reading (the old product taken away, the new
 * one added), and `usd_invested`, moved by trades. A price move only flags the deal (no decimal
 * work per market swap). A new deal enters with nothing booked (its fields start at zero).
 * Nothing is rounded between readings, so the sum is the exact one
 * whatever the order of the updates, and exactly zero with no deal open.
 */
export class UnrealizedBook {
  private readonly dirty: Deal[] = [];
  private readonly sum = new ExactSum();

  constructor(private readonly priceOf: (tokenId: number) => Decimal) {}

  /** The deal's token has a new price: re-value it at the next reading. */
  markDirty(deal: Deal): void {
    if (!deal.dirty) {
      deal.dirty = true;
      this.dirty.push(deal);
    }
  }

  /** The deal traded and stays open: its position and `usd_invested` moved. */
  traded(deal: Deal): void {
    const invested = deal.invested;
    this.sum.add(deal.bookedInvested);
    this.sum.add(invested, -1);
    deal.bookedInvested = invested;
    this.markDirty(deal);
  }

  /** The deal closed: its terms leave the sum. */
  close(deal: Deal): void {
    this.sum.addProduct(deal.valuedQty, deal.valuedPrice, -1);
    this.sum.add(deal.bookedInvested);
  }

  /** The current sum, after re-valuing the deals that moved. */
  total(): Decimal {
    for (const deal of this.dirty) {
      deal.dirty = false;
      if (!deal.open) continue; // closed since it was flagged
      const price = this.priceOf(deal.tokenId);
      const qty = deal.qty;
      if (price === deal.valuedPrice && qty === deal.valuedQty) continue;
      this.sum.addProduct(deal.valuedQty, deal.valuedPrice, -1);
      this.sum.addProduct(qty, price);
      deal.valuedQty = qty;
      deal.valuedPrice = price;
    }
    this.dirty.length = 0;
    return this.sum.value();
  }
}
