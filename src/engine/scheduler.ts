import type { Decimal } from '../numeric/decimal.js';
import type { Swap } from '../model/tape.js';
import type { Deal } from './deal.js';
import { TimeFixQueue } from './timefix.js';

/**
 * A leader swap whose copy waits for the copy delay (strategy extensions 2). It keeps the swap
 * itself and what the copy needs from that moment, the leader's holdings just before it (a
 * sell's share); everything else is judged when it fires.
 */
export interface PendingCopy {
  readonly due: number;
  readonly swap: Swap;
  /** The swap's index in an indexed tape (-1 in a stream). */
  readonly index: number;
  readonly leader: number;
  readonly tokenId: number;
  readonly buy: boolean;
  readonly held: Decimal;
}

/** One scheduled action, as {@link Scheduler.next} hands it out. */
export type ScheduledAction =
  | { readonly kind: 'time_fix'; readonly due: number; readonly deals: readonly Deal[] }
  | { readonly kind: 'max_hold'; readonly due: number; readonly deal: Deal }
  | { readonly kind: 'pending_copy'; readonly due: number; readonly copy: PendingCopy };

/**
 * A first-in first-out queue that lets go of what it handed out: taken slots are cleared and
 * the array is compacted now and then, so a long replay holds only what is still waiting (and
 * what was taken dies young, cheap for the garbage collector).
 */
class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  push(item: T): void {
    this.items.push(item);
  }

  /** The first item, or undefined when empty. */
  peek(): T | undefined {
    return this.items[this.head];
  }

  take(): T {
    const item = this.items[this.head]!;
    this.items[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Everything still waiting, in order (and empties the queue). */
  drain(): T[] {
    const rest = this.items.slice(this.head) as T[];
    this.items = [];
    this.head = 0;
    return rest;
  }
}

/**
 * Exits due `max_hold_hours` after a deal opened. Deals open in time order, so due times come
 * in non-decreasing order and in deal order: a FIFO queue; a closed deal's entry is skipped.
 */
class MaxHoldQueue {
  private readonly deals = new Fifo<Deal>();

  constructor(readonly seconds: number) {}

  add(deal: Deal): void {
    this.deals.push(deal);
  }

  /** The next live exit's due time, or Infinity. */
  get nextDue(): number {
    let deal = this.deals.peek();
    while (deal !== undefined && !deal.open) {
      this.deals.take();
      deal = this.deals.peek();
    }
    return deal === undefined ? Infinity : deal.openTime + this.seconds;
  }

  take(): Deal {
    return this.deals.take();
  }
}

/** Pending copies: scheduled at swap times in event order with one delay, so due in FIFO order. */
class PendingQueue {
  private readonly copies = new Fifo<PendingCopy>();

  add(copy: PendingCopy): void {
    this.copies.push(copy);
  }

  get nextDue(): number {
    return this.copies.peek()?.due ?? Infinity;
  }

  take(): PendingCopy {
    return this.copies.take();
  }

  /** The copies still waiting, in the order they were scheduled (and empties the queue). */
  drain(): PendingCopy[] {
    return this.copies.drain();
  }
}

/**
 * The replay's timed actions (strategy extensions 6): inactivity time-fixes (model 3.4), max-hold
 * exits and pending copies. {@link next} hands out the first action due by a limit: the earliest
 * due time; at equal due times time-fixes (deal order), then max-hold exits (deal order), then
 * pending copies (the order they were scheduled). Firing an action may move or cancel others (a
 * trade moves its deal's time-fix; a closed deal has neither), so the caller fires what it got
 * and asks again. Without a strategy only the time-fix queue exists: model 1.1 step 1.
 */
export class Scheduler {
  private readonly timeFix: TimeFixQueue | null;
  private readonly maxHold: MaxHoldQueue | null;
  private readonly pending: PendingQueue | null;
  private readonly windowEnd: number;
  /** `copy_delay_seconds`. */
  readonly copyDelay: number;

  constructor(setup: {
    /** `inactivity_time_fix.hours × 3600`, or null without a time-fix. */
    readonly timeFixSeconds: number | null;
    /** `max_hold_hours × 3600`, or null. */
    readonly maxHoldSeconds: number | null;
    /** `copy_delay_seconds`: copies wait this long when it is above 0. */
    readonly copyDelaySeconds: number;
    /** Max-hold exits due after it never fire. */
    readonly windowEnd: number;
  }) {
    this.timeFix = setup.timeFixSeconds === null ? null : new TimeFixQueue(setup.timeFixSeconds);
    this.maxHold = setup.maxHoldSeconds === null ? null : new MaxHoldQueue(setup.maxHoldSeconds);
    this.pending = setup.copyDelaySeconds > 0 ? new PendingQueue() : null;
    this.copyDelay = setup.copyDelaySeconds;
    this.windowEnd = setup.windowEnd;
  }

  /** True when copies wait for a delay: a leader swap is then scheduled, not copied at once. */
  get delaysCopies(): boolean {
    return this.pending !== null;
  }

  /** A lower bound of the next due time (Infinity when nothing is scheduled): a cheap test per swap. */
  get nextDue(): number {
    let due = this.timeFix === null ? Infinity : this.timeFix.nextDeadline;
    if (this.maxHold !== null) due = Math.min(due, this.maxHold.nextDue);
    if (this.pending !== null) due = Math.min(due, this.pending.nextDue);
    return due;
  }

  /** Notes a follower trade of an open deal at `time`: its time-fix is due `hours` later. */
  traded(deal: Deal, time: number): void {
    this.timeFix?.touch(deal, time);
  }

  /** Notes a deal just opened: its max-hold exit, when due by `window_end`. */
  opened(deal: Deal): void {
    if (this.maxHold !== null && deal.openTime + this.maxHold.seconds <= this.windowEnd) this.maxHold.add(deal);
  }

  schedule(copy: PendingCopy): void {
    this.pending!.add(copy);
  }

  /** The first action due at or before `until`, in the order above, or null when none is. */
  next(until: number): ScheduledAction | null {
    const holdDue = this.maxHold === null ? Infinity : this.maxHold.nextDue;
    const copyDue = this.pending === null ? Infinity : this.pending.nextDue;
    if (this.timeFix !== null) {
      const due = this.timeFix.takeDue(Math.min(until, holdDue, copyDue));
      if (due !== null) return { kind: 'time_fix', due: due.deadline, deals: due.deals };
    }
    if (holdDue <= until && holdDue <= copyDue) return { kind: 'max_hold', due: holdDue, deal: this.maxHold!.take() };
    if (copyDue <= until) return { kind: 'pending_copy', due: copyDue, copy: this.pending!.take() };
    return null;
  }

  /** The pending copies that never fired (due after `window_end`), in the order they were scheduled. */
  unfired(): PendingCopy[] {
    return this.pending === null ? [] : this.pending.drain();
  }
}
