/**
 * The PnL chart's running sums (src/engine/running-sum.ts): `RunningSum` (terms and exact
 * products of terms) and `CombinedSum` (a signed sum of running sums: the chart's fee sum and
 * realized PnL). Every reading must print the nearest double to the exact sum of all terms,
 * rounded once, half to even, to 40 digits, whichever path (double word or exact) it took.
 *
 * Runs and seed: COPYSIM_PROPERTY_RUNS and COPYSIM_PROPERTY_SEED (test/model/decimal40-cases.ts).
 */
import { Decimal as DecimalJs } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CombinedSum, RunningSum } from '../../src/engine/running-sum.js';
import { Decimal40 } from '../../src/model/decimal40.js';
import { nearValueArb, PROPERTY_RUNS, PROPERTY_SEED, stringArb } from '../model/decimal40-cases.js';

/** Exact for every sum here (terms within 10^±75, products of two of them). */
const Wide = DecimalJs.clone({ precision: 1000, rounding: DecimalJs.ROUND_HALF_EVEN, toExpNeg: -9e15, toExpPos: 9e15 });
type WideValue = InstanceType<typeof Wide>;

const PARAMS = { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS, includeErrorInReport: true };

const d = (text: string): Decimal40 => new Decimal40(text);

/** The double the response prints for an exact value: its 40-digit rounding, then the nearest double. */
function printed(exact: WideValue): number {
  const n = Number(exact.toSignificantDigits(40, Wide.ROUND_HALF_EVEN).toString());
  return n === 0 ? 0 : n;
}

/** The chart's three running sums and the two combined ones, as the replay keeps them. */
function chartSums(): { gains: RunningSum; networkFees: RunningSum; botFees: RunningSum; feeSum: CombinedSum; realized: CombinedSum } {
  const gains = new RunningSum();
  const networkFees = new RunningSum();
  const botFees = new RunningSum();
  return {
    gains,
    networkFees,
    botFees,
    feeSum: new CombinedSum(networkFees, 1, botFees, 1),
    realized: new CombinedSum(gains, 1, networkFees, -1, botFees, -1),
  };
}

describe('RunningSum and CombinedSum: hand-computed', () => {
  it('a buy and a sell: fees 1.125, realized PnL 9.125', () => {
    const { gains, networkFees, botFees, feeSum, realized } = chartSums();
    const rate = d('0.01');
    // A buy of 40 USD: network fee 0.3, bot fee 40 × 0.01 = 0.4.
    networkFees.add(d('0.3'));
    botFees.addProduct(d('40'), rate);
    expect(feeSum.read()).toBe(0.7);
    expect(realized.read()).toBe(-0.7);
    // A sell for 12.5 USD of tokens that cost 2.25: network fee 0.3, bot fee 0.125.
    gains.add(d('12.5'));
    gains.add(d('2.25'), -1);
    networkFees.add(d('0.3'));
    botFees.addProduct(d('12.5'), rate);
    expect(botFees.read()).toBe(0.525);
    expect(feeSum.read()).toBe(1.125);
    expect(realized.read()).toBe(9.125);
    expect(realized.value().toString()).toBe('9.125');
    expect(feeSum.exactReadings + realized.exactReadings).toBe(0);
  });

  it('a bot fee of more than 40 digits enters the sums exactly, rounded once at the reading', () => {
    const botFees = new RunningSum();
    const usd = '1234567890123456789012345678901234567891'; // 40 digits
    // × 0.0075: 43 significant digits, 9259259175925925917592592591759259259182.5 exactly.
    botFees.addProduct(d(usd), d('0.0075'));
    botFees.addProduct(d(usd), d('0.0075'), -1);
    botFees.addProduct(d(usd), d('0.0075'));
    expect(botFees.value().toString()).toBe(new Wide(usd).times('0.0075').toSignificantDigits(40, Wide.ROUND_HALF_EVEN).toString());
    expect(botFees.read()).toBe(printed(new Wide(usd).times('0.0075')));
  });

  it('a realized PnL cancelled to 10^-30 is read exactly', () => {
    const { gains, networkFees, realized } = chartSums();
    gains.add(d('1'));
    networkFees.add(d('0.999999999999999999999999999999'));
    // The double words' bounds (about 2^-98 of 1) are wider than the result: the exact sums decide.
    expect(realized.read()).toBe(1e-30);
    expect(realized.exactReadings).toBe(1);
    expect(realized.value().eq(d('1e-30'))).toBe(true);
  });

  it('nothing added reads 0, without an exact reading', () => {
    const { feeSum, realized } = chartSums();
    expect(feeSum.read()).toBe(0);
    expect(realized.read()).toBe(0);
    expect(feeSum.exactReadings + realized.exactReadings).toBe(0);
  });
});

type Step = { kind: 'gain'; value: string; sign: 1 | -1 } | { kind: 'fee'; value: string } | { kind: 'bot'; usd: string; rate: string };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('gain' as const), value: fc.oneof(stringArb(), nearValueArb.map(String)), sign: fc.constantFrom<1 | -1>(1, -1) }),
  fc.record({ kind: fc.constant('fee' as const), value: nearValueArb.map(String) }),
  fc.record({ kind: fc.constant('bot' as const), usd: nearValueArb.map(String), rate: fc.constantFrom('0.01', '0.0075', '0.0125', '0.001', '0.025') }),
);

describe('RunningSum and CombinedSum: properties against exact sums', () => {
  it('after every step, each sum prints the nearest double to its exact value rounded to 40 digits', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 40 }), (steps) => {
        const { gains, networkFees, botFees, feeSum, realized } = chartSums();
        let gainsExact = new Wide(0);
        let feesExact = new Wide(0);
        let botExact = new Wide(0);
        for (const step of steps) {
          if (step.kind === 'gain') {
            gains.add(d(step.value), step.sign);
            gainsExact = gainsExact.plus(new Wide(step.value).times(step.sign));
          } else if (step.kind === 'fee') {
            networkFees.add(d(step.value));
            feesExact = feesExact.plus(step.value);
          } else {
            botFees.addProduct(d(step.usd), d(step.rate));
            botExact = botExact.plus(new Wide(step.usd).times(step.rate));
          }
          expect(botFees.read()).toBe(printed(botExact));
          expect(feeSum.read()).toBe(printed(feesExact.plus(botExact)));
          expect(realized.read()).toBe(printed(gainsExact.minus(feesExact).minus(botExact)));
        }
        expect(realized.value().toString()).toBe(
          new Decimal40(gainsExact.minus(feesExact).minus(botExact).toSignificantDigits(40, Wide.ROUND_HALF_EVEN).toString()).toString(),
        );
      }),
      PARAMS,
    );
  });
});
