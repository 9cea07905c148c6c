/**
 * Model 3 and 3.2: one deal per token shared by all leaders, one lot per leader inside it;
 * a leader sell of q with holdings h sells f × lot_L, f = q / h (f = 1 when h ≤ q);
 * leader holdings (section 2) are floored at 0.
 * Flat scenario: no slippage, network fee 1 USD a trade (0.01 native × 100).
 */
import { describe, expect, it } from 'vitest';
import {
  at,
  buy,
  LEADER_A,
  LEADER_B,
  LEADER_C,
  MARKET,
  near,
  nearList,
  onlyDeal,
  run,
  sell,
  TOKEN_X,
} from '../support/scenario.js';

const AB = { wallets: [LEADER_A, LEADER_B] };

describe('two leaders in one deal (model 3, 3.2)', () => {
  // A buys 1000 at p 1 → lot_A 1000 (A = min(1000, 1000, 10000));
  // B buys 500 at p 1 → lot_B 500; qty 1500, bought_usd 1500, avg 1.
  const opening = [buy(LEADER_A, TOKEN_X, at(100), 1000, 1), buy(LEADER_B, TOKEN_X, at(200), 500, 1)];

  it('shares one deal and sells from each leader’s own lot, proportionally', () => {
    const deal = onlyDeal(
      run(
        [
          ...opening,
          // A sells 250 of h_A = 1000: f = 0.25 → 0.25 × lot_A 1000 = 250 tokens, V = 250 × 2 = 500
          sell(LEADER_A, TOKEN_X, at(300), 250, 2),
          // B sells 500 of h_B = 500: h ≤ q → f = 1 → the whole lot_B 500, V = 1000
          sell(LEADER_B, TOKEN_X, at(400), 500, 2),
          // A sells 750 of h_A = 750: f = 1 → lot_A 750, V = 1500; qty 0 → closed
          sell(LEADER_A, TOKEN_X, at(500), 750, 2),
        ],
        AB,
      ),
    );
    expect(deal.trades.map((t) => t.type)).toEqual(['buy', 'buy', 'sell', 'sell', 'sell']);
    nearList(
      deal.trades.map((t) => t.quantity),
      [1000, 500, 250, 500, 750],
      'quantity',
    );
    nearList(
      deal.trades.map((t) => t.usd_amount!),
      [1000, 500, 500, 1000, 1500],
      'usd_amount',
    );
    // usd_invested = qty × avg 1 after each trade: 1000, 1500, 1250, 750, 0
    nearList(
      deal.trades.map((t) => t.usd_invested),
      [1000, 1500, 1250, 750, 0],
      'usd_invested',
    );
    expect(deal.status).toBe('closed');
    expect(deal.special_tag).toBeNull();
    // (500 − 250) + (1000 − 500) + (1500 − 750) − 5 trades × 1 fee = 1495
    near(deal.pnl_realized, 1495, 'pnl_realized');
  });

  it('leaves the other leader’s lot intact when one leader sells all', () => {
    // A sells 1000 of h_A 1000: f = 1 → 1000 tokens; lot_B 500 stays, qty 500, deal open
    const deal = onlyDeal(run([...opening, sell(LEADER_A, TOKEN_X, at(300), 1000, 1)], AB));
    expect(deal.status).toBe('open');
    near(deal.trades[2]!.quantity, 1000, 'sold');
    near(deal.trades[2]!.usd_invested, 500, 'usd_invested after'); // 500 × avg 1
    near(deal.closed_position, (100 * 1000) / 1500, 'closed_position'); // 66.666…
  });

  it.each([
    // B is followed but never bought: lot_B = 0 → nothing (close_all off)
    {
      name: 'a leader who never bought',
      swaps: [buy(LEADER_A, TOKEN_X, at(100), 1000, 1), sell(LEADER_B, TOKEN_X, at(200), 10, 1)],
    },
    // B bought but the dupe limit skipped the copy: holdings 500, lot_B still 0
    {
      name: 'a leader whose buy was skipped',
      swaps: [
        buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
        buy(LEADER_B, TOKEN_X, at(150), 500, 1),
        sell(LEADER_B, TOKEN_X, at(200), 500, 1),
      ],
    },
  ])('a sell by $name (no lot) does nothing', ({ swaps }) => {
    const deal = onlyDeal(run(swaps, { ...AB, max_dupe_buy_times: 0 }));
    expect(deal.trades.map((t) => t.type)).toEqual(['buy']);
    expect(deal.status).toBe('open');
  });

  it('a sell with no open deal does nothing', () => {
    expect(run([sell(LEADER_A, TOKEN_X, at(100), 10, 1)]).deals).toEqual([]);
  });
});

describe('the sell fraction f and leader holdings (model 2, 3.2)', () => {
  it('uses the leader’s holdings, not the follower’s lot: f = q / h', () => {
    // A buys 1000 at p 1 but max_buy_amount 100 → lot_A 100 tokens, h_A 1000.
    // A sells 250: f = 250 / 1000 = 0.25 → 0.25 × 100 = 25 tokens
    const deal = onlyDeal(
      run([buy(LEADER_A, TOKEN_X, at(100), 1000, 1), sell(LEADER_A, TOKEN_X, at(200), 250, 1)], {
        max_buy_amount: 100,
      }),
    );
    near(deal.trades[1]!.quantity, 25, 'sold');
  });

  it('a sell bigger than the holdings sells the whole lot (f = 1)', () => {
    // h_A 1000 ≤ q 3000 → f = 1 → lot_A 1000, deal closed
    const deal = onlyDeal(run([buy(LEADER_A, TOKEN_X, at(100), 1000, 1), sell(LEADER_A, TOKEN_X, at(200), 3000, 1)]));
    near(deal.trades[1]!.quantity, 1000, 'sold');
    expect(deal.status).toBe('closed');
    near(deal.closed_position, 100, 'closed_position');
  });

  it('floors holdings at 0 after an oversized sell', () => {
    // h_A: +1000, −3000 → max(−2000, 0) = 0; then +400 → 400 (unfloored it would be −1600).
    // The new deal's lot_A is 400; A sells 200: f = 200 / 400 = 0.5 → 200 tokens.
    // Unfloored, h = −1600 ≤ 200 would give f = 1 and sell all 400.
    const response = run([
      buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
      sell(LEADER_A, TOKEN_X, at(200), 3000, 1),
      buy(LEADER_A, TOKEN_X, at(300), 400, 1),
      sell(LEADER_A, TOKEN_X, at(400), 200, 1),
    ]);
    expect(response.deals).toHaveLength(2);
    const second = response.deals[1]!;
    near(second.trades[1]!.quantity, 200, 'sold');
    expect(second.status).toBe('open');
  });

  it('tracks holdings per leader and token, ignoring other wallets', () => {
    // MARKET's buys do not add to h_A; C's buys do not add to h_A either.
    // h_A = 1000; A sells 500 → f = 0.5 → 500 of lot_A 1000.
    const deal = onlyDeal(
      run(
        [
          buy(MARKET, TOKEN_X, at(50), 9000, 1),
          buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
          buy(LEADER_C, TOKEN_X, at(150), 3000, 1),
          sell(LEADER_A, TOKEN_X, at(200), 500, 1),
        ],
        { wallets: [LEADER_A, LEADER_C], max_dupe_buy_times: 0 },
      ),
    );
    near(deal.trades[1]!.quantity, 500, 'sold');
  });
});
