/**
 * Strategy extensions (model 2.0) section 2, the copy delay. With copy_delay_seconds = d > 0 a
 * leader swap at t schedules a pending copy due at t + d, which fires as a scheduled action
 * (step 1 of the first swap at or after t + d, or at the end with window_end as the limit):
 * - its reference price and liquidity are the token's known price and liquidity at that moment;
 * - the trade's time is t + d (also for the native price of its fee);
 * - a sell uses the q and h remembered at the leader's swap and the lot of the deal open when it fires;
 * - everything else (dupe limit, caps, filters, the open deal) is judged when it fires;
 * - a pending copy due after window_end never fires.
 * Flat scenario (test/support/scenario.ts): no slippage without liquidity, 1 USD network fee a trade.
 */
import { describe, expect, it } from 'vitest';
import type { EngineOptionsInput } from '../../src/model/options.js';
import type { SimulatorRequestInput } from '../../src/model/request.js';
import type { SimulatedDeal, SimulatorResponse } from '../../src/model/response.js';
import {
  at,
  buy,
  DAY_START,
  END,
  FLAT_NATIVE,
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
} from '../support/scenario.js';

type Swap = Parameters<typeof run>[0][number];

/** `run` with a `strategy` member (the request input type may not know it yet). */
function runStrategy(
  swaps: Swap[],
  strategy: Record<string, unknown>,
  overrides: Partial<SimulatorRequestInput> = {},
  options: EngineOptionsInput = FLAT_OPTIONS,
  header: Parameters<typeof run>[3] = {},
): SimulatorResponse {
  return run(swaps, { ...overrides, strategy } as Partial<SimulatorRequestInput>, options, header);
}

/** The trades of a deal as [type, seconds after window_start]. */
function shape(deal: SimulatedDeal): [string, number][] {
  return deal.trades.map((t) => [t.type, t.time - DAY_START]);
}

describe('a delayed buy (strategy 2)', () => {
  it('buys at the known price when it fires, at time t + d, before a swap of its due second', () => {
    // d = 30: A buys 1000 at 1 at +100 (a = 1000) → pending copy due at +130.
    // MARKET trades at 2 at +110 (known price 2). At +130 MARKET trades at 5: the pending copy
    // fires at step 1 of that swap, before it is recorded, so the reference price is 2.
    // A = min(1000 × 100/100, 1000, 10000) = 1000; quantity = 1000 / 2 = 500; time +130.
    const deal = onlyDeal(
      runStrategy(
        [
          buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
          buy(MARKET, TOKEN_X, at(110), 1, 2),
          buy(MARKET, TOKEN_X, at(130), 1, 5),
        ],
        {
          copy_delay_seconds: 30,
        },
      ),
    );
    expect(shape(deal)).toEqual([['buy', 130]]);
    expect(deal.open_time).toBe(at(130));
    nearAll(
      deal.trades[0]!,
      { usd_amount: 1000, quantity: 500, usd_price: 2, usd_buy_price_avg: 2, usd_invested: 1000, slippage: 0 },
      'buy',
    );
    expect(deal.trades[0]!.usd_liquidity).toBeNull();
    // unrealized at window_end: 500 × 5 − 1000 = 1500; realized: −1 (the buy's fee)
    near(deal.pnl_unrealized, 1500, 'pnl_unrealized');
    near(deal.pnl_realized, -1, 'pnl_realized');
  });

  it('fires at the end (window_end as the limit) when no later swap comes', () => {
    // d = 60: A buys 100 at 3 at +100 → due +160; nothing follows; it fires after the last swap
    // at the known price 3: A = min(300, 1000, 10000) = 300, quantity 100, time +160.
    const deal = onlyDeal(runStrategy([buy(LEADER_A, TOKEN_X, at(100), 100, 3)], { copy_delay_seconds: 60 }));
    expect(shape(deal)).toEqual([['buy', 160]]);
    nearAll(deal.trades[0]!, { usd_amount: 300, quantity: 100, usd_price: 3 }, 'buy');
  });

  interface LiquidityCase {
    readonly name: string;
    readonly leaderLiquidity: number | null;
    readonly marketLiquidity: number | null;
    readonly options: EngineOptionsInput;
    readonly usdLiquidity: number | null;
    readonly s: number;
  }
  // d = 30: A buys 1000 at 1 at +100 (a = 1000, A = 1000); MARKET at 2 at +110; fires at the end
  // (due +130) at the known price p = 2 with the known liquidity L of that moment.
  // buy: s = A / (L / 2); price p × (1 + s); quantity A / (p × (1 + s)); slippage 100 × s.
  const liquidityCases: LiquidityCase[] = [
    {
      // L = 100000 (MARKET's, the latest), not the leader's 20000: s = 1000 / 50000 = 0.02;
      // price 2.04, quantity 1000 / 2.04 = 490.196078…, slippage 2
      name: "the latest known liquidity, not the leader swap's",
      leaderLiquidity: 20_000,
      marketLiquidity: 100_000,
      options: FLAT_OPTIONS,
      usdLiquidity: 100_000,
      s: 0.02,
    },
    {
      // MARKET's swap carries none: the known liquidity stays the leader's 20000;
      // s = 1000 / 10000 = 0.1; price 2.2, quantity 454.5454…, slippage 10
      name: 'the last non-null liquidity of the token',
      leaderLiquidity: 20_000,
      marketLiquidity: null,
      options: FLAT_OPTIONS,
      usdLiquidity: 20_000,
      s: 0.1,
    },
    {
      // none known: null, and M 3.3's fallback s = 1 / 100 (unknown_liquidity_slippage_percent 1):
      // price 2.02, quantity 1000 / 2.02 = 495.0495…, slippage 1
      name: 'null when none is known (the fallback slippage)',
      leaderLiquidity: null,
      marketLiquidity: null,
      options: { ...FLAT_OPTIONS, unknown_liquidity_slippage_percent: 1 },
      usdLiquidity: null,
      s: 0.01,
    },
  ];
  it.each(liquidityCases)(
    'reference liquidity: $name',
    ({ leaderLiquidity, marketLiquidity, options, usdLiquidity, s }) => {
      const deal = onlyDeal(
        runStrategy(
          [
            buy(LEADER_A, TOKEN_X, at(100), 1000, 1, { usd_liquidity: leaderLiquidity }),
            buy(MARKET, TOKEN_X, at(110), 1, 2, { usd_liquidity: marketLiquidity }),
          ],
          { copy_delay_seconds: 30 },
          {},
          options,
        ),
      );
      const trade = deal.trades[0]!;
      expect(trade.time).toBe(at(130));
      expect(trade.usd_liquidity).toBe(usdLiquidity);
      nearAll(
        trade,
        { usd_amount: 1000, usd_price: 2 * (1 + s), quantity: 1000 / (2 * (1 + s)), slippage: 100 * s },
        'buy',
      );
    },
  );

  it('pays the network fee at the native price of t + d, not of the swap that fired it', () => {
    // native 100, then 200 from +130, 300 from +150. d = 30: due +130; it fires at step 1 of
    // MARKET's swap at +200, but the trade's time is +130: fee = 0.01 × 200 = 2 (not 3).
    const native: [number, number][] = [...FLAT_NATIVE, [at(130), 200], [at(150), 300]];
    const deal = onlyDeal(
      runStrategy(
        [buy(LEADER_A, TOKEN_X, at(100), 1000, 1), buy(MARKET, TOKEN_X, at(200), 1, 1)],
        { copy_delay_seconds: 30 },
        {},
        FLAT_OPTIONS,
        {
          native_prices: native,
        },
      ),
    );
    expect(deal.trades[0]!.time).toBe(at(130));
    near(deal.trades[0]!.usd_network_fee, 2, 'usd_network_fee');
  });
});

describe('a pending copy and window_end (strategy 2, 6)', () => {
  // A buys 1000 at 1 at END − 30; MARKET trades at 2 at END (and at 9 after END, ignored).
  it('due exactly at window_end: fires before the swap at window_end, at the known price 1', () => {
    // d = 30 → due END: A = 1000, quantity 1000 / 1 = 1000, time END;
    // unrealized = 1000 × 2 (known price at window_end) − 1000 = 1000
    const deal = onlyDeal(
      runStrategy(
        [
          buy(LEADER_A, TOKEN_X, END - 30, 1000, 1),
          buy(MARKET, TOKEN_X, END, 1, 2),
          buy(MARKET, TOKEN_X, END + 5, 1, 9),
        ],
        {
          copy_delay_seconds: 30,
        },
      ),
    );
    expect(deal.trades.map((t) => [t.type, t.time])).toEqual([['buy', END]]);
    near(deal.trades[0]!.usd_price, 1, 'usd_price');
    near(deal.pnl_unrealized, 1000, 'pnl_unrealized');
  });

  it('due exactly at window_end, then the final time-fix sells it at window_end', () => {
    // as above, then inactivity_time_fix: the final time-fix at END sells 1000 at the known price 2
    const deal = onlyDeal(
      runStrategy(
        [buy(LEADER_A, TOKEN_X, END - 30, 1000, 1), buy(MARKET, TOKEN_X, END, 1, 2)],
        { copy_delay_seconds: 30 },
        { inactivity_time_fix: { hours: 24 } },
      ),
    );
    expect(deal.trades.map((t) => [t.type, t.time])).toEqual([
      ['buy', END],
      ['sell_timefix_final', END],
    ]);
    near(deal.trades[1]!.usd_amount, 2000, 'final sell');
  });

  it('due one second after window_end: never fires', () => {
    // d = 31 → due END + 1 > window_end: no trade, no deal
    const response = runStrategy(
      [buy(LEADER_A, TOKEN_X, END - 30, 1000, 1), buy(MARKET, TOKEN_X, END, 1, 2), buy(MARKET, TOKEN_X, END + 5, 1, 9)],
      {
        copy_delay_seconds: 31,
      },
    );
    expect(response.deals).toEqual([]);
    expect(response.summary.trading_volume).toBe(0);
  });

  it('a leader swap before window_start is not copied even when t + d is inside the window', () => {
    // A buys at window_start − 10, d = 30 → would be due at +20, but only swaps inside the window are copied
    const response = runStrategy(
      [buy(LEADER_A, TOKEN_X, DAY_START - 10, 1000, 1), buy(MARKET, TOKEN_X, at(100), 1, 1)],
      { copy_delay_seconds: 30 },
    );
    expect(response.deals).toEqual([]);
  });
});

describe('a delayed sell (strategy 2)', () => {
  it('uses the q and h remembered at the leader swap while the holdings change before it fires', () => {
    // d = 60.
    // +100 A buys 1000 at 1 → due +160; h_A = 1000.
    // +200 MARKET at 1: step 1 fires the buy at the known price 1: 1000 tokens, lot_A = 1000.
    // +300 A sells 250 at 1.5: remembers q = 250, h = 1000 → due +360; h_A = 750.
    // +320 A sells 750 at 1.8: remembers q = 750, h = 750 → due +380; h_A = 0.
    // +330 MARKET at 2 (known price 2).
    // +400 MARKET at 3: step 1 fires +360: f = 250 / 1000 = 0.25 → 0.25 × 1000 = 250 tokens at 2 = 500;
    //      then +380: h = 750 ≤ q = 750 → f = 1 → the whole lot 750 at 2 = 1500; qty 0 → closed.
    // (With h read when it fires, h_A = 0 ≤ q and the first sell would take all 1000.)
    // pnl_realized = (500 − 250 × 1) + (1500 − 750 × 1) − 3 fees = 997
    const deal = onlyDeal(
      runStrategy(
        [
          buy(LEADER_A, TOKEN_X, at(100), 1000, 1),
          buy(MARKET, TOKEN_X, at(200), 1, 1),
          sell(LEADER_A, TOKEN_X, at(300), 250, 1.5),
          sell(LEADER_A, TOKEN_X, at(320), 750, 1.8),
          buy(MARKET, TOKEN_X, at(330), 1, 2),
          buy(MARKET, TOKEN_X, at(400), 1, 3),
        ],
        { copy_delay_seconds: 60 },
      ),
    );
    expect(shape(deal)).toEqual([
      ['buy', 160],
      ['sell', 360],
      ['sell', 380],
    ]);
    nearList(
      deal.trades.map((t) => t.quantity),
      [1000, 250, 750],
      'quantity',
    );
    nearList(
      deal.trades.map((t) => t.usd_amount!),
      [1000, 500, 1500],
      'usd_amount',
    );
    nearList(
      deal.trades.map((t) => t.usd_price!),
      [1, 2, 2],
      'usd_price',
    );
    expect(deal.status).toBe('closed');
    expect(deal.special_tag).toBeNull();
    expect(deal.last_operation_time).toBe(at(380));
    near(deal.pnl_realized, 997, 'pnl_realized');
  });

  it('uses a remembered h below the holdings when the leader buys more before it fires', () => {
    // d = 60.
    // +0 A buys 1000 at 1 → due +60; +100 MARKET at 1 fires it: lot_A = 1000.
    // +200 A sells 500 at 1: q = 500, h = 1000 → due +260; h_A = 500.
    // +210 A buys 1000 at 1 → due +270; h_A = 1500.
    // End: +260 fires: f = 500 / 1000 = 0.5 → 500 tokens (with h = 1500: 333.3…);
    //      +270 buys 1000 more at 1. qty = 1000 − 500 + 1000 = 1500.
    const deal = onlyDeal(
      runStrategy(
        [
          buy(LEADER_A, TOKEN_X, at(0), 1000, 1),
          buy(MARKET, TOKEN_X, at(100), 1, 1),
          sell(LEADER_A, TOKEN_X, at(200), 500, 1),
          buy(LEADER_A, TOKEN_X, at(210), 1000, 1),
        ],
        { copy_delay_seconds: 60 },
      ),
    );
    expect(shape(deal)).toEqual([
      ['buy', 60],
      ['sell', 260],
      ['buy', 270],
    ]);
    nearList(
      deal.trades.map((t) => t.quantity),
      [1000, 500, 1000],
      'quantity',
    );
    // usd_invested after: 1000, 500, 1500 (avg 1 throughout)
    nearList(
      deal.trades.map((t) => t.usd_invested),
      [1000, 500, 1500],
      'usd_invested',
    );
  });

  it('takes the lot of the deal open when it fires, not of the deal open when it was scheduled', () => {
    // d = 60, stop_loss_percent 50.
    // +0   A buys 1000 at 1 → due +60.
    // +100 MARKET at 1: fires +60 → deal 0: 1000 tokens at 1, lot_A 1000 (ROI 0 at step 2).
    // +200 A buys 200 at 1 (a = 200) → due +260; h_A = 1200.
    // +210 A sells 600 at 1: q = 600, h = 1200 → due +270 (deal 0 open now, lot 1000); h_A = 600.
    // +220 MARKET at 0.5: ROI = 100 × (0.5 − 1) / 1 = −50 ≤ −50 → stop loss sells 1000 at 0.5 = 500;
    //      deal 0 closed.
    // +400 MARKET at 0.5: step 1 fires +260: no open deal → deal 1 opens at the known price 0.5:
    //      A = min(200, 1000, 10000) = 200 → 400 tokens, lot_A 400; then +270: f = 600 / 1200 = 0.5
    //      of deal 1's lot 400 → 200 tokens at 0.5 = 100. Step 2: ROI 0, no exit.
    // deal 0: pnl_realized = 500 − 1000 − 2 = −502.
    // deal 1: pnl_realized = (100 − 200 × 0.5) − 2 = −2; closed_position = 100 × 200 / 400 = 50.
    const response = runStrategy(
      [
        buy(LEADER_A, TOKEN_X, at(0), 1000, 1),
        buy(MARKET, TOKEN_X, at(100), 1, 1),
        buy(LEADER_A, TOKEN_X, at(200), 200, 1),
        sell(LEADER_A, TOKEN_X, at(210), 600, 1),
        buy(MARKET, TOKEN_X, at(220), 1, 0.5),
        buy(MARKET, TOKEN_X, at(400), 1, 0.5),
      ],
      { copy_delay_seconds: 60, stop_loss_percent: 50 },
    );
    expect(response.deals).toHaveLength(2);
    const [first, second] = response.deals as [SimulatedDeal, SimulatedDeal];
    expect(shape(first)).toEqual([
      ['buy', 60],
      ['sell_stop_loss', 220],
    ]);
    near(first.pnl_realized, -502, 'deal 0 pnl_realized');
    expect(shape(second)).toEqual([
      ['buy', 260],
      ['sell', 270],
    ]);
    nearList(
      second.trades.map((t) => t.quantity),
      [400, 200],
      'deal 1 quantity',
    );
    nearList(
      second.trades.map((t) => t.usd_amount!),
      [200, 100],
      'deal 1 usd_amount',
    );
    expect(second.status).toBe('open');
    near(second.pnl_realized, -2, 'deal 1 pnl_realized');
    near(second.closed_position, 50, 'deal 1 closed_position');
  });

  it('with close_all sells the whole qty of the deal open when it fires, at time t + d', () => {
    // close_all, leaders A and B, d = 60.
    // +0 A buys 1000 at 1 → +60; +10 B buys 500 at 1 → +70.
    // +100 B sells 100 at 1: step 1 fires +60 and +70 at the known price 1 → qty 1500; step 3
    //      schedules B's sell → +160.
    // +120 MARKET at 2. End: +160 fires: close_all sells the whole 1500 at 2 = 3000, tag close_all.
    // pnl_realized = 3000 − 1500 − 3 fees = 1497
    const deal = onlyDeal(
      runStrategy(
        [
          buy(LEADER_A, TOKEN_X, at(0), 1000, 1),
          buy(LEADER_B, TOKEN_X, at(10), 500, 1),
          sell(LEADER_B, TOKEN_X, at(100), 100, 1),
          buy(MARKET, TOKEN_X, at(120), 1, 2),
        ],
        { copy_delay_seconds: 60 },
        { wallets: [LEADER_A, LEADER_B], close_all: true },
      ),
    );
    expect(shape(deal)).toEqual([
      ['buy', 60],
      ['buy', 70],
      ['sell', 160],
    ]);
    nearAll(deal.trades[2]!, { quantity: 1500, usd_amount: 3000, usd_price: 2, usd_invested: 0 }, 'close_all sell');
    expect(deal.special_tag).toBe('close_all');
    near(deal.pnl_realized, 1497, 'pnl_realized');
  });
});

describe('judged when it fires (strategy 2)', () => {
  // max_dupe_buy_times 0, d = 60.
  // +0 A buys 1000 at 1 → +60; +100 MARKET at 1 fires it: deal 0 (buys = 1).
  // +200 A buys 100 at 1 (a = 100) → due +260, while deal 0 is open with 1 buy.
  // With stop_loss_percent 50, MARKET at 0.5 at +220 closes deal 0 (ROI −50); at +400 the pending
  // buy finds no open deal and opens deal 1 at the known price 0.5: A = 100 → 200 tokens.
  // Without the stop loss deal 0 is still open at +260: buys − 1 = 0 ≥ 0 → skipped (dupe limit).
  const swaps = [
    buy(LEADER_A, TOKEN_X, at(0), 1000, 1),
    buy(MARKET, TOKEN_X, at(100), 1, 1),
    buy(LEADER_A, TOKEN_X, at(200), 100, 1),
    buy(MARKET, TOKEN_X, at(220), 1, 0.5),
    buy(MARKET, TOKEN_X, at(400), 1, 0.5),
  ];

  it('the dupe limit counts the deal open at the due time (the scheduling deal closed meanwhile)', () => {
    const response = runStrategy(swaps, { copy_delay_seconds: 60, stop_loss_percent: 50 }, { max_dupe_buy_times: 0 });
    expect(response.deals.map(shape)).toEqual([
      [
        ['buy', 60],
        ['sell_stop_loss', 220],
      ],
      [['buy', 260]],
    ]);
    nearAll(response.deals[1]!.trades[0]!, { usd_amount: 100, quantity: 200, usd_price: 0.5 }, 'deal 1 buy');
  });

  it('the dupe limit skips it when the deal is still open at the due time', () => {
    const deal = onlyDeal(runStrategy(swaps, { copy_delay_seconds: 60 }, { max_dupe_buy_times: 0 }));
    expect(shape(deal)).toEqual([['buy', 60]]);
  });

  it('the position cap counts usd_invested at the due time', () => {
    // max_position_amount 1500, d = 60: A buys 1000 at 1 at +0 and 1000 at 1 at +10 (both a = 1000).
    // +60: A = min(1000, 1000, 1500 − 0) = 1000; +70: A = min(1000, 1000, 1500 − 1000) = 500.
    const deal = onlyDeal(
      runStrategy(
        [buy(LEADER_A, TOKEN_X, at(0), 1000, 1), buy(LEADER_A, TOKEN_X, at(10), 1000, 1)],
        { copy_delay_seconds: 60 },
        { max_position_amount: 1500 },
      ),
    );
    expect(shape(deal)).toEqual([
      ['buy', 60],
      ['buy', 70],
    ]);
    nearList(
      deal.trades.map((t) => t.usd_amount!),
      [1000, 500],
      'usd_amount',
    );
  });
});
