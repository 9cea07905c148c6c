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
  /** The swap's position in event order over the whole tape: the draws' `i` (copier's wallet 6). */
  readonly event: number;
  readonly leader: number;
  readonly tokenId: number;
  readonly buy: boolean;
  readonly held: Decimal;
  /** The attempt this copy is: 0, or the retry's number (copier's wallet 4). */
  readonly attempt: number;
  /** A retry's quote price: the reference price of the failed attempt before it; null for attempt 0. */
  readonly quote: Decimal | null;
  /** The order in which copies were scheduled (set by the scheduler). */
  seq?: number;
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

  peek(): PendingCopy | undefined {
    return this.copies.peek();
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
 * Retries of failed copies (copier's wallet 4): due `retry_delay_seconds` after their failure, so
 * not in the order they were scheduled: a binary heap by (due time, order scheduled).
 */
class RetryQueue {
  private readonly heap: PendingCopy[] = [];

  add(copy: PendingCopy): void {
    const heap = this.heap;
    let at = heap.length;
    heap.push(copy);
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!before(copy, heap[parent]!)) break;
      heap[at] = heap[parent]!;
      at = parent;
    }
    heap[at] = copy;
  }

  get nextDue(): number {
    return this.heap[0]?.due ?? Infinity;
  }

  peek(): PendingCopy | undefined {
    return this.heap[0];
  }

  take(): PendingCopy {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        if (left >= heap.length) break;
        const right = left + 1;
        const child = right < heap.length && before(heap[right]!, heap[left]!) ? right : left;
        if (!before(heap[child]!, last)) break;
        heap[at] = heap[child]!;
        at = child;
      }
      heap[at] = last;
    }
    return top;
  }

  /** The retries still waiting, and empties the queue. */
  drain(): PendingCopy[] {
    return this.heap.splice(0);
  }
}

/** True when copy `a` fires before copy `b`: earlier due time, then scheduled first. */
function before(a: PendingCopy, b: PendingCopy): boolean {
  return a.due < b.due || (a.due === b.due && a.seq! < b.seq!);
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
  private readonly retries: RetryQueue | null;
  private readonly windowEnd: number;
  /** Copies scheduled so far: each copy's {@link PendingCopy.seq}. */
  private scheduled = 0;
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
    /** True when failed copies may be tried again (copier's wallet 4). */
    readonly retries?: boolean;
  }) {
    this.retries = setup.retries === true ? new RetryQueue() : null;
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
    if (this.retries !== null) due = Math.min(due, this.retries.nextDue);
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
    copy.seq = this.scheduled++;
    this.pending!.add(copy);
  }

  /** Schedules a failed copy's retry (copier's wallet 4). */
  retry(copy: PendingCopy): void {
    copy.seq = this.scheduled++;
    this.retries!.add(copy);
  }

  /** The first action due at or before `until`, in the order above, or null when none is. */
  next(until: number): ScheduledAction | null {
    const holdDue = this.maxHold === null ? Infinity : this.maxHold.nextDue;
    const copyDue = Math.min(
      this.pending === null ? Infinity : this.pending.nextDue,
      this.retries === null ? Infinity : this.retries.nextDue,
    );
    if (this.timeFix !== null) {
      const due = this.timeFix.takeDue(Math.min(until, holdDue, copyDue));
      if (due !== null) return { kind: 'time_fix', due: due.deadline, deals: due.deals };
    }
    if (holdDue <= until && holdDue <= copyDue) return { kind: 'max_hold', due: holdDue, deal: this.maxHold!.take() };
    if (copyDue <= until) return { kind: 'pending_copy', due: copyDue, copy: this.takeCopy() };
    return null;
  }

  /** The first pending copy: of the delayed copies and the retries, the one due first, then scheduled first. */
  private takeCopy(): PendingCopy {
    const retry = this.retries?.peek();
    if (retry === undefined) return this.pending!.take();
    const delayed = this.pending?.peek();
    return delayed === undefined || before(retry, delayed) ? this.retries!.take() : this.pending!.take();
  }

  /** The pending copies that never fired (due after `window_end`), in the order they were scheduled. */
  unfired(): PendingCopy[] {
    const delayed = this.pending === null ? [] : this.pending.drain();
    if (this.retries === null) return delayed;
    return [...delayed, ...this.retries.drain()].sort((a, b) => a.seq! - b.seq!);
  }
}
