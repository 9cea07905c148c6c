/**
 * The printed doubles of results nothing else reads (src/numeric/printed-double.ts) and the
 * double-word path of `toJsonNumber`: each must be exactly the double that `Number` reads from
 * the 40-digit decimal's text, the decimal made as the model makes it (`a.div(b)`,
 * `q.times(a.div(b))`). On random 40-digit operands, and on operands built so that the result
 * falls on or within 10^-40 of a midpoint between two doubles, where a double-word answer could
 * go wrong and must fall back to the decimal.
 */
import { Decimal as DecimalJs } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toJsonNumber } from '../../src/numeric/decimal.js';
import { Decimal40 } from '../../src/numeric/decimal40.js';
import { printedProduct, printedProductOfQuotient, printedQuotient } from '../../src/numeric/printed-double.js';
import { awayFromZero, exactText } from '../support/exact-double.js';
import { digitsArb, PROPERTY_RUNS, PROPERTY_SEED } from './decimal40-cases.js';

const PARAMS = { numRuns: PROPERTY_RUNS * 10, seed: PROPERTY_SEED };
const Wide = DecimalJs.clone({ precision: 200 });

/** What `Number` reads from the decimal's text: the exact nearest double. */
function exact(d: Decimal40): number {
  const n = Number(d.toString());
  return n === 0 ? 0 : n;
}

/** A positive Decimal40 of 1 to 40 digits, `digits × 10^exponent`. */
function positiveArb(min: number, max: number): fc.Arbitrary<Decimal40> {
  return fc.tuple(digitsArb, fc.integer({ min, max })).map(([digits, e]) => new Decimal40(`${digits}e${e}`));
}

/** The midpoint between a double and the next one up, exactly. */
function midpointAbove(x: number): InstanceType<typeof Wide> {
  return new Wide(exactText(x)).plus(exactText(awayFromZero(x))).div(2);
}

/**
 * Operands `(a, b)` whose 40-digit quotient lies on or right beside a midpoint: `b` random, `a`
 * the midpoint times `b` to 40 digits, nudged in its last digit.
 */
const nearTieArb = fc
  .tuple(fc.double({ min: 1e-12, max: 1e12, noNaN: true }), positiveArb(-20, 10), fc.integer({ min: -2, max: 2 }))
  .map(([x, b, nudge]) => {
    const target = midpointAbove(x).times(b.toString()).toSignificantDigits(40);
    const a = new Decimal40(
      target
        .plus(target.times(`${nudge}e-39`))
        .toSignificantDigits(40)
        .toString(),
    );
    return [a, b] as const;
  });

describe('toJsonNumber: hand-computed', () => {
  it('0.1, 1/3 to 40 digits, a tiny price, a large quantity, zero, a negative value', () => {
    expect(toJsonNumber(new Decimal40('0.1'))).toBe(0.1);
    expect(toJsonNumber(new Decimal40(1).div(3))).toBe(1 / 3);
    expect(toJsonNumber(new Decimal40('1.234567890123456789e-15'))).toBe(1.234567890123456789e-15);
    expect(toJsonNumber(new Decimal40('98765432109876543210.5'))).toBe(98765432109876543210.5);
    expect(toJsonNumber(new Decimal40(0))).toBe(0);
    expect(toJsonNumber(new Decimal40('-2.5e-30'))).toBe(-2.5e-30);
  });

  it('a decimal exactly on the midpoint between 1 and the next double goes to the even one, 1', () => {
    const tie = new Decimal40(midpointAbove(1).toString()); // 1 + 2^-53: 1.00000000000000011102230246251565404236316680908203125
    expect(tie.toString().length).toBeGreaterThan(40); // rounded to 40 digits: just below the midpoint
    expect(toJsonNumber(tie)).toBe(1);
  });
});

describe('toJsonNumber: properties', () => {
  it('equals Number(text) on random 40-digit values, tiny and huge included', () => {
    fc.assert(
      fc.property(fc.boolean(), positiveArb(-120, 80), (negative, d) => {
        const value = negative ? d.neg() : d;
        expect(toJsonNumber(value)).toBe(exact(value));
      }),
      PARAMS,
    );
  });

  it('equals Number(text) on decimals beside a midpoint between doubles', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-30, max: 1e30, noNaN: true }), fc.integer({ min: -3, max: 3 }), (x, nudge) => {
        const mid = midpointAbove(x);
        const d = new Decimal40(
          mid
            .plus(mid.times(`${nudge}e-40`))
            .toSignificantDigits(40)
            .toString(),
        );
        expect(toJsonNumber(d)).toBe(exact(d));
      }),
      PARAMS,
    );
  });
});

describe('printedQuotient, printedProduct, printedProductOfQuotient: hand-computed', () => {
  it('1 / 3, 100 × 2 / 3, 0.1 × 3, 3 × (1 / 3)', () => {
    const one = new Decimal40(1);
    const two = new Decimal40(2);
    const three = new Decimal40(3);
    expect(printedQuotient(one, three, 1)).toBe(0.3333333333333333);
    expect(printedQuotient(two, three, 100)).toBe(66.66666666666667);
    expect(printedProduct(new Decimal40('0.1'), three)).toBe(0.3);
    // 3 × 0.3333…3 (40 threes) = 0.9999…9 (40 nines), which prints as 1.
    expect(printedProductOfQuotient(three, one, three)).toBe(1);
  });

  it('a sell: usd_amount 15.38 for 1250.5 tokens prints the price 0.012299080367852859', () => {
    const price = printedQuotient(new Decimal40('15.38'), new Decimal40('1250.5'), 1);
    expect(price).toBe(exact(new Decimal40('15.38').div('1250.5')));
    expect(price).toBe(0.012299080367852859);
  });
});

describe('printedQuotient, printedProduct, printedProductOfQuotient: properties', () => {
  it('a quotient, scaled by 1 or 100, is the double of the 40-digit quotient', () => {
    fc.assert(
      fc.property(positiveArb(-30, 20), positiveArb(-30, 20), fc.constantFrom(1, 100), (a, b, scale) => {
        const q = a.div(b);
        expect(printedQuotient(a, b, scale)).toBe(exact(scale === 1 ? q : q.times(scale)));
      }),
      PARAMS,
    );
  });

  it('a quotient on or beside a midpoint between doubles is still the exact one', () => {
    fc.assert(
      fc.property(nearTieArb, ([a, b]) => {
        expect(printedQuotient(a, b, 1)).toBe(exact(a.div(b)));
      }),
      PARAMS,
    );
  });

  it('a product is the double of the 40-digit product, beside midpoints too', () => {
    fc.assert(
      fc.property(positiveArb(-30, 20), positiveArb(-30, 20), (a, b) => {
        expect(printedProduct(a, b)).toBe(exact(a.times(b)));
      }),
      PARAMS,
    );
    fc.assert(
      fc.property(nearTieArb, ([a, b]) => {
        // a / b lies beside a midpoint, so (a / b) × b does too.
        const q = a.div(b);
        expect(printedProduct(q, b)).toBe(exact(q.times(b)));
      }),
      PARAMS,
    );
  });

  it('usd_invested, q × round40(a / b), is the double of the model’s two roundings', () => {
    fc.assert(
      fc.property(positiveArb(-20, 20), positiveArb(-20, 20), positiveArb(-20, 20), (q, a, b) => {
        expect(printedProductOfQuotient(q, a, b)).toBe(exact(q.times(a.div(b))));
      }),
      PARAMS,
    );
    fc.assert(
      fc.property(nearTieArb, positiveArb(-5, 5), ([a, b], q) => {
        // The position q × (a / b) beside a midpoint: a scaled by 1 / q first.
        const scaled = a.div(q);
        expect(printedProductOfQuotient(q, scaled, b)).toBe(exact(q.times(scaled.div(b))));
      }),
      PARAMS,
    );
  });
});
