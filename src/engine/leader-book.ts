import { type Decimal, ZERO } from '../numeric/decimal.js';

/** One followed wallet's share of the result, as it accrues (copier-wallet.md 7, `leaders`). */
export class LeaderShare {
  copiedBuys = 0;
  copiedSells = 0;
  skipped = 0;
  investment: Decimal = ZERO;
  pnlRealized: Decimal = ZERO;
  pnlUnrealized: Decimal = ZERO;
  failedTransactionFees: Decimal = ZERO;
}

/**
 * Who made the money (`report_leaders`): each leader's copied trades, skips, investment and PnL.
 * A sell is shared among the lots it takes from: the part `x_L` of `Q` taken from leader L's lot
 * brings L `usd_amount × x_L / Q − basis_L − fees × x_L / Q`; a buy costs the leader it copied
 * its fees.
 */
export class LeaderBook {
  readonly shares: LeaderShare[];

  constructor(leaders: number) {
    this.shares = Array.from({ length: leaders }, () => new LeaderShare());
  }

  /** A landed buy copying `leader`. */
  bought(leader: number, usdAmount: Decimal, fees: Decimal): void {
    const share = this.shares[leader]!;
    share.copiedBuys++;
    share.investment = share.investment.plus(usdAmount);
    share.pnlRealized = share.pnlRealized.minus(fees);
  }

  /** The part `x` of a sell of `quantity` tokens taken from `leader`'s lot, with its cost basis. */
  lotSold(leader: number, x: Decimal, basis: Decimal, usdAmount: Decimal, quantity: Decimal, fees: Decimal): void {
    const share = this.shares[leader]!;
    // A sell from one lot (x = Q) brings it all; else the part x / Q of the amount and the fees.
    const part = x.eq(quantity)
      ? usdAmount.minus(basis).minus(fees)
      : usdAmount.times(x).div(quantity).minus(basis).minus(fees.times(x).div(quantity));
    share.pnlRealized = share.pnlRealized.plus(part);
  }

  /** A landed sell copying `leader` (a `close_all` sell counts for the leader whose sell it copied). */
  copiedSell(leader: number): void {
    this.shares[leader]!.copiedSells++;
  }

  /** A swap of `leader` whose copy ended without a landed trade. */
  skip(leader: number): void {
    this.shares[leader]!.skipped++;
  }

  /** A failed attempt of a copy of `leader`. */
  failed(leader: number, fee: Decimal): void {
    const share = this.shares[leader]!;
    share.failedTransactionFees = share.failedTransactionFees.plus(fee);
  }

  /** At the window's end: `leader`'s lot in an open deal, valued `lot × price − cost`. */
  held(leader: number, lot: Decimal, cost: Decimal, price: Decimal): void {
    const share = this.shares[leader]!;
    share.pnlUnrealized = share.pnlUnrealized.plus(lot.times(price).minus(cost));
  }
}
