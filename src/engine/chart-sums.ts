import { Decimal, ExactSum, toJsonNumber } from '../numeric/decimal.js';
import {
  accumulate,
  ADDITION_ERROR,
  addWords,
  CONVERSION_ERROR,
  decide40,
  doubleWord,
  multiplyWords,
  PRODUCT_ERROR,
  restartAt,
  toWord,
} from '../numeric/double-word.js';

/**
 * The PnL chart's running sums over the trades so far (model 4), read after every trade as the
 * doubles the response prints (the nearest to the exact sum rounded to 40 digits):
 * - the bot fee sum, `Σ usd_amount × rate` over every trade;
 * - the fee sum, the network fees plus the bot fees;
 * - the realized PnL, the sells' gains `Σ (usd_amount − cost)` less both fee sums.
 *
 * `UnrealizedBook` adds the realized PnL's last reading (its double word and bound, or its exact
 * value) to the unrealized PnL for `pnl_total`.
 *
 * The gains, network fees and bot fees are summed in double words with a bound on their error;
 * a reading decides the printed double from them (`decide` in `numeric/double-word.ts`) and only
 * when the bound reaches the edge of a double's rounding cell reads the exact sums, which are
 * kept in as few terms as the formulas allow: the bot fees as `rate × Σ usd_amount` (one rate
 * for the whole replay), so the amounts are summed, not their products; the network fees as
 * the earlier fees plus the current one times its count (a fee stays the same decimal until the
 * native price moves); and the sells' amounts serve both the gains and the bot fees. A buy adds
 * one decimal to an exact sum, a sell two.
 */
export class ChartSums {
  // Double words and bounds (as `accumulate` keeps them): the sells' gains, the network fees, the bot fees.
  private readonly gains = new Float64Array(3);
  private readonly networkFees = new Float64Array(3);
  private readonly botFees = new Float64Array(3);
  /** The current network fee's double word, and the rate's. */
  private readonly feeWord = doubleWord();
  private readonly rateWord = doubleWord();
  /** Where the double-word operations of a trade or a reading leave their results. */
  private readonly word = doubleWord();
  /** The last reading's printed realized PnL, fee sum and bot fee sum. */
  private readonly printed = new Float64Array(3);
  /**
   * The last reading's realized PnL as a double word and its bound: in a typed array, as double
   * fields of an object may be kept as boxed numbers, one allocation a store.
   */
  private readonly realized = new Float64Array(3);
  // Exact sums: the buys' and the sells' `usd_amount`, the sells' cost, the network fees before
  // the current one (`feeUnit`, paid `feeCount` times since).
  private readonly boughtUsd = new ExactSum();
  private readonly soldUsd = new ExactSum();
  private readonly soldCost = new ExactSum();
  private readonly feesBefore = new ExactSum();
  private feeUnit: Decimal | null = null;
  private feeCount = 0;
  /** Scratch for an exact reading. */
  private readonly exact = new ExactSum();
  /** Readings that had to read the exact sums (for tests and diagnostics). */
  exactReadings = 0;

  /** `rate`: `bot_fee_percent / 100`, or null when bot fees are not included. */
  constructor(private readonly rate: Decimal | null) {
    if (rate !== null) toWord(this.rateWord, rate);
  }

  /** The last reading's realized PnL, as printed. */
  get realizedPnl(): number {
    return this.printed[REALIZED]!;
  }

  /** The last reading's realized PnL as a double word (high, low) and the bound on its error. */
  get realizedHigh(): number {
    return this.realized[0]!;
  }

  get realizedLow(): number {
    return this.realized[1]!;
  }

  get realizedBound(): number {
    return this.realized[2]!;
  }

  /** The last reading's fee sum (network fees plus bot fees), as printed. */
  get feeSum(): number {
    return this.printed[FEE_SUM]!;
  }

  /** The last reading's bot fee sum, as printed. */
  get botFeeSum(): number {
    return this.printed[BOT_FEE_SUM]!;
  }

  /**
   * Adds a trade: its `usd_amount`, its network fee, and for a sell its cost (`quantity ×
   * usd_buy_price_avg`; null for a buy). The bot fee is `usd_amount × rate`.
   */
  addTrade(usdAmount: Decimal, cost: Decimal | null, networkFee: Decimal): void {
    const word = this.word;
    toWord(word, usdAmount);
    const usdHigh = word[0]!;
    const usdLow = word[1]!;
    if (cost !== null) {
      this.soldUsd.add(usdAmount);
      this.soldCost.add(cost);
      accumulate(this.gains, usdHigh, usdLow, Math.abs(usdHigh) * CONVERSION_ERROR);
      toWord(word, cost);
      const costHigh = word[0]!;
      accumulate(this.gains, -costHigh, -word[1]!, Math.abs(costHigh) * CONVERSION_ERROR);
    } else if (this.rate !== null) {
      this.boughtUsd.add(usdAmount);
    }
    this.addNetworkFee(networkFee);
    if (this.rate !== null && !usdAmount.isZero()) {
      const rate = this.rateWord;
      multiplyWords(word, usdHigh, usdLow, rate[0]!, rate[1]!);
      const high = word[0]!;
      accumulate(this.botFees, high, word[1]!, Math.abs(high) * PRODUCT_TERM_ERROR);
    }
  }

  private addNetworkFee(fee: Decimal): void {
    if (fee.isZero()) return;
    const feeWord = this.feeWord;
    if (fee !== this.feeUnit) {
      if (this.feeUnit !== null) this.feesBefore.addProduct(this.feeUnit, new Decimal(this.feeCount));
      this.feeUnit = fee;
      this.feeCount = 0;
      toWord(feeWord, fee);
    }
    this.feeCount++;
    const high = feeWord[0]!;
    accumulate(this.networkFees, high, feeWord[1]!, Math.abs(high) * CONVERSION_ERROR);
  }

  /** Reads the three sums: {@link realizedPnl}, {@link feeSum} and {@link botFeeSum}. */
  read(): void {
    const bot = this.botFees;
    const fees = this.networkFees;
    const gains = this.gains;
    const printed = this.printed;
    printed[BOT_FEE_SUM] = this.readBotFees();
    const word = this.word;
    addWords(word, fees[0]!, fees[1]!, bot[0]!, bot[1]!);
    const feeHigh = word[0]!;
    const feeLow = word[1]!;
    const feeBound = fees[2]! + bot[2]! + Math.abs(feeHigh) * ADDITION_ERROR;
    printed[FEE_SUM] = this.decideOr(feeHigh, feeLow, feeBound, FEE_SUM);
    addWords(word, gains[0]!, gains[1]!, -feeHigh, -feeLow);
    const high = word[0]!;
    const low = word[1]!;
    const bound = gains[2]! + feeBound + Math.abs(high) * ADDITION_ERROR;
    const realized = this.realized;
    realized[0] = high;
    realized[1] = low;
    realized[2] = bound;
    printed[REALIZED] = this.decideOr(high, low, bound, REALIZED);
  }

  /** The realized PnL's exact value rounded half to even to 40 digits. */
  realizedValue(): Decimal {
    return this.exactValue(REALIZED);
  }

  /** The bot fee sum as printed; an exact reading restarts its double word from the exact sum. */
  private readBotFees(): number {
    const bot = this.botFees;
    if (bot[2] === 0) return 0;
    const printed = decide40(bot[0]!, bot[1]!, bot[2]!);
    if (printed === printed) return printed;
    this.exactReadings++;
    const value = this.exactValue(BOT_FEE_SUM);
    restartAt(bot, value);
    return toJsonNumber(value);
  }

  /** The double decided from a sum's double word and bound, else from its exact value. */
  private decideOr(high: number, low: number, bound: number, which: number): number {
    // No error at all: only zeros were added, the sum is exactly 0.
    if (bound === 0) return 0;
    const printed = decide40(high, low, bound);
    if (printed === printed) return printed;
    this.exactReadings++;
    return toJsonNumber(this.exactValue(which));
  }

  /** The exact value of the realized PnL, the fee sum or the bot fee sum, rounded to 40 digits. */
  private exactValue(which: number): Decimal {
    const sum = this.exact;
    sum.clear();
    // Realized PnL = gains − fee sum; fee sum = network fees + bot fees.
    const sign = which === REALIZED ? -1 : 1;
    if (which === REALIZED) {
      sum.addSum(this.soldUsd);
      sum.addSum(this.soldCost, -1);
    }
    if (which !== BOT_FEE_SUM) {
      sum.addSum(this.feesBefore, sign);
      if (this.feeUnit !== null) sum.addProduct(this.feeUnit, new Decimal(this.feeCount), sign);
    }
    if (this.rate !== null) {
      sum.addSumTimes(this.boughtUsd, this.rate, sign);
      sum.addSumTimes(this.soldUsd, this.rate, sign);
    }
    return sum.value();
  }
}

// Where the last reading's printed values are kept, and which sum an exact reading is for.
const REALIZED = 0;
const FEE_SUM = 1;
const BOT_FEE_SUM = 2;

/**
 * A bot fee, `usd_amount × rate`: two conversions (< 2^-100 each, counted as
 * {@link CONVERSION_ERROR}) and a double-word product ({@link PRODUCT_ERROR}).
 */
const PRODUCT_TERM_ERROR = 2 * CONVERSION_ERROR + PRODUCT_ERROR;
