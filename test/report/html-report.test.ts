/**
 * The HTML report's builder, without a browser: thinning for display (and that the page's copy
 * of it agrees), the settings that vary across a sweep, the tape's prices around a deal, the
 * report data read back from the page's blocks, and the `report` command's errors.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { indexTape, parseSimulatorRequest, simulate, type SimulatorRequest } from '../../src/index.js';
import { simulationReportData, simulationReportHtml } from '../../src/report/html/index.js';
import { columnsPerDeal, dealPrices } from '../../src/report/html/tape-prices.js';
import { minMaxIndices } from '../../src/report/html/thin.js';
import { settingLeaves, varyingPaths } from '../../src/report/html/setting-paths.js';
import { DAY, SOL_LEADER, SOL_REQUEST, SOL_TAPE, SOL_TOKEN } from '../server/support/tapes.js';
import { cli } from '../support/cli.js';
// The page's own copy of the thinning rule (plain JavaScript, run here as it runs in a browser).
import { minMaxIndices as pageMinMaxIndices } from '../../web/report/thin.js';
import { drawdown } from '../../web/report/charts.js';
import { formatNumber, formatPrice } from '../../web/report/format.js';

const scratch = mkdtempSync(join(tmpdir(), 'copysim-html-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function request(input: object): SimulatorRequest {
  const parsed = parseSimulatorRequest(input);
  if (!parsed.success) throw new Error(JSON.stringify(parsed.error));
  return parsed.data;
}

/** The parts of a report file, read back as the page reads them (blocks joined, base64, gzip, JSON). */
function embedded(html: string, part: string): unknown {
  const blocks = [
    ...html.matchAll(new RegExp(`<script type="application/octet-stream" data-part="${part}">([^<]*)</script>`, 'g')),
  ];
  return JSON.parse(gunzipSync(Buffer.from(blocks.map((m) => m[1]).join(''), 'base64')).toString('utf8'));
}

describe('minMaxIndices: thinning for display', () => {
  it('keeps the lowest and highest point of each column, and the ends', () => {
    // x 1..4 fall in column 0 (x/9·2 < 1): lowest y=1 at 4, highest y=9 at 3;
    // x 5..8 in column 1: lowest y=2 at 5, highest y=8 at 6. Plus the first and the last.
    expect(minMaxIndices([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [0, 5, 3, 9, 1, 2, 8, 4, 6, 7], 2)).toEqual([
      0, 3, 4, 5, 6, 9,
    ]);
  });

  it('keeps a series of at most two points a column whole', () => {
    expect(minMaxIndices([0, 1, 2, 3], [4, 3, 2, 1], 2)).toEqual([0, 1, 2, 3]);
  });

  it('keeps one point of a column whose points are all equal', () => {
    // Column 0 holds x=1,2 (y 5, 5): one point, the first; column 1 holds x=3,4 (y 7, 6).
    expect(minMaxIndices([0, 1, 2, 3, 4, 5], [0, 5, 5, 7, 6, 0], 2)).toEqual([0, 1, 3, 4, 5]);
  });

  it("keeps every column's extremes, in order, and the page's copy picks the same points", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 1, max: 40 }),
        (ys, columns) => {
          const xs = ys.map((_, i) => i * 3);
          const kept = minMaxIndices(xs, ys, columns);
          expect(pageMinMaxIndices(xs, ys, columns)).toEqual(kept);
          expect(kept).toEqual([...new Set(kept)].sort((a, b) => a - b));
          expect(kept.length).toBeLessThanOrEqual(Math.max(ys.length <= 2 * columns ? ys.length : 2 * columns + 2, 1));
          expect(Math.max(...kept.map((i) => ys[i]!))).toBe(Math.max(...ys));
          expect(Math.min(...kept.map((i) => ys[i]!))).toBe(Math.min(...ys));
        },
      ),
    );
  });
});

describe("the page's arithmetic and numbers", () => {
  it('draws the drawdown below the best pnl_total so far, counting from 0 before the first trade', () => {
    // best so far: 5, 5, 8, 8 → 5-5, 3-5, 8-8, -2-8.
    expect(drawdown([5, 3, 8, -2])).toEqual([0, -2, 0, -10]);
    // Below 0 from the start: the best so far is the 0 before any trade.
    expect(drawdown([-3, -1, 2])).toEqual([-3, -1, 0]);
  });

  it('prints amounts grouped, signed when asked, with no "-0.00"', () => {
    expect(formatNumber(1234.567, 2, true)).toBe('+1,234.57');
    expect(formatNumber(-1234.5)).toBe('-1,234.50');
    expect(formatNumber(-0.001)).toBe('0.00');
    expect(formatNumber(0.001, 2, true)).toBe('0.00');
    expect(formatNumber(Number.NaN)).toBe('–');
    expect(formatNumber(null)).toBe('–');
  });

  it('prints prices with six significant digits, however small', () => {
    // log10(1.9873085e-7) = -6.7 → floor -7 → 5 - (-7) = 12 decimals.
    expect(formatPrice(1.9873085e-7)).toBe('0.000000198731');
    expect(formatPrice(1234.5678)).toBe('1,234.57');
    expect(formatPrice(0)).toBe('0');
  });
});

describe('the settings that vary across a sweep', () => {
  it('flattens a request to its leaves, arrays whole', () => {
    expect(settingLeaves({ a: 1, b: { c: null, d: [1, 2] }, e: null })).toEqual({
      a: 1,
      'b.c': null,
      'b.d': '[1,2]',
      e: null,
    });
  });

  it('finds the leaves that differ, a missing one included', () => {
    expect(
      varyingPaths([
        { a: 1, b: { c: 2 } },
        { a: 1, b: { c: 3 } },
      ]),
    ).toEqual(['b.c']);
    expect(
      varyingPaths([
        { a: 1, s: null },
        { a: 2, s: { delay: 5 } },
      ]),
    ).toEqual(['a', 's', 's.delay']);
    expect(varyingPaths([{ a: 1 }, { a: 1 }])).toEqual([]);
  });
});

describe("the tape's prices around a deal", () => {
  // SOL_TAPE: the leader buys 1000 at 0.1 at DAY+3600, a market wallet buys at 0.12 at DAY+5400,
  // the leader sells at 0.15 at DAY+7200: one deal, open DAY+3600, last trade DAY+7200.
  const tape = indexTape(SOL_TAPE);
  const req = request(SOL_REQUEST);
  const response = simulate(tape, req);

  it('encodes every swap of the deal, times from the open, prices in 10^e USD', () => {
    expect(response.deals).toHaveLength(1);
    expect(response.deals[0]!.open_time).toBe(DAY + 3600);
    // Highest price 0.15: log10 = -0.82, floor -1, e = -1 - 5 = -6; 0.1 = 100000 × 10^-6.
    expect(dealPrices(tape, response.deals, [SOL_LEADER])).toEqual([
      {
        e: -6,
        market: { t: [0, 1800, 1800], p: [100_000, 120_000, 150_000] },
        leader_buys: { t: [0], p: [100_000] },
        leader_sells: { t: [3600], p: [150_000] },
      },
    ]);
  });

  it('marks no leader without the request, and gives null for a token the tape lacks', () => {
    const other = { ...response.deals[0]!, token: { address: 'Missing', name: null, symbol: null } };
    const [known, unknown] = dealPrices(tape, [response.deals[0]!, other], []);
    expect(known!.leader_buys).toEqual({ t: [], p: [] });
    expect(unknown).toBeNull();
  });

  it('thins to 600 columns a deal for a few deals, 16 for very many', () => {
    expect(columnsPerDeal(1)).toBe(600);
    // 300,000 points / (2 × 1,000 deals) = 150 columns.
    expect(columnsPerDeal(1000)).toBe(150);
    expect(columnsPerDeal(100_000)).toBe(16);
  });
});

describe('the report data', () => {
  const tape = indexTape(SOL_TAPE);
  const req = request({ ...SOL_REQUEST, strategy: { report_skipped: true } });
  const response = simulate(tape, req);
  const data = simulationReportData({ title: 't', response, request: req, tape });

  it('keeps every value of the response, each token once, trades apart', () => {
    const deal = response.deals[0]!;
    const row = Object.fromEntries(data.deal_columns.map((c, i) => [c, data.deals[0]![i]]));
    expect({
      ...row,
      token: data.tokens[row.token as number],
      trades: data.trades[0]!.map((t) => Object.fromEntries(data.trade_columns.map((c, i) => [c, t[i]]))),
    }).toEqual(deal);
    expect(data.tokens).toEqual([{ address: SOL_TOKEN, name: 'Alpha', symbol: 'ALP' }]);
    expect(Object.keys(data.chart)).toEqual(['timestamps', 'pnl_total', 'pnl_realized', 'fee_sum', 'bot_fee']);
    expect(data.chart.pnl_total).toEqual(response.cumulative_pnl_and_fee_chart.pnl_total);
    expect(data.skipped).toEqual({});
  });

  it('travels in the page exactly, and the same input gives the same bytes', () => {
    const html = simulationReportHtml({ title: 'a <title> & "quotes"', response, request: req, tape });
    expect(html).toBe(simulationReportHtml({ title: 'a <title> & "quotes"', response, request: req, tape }));
    expect(html).toContain('<title>a &lt;title&gt; &amp; &quot;quotes&quot;</title>');
    const { trades, prices, ...main } = data;
    expect(embedded(html, 'main')).toEqual({ ...main, title: 'a <title> & "quotes"', parts: ['trades', 'prices'] });
    expect(embedded(html, 'trades')).toEqual(trades);
    expect(embedded(html, 'prices')).toEqual(prices);
  });
});

describe('copysim report and simulate --html', () => {
  const tapeFile = join(scratch, 'tape.json');
  const requestFile = join(scratch, 'request.json');
  writeFileSync(tapeFile, JSON.stringify(SOL_TAPE));
  writeFileSync(requestFile, JSON.stringify(SOL_REQUEST));

  it('writes the same report from a simulation and from its response', async () => {
    const fromSimulate = join(scratch, 'a.html');
    const sim = await cli('simulate', '--tape', tapeFile, '--request', requestFile, '--html', fromSimulate);
    expect(sim.code, sim.err).toBe(0);
    const responseFile = join(scratch, 'response.json');
    writeFileSync(responseFile, sim.out);
    const fromResponse = join(scratch, 'b.html');
    const rep = await cli(
      'report',
      '--response',
      responseFile,
      '--request',
      requestFile,
      '--tape',
      tapeFile,
      '--out',
      fromResponse,
    );
    expect(rep.code, rep.err).toBe(0);
    expect(rep.out).toMatch(/^report written to .*b\.html \(0\.1 MB\): open it in a browser\n$/);
    for (const part of ['trades', 'prices'])
      expect(embedded(readFileSync(fromResponse, 'utf8'), part)).toEqual(
        embedded(readFileSync(fromSimulate, 'utf8'), part),
      );
  });

  it('says which file is not a response, and where', async () => {
    const bad = join(scratch, 'bad.json');
    writeFileSync(bad, JSON.stringify({ summary: {}, deals: [] }));
    const run = await cli('report', '--response', bad);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(
      /^copysim report: response file .*bad\.json is not a simulator response \(the output of copysim simulate\): summary\.pnl_total: .*; and \d+ more\n$/,
    );
  });

  it('refuses a tape of another network than the request', async () => {
    const responseFile = join(scratch, 'r.json');
    writeFileSync(responseFile, JSON.stringify(simulate(indexTape(SOL_TAPE), request(SOL_REQUEST))));
    const ethRequest = join(scratch, 'eth-request.json');
    writeFileSync(ethRequest, JSON.stringify({ ...SOL_REQUEST, network: 'eth' }));
    const run = await cli('report', '--response', responseFile, '--request', ethRequest, '--tape', tapeFile);
    expect(run.code).toBe(1);
    expect(run.err).toContain('the request is for eth but the tape');
  });

  it('needs --response', async () => {
    const run = await cli('report');
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/^copysim report: report needs --response FILE/);
  });
});
