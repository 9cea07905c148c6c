import { ExactSum, toJsonNumber, ZERO } from '../numeric/decimal.js';
import { ADDITION_ERROR, addWords, decide40, doubleWord, ROUNDING_40_ERROR } from '../numeric/double-word.js';
import type { Deal } from './deal.js';
import type { PriceBook } from './known-prices.js';
import type { ChartSums } from './chart-sums.js';
import { DealTerms, SUM_BOUND, SUM_HIGH, SUM_LOW } from './deal-terms.js';

/**
 * The chart's unrealized PnL after each trade, `Σ over open deals of qty × known price −
 * usd_invested` (model 6), as the JSON numbers the response prints: the nearest doubles of that
 * sum as the model's arithmetic makes it (each product, difference and addition rounded to 40
 * digits, the open deals in deal order), and of `pnl_total`, the realized PnL plus that.
 *
 * Re-valuing open deals is most of the chart's work (after each trade, every deal whose token
 * traded since), and the printed answer is a double. So the sum is kept in double-word
 * arithmetic with a rigorous bound on its error ({@link DealTerms}), and each reading decides the
 * printed double from it: when the interval `sum ± bound` lies inside one double's rounding
 * cell, every exact value in it, the 40-digit rounding included, prints as that double. The bound
 * also covers the gap between the exact sum and the model's rounded one
 * (`DealTerms.literalGap`). Only when the interval touches a cell's edge (a near tie, or a sum
 * cancelled to almost nothing, as after a buy without slippage) is the sum computed as the model
 * makes it, and the double-word sum restarted from the exact sum ({@link ExactSum}). A
 * re-valuation thus costs a few dozen floating-point operations instead of two 40-digit
 * products, and the printed numbers are the model's.
 */
export class UnrealizedBook {
  /** The open deals' terms `qty × price − usd_invested`, as a bounded double-word sum. */
  private readonly terms: DealTerms;
  /** The last reading's printed `pnl_unrealized` and `pnl_total` (a typed array: no boxed doubles). */
  private readonly printed = new Float64Array(2);
  /** Where the double-word operations leave their results. */
  private readonly word = doubleWord();
  private readonly exact = new ExactSum();
  /** Readings that had to be computed exactly (for tests and diagnostics). */
  exactReadings = 0;

  /** `keepsProducts`: the terms also give `Σ qty × price`, for a copier's equity ({@link sharedTerms}). */
  constructor(
    private readonly prices: PriceBook,
    keepsProducts = false,
  ) {
    this.terms = new DealTerms(prices, true, keepsProducts);
  }

  /** The open deals' terms, for a `HeldValue` that reads their products instead of valuing the deals again. */
  get sharedTerms(): DealTerms {
    return this.terms;
  }

  /** The last reading's `pnl_unrealized`, as printed. */
  get unrealized(): number {
    return this.printed[0]!;
  }

  /** The last reading's `pnl_total`, as printed. */
  get total(): number {
    return this.printed[1]!;
  }

  /** The token has a new price: re-value its deal, if any, at the next reading. */
  priceMoved(tokenId: number): void {
    this.terms.priceMoved(tokenId);
  }

  /** The deal traded and stays open: its position and `usd_invested` moved. */
  traded(deal: Deal): void {
    this.terms.traded(deal);
  }

  /** The deal closed: its term leaves the sum. */
  close(deal: Deal): void {
    this.terms.close(deal);
  }

  /**
   * Re-values the deals that moved, then sets {@link unrealized} and {@link total} (the realized
   * PnL of `sums`' last reading plus the sum, each rounded to 40 digits, and their sum rounded to
   * 40 digits) to the doubles the response prints.
   */
  read(sums: ChartSums): void {
    const terms = this.terms;
    terms.revalue();
    const printed = this.printed;
    if (terms.open.length === 0) {
      printed[0] = 0;
      printed[1] = sums.realizedPnl;
      return;
    }
    const state = terms.state;
    const high = state[SUM_HIGH]!;
    const low = state[SUM_LOW]!;
    const bound = state[SUM_BOUND]! + terms.literalGap();
    const unrealized = decide40(high, low, bound);
    if (unrealized === unrealized) {
      // Both sums' errors and 40-digit roundings, and the addition's error; decide40 adds the
      // total's own rounding.
      const rHigh = sums.realizedHigh;
      const word = this.word;
      addWords(word, rHigh, sums.realizedLow, high, low);
      const roundings = (Math.abs(rHigh) + Math.abs(high)) * ROUNDING_40_ERROR;
      const totalBound = bound + sums.realizedBound + roundings + Math.abs(word[0]!) * ADDITION_ERROR;
      const total = decide40(word[0]!, word[1]!, totalBound);
      if (total === total) {
        printed[0] = unrealized;
        printed[1] = total;
        return;
      }
    }
    this.readExactly(sums);
  }

  /**
   * The sum as the model makes it: for the open deals in deal order, `qty × price − usd_invested`
   * added up, each operation rounded to 40 digits. The double-word sum restarts from the exact
   * sum.
   */
  private readExactly(sums: ChartSums): void {
    this.exactReadings++;
    const deals = this.terms.open.slice().sort((a, b) => a.deal.index - b.deal.index);
    const exact = this.exact;
    exact.clear();
    let value = ZERO;
    let magnitude = 0;
    for (const { deal, qty, invested } of deals) {
      const price = this.prices.priceOf(deal.tokenId);
      const product = qty.times(price);
      value = value.plus(product.minus(invested));
      exact.addProduct(qty, price);
      exact.add(invested, -1);
      magnitude += Math.abs(toJsonNumber(product)) + Math.abs(toJsonNumber(invested));
    }
    this.printed[0] = toJsonNumber(value);
    this.printed[1] = toJsonNumber(sums.realizedValue().plus(value));
    this.terms.restart(exact.value(), magnitude);
  }
}
