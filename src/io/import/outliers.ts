import { DecimalJs40 as Decimal } from '../../numeric/decimal.js';
import type { DropLog, RowPlace } from './report.js';
import { exactDecimal, numberOf, whyNotTapeReady, type ImportedSwap } from './tape-builder.js';

/** An import's swaps read by number (0 to `count` - 1, in file order), for {@link keptRows}. */
export interface ImportRows {
  readonly count: number;
  /** Why a swap cannot go into a tape (the value at fault), or null when it can. */
  misfit(row: number): string | null;
  token(row: number): string;
  /** Its price as a float64 that larger prices never make smaller. */
  priceNumber(row: number): number;
  /** Its exact price, read only for the medians and a price within a millionth of a bound. */
  exactPrice(row: number): Decimal;
  where(row: number): RowPlace;
}

/**
 * The swaps that go into a tape, by number in file order: those a tape can hold (the others
 * dropped into `log` with the value at fault: an amount of 1e308 or a time in the year 50000
 * would make the whole tape unusable), then those not priced more than `factor` times above or
 * below their token's median price (bad fills, dust trades, mis-parsed amounts; 0 keeps all).
 * Every importer ends here, so none writes a tape that copysim would refuse.
 */
export function keptRows(rows: ImportRows, factor: number, log: DropLog): number[] {
  const ready: number[] = [];
  for (let i = 0; i < rows.count; i++) {
    const bad = rows.misfit(i);
    if (bad === null) ready.push(i);
    else log.drop(bad, rows.where(i));
  }
  if (factor <= 0) return ready;
  const outlier = outliersAmong(
    ready.length,
    (k) => rows.token(ready[k]!),
    (k) => rows.priceNumber(ready[k]!),
    (k) => rows.exactPrice(ready[k]!),
    factor,
  );
  const kept: number[] = [];
  for (let k = 0; k < ready.length; k++) {
    if (outlier[k] === 1)
      log.drop(`outlier price (more than ${factor}× from its token's median price)`, rows.where(ready[k]!));
    else kept.push(ready[k]!);
  }
  return kept;
}

/**
 * {@link keptRows} of swaps held as objects (the importers other than the trade collector).
 *
 * @example
 * const kept = keptSwaps(swaps, options.outlierFactor, log);
 */
export function keptSwaps<T extends ImportedSwap>(
  swaps: readonly T[],
  outlierFactor: number | undefined,
  log: DropLog,
): T[] {
  const rows: ImportRows = {
    count: swaps.length,
    misfit: (i) => {
      const s = swaps[i]!;
      return whyNotTapeReady(s.quantity, s.usdPrice, s.usdAmount, s.usdLiquidity, s.time);
    },
    token: (i) => swaps[i]!.token,
    priceNumber: (i) => numberOf(swaps[i]!.usdPrice),
    exactPrice: (i) => exactDecimal(swaps[i]!.usdPrice),
    where: (i) => swaps[i]!.where,
  };
  return keptRows(rows, outlierFactor ?? 100, log).map((i) => swaps[i]!);
}

/**
 * Which of `count` rows are priced more than `factor` (> 0) times above or below their token's
 * median price: 1 for such a row, else 0. A row is read through `tokenOf`, `numberOf` (its
 * price as a float64 that larger prices never make smaller) and `exactOf` (its exact price, read
 * only for the medians and for a row within a millionth of a bound).
 */
function outliersAmong(
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
    medians.push(
      n % 2 === 1
        ? exactOf(sorted[mid]!)
        : exactOf(sorted[mid - 1]!)
            .plus(exactOf(sorted[mid]!))
            .div(2),
    );
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
