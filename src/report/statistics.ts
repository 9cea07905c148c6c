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
 * @example
 * linearityR2([new Decimal(10), new Decimal(10), new Decimal(10)]).toNumber(); // 1 (a straight line)
 */
export function linearityR2(pnlTotals: readonly Decimal[]): Decimal {
  const n = pnlTotals.length;
  if (n < 2) return ZERO;
  const ys: Decimal[] = [];
  let cumulative = ZERO;
  for (const pnl of pnlTotals) ys.push((cumulative = cumulative.plus(pnl)));
  const count = new Decimal(n);
  const meanX = new Decimal(n + 1).div(2);
  let sumY = ZERO;
  for (const y of ys) sumY = sumY.plus(y);
  const meanY = sumY.div(count);
  let sxx = ZERO;
  let sxy = ZERO;
  let ssTot = ZERO;
  ys.forEach((y, k) => {
    const dx = new Decimal(k + 1).minus(meanX);
    const dy = y.minus(meanY);
    sxx = sxx.plus(dx.times(dx));
    sxy = sxy.plus(dx.times(dy));
    ssTot = ssTot.plus(dy.times(dy));
  });
  if (ssTot.isZero()) return ZERO;
  const slope = sxy.div(sxx);
  const intercept = meanY.minus(slope.times(meanX));
  let ssRes = ZERO;
  ys.forEach((y, k) => {
    const residual = y.minus(intercept.plus(slope.times(k + 1)));
    ssRes = ssRes.plus(residual.times(residual));
  });
  return new Decimal(1).minus(ssRes.div(ssTot));
}
