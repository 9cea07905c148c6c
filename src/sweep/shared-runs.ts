import type { SimulatorRequest } from '../model/request.js';
import type { SweepOutput } from './run-one.js';

/**
 * The order in which a sweep runs its requests, so that one run answers every request it can.
 *
 * `max_dupe_buy_times` decides one thing in a replay: whether a buy into an open deal that has
 * had `c` dupe buys is refused (`c ≥ limit`). Two requests that differ in nothing else replay
 * alike up to the first such check they answer differently. A run with limit `d` reports the
 * least limit `m` that lets through every dupe buy it let through
 * (`ReplayResult.leastDupeLimit`): a request with a limit from `m` to `d` answers every check
 * of that run as it did (a check refused under `d` has `c ≥ d`, so it is refused too), so it
 * has the very same response. A sweep over `max_dupe_buy_times` beside other settings then runs
 * the largest limit of each group first, and only the limits below its `m` on their own (and
 * then, without a strategy, only in the tokens where the lead's run needs it: `token-slices.ts`).
 *
 * A group is the requests equal but for `max_dupe_buy_times`; its lead is the one with the
 * largest limit (the first of them in input order). The leads are ready at the start; the other
 * members of a group wait for their lead's answer, then run or take its output. A sweep hands
 * whole groups to a thread ({@link runShared}), which runs them in this order (`runBatchShared`).
 */
export class SharedRuns {
  /** The slots ready to run, oldest first; `head` is the next one to hand out. */
  private readonly ready: number[] = [];
  private head = 0;
  /** For each slot: its group's index. */
  private readonly groupOf: Int32Array;
  /** Each group's members other than the lead, in input order, until the lead has answered. */
  private readonly waiting: (number[] | null)[] = [];
  private readonly lead: number[] = [];
  private readonly limits: Int32Array;

  constructor(requests: readonly SimulatorRequest[]) {
    this.groupOf = groupIds(requests);
    this.limits = Int32Array.from(requests, (r) => r.max_dupe_buy_times);
    requests.forEach((_, slot) => {
      const group = this.groupOf[slot]!;
      if (group === this.lead.length) {
        this.lead.push(slot);
        this.waiting.push([]);
      } else if (this.limits[slot]! > this.limits[this.lead[group]!]!) {
        this.waiting[group]!.push(this.lead[group]!);
        this.lead[group] = slot;
      } else {
        this.waiting[group]!.push(slot);
      }
    });
    for (const slot of this.lead) this.ready.push(slot);
    for (const members of this.waiting) members!.sort((a, b) => a - b);
  }

  /** The number of requests of the largest group. */
  get largestGroup(): number {
    return Math.max(0, ...this.waiting.map((members) => (members?.length ?? 0) + 1));
  }

  /** The lead of slot `slot`'s group (the slot itself when it leads). */
  leadOf(slot: number): number {
    return this.lead[this.groupOf[slot]!]!;
  }

  /** Up to `size` slots to run now, in the order they became ready (empty: none is, for now). */
  take(size: number): number[] {
    const out: number[] = [];
    while (out.length < size && this.head < this.ready.length) {
      out.push(this.ready[this.head++]!);
    }
    return out;
  }

  /**
   * Slot `slot` ran with `leastDupeLimit` ({@link SharedRuns}): gives the other slots its output
   * answers (its group's waiting members with a limit from `leastDupeLimit` to its own); the
   * group's other waiting members become ready.
   */
  answered(slot: number, leastDupeLimit: number): number[] {
    const group = this.groupOf[slot]!;
    const members = this.lead[group] === slot ? this.waiting[group] : null;
    if (members === null || members === undefined) return [];
    this.waiting[group] = null;
    const shared: number[] = [];
    for (const member of members) {
      if (this.limits[member]! >= leastDupeLimit) {
        shared.push(member);
      } else {
        this.ready.push(member);
      }
    }
    return shared;
  }
}

/** A slot's outcome as a host ran it: its output and the run's least dupe limit, or its error. */
export type SlotOutcome = { readonly output: SweepOutput; readonly leastDupeLimit: number } | { readonly error: Error };

/**
 * Each request's group ({@link SharedRuns}): groups numbered in the order of their first request.
 */
function groupIds(requests: readonly SimulatorRequest[]): Int32Array {
  const ids = new Int32Array(requests.length);
  const byKey = new Map<string, number>();
  requests.forEach((request, slot) => {
    const key = JSON.stringify({ ...request, max_dupe_buy_times: 0 });
    let id = byKey.get(key);
    if (id === undefined) byKey.set(key, (id = byKey.size));
    ids[slot] = id;
  });
  return ids;
}

/**
 * The requests in batches of whole groups ({@link SharedRuns}), in the order of their groups'
 * first requests: groups are added to a batch until it holds `size` requests or more.
 */
export function groupBatches(requests: readonly SimulatorRequest[], size: number): number[][] {
  const groups: number[][] = [];
  groupIds(requests).forEach((id, slot) => (groups[id] ??= []).push(slot));
  const batches: number[][] = [];
  let batch: number[] = [];
  for (const group of groups) {
    batch.push(...group);
    if (batch.length >= size) {
      batches.push(batch);
      batch = [];
    }
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/**
 * Runs `requests` in batches of whole groups ({@link groupBatches}), at most `concurrency` at
 * once, each given to `runSlots` (a worker thread, or this thread), which runs it in the order
 * of a {@link SharedRuns} (`runBatchShared`). `onOutput` gets every slot's output, in completion
 * order. Settles once every slot is answered; when a slot fails, starts no batch whose first
 * request lies after it and rejects, once those under way have finished, with the error of the
 * earliest failed slot in input order (the same whatever the timing); rejects at once with the
 * error of `runSlots` itself.
 */
export function runShared(
  requests: readonly SimulatorRequest[],
  size: number,
  concurrency: number,
  runSlots: (slots: readonly number[]) => Promise<readonly SlotOutcome[]>,
  onOutput: (slot: number, output: SweepOutput) => void,
): Promise<void> {
  const batches = groupBatches(requests, size);
  let next = 0;
  let running = 0;
  let failed = Number.POSITIVE_INFINITY;
  let failure: Error | undefined;
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const settle = (error?: Error): void => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve();
    };
    const take = (slots: readonly number[], outcomes: readonly SlotOutcome[]): void => {
      running--;
      if (settled) return;
      try {
        outcomes.forEach((outcome, k) => {
          const slot = slots[k]!;
          if ('error' in outcome) {
            if (slot < failed) [failed, failure] = [slot, outcome.error];
          } else {
            onOutput(slot, outcome.output);
          }
        });
      } catch (e) {
        return settle(e as Error);
      }
      feed();
    };
    const feed = (): void => {
      while (running < concurrency && next < batches.length && batches[next]![0]! < failed) {
        const slots = batches[next++]!;
        running++;
        runSlots(slots).then((outcomes) => take(slots, outcomes), settle);
      }
      if (running === 0) settle(failure);
    };
    feed();
  });
}
