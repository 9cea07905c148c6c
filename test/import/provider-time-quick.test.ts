import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProviderTime, ProviderTimeReader } from '../../src/io/import/provider-time.js';

/** The general rule alone (a regular expression and Date.parse), the reference of the quick path. */
function generalRule(t: string): number | null {
  const m = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d(?::\d\d(?:\.\d+)?)?)\s*(Z|UTC|[+-]\d\d:?\d\d)?$/i.exec(t);
  if (m === null) return null;
  const zone =
    m[3] === undefined || /^(z|utc)$/i.test(m[3])
      ? 'Z'
      : m[3].length === 5
        ? `${m[3].slice(0, 3)}:${m[3].slice(3)}`
        : m[3];
  const ms = Date.parse(`${m[1]}T${m[2]}${zone}`);
  return Number.isFinite(ms) && ms >= 0 ? Math.floor(ms / 1000) : null;
}

describe("Dune's times read without a regular expression", () => {
  it('gives the seconds of hand-checked times', () => {
    expect(parseProviderTime('2024-03-01 00:02:22.000 UTC')).toBe(1_709_251_342);
    expect(parseProviderTime('2024-02-29T23:59:59Z')).toBe(1_709_251_199);
    expect(parseProviderTime('1970-01-01 00:00:00')).toBe(0);
    expect(parseProviderTime('1969-12-31 23:59:59.999 UTC')).toBeNull();
  });

  it('reads each time right with the day its reader keeps, readers apart', () => {
    const a = new ProviderTimeReader();
    const b = new ProviderTimeReader();
    expect(a.read('2024-03-10 10:00:00 UTC')).toBe(1_710_064_800);
    expect(b.read('2024-03-11 00:00:00 UTC')).toBe(1_710_115_200);
    expect(a.read('2024-03-10 10:00:01.000 UTC')).toBe(1_710_064_801);
    expect(b.read('2024-03-11T00:00:01Z')).toBe(1_710_115_201);
    expect(a.read('2024-03-11 00:00:00')).toBe(1_710_115_200);
    expect(a.read('2024-03-10 23:59:59')).toBe(1_710_115_199);
  });

  it('agrees with the general rule on generated times, valid or not', () => {
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    const time = fc
      .tuple(
        fc.integer({ min: 1960, max: 2200 }),
        two(13),
        two(32),
        fc.constantFrom(' ', 'T'),
        two(25),
        two(61),
        two(61),
        fc.constantFrom('', '.000', '.5', '.123456', '.999'),
        fc.constantFrom('', ' UTC', 'Z', 'UTC', ' utc', 'z', '+00:00', ' UTX'),
      )
      .map(([y, mo, d, sep, h, mi, s, frac, zone]) => `${y}-${mo}-${d}${sep}${h}:${mi}:${s}${frac}${zone}`);
    // One reader for every time, as an import reads its file: the day it keeps is the last one's.
    const reader = new ProviderTimeReader();
    fc.assert(
      fc.property(time, (t) => {
        expect(parseProviderTime(t)).toBe(generalRule(t));
        expect(reader.read(t)).toBe(generalRule(t));
        return true;
      }),
      { numRuns: 5000 },
    );
  });
});
