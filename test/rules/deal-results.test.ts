/**
 * Model 3 (deal state) and 4 (deal results) and 5 (summary sums):
 * usd_buy_price_avg = bought_usd / bought_qty, usd_invested = qty × avg,
 * pnl_realized = Σ sells (usd_amount − quantity × avg) − Σ fees, pnl_unrealized = qty × known
 * price at window_end − usd_invested, roi = 100 × pnl / investment_amount,
 * closed_position = 100 × sold / bought_qty. Flat scenario: no slippage, network fee 1 a trade.
 */
import { describe, expect, it } from 'vitest';
import {
  at,
  buy,
  END,
  LEADER_A,
  MARKET,
  nearAll,
  nearList,
  onlyDeal,
  run,
  sell,
  TOKEN_X,
} from '../support/scenario.js';

describe('an open deal after a partial sell (model 4)', () => {
  // buy 1000 at p 1 (A 1000) → qty 1000, bought 1000 USD / 1000 tokens, avg 1, invested 1000
  // buy 500 at p 2 (A = 1000) → qty 1500, bought 2000 / 1500, avg 4/3, invested 1500 × 4/3 = 2000
  // sell 750 at p 3: h = 1500, f = 0.5 → 750 tokens, V = 2250, gain 2250 − 750 × 4/3 = 1250;
  //   qty 750, invested 750 × 4/3 = 1000
  // MARKET at p 2.5 before window_end: pnl_unrealized = 750 × 2.5 − 1000 = 875
  const swaps = [
    buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
    buy(LEADER_A, TOKEN_X, at(200), 500, 2),
    sell(LEADER_A, TOKEN_X, at(300), 750, 3),
    buy(MARKET, TOKEN_X, END - 10, 1, 2.5),
  ];
  const response = run(swaps, {}, undefined, { tokens: { [TOKEN_X]: { name: 'Token X', symbol: 'TX' } } });
  const deal = onlyDeal(response);

  it('records usd_buy_price_avg and usd_invested after every trade', () => {
    nearList(
      deal.trades.map((t) => t.usd_buy_price_avg),
      [1, 4 / 3, 4 / 3],
      'usd_buy_price_avg',
    );
    nearList(
      deal.trades.map((t) => t.usd_invested),
      [1000, 2000, 1000],
      'usd_invested',
    );
    nearList(
      deal.trades.map((t) => t.quantity),
      [1000, 500, 750],
      'quantity',
    );
  });

  it('gives the deal results', () => {
    expect(deal).toMatchObject({
      status: 'open',
      special_tag: null,
      trades_number: 3,
      open_time: at(100),
      last_operation_time: at(300),
      token: { address: TOKEN_X, name: 'Token X', symbol: 'TX' },
    });
    nearAll(
      deal,
      {
        investment_amount: 2000,
        pnl_realized: 1247, // 1250 − 3 fees
        pnl_unrealized: 875,
        pnl_total: 2122, // 1247 + 875
        roi_realized: 62.35, // 100 × 1247 / 2000
        roi_total: 106.1, // 100 × 2122 / 2000
        closed_position: 50, // 100 × 750 / 1500
        usd_network_fee: 3,
        usd_bot_fee: 0,
        usd_slippage_loss: 0,
      },
      'deal',
    );
  });

  it('sums the summary', () => {
    nearAll(
      response.summary,
      {
        pnl_realized: 1247,
        pnl_unrealized: 875,
        pnl_total: 2122,
        roi_realized: 62.35,
        roi_total: 106.1,
        investment_amount: 2000,
        investment_amount_open_deals: 2000,
        investment_amount_closed_deals: 0,
        trading_volume: 4250, // 1000 + 1000 + 2250
        network_fees: 3,
        bot_fees: 0,
        slippage_loss: 0,
      },
      'summary',
    );
  });
});

describe('closed deals (model 4)', () => {
  it.each([
    // buy 1000 at 1, sell all at 0.5: gain 500 − 1000 = −500, fees 2 → −502, roi −50.2
    { name: 'a loss', exit: 0.5, pnl: -502, roi: -50.2 },
    // sell all at 1.5: gain 500 − 2 = 498, roi 49.8
    { name: 'a gain', exit: 1.5, pnl: 498, roi: 49.8 },
  ])('$name: pnl_realized $pnl, roi $roi, nothing unrealized', ({ exit, pnl, roi }) => {
    const response = run([
      buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
      sell(LEADER_A, TOKEN_X, at(200), 1000, exit),
      buy(MARKET, TOKEN_X, at(300), 1, 9),
    ]);
    const deal = onlyDeal(response);
    expect(deal.status).toBe('closed');
    // closed: pnl_unrealized 0 whatever the later price (MARKET at 9)
    nearAll(
      deal,
      { pnl_realized: pnl, pnl_unrealized: 0, pnl_total: pnl, roi_realized: roi, roi_total: roi, closed_position: 100 },
      'deal',
    );
    nearAll(response.summary, { investment_amount_closed_deals: 1000, investment_amount_open_deals: 0 }, 'summary');
  });

  it('token metadata is null when unknown', () => {
    expect(onlyDeal(run([buy(LEADER_A, TOKEN_X, at(100), 1, 1)])).token).toEqual({
      address: TOKEN_X,
      name: null,
      symbol: null,
    });
  });

  it('an empty run has a zero summary (roi 0 without investment)', () => {
    const response = run([buy(MARKET, TOKEN_X, at(100), 1, 1)]);
    expect(response.deals).toEqual([]);
    expect(Object.values(response.summary).every((v) => v === 0)).toBe(true);
  });
});
