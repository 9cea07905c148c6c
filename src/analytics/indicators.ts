import { toJsonNumber } from '../numeric/decimal.js';
import type { AnalyticsIndex } from './build.js';
import { computeOwnDeals } from './own-deals.js';
import { PERIOD_KEYS, type PeriodKey } from './periods.js';
import { parseQuery, WalletIndicatorsQuerySchema } from './queries.js';
import type { IndicatorMap, RangeIndicatorMap, WalletIndicatorsResult } from './results.js';
import { INDICATOR_KEYS, periodTotals, totalsFrom, type DealTotals } from './totals.js';

/** Totals per period key of no deals at all. */
const NO_DEALS = periodTotals([], 0);

/** The indicator map (2.4) of a wallet's own totals and the follower's (null: not computed). */
export function indicatorMap(
  initial: Readonly<Record<PeriodKey, DealTotals>>,
  following: Readonly<Record<PeriodKey, DealTotals>> | null,
): IndicatorMap {
  const map = {} as Record<string, Record<string, { initial: number; following: number | null }>>;
  for (const key of INDICATOR_KEYS) {
    const byPeriod: Record<string, { initial: number; following: number | null }> = {};
    for (const period of PERIOD_KEYS) {
      byPeriod[period] = {
        initial: toJsonNumber(initial[period].value(key)),
        following: following === null ? null : toJsonNumber(following[period].value(key)),
      };
    }
    map[key] = byPeriod;
  }
  return map as IndicatorMap;
}

function rangeMap(initial: DealTotals, following: DealTotals): RangeIndicatorMap {
  const map = {} as Record<string, { initial: number; following: number }>;
  for (const key of INDICATOR_KEYS) {
    map[key] = { initial: toJsonNumber(initial.value(key)), following: toJsonNumber(following.value(key)) };
  }
  return map as RangeIndicatorMap;
}

/**
 * Wallet indicators (interface 4.2): the `result` payload. Without `from_time`/`to_time`, each
 * indicator is keyed by period (`12h`, `24h`, `7d`, `1m`, `1y`, `all`: the deals opened within
 * it, up to now); with either, each indicator maps straight to `{initial, following}` over the
 * deals opened at or after `from_time`, trades after `to_time` left out and the deals
 * recomputed. An address without deals gives zeros.
 *
 * Throws a {@link RequestError} (400 `validation_error`) for an invalid query.
 *
 * @example
 * walletIndicators(index, 'Wallet1111', { network: 'sol' }).indicators.pnl_total['7d'];
 * // { initial: 120.5, following: 98.25 }
 * walletIndicators(index, 'Wallet1111', { network: 'sol', from_time: '1700000000' }).indicators.winrate;
 * // { initial: 50, following: 50 }
 */
export function walletIndicators(index: AnalyticsIndex, address: string, query: unknown): WalletIndicatorsResult {
  const q = parseQuery(WalletIndicatorsQuerySchema, query, index.network);
  const wallet = index.wallet(address);
  if (q.from_time === undefined && q.to_time === undefined) {
    if (wallet === undefined) return { indicators: indicatorMap(NO_DEALS, NO_DEALS) };
    return { indicators: indicatorMap(wallet.totals, periodTotals(index.follower(wallet), index.now)) };
  }
  const from = q.from_time === undefined ? null : Math.ceil(q.from_time);
  const end = q.to_time === undefined ? index.buckets.end : index.buckets.endAt(Math.floor(q.to_time));
  const own = wallet === undefined ? [] : computeOwnDeals(index.buckets, wallet.id, end, false).deals;
  const follower = wallet === undefined ? [] : index.follower(wallet, end);
  return { indicators: rangeMap(totalsFrom(own, from), totalsFrom(follower, from)) };
}
