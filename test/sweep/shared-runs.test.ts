/**
 * The sweep's shared runs: requests equal but for `max_dupe_buy_times` wait for the run of the
 * largest limit, and take its output when their limit lies from its least dupe limit up.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSimulatorRequest, type SimulatorRequest } from '../../src/model/request.js';
import type { SweepOutput } from '../../src/sweep/run-one.js';
import { runShared, SharedRuns, type SlotOutcome } from '../../src/sweep/shared-runs.js';
import { simulate } from '../../src/simulate.js';
import { sweep } from '../../src/sweep/index.js';
import { scenarioArb } from '../support/arbitraries.js';
import { indexTape } from '../../src/engine/tape-index.js';
import { resolveEngineOptions } from '../../src/model/options.js';
import { runBatch, runBatchShared, runOne } from '../../src/sweep/run-one.js';
import {
  at,
  buy,
  LEADER_A,
  request,
  sell,
  tape as scenarioTape,
  TOKEN_X,
  TOKEN_Y,
  TOKEN_Z,
} from '../support/scenario.js';

function parsed(overrides: Parameters<typeof request>[0]): SimulatorRequest {
  const result = parseSimulatorRequest(request(overrides));
  if (!result.success) throw new Error(JSON.stringify(result.error));
  return result.data;
}

/** Limits 0..4 at buy_percentage 10, then limits 2 and 0 at 20. */
const requests = [
  ...[0, 1, 2, 3, 4].map((d) => parsed({ buy_percentage: 10, max_dupe_buy_times: d })),
  parsed({ buy_percentage: 20, max_dupe_buy_times: 2 }),
  parsed({ buy_percentage: 20, max_dupe_buy_times: 0 }),
];

describe('SharedRuns', () => {
  it('starts with the largest limit of each group, then the members its run does not answer', () => {
    const plan = new SharedRuns(requests);
    expect(plan.take(16)).toEqual([4, 5]);
    expect(plan.take(16)).toEqual([]);
    // Slot 4 (limit 4) let through at most 1 dupe buy: limits 1 to 3 give its run; 0 runs alone.
    expect(plan.answered(4, 2)).toEqual([2, 3]);
    expect(plan.take(16)).toEqual([0, 1]);
    // Slot 5 (limit 2) let through dupe buys at 0 dupes only (least limit 1): slot 6 (limit 0) runs alone.
    expect(plan.answered(5, 1)).toEqual([]);
    expect(plan.take(1)).toEqual([6]);
    expect(plan.done).toBe(false);
    for (const slot of [0, 1, 6]) expect(plan.answered(slot, 0)).toEqual([]);
    expect(plan.done).toBe(true);
    expect(plan.earliestFailure).toBeNull();
  });

  it('answers equal requests with one run, the first of them leading', () => {
    const same = [requests[1]!, requests[1]!, requests[1]!];
    const plan = new SharedRuns(same);
    expect(plan.take(16)).toEqual([0]);
    expect(plan.answered(0, 1)).toEqual([1, 2]);
    expect(plan.done).toBe(true);
  });

  it('after a failure runs only what lies before it, members of later leads on their own', () => {
    const plan = new SharedRuns(requests);
    expect(plan.take(1)).toEqual([4]);
    plan.failed(4);
    // The lead of slots 0..3 failed: those before it run alone; slot 5 (after it) no longer starts.
    expect(plan.take(16)).toEqual([0, 1, 2, 3]);
    for (const slot of [0, 1, 2, 3]) plan.answered(slot, 0);
    expect(plan.done).toBe(true);
    expect(plan.earliestFailure).toBe(4);
  });
});

describe('runShared', () => {
  const outputOf = (slot: number) => ({ summary: { slot } }) as unknown as SweepOutput;

  it('hands every slot an output and runs each slot at most once', async () => {
    const ran: number[] = [];
    const got = new Map<number, SweepOutput>();
    const runSlots = async (slots: readonly number[]): Promise<SlotOutcome[]> => {
      ran.push(...slots);
      // Every run needs a limit of 1: limits 1 and up share the lead's run.
      return slots.map((slot) => ({ output: outputOf(slot), leastDupeLimit: 1 }));
    };
    await runShared(requests, 2, 2, runSlots, (slot, output) => got.set(slot, output));
    expect([...ran].sort()).toEqual([0, 4, 5, 6]);
    expect([...got.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(got.get(2)).toBe(got.get(4));
    expect(got.get(6)).toEqual(outputOf(6));
  });

  it('rejects with the earliest failure in input order, whatever the order of running', async () => {
    const runSlots = async (slots: readonly number[]): Promise<SlotOutcome[]> =>
      slots.map((slot) =>
        slot === 1 || slot === 4 ? { error: new Error(`slot ${slot}`) } : { output: outputOf(slot), leastDupeLimit: 5 },
      );
    await expect(runShared(requests, 1, 1, runSlots, () => {})).rejects.toThrow('slot 1');
  });
});

describe('a sweep over max_dupe_buy_times', () => {
  // Token X bought 3 times and sold, Y twice, Z once: no deal takes more than 2 dupe buys.
  const SWAPS = [
    buy(LEADER_A, TOKEN_X, at(100), 100, 1),
    buy(LEADER_A, TOKEN_Y, at(150), 50, 2),
    buy(LEADER_A, TOKEN_X, at(200), 100, 1.5),
    buy(LEADER_A, TOKEN_Z, at(250), 10, 3),
    buy(LEADER_A, TOKEN_X, at(300), 100, 2),
    buy(LEADER_A, TOKEN_Y, at(350), 50, 2.5),
    sell(LEADER_A, TOKEN_X, at(400), 300, 3),
    sell(LEADER_A, TOKEN_Y, at(450), 100, 2),
  ];

  it("runs fewer requests than it answers, each answer runOne's", async () => {
    const indexed = indexTape(scenarioTape(SWAPS));
    const options = resolveEngineOptions({});
    const reqs = [10, 50].flatMap((b) =>
      [0, 1, 2, 3, 4, 5].map((d) => parsed({ buy_percentage: b, max_dupe_buy_times: d })),
    );
    const ran: number[] = [];
    const got: SweepOutput[] = [];
    const runSlots = async (slots: readonly number[]): Promise<SlotOutcome[]> => {
      ran.push(...slots);
      const batch = slots.map((slot) => reqs[slot]!);
      return runBatch(indexed, batch, options, false) as SlotOutcome[];
    };
    await runShared(reqs, 4, 1, runSlots, (slot, output) => (got[slot] = output));
    expect(got).toEqual(reqs.map((r) => runOne(indexed, r, options, false)));
    // Each group: its lead (limit 5) needs 2, so limits 2 to 4 take its output; 0 and 1 run.
    expect(ran).toEqual([5, 11, 0, 1, 6, 7]);
    expect(got[2]).toBe(got[5]);
  });

  it("in one batch (a queue worker's chunk) gives runBatch's outcomes in fewer walks", () => {
    const indexed = indexTape(scenarioTape(SWAPS));
    const options = resolveEngineOptions({});
    const reqs = [0, 1, 2, 3, 4, 5].map((d) => parsed({ buy_percentage: 50, max_dupe_buy_times: d }));
    let walks = 0;
    const shared = runBatchShared(indexed, reqs, options, false, () => walks++);
    expect(shared.map((o) => 'output' in o && o.output)).toEqual(reqs.map((r) => runOne(indexed, r, options, false)));
    // The lead (limit 5) alone, then limits 0 and 1; limits 2 to 4 take the lead's output.
    expect(walks).toBe(2);
    // Without native prices every run fails, and each request gets its own failure.
    const failing = runBatchShared(indexTape({ ...scenarioTape(SWAPS), native_prices: [] }), reqs, options, false);
    expect(failing.map((o) => 'thrown' in o && (o.thrown as Error).message)).toEqual(
      reqs.map(() => expect.stringMatching(/native_prices is empty/)),
    );
  });

  it('gives each request the response simulate gives it (generated scenarios)', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb({}, 40), fc.subarray([0, 1, 2, 3, 5, 8]), async (s, limits) => {
        const reqs = [s.request, ...limits.map((d) => ({ ...s.request, max_dupe_buy_times: d }))];
        let want: SweepOutput['response'][];
        try {
          want = reqs.map((r) => simulate(s.tape, r, s.options));
        } catch {
          return; // a tape the engine cannot use: covered by the sweep's own tests
        }
        const results = await sweep(s.tape, reqs, { workers: 0, engineOptions: s.options, full: true });
        expect(results.map((r) => 'response' in r && r.response)).toEqual(want);
      }),
      { numRuns: 60 },
    );
  });
});
