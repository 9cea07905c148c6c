/**
 * Work shared between threads by turns: one counter over shared memory hands out the items
 * `0 … count − 1`, each to the first thread that asks, so a thread that starts later or works
 * slower takes fewer. Beside it, a running count of what is done and who took each item (a
 * thread that stopped leaves its items to be done again). Used by a rank's threads for the parts
 * of its tape (tape-rows.ts) and for its groups of wallets (helpers.ts).
 */

const NEXT = 0;
const DONE = 1;
const TAKEN_BY = 2;

/** The counters of `count` items, over a `SharedArrayBuffer`. */
export function turnCounters(count: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * (TAKEN_BY + count)));
}

/** The number of items the counters hand out. */
export function turnCount(counters: Int32Array): number {
  return counters.length - TAKEN_BY;
}

/** Takes items off the counters until none is left, marks each as taken by `taker`, and does it with `take`. */
export function takeTurns(counters: Int32Array, taker: number, take: (index: number) => void): void {
  const count = turnCount(counters);
  for (;;) {
    const index = Atomics.add(counters, NEXT, 1);
    if (index >= count) return;
    Atomics.store(counters, TAKEN_BY + index, taker);
    take(index);
  }
}

/** Who took item `index` (the `taker` given to {@link takeTurns}; 0 also before anyone took it). */
export function takenBy(counters: Int32Array, index: number): number {
  return Atomics.load(counters, TAKEN_BY + index);
}

/** Adds `amount` to what is done, by every thread; returns the new total. */
export function addDone(counters: Int32Array, amount: number): number {
  return Atomics.add(counters, DONE, amount) + amount;
}
