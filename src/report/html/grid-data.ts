import type { SimulationSummary } from '../../model/response.js';
import type { RankedWallet } from '../../rank/rank.js';
import type { LatencyCurve } from '../../sweep/latency.js';
import type { SweepResult } from '../../sweep/sweep.js';
import { htmlPage } from './page.js';
import { settingLeaves, varyingPaths } from './setting-paths.js';

/** A sweep's report: each request's varying settings beside its summary (or its 400 body). */
export interface SweepReportData {
  readonly kind: 'sweep';
  readonly title: string;
  /** The settings that differ between the requests: the heatmap's possible axes. */
  readonly varying: readonly string[];
  readonly runs: readonly {
    readonly index: number;
    readonly settings: Readonly<Record<string, unknown>>;
    readonly summary: SimulationSummary | null;
    readonly error: unknown;
  }[];
}

/**
 * The HTML report of a sweep: a heatmap of a chosen summary figure over two of the settings that
 * vary (the page lets the reader pick them), values on hover, and every run in a table.
 */
export function sweepReportHtml(title: string, requests: readonly unknown[], results: readonly SweepResult[]): string {
  const varying = varyingPaths(requests.filter((r) => r !== null));
  const data: SweepReportData = {
    kind: 'sweep',
    title,
    varying,
    runs: results.map((result) => {
      const leaves = settingLeaves(requests[result.index]);
      return {
        index: result.index,
        settings: Object.fromEntries(varying.map((path) => [path, leaves[path] ?? null])),
        summary: 'summary' in result ? result.summary : null,
        error: 'error' in result ? result.error : null,
      };
    }),
  };
  return htmlPage(title, data);
}

/** The HTML report of a latency curve: the share of the zero-delay PnL kept against the delay. */
export function latencyReportHtml(title: string, curve: LatencyCurve): string {
  const data = { kind: 'latency', title, ...curve };
  return htmlPage(title, data);
}

/**
 * The HTML report of a ranking: the table, and a scatter of each wallet's own ROI against the
 * ROI of a copier of it.
 */
export function rankReportHtml(title: string, rows: readonly RankedWallet[]): string {
  const data = {
    kind: 'rank',
    title,
    rows: rows.map((r) => ({
      wallet: r.wallet,
      copy_pnl: r.summary.pnl_total,
      copy_roi: r.summary.roi_total,
      deals: r.deals,
      winrate: r.winrate,
      profit_factor: r.profit_factor,
      max_drawdown: r.max_drawdown,
      own_pnl: r.own.pnl_total,
      own_roi: r.own.roi_total,
    })),
  };
  return htmlPage(title, data);
}
