/**
 * Model 2: only leader swaps with window_start ≤ time ≤ window_end are copied; swaps before the
 * window still count as price observations and for leader holdings; swaps after window_end are
 * ignored entirely. Flat scenario: no slippage without liquidity, network fee 1 USD a trade.
 */
import { describe, expect, it } from 'vitest';
import { at, buy, DAY_START, END, LEADER_A, MARKET, near, onlyDeal, run, sell, TOKEN_X } from '../support/scenario.js';

describe('the window edges (model 2)', () => {
  it.each([
    { name: 'one second before window_start', time: DAY_START - 1, copied: false },
    { name: 'at window_start', time: DAY_START, copied: true },
    { name: 'at window_end', time: END, copied: true },
    { name: 'one second after window_end', time: END + 1, copied: false },
  ])('a leader buy $name is copied: $copied', ({ time, copied }) => {
    const response = run([buy(LEADER_A, TOKEN_X, time, 100, 1)]);
    expect(response.deals.length).toBe(copied ? 1 : 0);
  });
});

describe('a window of several days (model 1.2)', () => {
  it.each([
    // 2024-03-10 .. 2024-03-12: window_end = 2024-03-12 23:59:59 = END + 2 days
    { name: 'the last second of to_date', time: END + 2 * 86_400, copied: true },
    { name: 'the first second after to_date', time: END + 2 * 86_400 + 1, copied: false },
  ])('a leader buy at $name is copied: $copied', ({ time, copied }) => {
    const response = run([buy(LEADER_A, TOKEN_X, time, 100, 1)], { to_date: '2024-03-12' });
    expect(response.deals.length).toBe(copied ? 1 : 0);
  });
});

describe('swaps before the window (model 2)', () => {
  it('count for leader holdings: f uses the whole holdings', () => {
    // h_A = 1000 (before the window, not copied) + 1000 (copied: lot_A 1000) = 2000;
    // A sells 1000 in the window: f = 1000 / 2000 = 0.5 → 500 tokens; qty 500 left
    const deal = onlyDeal(
      run([
        buy(LEADER_A, TOKEN_X, DAY_START - 3600, 1000, 1),
        buy(LEADER_A, TOKEN_X, at(60), 1000, 1),
        sell(LEADER_A, TOKEN_X, at(120), 1000, 2),
      ]),
    );
    expect(deal.trades.map((t) => t.type)).toEqual(['buy', 'sell']);
    near(deal.trades[1]!.quantity, 500, 'sold');
    expect(deal.status).toBe('open');
  });

  it('a sell before the window is not copied but lowers the holdings', () => {
    // h_A: +1000 − 600 (both before the window) = 400; +100 copied (lot 100) → 500;
    // A sells 250: f = 250 / 500 = 0.5 → 50 tokens
    const deal = onlyDeal(
      run([
        buy(LEADER_A, TOKEN_X, DAY_START - 7200, 1000, 1),
        sell(LEADER_A, TOKEN_X, DAY_START - 3600, 600, 1),
        buy(LEADER_A, TOKEN_X, at(60), 100, 1),
        sell(LEADER_A, TOKEN_X, at(120), 250, 1),
      ]),
    );
    near(deal.trades[1]!.quantity, 50, 'sold');
  });

  it('count as price observations: their liquidity is the known liquidity of a later copy', () => {
    // MARKET's swap before the window carries liquidity 100000; A's buy has none, so
    // L = 100000: s = 1000 / 50000 = 0.02, price 1 × 1.02, quantity 1000 / 1.02
    const trade = onlyDeal(
      run([
        buy(MARKET, TOKEN_X, DAY_START - 60, 5, 1, { usd_liquidity: 100_000 }),
        buy(LEADER_A, TOKEN_X, at(60), 1000, 1),
      ]),
    ).trades[0]!;
    expect(trade.usd_liquidity).toBe(100_000);
    near(trade.usd_price, 1.02, 'usd_price');
    near(trade.quantity, 1000 / 1.02, 'quantity');
  });
});

describe('swaps after window_end (model 2)', () => {
  it('have no price effect and a leader sell after the end is not copied', () => {
    // buy 1000 at p 1; MARKET at window_end sets the known price to 2; MARKET after the end (p 3)
    // and A's sell after the end are ignored. pnl_unrealized = 1000 × 2 − 1000 = 1000
    const deal = onlyDeal(
      run([
        buy(LEADER_A, TOKEN_X, at(60), 1000, 1),
        buy(MARKET, TOKEN_X, END, 1, 2),
        buy(MARKET, TOKEN_X, END + 1, 1, 3),
        sell(LEADER_A, TOKEN_X, END + 2, 1000, 3),
      ]),
    );
    expect(deal.trades_number).toBe(1);
    expect(deal.status).toBe('open');
    near(deal.pnl_unrealized, 1000, 'pnl_unrealized');
  });
});
