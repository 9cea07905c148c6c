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
  return new ProviderTimeReader().read(value);
}

/**
 * Reads provider times as {@link parseProviderTime} does, keeping the day of the last one: exports
 * list trades in time order, so most rows share it. An importer makes one for its file.
 */
export class ProviderTimeReader {
  /** The day of the last time read in its common form, and that day's start in milliseconds. */
  private lastDay = '';
  private lastDayMs = NaN;

  read(value: unknown): number | null {
    if (typeof value === 'number') {
      return Number.isFinite(value) && value >= 0 ? Math.floor(value >= 1e11 ? value / 1000 : value) : null;
    }
    if (typeof value !== 'string') return null;
    const t = value.trim();
    const quick = this.plainUtcTime(t);
    if (quick !== undefined) return quick;
    if (/^\d+(\.\d+)?$/.test(t)) return this.read(Number(t));
    const m = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d(?::\d\d(?:\.\d+)?)?)\s*(Z|UTC|[+-]\d\d:?\d\d)?$/i.exec(t);
    if (m === null) {
      // A bare date is midnight UTC.
      if (!/^\d{4}-\d\d-\d\d$/.test(t)) return null;
      const ms = Date.parse(`${t}T00:00:00Z`);
      return Number.isFinite(ms) ? ms / 1000 : null;
    }
    const ms = Date.parse(`${m[1]}T${m[2]}${isoZone(m[3])}`);
    return Number.isFinite(ms) && ms >= 0 ? Math.floor(ms / 1000) : null;
  }

  /**
   * The common forms without a regular expression: `YYYY-MM-DD HH:MM:SS`, a `T` for the space,
   * an optional `.fff`, and ` UTC`, `Z` or nothing after. The day is checked and placed by
   * `Date.parse` (once per day); undefined for any other text, which the general rule reads.
   */
  private plainUtcTime(t: string): number | null | undefined {
    const n = t.length;
    if (n < 19 || t.charCodeAt(4) !== 45 || t.charCodeAt(7) !== 45) return undefined; // '-'
    if (t.charCodeAt(13) !== 58 || t.charCodeAt(16) !== 58) return undefined; // ':'
    const separator = t.charCodeAt(10);
    if (separator !== 32 && separator !== 84) return undefined; // ' ' or 'T'
    let end = 19;
    if (n >= 23 && t.charCodeAt(19) === 46 && !Number.isNaN(digitAt(t, 20) + digitAt(t, 21) + digitAt(t, 22))) end = 23;
    if (!plainZone(t, end)) return undefined;
    const hours = digitAt(t, 11) * 10 + digitAt(t, 12);
    const minutes = digitAt(t, 14) * 10 + digitAt(t, 15);
    const seconds = digitAt(t, 17) * 10 + digitAt(t, 18);
    if (!(hours <= 23 && minutes <= 59 && seconds <= 59)) return undefined;
    if (!t.startsWith(this.lastDay) || this.lastDay === '') {
      const day = t.slice(0, 10);
      if (!/^\d{4}-\d\d-\d\d$/.test(day)) return undefined;
      this.lastDay = day;
      this.lastDayMs = Date.parse(`${day}T00:00:00Z`);
    }
    if (!Number.isFinite(this.lastDayMs)) return undefined;
    const ms = this.lastDayMs + ((hours * 60 + minutes) * 60 + seconds) * 1000;
    return ms >= 0 ? ms / 1000 : null;
  }
}

/** A zone as `Date.parse` reads it: `Z` for none, `Z` or `UTC`; `+0100` as `+01:00`. */
function isoZone(written: string | undefined): string {
  if (written === undefined || /^(z|utc)$/i.test(written)) return 'Z';
  return written.length === 5 ? `${written.slice(0, 3)}:${written.slice(3)}` : written;
}

function digitAt(t: string, i: number): number {
  const d = t.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : NaN;
}

/** True when `t` ends at `end` or goes on with ` UTC` or `Z` only (read in place: no string a row). */
function plainZone(t: string, end: number): boolean {
  const rest = t.length - end;
  if (rest === 0) return true;
  if (rest === 1) return t.charCodeAt(end) === 90; // Z
  return (
    rest === 4 &&
    t.charCodeAt(end) === 32 &&
    t.charCodeAt(end + 1) === 85 &&
    t.charCodeAt(end + 2) === 84 &&
    t.charCodeAt(end + 3) === 67
  ); // ' UTC'
}
