/**
 * The fast decimal-to-double conversion (src/numeric/nearest-double.ts) against `Number` reading
 * the decimal's text, which is exact: on random 40-digit values, and on the near ties where a
 * fast answer could go wrong (midpoints between adjacent doubles, written to 40 digits, with and
 * without a nudge, and the neighbours of powers of two). It may decline (NaN) but never answer
 * wrongly; and it must answer most values, or it would be a test of the fallback alone.
 */
import { Decimal as DecimalJs } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal40 } from '../../src/numeric/decimal40.js';
import { nearestDouble } from '../../src/numeric/nearest-double.js';
import { awayFromZero, exactText } from '../support/exact-double.js';
import { PROPERTY_RUNS, PROPERTY_SEED } from './decimal40-cases.js';

const Wide = DecimalJs.clone({ precision: 200 });
const PARAMS = { numRuns: PROPERTY_RUNS * 50, seed: PROPERTY_SEED };

/** The fast answer for `text` (NaN when it declines), and the exact one. */
function both(text: string): { readonly fast: number; readonly exact: number; readonly value: number } {
  const d = new Decimal40(text);
  return {
    fast: d.s * nearestDouble(d.e, d.c0, d.c1, d.c2, d.c3, d.c4, d.c5),
    exact: Number(d.toString()),
    value: d.toNumber(),
  };
}

function assertNeverWrong(text: string): boolean {
  const { fast, exact, value } = both(text);
  if (!Number.isNaN(fast)) expect(fast, text).toBe(exact);
  expect(value, text).toBe(exact);
  return !Number.isNaN(fast);
}

const digitsArb = fc
  .tuple(fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 39, maxLength: 39 }))
  .map(([d, ds]) => `${d}${ds.join('')}`);
/** 40-digit decimals whose scale spans the fast range (|k| ≤ 22) and some way beyond it. */
const valueArb = fc
  .tuple(fc.boolean(), digitsArb, fc.integer({ min: -75, max: 5 }))
  .map(([negative, digits, e]) => `${negative ? '-' : ''}${digits}e${e}`);

/** The midpoint between a double and the next one up (exactly, from the bits), to 40 digits, nudged by `nudge` × x. */
const doubleArb = fc.double({ min: 1e-8, max: 1e36, noNaN: true, noDefaultInfinity: true });
function midpoint(x: number, nudge: string): string {
  const mid = new Wide(exactText(x)).plus(exactText(awayFromZero(x))).div(2);
  return mid.plus(mid.times(nudge)).toSignificantDigits(40).toString();
}

describe('nearestDouble', () => {
  it('gives exactly Number(text) on random 40-digit values, and answers most of those in range', () => {
    let answered = 0;
    let inRange = 0;
    fc.assert(
      fc.property(valueArb, (text) => {
        const d = new Decimal40(text);
        if (Math.abs(d.e + 25) <= 22) {
          inRange++;
          if (assertNeverWrong(text)) answered++;
        } else {
          expect(Number.isNaN(both(text).fast), `${text}: 40 digits beyond 10^±22, so it declines`).toBe(true);
        }
      }),
      PARAMS,
    );
    expect(inRange).toBeGreaterThan(PARAMS.numRuns / 4);
    expect(answered / inRange).toBeGreaterThan(0.99);
  });

  it('never answers wrongly at near ties: midpoints between adjacent doubles, nudged by ±10^-60', () => {
    let declined = 0;
    fc.assert(
      fc.property(doubleArb, fc.constantFrom('0', '1e-60', '-1e-60'), (x, nudge) => {
        if (!assertNeverWrong(midpoint(x, nudge))) declined++;
      }),
      PARAMS,
    );
    // Most exact midpoints need more than 40 digits: rounded to 40 they sit a hair off the tie,
    // too close to call, so the fast path must have declined some.
    expect(declined).toBeGreaterThan(0);
  });

  it('powers of two and values just around them', () => {
    for (let n = -26; n <= 119; n++) {
      const x = new Wide(2).pow(n);
      for (const nudge of ['0', '1e-17', '-1e-17', '1e-30', '-1e-30'])
        assertNeverWrong(x.plus(x.times(nudge)).toSignificantDigits(40).toString());
    }
  });

  it('short coefficients (1 to 12 digits), tiny to large: the exact double, answered whenever the value is in range', () => {
    const shortArb = fc
      .tuple(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 999_999_999_999 }),
        fc.integer({ min: -60, max: 30 }),
      )
      .map(([digits, n, e]) => `${n % 10 ** digits || 1}e${e}`);
    fc.assert(
      fc.property(shortArb, (text) => {
        const answered = assertNeverWrong(text);
        const d = new Decimal40(text);
        // Its last significant digit has the exponent of a short coefficient read without
        // trailing zeros; with that in [-22, 22] and at most 12 digits, one exact operation answers.
        const lastDigit = new DecimalJs(text).e - new DecimalJs(text).sd() + 1;
        if (lastDigit >= -22 && lastDigit <= 22 - 12) expect(answered, `${text} (${d.toString()})`).toBe(true);
      }),
      PARAMS,
    );
    // Hand-picked: round amounts; a tiny price whose exponent comes into range only once its
    // trailing zeros are stripped (123 × 10^-22); one that stays out of range and is declined.
    const fast = (text: string): number => {
      const d = new Decimal40(text);
      return nearestDouble(d.e, d.c0, d.c1, d.c2, d.c3, d.c4, d.c5);
    };
    expect(fast('100')).toBe(100);
    expect(fast('0.5')).toBe(0.5);
    expect(fast('1.5e-11')).toBe(1.5e-11);
    expect(fast('1.23e-20')).toBe(1.23e-20);
    expect(fast('1.5e-29')).toBeNaN();
  });

  it('examples: a value of 40 digits, its negative, and one beyond the fast range', () => {
    expect(new Decimal40('1234567890.123456789012345678901234567891').toNumber()).toBe(1234567890.1234568);
    expect(new Decimal40('-0.1000000000000000055511151231257827021182').toNumber()).toBe(-0.1);
    expect(new Decimal40('1.234567890123456789012345678901234567891e-30').toNumber()).toBe(1.2345678901234568e-30);
  });
});
