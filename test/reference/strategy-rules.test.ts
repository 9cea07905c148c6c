/**
 * Rules of the strategy extensions (../shared/spec/strategy-extensions.md), of the copier's wallet
 * (../shared/spec/copier-wallet.md) and of the model's input checks, on the reference model
 * itself: an absent, null or empty `strategy` gives exactly the model 1.2 response; a `strategy`
 * or request that breaks a constraint gives the
 * 400 body with the member's path; a swap time of 10^11 or more is an input error; and a few
 * small scenarios whose trades can be read off by hand.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { goldenCases } from '../support/golden.js';
import { MODEL_CASES_DIR, present } from '../support/paths.js';
import { ReferenceInputError, ReferenceRequestError, referenceSimulate } from './model.js';

type Json = Record<string, unknown>;

const DAY = Date.UTC(2024, 2, 10) / 1000; // 2024-03-10 00:00:00 UTC

const LEADER = 'Leader1111111111111111111111111111111111111';
const MARKET = 'Market3333333333333333333333333333333333333';
const TOKEN = 'TokenAAA1111111111111111111111111111111111';

function request(extra: Json = {}): Json {
  return {
    wallets: [LEADER],
    network: 'sol',
    from_date: '2024-03-10',
    to_date: '2024-03-10',
    buy_percentage: 100,
    max_buy_amount: 1000,
    max_position_amount: 5000,
    priority_fee: 0.0001,
    bribe: 0,
    max_dupe_buy_times: 2,
    ...extra,
  };
}

function swap(
  wallet: string,
  type: 'buy' | 'sell',
  second: number,
  quantity: number,
  usd_price: number,
  usd_liquidity: number | null = 100000,
): Json {
  return { wallet, token: TOKEN, type, time: DAY + second, quantity, usd_price, usd_liquidity };
}

function tape(swaps: Json[]): Json {
  return { network: 'sol', tokens: {}, native_prices: [[DAY, 150]], swaps };
}

/** The 400 body the reference gives for a request, or null when it answers. */
function refusal(req: unknown, t: Json = tape([])): { code: string; detail: unknown } | null {
  try {
    referenceSimulate(t, req);
    return null;
  } catch (e) {
    if (e instanceof ReferenceRequestError) return e.body;
    throw e;
  }
}

function paths(body: { detail: unknown } | null): string[] {
  return Array.isArray(body?.detail) ? (body.detail as Array<{ path: string }>).map((p) => p.path) : [];
}

interface TradeOut {
  type: string;
  time: number;
  quantity: number;
  usd_price: number;
}
interface DealOut {
  special_tag: string | null;
  status: string;
  trades: TradeOut[];
}

function deals(body: unknown): DealOut[] {
  return (body as { deals: DealOut[] }).deals;
}

describe.skipIf(!present(MODEL_CASES_DIR))('without a strategy, exactly model 1.2 (S intro, W intro)', () => {
  const read = (name: string, file: string): Json =>
    JSON.parse(readFileSync(join(MODEL_CASES_DIR, name, file), 'utf8')) as Json;
  for (const name of goldenCases(MODEL_CASES_DIR)) {
    const expected = read(name, 'expected.json');
    if (expected['exit_code'] !== 0) continue;
    it(name, () => {
      const t = read(name, 'tape.json');
      const r = read(name, 'request.json');
      const o = read(name, 'options.json');
      const base = referenceSimulate(t, r, o);
      const defaults = { report_skipped: false, take_profit: [], copy_delay_seconds: 0, min_leader_buy_usd: 0 };
      // W-7: report_wallet false and report_leaders false add no member; null is "not set"
      const unset = { report_wallet: false, report_leaders: false, starting_balance_usd: null, max_open_deals: null };
      for (const strategy of [null, {}, defaults, unset]) {
        expect(referenceSimulate(t, { ...r, strategy }, o)).toEqual(base);
      }
      expect(JSON.stringify(referenceSimulate(t, { ...r, strategy: {} }, o))).toBe(JSON.stringify(base));
    });
  }
});

describe('request validation (1.2, 7, S-1)', () => {
  it('accepts a valid request, with or without a strategy', () => {
    expect(refusal(request())).toBeNull();
    expect(refusal(request({ strategy: null }))).toBeNull();
    expect(
      refusal(request({ strategy: { take_profit: [{ roi: 10, sell_percent: 100 }], max_hold_hours: null } })),
    ).toBeNull();
  });

  it('a strategy that is not an object or null', () => {
    for (const strategy of [5, 'x', [], true]) {
      const body = refusal(request({ strategy }));
      expect(body?.code).toBe('validation_error');
      expect(paths(body)).toEqual(['strategy']);
    }
  });

  const cases: Array<[Json, string]> = [
    [{ copy_delay_seconds: 86401 }, 'strategy.copy_delay_seconds'],
    [{ copy_delay_seconds: -1 }, 'strategy.copy_delay_seconds'],
    [{ copy_delay_seconds: 1.5 }, 'strategy.copy_delay_seconds'],
    [{ copy_delay_seconds: null }, 'strategy.copy_delay_seconds'],
    [{ fixed_buy_amount: 0 }, 'strategy.fixed_buy_amount'],
    [{ min_leader_buy_usd: -1 }, 'strategy.min_leader_buy_usd'],
    [{ min_liquidity_usd: -0.5 }, 'strategy.min_liquidity_usd'],
    [{ max_token_age_hours: 0 }, 'strategy.max_token_age_hours'],
    [{ max_token_age_hours: 8761 }, 'strategy.max_token_age_hours'],
    [{ take_profit: [{ roi: 0, sell_percent: 10 }] }, 'strategy.take_profit.0.roi'],
    [{ take_profit: [{ roi: 5, sell_percent: 0 }] }, 'strategy.take_profit.0.sell_percent'],
    [{ take_profit: [{ roi: 5, sell_percent: 100.5 }] }, 'strategy.take_profit.0.sell_percent'],
    [
      {
        take_profit: [
          { roi: 5, sell_percent: 10 },
          { roi: 5, sell_percent: 10 },
        ],
      },
      'strategy.take_profit.1.roi',
    ],
    [{ take_profit: [{ roi: 5, sell_percent: 10, note: 'x' }] }, 'strategy.take_profit.0.note'],
    [{ take_profit: [{ roi: 5 }] }, 'strategy.take_profit.0.sell_percent'],
    [{ take_profit: Array.from({ length: 11 }, (_, i) => ({ roi: i + 1, sell_percent: 10 })) }, 'strategy.take_profit'],
    [{ take_profit: null }, 'strategy.take_profit'],
    [{ stop_loss_percent: 100 }, 'strategy.stop_loss_percent'],
    [{ stop_loss_percent: 0 }, 'strategy.stop_loss_percent'],
    [{ trailing_stop_percent: 100 }, 'strategy.trailing_stop_percent'],
    [{ max_hold_hours: 0 }, 'strategy.max_hold_hours'],
    [{ report_skipped: 'yes' }, 'strategy.report_skipped'],
    [{ stop_los_percent: 10 }, 'strategy.stop_los_percent'],
  ];
  for (const [strategy, path] of cases) {
    it(`${JSON.stringify(strategy).slice(0, 80)} -> ${path}`, () => {
      const body = refusal(request({ strategy }));
      expect(body?.code).toBe('validation_error');
      expect(paths(body)).toEqual([path]);
    });
  }

  it('accepts the bounds themselves', () => {
    const strategy = {
      copy_delay_seconds: 86400,
      fixed_buy_amount: 0.01,
      min_leader_buy_usd: 0,
      min_liquidity_usd: 0,
      max_token_age_hours: 8760,
      take_profit: Array.from({ length: 10 }, (_, i) => ({ roi: i + 1, sell_percent: 100 })),
      stop_loss_percent: 99.9,
      trailing_stop_percent: 0.1,
      max_hold_hours: 1,
      report_skipped: true,
    };
    expect(refusal(request({ strategy }))).toBeNull();
  });

  it('a member the interface does not define, at the top level or inside inactivity_time_fix (1.2)', () => {
    expect(paths(refusal(request({ colse_all: true })))).toEqual(['colse_all']);
    expect(paths(refusal(request({ inactivity_time_fix: { hours: 2, minutes: 5 } })))).toEqual([
      'inactivity_time_fix.minutes',
    ]);
  });

  it('the interface constraints and 1.2 dates', () => {
    expect(paths(refusal(request({ wallets: [] })))).toEqual(['wallets']);
    expect(paths(refusal(request({ wallets: [LEADER, LEADER] })))).toEqual(['wallets.1']);
    expect(paths(refusal(request({ buy_percentage: 0 })))).toEqual(['buy_percentage']);
    expect(paths(refusal(request({ inactivity_time_fix: { hours: 193 } })))).toEqual(['inactivity_time_fix.hours']);
    expect(paths(refusal(request({ from_date: '2024-3-10' })))).toEqual(['from_date']);
    expect(refusal(request({ from_date: '2024-03-11' }))?.code).toBe('invalid_date_range');
    expect(refusal(request({ to_date: '2024-02-30', from_date: '2024-02-01' }))?.code).toBe('invalid_date_range');
    expect(refusal(request({ to_date: '2024-02-29', from_date: '2024-02-01' }))).toBeNull();
  });
});

describe('swap time (1.1, model 1.1)', () => {
  it('a time of 10^11 or more is an input error that says it looks like milliseconds', () => {
    const t = tape([{ ...swap(LEADER, 'buy', 0, 1, 1), time: 1e11 }]);
    expect(() => referenceSimulate(t, request())).toThrow(ReferenceInputError);
    expect(() => referenceSimulate(t, request())).toThrow(/swap 0.*time.*milliseconds/);
    const ok = tape([{ ...swap(LEADER, 'buy', 0, 1, 1), time: 1e11 - 1 }]);
    expect(() => referenceSimulate(ok, request({ to_date: '5138-11-16' }))).not.toThrow();
  });
});

describe('small scenarios of the strategy extensions', () => {
  it('S-5: a deal a pending copy bought into at step 1 of a swap is checked at that swap', () => {
    const t = tape([swap(LEADER, 'buy', 100, 100, 1), swap(MARKET, 'sell', 110, 1, 0.5)]);
    const body = referenceSimulate(t, request({ strategy: { copy_delay_seconds: 10, stop_loss_percent: 10 } }));
    const [deal] = deals(body);
    expect(deal!.trades.map((x) => [x.type, x.time - DAY])).toEqual([
      ['buy', 110],
      ['sell_stop_loss', 110],
    ]);
    expect(deal!.special_tag).toBe('stop_loss');
  });

  it('S-5: exits are not checked right after a follower buy (d = 0: step 3 follows the check)', () => {
    // the deal opens at step 3 of the swap at 100, after that swap's exit check; the leader's
    // second buy at a tenth of the price is checked (step 2.5) before it is copied (step 3)
    const t = tape([swap(LEADER, 'buy', 100, 100, 1), swap(LEADER, 'buy', 200, 100, 0.1)]);
    const body = referenceSimulate(t, request({ strategy: { stop_loss_percent: 50 } }));
    const [deal] = deals(body);
    // at 200 the exit check (ROI −90 %) runs before step 3: the deal is stopped out, then a new deal opens
    expect(deal!.trades.map((x) => x.type)).toEqual(['buy', 'sell_stop_loss']);
    expect(deals(body)[1]!.trades.map((x) => x.type)).toEqual(['buy']);
  });

  it('S-5.1: several take-profit levels at one swap, each its own trade, of what is held then', () => {
    const t = tape([swap(LEADER, 'buy', 100, 100, 1), swap(MARKET, 'buy', 200, 1, 3)]);
    const body = referenceSimulate(
      t,
      request({
        strategy: {
          take_profit: [
            { roi: 10, sell_percent: 50 },
            { roi: 20, sell_percent: 50 },
          ],
        },
      }),
    );
    const [deal] = deals(body);
    const [buy, tp1, tp2] = deal!.trades;
    expect([tp1!.type, tp2!.type]).toEqual(['sell_take_profit', 'sell_take_profit']);
    expect(tp1!.quantity).toBeCloseTo(buy!.quantity / 2, 12);
    expect(tp2!.quantity).toBeCloseTo(buy!.quantity / 4, 12);
    expect(deal!.status).toBe('open');
  });

  it('S-2, S-7: a pending copy due after window_end is listed last with after_window', () => {
    const t = tape([swap(LEADER, 'buy', 86390, 100, 1), swap(LEADER, 'buy', 100, 10, 1)]);
    const body = referenceSimulate(
      t,
      request({ strategy: { copy_delay_seconds: 30, min_leader_buy_usd: 50, report_skipped: true } }),
    ) as Json;
    expect(body['skipped_copies']).toEqual([
      { time: DAY + 130, wallet: LEADER, token: TOKEN, type: 'buy', reason: 'leader_buy_too_small' },
      { time: DAY + 86420, wallet: LEADER, token: TOKEN, type: 'buy', reason: 'after_window' },
    ]);
    expect(deals(body)).toEqual([]);
  });
});
