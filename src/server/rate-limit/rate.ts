import { InputError } from '../../model/errors.js';

/** How many requests a key may send in each window; null in a window: no limit there. */
export interface RateLimit {
  readonly perSecond: number | null;
  readonly perMinute: number | null;
}

/** No limit in either window. */
export const UNLIMITED: RateLimit = { perSecond: null, perMinute: null };

const WINDOWS = {
  s: 'perSecond',
  sec: 'perSecond',
  second: 'perSecond',
  m: 'perMinute',
  min: 'perMinute',
  minute: 'perMinute',
} as const;

const RATE_FORMS = '"N/s", "N/min", both as "N/s,M/min", or "unlimited"';

/**
 * Reads a rate as the command line and the key database write it: `10/s`, `600/min`,
 * `10/s,600/min`, or `unlimited`. Each count is a whole number from 1.
 *
 * @example
 * parseRate('10/s,600/min'); // { perSecond: 10, perMinute: 600 }
 */
export function parseRate(text: string, source = 'rate'): RateLimit {
  const trimmed = text.trim();
  if (trimmed === 'unlimited') return UNLIMITED;
  const rate: { perSecond: number | null; perMinute: number | null } = { perSecond: null, perMinute: null };
  for (const part of trimmed.split(',')) {
    const match = /^\s*(\d+)\s*\/\s*([a-z]+)\s*$/.exec(part);
    const window = match === null ? undefined : WINDOWS[match[2] as keyof typeof WINDOWS];
    const count = match === null ? NaN : Number(match[1]);
    if (window === undefined || !Number.isSafeInteger(count) || count < 1 || rate[window] !== null) {
      throw new InputError(`${source} "${text}" is not a rate: give ${RATE_FORMS}, each count at least 1`, {
        source,
        path: 'rate',
      });
    }
    rate[window] = count;
  }
  return rate;
}

/**
 * The canonical text of a rate (what {@link parseRate} reads back).
 *
 * @example
 * formatRate({ perSecond: 10, perMinute: null }); // "10/s"
 */
export function formatRate(rate: RateLimit): string {
  const parts = [
    ...(rate.perSecond !== null ? [`${rate.perSecond}/s`] : []),
    ...(rate.perMinute !== null ? [`${rate.perMinute}/min`] : []),
  ];
  return parts.length === 0 ? 'unlimited' : parts.join(',');
}

/** True when neither window has a limit. */
export function isUnlimited(rate: RateLimit): boolean {
  return rate.perSecond === null && rate.perMinute === null;
}
