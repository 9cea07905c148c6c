import { z } from 'zod';

/** The period keys of the indicator map (interface 2.4): each is "the deals started within it". */
export const PERIOD_KEYS = ['12h', '24h', '7d', '1m', '1y', 'all'] as const;
export const PeriodKeySchema = z.enum(PERIOD_KEYS);
/** A period key of the indicator map. */
export type PeriodKey = z.infer<typeof PeriodKeySchema>;

/** The periods a chart may be asked for: every period key but `all`. */
export const CHART_PERIODS = ['12h', '24h', '7d', '1m', '1y'] as const;
export const ChartPeriodSchema = z.enum(CHART_PERIODS);
/** A chart period (interface 4.3, 4.4). */
export type ChartPeriod = z.infer<typeof ChartPeriodSchema>;

const HOUR = 3600;
const DAY = 24 * HOUR;

/** Length of each bounded period, seconds (`1m` is 30 days, `1y` 365 days). */
export const PERIOD_SECONDS: Readonly<Record<ChartPeriod, number>> = Object.freeze({
  '12h': 12 * HOUR,
  '24h': 24 * HOUR,
  '7d': 7 * DAY,
  '1m': 30 * DAY,
  '1y': 365 * DAY,
});

/** Distance between two chart points of each period, seconds. */
export const CHART_STEP_SECONDS: Readonly<Record<ChartPeriod, number>> = Object.freeze({
  '12h': 30 * 60,
  '24h': HOUR,
  '7d': 6 * HOUR,
  '1m': DAY,
  '1y': 7 * DAY,
});

/** At most this many points in a chart over a custom range. */
export const CUSTOM_RANGE_MAX_POINTS = 100;

/**
 * Earliest `open_time` a deal may have to count in period `key` at `now` (null: no bound).
 *
 * @example
 * periodStart('24h', 1_700_086_400); // 1_700_000_000
 */
export function periodStart(key: PeriodKey, now: number): number | null {
  return key === 'all' ? null : now - PERIOD_SECONDS[key];
}

/**
 * The timestamps of a period chart: every `step` seconds back from `now`, oldest first, no
 * earlier than the period's start (a 1y chart starts one day after it: 365 = 52 × 7 + 1).
 *
 * @example
 * periodChartTimes('12h', 43_200); // [0, 1800, 3600, …, 43200] (25 points)
 */
export function periodChartTimes(period: ChartPeriod, now: number): number[] {
  const step = CHART_STEP_SECONDS[period];
  const count = Math.floor(PERIOD_SECONDS[period] / step);
  const times: number[] = [];
  for (let k = count; k >= 0; k--) times.push(now - k * step);
  return times;
}

/**
 * The timestamps of a chart over the custom range `[start, end]`: whole minutes (multiples of
 * 60 s), a whole number of minutes apart, as few minutes apart as keeps them at most 100.
 *
 * @example
 * customChartTimes(30, 200); // [60, 120, 180]
 */
export function customChartTimes(start: number, end: number): number[] {
  const minutes = Math.max(1, Math.ceil((end - start) / ((CUSTOM_RANGE_MAX_POINTS - 1) * 60)));
  const step = minutes * 60;
  const times: number[] = [];
  for (let t = Math.ceil(start / 60) * 60; t <= end; t += step) times.push(t);
  return times;
}
