/**
 * The screen of a rank with `top` (`src/rank/screen.ts`): each wallet copied alone in doubles
 * with a proven error bound. Its bounds hold the exact rows' figures, and a rank with `top` gives
 * the first `top` rows of the whole rank, byte for byte.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EngineOptionsInput, SimulatorRequestInput, TapeInput } from '../../src/index.js';
import { indexTape } from '../../src/engine/tape-index.js';
import { rankWallets } from '../../src/rank/index.js';
import { candidateWallets, copyWallets, metricOf, rankContext, rankRequest } from '../../src/rank/rank.js';
import {
  contenders,
  rowsAgree,
  SCREENED_METRICS,
  screenApplies,
  WalletScreen,
  type ScreenedMetric,
} from '../../src/rank/screen.js';
import { prepare } from '../../src/simulate.js';
import { scenarioArb } from '../support/arbitraries.js';
import { PROJECT_ROOT, present, REAL_DATA_DIR } from '../support/paths.js';
import { REAL_TAPES } from '../support/real-tapes.js';
import { suggestRequest } from '../../src/import.js';
import { at, buy, FREE_OPTIONS, LEADER_A, LEADER_B, request, sell, tape, TOKEN_X } from '../support/scenario.js';

/** Every wallet of the tape, copied exactly and screened. */
function exactAndScreened(
  t: TapeInput,
  r: SimulatorRequestInput,
  options: EngineOptionsInput,
  metric: ScreenedMetric,
  balance?: number,
) {
  const { parsed, engineOptions } = prepare(rankRequest(r, balance), options);
  const context = rankContext(indexTape(t), parsed, engineOptions);
  const candidates = candidateWallets(context, undefined);
  return {
    candidates,
    rows: copyWallets(context, candidates, undefined, undefined, false),
    bounds: new WalletScreen(context).bounds(candidates, metric),
    context,
  };
}

describe('the screen holds the exact figures', () => {
  it('by hand: a buy at 10 and a sell at 12 with 1 % slippage each way', () => {
    // The copier buys 50 USD at 10 × 1.01, 50 / 10.1 tokens, and sells them at 12 / 1.01:
    // 600 / 10.201 − 50 = 8.8177629644152… USD.
    const t = tape([buy(LEADER_A, TOKEN_X, at(1), 10, 10), sell(LEADER_A, TOKEN_X, at(2), 10, 12)]);
    const r = request({ wallets: [LEADER_A], buy_percentage: 50 });
    const options = { ...FREE_OPTIONS, unknown_liquidity_slippage_percent: 1 };
    const { rows, bounds, candidates } = exactAndScreened(t, r, options, 'pnl_total');
    const b = bounds.get(candidates[0]!.id)!;
    expect(rows[0]!.summary.pnl_total).toBe(8.817762964415253);
    expect(b.low).toBeLessThanOrEqual(8.817762964415253);
    expect(b.high).toBeGreaterThanOrEqual(8.817762964415253);
    expect(b.high - b.low).toBeLessThan(1e-11);
    expect(b.deals).toBe(1);
  });

  it('on generated tapes: the deal count, and every screened metric within its bounds', () => {
    fc.assert(
      fc.property(scenarioArb({}, 40), fc.constantFrom(...SCREENED_METRICS), (s, metric) => {
        const { rows, bounds, candidates } = exactAndScreened(s.tape, s.request, s.options, metric);
        candidates.forEach(({ id }, k) => {
          const b = bounds.get(id);
          if (b === undefined) return; // undecided: copied exactly
          const value = metricOf(rows[k]!, metric)!;
          expect(rows[k]!.deals).toBe(b.deals);
          expect(value).toBeGreaterThanOrEqual(b.low);
          expect(value).toBeLessThanOrEqual(b.high);
        });
      }),
      { numRuns: 150 },
    );
  });

  it('with a starting balance: the buys the cash cannot pay for are skipped alike', () => {
    fc.assert(
      fc.property(scenarioArb({}, 40), fc.constantFrom(20, 150, 1_000), (s, balance) => {
        const { rows, bounds, candidates } = exactAndScreened(s.tape, s.request, s.options, 'pnl_total', balance);
        candidates.forEach(({ id }, k) => {
          const b = bounds.get(id);
          if (b === undefined) return;
          expect(rows[k]!.deals).toBe(b.deals);
          expect(rows[k]!.summary.pnl_total).toSatisfy((v: number) => v >= b.low && v <= b.high);
        });
      }),
      { numRuns: 120 },
    );
  });

  it('with an assumed liquidity for the swaps that carry none', () => {
    fc.assert(
      fc.property(scenarioArb({}, 40), fc.constantFrom(500, 20_000), (s, assumed) => {
        const options = { ...s.options, assumed_liquidity_usd: assumed };
        const { rows, bounds, candidates } = exactAndScreened(s.tape, s.request, options, 'pnl_total');
        candidates.forEach(({ id }, k) => {
          const b = bounds.get(id);
          if (b !== undefined) expect(rows[k]!.summary.pnl_total).toSatisfy((v: number) => v >= b.low && v <= b.high);
        });
      }),
      { numRuns: 60 },
    );
  });
});

describe('a rank with top gives the first rows of the whole rank', () => {
  it('on generated tapes, for every screened metric, top and minimum of deals', () => {
    fc.assert(
      fc.property(
        scenarioArb({}, 40),
        fc.constantFrom(...SCREENED_METRICS),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 2 }),
        fc.option(fc.constantFrom(50, 400), { nil: undefined }),
        (s, sortBy, top, minDeals, balance) => {
          const options = { sortBy, minDeals, engineOptions: s.options, ...(balance === undefined ? {} : { balance }) };
          const whole = rankWallets(s.tape, s.request, options);
          expect(rankWallets(s.tape, s.request, { ...options, top })).toEqual(whole.slice(0, top));
        },
      ),
      { numRuns: 120 },
    );
  });

  it('on the bundled example, the screen leaves out most wallets and the rows stay the same', () => {
    const example = join(PROJECT_ROOT, 'fixtures', 'example');
    const t = JSON.parse(readFileSync(join(example, 'tape-sol.json'), 'utf8')) as TapeInput;
    const r = JSON.parse(readFileSync(join(example, 'request-sol.json'), 'utf8')) as SimulatorRequestInput;
    const { bounds, candidates } = exactAndScreened(t, r, {}, 'pnl_total');
    const verdict = contenders(candidates, bounds, { top: 3 })!;
    expect(verdict).not.toBeNull();
    expect(verdict.bounds.size).toBe(candidates.length); // every wallet decided
    expect(verdict.confirm.length).toBeLessThan(candidates.length / 2);
    expect(rankWallets(t, r, { top: 3 })).toEqual(rankWallets(t, r).slice(0, 3));
  });
});

describe('on the real tapes', () => {
  const available = present(REAL_DATA_DIR);
  if (!available) console.warn(`screen of real tapes skipped: ${REAL_DATA_DIR} is absent on this machine`);
  it.skipIf(!available).each(REAL_TAPES.map(([name, load]) => [name, load] as const))(
    "the bounds hold every row, and top 10 is the whole rank's first ten: %s",
    (_name, load) => {
      const { tape: real } = load();
      const req = suggestRequest(real, 5)!;
      const { rows, bounds, candidates } = exactAndScreened(real, req, {}, 'pnl_total');
      expect(bounds.size).toBeGreaterThan(candidates.length / 2);
      candidates.forEach(({ id }, k) => {
        const b = bounds.get(id);
        if (b !== undefined) expect(rows[k]!.summary.pnl_total).toSatisfy((v: number) => v >= b.low && v <= b.high);
      });
      expect(contenders(candidates, bounds, { top: 10 })!.confirm.length).toBeLessThan(candidates.length);
      expect(rankWallets(real, req, { top: 10 })).toEqual(rankWallets(real, req).slice(0, 10));
    },
  );
});

describe("the screen's own check", () => {
  it('holds each exact row to its bounds: a row outside them, or with other deals, fails the check', () => {
    const t = tape([buy(LEADER_A, TOKEN_X, at(1), 10, 10), sell(LEADER_A, TOKEN_X, at(2), 10, 12)]);
    const r = request({ wallets: [LEADER_A], buy_percentage: 50 });
    const { rows, bounds, candidates } = exactAndScreened(t, r, FREE_OPTIONS, 'pnl_total');
    const id = candidates[0]!.id;
    const verdict = (b: { deals: number; low: number; high: number }) => ({
      confirm: candidates,
      bounds: new Map([[id, b]]),
    });
    expect(rowsAgree(rows, { confirm: candidates, bounds }, 'pnl_total')).toBe(true);
    // The copier made 10 USD: 50 USD buys 5 tokens at 10, sold at 12.
    expect(rows[0]!.summary.pnl_total).toBe(10);
    expect(rowsAgree(rows, verdict({ deals: 1, low: 10, high: 10 }), 'pnl_total')).toBe(true);
    expect(rowsAgree(rows, verdict({ deals: 1, low: 10.5, high: 11 }), 'pnl_total')).toBe(false);
    expect(rowsAgree(rows, verdict({ deals: 2, low: 9, high: 11 }), 'pnl_total')).toBe(false);
  });
});

describe('when the screen applies', () => {
  const plain = request({ wallets: [LEADER_A, LEADER_B] });
  it('a small top of a screened metric, on a request whose strategy only reports or sets a balance', () => {
    expect(screenApplies(plain, { top: 10 })).toBe(true);
    expect(screenApplies(plain, { top: 10, sortBy: 'roi_total' })).toBe(true);
    expect(screenApplies({ ...plain, strategy: { report_wallet: true } }, { top: 10 })).toBe(true);
    expect(screenApplies({ ...plain, strategy: { starting_balance_usd: 500 } }, { top: 10 })).toBe(true);
  });
  it('not otherwise: no top or a large one, another metric, another strategy member, a price threshold', () => {
    expect(screenApplies(plain, {})).toBe(false);
    expect(screenApplies(plain, { top: 501 })).toBe(false);
    expect(screenApplies(plain, { top: 10, sortBy: 'winrate' })).toBe(false);
    expect(screenApplies({ ...plain, strategy: { starting_balance_usd: 500, reserve_usd: 10 } }, { top: 10 })).toBe(
      false,
    );
    expect(screenApplies({ ...plain, strategy: { stop_loss_percent: 20 } }, { top: 10 })).toBe(false);
    expect(screenApplies(plain, { top: 10, engineOptions: { min_price_swap_usd: 5 } })).toBe(false);
  });
});
