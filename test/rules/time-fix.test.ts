/**
 * Model 3.4, the inactivity time-fix. In the middle: a deal with no follower trade for
 * hours × 3600 s is sold whole at `last_operation_time + hours × 3600` (≤ window_end) at the
 * known price and liquidity of that moment, type/tag `sell_timefix`, before any swap of the same
 * second. Final: deals still open at window_end are sold at window_end, `sell_timefix_final`.
 * Flat scenario: no slippage without liquidity, network fee 0.01 native × native price.
 */
import { describe, expect, it } from 'vitest';
import {
  at,
  buy,
  DAY_START,
  END,
  FLAT_NATIVE,
  LEADER_A,
  MARKET,
  near,
  nearAll,
  onlyDeal,
  run,
  TOKEN_X,
  TOKEN_Y,
} from '../support/scenario.js';

const ONE_HOUR = { inactivity_time_fix: { hours: 1 } };

describe('the time-fix in the middle (model 3.4)', () => {
  it('sells the whole qty at last_operation_time + hours × 3600, at the known price of that moment', () => {
    // buy 1000 at p 1 (fee 0.01 × 100 = 1); MARKET moves the known price to 2 at +1000;
    // due at 100 + 3600 = 3700: sells 1000 × 2 = 2000 (fee 0.01 × 200 = 2, native 200 from 3700);
    // MARKET's p 5 at +5000 comes after and is not used.
    const native: [number, number][] = [...FLAT_NATIVE, [at(3700), 200]];
    const deal = onlyDeal(
      run(
        [
          buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
          buy(MARKET, TOKEN_X, at(1000), 1, 2),
          buy(MARKET, TOKEN_X, at(5000), 1, 5),
        ],
        ONE_HOUR,
        undefined,
        { native_prices: native },
      ),
    );
    const fix = deal.trades[1]!;
    expect(fix.type).toBe('sell_timefix');
    expect(fix.time).toBe(at(3700));
    nearAll(
      fix,
      { quantity: 1000, usd_amount: 2000, usd_price: 2, usd_network_fee: 2, usd_invested: 0, slippage: 0 },
      'fix',
    );
    expect(fix.usd_liquidity).toBeNull();
    expect(deal.special_tag).toBe('sell_timefix');
    expect(deal.status).toBe('closed');
    expect(deal.last_operation_time).toBe(at(3700));
    // 2000 − 1000 × 1 − fees (1 + 2) = 997
    near(deal.pnl_realized, 997, 'pnl_realized');
  });

  it('sells against the known liquidity of that moment', () => {
    // the buy has no liquidity (s = 0); MARKET at +1000 brings p 2 and L 100000.
    // Time-fix: V = 1000 × 2 = 2000, s = 2000 / 50000 = 0.04, usd = 2000 / 1.04,
    // price = usd / 1000, slippage = 100 × 0.04 / 1.04
    const fix = onlyDeal(
      run(
        [buy(LEADER_A, TOKEN_X, at(100), 1000, 1), buy(MARKET, TOKEN_X, at(1000), 1, 2, { usd_liquidity: 100_000 })],
        ONE_HOUR,
      ),
    ).trades[1]!;
    expect(fix.usd_liquidity).toBe(100_000);
    nearAll(fix, { usd_amount: 2000 / 1.04, usd_price: 2 / 1.04, slippage: 4 / 1.04 }, 'fix');
  });

  it('is pushed back by every follower trade', () => {
    // buys at +100 and +1000: due at 1000 + 3600 = 4600, not 3700 (MARKET at 3700 fires nothing)
    const deal = onlyDeal(
      run(
        [
          buy(LEADER_A, TOKEN_X, at(100), 100, 1),
          buy(LEADER_A, TOKEN_X, at(1000), 100, 1),
          buy(MARKET, TOKEN_X, at(3700), 1, 1),
        ],
        ONE_HOUR,
      ),
    );
    expect(deal.trades.map((t) => [t.type, t.time - DAY_START])).toEqual([
      ['buy', 100],
      ['buy', 1000],
      ['sell_timefix', 4600],
    ]);
  });

  it('fires before a swap of the same second; a buy at that second opens a new deal', () => {
    // buy 1000 at p 1 at +0 → due at +3600. At +3600 MARKET trades at p 3 and A buys 100 at p 3.
    // The time-fix goes first, at the known price 1: 1000 × 1 = 1000 (pnl 0 − 2 fees = −2).
    // A's buy then opens deal 1 (A = 100 × 3 = 300), due at 7200, sold at 100 × 3 = 300.
    const response = run(
      [
        buy(LEADER_A, TOKEN_X, at(0), 1000, 1),
        buy(MARKET, TOKEN_X, at(3600), 1, 3),
        buy(LEADER_A, TOKEN_X, at(3600), 100, 3),
      ],
      ONE_HOUR,
    );
    expect(response.deals).toHaveLength(2);
    const [first, second] = response.deals as [(typeof response.deals)[0], (typeof response.deals)[0]];
    expect(first.trades.map((t) => [t.type, t.time - DAY_START])).toEqual([
      ['buy', 0],
      ['sell_timefix', 3600],
    ]);
    near(first.trades[1]!.usd_amount, 1000, 'first fix usd_amount');
    near(first.pnl_realized, -2, 'first pnl_realized');
    expect(second.open_time).toBe(at(3600));
    expect(second.trades.map((t) => [t.type, t.time - DAY_START])).toEqual([
      ['buy', 3600],
      ['sell_timefix', 7200],
    ]);
    near(second.trades[1]!.usd_amount, 300, 'second fix usd_amount');
  });

  it('fires due deals earliest first, ties in deal order', () => {
    // MARKET's swap makes TOKEN_Y the first token seen, so token order ≠ deal order.
    // deal 0 = X (buy +100), deal 1 = Y (buy +100): both due at +3700, sold in deal order 0, 1.
    const response = run(
      [
        buy(MARKET, TOKEN_Y, at(10), 1, 1),
        buy(LEADER_A, TOKEN_X, at(100), 100, 1),
        buy(LEADER_A, TOKEN_Y, at(100), 100, 1),
      ],
      ONE_HOUR,
    );
    const chart = response.cumulative_pnl_and_fee_chart;
    expect(response.deals.map((d) => d.token.address)).toEqual([TOKEN_X, TOKEN_Y]);
    expect(chart.deal_indexes).toEqual([0, 1, 0, 1]);
    expect(chart.timestamps.map((t) => t - DAY_START)).toEqual([100, 100, 3700, 3700]);
  });

  it('fires the earlier deadline first even when its deal opened later', () => {
    // deal 0 = Y (buys +50, +200 → due 3800), deal 1 = X (buy +100 → due 3700)
    const response = run(
      [
        buy(LEADER_A, TOKEN_Y, at(50), 100, 1),
        buy(LEADER_A, TOKEN_X, at(100), 100, 1),
        buy(LEADER_A, TOKEN_Y, at(200), 100, 1),
      ],
      ONE_HOUR,
    );
    const chart = response.cumulative_pnl_and_fee_chart;
    expect(chart.deal_indexes).toEqual([0, 1, 0, 1, 0]);
    expect(chart.timestamps.map((t) => t - DAY_START)).toEqual([50, 100, 200, 3700, 3800]);
  });
});

describe('the time-fix at window_end (model 3.4)', () => {
  // hours 1; MARKET trades at window_end at p 2. A mid time-fix due at window_end fires before
  // that swap (known price 1: 1000 × 1); the final one fires after every swap ≤ window_end
  // (known price 2: 1000 × 2).
  it.each([
    { name: 'due exactly at window_end: a mid one', buyAt: END - 3600, type: 'sell_timefix', usd: 1000 },
    { name: 'due after window_end: the final one', buyAt: END - 3599, type: 'sell_timefix_final', usd: 2000 },
  ])('$name', ({ buyAt, type, usd }) => {
    // MARKET's p 9 after window_end is ignored entirely
    const deal = onlyDeal(
      run(
        [buy(LEADER_A, TOKEN_X, buyAt, 1000, 1), buy(MARKET, TOKEN_X, END, 1, 2), buy(MARKET, TOKEN_X, END + 1, 1, 9)],
        ONE_HOUR,
      ),
    );
    const fix = deal.trades[1]!;
    expect(fix.type).toBe(type);
    expect(fix.time).toBe(END);
    expect(deal.special_tag).toBe(type);
    expect(deal.status).toBe('closed');
    near(fix.usd_amount, usd, 'usd_amount');
    near(deal.pnl_unrealized, 0, 'pnl_unrealized');
  });

  it('closes every deal still open at window_end, in deal order', () => {
    // hours 24: nothing is due before the end; both deals end with sell_timefix_final at END
    const response = run([buy(LEADER_A, TOKEN_X, at(100), 100, 1), buy(LEADER_A, TOKEN_Y, at(200), 100, 2)], {
      inactivity_time_fix: { hours: 24 },
    });
    expect(response.deals.map((d) => [d.special_tag, d.last_operation_time])).toEqual([
      ['sell_timefix_final', END],
      ['sell_timefix_final', END],
    ]);
    expect(response.cumulative_pnl_and_fee_chart.deal_indexes).toEqual([0, 1, 0, 1]);
    expect(response.cumulative_usd_open_deals_chart).toEqual({ values: [], timestamps: [] });
  });

  it('without inactivity_time_fix a deal stays open at window_end', () => {
    const deal = onlyDeal(run([buy(LEADER_A, TOKEN_X, at(100), 100, 1)], { inactivity_time_fix: null }));
    expect(deal.status).toBe('open');
    expect(deal.special_tag).toBeNull();
    expect(deal.trades_number).toBe(1);
  });
});
