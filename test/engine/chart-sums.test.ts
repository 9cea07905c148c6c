/**
 * The PnL chart's running sums (src/engine/chart-sums.ts): after every trade, the realized PnL,
 * the fee sum and the bot fee sum must each print the nearest double to the exact sum of the
 * trades' terms, rounded once, half to even, to 40 digits, whichever path (double word or exact)
 * the reading took.
 *
 * Runs and seed: COPYSIM_PROPERTY_RUNS and COPYSIM_PROPERTY_SEED (test/numeric/decimal40-cases.ts).
 */
import { Decimal as DecimalJs } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChartSums } from '../../src/engine/chart-sums.js';
import { Decimal40 } from '../../src/numeric/decimal40.js';
import { nearValueArb, PROPERTY_RUNS, PROPERTY_SEED, stringArb } from '../numeric/decimal40-cases.js';

/** Exact for every sum here (terms within 10^±75, products of two of them). */
const Wide = DecimalJs.clone({ precision: 1000, rounding: DecimalJs.ROUND_HALF_EVEN, toExpNeg: -9e15, toExpPos: 9e15 });
type WideValue = InstanceType<typeof Wide>;

const PARAMS = { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS, includeErrorInReport: true };

const d = (text: string): Decimal40 => new Decimal40(text);
const ZERO = d('0');

/** The double the response prints for an exact value: its 40-digit rounding, then the nearest double. */
function printed(exact: WideValue): number {
  const n = Number(exact.toSignificantDigits(40, Wide.ROUND_HALF_EVEN).toString());
  return n === 0 ? 0 : n;
}

function read(sums: ChartSums): [number, number, number] {
  sums.read();
  return [sums.realizedPnl, sums.feeSum, sums.botFeeSum];
}

describe('ChartSums: hand-computed', () => {
  it('a buy and a sell: fees 1.125, realized PnL 9.125', () => {
    const sums = new ChartSums(d('0.01'));
    const fee = d('0.3');
    // A buy of 40 USD: network fee 0.3, bot fee 40 × 0.01 = 0.4.
    sums.addTrade(d('40'), null, fee);
    expect(read(sums)).toEqual([-0.7, 0.7, 0.4]);
    // A sell for 12.5 USD of tokens that cost 2.25: the same network fee 0.3, bot fee 0.125.
    sums.addTrade(d('12.5'), d('2.25'), fee);
    expect(read(sums)).toEqual([9.125, 1.125, 0.525]);
    expect(sums.realizedValue().toString()).toBe('9.125');
    expect(sums.exactReadings).toBe(0);
  });

  it('without bot fees: the fee sum is the network fees', () => {
    const sums = new ChartSums(null);
    sums.addTrade(d('100'), null, d('0.5'));
    sums.addTrade(d('80'), d('50'), d('0.25'));
    // Realized: 80 − 50 − 0.5 − 0.25.
    expect(read(sums)).toEqual([29.25, 0.75, 0]);
  });

  it('bot fees of more than 40 digits enter the sums exactly, rounded once at the reading', () => {
    const sums = new ChartSums(d('0.0075'));
    const usd = '1234567890123456789012345678901234567891'; // 40 digits
    // Two buys: 2 × usd × 0.0075 = 18518518351851851835185185183518518518365 exactly (41 digits).
    sums.addTrade(d(usd), null, ZERO);
    sums.addTrade(d(usd), null, ZERO);
    const bot = new Wide(usd).times('0.0075').times(2);
    expect(read(sums)).toEqual([printed(bot.neg()), printed(bot), printed(bot)]);
    expect(sums.realizedValue().toString()).toBe(bot.neg().toSignificantDigits(40, Wide.ROUND_HALF_EVEN).toString());
  });

  it('a realized PnL cancelled to 10^-30 is read exactly', () => {
    const sums = new ChartSums(null);
    sums.addTrade(d('1'), ZERO, d('0.999999999999999999999999999999'));
    // The double words' bounds (about 2^-98 of 1) are wider than the result: the exact sums decide.
    expect(read(sums)).toEqual([1e-30, 0.999999999999999999999999999999, 0]);
    expect(sums.exactReadings).toBe(1);
    expect(sums.realizedValue().eq(d('1e-30'))).toBe(true);
  });

  it('an exact reading counts a fee paid several times, and the fees before it', () => {
    const sums = new ChartSums(null);
    const fee = d('0.1');
    sums.addTrade(d('5'), null, fee);
    sums.addTrade(d('5'), null, fee);
    // 10.3 + 10^-30 − 10 − 3 × 0.1 = 10^-30.
    sums.addTrade(d('10.300000000000000000000000000001'), d('10'), fee);
    expect(read(sums)).toEqual([1e-30, 0.3, 0]);
    expect(sums.exactReadings).toBe(1);
    // A new fee: the three of 0.1 become the fees before it. 0.2 − 0 − 0.2 leaves 10^-30.
    sums.addTrade(d('0.2'), ZERO, d('0.2'));
    expect(read(sums)).toEqual([1e-30, 0.5, 0]);
    expect(sums.exactReadings).toBe(2);
  });

  it('nothing added reads 0, without an exact reading', () => {
    const sums = new ChartSums(d('0.01'));
    expect(read(sums)).toEqual([0, 0, 0]);
    sums.addTrade(ZERO, null, ZERO);
    expect(read(sums)).toEqual([0, 0, 0]);
    expect(sums.exactReadings).toBe(0);
  });
});

interface Trade {
  readonly usd: string;
  /** A sell's cost; null for a buy. */
  readonly cost: string | null;
  /** Which of the run's fees it pays: the same decimal object for the same index. */
  readonly fee: number;
}

const tradeArb: fc.Arbitrary<Trade> = fc.record({
  usd: fc.oneof(stringArb(), nearValueArb.map(String)),
  cost: fc.option(fc.oneof(stringArb(), nearValueArb.map(String)), { nil: null }),
  fee: fc.integer({ min: 0, max: 3 }),
});
const runArb = fc.record({
  rate: fc.constantFrom(null, '0.01', '0.0075', '0.0125', '0.001', '0.025'),
  fees: fc.array(nearValueArb.map(String), { minLength: 4, maxLength: 4 }),
  trades: fc.array(tradeArb, { minLength: 1, maxLength: 40 }),
});

describe('ChartSums: properties against exact sums', () => {
  it('after every trade, each sum prints the nearest double to its exact value rounded to 40 digits', () => {
    fc.assert(
      fc.property(runArb, ({ rate, fees, trades }) => {
        const sums = new ChartSums(rate === null ? null : d(rate));
        const feeDecimals = fees.map(d);
        let gains = new Wide(0);
        let networkFees = new Wide(0);
        let usdAmounts = new Wide(0);
        for (const trade of trades) {
          sums.addTrade(d(trade.usd), trade.cost === null ? null : d(trade.cost), feeDecimals[trade.fee]!);
          // The decimals' own values (a Decimal40 reads more than 40 digits rounded).
          const usd = new Wide(d(trade.usd).toString());
          if (trade.cost !== null) gains = gains.plus(usd).minus(d(trade.cost).toString());
          networkFees = networkFees.plus(feeDecimals[trade.fee]!.toString());
          usdAmounts = usdAmounts.plus(usd);
          const bot = rate === null ? new Wide(0) : usdAmounts.times(rate);
          const feeSum = networkFees.plus(bot);
          expect(read(sums)).toEqual([printed(gains.minus(feeSum)), printed(feeSum), printed(bot)]);
        }
        const bot = rate === null ? new Wide(0) : usdAmounts.times(rate);
        expect(sums.realizedValue().toString()).toBe(
          new Decimal40(
            gains.minus(networkFees).minus(bot).toSignificantDigits(40, Wide.ROUND_HALF_EVEN).toString(),
          ).toString(),
        );
      }),
      PARAMS,
    );
  });
});
