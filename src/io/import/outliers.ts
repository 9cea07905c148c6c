import { DecimalJs40 as Decimal } from '../../numeric/decimal.js';
import type { DropLog } from './report.js';
import { exactDecimal, type SwapDecimal } from './tape-builder.js';

/** A row on its way into a tape: its token, its USD price, and where it came from. */
export interface PricedRow {
  readonly token: string;
  readonly usdPrice: SwapDecimal;
  readonly where: string;
}

function median(sorted: readonly SwapDecimal[]): Decimal {
  const n = sorted.length;
  const mid = n >> 1;
  return n % 2 === 1 ? exactDecimal(sorted[mid]!) : exactDecimal(sorted[mid - 1]!).plus(exactDecimal(sorted[mid]!)).div(2);
}

/**
 * Drops rows whose price is more than `factor` times above or below the median price of their
 * token (bad fills, dust trades, mis-parsed amounts), logging each under one reason. A factor
 * of 0 keeps every row.
 *
 * @example
 * const kept = dropOutliers(rows, 100, log);
 */
export function dropOutliers<T extends PricedRow>(rows: readonly T[], factor: number, log: DropLog): T[] {
  if (factor <= 0) return [...rows];
  // Each price as a double, once: decimal.js makes it through its text.
  const numbers = new Map<T, number>(rows.map((r) => [r, r.usdPrice.toNumber()]));
  const byToken = new Map<string, T[]>();
  for (const row of rows) {
    let list = byToken.get(row.token);
    if (list === undefined) byToken.set(row.token, (list = []));
    list.push(row);
  }
  // Sorting by the prices as doubles orders them as the decimals do (a double's rounding keeps
  // order, ties aside, and tied prices give the same median); the median itself is exact.
  const medians = new Map<string, Decimal>();
  for (const [token, list] of byToken) {
    const keyed = list.map((r) => ({ n: numbers.get(r)!, d: r.usdPrice }));
    keyed.sort((a, b) => a.n - b.n || exactDecimal(a.d).comparedTo(exactDecimal(b.d)));
    medians.set(token, median(keyed.map((k) => k.d)));
  }
  const f = new Decimal(factor);
  const medianNumbers = new Map([...medians].map(([token, m]) => [token, m.toNumber()]));
  return rows.filter((row) => {
    const m = medians.get(row.token)!;
    // Far from the bounds, doubles decide; within a millionth of them, the exact decimals.
    const quick = numbers.get(row)! / medianNumbers.get(row.token)!;
    if (quick < factor * 0.999999 && quick * factor > 1.000001) return true;
    const ratio = exactDecimal(row.usdPrice).div(m);
    if (ratio.gt(f) || ratio.times(f).lt(1)) {
      log.drop(`outlier price (more than ${factor}× from its token's median price)`, row.where);
      return false;
    }
    return true;
  });
}
