import { Decimal, HUNDRED, toJsonNumber, ZERO } from '../numeric/decimal.js';
import type { AnalyticsIndex } from './build.js';
import { roiRange, type DealState } from './deal-state.js';
import type { FollowerDeal } from './following.js';
import type { OwnDeal, OwnTrade } from './own-deals.js';
import { placeFollowerTrades, type PlacedFollowerTrade } from './pairing.js';
import type { WalletDeal, WalletDealTrade } from './results.js';

/** What the tape cannot tell about a trade: documented neutral values (docs/analytics.md). */
const NEUTRAL = {
  application: { name: '', address: '' },
  quantity_unlimited: false,
  usd_market_cap: 0,
  pools: [],
  coin_fee: { amount: 0, percent: 0 },
  swaps: [],
} as const;

const percentOf = (part: Decimal, whole: Decimal): Decimal => (whole.isZero() ? ZERO : HUNDRED.times(part).div(whole));

/** A token's facts for its deals: creation and first-trade times, scam status. */
interface TokenFacts {
  readonly createdAt: number;
  readonly startedAt: number;
}

function tokenFacts(index: AnalyticsIndex, tokenId: number): TokenFacts {
  const series = index.buckets.tokenSeries(tokenId);
  const startedAt = index.buckets.swapAt(series.positions[0]!).time;
  return { createdAt: index.tape.tokens[tokenId]!.meta?.created_at ?? startedAt, startedAt };
}

function ownTradeJson(t: OwnTrade, tokenAge: number): WalletDealTrade {
  return {
    id: 2 * t.swapIndex + 1,
    is_following: false,
    type: t.type,
    transaction_hash: t.swap.transaction_hash ?? '',
    application: { ...NEUTRAL.application },
    usd_amount: toJsonNumber(t.usdAmount),
    quantity: toJsonNumber(t.quantity),
    quantity_unlimited: NEUTRAL.quantity_unlimited,
    usd_price: toJsonNumber(t.price),
    usd_liquidity: t.swap.usd_liquidity == null ? 0 : toJsonNumber(new Decimal(t.swap.usd_liquidity)),
    usd_market_cap: NEUTRAL.usd_market_cap,
    token_age: tokenAge,
    time: t.time,
    pools: [],
    coin_fee: { ...NEUTRAL.coin_fee },
    router_fee: { usd: 0, native: 0 },
    network_fee: { usd: 0, native: 0 },
    swaps: [],
  };
}

function followerTradeJson(
  index: AnalyticsIndex,
  deal: FollowerDeal,
  k: number,
  placed: PlacedFollowerTrade,
  tokenAge: number,
): WalletDealTrade {
  const r = deal.trades[k]!.record;
  const { copySettings, engineOptions } = index.options;
  const feeNative = new Decimal(engineOptions.base_fee_native[index.network])
    .plus(copySettings.priority_fee)
    .plus(copySettings.bribe);
  const botNative = r.usd_bot_fee === 0 ? ZERO : new Decimal(r.usd_bot_fee).div(index.tape.native.at(r.time));
  return {
    id: 2 * placed.copied.swapIndex + 2,
    is_following: true,
    type: deal.trades[k]!.type,
    transaction_hash: '',
    application: { ...NEUTRAL.application },
    usd_amount: r.usd_amount ?? 0,
    quantity: r.quantity,
    quantity_unlimited: NEUTRAL.quantity_unlimited,
    usd_price: r.usd_price ?? 0,
    usd_liquidity: r.usd_liquidity ?? 0,
    usd_market_cap: NEUTRAL.usd_market_cap,
    token_age: tokenAge,
    time: r.time,
    pools: [],
    coin_fee: { ...NEUTRAL.coin_fee },
    router_fee: { usd: r.usd_bot_fee, native: toJsonNumber(botNative) },
    network_fee: { usd: r.usd_network_fee, native: r.usd_network_fee === 0 ? 0 : toJsonNumber(feeNative) },
    swaps: [],
  };
}

/** The follower's side of a deal's pairs, or nulls when it took no part. */
interface FollowingSide {
  readonly open_time: number | null;
  readonly last_operation_time: number | null;
  readonly status: 'open' | 'closed' | null;
  readonly trades_number: number | null;
  readonly closed_position: number | null;
  readonly pnl_realized: number | null;
  readonly pnl_unrealized: number | null;
  readonly pnl_total: number | null;
  readonly roi_realized: number | null;
  readonly roi_unrealized: number | null;
  readonly roi_total: number | null;
  readonly roi_low: number | null;
  readonly roi_high: number | null;
  readonly capital_required: number | null;
}

const NO_FOLLOWING: FollowingSide = {
  open_time: null,
  last_operation_time: null,
  status: null,
  trades_number: null,
  closed_position: null,
  pnl_realized: null,
  pnl_unrealized: null,
  pnl_total: null,
  roi_realized: null,
  roi_unrealized: null,
  roi_total: null,
  roi_low: null,
  roi_high: null,
  capital_required: null,
};

/**
 * One wallet deal (interface 2.5) from the wallet's own deal and the follower's deal paired
 * with it; `end` is the event position the data stop at (for the ROI range of open deals).
 */
export function walletDealJson(
  index: AnalyticsIndex,
  own: OwnDeal,
  follower: FollowerDeal | null,
  end: number,
): WalletDeal {
  const token = index.tape.tokens[own.tokenId]!;
  const facts = tokenFacts(index, own.tokenId);
  const tokenAge = Math.max(0, own.openTime - facts.createdAt);
  const series = index.buckets.tokenSeries(own.tokenId);
  const ownRoi = roiRange(series, own.trades, end);
  const ownTotal = own.realized.plus(own.unrealized);

  let following = NO_FOLLOWING;
  const trades: { pos: number; following: boolean; json: WalletDealTrade }[] = own.trades.map((t) => ({
    pos: t.pos,
    following: false,
    json: ownTradeJson(t, tokenAge),
  }));
  if (follower !== null) {
    const placed = placeFollowerTrades(own, follower);
    const states: DealState[] = placed.map((p) => p.state);
    const s = follower.simulated;
    // The simulator's own roi_total at the end is one of the values the deal reached; taking
    // it in keeps roi_low ≤ roi_total ≤ roi_high despite the float64 trades read back.
    const reached = roiRange(series, states, end);
    const final = new Decimal(s.roi_total);
    const roi = { low: Decimal.min(reached.low, final), high: Decimal.max(reached.high, final) };
    following = {
      open_time: s.open_time,
      last_operation_time: s.last_operation_time,
      status: s.status,
      trades_number: s.trades_number,
      closed_position: s.closed_position,
      pnl_realized: s.pnl_realized,
      pnl_unrealized: s.pnl_unrealized,
      pnl_total: s.pnl_total,
      roi_realized: s.roi_realized,
      roi_unrealized: toJsonNumber(percentOf(follower.unrealized, follower.investment)),
      roi_total: s.roi_total,
      roi_low: toJsonNumber(roi.low),
      roi_high: toJsonNumber(roi.high),
      capital_required: toJsonNumber(follower.capitalRequired),
    };
    placed.forEach((p, k) =>
      trades.push({ pos: p.copied.pos, following: true, json: followerTradeJson(index, follower, k, p, tokenAge) }),
    );
  }
  // Event order; a follower trade right after the wallet trade it copied.
  trades.sort((a, b) => a.pos - b.pos || Number(a.following) - Number(b.following));

  return {
    id: own.index + 1,
    network: index.network,
    token: {
      network: index.network,
      address: token.address,
      name: token.name,
      symbol: token.symbol,
      scam_status: token.meta?.scam_status ?? 'unknown',
      created_at: facts.createdAt,
      started_at: facts.startedAt,
    },
    open_time: { initial: own.openTime, following: following.open_time },
    last_operation_time: { initial: own.lastTime, following: following.last_operation_time },
    status: { initial: own.closed ? 'closed' : 'open', following: following.status },
    trades_number: { initial: own.tradesNumber, following: following.trades_number },
    closed_position: {
      initial: toJsonNumber(percentOf(own.soldQty, own.boughtQty)),
      following: following.closed_position,
    },
    pnl_realized: { initial: toJsonNumber(own.realized), following: following.pnl_realized },
    pnl_unrealized: { initial: toJsonNumber(own.unrealized), following: following.pnl_unrealized },
    pnl_total: { initial: toJsonNumber(ownTotal), following: following.pnl_total },
    roi_realized: { initial: toJsonNumber(percentOf(own.realized, own.investment)), following: following.roi_realized },
    roi_unrealized: {
      initial: toJsonNumber(percentOf(own.unrealized, own.investment)),
      following: following.roi_unrealized,
    },
    roi_total: { initial: toJsonNumber(percentOf(ownTotal, own.investment)), following: following.roi_total },
    roi_low: { initial: toJsonNumber(ownRoi.low), following: following.roi_low },
    roi_high: { initial: toJsonNumber(ownRoi.high), following: following.roi_high },
    capital_required: { initial: toJsonNumber(own.capitalRequired), following: following.capital_required },
    pools: [],
    trades: trades.map((t) => t.json),
  };
}
