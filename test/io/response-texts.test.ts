/**
 * A response's PnL chart and trades printed on a thread of their own (io/response-texts.ts),
 * put in their places: byte for byte the JSON.stringify of the whole response, whether the
 * thread prints the chart and every deal's trades, leaves the large deals to the writer, or fails.
 */
import { describe, expect, it } from 'vitest';
import { startResponseTexts, writeResponseParts } from '../../src/io/json-stream.js';
import { THREAD_FROM_TRADES, ResponseTexts } from '../../src/io/response-texts.js';
import type { SimulatedDeal } from '../../src/model/response.js';
import { assembleResponse, type ResponseParts } from '../../src/report/response.js';
import { simulateParts } from '../../src/simulate.js';
import { TapeGenerator } from '../../bench/tape-generator.js';

function written(parts: ResponseParts, texts: ResponseTexts | null, chunkChars = 1 << 16): string {
  let text = '';
  writeResponseParts(parts, (t) => (text += t), chunkChars, texts);
  return text;
}

/** A benchmark-shaped run with more trades than a thread is started for, and deals above 256 trades. */
function largeRun(): ResponseParts {
  const generator = new TapeGenerator({ swaps: 30_000, leaders: 20, tokens: 400, marketWallets: 50, days: 4, seed: 5 });
  const tape = { ...generator.header, swaps: [...generator.swaps()] };
  return simulateParts(tape, { ...generator.request(), max_dupe_buy_times: 400 }, {});
}

describe('the chart and the trades printed on a thread of their own', () => {
  const parts = largeRun();
  const expected = JSON.stringify(assembleResponse(parts));
  const counts = Array.from({ length: parts.dealCount }, (_, i) => parts.dealTrades(i).length);

  it('is a run with enough trades for the thread, and deals written piece by piece beside them', () => {
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(THREAD_FROM_TRADES);
    expect(counts.some((n) => n > 256)).toBe(true);
    expect(counts.filter((n) => n > 0 && n <= 256).length).toBeGreaterThan(256); // more than a batch
  });

  it('writes exactly JSON.stringify of the whole response', () => {
    const texts = startResponseTexts(parts);
    expect(texts).not.toBeNull(); // the compiled thread script is there (npm test builds it)
    expect(written(parts, texts)).toBe(expected);
  });

  it('gives each deal its own trades: the table holds every trade, deal after deal', () => {
    const table = parts.tradeTable();
    expect(Array.from(table.offsets.slice(1), (end, i) => end - table.offsets[i]!)).toEqual(counts);
    expect(table.values.length).toBe(11 * table.offsets[table.offsets.length - 1]!);
  });

  it("splices each deal's trades in its place when a token's name spells the empty trades member", () => {
    const named = (deal: SimulatedDeal, i: number): SimulatedDeal =>
      i % 3 === 0 ? { ...deal, token: { ...deal.token, name: `x"trades":[]},{"trades":[]}\\` } } : deal;
    const odd: ResponseParts = {
      ...parts,
      deal: (i) => named(parts.deal(i), i),
      dealWithoutTrades: (i) => named(parts.dealWithoutTrades(i), i),
    };
    expect(written(odd, startResponseTexts(odd))).toBe(JSON.stringify(assembleResponse(odd)));
  });

  it('prints the trades itself from the deal where the thread failed', () => {
    // Rows the thread cannot read: it posts its failure, and the writer prints every deal's trades.
    const broken: ResponseParts = { ...parts, tradeTable: () => ({ ...parts.tradeTable(), values: null as never }) };
    const texts = ResponseTexts.start(broken, 256);
    expect(texts).not.toBeNull();
    expect(written(broken, texts)).toBe(expected);
    expect(texts!.take(0)).toBeNull(); // stopped
  });

  it('prints the chart and the trades itself when the thread fails from the start', () => {
    const broken: ResponseParts = { ...parts, chartPoints: () => null as never };
    const texts = ResponseTexts.start(broken, 256);
    expect(texts).not.toBeNull();
    expect(written(broken, texts)).toBe(expected);
  });

  it('starts no thread for a response of few trades', () => {
    const few: ResponseParts = {
      ...parts,
      tradeTable: () => ({ values: new Float64Array(11), offsets: Int32Array.of(0, 1), types: ['buy'] }),
    };
    expect(startResponseTexts(few)).toBeNull();
  });
});
