/**
 * The copier's wallet (model 3.0) on generated scenarios: the engine against the reference model
 * (test/reference/, written from copier-wallet.md alone), and the identities the text promises.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { simulate, type SimulatorRequestInput } from '../../src/index.js';
import { copierScenarioArb, strategyScenarioArb, type Scenario } from '../support/arbitraries.js';
import { departures } from './departures.js';
import { checkProperty } from './run.js';

/** The scenario's request with extra strategy members. */
function withStrategy(s: Scenario, members: Record<string, unknown>): SimulatorRequestInput {
  return { ...s.request, strategy: { ...s.request.strategy, ...members } } as SimulatorRequestInput;
}

/** The response, or null when the engine refuses the input (a tape it cannot use). */
function run(s: Scenario, request = s.request) {
  try {
    return simulate(s.tape, request, s.options);
  } catch {
    return null;
  }
}

describe("the copier's wallet against the reference model", () => {
  it('agrees on generated scenarios with every member sometimes on', () => {
    checkProperty('reference-copier', copierScenarioArb(), (s) => departures(s.tape, s.request, s.options));
  });

  it('agrees on long scenarios', () => {
    checkProperty('reference-copier-long', copierScenarioArb(150), (s) => departures(s.tape, s.request, s.options), 25);
  });
});

describe("the copier's wallet: identities (copier-wallet.md 7)", () => {
  it('ending_equity − starting_balance = summary.pnl_total − failed_transaction_fees', () => {
    fc.assert(
      fc.property(copierScenarioArb(), (s) => {
        const response = run(s, withStrategy(s, { starting_balance_usd: 1e6 }));
        if (response === null) return;
        const { copier, summary } = response;
        // Exact in decimals; in the printed doubles, up to the rounding of ending_equity (~1e6).
        const gap =
          copier!.ending_equity! - copier!.starting_balance! - (summary.pnl_total - copier!.failed_transaction_fees);
        expect(Math.abs(gap)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(copier!.ending_equity!)));
      }),
      { numRuns: 100, seed: 41 },
    );
  });

  it("the leaders' PnL sums to the summary's", () => {
    fc.assert(
      fc.property(copierScenarioArb(), (s) => {
        const response = run(s, withStrategy(s, { report_leaders: true }));
        if (response === null) return;
        const leaders = response.leaders!;
        const sum = (key: 'pnl_realized' | 'pnl_unrealized') => leaders.reduce((t, l) => t + l[key], 0);
        // Up to the rounding of the divisions and of each printed double.
        for (const key of ['pnl_realized', 'pnl_unrealized'] as const) {
          const scale = Math.max(1, ...leaders.map((l) => Math.abs(l[key])));
          expect(Math.abs(sum(key) - response.summary[key])).toBeLessThanOrEqual(1e-9 * scale);
        }
      }),
      { numRuns: 100, seed: 42 },
    );
  });

  it('a balance of capital_required refuses nothing for cash, when every attempt lands', () => {
    // A copy that fails in the unlimited run never spends its amount, so capital_required does
    // not cover it, while the funded run refuses it for cash before the attempt: the identity
    // holds for copies that land (no tolerance, no failures).
    const landing = { slippage_tolerance_percent: null, sandwich_percent: 0, failed_transaction_percent: 0 };
    fc.assert(
      fc.property(copierScenarioArb(), (s) => {
        const unlimited = run(
          s,
          withStrategy(s, { ...landing, starting_balance_usd: null, reserve_usd: 0, report_wallet: true }),
        );
        if (unlimited === null) return;
        const balance = unlimited.copier!.capital_required + 1;
        const funded = run(s, withStrategy(s, { ...landing, starting_balance_usd: balance, reserve_usd: 0 }))!;
        expect(funded.copier!.skipped_for_cash).toBe(0);
        expect(funded.deals).toEqual(unlimited.deals);
      }),
      { numRuns: 100, seed: 43 },
    );
  });

  it("no member of the copier's wallet: the 2.0 response byte for byte", () => {
    fc.assert(
      fc.property(strategyScenarioArb(), (s) => {
        const plain = run(s);
        if (plain === null) return;
        for (const members of [
          { report_wallet: false },
          { starting_balance_usd: null, max_open_deals: null, slippage_tolerance_percent: null },
        ]) {
          expect(JSON.stringify(run(s, withStrategy(s, members)))).toBe(JSON.stringify(plain));
        }
      }),
      { numRuns: 100, seed: 44 },
    );
  });

  it("a closed deal's pnl_realized = Σ sells − Σ buys − Σ fees", () => {
    fc.assert(
      fc.property(copierScenarioArb(), (s) => {
        const response = run(s);
        if (response === null) return;
        for (const deal of response.deals.filter((d) => d.status === 'closed')) {
          const flow = deal.trades.reduce(
            (t, x) => t + (x.type === 'buy' ? -x.usd_amount! : x.usd_amount!) - x.usd_network_fee - x.usd_bot_fee,
            0,
          );
          expect(Math.abs(flow - deal.pnl_realized)).toBeLessThanOrEqual(1e-9 * Math.max(1, deal.investment_amount));
        }
      }),
      { numRuns: 100, seed: 45 },
    );
  });
});
