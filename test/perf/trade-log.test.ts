/** The packed logs give back exactly the decimals put in, across chunk boundaries. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal40 } from '../../src/model/decimal40.js';
import { PackedDecimals, PointLog, TradeLog, type TradeRecord } from '../../src/engine/trade-log.js';

const decimal = fc
  .tuple(fc.bigInt({ min: 1n, max: 10n ** 40n - 1n }), fc.integer({ min: -80, max: 80 }), fc.boolean())
  .map(([c, e, negative]) => new Decimal40(`${negative ? '-' : ''}${c}e${e}`));
const slot = fc.oneof({ weight: 8, arbitrary: decimal }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constant(new Decimal40(0)) });

describe('PackedDecimals', () => {
  it('gives back every value, null and zero included, field for field', () => {
    fc.assert(
      fc.property(fc.array(slot, { maxLength: 60 }), (values) => {
        const packed = new PackedDecimals();
        values.forEach((v) => packed.push(v));
        expect(packed.length).toBe(values.length);
        values.forEach((v, i) => expect(packed.get(i)).toEqual(v));
      }),
    );
  });

  it('crosses chunk boundaries (16,384 values a chunk) without losing a value', () => {
    const packed = new PackedDecimals();
    const count = 40_000;
    for (let i = 0; i < count; i++) packed.push(i % 7 === 0 ? null : new Decimal40(`${i}.${i % 97}`));
    for (const i of [0, 1, 16_383, 16_384, 16_385, 32_767, 32_768, count - 1]) {
      expect(packed.get(i)?.toString() ?? null).toBe(i % 7 === 0 ? null : new Decimal40(`${i}.${i % 97}`).toString());
    }
  });

  it('refuses an exponent an int32 cannot hold instead of wrapping it', () => {
    const huge = new Decimal40('1e3000000000');
    expect(() => new PackedDecimals().push(huge)).toThrow(RangeError);
  });
});

describe('TradeLog and PointLog', () => {
  it('give back each record as it was added', () => {
    const trade = (k: number, liquidity: Decimal40 | null): TradeRecord => ({
      type: (['buy', 'sell', 'sell_timefix', 'sell_timefix_final'] as const)[k % 4]!,
      time: 1_710_000_000 + k,
      usdAmount: new Decimal40(`${k + 1}.5`),
      quantity: new Decimal40(`${k + 2}e-9`),
      price: new Decimal40(1).div(k + 3),
      liquidity,
      buyPriceAvg: new Decimal40(2).div(k + 7),
      invested: new Decimal40(k),
      slippage: new Decimal40('0.25'),
      networkFee: new Decimal40('0.0187425'),
      botFee: new Decimal40(0),
    });
    const log = new TradeLog();
    const records = Array.from({ length: 9 }, (_, k) => trade(k, k % 3 === 0 ? null : new Decimal40(50_000 + k)));
    const rows = records.map((r) => log.add(r));
    expect(rows).toEqual(records.map((_, k) => k));
    records.forEach((r, k) => expect(log.get(k)).toEqual(r));

    const points = new PointLog();
    const point = { time: 5, dealIndex: 2, realized: -1.5, unrealized: 3 / 7, total: -1.5 + 3 / 7, feeSum: 0.1, botFeeSum: 0 };
    points.add(point);
    expect(points.length).toBe(1);
    expect(points.get(0)).toEqual(point);
  });
});
