import { InputError } from '../model/errors.js';
import type { EngineOptions, EngineOptionsInput } from '../model/options.js';
import { utcDayStart, type SimulatorRequest } from '../model/request.js';
import type { CopierResultJson, SimulationSummary } from '../model/response.js';
import { prepare } from '../simulate.js';
import { metricOf, selectRows, type RankedWallet, type RankMetric, type RankOptions } from './rank.js';

/** A wallet ranked before the split, with what copying it made after. */
export interface SplitRow extends RankedWallet {
  /** The copier's summary over the window after the split. */
  readonly after: SimulationSummary;
  readonly after_deals: number;
}

/** Would choosing wallets by their past copy results have worked? */
export interface OutOfSample {
  /** The window ranked on and the window evaluated, as request dates. */
  readonly before: { readonly from_date: string; readonly to_date: string };
  readonly after: { readonly from_date: string; readonly to_date: string };
  readonly rows: readonly SplitRow[];
  readonly sort_by: RankMetric;
  /**
   * Spearman's rank correlation of the sort metric before and after, over the wallets whose
   * copier made at least `minDeals` deals in both windows; null with fewer than two of them or
   * when one side does not vary.
   */
  readonly spearman: number | null;
  /** Wallets the correlation is made over. */
  readonly spearman_wallets: number;
  /**
   * The before-split top wallets copied together after the split: one simulation of them all,
   * its summary and its copier's wallet (one balance shared by them all, with `balance`).
   */
  readonly top: TopTogether;
}

/** What copying some wallets together made: null figures when there is no wallet to copy. */
export interface TopTogether {
  readonly wallets: readonly string[];
  readonly summary: SimulationSummary | null;
  readonly copier: CopierResultJson | null;
}

/** The two windows of an out-of-sample check: the request before the split and after it. */
export interface SplitPlan {
  readonly before: SimulatorRequest;
  readonly after: SimulatorRequest;
  readonly engineOptions: EngineOptions;
}

/** Validates the request, the options and the split day, and cuts the window in two. */
export function splitPlan(request: unknown, split: string, engineOptions: EngineOptionsInput): SplitPlan {
  const { parsed: whole, engineOptions: resolved } = prepare(request, engineOptions);
  const splitStart = /^\d{4}-\d{2}-\d{2}$/.test(split) ? utcDayStart(split) : null;
  if (splitStart === null) {
    throw new InputError(`split ${split} is not a date in the form YYYY-MM-DD`, { source: 'split' });
  }
  if (!(utcDayStart(whole.from_date)! < splitStart && splitStart <= utcDayStart(whole.to_date)!)) {
    throw new InputError(
      `the split ${split} must fall after from_date ${whole.from_date} and no later than to_date ${whole.to_date}` +
        `, so that both windows hold a day`,
      { source: 'split' },
    );
  }
  const dayBefore = new Date((splitStart - 86_400) * 1000).toISOString().slice(0, 10);
  return { before: { ...whole, to_date: dayBefore }, after: { ...whole, from_date: split }, engineOptions: resolved };
}

/**
 * The verdict from the rows ranked before the split and the same wallets' rows after it (in
 * the same order); `copyTogether` gives the after-split summary of copying some wallets at once.
 */
export function judgeOutOfSample(
  plan: SplitPlan,
  ranked: readonly RankedWallet[],
  evaluated: readonly RankedWallet[],
  options: RankOptions,
  copyTogether: (wallets: string[]) => { summary: SimulationSummary; copier: CopierResultJson },
): OutOfSample {
  const { before, after } = plan;
  const afterOf = new Map(evaluated.map((r) => [r.wallet, r]));
  const metric = options.sortBy ?? 'pnl_total';
  const minDeals = options.minDeals ?? 0;

  const both = ranked.filter((r) => r.deals >= minDeals && afterOf.get(r.wallet)!.deals >= minDeals);
  const spearman = spearmanOf(
    both.map((r) => metricOf(r, metric)),
    both.map((r) => metricOf(afterOf.get(r.wallet)!, metric)),
  );
  const rows = selectRows(ranked, options).map((r) => ({
    ...r,
    after: afterOf.get(r.wallet)!.summary,
    after_deals: afterOf.get(r.wallet)!.deals,
  }));
  const topWallets = selectRows(ranked, { sortBy: metric, minDeals, top: options.top ?? 10 }).map((r) => r.wallet);
  return {
    before: { from_date: before.from_date, to_date: before.to_date },
    after: { from_date: after.from_date, to_date: after.to_date },
    rows,
    sort_by: metric,
    spearman,
    spearman_wallets: both.length,
    top:
      topWallets.length === 0
        ? { wallets: topWallets, summary: null, copier: null }
        : { wallets: topWallets, ...copyTogether(topWallets) },
  };
}

/** Spearman's rank correlation: Pearson's over the ranks, ties given their mean rank; null values rank last. */
export function spearmanOf(xs: readonly (number | null)[], ys: readonly (number | null)[]): number | null {
  if (xs.length < 2) return null;
  return pearson(ranks(xs), ranks(ys));
}

function ranks(values: readonly (number | null)[]): number[] {
  const keyed = values.map((v, i) => ({ v: v ?? -Infinity, i })).sort((a, b) => a.v - b.v || a.i - b.i);
  const out = new Array<number>(values.length);
  for (let k = 0; k < keyed.length; ) {
    let j = k;
    while (j + 1 < keyed.length && keyed[j + 1]!.v === keyed[k]!.v) j++;
    const mean = (k + j) / 2 + 1;
    for (let m = k; m <= j; m++) out[keyed[m]!.i] = mean;
    k = j + 1;
  }
  return out;
}

function pearson(a: readonly number[], b: readonly number[]): number | null {
  const n = a.length;
  const ma = a.reduce((s, x) => s + x, 0) / n;
  const mb = b.reduce((s, x) => s + x, 0) / n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i]! - ma) * (b[i]! - mb);
    saa += (a[i]! - ma) ** 2;
    sbb += (b[i]! - mb) ** 2;
  }
  return saa === 0 || sbb === 0 ? null : sab / Math.sqrt(saa * sbb);
}
