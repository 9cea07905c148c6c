import type { Deal } from './deal.js';

/**
 * Schedules inactivity time-fixes (model 3.4). A deal is due at `last_operation_time + hours ×
 * 3600`. Follower trades happen in time order, so deadlines are pushed in non-decreasing order
 * and a FIFO queue suffices; an entry goes stale when its deal trades again or closes.
 */
export class TimeFixQueue {
  private deals: Deal[] = [];
  private deadlines: number[] = [];
  private head = 0;
  private readonly due: Deal[] = [];

  constructor(private readonly seconds: number) {}

  /** The earliest deadline still queued (possibly stale), or Infinity: a cheap test per swap. */
  get nextDeadline(): number {
    return this.head < this.deadlines.length ? this.deadlines[this.head]! : Infinity;
  }

  /** Notes that `deal` traded at `time`: it is now due at `time + hours × 3600`. */
  touch(deal: Deal, time: number): void {
    this.deals.push(deal);
    this.deadlines.push(time + this.seconds);
  }

  /**
   * Takes the deals due at the earliest deadline that is `≤ until`, in deal order; empty when
   * none is due. Call repeatedly until empty to fire everything due.
   */
  takeDue(until: number): { readonly deadline: number; readonly deals: readonly Deal[] } | null {
    // Setting an array's length is a runtime call, even to its own length: most calls find it empty.
    if (this.due.length !== 0) this.due.length = 0;
    while (this.head < this.deals.length) {
      const deadline = this.deadlines[this.head]!;
      if (deadline > until) break;
      // Gather every live entry of this deadline, then order them by deal index.
      while (this.head < this.deals.length && this.deadlines[this.head] === deadline) {
        const deal = this.deals[this.head]!;
        this.head++;
        if (deal.open && deal.lastOperationTime + this.seconds === deadline && !this.due.includes(deal)) {
          this.due.push(deal);
        }
      }
      this.compact();
      if (this.due.length > 0) {
        this.due.sort((a, b) => a.index - b.index);
        return { deadline, deals: this.due };
      }
    }
    this.compact();
    return null;
  }

  /** Drops consumed entries now and then so the queue holds only what is still pending. */
  private compact(): void {
    if (this.head > 4096 && this.head * 2 > this.deals.length) {
      this.deals = this.deals.slice(this.head);
      this.deadlines = this.deadlines.slice(this.head);
      this.head = 0;
    }
  }
}
