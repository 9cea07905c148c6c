/**
 * Model 6, the three charts:
 * - cumulative_pnl_and_fee_chart: one point per follower trade in execution order, with the
 *   realized PnL so far, the unrealized PnL of the deals open now (at the known prices now),
 *   their sum, cumulative fees and bot fees, the deal index and the trade's time;
 * - cumulative_usd_closed_deals_chart: per closed deal in closing order (time, ties deal order),
 *   cumulative pnl_total rounded half away from zero, at the closing trade's time;
 * - cumulative_usd_open_deals_chart: per deal open at the end, in deal order, likewise, at open_time.
 */
import { describe, expect, it } from 'vitest';
import {
  at,
  buy,
  dealWithPnl,
  END,
  FREE_OPTIONS,
  LEADER_A,
  MARKET,
  near,
  nearList,
  run,
  sell,
  TOKEN_X,
  TOKEN_Y,
  TOKEN_Z,
} from '../support/scenario.js';

describe('cumulative_pnl_and_fee_chart (model 6)', () => {
  // Flat scenario with bot fees on (1 %): network fee 1 a trade, no slippage.
  // +100 A buys 1000 X at 1: A 1000; fees 1 + 10; realized −11; open X: 1000 × 1 − 1000 = 0
  // +200 MARKET prices X at 2 (no trade, no point)
  // +300 A buys 500 Y at 2: A 1000, qty 500; fees 1 + 10; realized −22;
  //      unrealized X 1000 × 2 − 1000 = 1000, Y 500 × 2 − 1000 = 0 → 1000
  // +400 A sells 1000 X at 3: V 3000, gain 2000; fees 1 + 30; realized −22 + 2000 − 31 = 1947;
  //      X closed, Y 0 → unrealized 0
  // END−10 MARKET prices Y at 4: Y's pnl_unrealized at the end = 500 × 4 − 1000 = 1000
  const response = run(
    [
      buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
      buy(MARKET, TOKEN_X, at(200), 1, 2),
      buy(LEADER_A, TOKEN_Y, at(300), 500, 2),
      sell(LEADER_A, TOKEN_X, at(400), 1000, 3),
      buy(MARKET, TOKEN_Y, END - 10, 1, 4),
    ],
    { include_bot_fees: true },
  );
  const chart = response.cumulative_pnl_and_fee_chart;

  it('has one point per trade with the running totals', () => {
    nearList(chart.pnl_realized, [-11, -22, 1947], 'pnl_realized');
    nearList(chart.pnl_unrealized, [0, 1000, 0], 'pnl_unrealized');
    nearList(chart.pnl_total, [-11, 978, 1947], 'pnl_total');
    nearList(chart.fee_sum, [11, 22, 53], 'fee_sum'); // 1 + 10, + 1 + 10, + 1 + 30
    nearList(chart.bot_fee, [10, 20, 50], 'bot_fee');
    expect(chart.deal_indexes).toEqual([0, 1, 0]);
    expect(chart.timestamps).toEqual([at(100), at(300), at(400)]);
  });

  it('ends where the deals end for realized PnL, while unrealized is valued later', () => {
    // deal 0: 2000 − (1 + 10 + 1 + 30) = 1958; deal 1: −11 realized + 1000 unrealized = 989
    near(response.deals[0]!.pnl_total, 1958, 'deal 0 pnl_total');
    near(response.deals[1]!.pnl_total, 989, 'deal 1 pnl_total');
    near(response.summary.pnl_realized, chart.pnl_realized.at(-1)!, 'realized');
    near(response.summary.pnl_total, 2947, 'summary pnl_total');
  });

  it('the deal charts', () => {
    expect(response.cumulative_usd_closed_deals_chart).toEqual({ values: [1958], timestamps: [at(400)] });
    expect(response.cumulative_usd_open_deals_chart).toEqual({ values: [989], timestamps: [at(300)] });
  });
});

describe('cumulative_usd_closed_deals_chart (model 6)', () => {
  it.each([
    // cumulative 2.5 → 3, 2.5 − 5 = −2.5 → −3 (half away from zero; half-even would give 2, −2)
    { name: 'x.5 and −x.5 round away from zero', pnls: [2.5, -5], values: [3, -3] },
    // −0.5 → −1 (Math.round would give −0)
    { name: '−0.5 rounds to −1', pnls: [-0.5], values: [-1] },
    // 0.4 → 0, 0.4 + 0.7 = 1.1 → 1: the sum is rounded, not each deal
    { name: 'the cumulative sum is rounded, not each deal', pnls: [0.4, 0.7], values: [0, 1] },
  ])('$name', ({ pnls, values }) => {
    const swaps = pnls.flatMap((pnl, k) => dealWithPnl(`Tok${k}`, pnl, at(100 * (k + 1)), at(1000 * (k + 1))));
    const chart = run(swaps, {}, FREE_OPTIONS).cumulative_usd_closed_deals_chart;
    expect(chart).toEqual({ values, timestamps: pnls.map((_, k) => at(1000 * (k + 1))) });
  });

  it('follows closing order: close time, ties in deal order', () => {
    // deal 0 (pnl 10) and deal 1 (pnl 30) close at +1000, deal 1's sell listed (executed) first;
    // deal 2 (pnl 20) closes earlier, at +500. Order: deal 2, deal 0, deal 1 → 20, 30, 60
    const swaps = [
      ...dealWithPnl('Tok1', 30, at(200), at(1000)),
      ...dealWithPnl('Tok0', 10, at(100), at(1000)),
      ...dealWithPnl('Tok2', 20, at(300), at(500)),
    ];
    const response = run(swaps, {}, FREE_OPTIONS);
    expect(response.deals.map((d) => d.token.address)).toEqual(['Tok0', 'Tok1', 'Tok2']);
    expect(response.cumulative_usd_closed_deals_chart).toEqual({
      values: [20, 30, 60],
      timestamps: [at(500), at(1000), at(1000)],
    });
  });
});

describe('cumulative_usd_open_deals_chart (model 6)', () => {
  it('lists the deals open at the end in deal order, at their open_time, rounded', () => {
    // deal 0 (X): buys 1000 at 1 at +100 and +500 → qty 2000, invested 2000; priced 1.00025 at
    //   the end → 2000 × 1.00025 − 2000 = 0.5
    // deal 1 (Y): closed with pnl 7 → only in the closed chart
    // deal 2 (Z): open, 1000 × 0.999 − 1000 = −1
    // open chart: 0.5 → 1, 0.5 − 1 = −0.5 → −1; timestamps are open_time (+100, not +500)
    const response = run(
      [
        buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
        ...dealWithPnl(TOKEN_Y, 7, at(200), at(300)),
        ...dealWithPnl(TOKEN_Z, -1, at(400), END - 5, true),
        buy(LEADER_A, TOKEN_X, at(500), 1000, 1),
        buy(MARKET, TOKEN_X, END - 5, 1, '1.00025'),
      ],
      {},
      FREE_OPTIONS,
    );
    near(response.deals[0]!.pnl_total, 0.5, 'deal 0');
    expect(response.deals[0]!.last_operation_time).toBe(at(500));
    expect(response.cumulative_usd_open_deals_chart).toEqual({ values: [1, -1], timestamps: [at(100), at(400)] });
    expect(response.cumulative_usd_closed_deals_chart).toEqual({ values: [7], timestamps: [at(300)] });
  });
});

describe("pnl_unrealized in the model's 40-digit arithmetic (model intro, 6)", () => {
  it('is the rounded product less the lot cost after a buy without slippage', () => {
    // A buys 100 X at 1.7; the copy is capped at max_buy_amount 10, without slippage or fees.
    // qty = 10 / 1.7 = 5.882352941176470588235294117647058823529 (40 digits);
    // usd_invested = the lot's cost = 10 exactly (model 1.2; 1.1 had qty × avg = 9.999…9).
    // qty × 1.7 = 9.9999999999999999999999999999999999999993 exactly, 9.999…999 (40 nines) once
    // rounded to 40 digits: the term is 9.999…999 − 10 = −1e-39.
    const response = run([buy(LEADER_A, TOKEN_X, at(100), 100, 1.7)], { max_buy_amount: 10 }, FREE_OPTIONS);
    const chart = response.cumulative_pnl_and_fee_chart;
    expect(response.deals[0]!.trades[0]!.quantity).toBe(5.882352941176471);
    expect(response.deals[0]!.trades[0]!.usd_invested).toBe(10);
    expect(chart.pnl_unrealized).toEqual([-1e-39]);
    expect(chart.pnl_total).toEqual([-1e-39]);
    expect(response.deals[0]!.pnl_unrealized).toBe(-1e-39);
  });
});
