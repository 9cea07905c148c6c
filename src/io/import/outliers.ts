import { DecimalJs40 as Decimal } from '../../numeric/decimal.js';
import type { DropLog, RowPlace } from './report.js';
import { exactDecimal, keepTapeReady, numberOf, type ImportedSwap, type SwapDecimal } from './tape-builder.js';

/** A row on its way into a tape: its token, its USD price, and where it came from. */
export interface PricedRow {
  readonly token: string;
  readonly usdPrice: SwapDecimal;
  readonly where: RowPlace;
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
  // Rows are handled by their place in `rows`, in typed arrays: no map or object per row.
  const count = rows.length;
  const numbers = new Float64Array(count);
  const groupOf = new Int32Array(count);
  const groups = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const row = rows[i]!;
    numbers[i] = numberOf(row.usdPrice);
    let group = groups.get(row.token);
    if (group === undefined) groups.set(row.token, (group = groups.size));
    groupOf[i] = group;
  }
  // Each token's rows side by side (a counting sort by group, in row order).
  const starts = new Int32Array(groups.size + 1);
  for (let i = 0; i < count; i++) starts[groupOf[i]! + 1]!++;
  for (let g = 0; g < groups.size; g++) starts[g + 1]! += starts[g]!;
  const byGroup = new Int32Array(count);
  const next = starts.slice(0, groups.size);
  for (let i = 0; i < count; i++) byGroup[next[groupOf[i]!]!++] = i;
  // Sorting by the prices as doubles orders them as the decimals do (a double's rounding keeps
  // order, ties aside, and tied prices give the same median); the median itself is exact.
  const byPrice = (a: number, b: number): number => numbers[a]! - numbers[b]! || exactDecimal(rows[a]!.usdPrice).comparedTo(exactDecimal(rows[b]!.usdPrice));
  const medians: Decimal[] = [];
  const medianNumbers = new Float64Array(groups.size);
  for (let g = 0; g < groups.size; g++) {
    const sorted = byGroup.subarray(starts[g]!, starts[g + 1]!).sort(byPrice);
    medians.push(median(Array.from(sorted, (i) => rows[i]!.usdPrice)));
    medianNumbers[g] = medians[g]!.toNumber();
  }
  const f = new Decimal(factor);
  return rows.filter((row, i) => {
    const group = groupOf[i]!;
    // Far from the bounds, doubles decide; within a millionth of them, the exact decimals.
    const quick = numbers[i]! / medianNumbers[group]!;
    if (quick < factor * 0.999999 && quick * factor > 1.000001) return true;
    const ratio = exactDecimal(row.usdPrice).div(medians[group]!);
    if (ratio.gt(f) || ratio.times(f).lt(1)) {
      log.drop(`outlier price (more than ${factor}× from its token's median price)`, row.where);
      return false;
    }
    return true;
  });
}

/**
 * The swaps of an import that go into its tape: those a tape can hold ({@link keepTapeReady}),
 * then those not priced far from their token's median ({@link dropOutliers}). Every importer
 * ends here, so none writes a tape that copysim would refuse.
 */
export function keptSwaps<T extends ImportedSwap>(swaps: readonly T[], outlierFactor: number | undefined, log: DropLog): T[] {
  return dropOutliers(keepTapeReady(swaps, log), outlierFactor ?? 100, log);
}
