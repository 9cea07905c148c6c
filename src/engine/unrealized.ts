import { Decimal, ZERO } from '../model/decimal.js';
import type { Deal } from './deal.js';

/**
 * The sum over open deals of `qty × known price − usd_invested`, kept incrementally: a deal is
 * re-valued only when its token's price or its position changed since the last reading, so a
 * chart point costs the deals that moved, not every open deal.
 */
export class UnrealizedBook {
  private readonly value = new Map<Deal, Decimal>();
  private readonly dirty: Deal[] = [];
  private readonly isDirty = new Set<Deal>();
  private sum: Decimal = ZERO;

  constructor(private readonly priceOf: (tokenId: number) => Decimal) {}

  open(deal: Deal): void {
    this.value.set(deal, ZERO);
    this.markDirty(deal);
  }

  markDirty(deal: Deal): void {
    if (!this.isDirty.has(deal)) {
      this.isDirty.add(deal);
      this.dirty.push(deal);
    }
  }

  close(deal: Deal): void {
    const old = this.value.get(deal);
    if (old === undefined) return;
    this.value.delete(deal);
    this.sum = this.value.size === 0 ? ZERO : this.sum.minus(old);
  }

  /** The current sum, after re-valuing the deals that moved. */
  total(): Decimal {
    for (const deal of this.dirty) {
      this.isDirty.delete(deal);
      const old = this.value.get(deal);
      if (old === undefined) continue; // closed since it was marked
      const now = deal.qty.times(this.priceOf(deal.tokenId)).minus(deal.invested);
      this.value.set(deal, now);
      this.sum = this.sum.plus(now).minus(old);
    }
    this.dirty.length = 0;
    return this.sum;
  }
}
