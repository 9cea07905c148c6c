/**
 * Model 3.3, executing a follower trade against a constant-product pool whose USD side holds
 * L / 2:
 * - buy of A USD: s = A / (L/2), price p(1 + s), quantity A / (p(1 + s)), slippage 100 s,
 *   loss A − quantity × p;
 * - sell of Q: V = Q p, s = V / (L/2), usd_amount V / (1 + s), price usd_amount / Q,
 *   slippage 100 s / (1 + s), loss V − usd_amount;
 * - L unknown: s = unknown_liquidity_slippage_percent / 100 in the same formulas.
 * L is the copied swap's liquidity, else the token's known liquidity (the last non-null one).
 */
import { describe, expect, it } from 'vitest';
import {
  at,
  buy,
  FLAT_OPTIONS,
  LEADER_A,
  MARKET,
  near,
  nearAll,
  onlyDeal,
  run,
  sell,
  TOKEN_X,
} from '../support/scenario.js';

describe('a buy against known liquidity (model 3.3)', () => {
  it.each([
    // s = 1000 / 50000 = 0.02; price 1.02; quantity 1000 / 1.02; loss 1000 − 1000/1.02 × 1
    { A: 1000, p: 1, L: 100_000, price: 1.02, quantity: 1000 / 1.02, slippage: 2, loss: 1000 - 1000 / 1.02 },
    // s = 0.02; price 2.04; quantity 1000 / 2.04; loss 1000 − (1000/2.04) × 2
    { A: 1000, p: 2, L: 100_000, price: 2.04, quantity: 1000 / 2.04, slippage: 2, loss: 1000 - 2000 / 2.04 },
    // s = 500 / 10000 = 0.05; price 1.05; quantity 500 / 1.05; loss 500 − 500/1.05
    { A: 500, p: 1, L: 20_000, price: 1.05, quantity: 500 / 1.05, slippage: 5, loss: 500 - 500 / 1.05 },
  ])('A $A at p $p, L $L: price $price, slippage $slippage %', ({ A, p, L, price, quantity, slippage, loss }) => {
    // the leader's a = (A / p) × p = A, and max_buy_amount 1000 ≥ A
    const deal = onlyDeal(run([buy(LEADER_A, TOKEN_X, at(100), A / p, p, { usd_liquidity: L })]));
    const trade = deal.trades[0]!;
    nearAll(trade, { usd_amount: A, usd_price: price, quantity, slippage, usd_liquidity: L }, 'buy');
    near(deal.usd_slippage_loss, loss, 'usd_slippage_loss');
    // avg = bought_usd / bought_qty = A / quantity = price; invested = quantity × avg = A
    nearAll(trade, { usd_buy_price_avg: price, usd_invested: A }, 'buy');
  });
});

describe('a sell against known liquidity (model 3.3)', () => {
  it('applies s = V / (L/2) and divides V by 1 + s', () => {
    // buy 1000 at p 1 with no liquidity and flat slippage 0 → 1000 tokens;
    // sell all at p 2, L 100000: V = 2000, s = 2000 / 50000 = 0.04, usd = 2000 / 1.04,
    // price = 2 / 1.04, slippage = 100 × 0.04 / 1.04 = 4 / 1.04, loss = 2000 − 2000/1.04
    const deal = onlyDeal(
      run([
        buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
        sell(LEADER_A, TOKEN_X, at(200), 1000, 2, { usd_liquidity: 100_000 }),
      ]),
    );
    const trade = deal.trades[1]!;
    nearAll(
      trade,
      { quantity: 1000, usd_amount: 2000 / 1.04, usd_price: 2 / 1.04, slippage: 4 / 1.04, usd_liquidity: 100_000 },
      'sell',
    );
    near(deal.usd_slippage_loss, 2000 - 2000 / 1.04, 'usd_slippage_loss');
    // gain = 2000/1.04 − 1000 × 1; fees 2 × 1
    near(deal.pnl_realized, 2000 / 1.04 - 1000 - 2, 'pnl_realized');
  });
});

describe('the unknown-liquidity fallback (model 3.3)', () => {
  it.each([
    { percent: 1, s: 0.01 },
    { percent: 5, s: 0.05 },
  ])('unknown_liquidity_slippage_percent $percent: s = $s in both formulas', ({ percent, s }) => {
    // buy A 1000 at p 1: price 1 + s, quantity 1000 / (1 + s), slippage 100 s;
    // sell all Q = 1000 / (1 + s) at p 2: V = 2000 / (1 + s), usd = V / (1 + s),
    // price = usd / Q = 2 / (1 + s), slippage = 100 s / (1 + s)
    const options = { ...FLAT_OPTIONS, unknown_liquidity_slippage_percent: percent };
    const deal = onlyDeal(
      run([buy(LEADER_A, TOKEN_X, at(100), 1000, 1), sell(LEADER_A, TOKEN_X, at(200), 1000, 2)], {}, options),
    );
    const [bought, sold] = deal.trades as [(typeof deal.trades)[0], (typeof deal.trades)[0]];
    const Q = 1000 / (1 + s);
    const V = 2000 / (1 + s);
    nearAll(bought, { usd_price: 1 + s, quantity: Q, slippage: 100 * s }, 'buy');
    nearAll(
      sold,
      { quantity: Q, usd_amount: V / (1 + s), usd_price: 2 / (1 + s), slippage: (100 * s) / (1 + s) },
      'sell',
    );
    expect(bought.usd_liquidity).toBeNull();
    expect(sold.usd_liquidity).toBeNull();
    // losses: (1000 − Q × 1) + (V − V / (1 + s))
    near(deal.usd_slippage_loss, 1000 - Q + (V - V / (1 + s)), 'usd_slippage_loss');
  });

  it('the default option is 1 %', () => {
    // no unknown_liquidity_slippage_percent given: s = 0.01, buy price 1.01
    const trade = onlyDeal(run([buy(LEADER_A, TOKEN_X, at(100), 1000, 1)], {}, {})).trades[0]!;
    nearAll(trade, { usd_price: 1.01, slippage: 1 }, 'buy');
  });
});

describe('the liquidity used (model 3.3)', () => {
  it('carries the known liquidity from earlier swaps when the copied swap has none', () => {
    // MARKET L 100000 → A's buy (no L) uses 100000: s 0.02, quantity 1000/1.02.
    // MARKET L 200000 → A's sell (null L) uses 200000: Q = 1000/1.02, V = 2000/1.02,
    // s = V / 100000 = 0.02/1.02, 1 + s = 1.04/1.02 → usd = V / (1 + s) = 2000/1.04,
    // slippage = 100 s / (1 + s) = 2 / 1.04
    const deal = onlyDeal(
      run([
        buy(MARKET, TOKEN_X, at(10), 1, 1, { usd_liquidity: 100_000 }),
        buy(LEADER_A, TOKEN_X, at(20), 1000, 1),
        buy(MARKET, TOKEN_X, at(30), 1, 1, { usd_liquidity: 200_000 }),
        buy(MARKET, TOKEN_X, at(35), 1, 1, { usd_liquidity: null }),
        sell(LEADER_A, TOKEN_X, at(40), 1000, 2, { usd_liquidity: null }),
      ]),
    );
    const [bought, sold] = deal.trades as [(typeof deal.trades)[0], (typeof deal.trades)[0]];
    nearAll(bought, { usd_liquidity: 100_000, usd_price: 1.02, quantity: 1000 / 1.02 }, 'buy');
    nearAll(sold, { usd_liquidity: 200_000, usd_amount: 2000 / 1.04, slippage: 2 / 1.04 }, 'sell');
  });

  it('the copied swap’s own liquidity wins over the known one', () => {
    // known L 100000, the leader's buy carries 20000: s = 1000 / 10000 = 0.1, price 1.1
    const trade = onlyDeal(
      run([
        buy(MARKET, TOKEN_X, at(10), 1, 1, { usd_liquidity: 100_000 }),
        buy(LEADER_A, TOKEN_X, at(20), 1000, 1, { usd_liquidity: 20_000 }),
      ]),
    ).trades[0]!;
    nearAll(trade, { usd_liquidity: 20_000, usd_price: 1.1, slippage: 10 }, 'buy');
  });

  it('liquidity of another token is not used', () => {
    // another token carries L, TOKEN_X none: X's buy falls back to s = 0 (flat options)
    const trade = onlyDeal(
      run([
        buy(MARKET, 'TokenOther', at(10), 1, 1, { usd_liquidity: 100_000 }),
        buy(LEADER_A, TOKEN_X, at(20), 1000, 1),
      ]),
    ).trades[0]!;
    expect(trade.usd_liquidity).toBeNull();
    near(trade.usd_price, 1, 'usd_price');
  });
});
