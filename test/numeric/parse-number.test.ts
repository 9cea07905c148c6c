/**
 * A JSON number read as a Decimal40 (src/numeric/decimal40-parse.ts): decimal.js reads it as
 * its shortest text, `String(value)`. Numbers that a decimal of at most 15 significant digits
 * reads as take a path that finds that decimal without making the text; the value must be the
 * one the text gives, for every double.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal40 } from '../../src/numeric/decimal40.js';

/** The parts of a Decimal40, for an exact comparison. */
function parts(d: Decimal40): number[] {
  return [d.s, d.e, d.c0, d.c1, d.c2, d.c3, d.c4, d.c5];
}

function readsAsItsText(value: number): void {
  expect(parts(new Decimal40(value)), `${value}`).toEqual(parts(new Decimal40(String(value))));
}

describe('a JSON number read as a decimal', () => {
  it.each([
    0.1,
    0.3,
    274916.45,
    1506.53,
    11.5,
    1e-7,
    1.0000000000000002e-7,
    9.999999999999999e-8,
    3.68888774409e-6,
    123456789012345.6,
    999999999999999.9,
    1e15 - 1,
    0.1 + 0.2,
    1 / 3,
    2 / 3,
    5e-324,
    1.7976931348623157e308,
    -274916.45,
    -1e-7,
    4.35,
    1.005,
    8.675309e-5,
    0.000123456789012345,
  ])('%s reads as String(%s)', (value) => readsAsItsText(value));

  it('hand-checked: 274916.45 is 27491645 × 10^-2, the text a tape printed', () => {
    expect(new Decimal40(274916.45).toString()).toBe('274916.45');
    expect(new Decimal40(0.1 + 0.2).toString()).toBe('0.30000000000000004');
  });

  it('every double reads as its shortest text (fast-check)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => readsAsItsText(value)),
      { numRuns: 20_000 },
    );
  });

  it('every decimal of at most 15 digits, as a number, reads as its text (fast-check)', () => {
    const decimal = fc
      .tuple(fc.integer({ min: 1, max: 15 }), fc.integer({ min: -30, max: 20 }), fc.boolean())
      .chain(([digits, exponent, negative]) =>
        fc
          .bigInt({ min: 10n ** BigInt(digits - 1), max: 10n ** BigInt(digits) - 1n })
          .map((m) => Number(`${negative ? '-' : ''}${m}e${exponent}`)),
      );
    fc.assert(
      fc.property(decimal, (value) => readsAsItsText(value)),
      { numRuns: 20_000 },
    );
  });
});
