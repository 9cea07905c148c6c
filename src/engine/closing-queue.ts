import type { Deal } from './deal.js';

/**
 * What a summary-only replay does with each deal once it has closed and settled, instead of
 * keeping it: a fold of the summary's sums over the closed deals in closing order (model 5: by
 * closing time, ties in deal order). A sweep's request closes some seventeen thousand deals on
 * the heavy 100k tape; kept to the end, each is copied by the young generation's collections.
 */
export interface ClosedDealSink {
  /** The next closed deal, in closing order. */
  add(deal: Deal): void;
}

/**
 * Hands closed deals to a sink in closing order. A replay closes deals in time order: every
 * trade happens at the time of the swap being replayed or at the due time of a scheduled action,
 * and an action is due no earlier than the trade that scheduled it and fires before any swap
 * after its due time. Only deals closed at one and the same time can come out of deal order
 * (two time-fixes due together, say): they are held until the time moves on, then handed over
 * in deal order.
 */
export class ClosingQueue {
  /** The deals closed at {@link time}, not yet handed over: the first {@link count}. */
  private readonly held: (Deal | null)[] = [];
  private count = 0;
  private time = -Infinity;

  constructor(private readonly sink: ClosedDealSink) {}

  /** A deal just closed and settled. */
  add(deal: Deal): void {
    const time = deal.closeTime;
    if (time !== this.time) {
      if (time < this.time) {
        throw new Error(
          `internal error: deal ${deal.index} closed at ${time}, before a deal closed at ${this.time}; ` +
            'the replay closes deals in time order',
        );
      }
      this.flush();
      this.time = time;
    }
    this.held[this.count++] = deal;
  }

  /** Hands over the deals still held (the replay has ended). */
  flush(): void {
    const count = this.count;
    if (count === 0) return;
    this.count = 0;
    const held = this.held;
    if (count === 1) {
      const deal = held[0]!;
      held[0] = null;
      this.sink.add(deal);
      return;
    }
    // Most times close one deal; a few close several (the array's length is left as it is).
    const group = held.slice(0, count) as Deal[];
    group.sort((a, b) => a.index - b.index);
    held.fill(null, 0, count);
    for (const deal of group) this.sink.add(deal);
  }
}
