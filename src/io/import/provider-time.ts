/**
 * Times as the providers write them, to whole seconds since the epoch (UTC):
 * - Unix seconds or milliseconds, as a number or digits (milliseconds from 10¹¹ up, the year 5138
 *   in seconds): Helius `timestamp`, Birdeye `blockUnixTime`;
 * - ISO 8601 with or without a zone (`2024-03-10T10:00:00Z`, `2022-04-20T00:00:53+00:00`; UTC
 *   when none is named): Flipside `block_timestamp`, Dune's legacy CSV;
 * - Dune's own `2024-03-10 10:00:00.000 UTC` (a space, optional fraction, a ` UTC` suffix).
 * Fractions of a second are dropped. Anything else is null.
 *
 * @example
 * parseProviderTime('2024-03-10 10:00:00.000 UTC'); // 1710064800
 * parseProviderTime(1710064800000);                 // 1710064800
 */
export function parseProviderTime(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.floor(value >= 1e11 ? value / 1000 : value) : null;
  if (typeof value !== 'string') return null;
  const t = value.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return parseProviderTime(Number(t));
  const m = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d(?::\d\d(?:\.\d+)?)?)\s*(Z|UTC|[+-]\d\d:?\d\d)?$/i.exec(t);
  if (m === null) {
    // A bare date is midnight UTC.
    if (!/^\d{4}-\d\d-\d\d$/.test(t)) return null;
    const ms = Date.parse(`${t}T00:00:00Z`);
    return Number.isFinite(ms) ? ms / 1000 : null;
  }
  const zone = m[3] === undefined || /^(z|utc)$/i.test(m[3]) ? 'Z' : m[3].length === 5 ? `${m[3].slice(0, 3)}:${m[3].slice(3)}` : m[3];
  const ms = Date.parse(`${m[1]}T${m[2]}${zone}`);
  return Number.isFinite(ms) && ms >= 0 ? Math.floor(ms / 1000) : null;
}
