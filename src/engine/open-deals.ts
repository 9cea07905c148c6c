import type { Deal } from './deal.js';

/**
 * The open deals of a replay in deal order (the order they open in), for what walks them in
 * that order: an array appended to at every open and swept of its closed deals once they
 * outnumber the open ones (a sweep a close, amortized), which costs less than a set's hashing at
 * every open and close.
 */
export class OpenDeals {
  /** The open deals and the closed ones not yet swept out, in deal order. */
  private readonly deals: Deal[] = [];
  private openCount = 0;

  /** How many deals are open. */
  get count(): number {
    return this.openCount;
  }

  /** The open deals and the closed ones not yet swept out, in deal order: a reader skips the closed ones. */
  get listed(): readonly Deal[] {
    return this.deals;
  }

  /** A deal opened. */
  opened(deal: Deal): void {
    this.deals.push(deal);
    this.openCount++;
  }

  /** One of the deals closed. */
  closed(): void {
    if (this.deals.length > 2 * --this.openCount + SWEEP_SLACK) this.sweep();
  }

  /** The open deals, in deal order. */
  inOrder(): Deal[] {
    return this.deals.filter((deal) => deal.open);
  }

  /** Keeps the open deals only, in their order. */
  private sweep(): void {
    const deals = this.deals;
    let kept = 0;
    for (const deal of deals) if (deal.open) deals[kept++] = deal;
    deals.length = kept;
  }
}

/** Closed deals an {@link OpenDeals} keeps beyond as many as are open before it sweeps them out. */
const SWEEP_SLACK = 16;
