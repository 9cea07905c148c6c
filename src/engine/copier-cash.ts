import { Decimal, HUNDRED, toJsonNumber, ZERO } from '../numeric/decimal.js';

/**
 * The copier's cash (copier-wallet.md 2 and 7), a part of the follower ledger (`follower-ledger.ts`): its cash, the
 * money it has had in use at most, the equity curve's drawdown, and what belongs to no deal (the
 * fees of failed attempts, the sandwiches' losses, the copies skipped for cash). Deals keep their
 * own accounting; every trade and every failed attempt also passes through here.
 *
 * With a starting balance `B`, `cash` starts at `B` and a buy that would leave less than the
 * reserve is refused; without one, `cash` starts at 0 and nothing is refused.
 */
export class CopierCash {
  /** `starting_balance_usd`, or null: unlimited. */
  readonly startingBalance: Decimal | null;
  private readonly reserve: Decimal;
  cash: Decimal;
  /** The lowest `cash` so far: `capital_required = B − lowest` (B read as 0 when null). */
  private lowestCash: Decimal;
  /** The highest equity so far, and the largest fall from it in USD and in percent. */
  private peak: Decimal;
  maxDrawdown: Decimal = ZERO;
  private maxDrawdownPercent: Decimal = ZERO;
  failedTransactions = 0;
  failedTransactionFees: Decimal = ZERO;
  sandwichedTrades = 0;
  sandwichLoss: Decimal = ZERO;
  skippedForCash = 0;
  /**
   * The cash and equity after each change of cash, with its time, when kept (the reports draw
   * them): three doubles a point, as the response prints money.
   */
  readonly points: number[] | null;

  constructor(startingBalance: number | null, reserve: number, keepPoints = false) {
    this.points = keepPoints ? [] : null;
    this.startingBalance = startingBalance === null ? null : new Decimal(startingBalance);
    this.reserve = new Decimal(reserve);
    this.cash = this.startingBalance ?? ZERO;
    this.lowestCash = this.cash;
    this.peak = this.cash;
  }

  /**
   * Whether a buy of `amount` with these fees may be made: `amount + fees ≤ cash − reserve`
   * (copier-wallet.md 2); always true without a starting balance.
   */
  affords(amount: Decimal, networkFee: Decimal, botFee: Decimal): boolean {
    if (this.startingBalance === null) return true;
    return amount.plus(networkFee).plus(botFee).lte(this.cash.minus(this.reserve));
  }

  /** A landed buy: `cash −= usd_amount + fees`. */
  bought(usdAmount: Decimal, networkFee: Decimal, botFee: Decimal): void {
    this.cash = this.cash.minus(usdAmount.plus(networkFee).plus(botFee));
  }

  /** A landed sell of any kind: `cash += usd_amount − fees`. */
  sold(usdAmount: Decimal, networkFee: Decimal, botFee: Decimal): void {
    this.cash = this.cash.plus(usdAmount.minus(networkFee).minus(botFee));
  }

  /** A failed attempt: it pays its fee and nothing else. */
  failed(fee: Decimal): void {
    this.cash = this.cash.minus(fee);
    this.failedTransactions++;
    this.failedTransactionFees = this.failedTransactionFees.plus(fee);
  }

  /** A landed copy that was sandwiched, and what it lost to it. */
  sandwiched(loss: Decimal): void {
    this.sandwichedTrades++;
    this.sandwichLoss = this.sandwichLoss.plus(loss);
  }

  /**
   * After a change of `cash`: the money in use, and the equity `cash + held` (`held`: the open
   * deals valued at the known prices of the moment) against its peak so far.
   */
  changed(held: Decimal, time: number): void {
    if (this.cash.lt(this.lowestCash)) this.lowestCash = this.cash;
    const equity = this.cash.plus(held);
    this.points?.push(time, toJsonNumber(this.cash), toJsonNumber(equity));
    if (!equity.lt(this.peak)) {
      this.peak = equity;
      return;
    }
    const fall = this.peak.minus(equity);
    if (fall.gt(this.maxDrawdown)) this.maxDrawdown = fall;
    // A new largest percent only when 100 × fall > percent × peak: a product, not a division, a change.
    if (this.startingBalance !== null && this.peak.gt(ZERO)) {
      const hundredFall = HUNDRED.times(fall);
      if (hundredFall.gt(this.maxDrawdownPercent.times(this.peak)))
        this.maxDrawdownPercent = hundredFall.div(this.peak);
    }
  }

  /** `capital_required`: the most money in use at once, fees included (0 at least). */
  get capitalRequired(): Decimal {
    return (this.startingBalance ?? ZERO).minus(this.lowestCash);
  }

  /** `max_drawdown_percent`, null without a starting balance. */
  get drawdownPercent(): Decimal | null {
    return this.startingBalance === null ? null : this.maxDrawdownPercent;
  }
}
