import { DecimalJs40 as Decimal } from '../../numeric/decimal.js';
import type { DropLog } from './report.js';

/** A row on its way into a tape: its token, its USD price, and where it came from. */
export interface PricedRow {
  readonly token: string;
  readonly usdPrice: Decimal;
  readonly where: string;
}

function median(sorted: readonly Decimal[]): Decimal {
  const n = sorted.length;
  const mid = n >> 1;
  return n % 2 === 1 ? sorted[mid]! : sorted[mid - 1]!.plus(sorted[mid]!).div(2);
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
  const byToken = new Map<string, Decimal[]>();
  for (const row of rows) {
    let prices = byToken.get(row.token);
    if (prices === undefined) byToken.set(row.token, (prices = []));
    prices.push(row.usdPrice);
  }
  const medians = new Map<string, Decimal>();
  for (const [token, prices] of byToken) medians.set(token, median([...prices].sort((a, b) => a.comparedTo(b))));
  const f = new Decimal(factor);
  return rows.filter((row) => {
    const m = medians.get(row.token)!;
    const ratio = row.usdPrice.div(m);
    if (ratio.gt(f) || ratio.times(f).lt(1)) {
      log.drop(`outlier price (more than ${factor}× from its token's median price)`, row.where);
      return false;
    }
    return true;
  });
}
