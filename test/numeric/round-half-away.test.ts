/** The deal charts' rounding to whole USD from a decimal's limbs, against the exact rounding of the decimal. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, roundHalfAwayFromZero, toJsonNumber } from '../../src/numeric/decimal.js';

/** The rounding made exactly: the decimal rounded to an integer, then its double. */
const exact = (text: string): number => toJsonNumber(new Decimal(text).roundHalfUp());

describe('roundHalfAwayFromZero', () => {
  it('rounds ties away from zero and the rest to the nearest, by hand', () => {
    const cases: [string, number][] = [
      ['2.5', 3],
      ['-2.5', -3],
      ['2.4999999999999999999999999999999999999', 2],
      ['0.5', 1],
      ['-0.5', -1],
      ['0.49999', 0],
      ['0.05', 0],
      ['-0.4', 0],
      ['0', 0],
      ['123456789012.5', 123456789013],
      ['999999999999999.4', 999999999999999],
      ['999999999999999.5', 1e15],
      ['-99999999999999.50000000000000000000001', -1e14],
      ['1234567890123456789.5', 1234567890123456800], // beyond 10^15: the exact path
    ];
    for (const [text, rounded] of cases) {
      expect(roundHalfAwayFromZero(new Decimal(text)), text).toBe(rounded);
      expect(exact(text), text).toBe(rounded);
    }
    expect(Object.is(roundHalfAwayFromZero(new Decimal('-0.2')), 0)).toBe(true); // never -0
  });

  it('equals the exact rounding for every number of whole digits, ties and near-ties included', () => {
    const digits = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 40 });
    const text = fc
      .record({
        whole: fc.integer({ min: 0, max: 18 }),
        digits,
        tie: fc.constantFrom('', '5', '49', '50000001', '4999999'),
        negative: fc.boolean(),
      })
      .map(({ whole, digits, tie, negative }) => {
        const all = `${digits.join('')}${tie}`.padEnd(whole + 1, '0');
        const body = whole === 0 ? `0.${all}` : `${all.slice(0, whole)}.${all.slice(whole) || '0'}`;
        return `${negative ? '-' : ''}${body}`;
      });
    fc.assert(
      fc.property(text, (t) => {
        expect(roundHalfAwayFromZero(new Decimal(t))).toBe(exact(t));
      }),
      { numRuns: 3000 },
    );
  });
});
