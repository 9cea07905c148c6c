import { type Decimal, toJsonNumber, ZERO } from '../numeric/decimal.js';
import type { AnalyticsIndex } from './build.js';
import { computeOwnDeals } from './own-deals.js';
import { customChartTimes, PERIOD_SECONDS, periodChartTimes } from './periods.js';
import { chartRange, parseQuery, WalletInvestmentChartQuerySchema, WalletPnlChartQuerySchema } from './queries.js';
import type { WalletInvestmentChartResult, WalletPnlChartResult } from './results.js';

/** A change of a running sum at a time. */
interface Step {
  readonly time: number;
  readonly delta: Decimal;
}

/** Where a chart looks: its points, its range and the event position its data stop at. */
interface ChartWindow {
  readonly start: number;
  readonly end: number;
  readonly times: readonly number[];
  readonly endPos: number;
}

function chartWindow(index: AnalyticsIndex, query: Parameters<typeof chartRange>[0]): ChartWindow {
  const range = chartRange(query);
  if (range.kind === 'period') {
    const { now } = index;
    return {
      start: now - PERIOD_SECONDS[range.period],
      end: now,
      times: periodChartTimes(range.period, now),
      endPos: index.buckets.end,
    };
  }
  return {
    start: range.from,
    end: range.to,
    times: customChartTimes(range.from, range.to),
    endPos: index.buckets.endAt(range.to),
  };
}

/** The running sum of `steps` at each of `times` (ascending): steps at or before each time. */
function runningSums(steps: Step[], times: readonly number[]): number[] {
  steps.sort((a, b) => a.time - b.time);
  const out: number[] = [];
  let sum = ZERO;
  let k = 0;
  for (const t of times) {
    for (; k < steps.length && steps[k]!.time <= t; k++) sum = sum.plus(steps[k]!.delta);
    out.push(toJsonNumber(sum));
  }
  return out;
}

/**
 * Wallet PnL chart (interface 4.3): the `result` payload. At each point, the cumulative
 * realized PnL of the deals that opened within the chart's range, counting their trades up to
 * that point, for the wallet (`initial_values`) and the follower (`following_values`).
 *
 * Points: a period gives regular points back from now (12h: every 30 min, 24h: 1 h, 7d: 6 h,
 * 1m: 1 day, 1y: 7 days); a custom range `from_time`…`to_time` gives at most 100 points on
 * whole minutes. Throws a {@link RequestError}: `period_required` without period or custom
 * range, `validation_error` for an invalid query.
 *
 * @example
 * walletPnlChart(index, 'Wallet1111', { network: 'sol', period: '24h' }).chart.timestamps.length; // 25
 */
export function walletPnlChart(index: AnalyticsIndex, address: string, query: unknown): WalletPnlChartResult {
  const q = parseQuery(WalletPnlChartQuerySchema, query, index.network);
  const w = chartWindow(index, q);
  const wallet = index.wallet(address);
  const own: Step[] = [];
  const following: Step[] = [];
  if (wallet !== undefined) {
    for (const deal of computeOwnDeals(index.buckets, wallet.id, w.endPos, true).deals) {
      if (deal.openTime < w.start) continue;
      for (const t of deal.trades) own.push({ time: t.time, delta: t.realizedDelta });
    }
    for (const deal of index.follower(wallet, w.endPos)) {
      if (deal.openTime < w.start) continue;
      for (const t of deal.trades) following.push({ time: t.time, delta: t.realizedDelta });
    }
  }
  return {
    chart: {
      timestamps: [...w.times],
      initial_values: runningSums(own, w.times),
      following_values: runningSums(following, w.times),
      period: { start: w.start, end: w.end },
    },
  };
}

/**
 * Wallet investment amount chart (interface 4.4): the `result` payload. At each point, the USD
 * the wallet had invested (`usd_invested`: cost of the tokens held) in its open deals among
 * those that opened within the chart's range. Points and errors as {@link walletPnlChart}.
 *
 * @example
 * walletInvestmentChart(index, 'Wallet1111', { network: 'sol', period: '7d' }).chart.values.at(-1);
 */
export function walletInvestmentChart(
  index: AnalyticsIndex,
  address: string,
  query: unknown,
): WalletInvestmentChartResult {
  const q = parseQuery(WalletInvestmentChartQuerySchema, query, index.network);
  const w = chartWindow(index, q);
  const wallet = index.wallet(address);
  const steps: Step[] = [];
  if (wallet !== undefined) {
    for (const deal of computeOwnDeals(index.buckets, wallet.id, w.endPos, true).deals) {
      if (deal.openTime < w.start) continue;
      let invested = ZERO;
      for (const t of deal.trades) {
        steps.push({ time: t.time, delta: t.invested.minus(invested) });
        invested = t.invested;
      }
    }
  }
  return {
    chart: { timestamps: [...w.times], values: runningSums(steps, w.times), period: { start: w.start, end: w.end } },
  };
}
