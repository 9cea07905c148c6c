import { Decimal, toJsonNumber, ZERO } from '../numeric/decimal.js';
import {
  accumulate,
  ADDITION_ERROR,
  addWords,
  CONVERSION_ERROR,
  decide40,
  ROUNDING_40_ERROR,
  toWord,
} from '../numeric/double-word.js';
import { ExactSum } from '../numeric/exact-sum.js';
import { Deferred, EquityExtremes, order } from './equity-extremes.js';

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
 *
 * The cash is an exact sum of `B` and every amount and fee that moved it ({@link ExactSum}),
 * rounded once to 40 digits when read (docs/model.md (j)): a reading differs from a sum rounded
 * after every change at most in its 40th digit. Beside it a bounded double-word sum (`shadow`)
 * decides the cash check, the lowest cash and the equity's comparisons when its bounds tell;
 * the exact sum is read only when they cannot, and for what a report prints. The failed
 * attempts' fees and the sandwiches' losses are exact sums as well.
 */
export class CopierCash {
  /** `starting_balance_usd`, or null: unlimited. */
  readonly startingBalance: Decimal | null;
  private readonly reserve: Decimal;
  /** The reserve's nearest double, for {@link affords}' quick test. */
  private readonly reserveNumber: number;
  /** The cash, exactly: moved by {@link bought}, {@link sold} and {@link failed} only. */
  private readonly sum = new ExactSum();
  /** The cash as a double word and a bound on its distance to {@link sum}'s exact value. */
  private readonly shadow = new Float64Array(3);
  /** The lowest cash so far, exactly: `capital_required = B − lowest` (B read as 0 when null). */
  private readonly lowestSum = new ExactSum();
  /** The lowest cash's center and radius (its exact value within the radius of the center). */
  private readonly lowestBounds = new Float64Array(2);
  /** The highest equity so far, and the largest fall from it in USD and in percent. */
  private readonly extremes: EquityExtremes;
  /** Where the double-word operations leave their results (a typed array: no boxed doubles). */
  private readonly word = new Float64Array(3);
  /** The last network fee paid ({@link payFee}) and its double word. */
  private lastFee: Decimal = ZERO;
  private readonly feeWord = new Float64Array(2);
  failedTransactions = 0;
  /** The failed attempts' fees ({@link failedTransactionFees}). */
  private readonly failedFees = new ExactSum();
  sandwichedTrades = 0;
  /** The sandwiches' losses ({@link sandwichLoss}). */
  private readonly sandwichLosses = new ExactSum();
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
    const start = this.startingBalance ?? ZERO;
    this.move(start, 1);
    this.keepAsLowest(this.shadow[0]!, Math.abs(this.shadow[1]!) + this.shadow[2]!);
    this.extremes = new EquityExtremes(start, this.startingBalance !== null);
  }

  /** The cash, the exact sum rounded to 40 digits. */
  get cash(): Decimal {
    return this.sum.value();
  }

  /**
   * Whether a buy of `amount` with these fees may be made: `amount + fees ≤ cash − reserve`
   * (copier-wallet.md 2); always true without a starting balance.
   */
  affords(amount: Decimal, networkFee: Decimal, botFee: Decimal): boolean {
    if (this.startingBalance === null) return true;
    const shadow = this.shadow;
    const cost = amount.toApproxNumber() + networkFee.toApproxNumber() + botFee.toApproxNumber();
    const quick = surelyAffords(cost, shadow[0]!, Math.abs(shadow[1]!) + shadow[2]!, this.reserveNumber);
    if (quick !== null) return quick;
    const cash = this.cash;
    const free = this.reserve.isZero() ? cash : cash.minus(this.reserve);
    return amount.plus(networkFee).plus(botFee).lte(free);
  }

  /** A landed buy: `cash −= usd_amount + fees`. */
  bought(usdAmount: Decimal, networkFee: Decimal, botFee: Decimal): void {
    this.move(usdAmount, -1);
    this.payFee(networkFee);
    this.move(botFee, -1);
    this.checkLowest();
  }

  /** A landed sell of any kind: `cash += usd_amount − fees`, which fees larger than the amount make a fall. */
  sold(usdAmount: Decimal, networkFee: Decimal, botFee: Decimal): void {
    this.move(usdAmount, 1);
    this.payFee(networkFee);
    this.move(botFee, -1);
    this.checkLowest();
  }

  /** A failed attempt: it pays its fee and nothing else. */
  failed(fee: Decimal): void {
    this.move(fee, -1);
    this.checkLowest();
    this.failedTransactions++;
    this.failedFees.add(fee);
  }

  /** Adds `sign × amount` to the cash. */
  private move(amount: Decimal, sign: number): void {
    if (amount.c0 === 0) return;
    toWord(this.word, amount);
    this.shift(amount, sign, this.word);
  }

  /**
   * Takes a trade's network fee from the cash, as {@link move}: the fee changes with the native
   * price only, so its double word is kept for the trades that pay the same fee.
   */
  private payFee(fee: Decimal): void {
    if (fee.c0 === 0) return;
    if (fee !== this.lastFee) {
      this.lastFee = fee;
      toWord(this.feeWord, fee);
    }
    this.shift(fee, -1, this.feeWord);
  }

  /** Adds `sign × amount` (its double word in `word`) to the exact sum, and to the shadow with its bound. */
  private shift(amount: Decimal, sign: number, word: Float64Array): void {
    this.sum.add(amount, sign);
    const high = word[0]!;
    accumulate(this.shadow, sign * high, sign * word[1]!, Math.abs(high) * CONVERSION_ERROR);
  }

  /**
   * After a change of cash: a new lowest cash when it lies below the lowest so far, decided from
   * the bounds when they tell and from the exact sums when not. A change that raises the cash
   * is surely above it (and costs a comparison of doubles).
   */
  private checkLowest(): void {
    const shadow = this.shadow;
    const center = shadow[0]!;
    const radius = Math.abs(shadow[1]!) + shadow[2]!;
    const lowest = this.lowestBounds;
    const below = order(center, radius, lowest[0]!, lowest[1]!);
    if (below > 0 || (below === 0 && !this.sum.value().lt(this.lowestSum.value()))) return;
    this.keepAsLowest(center, radius);
  }

  /** The cash now is the lowest so far: its exact sum, and its shadow's center and radius. */
  private keepAsLowest(center: number, radius: number): void {
    this.lowestSum.setTo(this.sum);
    this.lowestBounds[0] = center;
    this.lowestBounds[1] = radius;
  }

  /** The shadow starts again at the exact cash's reading `cash`, 40-digit rounding included. */
  private restartShadow(cash: Decimal): void {
    const shadow = this.shadow;
    toWord(shadow, cash);
    shadow[2] = Math.abs(shadow[0]!) * (CONVERSION_ERROR + ROUNDING_40_ERROR);
  }

  /**
   * A landed buy that was sandwiched: it got `got` tokens instead of `filled`, at the reference
   * price `price`; it lost `(filled − got) × price`.
   */
  sandwichedBuy(filled: Decimal, got: Decimal, price: Decimal): void {
    this.sandwichedTrades++;
    this.sandwichLosses.addProduct(filled, price);
    this.sandwichLosses.addProduct(got, price, -1);
  }

  /** A landed sell that was sandwiched: it got `got` USD instead of `filled`, and lost the difference. */
  sandwichedSell(filled: Decimal, got: Decimal): void {
    this.sandwichedTrades++;
    this.sandwichLosses.add(filled);
    this.sandwichLosses.add(got, -1);
  }

  /** `failed_transaction_fees`: the failed attempts' fees, summed. */
  get failedTransactionFees(): Decimal {
    return this.failedFees.value();
  }

  /** `sandwich_loss`: the sandwiched trades' losses, summed. */
  get sandwichLoss(): Decimal {
    return this.sandwichLosses.value();
  }

  /**
   * After a change of `cash`: the money in use, and the equity `cash + held` (`held`: the open
   * deals valued at the known prices of the moment) against its peak so far. The equity is kept
   * as its bounded double-word value ({@link EquityExtremes}), and made exactly only when the
   * bounds cannot tell a comparison or the double a report draws.
   */
  changed(held: HeldReading, time: number): void {
    const w = this.word;
    held.approximate(w);
    const heldHigh = w[0]!;
    const heldLow = w[1]!;
    const heldBound = w[2]!;
    const shadow = this.shadow;
    const cashHigh = shadow[0]!;
    const cashLow = shadow[1]!;
    const cashBound = shadow[2]!;
    addWords(w, cashHigh, cashLow, heldHigh, heldLow);
    const high = w[0]!;
    const low = w[1]!;
    // The held sum's bound, the cash's and its reading's 40-digit rounding, the addition; decide40
    // adds the equity's own rounding.
    const bound = heldBound + cashBound + Math.abs(cashHigh) * ROUNDING_40_ERROR + Math.abs(high) * ADDITION_ERROR;
    // The exact equity lies within `radius` of `high`: the word's low part, the bound, the 40-digit rounding.
    const radius = (Math.abs(low) + bound + Math.abs(high) * ROUNDING_40_ERROR) * BOUND_SAFETY;
    const unmoved = this.extremes.surelyUnmoved(high, radius);
    let equity: Decimal | null = null;
    const points = this.points;
    if (points !== null) {
      // decide leaves zero to the exact path; a cash of exactly 0 is the exact sum's to tell.
      let cashPrinted = cashHigh === 0 && this.sum.isZero() ? 0 : decide40(cashHigh, cashLow, cashBound);
      let equityPrinted = decide40(high, low, bound);
      if (cashPrinted !== cashPrinted || equityPrinted !== equityPrinted) {
        const cash = this.cash;
        equity = cash.plus(held.exact());
        cashPrinted = toJsonNumber(cash);
        equityPrinted = toJsonNumber(equity);
        this.restartShadow(cash);
      }
      points.push(time, cashPrinted, equityPrinted);
    }
    if (unmoved) return;
    this.extremes.reached(high, radius, equity ?? this.equityMaker(this.cash, held.snapshot()));
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
    return (this.startingBalance ?? ZERO).minus(this.lowestSum.value());
  }

  /** `max_drawdown_percent`, null without a starting balance. */
  get drawdownPercent(): Decimal | null {
    return this.startingBalance === null ? null : this.extremes.maxDrawdownPercent;
  }
}

/**
 * Whether `cost ≤ cash − reserve` from doubles, or null when they are too close to tell: `cost`
 * the sum of the amount's and fees' `toApproxNumber`s (each within 2^-49 of its decimal,
 * relatively), `cash` within `cashBound` of the exact cash, the reserve's double within 2^-53.
 * The doubles' sums and difference round by 2^-53 of themselves, and the model's readings (the
 * cash's, `cost`, `cash − reserve`) by 10^-39 of theirs: all within `2^-46 × (|cost| + |cash| +
 * |reserve|)` and `cashBound`. Outside the range where those bounds hold (magnitudes 10^-250 to
 * 10^250), nothing is told.
 */
function surelyAffords(cost: number, cash: number, cashBound: number, reserve: number): boolean | null {
  const scale = Math.abs(cost) + Math.abs(cash) + Math.abs(reserve);
  if (!(scale > 1e-200 && scale < 1e200)) return null;
  const margin = scale * 2 ** -46 + cashBound * BOUND_SAFETY;
  const gap = cash - reserve - cost;
  return gap > margin ? true : gap < -margin ? false : null;
}
