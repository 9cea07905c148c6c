import { Decimal, toJsonNumber, ZERO } from '../numeric/decimal.js';
import {
  ADDITION_ERROR,
  addWords,
  CONVERSION_ERROR,
  decide,
  decide40,
  ROUNDING_40_ERROR,
  toWord,
} from '../numeric/double-word.js';
import { Deferred, EquityExtremes } from './equity-extremes.js';

/** Covers the rounding of the equity's radius's own arithmetic (relative 2^-53 a step), as `decide40`'s. */
const BOUND_SAFETY = 1.001;

/** The open deals' value as {@link CopierCash.changed} reads it (`HeldValue`). */
export interface HeldReading {
  /** The value as a double word and a bound on its distance to the model's: `out[0] + out[1]` within `out[2]`. */
  approximate(out: Float64Array): void;
  /** The value as the model makes it. */
  exact(): Decimal;
  /** What makes {@link exact}'s value of this moment later, when asked: after trades and price moves. */
  snapshot(): () => Decimal;
}

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
  /** The reserve's nearest double, for {@link affords}' quick test. */
  private readonly reserveNumber: number;
  /** Moved by {@link bought}, {@link sold} and {@link failed} only. */
  cash: Decimal;
  /** The lowest `cash` so far: `capital_required = B − lowest` (B read as 0 when null). */
  private lowestCash: Decimal;
  /** The highest equity so far, and the largest fall from it in USD and in percent. */
  private readonly extremes: EquityExtremes;
  /** The last buy's cost and the decimals it was made from ({@link buyCost}). */
  private readonly lastBuy = { amount: ZERO, networkFee: ZERO, botFee: ZERO, cost: ZERO };
  /** Where the double-word operations leave their results (a typed array: no boxed doubles). */
  private readonly word = new Float64Array(3);
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
    this.reserveNumber = this.reserve.toNumber();
    this.cash = this.startingBalance ?? ZERO;
    this.lowestCash = this.cash;
    this.extremes = new EquityExtremes(this.cash, this.startingBalance !== null);
  }

  /**
   * Whether a buy of `amount` with these fees may be made: `amount + fees ≤ cash − reserve`
   * (copier-wallet.md 2); always true without a starting balance.
   */
  affords(amount: Decimal, networkFee: Decimal, botFee: Decimal): boolean {
    if (this.startingBalance === null) return true;
    const cost = this.buyCost(amount, networkFee, botFee);
    const quick = surelyAffords(cost.toApproxNumber(), this.cash.toApproxNumber(), this.reserveNumber);
    if (quick !== null) return quick;
    const free = this.reserve.isZero() ? this.cash : this.cash.minus(this.reserve);
    return cost.lte(free);
  }

  /** A landed buy: `cash −= usd_amount + fees`. */
  bought(usdAmount: Decimal, networkFee: Decimal, botFee: Decimal): void {
    this.fellTo(this.cash.minus(this.buyCost(usdAmount, networkFee, botFee)));
  }

  /**
   * `usd_amount + usd_network_fee + usd_bot_fee` of a buy, kept for the same three decimals: the
   * cash check and the landed buy that follows it ask for the same sum.
   */
  private buyCost(usdAmount: Decimal, networkFee: Decimal, botFee: Decimal): Decimal {
    const last = this.lastBuy;
    if (last.amount !== usdAmount || last.networkFee !== networkFee || last.botFee !== botFee) {
      last.amount = usdAmount;
      last.networkFee = networkFee;
      last.botFee = botFee;
      last.cost = usdAmount.plus(networkFee).plus(botFee);
    }
    return last.cost;
  }

  /**
   * `cash` after a change that can only lower it (amounts and fees are ≥ 0): the only changes
   * that can set a new lowest cash.
   */
  private fellTo(cash: Decimal): void {
    this.cash = cash;
    if (cash.lt(this.lowestCash)) this.lowestCash = cash;
  }

  /** A landed sell of any kind: `cash += usd_amount − fees`, which fees larger than the amount make a fall. */
  sold(usdAmount: Decimal, networkFee: Decimal, botFee: Decimal): void {
    const proceeds = usdAmount.minus(networkFee).minus(botFee);
    const cash = this.cash.plus(proceeds);
    if (proceeds.isNegative()) this.fellTo(cash);
    else this.cash = cash;
  }

  /** A failed attempt: it pays its fee and nothing else. */
  failed(fee: Decimal): void {
    this.fellTo(this.cash.minus(fee));
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
   * deals valued at the known prices of the moment) against its peak so far. The equity is kept
   * as its bounded double-word value ({@link EquityExtremes}), and made exactly only when the
   * bounds cannot tell a comparison or the double a report draws.
   */
  changed(held: HeldReading, time: number): void {
    const cash = this.cash;
    const w = this.word;
    held.approximate(w);
    const heldHigh = w[0]!;
    const heldLow = w[1]!;
    const heldBound = w[2]!;
    toWord(w, cash);
    const cashHigh = w[0]!;
    const cashLow = w[1]!;
    addWords(w, cashHigh, cashLow, heldHigh, heldLow);
    const high = w[0]!;
    const low = w[1]!;
    // The held sum's bound, the cash's conversion, the addition; decide40 adds the equity's own rounding.
    const bound = heldBound + Math.abs(cashHigh) * CONVERSION_ERROR + Math.abs(high) * ADDITION_ERROR;
    // The exact equity lies within `radius` of `high`: the word's low part, the bound, the 40-digit rounding.
    const radius = (Math.abs(low) + bound + Math.abs(high) * ROUNDING_40_ERROR) * BOUND_SAFETY;
    const unmoved = this.extremes.surelyUnmoved(high, radius);
    let equity: Decimal | null = null;
    const points = this.points;
    if (points !== null) {
      // A cash of exactly 0 converts to 0 (decide leaves zero to the exact path).
      let cashPrinted = cashHigh === 0 ? 0 : decide(cashHigh, cashLow, Math.abs(cashHigh) * CONVERSION_ERROR);
      let equityPrinted = decide40(high, low, bound);
      if (cashPrinted !== cashPrinted || equityPrinted !== equityPrinted) {
        equity = cash.plus(held.exact());
        cashPrinted = toJsonNumber(cash);
        equityPrinted = toJsonNumber(equity);
      }
      points.push(time, cashPrinted, equityPrinted);
    }
    if (unmoved) return;
    this.extremes.reached(high, radius, equity ?? this.equityMaker(cash, held.snapshot()));
  }

  /** The equity of this change of cash, made when asked from the cash and the open deals' snapshot. */
  private equityMaker(cash: Decimal, held: () => Decimal): Deferred {
    return new Deferred(() => cash.plus(held()));
  }

  /** `max_drawdown`. */
  get maxDrawdown(): Decimal {
    return this.extremes.maxDrawdown;
  }

  /** `capital_required`: the most money in use at once, fees included (0 at least). */
  get capitalRequired(): Decimal {
    return (this.startingBalance ?? ZERO).minus(this.lowestCash);
  }

  /** `max_drawdown_percent`, null without a starting balance. */
  get drawdownPercent(): Decimal | null {
    return this.startingBalance === null ? null : this.extremes.maxDrawdownPercent;
  }
}

/**
 * Whether `cost ≤ cash − reserve` from their doubles, or null when they are too close to tell.
 * `toApproxNumber` is within 2^-49 of a decimal, relatively, the reserve's double within 2^-53,
 * the difference rounds by 2^-53 of itself and the model's `cash − reserve` by 10^-39 of it: all
 * within 2^-46 of `|cost| + |cash| + |reserve|`. Outside the range where those bounds hold
 * (magnitudes 10^-250 to 10^250), nothing is told.
 */
function surelyAffords(cost: number, cash: number, reserve: number): boolean | null {
  const scale = Math.abs(cost) + Math.abs(cash) + Math.abs(reserve);
  if (!(scale > 1e-200 && scale < 1e200)) return null;
  const margin = scale * 2 ** -46;
  const gap = cash - reserve - cost;
  return gap > margin ? true : gap < -margin ? false : null;
}
