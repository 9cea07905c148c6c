/**
 * Properties over generated tapes: the deals add up to the indicators over `all`, the
 * `following` side is what `simulate` gives for the wallet alone, ROI ranges hold the ROI,
 * the charts end at the indicators, and the output is deterministic.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { simulate, type TapeInput } from '../../src/index.js';
import {
  buildAnalyticsIndex,
  DEFAULT_COPY_SETTINGS,
  walletDeals,
  WalletDealsResultSchema,
  walletIndicators,
  walletPnlChart,
  type AnalyticsIndex,
  type IndicatorMap,
  type WalletDeal,
} from '../../src/analytics.js';
import { tapeArb, walletAddresses } from './arbitraries.js';
import { checked, near } from './support.js';

const RUNS = { numRuns: 60 };

function allDeals(index: AnalyticsIndex, address: string): WalletDeal[] {
  return checked(WalletDealsResultSchema, walletDeals(index, address, { network: index.network, per_page: 150 })).deals;
}

function sum(values: (number | null)[]): number {
  return values.reduce<number>((s, v) => s + (v ?? 0), 0);
}

describe('analytics properties', () => {
  it('deal sums match the indicators over all, for initial and following', () => {
    fc.assert(
      fc.property(tapeArb, (tape) => {
        const index = buildAnalyticsIndex(tape);
        for (const address of walletAddresses(tape.network)) {
          const deals = allDeals(index, address);
          const map = walletIndicators(index, address, { network: tape.network }).indicators as IndicatorMap;
          expect(map.deals_number.all.initial).toBe(deals.length);
          for (const side of ['initial', 'following'] as const) {
            for (const key of ['pnl_realized', 'pnl_unrealized', 'pnl_total'] as const) {
              near(map[key].all[side], sum(deals.map((d) => d[key][side])), 1e-6);
            }
            const closed = deals.filter((d) => d.status[side] === 'closed');
            const won = closed.filter((d) => (d.pnl_total[side] ?? 0) > 0).length;
            near(map.winrate.all[side], closed.length === 0 ? 0 : (100 * won) / closed.length);
          }
        }
      }),
      RUNS,
    );
  });

  it('following deals are the deals of simulate for that wallet alone', () => {
    fc.assert(
      fc.property(tapeArb, (tape) => {
        const index = buildAnalyticsIndex(tape);
        const lastTime = Math.max(...tape.swaps.map((s) => s.time));
        for (const address of walletAddresses(tape.network)) {
          const simulated = simulate(tape, {
            ...DEFAULT_COPY_SETTINGS,
            wallets: [address],
            network: tape.network,
            from_date: '1970-01-01',
            to_date: new Date(lastTime * 1000).toISOString().slice(0, 10),
          }).deals;
          const following = allDeals(index, address)
            .reverse() // opening order
            .filter((d) => d.open_time.following !== null);
          expect(following.length).toBe(simulated.length);
          following.forEach((d, k) => {
            const s = simulated[k]!;
            expect(d.token.address).toBe(s.token.address);
            expect([
              d.open_time.following,
              d.last_operation_time.following,
              d.status.following,
              d.trades_number.following,
            ]).toEqual([s.open_time, s.last_operation_time, s.status, s.trades_number]);
            expect([d.pnl_realized.following, d.pnl_unrealized.following, d.pnl_total.following]).toEqual([
              s.pnl_realized,
              s.pnl_unrealized,
              s.pnl_total,
            ]);
            expect([d.roi_realized.following, d.roi_total.following, d.closed_position.following]).toEqual([
              s.roi_realized,
              s.roi_total,
              s.closed_position,
            ]);
            expect(
              d.trades.filter((t) => t.is_following).map((t) => [t.type, t.time, t.usd_amount, t.quantity]),
            ).toEqual(s.trades.map((t) => [t.type, t.time, t.usd_amount, t.quantity]));
          });
        }
      }),
      RUNS,
    );
  });

  it("the followers of one walk of the tape are each wallet's own follower simulation, at any now", () => {
    fc.assert(
      fc.property(tapeArb, fc.nat(40), fc.boolean(), (tape, cut, flat) => {
        const times = tape.swaps.map((s) => s.time);
        const now = times[Math.min(cut, times.length - 1)]!;
        const options = {
          now,
          ...(flat
            ? { engineOptions: { unknown_liquidity_slippage_percent: 0 } }
            : { copySettings: { max_buy_amount: 3 } }),
        };
        const alone = buildAnalyticsIndex(tape, options);
        const together = buildAnalyticsIndex(tape, options);
        const wallets = together.wallets.filter((w) => w !== undefined);
        const all = together.followersAtNow(wallets);
        wallets.forEach((w, k) => {
          expect(all[k]!.map((d) => d.simulated)).toEqual(alone.follower(alone.wallets[w.id]!).map((d) => d.simulated));
        });
      }),
      RUNS,
    );
  });

  it('roi_low ≤ roi_total ≤ roi_high, and capital_required ≥ what is still invested', () => {
    fc.assert(
      fc.property(tapeArb, (tape) => {
        const index = buildAnalyticsIndex(tape);
        for (const address of walletAddresses(tape.network)) {
          for (const d of allDeals(index, address)) {
            for (const side of ['initial', 'following'] as const) {
              const [low, total, high] = [d.roi_low[side], d.roi_total[side], d.roi_high[side]];
              if (total === null) continue;
              const slack = 1e-9 * Math.max(1, Math.abs(total));
              expect(low! - slack).toBeLessThanOrEqual(total);
              expect(high! + slack).toBeGreaterThanOrEqual(total);
            }
            expect(d.capital_required.initial).toBeGreaterThan(0);
          }
        }
      }),
      RUNS,
    );
  });

  it('the 1y PnL chart ends at the 1y realized PnL', () => {
    fc.assert(
      fc.property(tapeArb, (tape) => {
        const index = buildAnalyticsIndex(tape);
        for (const address of walletAddresses(tape.network)) {
          const { chart } = walletPnlChart(index, address, { network: tape.network, period: '1y' });
          const map = walletIndicators(index, address, { network: tape.network }).indicators as IndicatorMap;
          near(chart.initial_values.at(-1), map.pnl_realized['1y'].initial, 1e-9);
          near(chart.following_values.at(-1), map.pnl_realized['1y'].following!, 1e-6);
        }
      }),
      RUNS,
    );
  });

  it('is deterministic: two indexes of the same tape answer byte for byte the same', () => {
    const answers = (tape: TapeInput): string => {
      const index = buildAnalyticsIndex(tape);
      return JSON.stringify(
        walletAddresses(tape.network).map((a) => [
          allDeals(index, a),
          walletIndicators(index, a, { network: tape.network }),
        ]),
      );
    };
    fc.assert(
      fc.property(tapeArb, (tape) => {
        expect(answers(tape)).toBe(answers(structuredClone(tape)));
      }),
      { numRuns: 30 },
    );
  });
});
