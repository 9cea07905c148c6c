import { Decimal, ZERO } from '../numeric/decimal.js';
import { InputError } from '../model/errors.js';
import type { SimulatedDeal, SimulatedTrade } from '../model/response.js';
import { replayFollowers, WALLETS_A_WALK, walksOf } from '../engine/followers.js';
import type { IndexedTape } from '../engine/tape-index.js';
import type { Network, SimulatorRequest } from '../model/request.js';
import { buildResponse } from '../report/response.js';
import { prepare, simulate } from '../simulate.js';
import type { SwapBuckets } from './buckets.js';
import type { ResolvedAnalyticsOptions } from './options.js';
import { tradedTokens, walletSubTape } from './sub-tape.js';
import type { DealFigures } from './own-deals.js';

/** A follower trade as the simulator reported it, with the numbers the analytics need. */
export interface FollowerTrade {
  readonly record: SimulatedTrade;
  readonly type: 'buy' | 'sell';
  readonly time: number;
  readonly usdAmount: Decimal;
  /** Realized PnL this trade added: a sell's gain over cost, less the trade's fees. */
  readonly realizedDelta: Decimal;
  /** The deal right after this trade. */
  readonly realized: Decimal;
  readonly qty: Decimal;
  readonly invested: Decimal;
  readonly boughtUsd: Decimal;
}

/** A deal of the follower (the `following` side), from the simulator's response. */
export interface FollowerDeal extends DealFigures {
  readonly simulated: SimulatedDeal;
  readonly tokenId: number;
  readonly trades: readonly FollowerTrade[];
  /** The most USD invested at once (highest `usd_invested` after any of its trades). */
  readonly capitalRequired: Decimal;
}

/**
 * Simulates a follower copying the wallet alone with the copy settings, over the wallet's
 * sub-tape up to event position `end`, and returns its deals in the order they opened.
 *
 * The simulator speaks JSON numbers at its edge; values read back from it are exact decimals
 * of those float64 numbers.
 */
export function followWallet(
  buckets: SwapBuckets,
  walletId: number,
  address: string,
  end: number,
  options: ResolvedAnalyticsOptions,
  tokenIdOf: (address: string) => number,
): FollowerDeal[] {
  const sub = walletSubTape(buckets, walletId, end);
  if (sub.swaps.length === 0) return [];
  const lastTime = sub.swaps[sub.swaps.length - 1]!.time;
  const response = simulate(sub, followerRequest(options, address, sub.network, lastTime), options.engineOptionsInput);
  return response.deals.map((deal) => followerDeal(deal, tokenIdOf(deal.token.address)));
}

/**
 * {@link followWallet} for many wallets at once, each up to event position `end`: the followers
 * of walks of the tape (`replayFollowers`, `walletsAWalk` a walk) instead of a simulation each.
 * A follower sees the whole tape up to `end` where `followWallet` sees its sub-tape; the swaps of
 * other tokens move nothing of it, and its window still ends on the day of its sub-tape's last
 * swap, so each wallet's deals are exactly `followWallet`'s (a property test holds them equal).
 */
export function followWallets(
  buckets: SwapBuckets,
  wallets: readonly { readonly id: number; readonly address: string }[],
  end: number,
  options: ResolvedAnalyticsOptions,
  tokenIdOf: (address: string) => number,
  walletsAWalk = WALLETS_A_WALK,
): FollowerDeal[][] {
  const tape = buckets.tape;
  const lastTimes = wallets.map(({ id }) => lastSubTapeTime(buckets, id, end));
  const following = wallets.filter((_, k) => lastTimes[k] !== undefined);
  if (following.length === 0) return wallets.map(() => []);
  const { parsed: base, engineOptions } = prepare(
    { ...followerRequest(options, following[0]!.address, tape.network, 0) },
    options.engineOptionsInput,
  );
  const requests: SimulatorRequest[] = [];
  wallets.forEach(({ address }, k) => {
    const last = lastTimes[k];
    if (last !== undefined) requests.push({ ...base, wallets: [address], to_date: utcDate(last) });
  });
  const prefix: IndexedTape = { ...tape, order: tape.order.subarray(0, end) };
  // A walk for each `walletsAWalk` wallets, its runs turned into deals as it ends: one walk for
  // ten thousand would keep every replay, trades included, to its end, past the heap's limit.
  const followed: FollowerDeal[][] = [];
  for (const [, group] of walksOf(requests, walletsAWalk)) {
    for (const run of replayFollowers(prefix, group, engineOptions, { chart: false })) {
      const response = buildResponse(run, tape.tokens);
      followed.push(response.deals.map((deal) => followerDeal(deal, tokenIdOf(deal.token.address))));
    }
  }
  let next = 0;
  return lastTimes.map((last) => (last === undefined ? [] : followed[next++]!));
}

/** The follower's request: the copy settings, the wallet alone, from 1970 to the day of `lastTime`. */
function followerRequest(
  options: ResolvedAnalyticsOptions,
  address: string,
  network: Network,
  lastTime: number,
): Record<string, unknown> {
  return {
    ...options.copySettings,
    wallets: [address],
    network,
    from_date: '1970-01-01',
    to_date: utcDate(lastTime),
    close_all: false,
    inactivity_time_fix: null,
  };
}

/** The time of the last swap of the wallet's sub-tape before `end` (see sub-tape.ts); undefined when it has none. */
function lastSubTapeTime(buckets: SwapBuckets, walletId: number, end: number): number | undefined {
  const tape = buckets.tape;
  let last = -1;
  for (const tokenId of tradedTokens(buckets, walletId, end)) {
    const series = buckets.tokenSeries(tokenId);
    const count = series.firstAtOrAfter(end);
    if (count > 0 && series.positions[count - 1]! > last) last = series.positions[count - 1]!;
  }
  return last < 0 ? undefined : tape.swaps[tape.order[last]!]!.time;
}

/** The last day of the simulator's window: the UTC date of the last swap seen. */
function utcDate(time: number): string {
  const date = new Date(time * 1000);
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() > 9999) {
    throw new InputError(
      `tape: swap time ${time} lies beyond the year 9999, which the simulator's dates cannot express`,
      {
        source: 'tape',
      },
    );
  }
  return date.toISOString().slice(0, 10);
}

function followerDeal(simulated: SimulatedDeal, tokenId: number): FollowerDeal {
  const trades: FollowerTrade[] = [];
  let realized = ZERO;
  let qty = ZERO;
  let boughtUsd = ZERO;
  let volume = ZERO;
  let capital = ZERO;
  const closed = simulated.status === 'closed';
  simulated.trades.forEach((record, k) => {
    const usdAmount = new Decimal(record.usd_amount ?? 0);
    const quantity = new Decimal(record.quantity);
    const fees = new Decimal(record.usd_network_fee).plus(record.usd_bot_fee);
    let realizedDelta = fees.neg();
    if (record.type === 'buy') {
      qty = qty.plus(quantity);
      boughtUsd = boughtUsd.plus(usdAmount);
    } else {
      // The average buy price does not move at a sell: the record's is the one it sold at.
      realizedDelta = usdAmount.minus(quantity.times(record.usd_buy_price_avg)).minus(fees);
      qty = qty.minus(quantity);
    }
    // The closing trade empties the position; float64 quantities need not sum to exactly 0.
    if (closed && k === simulated.trades.length - 1) qty = ZERO;
    realized = realized.plus(realizedDelta);
    volume = volume.plus(usdAmount);
    const invested = new Decimal(record.usd_invested);
    if (invested.gt(capital)) capital = invested;
    trades.push({
      record,
      type: record.type === 'buy' ? 'buy' : 'sell',
      time: record.time,
      usdAmount,
      realizedDelta,
      realized,
      qty,
      invested,
      boughtUsd,
    });
  });
  return {
    simulated,
    tokenId,
    trades,
    openTime: simulated.open_time,
    closed,
    realized: new Decimal(simulated.pnl_realized),
    unrealized: new Decimal(simulated.pnl_unrealized),
    investment: new Decimal(simulated.investment_amount),
    volume,
    capitalRequired: capital,
  };
}
