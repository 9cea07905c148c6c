import { Decimal } from '../numeric/decimal.js';
import type { SkippedCopyJson } from '../model/response.js';
import type { Strategy } from '../model/strategy.js';
import type { Liquidity } from './liquidity.js';

/** Why a leader swap was not copied (strategy extensions 7, `skipped_copies[].reason`). */
export type SkipReason = SkippedCopyJson['reason'];

/**
 * The strategy's buy filters (strategy extensions 4), checked in the text's order after the dupe
 * limit and before the sizing; the first that fails names the reason.
 */
export class BuyFilters {
  private readonly minLeaderBuy: Decimal | null;
  private readonly minLiquidity: Decimal | null;
  private readonly maxAgeSeconds: number | null;

  /** Null when the strategy filters nothing. */
  static of(strategy: Strategy): BuyFilters | null {
    const { min_leader_buy_usd, min_liquidity_usd, max_token_age_hours } = strategy;
    if (min_leader_buy_usd === 0 && min_liquidity_usd === null && max_token_age_hours === null) return null;
    return new BuyFilters(strategy);
  }

  private constructor(strategy: Strategy) {
    this.minLeaderBuy = strategy.min_leader_buy_usd === 0 ? null : new Decimal(strategy.min_leader_buy_usd);
    this.minLiquidity = strategy.min_liquidity_usd === null ? null : new Decimal(strategy.min_liquidity_usd);
    this.maxAgeSeconds = strategy.max_token_age_hours === null ? null : strategy.max_token_age_hours * 3600;
  }

  /**
   * The reason to skip a copied buy, or null to go on: `leaderUsd` the leader swap's
   * `usd_amount`, `liquidity` the copy's reference liquidity (null when unknown), `time` the
   * copy's time and `firstSeen` the time of the token's first swap in event order.
   */
  check(leaderUsd: Decimal, liquidity: Liquidity | null, time: number, firstSeen: number): SkipReason | null {
    if (this.minLeaderBuy !== null && leaderUsd.lt(this.minLeaderBuy)) return 'leader_buy_too_small';
    if (this.minLiquidity !== null && (liquidity === null || liquidity.usd.lt(this.minLiquidity)))
      return 'liquidity_too_low';
    if (this.maxAgeSeconds !== null && time - firstSeen > this.maxAgeSeconds) return 'token_too_old';
    return null;
  }
}
