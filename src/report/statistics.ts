import { Decimal, ExactSum, HUNDRED, ZERO } from '../numeric/decimal.js';

/**
 * `100 × max(pnl_total) / Σ positive pnl_total` (model 5); 0 when no deal has a positive total.
 *
 * @example
 * topDealDominance([new Decimal(30), new Decimal(10), new Decimal(-5)]).toNumber(); // 75
 */
export function topDealDominance(pnlTotals: readonly Decimal[]): Decimal {
  const fold = new DominanceFold();
  for (const pnl of pnlTotals) fold.add(pnl);
  return fold.value();
}

/** {@link topDealDominance} over values given one at a time, in any order. */
export class DominanceFold {
  private readonly positive = new ExactSum();
  private best: Decimal | null = null;

  add(pnl: Decimal): void {
    if (pnl.isPositive()) this.positive.add(pnl);
    if (this.best === null || pnl.gt(this.best)) this.best = pnl;
  }

  value(): Decimal {
    const sum = this.positive.value();
    if (this.best === null || sum.isZero()) return ZERO;
    return HUNDRED.times(this.best).div(sum);
  }
}

/**
 * R² of the least-squares line through `(k, y_k)`, where `y_k` is the cumulative sum of the
 * first k values (model 5: the closed deals' `pnl_total` in closing order). 0 when there are
 * fewer than 2 values or every `y_k` is the same.
 *
 * `1 − SS_res / SS_tot` is computed in its equal closed form `S_xy² / (S_xx × SS_tot)` (for a
 * least-squares line `SS_res = SS_tot − S_xy² / S_xx`), in one pass, from sums of the points
 * shifted by the first one, `z_k = y_k − y_1` (shifting the y's changes neither S_xy nor SS_tot):
 * - `SS_tot = Σ z_k² − (Σ z_k)² / n`. The shift keeps this subtraction harmless: `z_1 = 0`, so
 *   `Σ z_k² ≤ (n + 1) × SS_tot`. Every `y_k` the same is exactly `Σ z_k² = 0`.
 * - `S_xy = Σ (k − x̄) z_k = (n − 1)/2 × P_n − Σ_{k<n} P_k`, with the prefix sums `P_k = Σ_{j≤k} z_j`
 *   (`Σ k z_k = n P_n − Σ_{k<n} P_k`): additions instead of a product per point.
 * - `S_xx = Σ (k − x̄)² = n (n² − 1) / 12` exactly.
 * The sums of the `z_k`, of the prefix sums and of the squares are exact, each rounded once when
 * read (docs/model.md (j)).
 *
 * @example
 * linearityR2([new Decimal(10), new Decimal(10), new Decimal(10)]).toNumber(); // 1 (a straight line)
 */
export function linearityR2(pnlTotals: readonly Decimal[]): Decimal {
  const fold = new LinearityFold();
  for (const pnl of pnlTotals) fold.add(pnl);
  return fold.value();
}

/** {@link linearityR2} over values given one at a time, in their order. */
export class LinearityFold {
  private n = 0;
  private first: Decimal = ZERO;
  private y: Decimal = ZERO; // y_k
  private readonly prefix = new ExactSum(); // P_k
  private readonly prefixes = new ExactSum(); // Σ P_j for j < k
  private readonly squares = new ExactSum(); // Σ z_j²

  add(value: Decimal): void {
    if (this.n++ === 0) {
      this.first = this.y = value;
      return;
    }
    this.y = this.y.plus(value);
    const z = this.y.minus(this.first);
    this.prefixes.addSum(this.prefix);
    this.prefix.add(z);
    this.squares.addProduct(z, z);
  }

  value(): Decimal {
    const n = this.n;
    if (n < 2) return ZERO;
    const sumOfSquares = this.squares.value();
    if (sumOfSquares.isZero()) return ZERO;
    const sumOfPrefixes = this.prefixes.value();
    const lastPrefix = this.prefix.value();
    const ssTot = sumOfSquares.minus(lastPrefix.times(lastPrefix).div(n));
    const sxy = lastPrefix
      .times(n - 1)
      .div(TWO)
      .minus(sumOfPrefixes);
    const sxx = new Decimal(n - 1)
      .times(n)
      .times(n + 1)
      .div(TWELVE);
    return sxy.times(sxy).div(sxx.times(ssTot));
  }
}

const TWO = new Decimal(2);
const TWELVE = new Decimal(12);
