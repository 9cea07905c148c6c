import type { AnalyticsIndex } from './build.js';
import { walletDealJson } from './deal-json.js';
import { computeOwnDeals, type OwnDeal } from './own-deals.js';
import { pairDeals } from './pairing.js';
import { parseQuery, WalletDealsQuerySchema } from './queries.js';
import type { WalletDealsResult } from './results.js';

/**
 * True when token `tokenId` answers `search`, case-insensitively: part of its name, its whole
 * symbol or its whole address.
 */
function matchesSearch(index: AnalyticsIndex, tokenId: number, search: string): boolean {
  const needle = search.toLowerCase();
  const token = index.tape.tokens[tokenId]!;
  return (
    (token.name ?? '').toLowerCase().includes(needle) ||
    (token.symbol ?? '').toLowerCase() === needle ||
    token.address.toLowerCase() === needle
  );
}

/**
 * Wallet deals (interface 4.5): the `result` payload, newest deal first, one page of them.
 * Each deal pairs the wallet's own values (`initial`) with those of a follower copying this
 * wallet alone (`following`). `from_time` keeps the deals whose first trade is at or after it;
 * `to_time` leaves out later trades and recomputes the deals; `search` matches part of the token
 * name, its whole symbol or whole address, case-insensitively.
 *
 * Throws a {@link RequestError} (400 `validation_error`) for an invalid query.
 *
 * @example
 * const { deals, page } = walletDeals(index, 'Wallet1111', { network: 'sol', per_page: '10', search: 'bonk' });
 */
export function walletDeals(index: AnalyticsIndex, address: string, query: unknown): WalletDealsResult {
  const q = parseQuery(WalletDealsQuerySchema, query, index.network);
  const page = { current: q.page, per_page: q.per_page };
  const wallet = index.wallet(address);
  if (wallet === undefined) return { deals: [], page };
  const end = q.to_time === undefined ? index.buckets.end : index.buckets.endAt(Math.floor(q.to_time));
  const from = q.from_time === undefined ? null : Math.ceil(q.from_time);
  const own = computeOwnDeals(index.buckets, wallet.id, end, true).deals;
  const search = q.search;
  const kept: OwnDeal[] = own.filter(
    (deal) =>
      (from === null || deal.openTime >= from) && (search === undefined || matchesSearch(index, deal.tokenId, search)),
  );
  // Own deals are in opening order; newest first is the reverse.
  kept.reverse();
  const first = (q.page - 1) * q.per_page;
  const shown = kept.slice(first, first + q.per_page);
  if (shown.length === 0) return { deals: [], page };
  const paired = pairDeals(own, index.follower(wallet, end));
  return { deals: shown.map((deal) => walletDealJson(index, deal, paired[deal.index]!, end)), page };
}
