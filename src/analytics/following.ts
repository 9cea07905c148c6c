import { Decimal, ZERO } from '../numeric/decimal.js';
import { InputError } from '../model/errors.js';
import type { SimulatedDeal, SimulatedTrade } from '../model/response.js';
import { simulate } from '../simulate.js';
import type { SwapBuckets } from './buckets.js';
import type { ResolvedAnalyticsOptions } from './options.js';
import { walletSubTape } from './sub-tape.js';
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
  const response = simulate(
    sub,
    {
      ...options.copySettings,
      wallets: [address],
      network: sub.network,
      from_date: '1970-01-01',
      to_date: utcDate(lastTime),
      close_all: false,
      inactivity_time_fix: null,
    },
    options.engineOptionsInput,
  );
  return response.deals.map((deal) => followerDeal(deal, tokenIdOf(deal.token.address)));
}

/** The last day of the simulator's window: the UTC date of the last swap seen. */
function utcDate(time: number): string {
  const date = new Date(time * 1000);
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() > 9999) {
    throw new InputError(`tape: swap time ${time} lies beyond the year 9999, which the simulator's dates cannot express`, {
      source: 'tape',
    });
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
