/**
 * `Decimal40.toApproxNumber` (src/numeric/decimal40.ts), the double the exit rules' quick tests
 * read: within 2^-49 of the decimal, relatively, for magnitudes from 10^-250 to 10^250, against
 * decimal.js at 2,000 digits (which holds a double and a 40-digit decimal exactly). The bound
 * counts `10 ** e` within a unit in the last place: checked here for every exponent it covers.
 *
 * Runs and seed: COPYSIM_PROPERTY_RUNS and COPYSIM_PROPERTY_SEED (test/numeric/decimal40-cases.ts).
 */
import { Decimal as DecimalJs } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal40, ZERO40 } from '../../src/numeric/decimal40.js';
import { awayFromZero, exactText } from '../support/exact-double.js';
import { digitsArb, PROPERTY_RUNS, PROPERTY_SEED } from './decimal40-cases.js';

const Wide = DecimalJs.clone({ precision: 2000, rounding: DecimalJs.ROUND_HALF_EVEN, toExpNeg: -9e15, toExpPos: 9e15 });
type WideValue = InstanceType<typeof Wide>;

/** 2^-49 exactly. */
const BOUND = new Wide(2).pow(-49);

function exactOf(x: number): WideValue {
  return new Wide(exactText(x));
}

/** |approx − exact| / |exact|, exact for nonzero `exact`. */
function relativeError(approx: number, exact: WideValue): WideValue {
  return exactOf(approx).minus(exact).abs().div(exact.abs());
}

describe('Decimal40.toApproxNumber', () => {
  it('10 ** e is within a unit in the last place of 10^e for every exponent of the covered range', () => {
    // A value C × 10^e with C of 40 digits lies in [10^-250, 10^250] for e in [-289, 210].
    for (let e = -289; e <= 210; e++) {
      const power = 10 ** e;
      const exact = new Wide(10).pow(e);
      const unit = exactOf(awayFromZero(power)).minus(exactOf(power));
      if (exactOf(power).minus(exact).abs().gt(unit)) {
        throw new Error(`10 ** ${e} = ${power} is more than a unit from 10^${e}`);
      }
    }
  });

  it('within 2^-49 of the decimal, relatively (1 to 40 digits, magnitudes 10^-250 to 10^250)', () => {
    const decimalArb = fc
      .tuple(fc.constantFrom('', '-'), digitsArb, fc.integer({ min: -250, max: 210 }))
      .map(([sign, digits, exponent]) => new Decimal40(`${sign}${digits}e${exponent}`))
      .filter((d) => !d.isZero() && d.abs().gte('1e-250') && d.abs().lte('1e250'));
    fc.assert(
      fc.property(decimalArb, (d) => {
        const approx = d.toApproxNumber();
        const exact = new Wide(d.toString());
        const error = relativeError(approx, exact);
        if (error.gt(BOUND)) throw new Error(`${d.toString()}: ${approx} is ${error.toExponential(3)} off, relatively`);
      }),
      { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS * 10, includeErrorInReport: true },
    );
  });

  it('hand-computed: near the nearest double (not always on it), the sign kept, zero is 0', () => {
    // -123.456 is -1234560…0 × 10^-37 (40 digits): 10^-37 is no double, and the product rounds again.
    const approx = new Decimal40('-123.456').toApproxNumber();
    expect(approx).toBe(-123.45600000000003);
    expect(Math.abs(approx + 123.456) / 123.456).toBeLessThanOrEqual(2 ** -49);
    expect(new Decimal40('0.6').toApproxNumber()).toBe(0.6);
    expect(ZERO40.toApproxNumber()).toBe(0);
    const third = new Decimal40(1).div(new Decimal40(3)).toApproxNumber();
    expect(Math.abs(third - 1 / 3) / (1 / 3)).toBeLessThanOrEqual(2 ** -49);
  });
});
