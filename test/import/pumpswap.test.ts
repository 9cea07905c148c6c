import { describe, expect, it } from 'vitest';
import { parseTape } from '../../src/index.js';
import { importPumpSwap, parsePriceSeries } from '../../src/import.js';

// SOL/USD: $100 from t = 0, $200 from t = 3600.
const solUsd = parsePriceSeries('{"hourly_close": [[0, 100], [3600, 200], [7200, 150]]}', 'sol.json');
const swap = (over: Record<string, unknown>) => ({
  trader: 'Trader1',
  side: 'buy',
  sol: 0.5,
  tokens: 500000,
  price: 0.000001,
  ts: 3700,
  src: 'PUMP_AMM',
  ...over,
});
const line = (mint: string, swaps: unknown[], created = 3600) => JSON.stringify({ mint, created, swaps });

describe('importPumpSwap', () => {
  it('prices in USD with the last SOL/USD close at or before each swap', () => {
    const { tape, report } = importPumpSwap(
      [
        line('MintA', [
          swap({ sig: 'sig1' }),
          swap({ side: 'sell', sol: 0.3, tokens: 200000, price: 0.0000015, ts: 7300 }),
        ]),
      ],
      solUsd,
    );
    expect(report).toMatchObject({ source: 'pumpswap', rows: 2, kept: 2, dropped: [] });
    // t = 3700: price 1e-6 SOL × $200 = $0.0002; amount 0.5 SOL × $200 = $100.
    expect(tape.swaps[0]).toMatchObject({
      wallet: 'Trader1',
      token: 'MintA',
      type: 'buy',
      time: 3700,
      quantity: '500000',
      usd_price: '0.0002',
      usd_amount: '100',
      usd_liquidity: null,
      transaction_hash: 'sig1',
    });
    // t = 7300: 1.5e-6 × $150 = $0.000225; 0.3 × 150 = $45.
    expect(tape.swaps[1]).toMatchObject({ type: 'sell', usd_price: '0.000225', usd_amount: '45' });
    expect(tape.tokens).toEqual({ MintA: { name: null, symbol: null, created_at: 3600 } });
    // The series points covering 3700 .. 7300: the close at 3600 and the one at 7200.
    expect(tape.native_prices).toEqual([
      [3600, '200'],
      [7200, '150'],
    ]);
    expect(() => parseTape(tape)).not.toThrow();
  });

  it('takes sol / tokens when price is missing', () => {
    // 0.5 SOL / 500000 tokens = 1e-6 SOL × $200 = $0.0002.
    const { tape } = importPumpSwap([line('MintA', [swap({ price: null })])], solUsd);
    expect(tape.swaps[0]!.usd_price).toBe('0.0002');
  });

  it('drops and reports rows it cannot use, with where they are', () => {
    const { tape, report } = importPumpSwap(
      [
        line('MintA', [
          swap({}),
          swap({ side: 'sell', sol: 0, price: null }),
          swap({ side: 'swap' }),
          swap({ ts: -5 }),
          swap({ tokens: 0 }),
        ]),
        '{not json',
        '',
        line('MintB', [swap({ ts: 10 }), swap({ ts: 3599 })]),
      ],
      parsePriceSeries('{"hourly_close": [[3600, 200]]}', 'sol.json'),
    );
    expect(report.rows).toBe(8);
    expect(report.kept).toBe(1);
    expect(tape.swaps).toHaveLength(1);
    expect(report.dropped.map((d) => [d.reason.split(' (')[0], d.count, d.examples[0]])).toEqual([
      ['sell with no SOL amount', 1, 'line 1 swaps[1]'],
      ['side "swap" is neither buy nor sell', 1, 'line 1 swaps[2]'],
      ['malformed swap', 1, 'line 1 swaps[3]'],
      ['buy with no token amount', 1, 'line 1 swaps[4]'],
      ['line is not JSON', 1, 'line 2'],
      ['no SOL/USD close at or before the swap', 2, 'line 4 swaps[0]'],
    ]);
  });

  it('drops a price more than 100× below its token median', () => {
    // Prices 1e-6, 1e-6, 1.2e-6 and 1e-9 SOL: 1e-9 is 1000× below the median 1e-6.
    const prices = [0.000001, 0.000001, 0.0000012, 0.000000001];
    const { tape, report } = importPumpSwap(
      [
        line(
          'MintA',
          prices.map((price) => swap({ price })),
        ),
      ],
      solUsd,
    );
    expect(tape.swaps).toHaveLength(3);
    expect(report.dropped).toEqual([
      {
        reason: "outlier price (more than 100× from its token's median price)",
        count: 1,
        examples: ['line 1 swaps[3]'],
      },
    ]);
  });
});

describe('values a tape cannot hold', () => {
  it('drops a swap whose amount is beyond 1e60, naming the value, and keeps the rest', () => {
    // sol 1e308 × SOL/USD 200 (the close at 3600, before ts 3700) = 2e310 USD: beyond the tape's 1e60.
    const { tape, report } = importPumpSwap([line('MintA', [swap({ sol: 1e308 }), swap({ ts: 3800 })])], solUsd);
    expect(report.kept).toBe(1);
    expect(report.dropped).toEqual([
      {
        reason: "usd_amount 2e+310 is outside the tape's range (1e-60 to 1e60)",
        count: 1,
        examples: ['line 1 swaps[0]'],
      },
    ]);
    expect(() => parseTape(tape)).not.toThrow();
  });
});
