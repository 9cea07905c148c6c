/**
 * Strategy extensions (model 2.0) section 6: scheduled actions, and the max-hold exit.
 * - max-hold exit: at open_time + max_hold_hours × 3600 (when ≤ window_end) the whole qty is sold
 *   at the known price and liquidity of that moment; trade `sell_max_hold`, tag `max_hold`;
 * - step 1 of a swap fires, while one is due at or before its time: the earliest due time first;
 *   at equal times time-fixes (deal order), then max-hold exits (deal order), then pending copies
 *   (schedule order); a closed deal has no time-fix or max-hold exit; a trade moves the time-fix.
 * Flat scenario (test/support/scenario.ts): no slippage without liquidity, 1 USD network fee a trade.
 */
import { describe, expect, it } from 'vitest';
import type { SimulatorRequestInput } from '../../src/model/request.js';
import type { SimulatedDeal, SimulatorResponse } from '../../src/model/response.js';
import {
  at,
  buy,
  DAY_START,
  END,
  FLAT_OPTIONS,
  LEADER_A,
  LEADER_B,
  MARKET,
  near,
  nearAll,
  nearList,
  onlyDeal,
  run,
  sell,
  TOKEN_X,
  TOKEN_Y,
} from '../support/scenario.js';

type Swap = Parameters<typeof run>[0][number];

interface SkippedCopy {
  readonly time: number;
  readonly wallet: string;
  readonly token: string;
  readonly type: 'buy' | 'sell';
  readonly reason: string;
}
type StrategyResponse = SimulatorResponse & { skipped_copies?: SkippedCopy[] };

/** `run` with a `strategy` member (the request input type may not know it yet). */
function runStrategy(
  swaps: Swap[],
  strategy: Record<string, unknown>,
  overrides: Partial<SimulatorRequestInput> = {},
): StrategyResponse {
  return run(swaps, { ...overrides, strategy } as Partial<SimulatorRequestInput>, FLAT_OPTIONS) as StrategyResponse;
}

/** The trades of a deal as [type, seconds after window_start]. */
function shape(deal: SimulatedDeal): [string, number][] {
  return deal.trades.map((t) => [t.type, t.time - DAY_START]);
}

describe('the max-hold exit (strategy 6)', () => {
  it('sells the whole qty at open_time + H × 3600 at the known price and liquidity; not moved by trades', () => {
    // max_hold_hours 1. +100 A buys 1000 at 1 (open_time +100 → due +3700).
    // +2000 A buys 500 at 1 (qty 1500; the max-hold exit stays at +3700, it counts from open_time).
    // +3000 MARKET at 2 with L 100000. +3700 MARKET at 5: the exit fires before it (step 1).
    // Sell of 1500 at p 2, L 100000: V = 3000, s = 3000 / 50000 = 0.06, usd_amount = 3000 / 1.06
    // = 2830.188…, price = usd / 1500 = 1.8867…, slippage = 6 / 1.06 = 5.660…
    // pnl_realized = 3000 / 1.06 − 1500 − 3 fees = 1327.188…
    const deal = onlyDeal(
      runStrategy(
        [
          buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
          buy(LEADER_A, TOKEN_X, at(2000), 500, 1),
          buy(MARKET, TOKEN_X, at(3000), 1, 2, { usd_liquidity: 100_000 }),
          buy(MARKET, TOKEN_X, at(3700), 1, 5),
        ],
        { max_hold_hours: 1 },
      ),
    );
    expect(shape(deal)).toEqual([
      ['buy', 100],
      ['buy', 2000],
      ['sell_max_hold', 3700],
    ]);
    const exit = deal.trades[2]!;
    expect(exit.usd_liquidity).toBe(100_000);
    nearAll(
      exit,
      { quantity: 1500, usd_amount: 3000 / 1.06, usd_price: 3000 / 1.06 / 1500, slippage: 6 / 1.06, usd_invested: 0 },
      'exit',
    );
    expect(deal.status).toBe('closed');
    expect(deal.special_tag).toBe('max_hold');
    expect(deal.last_operation_time).toBe(at(3700));
    near(deal.pnl_realized, 3000 / 1.06 - 1503, 'pnl_realized');
  });

  it('a deal closed before its due time has no max-hold exit; a new deal counts from its own open_time', () => {
    // max_hold_hours 1. Deal 0: buy +100, A sells all at +200 (closed; its exit at +3700 is gone).
    // Deal 1: A buys 1000 at 1 at +1000 → due +4600. MARKET at 3 at +3700 and at +5000.
    // At +5000's step 1: deal 1 sold at the known price 3: 1000 × 3 = 3000 at +4600.
    const response = runStrategy(
      [
        buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
        sell(LEADER_A, TOKEN_X, at(200), 1000, 1),
        buy(LEADER_A, TOKEN_X, at(1000), 1000, 1),
        buy(MARKET, TOKEN_X, at(3700), 1, 3),
        buy(MARKET, TOKEN_X, at(5000), 1, 4),
      ],
      { max_hold_hours: 1 },
    );
    expect(response.deals.map(shape)).toEqual([
      [
        ['buy', 100],
        ['sell', 200],
      ],
      [
        ['buy', 1000],
        ['sell_max_hold', 4600],
      ],
    ]);
    near(response.deals[1]!.trades[1]!.usd_amount, 3000, 'max-hold sell');
  });

  // max_hold_hours 1, A buys 1000 at 1; MARKET trades at 2 at window_end (at 9 after it, ignored)
  it('due exactly at window_end: fires before the swap at window_end, at the known price 1', () => {
    const deal = onlyDeal(
      runStrategy(
        [
          buy(LEADER_A, TOKEN_X, END - 3600, 1000, 1),
          buy(MARKET, TOKEN_X, END, 1, 2),
          buy(MARKET, TOKEN_X, END + 1, 1, 9),
        ],
        { max_hold_hours: 1 },
      ),
    );
    expect(deal.trades.map((t) => [t.type, t.time])).toEqual([
      ['buy', END - 3600],
      ['sell_max_hold', END],
    ]);
    near(deal.trades[1]!.usd_amount, 1000, 'sold at 1');
    expect(deal.special_tag).toBe('max_hold');
  });

  it('due after window_end: no max-hold exit, the deal stays open', () => {
    // bought at END − 3599 → due END + 1 > window_end
    const deal = onlyDeal(
      runStrategy([buy(LEADER_A, TOKEN_X, END - 3599, 1000, 1), buy(MARKET, TOKEN_X, END, 1, 2)], {
        max_hold_hours: 1,
      }),
    );
    expect(deal.trades_number).toBe(1);
    expect(deal.status).toBe('open');
    expect(deal.special_tag).toBeNull();
    near(deal.pnl_unrealized, 1000, 'pnl_unrealized'); // 1000 × 2 − 1000
  });

  it('due after window_end with inactivity_time_fix: the final time-fix closes it', () => {
    const deal = onlyDeal(
      runStrategy(
        [buy(LEADER_A, TOKEN_X, END - 3599, 1000, 1), buy(MARKET, TOKEN_X, END, 1, 2)],
        { max_hold_hours: 1 },
        { inactivity_time_fix: { hours: 24 } },
      ),
    );
    expect(deal.trades.map((t) => [t.type, t.time])).toEqual([
      ['buy', END - 3599],
      ['sell_timefix_final', END],
    ]);
    expect(deal.special_tag).toBe('sell_timefix_final');
    near(deal.trades[1]!.usd_amount, 2000, 'sold at 2');
  });
});

describe('scheduled actions due at one time (strategy 6)', () => {
  // d = 600.
  // +0    A buys 1000 at 1 → pending buy due +600.
  // +1000 MARKET at 2: step 1 fires it at the known price 1 → deal 0 opens at +600 (1000 tokens).
  //       Its time-fix (1 h) and its max-hold exit (1 h) are both due at +600 + 3600 = +4200.
  // +3600 A buys 100 at 2 (a = 200) → pending buy due +4200.
  // +5000 MARKET at 3: step 1 with three actions due at +4200.
  const swaps = [
    buy(LEADER_A, TOKEN_X, at(0), 1000, 1),
    buy(MARKET, TOKEN_X, at(1000), 1, 2),
    buy(LEADER_A, TOKEN_X, at(3600), 100, 2),
    buy(MARKET, TOKEN_X, at(5000), 1, 3),
  ];

  it('time-fix, then max-hold exit (cancelled: the deal is closed), then the pending copy', () => {
    // +4200: the time-fix sells deal 0's 1000 at the known price 2 (A's swap at +3600) = 2000;
    // the max-hold exit of the closed deal is gone; the pending copy finds no open deal and opens
    // deal 1 at the known price 2: A = 200 → 100 tokens at +4200. Deal 1's time-fix and max-hold
    // exit are due at +7800: the time-fix fires (at the end) at the known price 3: 100 × 3 = 300.
    // deal 0: 2000 − 1000 − 2 = 998; deal 1: 300 − 200 − 2 = 98.
    // (Pending copy first: deal 0 would buy at +4200 and its max-hold exit would close it.)
    const response = runStrategy(
      swaps,
      { copy_delay_seconds: 600, max_hold_hours: 1 },
      { inactivity_time_fix: { hours: 1 } },
    );
    expect(response.deals.map(shape)).toEqual([
      [
        ['buy', 600],
        ['sell_timefix', 4200],
      ],
      [
        ['buy', 4200],
        ['sell_timefix', 7800],
      ],
    ]);
    expect(response.deals.map((d) => d.special_tag)).toEqual(['sell_timefix', 'sell_timefix']);
    nearList(
      response.deals.map((d) => d.trades[1]!.usd_amount!),
      [2000, 300],
      'sells',
    );
    nearList(
      response.deals.map((d) => d.pnl_realized),
      [998, 98],
      'pnl_realized',
    );
  });

  it('without the time-fix: max-hold exit, then the pending copy', () => {
    // +4200: max-hold sells deal 0's 1000 at 2 = 2000 (tag max_hold); the pending copy opens deal 1
    // (100 tokens at 2); deal 1's max-hold exit at +7800 sells 100 at 3 = 300.
    const response = runStrategy(swaps, { copy_delay_seconds: 600, max_hold_hours: 1 });
    expect(response.deals.map(shape)).toEqual([
      [
        ['buy', 600],
        ['sell_max_hold', 4200],
      ],
      [
        ['buy', 4200],
        ['sell_max_hold', 7800],
      ],
    ]);
    expect(response.deals.map((d) => d.special_tag)).toEqual(['max_hold', 'max_hold']);
    nearList(
      response.deals.map((d) => d.trades[1]!.usd_amount!),
      [2000, 300],
      'sells',
    );
  });

  it('a pending sell due with the max-hold exit finds the deal closed (no_open_deal)', () => {
    // d = 600, max_hold 1 h. +0 A buys 1000 at 1 → +600; +1000 MARKET at 1 fires it (deal at +600,
    // max-hold due +4200). +3600 A sells 500 of h 1000 → pending sell due +4200.
    // +4200: the max-hold exit sells 1000 at the known price 1 first; the pending sell then has no open deal.
    const response = runStrategy(
      [
        buy(LEADER_A, TOKEN_X, at(0), 1000, 1),
        buy(MARKET, TOKEN_X, at(1000), 1, 1),
        sell(LEADER_A, TOKEN_X, at(3600), 500, 1),
      ],
      { copy_delay_seconds: 600, max_hold_hours: 1, report_skipped: true },
    );
    expect(shape(onlyDeal(response))).toEqual([
      ['buy', 600],
      ['sell_max_hold', 4200],
    ]);
    near(onlyDeal(response).trades[1]!.quantity, 1000, 'max-hold sells everything');
    expect(response.skipped_copies).toEqual([
      { time: at(4200), wallet: LEADER_A, token: TOKEN_X, type: 'sell', reason: 'no_open_deal' },
    ]);
  });

  it("time-fixes before max-hold exits even when the max-hold exit's deal comes first", () => {
    // max_hold 2 h, time-fix 2 h, d = 0.
    // +0 A buys X (deal 0) and Y (deal 1), 100 at 1 each: both max-hold exits due +7200.
    // +100 A buys X again: X's time-fix moves to +7300; Y's stays at +7200.
    // +7200 (at the end): Y's time-fix (deal 1) first, which cancels Y's max-hold exit; then X's
    // max-hold exit (deal 0). X's time-fix at +7300 is gone (closed).
    const response = runStrategy(
      [
        buy(LEADER_A, TOKEN_X, at(0), 100, 1),
        buy(LEADER_A, TOKEN_Y, at(0), 100, 1),
        buy(LEADER_A, TOKEN_X, at(100), 100, 1),
      ],
      { max_hold_hours: 2 },
      { inactivity_time_fix: { hours: 2 } },
    );
    expect(response.deals.map((d) => [d.token.address, d.special_tag])).toEqual([
      [TOKEN_X, 'max_hold'],
      [TOKEN_Y, 'sell_timefix'],
    ]);
    const chart = response.cumulative_pnl_and_fee_chart;
    expect(chart.deal_indexes).toEqual([0, 1, 0, 1, 0]);
    expect(chart.timestamps.map((t) => t - DAY_START)).toEqual([0, 0, 100, 7200, 7200]);
  });

  it('max-hold exits at one time in deal order', () => {
    // max_hold 1 h: deal 0 = X and deal 1 = Y both open at +0 → both due +3600, sold in deal order.
    // MARKET's earlier swap of Y makes Y the first token seen, so token order ≠ deal order.
    const response = runStrategy(
      [
        buy(MARKET, TOKEN_Y, at(-100), 1, 1),
        buy(LEADER_A, TOKEN_X, at(0), 100, 1),
        buy(LEADER_A, TOKEN_Y, at(0), 100, 1),
      ],
      { max_hold_hours: 1 },
    );
    expect(response.cumulative_pnl_and_fee_chart.deal_indexes).toEqual([0, 1, 0, 1]);
    expect(response.cumulative_pnl_and_fee_chart.timestamps.map((t) => t - DAY_START)).toEqual([0, 0, 3600, 3600]);
  });

  it('pending copies due at one time fire in the order they were scheduled', () => {
    // leaders A and B, d = 60: at +100 B buys Y, then A buys X (input order) → both due +160;
    // B's fires first, so deal 0 is Y and deal 1 is X (equal open_time, ties by opening order).
    const response = runStrategy(
      [buy(LEADER_B, TOKEN_Y, at(100), 100, 1), buy(LEADER_A, TOKEN_X, at(100), 100, 1)],
      { copy_delay_seconds: 60 },
      {
        wallets: [LEADER_A, LEADER_B],
      },
    );
    expect(response.deals.map((d) => [d.token.address, d.open_time])).toEqual([
      [TOKEN_Y, at(160)],
      [TOKEN_X, at(160)],
    ]);
  });

  it('an earlier due time fires first whatever its kind', () => {
    // d = 600, max_hold 1 h. +0 A buys X 100 at 1 → pending buy +600; +100 A buys Y → pending +700.
    // +4250 A buys X: step 1 fires, earliest first, the pending X buy (+600, deal 0), the pending
    // Y buy (+700, deal 1) and X's max-hold exit (+600 + 3600 = +4200); Y's (+4300) is not due yet;
    // step 3 schedules a pending buy at +4850. At the end: Y's max-hold exit +4300, the pending
    // X buy +4850 (deal 2, X closed at +4200), deal 2's max-hold exit +8450.
    const response = runStrategy(
      [
        buy(LEADER_A, TOKEN_X, at(0), 100, 1),
        buy(LEADER_A, TOKEN_Y, at(100), 100, 1),
        buy(LEADER_A, TOKEN_X, at(4250), 100, 1),
      ],
      { copy_delay_seconds: 600, max_hold_hours: 1 },
    );
    const chart = response.cumulative_pnl_and_fee_chart;
    expect(chart.timestamps.map((t) => t - DAY_START)).toEqual([600, 700, 4200, 4300, 4850, 8450]);
    expect(chart.deal_indexes).toEqual([0, 1, 0, 1, 2, 2]);
  });
});

describe('a trade moves the time-fix (strategy 6, M 3.4)', () => {
  it('an exit sell is a follower trade: the time-fix counts from it', () => {
    // time-fix 1 h, ladder [50 → 50 %]. +0 A buys 1000 at 1 (time-fix due +3600).
    // +1000 MARKET at 2: take profit sells 500 at 2 = 1000; last_operation_time +1000 → due +4600.
    // +3600 MARKET at 2 (nothing due now). At the end: the time-fix at +4600 sells 500 at 2 = 1000.
    const deal = onlyDeal(
      runStrategy(
        [
          buy(LEADER_A, TOKEN_X, at(0), 1000, 1),
          buy(MARKET, TOKEN_X, at(1000), 1, 2),
          buy(MARKET, TOKEN_X, at(3600), 1, 2),
        ],
        {
          take_profit: [{ roi: 50, sell_percent: 50 }],
        },
        { inactivity_time_fix: { hours: 1 } },
      ),
    );
    expect(shape(deal)).toEqual([
      ['buy', 0],
      ['sell_take_profit', 1000],
      ['sell_timefix', 4600],
    ]);
    nearList(
      deal.trades.map((t) => t.quantity),
      [1000, 500, 500],
      'quantity',
    );
    expect(deal.special_tag).toBe('sell_timefix');
  });

  it('a delayed buy moves it from its own time t + d', () => {
    // time-fix 1 h, d = 600. +0 A buys 100 at 1 → +600 (deal opens; time-fix due +4200).
    // +3000 A buys 100 at 1 → +3600 (time-fix moves to +7200). MARKET at 1 at +4200 fires nothing.
    const deal = onlyDeal(
      runStrategy(
        [
          buy(LEADER_A, TOKEN_X, at(0), 100, 1),
          buy(LEADER_A, TOKEN_X, at(3000), 100, 1),
          buy(MARKET, TOKEN_X, at(4200), 1, 1),
        ],
        {
          copy_delay_seconds: 600,
        },
        { inactivity_time_fix: { hours: 1 } },
      ),
    );
    expect(shape(deal)).toEqual([
      ['buy', 600],
      ['buy', 3600],
      ['sell_timefix', 7200],
    ]);
  });
});
