/**
 * Model 5, the two statistics of the summary:
 * - linearity_r2_closed_deals: closed deals in closing order (ties: deal order),
 *   y_k = cumulative pnl_total, x_k = k; R² = 1 − SS_res / SS_tot of the least-squares line;
 *   0 with fewer than 2 closed deals or SS_tot = 0;
 * - top_deal_dominance = 100 × max(pnl_total) / Σ positive pnl_total; 0 without winners.
 * Each deal comes from `dealWithPnl` (no fees, no slippage): its pnl_total is exactly as given.
 */
import { Decimal as DecimalJs } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/numeric/decimal.js';
import { linearityR2 } from '../../src/report/statistics.js';
import { PROPERTY_RUNS, PROPERTY_SEED } from '../properties/run.js';
import { at, dealWithPnl, FREE_OPTIONS, near, run } from '../support/scenario.js';

/** A deal: its pnl_total, when it opens and when it closes (seconds after window_start). */
interface DealSpec {
  readonly pnl: number;
  readonly open: number;
  readonly close: number;
  readonly stillOpen?: boolean;
}

/** Runs the deals; deal k trades token `Tok<k>`, listed in the given order. */
function runDeals(specs: readonly DealSpec[], order: readonly number[] = specs.map((_, k) => k)) {
  const swaps = order.flatMap((k) => {
    const s = specs[k]!;
    return dealWithPnl(`Tok${k}`, s.pnl, at(s.open), at(s.close), s.stillOpen);
  });
  const response = run(swaps, {}, FREE_OPTIONS);
  // the deals are as specified: same pnl_total, same order
  response.deals.forEach((deal, k) => near(deal.pnl_total, specs[k]!.pnl, `deals[${k}].pnl_total`));
  expect(response.deals).toHaveLength(specs.length);
  return response;
}

describe('linearity_r2_closed_deals (model 5)', () => {
  it.each([
    { name: 'no deal', deals: [], r2: 0 },
    // fewer than 2 closed deals
    { name: 'one closed deal', deals: [{ pnl: 10, open: 100, close: 200 }], r2: 0 },
    // y = 10, 30: two points always lie on a line
    {
      name: 'two closed deals',
      deals: [
        { pnl: 10, open: 100, close: 200 },
        { pnl: 20, open: 300, close: 400 },
      ],
      r2: 1,
    },
    // y = 10, 10: ȳ = 10, SS_tot = 0 → 0
    {
      name: 'SS_tot = 0',
      deals: [
        { pnl: 10, open: 100, close: 200 },
        { pnl: 0, open: 300, close: 400 },
      ],
      r2: 0,
    },
    // open deals do not count: closed y = 10, 30 → 1 despite the open deal's −500
    {
      name: 'two closed and one open deal',
      deals: [
        { pnl: 10, open: 100, close: 200 },
        { pnl: -500, open: 150, close: 5000, stillOpen: true },
        { pnl: 20, open: 300, close: 400 },
      ],
      r2: 1,
    },
    // Deals open in order 0..4 with pnl −10, 10, 0, 20, 30 but close in the order 1, 3, 0, 4, 2:
    // closing order pnl 10, 20, −10, 30, 0 → y = 10, 30, 20, 50, 50.
    // x̄ = 3, ȳ = 160 / 5 = 32; dx = −2, −1, 0, 1, 2; dy = −22, −2, −12, 18, 18
    // SS_tot = 484 + 4 + 144 + 324 + 324 = 1280; Sxy = 44 + 2 + 0 + 18 + 36 = 100; Sxx = 10
    // slope 10, intercept 32 − 30 = 2; fitted 12, 22, 32, 42, 52; residuals −2, 8, −12, 8, −2
    // SS_res = 4 + 64 + 144 + 64 + 4 = 280; R² = 1 − 280 / 1280 = 0.78125
    // (in deal order instead, y = −10, 0, 0, 20, 50 would give 1960 / 2280 ≈ 0.8596)
    {
      name: 'five closed deals, closing order ≠ deal order',
      deals: [
        { pnl: -10, open: 100, close: 3000 },
        { pnl: 10, open: 200, close: 1000 },
        { pnl: 0, open: 300, close: 5000 },
        { pnl: 20, open: 400, close: 2000 },
        { pnl: 30, open: 500, close: 4000 },
      ],
      r2: 0.78125,
    },
    // Deals 0 (pnl 10) and 1 (pnl 30) close at the same second, deal 1's sell listed first;
    // ties take deal order: y = 10, 40, 60. x̄ = 2, ȳ = 110/3; Σy² = 5300,
    // SS_tot = 5300 − 3 × (110/3)² = 3800/3; Sxy = (−1)(10) + (1)(60) = 50, Sxx = 2, slope 25,
    // SS_reg = 25² × 2 = 1250; R² = 1250 / (3800/3) = 75/76
    // (execution order y = 30, 40, 60 would give 1350/1400)
    {
      name: 'a tie in closing time takes deal order',
      deals: [
        { pnl: 10, open: 100, close: 1000 },
        { pnl: 30, open: 200, close: 1000 },
        { pnl: 20, open: 300, close: 2000 },
      ],
      order: [1, 0, 2],
      r2: 75 / 76,
    },
  ] as { name: string; deals: DealSpec[]; order?: number[]; r2: number }[])(
    '$name: R² = $r2',
    ({ deals, order, r2 }) => {
      near(runDeals(deals, order).summary.linearity_r2_closed_deals, r2, 'linearity_r2_closed_deals');
    },
  );
});

describe('top_deal_dominance (model 5)', () => {
  it.each([
    // no pnl_total > 0
    { name: 'no winners', pnls: [-10, 0], dominance: 0 },
    // 100 × 30 / 30
    { name: 'one winner', pnls: [30, -10], dominance: 100 },
    // 100 × 30 / (30 + 10)
    { name: 'several winners', pnls: [10, 30, -5], dominance: 75 },
    // 100 × 40 / (40 + 40 + 20)
    { name: 'a tie for the best', pnls: [40, 20, 40], dominance: 40 },
  ])('$name: $dominance', ({ pnls, dominance }) => {
    const specs = pnls.map((pnl, k) => ({ pnl, open: 100 * (k + 1), close: 1000 * (k + 1) }));
    near(runDeals(specs).summary.top_deal_dominance, dominance, 'top_deal_dominance');
  });

  it('counts open deals by their pnl_total', () => {
    // closed 10, open 30 (unrealized): 100 × 30 / 40 = 75
    const specs = [
      { pnl: 10, open: 100, close: 200 },
      { pnl: 30, open: 300, close: 400, stillOpen: true },
    ];
    near(runDeals(specs).summary.top_deal_dominance, 75, 'top_deal_dominance');
  });
});

describe('linearityR2 in closed form equals the textbook 1 − SS_res / SS_tot', () => {
  /** The model's definition step by step, fitted values and residuals, in decimal.js at 60 digits. */
  function textbookR2(pnls: readonly string[]): DecimalJs {
    const D = DecimalJs.clone({ precision: 60 });
    const n = pnls.length;
    if (n < 2) return new D(0);
    let cumulative = new D(0);
    const ys = pnls.map((p) => (cumulative = cumulative.plus(p)));
    const meanX = new D(n + 1).div(2);
    const meanY = ys.reduce((a, y) => a.plus(y), new D(0)).div(n);
    let sxx = new D(0);
    let sxy = new D(0);
    let ssTot = new D(0);
    ys.forEach((y, k) => {
      const dx = new D(k + 1).minus(meanX);
      sxx = sxx.plus(dx.times(dx));
      sxy = sxy.plus(dx.times(y.minus(meanY)));
      ssTot = ssTot.plus(y.minus(meanY).pow(2));
    });
    if (ssTot.isZero()) return new D(0);
    const slope = sxy.div(sxx);
    const intercept = meanY.minus(slope.times(meanX));
    const ssRes = ys.reduce((a, y, k) => a.plus(y.minus(intercept.plus(slope.times(k + 1))).pow(2)), new D(0));
    return new D(1).minus(ssRes.div(ssTot));
  }

  const pnlArb = fc.oneof(
    fc.integer({ min: -5000, max: 5000 }).map(String),
    fc
      .tuple(fc.integer({ min: -10_000_000, max: 10_000_000 }), fc.integer({ min: 0, max: 12 }))
      .map(([m, e]) => `${m}e-${e}`),
    fc.constant('0'),
  );

  it('on generated lists of pnl_total (0 to 60 deals, zeros and repeats among them)', () => {
    fc.assert(
      fc.property(fc.array(pnlArb, { maxLength: 60 }), (pnls) => {
        const got = linearityR2(pnls.map((p) => new Decimal(p)));
        const want = textbookR2(pnls);
        // 40 digits against 60: equal far beyond what a JSON number shows.
        expect(Math.abs(got.toNumber() - want.toNumber()), `R² of [${pnls.join(', ')}]`).toBeLessThanOrEqual(1e-25);
        expect(got.isZero(), `R² of [${pnls.join(', ')}] is 0 exactly when the textbook's is`).toBe(want.isZero());
      }),
      { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS },
    );
  });

  it('when the first deal dwarfs the rest (the sums are taken shifted by the first point)', () => {
    const small = fc
      .tuple(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: 3, max: 9 }))
      .map(([m, e]) => `${m}e-${e}`);
    const large = fc
      .tuple(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: 3, max: 9 }))
      .map(([m, e]) => `${m}e${e}`);
    fc.assert(
      fc.property(large, fc.array(small, { minLength: 1, maxLength: 60 }), (first, rest) => {
        const pnls = [first, ...rest];
        const got = linearityR2(pnls.map((p) => new Decimal(p)));
        const want = textbookR2(pnls);
        expect(Math.abs(got.toNumber() - want.toNumber()), `R² of [${pnls.join(', ')}]`).toBeLessThanOrEqual(1e-25);
        expect(got.isZero(), `R² of [${pnls.join(', ')}] is 0 exactly when the textbook's is`).toBe(want.isZero());
      }),
      { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS },
    );
  });
});
