import { type Decimal, ExactSum, ZERO } from '../numeric/decimal.js';
import { SellParts } from './deal.js';

/**
 * One followed wallet's share of the result, as it accrues (copier-wallet.md 7, `leaders`). Its
 * sums are exact and rounded once when read (model.md (j), as the PnL chart's realized sum): a
 * trade adds its amounts without a rounding or an allocation.
 */
export class LeaderShare {
  copiedBuys = 0;
  copiedSells = 0;
  skipped = 0;
  readonly invested = new ExactSum();
  readonly realized = new ExactSum();
  readonly failedFees = new ExactSum();
  pnlUnrealized: Decimal = ZERO;

  get investment(): Decimal {
    return this.invested.value();
  }

  get pnlRealized(): Decimal {
    return this.realized.value();
  }

  get failedTransactionFees(): Decimal {
    return this.failedFees.value();
  }
}

/**
 * Who made the money (`report_leaders`): each leader's copied trades, skips, investment and PnL.
 * A sell is shared among the lots it takes from: the part `x_L` of `Q` taken from leader L's lot
 * brings L `usd_amount × x_L / Q − basis_L − fees × x_L / Q`; a buy costs the leader it copied
 * its fees. A part of a sell from several lots is added as `x_L × ((usd_amount − fees) / Q)`, the
 * quotient made once a sell and the product exact (model.md (j)).
 */
export class LeaderBook {
  readonly shares: LeaderShare[];
  /** Where the deals put each sell's parts by lot ({@link sold} shares them out). */
  readonly sellParts = new SellParts();

  constructor(leaders: number) {
    this.shares = Array.from({ length: leaders }, () => new LeaderShare());
  }

  /** A landed buy copying `leader`, with its network and bot fees. */
  bought(leader: number, usdAmount: Decimal, networkFee: Decimal, botFee: Decimal): void {
    const share = this.shares[leader]!;
    share.copiedBuys++;
    share.invested.add(usdAmount);
    share.realized.add(networkFee, -1);
    share.realized.add(botFee, -1);
  }

  /**
   * A sell of `quantity` tokens, with its parts by lot in {@link sellParts}: the part `x` taken
   * from leader L's lot brings L its share of the sell, less its cost basis.
   */
  sold(usdAmount: Decimal, quantity: Decimal, networkFee: Decimal, botFee: Decimal): void {
    const parts = this.sellParts;
    // What the sell brings a token, `(usd_amount − fees) / Q`, made once for the parts that take a share of it.
    let perToken: Decimal | null = null;
    for (let k = 0; k < parts.length; k++) {
      const x = parts.quantities[k]!;
      if (x.isZero()) continue;
      const realized = this.shares[parts.leaders[k]!]!.realized;
      realized.add(parts.bases[k]!, -1);
      if (x === quantity || x.eq(quantity)) {
        // A sell from one lot (x = Q) brings it all.
        realized.add(usdAmount);
        realized.add(networkFee, -1);
        realized.add(botFee, -1);
      } else {
        // The part x / Q of the amount less the fees: x tokens at what the sell brings a token.
        perToken ??= usdAmount.minus(networkFee).minus(botFee).div(quantity);
        realized.addProduct(perToken, x);
      }
    }
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
    this.shares[leader]!.failedFees.add(fee);
  }

  /** At the window's end: `leader`'s lot in an open deal, valued `lot × price − cost`. */
  held(leader: number, lot: Decimal, cost: Decimal, price: Decimal): void {
    const share = this.shares[leader]!;
    share.pnlUnrealized = share.pnlUnrealized.plus(lot.times(price).minus(cost));
  }
}
