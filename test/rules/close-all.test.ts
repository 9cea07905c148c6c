/**
 * Model 3.2 with close_all: a sell of any leader sells the follower's whole qty (all lots) in
 * one `sell` trade and closes the deal with special_tag "close_all".
 * Flat scenario: no slippage, network fee 1 USD a trade.
 */
import { describe, expect, it } from 'vitest';
import { at, buy, LEADER_A, LEADER_B, MARKET, near, onlyDeal, run, sell, TOKEN_X } from '../support/scenario.js';

const CLOSE_ALL = { wallets: [LEADER_A, LEADER_B], close_all: true };
// A buys 1000 at p 1 (lot_A 1000), B buys 500 at p 1 (lot_B 500): qty 1500, avg 1
const opening = [buy(LEADER_A, TOKEN_X, at(100), 1000, 1), buy(LEADER_B, TOKEN_X, at(200), 500, 1)];

describe('close_all (model 3.2)', () => {
  it.each([
    // B sells only 100 of h_B 500, yet the follower sells all 1500
    { name: 'a small sell of one leader', seller: LEADER_B, q: 100 },
    { name: 'a sell of the other leader', seller: LEADER_A, q: 1 },
  ])('$name sells the whole qty in one sell trade', ({ seller, q }) => {
    const deal = onlyDeal(run([...opening, sell(seller, TOKEN_X, at(300), q, 2)], CLOSE_ALL));
    expect(deal.trades.map((t) => t.type)).toEqual(['buy', 'buy', 'sell']);
    const last = deal.trades[2]!;
    near(last.quantity, 1500, 'sold'); // lot_A 1000 + lot_B 500
    near(last.usd_amount, 3000, 'usd_amount'); // 1500 × 2
    near(last.usd_invested, 0, 'usd_invested');
    expect(deal.status).toBe('closed');
    expect(deal.special_tag).toBe('close_all');
    near(deal.closed_position, 100, 'closed_position');
    // 3000 − 1500 × 1 − 3 fees = 1497
    near(deal.pnl_realized, 1497, 'pnl_realized');
  });

  it('closes on a sell of a leader who holds no lot', () => {
    // B never bought: lot_B 0, h_B 0, but close_all sells everything anyway
    const deal = onlyDeal(
      run([buy(LEADER_A, TOKEN_X, at(100), 1000, 1), sell(LEADER_B, TOKEN_X, at(200), 5, 1)], CLOSE_ALL),
    );
    expect(deal.special_tag).toBe('close_all');
    near(deal.trades[1]!.quantity, 1000, 'sold');
  });

  it('ignores sells of unfollowed wallets and sells with no open deal', () => {
    const response = run(
      [
        sell(LEADER_A, TOKEN_X, at(50), 10, 1),
        buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
        sell(MARKET, TOKEN_X, at(200), 1000, 1),
      ],
      CLOSE_ALL,
    );
    expect(onlyDeal(response).status).toBe('open');
    expect(onlyDeal(response).trades_number).toBe(1);
  });

  it('without close_all the same sell is proportional and leaves no tag', () => {
    // B sells 100 of h_B 500: f = 0.2 → 0.2 × lot_B 500 = 100 tokens
    const deal = onlyDeal(
      run([...opening, sell(LEADER_B, TOKEN_X, at(300), 100, 2)], { ...CLOSE_ALL, close_all: false }),
    );
    near(deal.trades[2]!.quantity, 100, 'sold');
    expect(deal.special_tag).toBeNull();
    expect(deal.status).toBe('open');
  });
});
