/**
 * Strategy extensions (model 2.0) section 7, `skipped_copies` (report_skipped: true): every
 * leader swap inside the window that was not copied, in the order the decisions were taken,
 * each { time, wallet, token, type, reason }; `time` is when the copy was decided (the due time
 * of a pending copy); `wallet` and `token` as the leader's swap spells them. Reasons: dupe_limit,
 * leader_buy_too_small, liquidity_too_low, token_too_old, position_full, no_open_deal, no_lot,
 * after_window (listed last, in the order the copies were scheduled). Without report_skipped
 * there is no such member; with it and nothing skipped, an empty array.
 * Flat scenario (test/support/scenario.ts): no slippage without liquidity, 1 USD network fee a trade.
 */
import { describe, expect, it } from 'vitest';
import type { SimulatorRequestInput } from '../../src/model/request.js';
import type { SimulatorResponse } from '../../src/model/response.js';
import { simulate } from '../../src/simulate.js';
import {
  at,
  buy,
  DAY_START,
  END,
  FLAT_OPTIONS,
  LEADER_A,
  LEADER_B,
  MARKET,
  request,
  run,
  sell,
  tape,
  TOKEN_X,
  TOKEN_Y,
  TOKEN_Z,
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

/** One expected entry. */
function entry(time: number, wallet: string, token: string, type: 'buy' | 'sell', reason: string): SkippedCopy {
  return { time, wallet, token, type, reason };
}

describe('every skip reason (strategy 7)', () => {
  interface ReasonCase {
    readonly name: string;
    readonly swaps: Swap[];
    readonly strategy: Record<string, unknown>;
    readonly overrides: Partial<SimulatorRequestInput>;
    readonly skipped: SkippedCopy[];
    /** follower trades made, over all deals */
    readonly trades: number;
  }
  const cases: ReasonCase[] = [
    {
      // max_dupe_buy_times 0: the deal has 1 buy, 1 − 1 ≥ 0 → the 2nd buy is skipped at its time
      name: 'dupe_limit',
      swaps: [buy(LEADER_A, TOKEN_X, at(100), 100, 1), buy(LEADER_A, TOKEN_X, at(200), 100, 1)],
      strategy: {},
      overrides: { max_dupe_buy_times: 0 },
      skipped: [entry(at(200), LEADER_A, TOKEN_X, 'buy', 'dupe_limit')],
      trades: 1,
    },
    {
      // a = 50 × 1 = 50 < 100
      name: 'leader_buy_too_small',
      swaps: [buy(LEADER_A, TOKEN_X, at(100), 50, 1)],
      strategy: { min_leader_buy_usd: 100 },
      overrides: {},
      skipped: [entry(at(100), LEADER_A, TOKEN_X, 'buy', 'leader_buy_too_small')],
      trades: 0,
    },
    {
      // reference liquidity 999 < 1000
      name: 'liquidity_too_low',
      swaps: [buy(LEADER_A, TOKEN_X, at(100), 50, 1, { usd_liquidity: 999 })],
      strategy: { min_liquidity_usd: 1000 },
      overrides: {},
      skipped: [entry(at(100), LEADER_A, TOKEN_X, 'buy', 'liquidity_too_low')],
      trades: 0,
    },
    {
      // X first seen at +0 (MARKET, not listed); A's buy at +3601: age 3601 > 1 × 3600
      name: 'token_too_old',
      swaps: [buy(MARKET, TOKEN_X, at(0), 1, 1), buy(LEADER_A, TOKEN_X, at(3601), 100, 1)],
      strategy: { max_token_age_hours: 1 },
      overrides: {},
      skipped: [entry(at(3601), LEADER_A, TOKEN_X, 'buy', 'token_too_old')],
      trades: 0,
    },
    {
      // max_position_amount 1000: 1st A = 1000; 2nd A = min(500, 1000, 1000 − 1000) = 0 → position_full
      name: 'position_full',
      swaps: [buy(LEADER_A, TOKEN_X, at(100), 1000, 1), buy(LEADER_A, TOKEN_X, at(200), 500, 1)],
      strategy: {},
      overrides: { max_position_amount: 1000 },
      skipped: [entry(at(200), LEADER_A, TOKEN_X, 'buy', 'position_full')],
      trades: 1,
    },
    {
      // A bought before the window (not copied, not listed: outside the window); its sell at +100
      // finds no open deal
      name: 'no_open_deal',
      swaps: [buy(LEADER_A, TOKEN_X, DAY_START - 100, 1000, 1), sell(LEADER_A, TOKEN_X, at(100), 500, 1)],
      strategy: {},
      overrides: {},
      skipped: [entry(at(100), LEADER_A, TOKEN_X, 'sell', 'no_open_deal')],
      trades: 0,
    },
    {
      // with close_all too: a sell while the token has no open deal
      name: 'no_open_deal with close_all',
      swaps: [buy(LEADER_A, TOKEN_X, DAY_START - 100, 1000, 1), sell(LEADER_A, TOKEN_X, at(100), 500, 1)],
      strategy: {},
      overrides: { close_all: true },
      skipped: [entry(at(100), LEADER_A, TOKEN_X, 'sell', 'no_open_deal')],
      trades: 0,
    },
    {
      // leaders A and B: A bought before the window (holdings 1000, no lot); B's buy at +100 opens
      // the deal; A's sell at +200: lot_A = 0, close_all off → no_lot
      name: 'no_lot',
      swaps: [
        buy(LEADER_A, TOKEN_X, DAY_START - 100, 1000, 1),
        buy(LEADER_B, TOKEN_X, at(100), 100, 1),
        sell(LEADER_A, TOKEN_X, at(200), 500, 1),
      ],
      strategy: {},
      overrides: { wallets: [LEADER_A, LEADER_B] },
      skipped: [entry(at(200), LEADER_A, TOKEN_X, 'sell', 'no_lot')],
      trades: 1,
    },
    {
      // the same with close_all: A's sell closes the whole deal (a copy, not a skip)
      name: 'no lot but close_all: copied, nothing skipped',
      swaps: [
        buy(LEADER_A, TOKEN_X, DAY_START - 100, 1000, 1),
        buy(LEADER_B, TOKEN_X, at(100), 100, 1),
        sell(LEADER_A, TOKEN_X, at(200), 500, 1),
      ],
      strategy: {},
      overrides: { wallets: [LEADER_A, LEADER_B], close_all: true },
      skipped: [],
      trades: 2,
    },
    {
      // d = 60: A's buy at END − 30 is due at END + 30 > window_end → after_window, time END + 30
      name: 'after_window',
      swaps: [buy(LEADER_A, TOKEN_X, END - 30, 100, 1)],
      strategy: { copy_delay_seconds: 60 },
      overrides: {},
      skipped: [entry(END + 30, LEADER_A, TOKEN_X, 'buy', 'after_window')],
      trades: 0,
    },
    {
      // leader swaps before and after the window and MARKET's swaps are never listed; the buy at +100 is copied
      name: 'nothing skipped inside the window: an empty list',
      swaps: [
        buy(LEADER_A, TOKEN_X, DAY_START - 100, 10, 1),
        buy(MARKET, TOKEN_X, at(50), 10, 1),
        buy(LEADER_A, TOKEN_X, at(100), 100, 1),
        sell(MARKET, TOKEN_Y, at(150), 10, 1),
        buy(LEADER_A, TOKEN_X, END + 1, 10, 1),
      ],
      strategy: { min_leader_buy_usd: 50 },
      overrides: {},
      skipped: [],
      trades: 1,
    },
  ];
  it.each(cases)('$name', ({ swaps, strategy, overrides, skipped, trades }) => {
    const response = runStrategy(swaps, { ...strategy, report_skipped: true }, overrides);
    expect(response.skipped_copies).toEqual(skipped);
    expect(response.deals.reduce((n, d) => n + d.trades_number, 0)).toBe(trades);
  });
});

describe('the order of the entries (strategy 7)', () => {
  it('without a delay: event order (time, then input order), whatever the input order', () => {
    // min_leader_buy_usd 100, max_dupe_buy_times 0. In time order:
    // +100 A sells X: no open deal.   +200 A buys Y for 50 < 100: too small.
    // +300 A buys Z (copied), A buys Z again (dupe limit), A sells Y (no open deal: Y never opened).
    const response = runStrategy(
      [
        buy(LEADER_A, TOKEN_Y, at(200), 50, 1),
        sell(LEADER_A, TOKEN_X, at(100), 10, 1),
        buy(LEADER_A, TOKEN_Z, at(300), 1000, 1),
        buy(LEADER_A, TOKEN_Z, at(300), 1000, 1),
        sell(LEADER_A, TOKEN_Y, at(300), 10, 1),
      ],
      { min_leader_buy_usd: 100, report_skipped: true },
      { max_dupe_buy_times: 0 },
    );
    expect(response.skipped_copies).toEqual([
      entry(at(100), LEADER_A, TOKEN_X, 'sell', 'no_open_deal'),
      entry(at(200), LEADER_A, TOKEN_Y, 'buy', 'leader_buy_too_small'),
      entry(at(300), LEADER_A, TOKEN_Z, 'buy', 'dupe_limit'),
      entry(at(300), LEADER_A, TOKEN_Y, 'sell', 'no_open_deal'),
    ]);
  });

  it('with a delay: at the due times, after_window entries last in the order scheduled', () => {
    // d = 60, min_leader_buy_usd 100.
    // +100 A sells X → +160: no open deal.        +200 A buys Y for 10 → +260: too small.
    // +1000 A buys X for 1000 → +1060: copied (deal X open to the end).
    // END − 70 A buys Y for 50 → END − 10: too small.
    // END − 50 A buys Z for 1000 → END + 10 and END − 40 A sells 500 X → END + 20: after_window,
    // decided when the replay ends, in the order scheduled (Z, then X).
    const response = runStrategy(
      [
        sell(LEADER_A, TOKEN_X, at(100), 10, 1),
        buy(LEADER_A, TOKEN_Y, at(200), 10, 1),
        buy(LEADER_A, TOKEN_X, at(1000), 1000, 1),
        buy(LEADER_A, TOKEN_Y, END - 70, 50, 1),
        buy(LEADER_A, TOKEN_Z, END - 50, 1000, 1),
        sell(LEADER_A, TOKEN_X, END - 40, 500, 1),
      ],
      { copy_delay_seconds: 60, min_leader_buy_usd: 100, report_skipped: true },
    );
    expect(response.skipped_copies).toEqual([
      entry(at(160), LEADER_A, TOKEN_X, 'sell', 'no_open_deal'),
      entry(at(260), LEADER_A, TOKEN_Y, 'buy', 'leader_buy_too_small'),
      entry(END - 10, LEADER_A, TOKEN_Y, 'buy', 'leader_buy_too_small'),
      entry(END + 10, LEADER_A, TOKEN_Z, 'buy', 'after_window'),
      entry(END + 20, LEADER_A, TOKEN_X, 'sell', 'after_window'),
    ]);
    expect(response.deals.map((d) => [d.token.address, d.open_time, d.trades_number])).toEqual([
      [TOKEN_X, at(1060), 1],
    ]);
  });
});

describe('addresses as the leader swap spells them (strategy 7, eth)', () => {
  const LEADER_LOWER = '0xabcdef0123456789abcdef0123456789abcdef01';
  const LEADER_CHECKSUM = '0xAbCdEf0123456789AbCdEf0123456789aBcDeF01';
  const LEADER_UPPER = '0xABCDEF0123456789ABCDEF0123456789ABCDEF01';
  const TOKEN_LOWER = '0x1111111111111111111111111111111111aaaaaa';
  const TOKEN_UPPER = '0x1111111111111111111111111111111111AAAAAA';
  const OTHER_MIXED = '0x2222222222222222222222222222222222bBbBbB';

  it('keeps the wallet and token spelling of each skipped swap', () => {
    // request wallet in lower case. +100 the checksum-cased leader buys the lower-case token
    // (copied, deal token spelled lower case). +200 the same leader (checksum) buys the same token
    // spelled upper case: dupe limit (max 0). +300 the leader spelled upper case sells another token:
    // no open deal.
    const response = simulate(
      tape(
        [
          buy(LEADER_CHECKSUM, TOKEN_LOWER, at(100), 100, 1),
          buy(LEADER_CHECKSUM, TOKEN_UPPER, at(200), 100, 1),
          sell(LEADER_UPPER, OTHER_MIXED, at(300), 10, 1),
        ],
        { network: 'eth' },
      ),
      {
        ...request({ network: 'eth', wallets: [LEADER_LOWER], max_dupe_buy_times: 0 }),
        strategy: { report_skipped: true },
      },
      { unknown_liquidity_slippage_percent: 0, base_fee_native: { eth: 0.01 } },
    ) as StrategyResponse;
    expect(response.deals.map((d) => d.token.address)).toEqual([TOKEN_LOWER]);
    expect(response.skipped_copies).toEqual([
      entry(at(200), LEADER_CHECKSUM, TOKEN_UPPER, 'buy', 'dupe_limit'),
      entry(at(300), LEADER_UPPER, OTHER_MIXED, 'sell', 'no_open_deal'),
    ]);
  });
});

describe('the member itself (strategy 7)', () => {
  // A's second buy is skipped (dupe limit); the first is copied
  const swaps = [buy(LEADER_A, TOKEN_X, at(100), 100, 1), buy(LEADER_A, TOKEN_X, at(200), 100, 1)];

  it.each([
    { name: 'no strategy', overrides: { max_dupe_buy_times: 0 } },
    {
      name: 'a strategy without report_skipped',
      overrides: { max_dupe_buy_times: 0, strategy: { min_leader_buy_usd: 10 } },
    },
    { name: 'report_skipped false', overrides: { max_dupe_buy_times: 0, strategy: { report_skipped: false } } },
  ])('is absent with $name', ({ overrides }) => {
    const response = run(swaps, overrides as Partial<SimulatorRequestInput>, FLAT_OPTIONS);
    expect('skipped_copies' in response).toBe(false);
    expect(JSON.stringify(response)).not.toContain('skipped_copies');
  });

  it('is an empty array when nothing was skipped', () => {
    const response = runStrategy(swaps, { report_skipped: true });
    expect(response.deals[0]!.trades_number).toBe(2);
    expect(response.skipped_copies).toEqual([]);
  });

  it('is an empty array when no leader swaps at all', () => {
    const response = runStrategy([buy(MARKET, TOKEN_X, at(100), 100, 1)], { report_skipped: true });
    expect(response.deals).toEqual([]);
    expect(response.skipped_copies).toEqual([]);
  });
});
