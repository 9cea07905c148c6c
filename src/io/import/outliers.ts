import { DecimalJs40 as Decimal } from '../../numeric/decimal.js';
import type { DropLog, RowPlace } from './report.js';
import { exactDecimal, keepTapeReady, numberOf, type ImportedSwap, type SwapDecimal } from './tape-builder.js';

/** A row on its way into a tape: its token, its USD price, and where it came from. */
export interface PricedRow {
  readonly token: string;
  readonly usdPrice: SwapDecimal;
  readonly where: RowPlace;
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
  const outlier = outliersAmong(
    rows.length,
    (i) => rows[i]!.token,
    (i) => numberOf(rows[i]!.usdPrice),
    (i) => exactDecimal(rows[i]!.usdPrice),
    factor,
  );
  return rows.filter((row, i) => {
    if (outlier[i] === 1) log.drop(outlierReason(factor), row.where);
    return outlier[i] === 0;
  });
}

/** The reason an outlier is dropped under. */
export function outlierReason(factor: number): string {
  return `outlier price (more than ${factor}× from its token's median price)`;
}

/**
 * Which of `count` rows are priced more than `factor` (> 0) times above or below their token's
 * median price: 1 for such a row, else 0. A row is read through `tokenOf`, `numberOf` (its
 * price as a float64 that larger prices never make smaller) and `exactOf` (its exact price, read
 * only for the medians and for a row within a millionth of a bound).
 */
export function outliersAmong(
  count: number,
  tokenOf: (row: number) => string,
  numberOf: (row: number) => number,
  exactOf: (row: number) => Decimal,
  factor: number,
): Uint8Array {
  // Rows are handled by their number, in typed arrays: no map or object per row.
  const numbers = new Float64Array(count);
  const groupOf = new Int32Array(count);
  const groups = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    numbers[i] = numberOf(i);
    const token = tokenOf(i);
    let group = groups.get(token);
    if (group === undefined) groups.set(token, (group = groups.size));
    groupOf[i] = group;
  }
  // Each token's rows side by side (a counting sort by group, in row order).
  const starts = new Int32Array(groups.size + 1);
  for (let i = 0; i < count; i++) starts[groupOf[i]! + 1]!++;
  for (let g = 0; g < groups.size; g++) starts[g + 1]! += starts[g]!;
  const byGroup = new Int32Array(count);
  const next = starts.slice(0, groups.size);
  for (let i = 0; i < count; i++) byGroup[next[groupOf[i]!]!++] = i;
  // Sorting by the prices as doubles orders them as the decimals do (larger prices never give
  // smaller doubles, and tied doubles go to the exact prices); the median itself is exact.
  const byPrice = (a: number, b: number): number => numbers[a]! - numbers[b]! || exactOf(a).comparedTo(exactOf(b));
  const medians: Decimal[] = [];
  const medianNumbers = new Float64Array(groups.size);
  for (let g = 0; g < groups.size; g++) {
    const sorted = byGroup.subarray(starts[g]!, starts[g + 1]!).sort(byPrice);
    const n = sorted.length;
    const mid = n >> 1;
    medians.push(n % 2 === 1 ? exactOf(sorted[mid]!) : exactOf(sorted[mid - 1]!).plus(exactOf(sorted[mid]!)).div(2));
    medianNumbers[g] = medians[g]!.toNumber();
  }
  const f = new Decimal(factor);
  const outlier = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const group = groupOf[i]!;
    // Far from the bounds, doubles decide; within a millionth of them, the exact decimals.
    const quick = numbers[i]! / medianNumbers[group]!;
    if (quick < factor * 0.999999 && quick * factor > 1.000001) continue;
    const ratio = exactOf(i).div(medians[group]!);
    if (ratio.gt(f) || ratio.times(f).lt(1)) outlier[i] = 1;
  }
  return outlier;
}

/**
 * The swaps of an import that go into its tape: those a tape can hold ({@link keepTapeReady}),
 * then those not priced far from their token's median ({@link dropOutliers}). Every importer
 * ends here, so none writes a tape that copysim would refuse.
 */
export function keptSwaps<T extends ImportedSwap>(swaps: readonly T[], outlierFactor: number | undefined, log: DropLog): T[] {
  return dropOutliers(keepTapeReady(swaps, log), outlierFactor ?? 100, log);
}
