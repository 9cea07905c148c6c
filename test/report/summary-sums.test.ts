/**
 * The summary's sums over the deals are exact, each rounded once to 40 digits when read
 * (docs/model.md (j)): where a running sum rounded after every addition loses digits, they differ.
 */
import { describe, expect, it } from 'vitest';
import { DealTotals, type Deal } from '../../src/engine/deal.js';
import { Decimal, HUNDRED, ZERO } from '../../src/numeric/decimal.js';
import type { DealResult } from '../../src/report/deal-results.js';
import { topDealDominance } from '../../src/report/statistics.js';
import { summarize } from '../../src/report/summary.js';

/** A closed deal's result with this `pnl_total` (all realized) and investment, closed at `closeTime`. */
function closed(pnl: string, bought: string, closeTime: number): DealResult {
  const total = new Decimal(pnl);
  const deal = { open: false, closeTime, boughtUsd: new Decimal(bought), pnlRealized: total } as unknown as Deal;
  return { deal, pnlRealized: total, pnlUnrealized: ZERO, pnlTotal: total };
}

describe('the summary sums exactly over the deals', () => {
  it('pnl_realized of 1e20, 1e-25 and -1e20 is 1e-25 (added in turn at 40 digits: 0)', () => {
    const results = [closed('1e20', '1', 1), closed('1e-25', '1', 2), closed('-1e20', '1', 3)];
    const summary = summarize(results, new DealTotals());
    expect(summary.pnlRealized.eq('1e-25')).toBe(true);
    expect(summary.pnlTotal.eq('1e-25')).toBe(true);
    // 100 × 1e-25 / 3
    expect(summary.roiTotal.eq('3.333333333333333333333333333333333333333e-24')).toBe(true);
    // The 40-digit running sum, for contrast: 1e20 + 1e-25 rounds to 1e20.
    expect(new Decimal('1e20').plus('1e-25').plus('-1e20').isZero()).toBe(true);
  });

  it('investment_amount of 1e20, 4e-20 and 4e-20 rounds 1e20 + 8e-20 once: up, to 1e20 + 1e-19', () => {
    const results = [closed('1', '1e20', 1), closed('1', '4e-20', 2), closed('1', '4e-20', 3)];
    const summary = summarize(results, new DealTotals());
    expect(summary.investmentAmount.toString()).toBe('100000000000000000000.0000000000000000001');
    // Each addition rounded: 4e-20 is under half the last unit (1e-19) of 1e20, twice.
    expect(new Decimal('1e20').plus('4e-20').plus('4e-20').toString()).toBe('100000000000000000000');
  });

  it('top_deal_dominance divides by the exact sum of the winners', () => {
    const pnls = ['1e20', '4e-20', '4e-20'].map((p) => new Decimal(p));
    // 100 / (1 + 1e-39) = 100 − 1e-37 + …: to 40 digits, 99. and 37 nines (a 38th digit of 0).
    expect(topDealDominance(pnls).toString()).toBe(`99.${'9'.repeat(37)}`);
    // Over the 40-digit running sum, 1e20: exactly 100.
    expect(HUNDRED.times('1e20').div(new Decimal('1e20').plus('4e-20').plus('4e-20')).toString()).toBe('100');
  });
});
