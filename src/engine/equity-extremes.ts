import { type Decimal, HUNDRED, toJsonNumber, ZERO } from '../numeric/decimal.js';

/**
 * An amount of the equity curve made only when first asked: an equity (the cash and what the
 * open deals were made of at that change of cash), or a fall or percent made of such equities.
 */
export class Deferred {
  private value: Decimal | null = null;

  constructor(private make: (() => Decimal) | null) {}

  get(): Decimal {
    if (this.value === null) {
      this.value = this.make!();
      this.make = null; // what it was made from may go
    }
    return this.value;
  }
}

/** An amount known exactly, or one made when first asked. */
export type Amount = Decimal | Deferred;

function exactOf(amount: Amount): Decimal {
  return amount instanceof Deferred ? amount.get() : amount;
}

// Where each amount's center and radius lie in `EquityExtremes.bounds`.
const PEAK = 0;
const DRAWDOWN = 2;
const PERCENT = 4;

/**
 * The slack of a comparison of two bounded amounts `a` and `b` (center, radius: the exact amount
 * within the radius of the center). Each floating-point operation on the centers and radii rounds
 * by at most 2^-53 of its result; the model's own 40-digit roundings move an amount by less than
 * 2^-128 of it. A few such operations lie between a decimal and a center (a subtraction, a
 * product, a quotient), so `(|a| + |b|) × 2^-50` covers them, and the factor `1 + 2^-48` the
 * roundings of the radii's arithmetic.
 */
function slack(aCenter: number, aRadius: number, bCenter: number, bRadius: number): number {
  return (aRadius + bRadius) * (1 + 2 ** -48) + (Math.abs(aCenter) + Math.abs(bCenter)) * 2 ** -50;
}

/** 1 when `a` is surely above `b`, -1 surely below, 0 when the bounds cannot tell (or a center is NaN). */
export function order(aCenter: number, aRadius: number, bCenter: number, bRadius: number): number {
  const gap = aCenter - bCenter;
  const near = slack(aCenter, aRadius, bCenter, bRadius);
  return gap > near ? 1 : gap < -near ? -1 : 0;
}

/** The radius of a fall `peak − equity` (rounded to 40 digits) from the two radii and its center. */
function radiusOfFall(peakRadius: number, equityRadius: number, fallCenter: number): number {
  return (peakRadius + equityRadius) * (1 + 2 ** -48) + Math.abs(fallCenter) * 2 ** -50;
}

/**
 * The copier's equity curve's peak and its largest fall from it, in USD and in percent
 * (copier-wallet.md 7), each kept as a double and a radius that bounds its distance to the
 * model's decimal, and the decimal itself or what makes it ({@link Deferred}). A change of cash
 * whose bounded equity is surely below the peak and no deeper than the largest fall updates
 * nothing ({@link surelyUnmoved}); one whose bounds decide that it is a new peak or a deeper fall
 * keeps the new extreme deferred ({@link reached}). A decimal is made only when two bounds
 * overlap, or when the response reads a drawdown: every decision is the exact comparison's.
 */
export class EquityExtremes {
  private peak: Amount;
  private drawdown: Amount = ZERO;
  private percent: Amount = ZERO;
  /**
   * Center and radius of the peak, the drawdown and the percent: `|exact − center| ≤ radius`
   * (in a typed array, as double fields of an object may be kept as boxed numbers).
   */
  private readonly bounds = new Float64Array(6);

  /** `start`: `E_0`; `withPercent`: a starting balance is set (the percent is kept). */
  constructor(
    start: Decimal,
    private readonly withPercent: boolean,
  ) {
    this.peak = start;
    this.setExact(PEAK, start);
  }

  /** `max_drawdown`. */
  get maxDrawdown(): Decimal {
    return exactOf(this.drawdown);
  }

  /** `max_drawdown_percent` (0 without a starting balance). */
  get maxDrawdownPercent(): Decimal {
    return exactOf(this.percent);
  }

  /**
   * True when every equity within `radius` of `center` is surely below the peak and falls from
   * it no further than the largest fall so far, in USD and in percent: nothing to update.
   */
  surelyUnmoved(center: number, radius: number): boolean {
    const b = this.bounds;
    const peak = b[PEAK]!;
    const peakRadius = b[PEAK + 1]!;
    if (order(center, radius, peak, peakRadius) >= 0) return false;
    const fall = peak - center;
    const fallRadius = radiusOfFall(peakRadius, radius, fall);
    if (order(fall, fallRadius, b[DRAWDOWN]!, b[DRAWDOWN + 1]!) >= 0) return false;
    if (!this.withPercent) return true;
    const positive = order(peak, peakRadius, 0, 0);
    if (positive < 0) return true; // no percent of a peak ≤ 0
    if (positive === 0) return false;
    return this.percentOrder(fall, fallRadius, peak, peakRadius) < 0;
  }

  /**
   * The equity after a change of cash, within `radius` of `center`, exactly `equity` (a decimal,
   * or made when asked): a new peak, a deeper fall, a larger percent, each decided from the
   * bounds when they tell and from the decimals when not.
   */
  reached(center: number, radius: number, equity: Amount): void {
    const b = this.bounds;
    const peak = this.peak;
    const peakCenter = b[PEAK]!;
    const peakRadius = b[PEAK + 1]!;
    // A new peak when !(equity < peak).
    let above = order(center, radius, peakCenter, peakRadius);
    if (above === 0) above = exactOf(equity).lt(exactOf(peak)) ? -1 : 1;
    if (above > 0) {
      this.peak = equity;
      b[PEAK] = center;
      b[PEAK + 1] = radius;
      return;
    }
    const fallCenter = peakCenter - center;
    const fallRadius = radiusOfFall(peakRadius, radius, fallCenter);
    const fall = new Deferred(() => exactOf(peak).minus(exactOf(equity)));
    let deeper = order(fallCenter, fallRadius, b[DRAWDOWN]!, b[DRAWDOWN + 1]!);
    if (deeper === 0) deeper = fall.get().gt(exactOf(this.drawdown)) ? 1 : -1;
    if (deeper > 0) {
      this.drawdown = fall;
      b[DRAWDOWN] = fallCenter;
      b[DRAWDOWN + 1] = fallRadius;
    }
    if (!this.withPercent) return;
    let positive = order(peakCenter, peakRadius, 0, 0);
    if (positive === 0) positive = exactOf(peak).gt(ZERO) ? 1 : -1;
    if (positive < 0) return;
    // A larger percent when 100 × fall > percent × peak, each rounded to 40 digits.
    let larger = this.percentOrder(fallCenter, fallRadius, peakCenter, peakRadius);
    if (larger === 0) larger = HUNDRED.times(fall.get()).gt(exactOf(this.percent).times(exactOf(peak))) ? 1 : -1;
    if (larger < 0) return;
    const percent = new Deferred(() => HUNDRED.times(fall.get()).div(exactOf(peak)));
    this.percent = percent;
    if (peakRadius < peakCenter / 2) {
      // 100 × fall / peak: with |fall − f| ≤ r and |peak − p| ≤ ρ < p / 2, its distance to
      // 100 f / p is at most 100 (r + |f| ρ / p) / (p − ρ); the quotient's own roundings, the
      // doubles' and the model's, lie below 2^-50 of it.
      const center = (100 * fallCenter) / peakCenter;
      b[PERCENT] = center;
      b[PERCENT + 1] =
        ((100 * (fallRadius + (Math.abs(fallCenter) * peakRadius) / peakCenter)) / (peakCenter - peakRadius)) *
          (1 + 2 ** -48) +
        Math.abs(center) * 2 ** -50;
    } else {
      this.setExact(PERCENT, percent.get());
    }
  }

  /**
   * How `100 × fall` compares with `percent × peak` (the percent's bounds, the others given), as
   * {@link order}: the products' radii bound `|x y − x' y'|` by `|x'| ρ_y + ρ_x |y'| + ρ_x ρ_y`.
   */
  private percentOrder(fallCenter: number, fallRadius: number, peakCenter: number, peakRadius: number): number {
    const b = this.bounds;
    const percent = b[PERCENT]!;
    const percentRadius = b[PERCENT + 1]!;
    const right = percent * peakCenter;
    const rightRadius =
      Math.abs(percent) * peakRadius + percentRadius * Math.abs(peakCenter) + percentRadius * peakRadius;
    return order(100 * fallCenter, 100 * fallRadius, right, rightRadius);
  }

  /** An exact amount's bounds: its nearest double, within 2^-52 of it. */
  private setExact(at: number, value: Decimal): void {
    const center = toJsonNumber(value);
    this.bounds[at] = center;
    this.bounds[at + 1] = Math.abs(center) * 2 ** -52;
  }
}
