import type { DealState } from './deal-state.js';
import type { FollowerDeal } from './following.js';
import type { OwnDeal, OwnTrade } from './own-deals.js';

/**
 * The follower's deal behind each of the wallet's own deals (null: the follower took no part),
 * by position in `own`. Per token, both lists are in opening order and a follower deal opens
 * at the copy of the wallet's opening buy, so the k-th follower deal of a token belongs to the
 * wallet deal of that token that opened at the same time.
 */
export function pairDeals(own: readonly OwnDeal[], follower: readonly FollowerDeal[]): (FollowerDeal | null)[] {
  const byToken = new Map<number, FollowerDeal[]>();
  for (const deal of follower) {
    const list = byToken.get(deal.tokenId);
    if (list === undefined) byToken.set(deal.tokenId, [deal]);
    else list.push(deal);
  }
  const next = new Map<number, number>();
  return own.map((deal) => {
    const list = byToken.get(deal.tokenId) ?? [];
    let k = next.get(deal.tokenId) ?? 0;
    while (k < list.length && list[k]!.openTime < deal.openTime) k++;
    const match = k < list.length && list[k]!.openTime === deal.openTime ? list[k]! : null;
    next.set(deal.tokenId, match === null ? k : k + 1);
    return match;
  });
}

/** A follower trade placed at the wallet swap it copied. */
export interface PlacedFollowerTrade {
  /** The wallet's trade that this one copied. */
  readonly copied: OwnTrade;
  readonly state: DealState;
}

/**
 * Places each follower trade of `follower` at the wallet trade of `own` it copied: the first
 * not yet taken with the same type and time. A wallet buy the follower skipped (dupe limit or
 * full position) stays skipped until a sell frees room, so the earliest match is the copy.
 */
export function placeFollowerTrades(own: OwnDeal, follower: FollowerDeal): PlacedFollowerTrade[] {
  const placed: PlacedFollowerTrade[] = [];
  let j = 0;
  for (const trade of follower.trades) {
    while (j < own.trades.length && (own.trades[j]!.type !== trade.type || own.trades[j]!.time !== trade.time)) j++;
    const copied = own.trades[j];
    if (copied === undefined) {
      throw new Error(
        `internal: follower ${trade.type} at ${trade.time} copies no trade of the wallet's deal ${own.index + 1}`,
      );
    }
    j++;
    placed.push({
      copied,
      state: {
        pos: copied.pos,
        realized: trade.realized,
        qty: trade.qty,
        invested: trade.invested,
        boughtUsd: trade.boughtUsd,
      },
    });
  }
  return placed;
}
