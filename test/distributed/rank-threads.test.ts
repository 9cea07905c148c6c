/** How `rank --workers` cuts the wallets among its threads (`weighedChunks`), by hand. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { weighedChunks } from '../../src/distributed/rank-threads.js';
import type { Candidate } from '../../src/rank/rank.js';
import { PROPERTY_RUNS, PROPERTY_SEED } from '../properties/run.js';

/** Candidates 0..n-1 whose wallets have the given numbers of swaps. */
function weighed(swaps: readonly number[]) {
  const candidates: Candidate[] = swaps.map((_, id) => ({ id, address: `W${id}` }));
  const context = { buckets: { walletPositions: (id: number) => new Array<number>(swaps[id]!) } };
  const cut = (count: number) =>
    weighedChunks(context as unknown as Parameters<typeof weighedChunks>[0], candidates, count).map((chunk) =>
      chunk.map((c) => c.id),
    );
  return cut;
}

describe('weighedChunks', () => {
  it('cuts consecutive wallets into runs of about equal swaps', () => {
    // 10 + 10 + 10 + 10 = 40: two runs of 20.
    expect(weighed([10, 10, 10, 10])(2)).toEqual([
      [0, 1],
      [2, 3],
    ]);
    // 30 | 5 + 5 + 5 + 5 = 20: the heavy wallet alone, then the share of what is left.
    expect(weighed([30, 5, 5, 5, 5])(2)).toEqual([[0], [1, 2, 3, 4]]);
    // 1 + 1 + 1 | 6 | 1 + 1 + 1 (shares 12 / 3 = 4, then 9 / 2 = 4.5, then 3): 6 fills a run alone.
    expect(weighed([1, 1, 1, 6, 1, 1, 1])(3)).toEqual([[0, 1, 2], [3], [4, 5, 6]]);
  });

  it('keeps every wallet once, in order, and leaves no run empty', () => {
    expect(weighed([100, 1, 1])(3)).toEqual([[0], [1], [2]]);
    expect(weighed([1, 1])(4)).toEqual([[0], [1]]);
    expect(weighed([])(2)).toEqual([]);
    // A wallet without swaps in the buckets still counts for one.
    expect(weighed([0, 0, 0, 0])(2)).toEqual([
      [0, 1],
      [2, 3],
    ]);
  });

  it('on generated swaps: every wallet once, in order; min(count, wallets) runs, none empty; no run far over its share', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 6 }),
        (swaps, count) => {
          const runs = weighed(swaps)(count);
          expect(runs.flat()).toEqual(swaps.map((_, id) => id));
          expect(runs).toHaveLength(Math.min(count, swaps.length));
          for (const run of runs) expect(run.length).toBeGreaterThan(0);
          // A run of two or more wallets stops before its share is passed by more than half its last wallet.
          const weight = (id: number) => Math.max(1, swaps[id]!);
          const total = swaps.reduce((a, _, id) => a + weight(id), 0);
          let left = total;
          runs.forEach((run, k) => {
            const share = left / (runs.length - k);
            const held = run.reduce((a, id) => a + weight(id), 0);
            if (run.length > 1) expect(held - weight(run[run.length - 1]!) / 2).toBeLessThanOrEqual(share);
            left -= held;
          });
        },
      ),
      { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS },
    );
  });
});
