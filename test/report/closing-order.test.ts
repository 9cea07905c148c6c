/**
 * The closed deals in the order they closed (src/report/deal-results.ts, model 5): by closing
 * time, ties in deal order, open deals left out. Most runs sort them as numbers, a key of time
 * and position each; times or counts beyond the keys' bounds take a comparison sort. Both give
 * the order a stable sort by time gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Deal } from '../../src/engine/deal.js';
import { closingOrder, type DealResult } from '../../src/report/deal-results.js';
import { ZERO } from '../../src/numeric/decimal.js';

/** A result whose deal has only what the order reads: its index, open flag and closing time. */
function result(index: number, open: boolean, closeTime: number): DealResult {
  const deal = { index, open, closeTime } as unknown as Deal;
  return { deal, pnlRealized: ZERO, pnlUnrealized: ZERO, pnlTotal: ZERO };
}

const indices = (results: readonly DealResult[]): number[] => results.map((r) => r.deal.index);

/** The order by a stable sort with a comparison of times. */
function byComparison(results: readonly DealResult[]): number[] {
  return indices(results.filter((r) => !r.deal.open).sort((a, b) => a.deal.closeTime - b.deal.closeTime));
}

describe('the closing order', () => {
  it('by closing time, ties in deal order, open deals left out (hand-checked)', () => {
    const results = [result(0, false, 300), result(1, true, -1), result(2, false, 100), result(3, false, 300)];
    results.push(result(4, false, 100), result(5, false, 200));
    expect(indices(closingOrder(results))).toEqual([2, 4, 5, 0, 3]);
  });

  it('times beyond the keys (2^32 and more, or not whole) take the comparison, in the same order', () => {
    const results = [result(0, false, 2 ** 40), result(1, false, 7), result(2, false, 2 ** 40), result(3, false, 7.5)];
    expect(indices(closingOrder(results))).toEqual([1, 3, 0, 2]);
  });

  it('equals a stable sort by time, for any times and open deals (fast-check)', () => {
    const time = fc.oneof(
      fc.integer({ min: 0, max: 20 }),
      fc.integer({ min: 0, max: 2 ** 32 - 1 }),
      fc.constantFrom(2 ** 32 - 1, 2 ** 32, 1.5),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), time), { maxLength: 200 }), (deals) => {
        const results = deals.map(([open, closeTime], index) => result(index, open, open ? -1 : closeTime));
        expect(indices(closingOrder(results))).toEqual(byComparison(results));
      }),
      { numRuns: 2_000 },
    );
  });
});
