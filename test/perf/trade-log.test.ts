/** The logs of a replay give back exactly the doubles put in, across chunk boundaries. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DoubleRows, PointLog, TRADE_TYPES, TradeLog } from '../../src/engine/trade-log.js';
import * as layout from '../../src/engine/trade-row.js';

describe('DoubleRows', () => {
  it('gives back every value of every row, NaN and -0 included', () => {
    const value = fc.oneof(fc.double(), fc.constantFrom(NaN, -0, 0));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.array(value, { minLength: 12, maxLength: 12 }), { maxLength: 40 }),
        (width, rows) => {
          const store = new DoubleRows(width);
          rows.forEach((r, i) => {
            expect(store.next()).toBe(i);
            for (let k = 0; k < width; k++) store.chunk[store.at + k] = r[k]!;
          });
          expect(store.length).toBe(rows.length);
          rows.forEach((r, i) => {
            for (let k = 0; k < width; k++) expect(Object.is(store.get(i, k), r[k])).toBe(true);
          });
        },
      ),
    );
  });

  it('crosses chunk boundaries (4,096 rows a chunk) without losing a row', () => {
    const store = new DoubleRows(3);
    const count = 10_000;
    for (let i = 0; i < count; i++) {
      store.next();
      store.chunk[store.at] = i;
      store.chunk[store.at + 1] = i / 7;
      store.chunk[store.at + 2] = -i;
    }
    for (const i of [0, 1, 4_095, 4_096, 4_097, 8_191, 8_192, count - 1]) {
      expect([store.get(i, 0), store.get(i, 1), store.get(i, 2)]).toEqual([i, i / 7, -i]);
    }
  });
});

describe('TradeLog and PointLog', () => {
  it('give back each record as it was added, an unknown liquidity as null', () => {
    const trade = (k: number): layout.TradeRecord => ({
      type: (['buy', 'sell', 'sell_timefix', 'sell_timefix_final'] as const)[k % 4]!,
      time: 1_710_000_000 + k,
      usdAmount: k + 1.5,
      quantity: (k + 2) * 1e-9,
      price: 1 / (k + 3),
      liquidity: k % 3 === 0 ? null : 50_000 + k,
      buyPriceAvg: 2 / (k + 7),
      invested: k,
      slippage: 0.25,
      networkFee: 0.0187425,
      botFee: 0,
    });
    const log = new TradeLog();
    const records = Array.from({ length: 9 }, (_, k) => trade(k));
    const rows = records.map((r) => {
      const n = log.start(r.type, r.time);
      // The log writes the type and time itself; the rest of the row is the caller's.
      expect([log.chunk[log.at + layout.TYPE], log.chunk[log.at + layout.TIME]]).toEqual([
        TRADE_TYPES.indexOf(r.type),
        r.time,
      ]);
      layout.writeRecordAt(log.chunk, log.at, r, TRADE_TYPES);
      return n;
    });
    expect(rows).toEqual(records.map((_, k) => k));
    records.forEach((r, k) => expect(log.get(k)).toEqual(r));

    const points = new PointLog();
    const point = {
      time: 5,
      dealIndex: 2,
      realized: -1.5,
      unrealized: 3 / 7,
      total: -1.5 + 3 / 7,
      feeSum: 0.1,
      botFeeSum: 0,
    };
    points.add(
      { lastOperationTime: point.time, index: point.dealIndex },
      { realizedPnl: point.realized, feeSum: point.feeSum, botFeeSum: point.botFeeSum },
      { unrealized: point.unrealized, total: point.total },
    );
    expect(points.length).toBe(1);
    expect(points.get(0)).toEqual(point);
  });
});
