/** The piecewise JSON writer of large responses gives exactly the bytes of JSON.stringify. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeJson, writeResponseParts } from '../../src/io/json-stream.js';
import { assembleResponse } from '../../src/report/response.js';
import { simulateParts } from '../../src/simulate.js';
import { scenarioArb } from '../support/arbitraries.js';

function written(value: unknown, chunkChars?: number): { text: string; pieces: number } {
  let text = '';
  let pieces = 0;
  writeJson(
    value,
    (t) => {
      text += t;
      pieces++;
    },
    chunkChars,
  );
  return { text, pieces };
}

/** Values with large arrays (written in pieces) nested in objects and arrays, odd members included. */
const odd = fc.constantFrom<unknown>(undefined, () => 1, -0, NaN, Infinity, { toJSON: () => 'custom' }, new Date(0));
const leaf = fc.oneof(fc.jsonValue({ maxDepth: 2 }), odd);
const big = fc.array(leaf, { minLength: 257, maxLength: 700 });
const mixed = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    leaf,
    big,
    fc.array(tie('node'), { maxLength: 5 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie('node'), { maxKeys: 4 }),
    fc.record({ rows: big, more: fc.array(fc.record({ trades: big }), { minLength: 1, maxLength: 3 }) }),
  ),
})).node;

describe('writeJson', () => {
  it('writes what JSON.stringify writes, whatever the value and the chunk size', () => {
    fc.assert(
      fc.property(mixed, fc.constantFrom(1, 100, 1 << 20), (value, chunk) => {
        expect(written(value, chunk).text).toBe(JSON.stringify(value) ?? '');
      }),
      { numRuns: 150 },
    );
  });

  it('keeps holes of sparse arrays as null, as JSON.stringify does', () => {
    const sparse = new Array<unknown>(20_000);
    sparse[3] = { a: 1 };
    sparse[19_999] = 2;
    expect(written({ sparse }).text).toBe(JSON.stringify({ sparse }));
  });

  it('hands a large value over in pieces of about the chunk size', () => {
    const response = { summary: { pnl: 1.5 }, chart: { values: Array.from({ length: 100_000 }, (_, i) => i / 7) } };
    const { text, pieces } = written(response, 1 << 16);
    expect(text).toBe(JSON.stringify(response));
    expect(text.length).toBeGreaterThan(1_000_000);
    expect(pieces).toBeGreaterThan(10); // 8192 numbers at a time: no piece holds the whole text
  });
});

describe('writeResponseParts', () => {
  it('writes exactly JSON.stringify of the whole response, a deal at a time', () => {
    let withTrades = 0;
    fc.assert(
      fc.property(scenarioArb({}, 40), fc.constantFrom(1, 64, 1 << 20), (s, chunk) => {
        let parts: ReturnType<typeof simulateParts>;
        try {
          parts = simulateParts(s.tape, s.request, s.options);
        } catch {
          return; // requests and tapes the engine refuses are checked elsewhere
        }
        let text = '';
        writeResponseParts(parts, (t) => (text += t), chunk);
        expect(text).toBe(JSON.stringify(assembleResponse(parts)));
        if (parts.dealCount > 0 && parts.deal(0).trades.length > 0) withTrades++;
      }),
      { numRuns: 100 },
    );
    expect(withTrades).toBeGreaterThan(30); // most runs write deals with trades, not empty bodies
  });

  it('writes batches of small deals and a deal of many trades around them as JSON.stringify does', () => {
    // 150 deals (more than two batches of 64), every 70th with 300 trades (above the 256 that
    // are written in one piece), the others with 0 to 3.
    const trade = (k: number) => ({ type: 'buy', time: k, usd_amount: k / 3, usd_liquidity: null });
    const deals = Array.from({ length: 150 }, (_, i) => ({
      open_time: i,
      token: { address: `T${i}`, name: null, symbol: 'X' },
      trades: Array.from({ length: i % 70 === 0 ? 300 : i % 4 }, (_, k) => trade(k)),
    }));
    const parts = {
      head: { summary: { pnl_total: 1.5 } },
      dealCount: deals.length,
      deal: (i: number) => deals[i],
      dealToken: (i: number) => deals[i]!.token,
      dealTrades: (i: number) => deals[i]!.trades,
      skipped: null,
      tail: {},
      copierPoints: null,
    } as unknown as Parameters<typeof writeResponseParts>[0];
    let text = '';
    writeResponseParts(parts, (t) => (text += t), 1000);
    expect(text).toBe(JSON.stringify({ summary: { pnl_total: 1.5 }, deals }));
  });
});
