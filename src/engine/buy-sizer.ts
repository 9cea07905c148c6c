import { Decimal, HUNDRED, ZERO } from '../numeric/decimal.js';
import type { SimulatorRequest } from '../model/request.js';
import { NO_STRATEGY } from '../model/strategy.js';

/** Model 3.1 step 3: the share of `max_position_amount` at or below which a buy is dust. */
const DUST_FRACTION = new Decimal('1e-20');

/**
 * How much a copied buy spends (model 3.1 steps 2 and 3, strategy extensions 3):
 * `A = min(a × buy_percentage / 100 or fixed_buy_amount, max_buy_amount, max_position_amount −
 * usd_invested)`, and no buy at all when `A` is dust. The copier's cash is checked after it, by
 * the ledger; a new limit on the amount is one more line here.
 */
export class BuySizer {
  private readonly buyFraction: Decimal;
  /** The strategy's `fixed_buy_amount`, replacing `a × buy_percentage / 100`. */
  private readonly fixedBuy: Decimal | null;
  private readonly maxBuy: Decimal;
  private readonly maxPosition: Decimal;
  /** A buy of at most this is dust (`max_position_amount × 10⁻²⁰`) and skipped. */
  private readonly dustLimit: Decimal;
  private lastLeaderUsd: Decimal | null = null;
  private lastShare: Decimal = ZERO;

  constructor(
    request: Pick<SimulatorRequest, 'buy_percentage' | 'max_buy_amount' | 'max_position_amount' | 'strategy'>,
  ) {
    const strategy = request.strategy ?? NO_STRATEGY;
    this.buyFraction = new Decimal(request.buy_percentage).div(HUNDRED);
    this.fixedBuy = strategy.fixed_buy_amount === null ? null : new Decimal(strategy.fixed_buy_amount);
    this.maxBuy = new Decimal(request.max_buy_amount);
    this.maxPosition = new Decimal(request.max_position_amount);
    this.dustLimit = this.maxPosition.times(DUST_FRACTION);
  }

  /**
   * The amount of a buy copying a leader buy of `leaderUsd` USD into a position of `invested`
   * USD (null: no open deal), or null when the position has no room beyond dust.
   */
  amount(leaderUsd: Decimal, invested: Decimal | null): Decimal | null {
    const room = invested === null ? this.maxPosition : this.maxPosition.minus(invested);
    // A full position leaves rounding dust as room, not space to buy (model 1.1, 3.1 step 3).
    if (room.lte(this.dustLimit)) return null;
    let amount = this.fixedBuy ?? this.share(leaderUsd);
    if (this.maxBuy.lt(amount)) amount = this.maxBuy;
    if (room.lt(amount)) amount = room;
    return amount.lte(this.dustLimit) ? null : amount;
  }

  /** `a × buy_percentage / 100`; the last one made is kept, for the followers of one walk with these settings. */
  private share(leaderUsd: Decimal): Decimal {
    if (leaderUsd !== this.lastLeaderUsd) {
      this.lastLeaderUsd = leaderUsd;
      this.lastShare = leaderUsd.times(this.buyFraction);
    }
    return this.lastShare;
  }
}
