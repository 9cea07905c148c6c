import { periodTotals } from './totals.js';
import type { AnalyticsIndex, WalletSummary } from './build.js';
import { indicatorMap } from './indicators.js';
import { ListWalletsBodySchema, parseQuery, type ListWalletsBody } from './queries.js';
import type { ListWalletsResult } from './results.js';

/** Wallets listed on one page. */
export const WALLETS_PER_PAGE = 30;

/** Plain code-unit order of addresses: the same on every machine, unlike localeCompare. */
function byAddress(a: WalletSummary, b: WalletSummary): number {
  return a.address < b.address ? -1 : a.address > b.address ? 1 : 0;
}

/** The wallets of the list in order, cached on the index per sort and filter. */
function sortedWallets(index: AnalyticsIndex, body: ListWalletsBody): readonly number[] {
  const { indicator, period, value } = body.sort_by;
  const key = `${value}:${indicator}:${period}:${body.order}:${body.min_deals}`;
  const cached = index.sortedLists.get(key);
  if (cached !== undefined) return cached;
  const minDeals = Math.max(1, body.min_deals);
  const listed = index.wallets.filter((w): w is WalletSummary => w !== undefined && w.totals.all.deals >= minDeals);
  // `following` values: every listed wallet's follower, from walks of the tape (kept on the index).
  const totals =
    value === 'initial'
      ? listed.map((w) => w.totals)
      : index.followersAtNow(listed).map((deals) => periodTotals(deals, index.now));
  const entries = listed.map((wallet, k) => ({ wallet, value: totals[k]![period].value(indicator) }));
  const sign = body.order === 'desc' ? -1 : 1;
  entries.sort((a, b) => sign * a.value.cmp(b.value) || byAddress(a.wallet, b.wallet));
  const ids = entries.map((e) => e.wallet.id);
  index.sortedLists.set(key, ids);
  return ids;
}

/**
 * The wallets list (interface 4.6): the `result` payload. Every wallet with at least one deal,
 * 30 a page, each with its indicator map. Body fields beyond `page`: `sort_by` (`indicator`,
 * `period` and `value`, default `pnl_total` over `1m` of the wallet's own results), `order`
 * (`desc` by default), `min_deals` (over `all`) and `network`. Ties go by address. Sorted by
 * `initial` values, only the wallets on the page have their follower simulated; sorted by
 * `following` values, every listed wallet's follower is, 500 to a walk of the tape (kept).
 *
 * Throws a {@link RequestError} (400 `validation_error`) for an invalid body.
 *
 * @example
 * listWallets(index, { page: 1, sort_by: { indicator: 'winrate', period: '7d' }, order: 'desc' }).wallets[0]?.address;
 */
export function listWallets(index: AnalyticsIndex, body: unknown): ListWalletsResult {
  const b = parseQuery(ListWalletsBodySchema, body, index.network);
  const ids = sortedWallets(index, b);
  const first = (b.page - 1) * WALLETS_PER_PAGE;
  const wallets = ids.slice(first, first + WALLETS_PER_PAGE).map((id) => {
    const wallet = index.wallets[id]!;
    return {
      address: wallet.address,
      network: index.network,
      indicators: indicatorMap(wallet.totals, periodTotals(index.follower(wallet), index.now)),
    };
  });
  return { wallets, page: { current: b.page, per_page: WALLETS_PER_PAGE } };
}
