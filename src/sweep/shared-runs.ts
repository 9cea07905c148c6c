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
 * the largest limit of each group first, and only the limits below its `m` on their own.
 *
 * A group is the requests equal but for `max_dupe_buy_times`; its lead is the one with the
 * largest limit (the first of them in input order). The leads are ready at the start; the other
 * members of a group wait for their lead's answer, then run or take its output.
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
  /** Slots answered so far (by their own run or a lead's), and those failed. */
  private answeredCount = 0;
  /** The earliest failed slot (Infinity: none): no slot after it is handed out. */
  private firstFailed = Infinity;

  constructor(requests: readonly SimulatorRequest[]) {
    this.groupOf = new Int32Array(requests.length);
    this.limits = Int32Array.from(requests, (r) => r.max_dupe_buy_times);
    const groupByKey = new Map<string, number>();
    requests.forEach((request, slot) => {
      const key = JSON.stringify({ ...request, max_dupe_buy_times: 0 });
      let group = groupByKey.get(key);
      if (group === undefined) {
        group = this.lead.length;
        groupByKey.set(key, group);
        this.lead.push(slot);
        this.waiting.push([]);
      } else if (this.limits[slot]! > this.limits[this.lead[group]!]!) {
        this.waiting[group]!.push(this.lead[group]!);
        this.lead[group] = slot;
      } else {
        this.waiting[group]!.push(slot);
      }
      this.groupOf[slot] = group;
    });
    for (const slot of this.lead) this.ready.push(slot);
    for (const members of this.waiting) members!.sort((a, b) => a - b);
  }

  /** Every slot is answered or failed. */
  get done(): boolean {
    return this.answeredCount === this.groupOf.length;
  }

  /** Up to `size` slots to run now, in the order they became ready (empty: none is, for now). */
  take(size: number): number[] {
    const out: number[] = [];
    while (out.length < size && this.head < this.ready.length) {
      const slot = this.ready[this.head++]!;
      if (slot < this.firstFailed) out.push(slot);
      else this.answeredCount++; // not to run: a failure before it ends the sweep
    }
    return out;
  }

  /**
   * Slot `slot` ran with `leastDupeLimit` ({@link SharedRuns}): gives the other slots its output
   * answers (its group's waiting members with a limit from `leastDupeLimit` to its own); the
   * group's other waiting members become ready.
   */
  answered(slot: number, leastDupeLimit: number): number[] {
    this.answeredCount++;
    const group = this.groupOf[slot]!;
    const members = this.lead[group] === slot ? this.waiting[group] : null;
    if (members === null || members === undefined) return [];
    this.waiting[group] = null;
    const shared: number[] = [];
    for (const member of members) {
      if (this.limits[member]! >= leastDupeLimit) {
        shared.push(member);
        this.answeredCount++;
      } else {
        this.ready.push(member);
      }
    }
    return shared;
  }

  /**
   * Slot `slot` failed. The sweep reports its earliest failure in input order, the same whatever
   * the timing: slots after the earliest failure are no longer handed out, and every slot before
   * it still runs, members waiting for a lead after it on their own.
   */
  failed(slot: number): void {
    this.answeredCount++;
    if (slot >= this.firstFailed) return;
    this.firstFailed = slot;
    for (let group = 0; group < this.waiting.length; group++) {
      const members = this.waiting[group];
      if (members === null || members === undefined || this.lead[group]! < slot) continue;
      // The lead will not run (or has failed): its members run alone, those before the failure.
      this.waiting[group] = null;
      for (const member of members) {
        if (member < slot) this.ready.push(member);
        else this.answeredCount++;
      }
    }
  }

  /** The earliest failed slot, or null. */
  get earliestFailure(): number | null {
    return this.firstFailed === Infinity ? null : this.firstFailed;
  }
}

/** A slot's outcome as a host ran it: its output and the run's least dupe limit, or its error. */
export type SlotOutcome = { readonly output: SweepOutput; readonly leastDupeLimit: number } | { readonly error: Error };

/**
 * Runs `requests` in the order of a {@link SharedRuns}: batches of up to `size` ready slots, at
 * most `concurrency` at once, each given to `runSlots` (a worker thread, or this thread).
 * `onOutput` gets every slot's output, in completion order, those a lead answers with the lead's.
 * Settles once every slot is answered, or rejects with the error of the earliest failed slot in
 * input order (the same whatever the timing), or at once with the error of `runSlots` itself.
 */
export function runShared(
  requests: readonly SimulatorRequest[],
  size: number,
  concurrency: number,
  runSlots: (slots: readonly number[]) => Promise<readonly SlotOutcome[]>,
  onOutput: (slot: number, output: SweepOutput) => void,
): Promise<void> {
  const plan = new SharedRuns(requests);
  const errors = new Map<number, Error>();
  let running = 0;
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
            errors.set(slot, outcome.error);
            plan.failed(slot);
            return;
          }
          onOutput(slot, outcome.output);
          for (const shared of plan.answered(slot, outcome.leastDupeLimit)) onOutput(shared, outcome.output);
        });
      } catch (e) {
        return settle(e as Error);
      }
      feed();
    };
    const feed = (): void => {
      while (running < concurrency) {
        const slots = plan.take(size);
        if (slots.length === 0) break;
        running++;
        runSlots(slots).then((outcomes) => take(slots, outcomes), settle);
      }
      if (running > 0) return;
      const failed = plan.earliestFailure;
      if (failed !== null) settle(errors.get(failed));
      else if (plan.done) settle();
      else settle(new Error('a sweep stopped with requests that nothing could run'));
    };
    feed();
  });
}
