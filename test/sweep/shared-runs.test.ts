/**
 * The sweep's shared runs: requests equal but for `max_dupe_buy_times` wait for the run of the
 * largest limit, and take its output when their limit lies from its least dupe limit up.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSimulatorRequest, type SimulatorRequest } from '../../src/model/request.js';
import type { SweepOutput } from '../../src/sweep/run-one.js';
import { groupBatches, runShared, SharedRuns, type SlotOutcome } from '../../src/sweep/shared-runs.js';
import { simulate } from '../../src/simulate.js';
import { sweep } from '../../src/sweep/index.js';
import { scenarioArb } from '../support/arbitraries.js';
import { indexTape } from '../../src/engine/tape-index.js';
import { resolveEngineOptions } from '../../src/model/options.js';
import { runBatchShared, runOne } from '../../src/sweep/run-one.js';
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
    // Members answer nobody: nothing more to run.
    for (const slot of [0, 1, 6]) expect(plan.answered(slot, 0)).toEqual([]);
    expect(plan.take(16)).toEqual([]);
    expect(plan.leadOf(2)).toBe(4);
    expect(plan.leadOf(6)).toBe(5);
  });

  it('answers equal requests with one run, the first of them leading', () => {
    const same = [requests[1]!, requests[1]!, requests[1]!];
    const plan = new SharedRuns(same);
    expect(plan.take(16)).toEqual([0]);
    expect(plan.answered(0, 1)).toEqual([1, 2]);
    expect(plan.take(16)).toEqual([]);
  });
});

describe('runShared', () => {
  const outputOf = (slot: number) => ({ summary: { slot } }) as unknown as SweepOutput;

  it('hands whole groups to the runner, in the order of their first request', async () => {
    expect(groupBatches(requests, 2)).toEqual([
      [0, 1, 2, 3, 4],
      [5, 6],
    ]);
    expect(groupBatches(requests, 7)).toEqual([[0, 1, 2, 3, 4, 5, 6]]);
    const batches: number[][] = [];
    const got = new Map<number, SweepOutput>();
    const runSlots = async (slots: readonly number[]): Promise<SlotOutcome[]> => {
      batches.push([...slots]);
      return slots.map((slot) => ({ output: outputOf(slot), leastDupeLimit: 0 }));
    };
    await runShared(requests, 2, 2, runSlots, (slot, output) => got.set(slot, output));
    expect(batches).toEqual([
      [0, 1, 2, 3, 4],
      [5, 6],
    ]);
    expect([...got.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('rejects with the earliest failure in input order, starting no batch after it', async () => {
    const started: number[] = [];
    const reqs = [...requests, parsed({ buy_percentage: 30 })];
    const runSlots = async (slots: readonly number[]): Promise<SlotOutcome[]> => {
      started.push(slots[0]!);
      return slots.map((slot) =>
        slot === 3 || slot === 6 ? { error: new Error(`slot ${slot}`) } : { output: outputOf(slot), leastDupeLimit: 5 },
      );
    };
    await expect(runShared(reqs, 1, 1, runSlots, () => {})).rejects.toThrow('slot 3');
    // The group of slots 0-4 failed at 3: the batches starting at 5 and 7 lie after it.
    expect(started).toEqual([0]);
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

  it("answers whole groups on a thread with fewer walks, each answer runOne's", async () => {
    const indexed = indexTape(scenarioTape(SWAPS));
    const options = resolveEngineOptions({});
    const reqs = [10, 50].flatMap((b) =>
      [0, 1, 2, 3, 4, 5].map((d) => parsed({ buy_percentage: b, max_dupe_buy_times: d })),
    );
    let walks = 0;
    const got: SweepOutput[] = [];
    const runSlots = async (slots: readonly number[]): Promise<SlotOutcome[]> => {
      const outcomes = runBatchShared(
        indexed,
        slots.map((slot) => reqs[slot]!),
        options,
        false,
        () => walks++,
      );
      return outcomes as SlotOutcome[];
    };
    await runShared(reqs, 4, 1, runSlots, (slot, output) => (got[slot] = output));
    expect(got).toEqual(reqs.map((r) => runOne(indexed, r, options, false)));
    // Each group: its lead (limit 5) needs 2, so limits 2 to 4 take its output; 0 and 1 run,
    // in the one token where the lead let through a second dupe buy (X) or any (X, Y).
    expect(walks).toBe(4);
    expect(got[2]).toBe(got[5]);
  });

  it("summaries of runs sliced by token equal simulate's (generated scenarios, no strategy)", async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb({}, 60), fc.subarray([0, 1, 2, 3, 5, 8]), async (s, limits) => {
        const plain = { ...s.request, strategy: null };
        const reqs = [plain, ...limits.map((d) => ({ ...plain, max_dupe_buy_times: d }))];
        let want: SweepOutput['summary'][];
        try {
          want = reqs.map((r) => simulate(s.tape, r, s.options).summary);
        } catch {
          return; // a tape the engine cannot use: covered by the sweep's own tests
        }
        const results = await sweep(s.tape, reqs, { workers: 0, engineOptions: s.options });
        expect(results.map((r) => 'summary' in r && r.summary)).toEqual(want);
      }),
      { numRuns: 80 },
    );
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
