import type { Swap } from '../model/tape.js';

/** A swap held back, with its place in arrival order and when it was taken (for the latency). */
export interface HeldSwap {
  readonly swap: Swap;
  readonly seq: number;
  readonly takenAt: number;
}

/**
 * The swaps held back by the lateness, given out in event order: by time, and in arrival order
 * within a second (the model's stable sort of the tape). A binary heap on (time, seq): a feed a
 * little out of order costs a logarithm a swap, whatever the jitter.
 */
export class ReorderBuffer {
  private readonly heap: HeldSwap[] = [];
  private nextSeq = 0;

  get size(): number {
    return this.heap.length;
  }

  /** The time of the next swap in event order (Infinity when none is held). */
  get nextTime(): number {
    return this.heap.length === 0 ? Infinity : this.heap[0]!.swap.time;
  }

  push(swap: Swap, takenAt = 0): void {
    const heap = this.heap;
    const entry: HeldSwap = { swap, seq: this.nextSeq++, takenAt };
    let i = heap.length;
    heap.push(entry);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(entry, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = entry;
  }

  /** Takes out the next swap in event order (the buffer must not be empty). */
  pop(): HeldSwap {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) this.sink(last);
    return top;
  }

  private sink(entry: HeldSwap): void {
    const heap = this.heap;
    const n = heap.length;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && before(heap[child + 1]!, heap[child]!)) child++;
      if (!before(heap[child]!, entry)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = entry;
  }
}

function before(a: HeldSwap, b: HeldSwap): boolean {
  return a.swap.time < b.swap.time || (a.swap.time === b.swap.time && a.seq < b.seq);
}
