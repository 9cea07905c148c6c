/**
 * Strategy extensions (model 2.0) sections 3 and 4.
 * - fixed_buy_amount F: A = min(F, max_buy_amount, max_position_amount − usd_invested);
 *   buy_percentage is not used.
 * - filters on copied buys, after the dupe limit and before the amount, in this order:
 *   min_leader_buy_usd (usd_amount < min → leader_buy_too_small), min_liquidity_usd (reference
 *   liquidity null or < min → liquidity_too_low), max_token_age_hours (copy time − time of the
 *   token's first swap > hours × 3600 → token_too_old).
 * Reasons are read from `skipped_copies` (report_skipped: true).
 * Flat scenario (test/support/scenario.ts): no slippage without liquidity, 1 USD network fee a trade.
 */
import { describe, expect, it } from 'vitest';
import type { EngineOptionsInput } from '../../src/model/options.js';
import type { SimulatorRequestInput } from '../../src/model/request.js';
import type { SimulatorResponse } from '../../src/model/response.js';
import {
  at,
  buy,
  DAY_START,
  FLAT_OPTIONS,
  LEADER_A,
  MARKET,
  near,
  nearList,
  onlyDeal,
  run,
  sell,
  TOKEN_X,
  TOKEN_Y,
  type SwapExtra,
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
  options: EngineOptionsInput = FLAT_OPTIONS,
): StrategyResponse {
  return run(swaps, { ...overrides, strategy } as Partial<SimulatorRequestInput>, options) as StrategyResponse;
}

/** The skip reasons of a response, in order. */
function reasons(response: StrategyResponse): string[] | undefined {
  return response.skipped_copies?.map((s) => s.reason);
}

/** usd_amount of every follower buy, over all deals. */
function buyAmounts(response: SimulatorResponse): number[] {
  return response.deals.flatMap((d) => d.trades.filter((t) => t.type === 'buy').map((t) => t.usd_amount!));
}

describe('fixed_buy_amount (strategy 3)', () => {
  interface FixedCase {
    readonly name: string;
    readonly fixed: number;
    readonly overrides: Partial<SimulatorRequestInput>;
    /** Leader buys of TOKEN_X: [quantity, price]. */
    readonly leaderBuys: readonly [number, number][];
    /** usd_amount of each follower buy, by hand. */
    readonly amounts: readonly number[];
    readonly skipped: readonly string[];
  }
  const cases: FixedCase[] = [
    {
      // a = 1000; A = min(F 250, 1000, 10000 − 0) = 250 (not a × 10 / 100 = 100)
      name: 'F binds and buy_percentage is not used',
      fixed: 250,
      overrides: { buy_percentage: 10 },
      leaderBuys: [[1000, 1]],
      amounts: [250],
      skipped: [],
    },
    {
      // a = 5 × 1 = 5: A = min(250, 1000, 10000) = 250, more than the leader bought
      name: 'F does not depend on the leader amount',
      fixed: 250,
      overrides: {},
      leaderBuys: [[5, 1]],
      amounts: [250],
      skipped: [],
    },
    {
      // A = min(2000, 1000, 10000) = 1000
      name: 'max_buy_amount binds',
      fixed: 2000,
      overrides: { max_buy_amount: 1000 },
      leaderBuys: [[3000, 1]],
      amounts: [1000],
      skipped: [],
    },
    {
      // 1st: min(600, 1000, 1000 − 0) = 600; invested 600
      // 2nd: min(600, 1000, 1000 − 600 = 400) = 400; invested 1000
      // 3rd: min(600, 1000, 1000 − 1000 = 0) = 0 ≤ 1000 × 10⁻²⁰ → position_full
      name: 'max_position_amount − usd_invested binds, then the deal is full',
      fixed: 600,
      overrides: { max_position_amount: 1000 },
      leaderBuys: [
        [1000, 1],
        [1000, 1],
        [1000, 1],
      ],
      amounts: [600, 400],
      skipped: ['position_full'],
    },
    {
      // invested counts cost: 1st at p 1: 600 (600 tokens); 2nd at p 4: room 1600 − 600 = 1000,
      // A = min(600, 1000, 1000) = 600 → 150 tokens
      name: 'the room is usd_invested (cost), F binds again',
      fixed: 600,
      overrides: { max_position_amount: 1600 },
      leaderBuys: [
        [1000, 1],
        [10, 4],
      ],
      amounts: [600, 600],
      skipped: [],
    },
  ];
  it.each(cases)('$name', ({ fixed, overrides, leaderBuys, amounts, skipped }) => {
    const swaps = leaderBuys.map(([q, p], i) => buy(LEADER_A, TOKEN_X, at(100 * (i + 1)), q, p));
    const response = runStrategy(swaps, { fixed_buy_amount: fixed, report_skipped: true }, overrides);
    const deal = onlyDeal(response);
    nearList(buyAmounts(response), amounts, 'usd_amount');
    // no slippage: quantity = A / p
    nearList(
      deal.trades.map((t) => t.quantity),
      amounts.map((a, i) => a / leaderBuys[i]![1]),
      'quantity',
    );
    expect(reasons(response)).toEqual(skipped);
  });
});

describe('min_leader_buy_usd (strategy 4.1)', () => {
  interface MinBuyCase {
    readonly name: string;
    readonly quantity: string;
    readonly price: number;
    readonly extra: SwapExtra;
    readonly copied: boolean;
  }
  // min_leader_buy_usd 100; the leader swap's usd_amount (quantity × usd_price when absent) counts
  const cases: MinBuyCase[] = [
    // a = 100 × 1 = 100, not below 100 → copied (A = min(100, 1000, 10000) = 100)
    { name: 'a = 100 exactly: copied', quantity: '100', price: 1, extra: {}, copied: true },
    // a = 99.99 × 1 < 100 → skipped
    { name: 'a = 99.99: skipped', quantity: '99.99', price: 1, extra: {}, copied: false },
    // usd_amount 100 given, though quantity × price = 50 → copied
    {
      name: 'usd_amount 100 (quantity × price 50): copied',
      quantity: '50',
      price: 1,
      extra: { usd_amount: 100 },
      copied: true,
    },
    // usd_amount 99 given, though quantity × price = 1000 → skipped
    {
      name: 'usd_amount 99 (quantity × price 1000): skipped',
      quantity: '1000',
      price: 1,
      extra: { usd_amount: 99 },
      copied: false,
    },
  ];
  it.each(cases)('$name', ({ quantity, price, extra, copied }) => {
    const response = runStrategy([buy(LEADER_A, TOKEN_X, at(100), quantity, price, extra)], {
      min_leader_buy_usd: 100,
      report_skipped: true,
    });
    expect(response.deals).toHaveLength(copied ? 1 : 0);
    expect(reasons(response)).toEqual(copied ? [] : ['leader_buy_too_small']);
  });

  it('does not filter a leader sell', () => {
    // buy 1000 at 1 (a = 1000, copied); the sell of 10 (worth 10 < 100) is copied: f = 10 / 1000
    // = 0.01 → 0.01 × 1000 = 10 tokens
    const response = runStrategy([buy(LEADER_A, TOKEN_X, at(100), 1000, 1), sell(LEADER_A, TOKEN_X, at(200), 10, 1)], {
      min_leader_buy_usd: 100,
      report_skipped: true,
    });
    const deal = onlyDeal(response);
    expect(deal.trades.map((t) => t.type)).toEqual(['buy', 'sell']);
    near(deal.trades[1]!.quantity, 10, 'sold');
    expect(response.skipped_copies).toEqual([]);
  });

  it("uses the leader swap's usd_amount for a delayed copy, judged at its due time", () => {
    // d = 60: a = 99.99 < 100 → skipped at +160 (the due time)
    const response = runStrategy([buy(LEADER_A, TOKEN_X, at(100), '99.99', 1), buy(MARKET, TOKEN_X, at(130), 1, 5)], {
      copy_delay_seconds: 60,
      min_leader_buy_usd: 100,
      report_skipped: true,
    });
    expect(response.deals).toEqual([]);
    expect(response.skipped_copies).toEqual([
      { time: at(160), wallet: LEADER_A, token: TOKEN_X, type: 'buy', reason: 'leader_buy_too_small' },
    ]);
  });
});

describe('min_liquidity_usd (strategy 4.2)', () => {
  interface LiquidityCase {
    readonly name: string;
    readonly min: number;
    /** swaps before the leader's buy (MARKET), with their liquidity */
    readonly before: readonly (number | null)[];
    readonly leaderLiquidity: number | null;
    /** the reference liquidity of the copied buy, or null when skipped */
    readonly copiedAt: number | null;
  }
  // the leader buys 1000 at 1 at +100 (a = 1000 → A = 1000); MARKET swaps at 1 at +10, +20, …
  const cases: LiquidityCase[] = [
    // L = 50000, not below 50000 → copied
    {
      name: 'the swap’s liquidity equal to the minimum: copied',
      min: 50_000,
      before: [],
      leaderLiquidity: 50_000,
      copiedAt: 50_000,
    },
    // 49999.99 < 50000 → skipped
    {
      name: 'the swap’s liquidity just below: skipped',
      min: 50_000,
      before: [],
      leaderLiquidity: 49_999.99,
      copiedAt: null,
    },
    // unknown (none ever carried) → skipped
    { name: 'unknown liquidity: skipped', min: 50_000, before: [], leaderLiquidity: null, copiedAt: null },
    // unknown is skipped even with a minimum of 0
    {
      name: 'unknown liquidity with a minimum of 0: skipped',
      min: 0,
      before: [],
      leaderLiquidity: null,
      copiedAt: null,
    },
    // the swap carries none: the known liquidity 60000 (MARKET at +10) is the reference → copied
    {
      name: 'the known liquidity when the swap carries none: copied',
      min: 50_000,
      before: [60_000],
      leaderLiquidity: null,
      copiedAt: 60_000,
    },
    // the swap's own 40000 is the reference, not the earlier 60000 → skipped
    {
      name: 'the swap’s own liquidity over an earlier one: skipped',
      min: 50_000,
      before: [60_000],
      leaderLiquidity: 40_000,
      copiedAt: null,
    },
  ];
  it.each(cases)('$name', ({ min, before, leaderLiquidity, copiedAt }) => {
    const swaps = [
      ...before.map((l, i) => buy(MARKET, TOKEN_X, at(10 * (i + 1)), 1, 1, { usd_liquidity: l })),
      buy(LEADER_A, TOKEN_X, at(100), 1000, 1, { usd_liquidity: leaderLiquidity }),
    ];
    const response = runStrategy(swaps, { min_liquidity_usd: min, report_skipped: true });
    if (copiedAt === null) {
      expect(response.deals).toEqual([]);
      expect(reasons(response)).toEqual(['liquidity_too_low']);
      return;
    }
    // buy of A = 1000 at p = 1 with L: s = 1000 / (L / 2); quantity = 1000 / (1 + s)
    // (L 50000: s = 0.04, quantity 961.538…; L 60000: s = 0.0333…, quantity 967.741…)
    const trade = onlyDeal(response).trades[0]!;
    const s = 1000 / (copiedAt / 2);
    expect(trade.usd_liquidity).toBe(copiedAt);
    near(trade.usd_amount, 1000, 'usd_amount');
    near(trade.quantity, 1000 / (1 + s), 'quantity');
    near(trade.slippage, 100 * s, 'slippage');
    expect(response.skipped_copies).toEqual([]);
  });

  it('a delayed copy uses the known liquidity when it fires: dropped below the minimum → skipped', () => {
    // d = 60, min 50000: the leader's swap carries 100000, MARKET at +130 carries 1000 → at +160
    // the reference liquidity is 1000 < 50000 → liquidity_too_low at +160
    const response = runStrategy(
      [
        buy(LEADER_A, TOKEN_X, at(100), 1000, 1, { usd_liquidity: 100_000 }),
        buy(MARKET, TOKEN_X, at(130), 1, 1, { usd_liquidity: 1000 }),
      ],
      { copy_delay_seconds: 60, min_liquidity_usd: 50_000, report_skipped: true },
    );
    expect(response.deals).toEqual([]);
    expect(response.skipped_copies).toEqual([
      { time: at(160), wallet: LEADER_A, token: TOKEN_X, type: 'buy', reason: 'liquidity_too_low' },
    ]);
  });

  it('a delayed copy uses the known liquidity when it fires: risen to the minimum → copied', () => {
    // d = 60, min 50000: the leader's swap carries 1000 (too low at +100), MARKET at +130 carries
    // 100000 → at +160 the reference liquidity is 100000: s = 1000 / 50000 = 0.02,
    // quantity = 1000 / 1.02 = 980.392…
    const response = runStrategy(
      [
        buy(LEADER_A, TOKEN_X, at(100), 1000, 1, { usd_liquidity: 1000 }),
        buy(MARKET, TOKEN_X, at(130), 1, 1, { usd_liquidity: 100_000 }),
      ],
      { copy_delay_seconds: 60, min_liquidity_usd: 50_000, report_skipped: true },
    );
    const trade = onlyDeal(response).trades[0]!;
    expect(trade.time).toBe(at(160));
    expect(trade.usd_liquidity).toBe(100_000);
    near(trade.quantity, 1000 / 1.02, 'quantity');
    expect(response.skipped_copies).toEqual([]);
  });
});

describe('max_token_age_hours (strategy 4.3)', () => {
  interface AgeCase {
    readonly name: string;
    /** time of the token's first swap (MARKET) */
    readonly firstSwap: number;
    /** time of the leader's buy */
    readonly leaderBuy: number;
    readonly delay: number;
    readonly copied: boolean;
  }
  // max_token_age_hours 1 → the limit is 3600 s; the leader buys 1000 at 1
  const cases: AgeCase[] = [
    // age = 3600 − 0 = 3600, not more than 3600 → copied
    { name: 'age exactly the limit: copied', firstSwap: at(0), leaderBuy: at(3600), delay: 0, copied: true },
    // age = 3601 > 3600 → skipped
    { name: 'one second past the limit: skipped', firstSwap: at(0), leaderBuy: at(3601), delay: 0, copied: false },
    // first swap 1800 s before window_start (it counts): age = 1800 − (−1800) = 3600 → copied
    {
      name: 'first swap before the window, age exactly the limit: copied',
      firstSwap: DAY_START - 1800,
      leaderBuy: at(1800),
      delay: 0,
      copied: true,
    },
    // age = 1801 + 1800 = 3601 → skipped
    {
      name: 'first swap before the window, one second past: skipped',
      firstSwap: DAY_START - 1800,
      leaderBuy: at(1801),
      delay: 0,
      copied: false,
    },
    // the copy's time counts: swap at +3000 (age 3000), d = 600 → copy at +3600, age 3600 → copied
    {
      name: 'with a delay, the copy time at the limit: copied',
      firstSwap: at(0),
      leaderBuy: at(3000),
      delay: 600,
      copied: true,
    },
    // swap at +3001 (age 3001 ≤ 3600 at the swap), d = 600 → copy at +3601, age 3601 → skipped
    {
      name: 'with a delay, the copy time one second past: skipped',
      firstSwap: at(0),
      leaderBuy: at(3001),
      delay: 600,
      copied: false,
    },
  ];
  it.each(cases)('$name', ({ firstSwap, leaderBuy, delay, copied }) => {
    // MARKET's swap of TOKEN_Y long before is another token's: it does not count
    const response = runStrategy(
      [
        buy(MARKET, TOKEN_Y, DAY_START - 86_000, 1, 1),
        buy(MARKET, TOKEN_X, firstSwap, 1, 1),
        buy(LEADER_A, TOKEN_X, leaderBuy, 1000, 1),
      ],
      { max_token_age_hours: 1, copy_delay_seconds: delay, report_skipped: true },
    );
    expect(response.deals).toHaveLength(copied ? 1 : 0);
    if (copied) expect(response.deals[0]!.open_time).toBe(leaderBuy + delay);
    expect(response.skipped_copies).toEqual(
      copied
        ? []
        : [{ time: leaderBuy + delay, wallet: LEADER_A, token: TOKEN_X, type: 'buy', reason: 'token_too_old' }],
    );
  });

  it("counts from the leader's own first swap when it is the token's first", () => {
    // A's buy at +0 is X's first swap (age 0, copied); A's buy at +3601: age 3601 > 3600 → token_too_old
    const response = runStrategy([buy(LEADER_A, TOKEN_X, at(0), 100, 1), buy(LEADER_A, TOKEN_X, at(3601), 100, 1)], {
      max_token_age_hours: 1,
      report_skipped: true,
    });
    expect(onlyDeal(response).trades.map((t) => t.time)).toEqual([at(0)]);
    expect(reasons(response)).toEqual(['token_too_old']);
  });
});

describe('the order of the checks (strategy 4): dupe limit, then the filters in order, then the amount', () => {
  // Strategy: min_leader_buy_usd 100, min_liquidity_usd 50000, max_token_age_hours 1.
  // MARKET's swap of X at +0 is its first swap; the probe is A's buy of X at +4000 (age 4000 > 3600)
  // or at +3000 (age 3000, young enough).
  const strategy = { min_leader_buy_usd: 100, min_liquidity_usd: 50_000, max_token_age_hours: 1, report_skipped: true };
  interface OrderCase {
    readonly name: string;
    readonly swaps: Swap[];
    readonly overrides: Partial<SimulatorRequestInput>;
    readonly reason: string;
  }
  const first = buy(MARKET, TOKEN_X, at(0), 1, 1);
  const cases: OrderCase[] = [
    {
      // a = 50 < 100, no liquidity, age 4000: all three fail → the first, leader_buy_too_small
      name: 'all three filters fail: leader_buy_too_small',
      swaps: [first, buy(LEADER_A, TOKEN_X, at(4000), 50, 1)],
      overrides: {},
      reason: 'leader_buy_too_small',
    },
    {
      // a = 500 ≥ 100; no liquidity; age 4000 → liquidity_too_low
      name: 'liquidity and age fail: liquidity_too_low',
      swaps: [first, buy(LEADER_A, TOKEN_X, at(4000), 500, 1)],
      overrides: {},
      reason: 'liquidity_too_low',
    },
    {
      // a = 500, L 100000 ≥ 50000; age 4000 → token_too_old
      name: 'only age fails: token_too_old',
      swaps: [first, buy(LEADER_A, TOKEN_X, at(4000), 500, 1, { usd_liquidity: 100_000 })],
      overrides: {},
      reason: 'token_too_old',
    },
    {
      // max_position_amount 500: A's buy at +100 (a = 500, L 100000) gives A = 500, usd_invested
      // = quantity × avg = 500; at +4000 the room is 0, but the age fails first → token_too_old
      name: 'age and the amount fail: token_too_old',
      swaps: [
        first,
        buy(LEADER_A, TOKEN_X, at(100), 500, 1, { usd_liquidity: 100_000 }),
        buy(LEADER_A, TOKEN_X, at(4000), 500, 1, { usd_liquidity: 100_000 }),
      ],
      overrides: { max_position_amount: 500 },
      reason: 'token_too_old',
    },
    {
      // as above with the second buy at +3000 (age 3000 ≤ 3600): every filter passes, the room is
      // 500 − 500 = 0 → position_full
      name: 'only the amount fails: position_full',
      swaps: [
        first,
        buy(LEADER_A, TOKEN_X, at(100), 500, 1, { usd_liquidity: 100_000 }),
        buy(LEADER_A, TOKEN_X, at(3000), 500, 1, { usd_liquidity: 100_000 }),
      ],
      overrides: { max_position_amount: 500 },
      reason: 'position_full',
    },
    {
      // max_dupe_buy_times 0: the deal opened at +100 has 1 buy; at +4000 all three filters fail
      // too, but the dupe limit is checked first → dupe_limit
      name: 'the dupe limit and every filter fail: dupe_limit',
      swaps: [
        first,
        buy(LEADER_A, TOKEN_X, at(100), 500, 1, { usd_liquidity: 100_000 }),
        buy(LEADER_A, TOKEN_X, at(4000), 50, 1),
      ],
      overrides: { max_dupe_buy_times: 0 },
      reason: 'dupe_limit',
    },
  ];
  it.each(cases)('$name', ({ swaps, overrides, reason }) => {
    const response = runStrategy(swaps, strategy, overrides);
    expect(reasons(response)).toEqual([reason]);
    expect(response.skipped_copies![0]!.time).toBe(swaps[swaps.length - 1]!.time);
  });
});
