import { Decimal, HUNDRED, ZERO } from '../model/decimal.js';

/**
 * `100 × max(pnl_total) / Σ positive pnl_total` (model 5); 0 when no deal has a positive total.
 *
 * @example
 * topDealDominance([new Decimal(30), new Decimal(10), new Decimal(-5)]).toNumber(); // 75
 */
export function topDealDominance(pnlTotals: readonly Decimal[]): Decimal {
  let positive = ZERO;
  let best: Decimal | null = null;
  for (const pnl of pnlTotals) {
    if (pnl.gt(0)) positive = positive.plus(pnl);
    if (best === null || pnl.gt(best)) best = pnl;
  }
  if (best === null || positive.isZero()) return ZERO;
  return HUNDRED.times(best).div(positive);
}

/**
 * R² of the least-squares line through `(k, y_k)`, where `y_k` is the cumulative sum of the
 * first k values (model 5: the closed deals' `pnl_total` in closing order). 0 when there are
 * fewer than 2 values or every `y_k` is the same.
 *
 * `1 − SS_res / SS_tot` is computed in its equal closed form `S_xy² / (S_xx × SS_tot)` (for a
 * least-squares line `SS_res = SS_tot − S_xy² / S_xx`): one pass over the points after the
 * mean instead of two, and no fitted values. `S_xx = Σ (k − x̄)² = n (n² − 1) / 12` exactly.
 * `SS_tot` keeps the centred form `Σ (y_k − ȳ)²`, so it is exactly 0 when every `y_k` is the same.
 *
 * @example
 * linearityR2([new Decimal(10), new Decimal(10), new Decimal(10)]).toNumber(); // 1 (a straight line)
 */
export function linearityR2(pnlTotals: readonly Decimal[]): Decimal {
  const n = pnlTotals.length;
  if (n < 2) return ZERO;
  const ys: Decimal[] = new Array<Decimal>(n);
  let cumulative = ZERO;
  let sumY = ZERO;
  for (let k = 0; k < n; k++) {
    cumulative = cumulative.plus(pnlTotals[k]!);
    ys[k] = cumulative;
    sumY = sumY.plus(cumulative);
  }
  const meanY = sumY.div(n);
  // x_k − x̄ for x_k = k + 1 and x̄ = (n + 1) / 2: a whole or half number, one more each step.
  let dx = new Decimal(1 - (n + 1) / 2);
  let sxy = ZERO;
  let ssTot = ZERO;
  for (let k = 0; k < n; k++) {
    const dy = ys[k]!.minus(meanY);
    if (!dy.isZero()) {
      sxy = sxy.plus(dx.times(dy));
      ssTot = ssTot.plus(dy.times(dy));
    }
    dx = dx.plus(ONE);
  }
  if (ssTot.isZero()) return ZERO;
  const sxx = new Decimal(n - 1).times(n).times(n + 1).div(TWELVE);
  return sxy.times(sxy).div(sxx.times(ssTot));
}

const ONE = new Decimal(1);
const TWELVE = new Decimal(12);
