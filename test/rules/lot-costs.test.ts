/**
 * Model 1.2: each lot keeps its cost, a sell removes `cost_L × x / lot_L` (all of it when the lot
 * empties), `usd_invested = Σ cost_L`, `usd_buy_price_avg = usd_invested / qty`; a leader selling
 * all but a millionth is a full sell; the engine options `assumed_liquidity_usd` and
 * `min_price_swap_usd`. Flat scenario: no slippage unless said, 1 USD network fee a trade.
 */
import { describe, expect, it } from 'vitest';
import {
  at,
  buy,
  FREE_OPTIONS,
  LEADER_A,
  LEADER_B,
  MARKET,
  near,
  nearList,
  onlyDeal,
  run,
  sell,
  TOKEN_X,
} from '../support/scenario.js';

describe('lot costs (model 1.2, 3)', () => {
  it("a closed deal's realized PnL is its cash flow", () => {
    // Buy 100 at 10 (1000 USD), sell 50 at 10 (500), buy 50 at 1 (50), sell 100 at 2 (200):
    // paid 1050, received 700 → −350 (the 1.1 model's average of all buys gave −500).
    const deal = onlyDeal(
      run(
        [
          buy(LEADER_A, TOKEN_X, at(100), 100, 10),
          sell(LEADER_A, TOKEN_X, at(200), 50, 10), // f = 50 / 100 → 50 of lot 100, basis 1000 × 50 / 100 = 500
          buy(LEADER_A, TOKEN_X, at(300), 50, 1), // lot 100, cost 500 + 50 = 550, avg 5.5
          sell(LEADER_A, TOKEN_X, at(400), 100, 2), // h = 100 → f = 1: the whole lot, basis 550
        ],
        {},
        FREE_OPTIONS,
      ),
    );
    expect(deal.status).toBe('closed');
    near(deal.pnl_realized, -350, 'pnl_realized'); // (500 − 500) + (200 − 550)
    nearList(
      deal.trades.map((t) => t.usd_invested),
      [1000, 500, 550, 0],
      'usd_invested',
    );
    // avg: 10, 10 (500 / 50), 5.5 (550 / 100), and the emptied deal keeps 5.5
    nearList(
      deal.trades.map((t) => t.usd_buy_price_avg),
      [10, 10, 5.5, 5.5],
      'usd_buy_price_avg',
    );
  });

  it('two lots of different cost: a sell from one moves the average', () => {
    // A buys 100 at 1 (lot_A 100, cost 100); B buys 100 at 3 (lot_B 100, cost 300): avg 2.
    // B sells all: basis 300 → invested 100, qty 100, avg 1 (1.1 would keep 2).
    const deal = onlyDeal(
      run(
        [
          buy(LEADER_A, TOKEN_X, at(100), 100, 1),
          buy(LEADER_B, TOKEN_X, at(200), 100, 3),
          sell(LEADER_B, TOKEN_X, at(300), 100, 3),
        ],
        { wallets: [LEADER_A, LEADER_B] },
        FREE_OPTIONS,
      ),
    );
    nearList(
      deal.trades.map((t) => t.usd_buy_price_avg),
      [1, 2, 1],
      'usd_buy_price_avg',
    );
    nearList(
      deal.trades.map((t) => t.usd_invested),
      [100, 400, 100],
      'usd_invested',
    );
    near(deal.pnl_realized, 0, 'pnl_realized'); // 300 received − 300 basis
    near(deal.pnl_unrealized, 300 - 100, 'pnl_unrealized'); // 100 × known price 3 − 100
  });

  it('a leader selling all but a millionth sells the whole lot; a larger rest is a fraction', () => {
    // h = 1000: q = 999.999 ≥ 1000 × (1 − 10⁻⁶) = 999.999 → f = 1, the deal closes.
    const dust = onlyDeal(
      run([buy(LEADER_A, TOKEN_X, at(100), 1000, 1), sell(LEADER_A, TOKEN_X, at(200), '999.999', 1)], {}, FREE_OPTIONS),
    );
    expect(dust.status).toBe('closed');
    near(dust.trades[1]!.quantity, 1000, 'sold');
    // q = 999.998 < 999.999 → f = 0.999998: 999.998 sold, 0.002 left open.
    const rest = onlyDeal(
      run([buy(LEADER_A, TOKEN_X, at(100), 1000, 1), sell(LEADER_A, TOKEN_X, at(200), '999.998', 1)], {}, FREE_OPTIONS),
    );
    expect(rest.status).toBe('open');
    near(rest.trades[1]!.quantity, 999.998, 'sold');
  });
});

describe('engine options of model 1.2 (1.3)', () => {
  it('assumed_liquidity_usd makes unknown liquidity slip by size, and stays unknown in the record', () => {
    // L = 2000: a buy of 100 at 1 → s = 100 / 1000 = 0.1, price 1.1, quantity 100 / 1.1
    const deal = onlyDeal(
      run([buy(LEADER_A, TOKEN_X, at(100), 100, 1)], {}, { ...FREE_OPTIONS, assumed_liquidity_usd: 2000 }),
    );
    const trade = deal.trades[0]!;
    near(trade.usd_price, 1.1, 'usd_price');
    near(trade.quantity, 100 / 1.1, 'quantity');
    near(trade.slippage, 10, 'slippage');
    expect(trade.usd_liquidity).toBeNull();
  });

  it('a swap below min_price_swap_usd sets no known price, but an immediate copy of it trades at its own price', () => {
    const swaps = [
      buy(MARKET, TOKEN_X, at(50), 100, 1), // 100 USD: a price observation, known price 1
      buy(LEADER_A, TOKEN_X, at(100), 5, 2), // 10 USD < 50: no observation; copied at 2 → 5 tokens
      buy(MARKET, TOKEN_X, at(150), 1, 100), // 100 USD at 100... an observation: known price 100
      buy(MARKET, TOKEN_X, at(200), '0.01', 1000), // 10 USD: not one
    ];
    const deal = onlyDeal(run(swaps, {}, { ...FREE_OPTIONS, min_price_swap_usd: 50 }));
    near(deal.trades[0]!.usd_price, 2, 'copied at its own price');
    near(deal.trades[0]!.quantity, 5, 'quantity');
    near(deal.pnl_unrealized, 5 * 100 - 10, 'valued at the last observation, 100, not 1000');
  });
});
