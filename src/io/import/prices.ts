import { z } from 'zod';
import { DecimalJs40 as Decimal } from '../../numeric/decimal.js';
import { InputError } from '../../model/errors.js';

/** A USD price series of a native coin: `[time, price]` points sorted by time. */
export type PriceSeries = readonly (readonly [number, Decimal])[];

const GeckoTerminalSchema = z.object({ hourly_close: z.array(z.tuple([z.number().int(), z.number().positive()])) });

/**
 * Parses a native coin's USD price series from any of three forms:
 * - JSON with `hourly_close: [[unix, close], …]` (GeckoTerminal OHLCV, as in sol_usd_hourly.json);
 * - CSV with a `Date` (YYYY-MM-DD) and a `Close` column (Yahoo Finance daily; the close is
 *   placed at that day's 00:00 UTC);
 * - two columns `unix<TAB or comma>price`, no header (as in sol_usd_hourly_memetrans.tsv).
 * Rows without a positive price (e.g. "null") are skipped. Throws an {@link InputError} naming
 * `name` and the line when the form is not recognised.
 *
 * @example
 * parsePriceSeries('Date,Open,High,Low,Close\n2024-03-10,1,1,1,3900.5\n', 'eth-usd.csv'); // [[1710028800, 3900.5]]
 */
export function parsePriceSeries(text: string, name: string): PriceSeries {
  const trimmed = text.trimStart();
  const points: [number, Decimal][] = [];
  if (trimmed.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch (e) {
      throw new InputError(`${name}: not valid JSON: ${(e as Error).message}`, { source: name });
    }
    const parsed = GeckoTerminalSchema.safeParse(json);
    if (!parsed.success)
      throw new InputError(`${name}: expected {"hourly_close": [[unix, price], …]}`, { source: name });
    for (const [t, p] of parsed.data.hourly_close) points.push([t, new Decimal(p)]);
  } else {
    const lines = trimmed.split(/\r?\n/).filter((l) => l.trim() !== '');
    const header = lines[0]?.split(',') ?? [];
    const dateCol = header.indexOf('Date');
    const closeCol = header.indexOf('Close');
    if (dateCol >= 0 && closeCol >= 0) {
      lines.slice(1).forEach((line) => {
        const cells = line.split(',');
        const day = Date.parse(`${cells[dateCol]}T00:00:00Z`);
        const close = Number(cells[closeCol]);
        if (Number.isFinite(day) && Number.isFinite(close) && close > 0)
          points.push([day / 1000, new Decimal(cells[closeCol]!)]);
      });
    } else {
      lines.forEach((line, i) => {
        const [t, p] = line.split(/[\t,]/);
        const time = Number(t);
        const price = Number(p);
        if (!Number.isInteger(time)) {
          throw new InputError(
            `${name}: line ${i + 1}: expected "unix time, price" or a CSV with Date and Close columns`,
            { source: name, line: i + 1 },
          );
        }
        if (Number.isFinite(price) && price > 0) points.push([time, new Decimal(p!.trim())]);
      });
    }
  }
  if (points.length === 0) throw new InputError(`${name}: no price points`, { source: name });
  return points.sort((a, b) => a[0] - b[0]);
}

/**
 * The price of the last point at or before `t`, or null before the first point or when that
 * point is more than `maxAge` seconds old.
 *
 * @example
 * priceAt([[100, new Decimal(2)], [200, new Decimal(3)]], 150)?.toNumber(); // 2
 */
export function priceAt(series: PriceSeries, t: number, maxAge = Infinity): Decimal | null {
  let lo = 0;
  let hi = series.length - 1;
  if (hi < 0 || series[0]![0] > t) return null;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (series[mid]![0] <= t) lo = mid;
    else hi = mid - 1;
  }
  const [at, price] = series[lo]!;
  return t - at <= maxAge ? price : null;
}

/**
 * The points of `series` that matter for times in `[from, to]`: the last one at or before `from`, and those up to `to`.
 */
export function seriesWindow(series: PriceSeries, from: number, to: number): PriceSeries {
  const first = series.findIndex((p) => p[0] > from);
  const start = first < 0 ? series.length - 1 : Math.max(0, first - 1);
  return series.slice(start).filter((p, i) => i === 0 || p[0] <= to);
}
