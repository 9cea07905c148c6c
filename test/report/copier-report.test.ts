/**
 * What a trader reads of the copier's wallet (model 3.0), on one small run computed by hand: the
 * report data's cash and equity curve (ending at window_end on the headline figures), the PnL
 * chart's end point, the risk figures, the text report's sections, and `copysim report`, which
 * refuses a response its request contradicts and runs the request again for the chart.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  assembleResponse,
  indexTape,
  parseSimulatorRequest,
  type SimulatorRequest,
  type SimulatorResponse,
} from '../../src/index.js';
import { simulateParts } from '../../src/simulate.js';
import { formatTextReport } from '../../src/report/text-report.js';
import { requestMismatches } from '../../src/report/response-match.js';
import { riskFigures, simulationData } from '../../web/report/simulation-data.js';
import { cli } from '../support/cli.js';
import {
  at,
  buy,
  DAY_START,
  END,
  FLAT_OPTIONS,
  LEADER_A,
  LEADER_B,
  MARKET,
  request,
  sell,
  tape,
  TOKEN_X,
  TOKEN_Y,
} from '../support/scenario.js';

const scratch = mkdtempSync(join(tmpdir(), 'copysim-copier-report-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// Network fee 1 USD a trade, no slippage (FLAT_OPTIONS). Balance 250.
// - at(100): LEADER_A buys 200 X at 1.00; the copy buys 200 USD: cash 250 − 200 − 1 = 49,
//   equity 49 + 200 × 1.00 = 249.
// - at(150): LEADER_B buys 100 Y at 2.00; the copy of 200 USD needs 201 > 49: skipped for cash.
// - at(200): the market trades X at 0.90: no change of cash, no point.
// - at(300): LEADER_A sells all 200 X at 1.30; the copy sells 200: cash 49 + 260 − 1 = 308, the
//   deal closed: equity 308.
// pnl_total 260 − 200 − 2 = 58 = 308 − 250; capital_required 250 − 49 = 201; the equity's peak
// 250 falls to 249: max_drawdown 1, 100 × 1 / 250 = 0.4 %.
const swaps = [
  buy(MARKET, TOKEN_X, at(50), 5, 1),
  buy(LEADER_A, TOKEN_X, at(100), 200, 1),
  buy(LEADER_B, TOKEN_Y, at(150), 100, 2),
  buy(MARKET, TOKEN_X, at(200), 5, 0.9),
  sell(LEADER_A, TOKEN_X, at(300), 200, 1.3),
];
const strategy = { starting_balance_usd: 250, report_leaders: true };

function parsed(input: object): SimulatorRequest {
  const result = parseSimulatorRequest(input);
  if (!result.success) throw new Error(JSON.stringify(result.error));
  return result.data;
}

function runOf(strategyInput: object): {
  request: SimulatorRequest;
  response: SimulatorResponse;
  points: readonly number[] | null;
} {
  const req = parsed(request({ wallets: [LEADER_A, LEADER_B], strategy: strategyInput }));
  const parts = simulateParts(indexTape(tape(swaps)), req, FLAT_OPTIONS, { copierPoints: true });
  return { request: req, response: assembleResponse(parts), points: parts.copierPoints };
}

describe("the copier's figures, by hand", () => {
  const { request: req, response, points } = runOf(strategy);

  it('are those of the engine: the response and its cash and equity points', () => {
    expect(response.copier).toMatchObject({
      starting_balance: 250,
      ending_cash: 308,
      ending_equity: 308,
      capital_required: 201,
      max_drawdown: 1,
      skipped_for_cash: 1,
    });
    expect(response.copier!.max_drawdown_percent).toBeCloseTo(0.4, 12);
    expect(response.summary.pnl_total).toBe(58);
    expect(points).toEqual([at(100), 49, 249, at(300), 308, 308]);
  });

  it('make a curve from the balance at window_start to the ending figures at window_end', () => {
    const data = simulationData({ title: 't', request: req, response, prices: null, copierPoints: points });
    expect(data.wallet).toEqual({
      times: [DAY_START, at(100), at(300), END],
      cash: [250, 49, 308, 308],
      equity: [250, 249, 308, 308],
    });
    expect(data.window_end).toBe(END);
    expect(data.copier).toEqual(response.copier);
    expect(data.leaders).toEqual(response.leaders);
    // Without the run's points (a saved response, the service's answer): no curve.
    expect(simulationData({ title: 't', request: req, response, prices: null }).wallet).toBeNull();
  });

  it('without a balance: cash counted from 0, the end at pnl_total less the failed fees', () => {
    // Nothing refused: the buy of Y lands too. Cash: −201 after X, −402 after Y, −402 + 259 =
    // −143 after the sell of X. Equity: −201 + 200 × 1.00 = −1; −402 + 200 + 100 × 2.00 = −2;
    // −143 + 100 × 2.00 = 57. pnl_total: X's 58 and Y's fee −1 = 57; the most in use 402.
    const plain = runOf({ report_wallet: true });
    expect(plain.response.copier).toMatchObject({
      starting_balance: null,
      ending_cash: null,
      ending_equity: null,
      capital_required: 402,
    });
    expect(plain.response.summary.pnl_total).toBe(57);
    const data = simulationData({
      title: 't',
      request: plain.request,
      response: plain.response,
      prices: null,
      copierPoints: plain.points,
    });
    expect(data.wallet).toEqual({
      times: [DAY_START, at(100), at(150), at(300), END],
      cash: [0, -201, -402, -143, -143],
      equity: [0, -1, -2, 57, 57],
    });
  });

  it("end the PnL chart at window_end on the summary's figures", () => {
    const data = simulationData({ title: 't', request: req, response, prices: null });
    expect(response.cumulative_pnl_and_fee_chart.timestamps).toEqual([at(100), at(300)]);
    expect(data.chart_end).toEqual({ time: END, pnl_total: 58, pnl_realized: 58, fee_sum: 2, bot_fee: 0 });
    expect(simulationData({ title: 't', request: null, response, prices: null }).chart_end).toBeNull();
  });

  it('give the risk figures: the equity drawdown; win rate and profit factor of the closed deals', () => {
    expect(riskFigures(response)).toEqual({
      max_drawdown: 1,
      max_drawdown_percent: response.copier!.max_drawdown_percent,
      drawdown_of: 'equity',
      closed_deals: 1,
      won: 1,
      lost: 0,
      win_rate: 100,
      profit_factor: null,
    });
    // Closed deals of +30, −10, +20 and 0, and an open one of +5: 2 won of 4 closed, 50 / 10 = 5.
    // pnl_total 10, 40, 25, 30 and the summary's 20 at the end: the best 40, the deepest fall 20.
    const deal = (status: 'open' | 'closed', pnl_total: number) => ({ status, pnl_total });
    const made = riskFigures({
      ...response,
      copier: undefined,
      deals: [deal('closed', 30), deal('closed', -10), deal('closed', 20), deal('closed', 0), deal('open', 5)],
      cumulative_pnl_and_fee_chart: { ...response.cumulative_pnl_and_fee_chart, pnl_total: [10, 40, 25, 30] },
      summary: { ...response.summary, pnl_total: 20 },
    });
    expect(made).toEqual({
      max_drawdown: 20,
      max_drawdown_percent: null,
      drawdown_of: 'pnl_total',
      closed_deals: 4,
      won: 2,
      lost: 1,
      win_rate: 50,
      profit_factor: 5,
    });
  });

  it('print as the text report says them', () => {
    const text = formatTextReport(response, req, { title: 't', copierPoints: points });
    for (const line of [
      '  Risk         max drawdown 1.00 USD (0.40 %) of equity · win rate 100.00 % of closed deals · ' +
        'profit factor no closed deal lost',
      "Copier's wallet",
      '  Balance      250.00 USD → ending cash 308.00 · ending equity 308.00 USD (+23.20 %)',
      '  Capital      201.00 USD in use at most, fees included',
      '  Drawdown     1.00 USD (0.40 %) of equity below its peak, at most',
      '  Failed       0 transactions · 0.00 USD in fees',
      '  Sandwiched   0 trades · 0.00 USD lost',
      '  For cash     1 copy skipped (insufficient_balance)',
      '  Cash and equity over time',
      '    time (UTC)            cash USD  equity USD',
      '    2024-03-10T00:00:00Z    250.00      250.00',
      '    2024-03-10T03:59:59Z    308.00      308.00',
      '    2024-03-10T23:59:59Z    308.00      308.00',
      'Leaders by PnL (# = index in wallets)',
      '  #  wallet     buys  sells  skipped  invested USD  PnL USD       ROI  failed fees USD',
      '  0  Lead…1111     1      1        0        200.00   +58.00  +29.00 %           0.0000',
      '  1  Lead…2222     0      0        1          0.00     0.00    0.00 %           0.0000',
    ]) {
      expect(text.split('\n')).toContain(line);
    }
    // Without the run's points the figures stay and the table over time goes.
    const saved = formatTextReport(response, req, { title: 't' });
    expect(saved).toContain('  Capital      201.00 USD in use at most, fees included\n');
    expect(saved).not.toContain('Cash and equity over time');
  });
});

describe('a response its request contradicts', () => {
  const { request: req, response } = runOf(strategy);

  it('is told apart, reason by reason', () => {
    expect(requestMismatches(response, req)).toEqual([]);
    const eth = `0x${'ab'.repeat(20)}`;
    const ethResponse = {
      ...response,
      leaders: response.leaders!.map((l, i) => (i === 0 ? { ...l, wallet: eth } : l)),
    };
    expect(requestMismatches(ethResponse, req)).toEqual([
      `the request is for sol, but the response holds the eth address ${eth}`,
      "the response's leaders (2) are not the request's wallets (2), in its order",
    ]);
    expect(requestMismatches(response, parsed({ ...req, from_date: '2024-03-11', to_date: '2024-03-11' }))).toEqual([
      "a trade of the response is at 2024-03-10T00:01:40Z, outside the request's window 2024-03-11 to 2024-03-11",
    ]);
    expect(requestMismatches(response, parsed({ ...req, strategy: { report_leaders: true } }))).toEqual([
      'the response has copier, ' +
        "but the request does not set a member of the copier's wallet (strategy.starting_balance_usd, …)",
    ]);
    expect(
      requestMismatches(response, parsed({ ...req, strategy: { ...strategy, starting_balance_usd: 1000 } })),
    ).toEqual(["the response's starting balance is 250, the request's strategy.starting_balance_usd 1000"]);
    expect(
      requestMismatches(
        response,
        parsed({ ...req, max_buy_amount: 100, strategy: { ...strategy, report_skipped: true } }),
      ),
    ).toEqual([
      'the response has no skipped_copies, but the request sets strategy.report_skipped',
      "a buy of 200 USD exceeds the request's max_buy_amount 100",
    ]);
  });

  it('is refused by copysim report (exit 1); a run of the request on the tape must give it back', async () => {
    const files = {
      tape: join(scratch, 'tape.json'),
      request: join(scratch, 'request.json'),
      options: join(scratch, 'options.json'),
      response: join(scratch, 'response.json'),
      other: join(scratch, 'other-request.json'),
    };
    writeFileSync(files.tape, JSON.stringify(tape(swaps)));
    writeFileSync(files.request, JSON.stringify(req));
    writeFileSync(files.options, JSON.stringify(FLAT_OPTIONS));
    writeFileSync(files.response, JSON.stringify(response));
    writeFileSync(files.other, JSON.stringify({ ...req, strategy: { ...strategy, starting_balance_usd: 1000 } }));

    const refused = await cli(
      'report',
      '--response',
      files.response,
      '--request',
      files.other,
      '--out',
      join(scratch, 'x.html'),
    );
    expect(refused.code).toBe(1);
    expect(refused.err).toBe(
      `copysim report: the response ${files.response} does not match the request ${files.other}: ` +
        "the response's starting balance is 250, " +
        "the request's strategy.starting_balance_usd 1000. Give the request it was made from\n",
    );

    // Without the options it was made with, the run differs (network fees of the default options).
    const rerun = await cli(
      'report',
      '--response',
      files.response,
      '--request',
      files.request,
      '--tape',
      files.tape,
      '--out',
      join(scratch, 'y.html'),
    );
    expect(rerun.code).toBe(1);
    expect(rerun.err).toMatch(
      new RegExp(
        'is not what the request .* gives on the tape .*: ' +
          'summary\\.pnl_total: 58 in the response, [\\d.]+ in a run\\. ' +
          'Give the request, the tape and the --options it was made from\n$',
      ),
    );

    const out = join(scratch, 'z.html');
    const ok = await cli(
      'report',
      '--response',
      files.response,
      '--request',
      files.request,
      '--tape',
      files.tape,
      '--options',
      files.options,
      '--out',
      out,
    );
    expect(ok.code, ok.err).toBe(0);
    const main = embedded(readFileSync(out, 'utf8'), 'main') as { wallet: unknown };
    expect(main.wallet).toEqual({
      times: [DAY_START, at(100), at(300), END],
      cash: [250, 49, 308, 308],
      equity: [250, 249, 308, 308],
    });
  });
});

/** A part of a report file, read back as the page reads it. */
function embedded(html: string, part: string): unknown {
  const blocks = [
    ...html.matchAll(new RegExp(`<script type="application/octet-stream" data-part="${part}">([^<]*)</script>`, 'g')),
  ];
  return JSON.parse(gunzipSync(Buffer.from(blocks.map((m) => m[1]).join(''), 'base64')).toString('utf8'));
}
