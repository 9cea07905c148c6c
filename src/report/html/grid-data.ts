import type { CopierResultJson, SimulationSummary } from '../../model/response.js';
import type { OutOfSample, SplitRow } from '../../rank/out-of-sample.js';
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
    /** The copier's wallet, when the request reports it (model 3.0). */
    readonly copier: CopierResultJson | null;
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
        copier: 'summary' in result ? (result.copier ?? null) : null,
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
 * ROI of a copier of it. With the out-of-sample check of `--split`, each row's after-split
 * figures, the rank correlation and the result of copying the top wallets together after it.
 */
export function rankReportHtml(title: string, rows: readonly (RankedWallet | SplitRow)[], check?: OutOfSample): string {
  const data = {
    kind: 'rank',
    title,
    starting_balance: rows[0]?.copier.starting_balance ?? null,
    rows: rows.map((r) => ({
      wallet: r.wallet,
      copy_pnl: r.summary.pnl_total,
      copy_roi: r.summary.roi_total,
      deals: r.deals,
      winrate: r.winrate,
      profit_factor: r.profit_factor,
      max_drawdown: r.max_drawdown,
      capital_required: r.copier.capital_required,
      skipped_for_cash: r.copier.skipped_for_cash,
      own_pnl: r.own.pnl_total,
      own_roi: r.own.roi_total,
      ...('after' in r
        ? { after_pnl: r.after.pnl_total, after_roi: r.after.roi_total, after_deals: r.after_deals }
        : {}),
    })),
    out_of_sample: check === undefined ? null : outOfSampleData(check),
  };
  return htmlPage(title, data);
}

/** The verdict of an out-of-sample check, as the rank page shows it below the table. */
function outOfSampleData(check: OutOfSample) {
  const { summary, copier, wallets } = check.top;
  return {
    before: check.before,
    after: check.after,
    sort_by: check.sort_by,
    spearman: check.spearman,
    spearman_wallets: check.spearman_wallets,
    top: {
      wallets,
      pnl_total: summary?.pnl_total ?? null,
      roi_total: summary?.roi_total ?? null,
      capital_required: copier?.capital_required ?? null,
      skipped_for_cash: copier?.skipped_for_cash ?? null,
    },
  };
}
