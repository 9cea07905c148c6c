/**
 * Strategy extensions (model 2.0) section 1: the request's `strategy` member. A strategy that
 * breaks a constraint, has an unknown member, or is not an object or null gives the 400
 * `validation_error` with the path of the member (written as the project writes paths:
 * `strategy.take_profit[1].roi`). And the opt-in promise: a request with `strategy: null`, `{}`,
 * or only default values (copy_delay_seconds 0 …) gives the model 1.1 response byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { RequestError } from '../../src/model/errors.js';
import { parseSimulatorRequest, type SimulatorRequestInput } from '../../src/model/request.js';
import { ErrorBodySchema } from '../../src/model/response.js';
import { simulate } from '../../src/simulate.js';
import {
  at,
  buy,
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
} from '../support/scenario.js';

/** The default request with `strategy` set to `strategy`. */
function withStrategy(strategy: unknown): Record<string, unknown> {
  return { ...request(), strategy };
}

const level = (roi: number, sell_percent: number) => ({ roi, sell_percent });
/** n levels of roi 10, 20, …, each selling 10 %. */
const levels = (n: number) => Array.from({ length: n }, (_, i) => level(10 * (i + 1), 10));

describe('a strategy that breaks a constraint → validation_error at its path (strategy 1)', () => {
  interface BadCase {
    readonly name: string;
    readonly strategy: unknown;
    readonly path: string;
    /** a word the message should hold, when the constraint suggests one */
    readonly says?: RegExp;
  }
  const cases: BadCase[] = [
    // copy_delay_seconds: integer, 0 to 86400
    { name: 'copy_delay_seconds −1', strategy: { copy_delay_seconds: -1 }, path: 'strategy.copy_delay_seconds' },
    {
      name: 'copy_delay_seconds 86401',
      strategy: { copy_delay_seconds: 86_401 },
      path: 'strategy.copy_delay_seconds',
      says: /86400/,
    },
    { name: 'copy_delay_seconds 1.5', strategy: { copy_delay_seconds: 1.5 }, path: 'strategy.copy_delay_seconds' },
    {
      name: 'copy_delay_seconds a string',
      strategy: { copy_delay_seconds: '10' },
      path: 'strategy.copy_delay_seconds',
    },
    { name: 'copy_delay_seconds null', strategy: { copy_delay_seconds: null }, path: 'strategy.copy_delay_seconds' },
    // fixed_buy_amount: number > 0 or null
    { name: 'fixed_buy_amount 0', strategy: { fixed_buy_amount: 0 }, path: 'strategy.fixed_buy_amount' },
    { name: 'fixed_buy_amount −5', strategy: { fixed_buy_amount: -5 }, path: 'strategy.fixed_buy_amount' },
    { name: 'fixed_buy_amount a string', strategy: { fixed_buy_amount: '100' }, path: 'strategy.fixed_buy_amount' },
    // min_leader_buy_usd: number ≥ 0 (not nullable)
    { name: 'min_leader_buy_usd −0.01', strategy: { min_leader_buy_usd: -0.01 }, path: 'strategy.min_leader_buy_usd' },
    { name: 'min_leader_buy_usd null', strategy: { min_leader_buy_usd: null }, path: 'strategy.min_leader_buy_usd' },
    // min_liquidity_usd: number ≥ 0 or null
    { name: 'min_liquidity_usd −1', strategy: { min_liquidity_usd: -1 }, path: 'strategy.min_liquidity_usd' },
    { name: 'min_liquidity_usd a boolean', strategy: { min_liquidity_usd: true }, path: 'strategy.min_liquidity_usd' },
    // max_token_age_hours: integer, 1 to 8760, or null
    { name: 'max_token_age_hours 0', strategy: { max_token_age_hours: 0 }, path: 'strategy.max_token_age_hours' },
    {
      name: 'max_token_age_hours 8761',
      strategy: { max_token_age_hours: 8761 },
      path: 'strategy.max_token_age_hours',
      says: /8760/,
    },
    { name: 'max_token_age_hours 1.5', strategy: { max_token_age_hours: 1.5 }, path: 'strategy.max_token_age_hours' },
    // take_profit: at most 10 levels, roi > 0, 0 < sell_percent ≤ 100, roi strictly increasing
    {
      name: 'take_profit with 11 levels',
      strategy: { take_profit: levels(11) },
      path: 'strategy.take_profit',
      says: /10/,
    },
    { name: 'take_profit not an array', strategy: { take_profit: level(10, 10) }, path: 'strategy.take_profit' },
    {
      name: 'a take_profit level not an object',
      strategy: { take_profit: [level(10, 10), 20] },
      path: 'strategy.take_profit[1]',
    },
    { name: 'take_profit roi 0', strategy: { take_profit: [level(0, 10)] }, path: 'strategy.take_profit[0].roi' },
    { name: 'take_profit roi −10', strategy: { take_profit: [level(-10, 10)] }, path: 'strategy.take_profit[0].roi' },
    {
      name: 'take_profit roi missing',
      strategy: { take_profit: [{ sell_percent: 10 }] },
      path: 'strategy.take_profit[0].roi',
    },
    {
      name: 'take_profit sell_percent 0',
      strategy: { take_profit: [level(10, 0)] },
      path: 'strategy.take_profit[0].sell_percent',
    },
    {
      name: 'take_profit sell_percent 100.01',
      strategy: { take_profit: [level(10, 100.01)] },
      path: 'strategy.take_profit[0].sell_percent',
    },
    {
      name: 'take_profit sell_percent missing',
      strategy: { take_profit: [{ roi: 10 }] },
      path: 'strategy.take_profit[0].sell_percent',
    },
    {
      name: 'take_profit roi equal to the previous level',
      strategy: { take_profit: [level(10, 10), level(10, 20)] },
      path: 'strategy.take_profit[1].roi',
      says: /increasing/,
    },
    {
      name: 'take_profit roi below the previous level',
      strategy: { take_profit: [level(10, 10), level(50, 10), level(20, 10)] },
      path: 'strategy.take_profit[2].roi',
      says: /increasing/,
    },
    {
      name: 'an unknown member of a take_profit level',
      strategy: { take_profit: [{ roi: 10, sell_percent: 10, price: 2 }] },
      path: 'strategy.take_profit[0].price',
    },
    // stop_loss_percent, trailing_stop_percent: 0 < x < 100, or null
    { name: 'stop_loss_percent 0', strategy: { stop_loss_percent: 0 }, path: 'strategy.stop_loss_percent' },
    { name: 'stop_loss_percent 100', strategy: { stop_loss_percent: 100 }, path: 'strategy.stop_loss_percent' },
    { name: 'stop_loss_percent −5', strategy: { stop_loss_percent: -5 }, path: 'strategy.stop_loss_percent' },
    { name: 'trailing_stop_percent 0', strategy: { trailing_stop_percent: 0 }, path: 'strategy.trailing_stop_percent' },
    {
      name: 'trailing_stop_percent 100',
      strategy: { trailing_stop_percent: 100 },
      path: 'strategy.trailing_stop_percent',
    },
    {
      name: 'trailing_stop_percent a string',
      strategy: { trailing_stop_percent: '10' },
      path: 'strategy.trailing_stop_percent',
    },
    // max_hold_hours: integer, 1 to 8760, or null
    { name: 'max_hold_hours 0', strategy: { max_hold_hours: 0 }, path: 'strategy.max_hold_hours' },
    { name: 'max_hold_hours 8761', strategy: { max_hold_hours: 8761 }, path: 'strategy.max_hold_hours', says: /8760/ },
    { name: 'max_hold_hours 2.5', strategy: { max_hold_hours: 2.5 }, path: 'strategy.max_hold_hours' },
    // report_skipped: boolean
    { name: 'report_skipped a string', strategy: { report_skipped: 'yes' }, path: 'strategy.report_skipped' },
    { name: 'report_skipped 1', strategy: { report_skipped: 1 }, path: 'strategy.report_skipped' },
    { name: 'report_skipped null', strategy: { report_skipped: null }, path: 'strategy.report_skipped' },
    // unknown members: named, so a misspelt setting never falls back to its default
    { name: 'an unknown member', strategy: { foo: 1 }, path: 'strategy.foo' },
    { name: 'a misspelt member', strategy: { copy_delay: 30 }, path: 'strategy.copy_delay' },
    // not an object (nor null)
    { name: 'strategy a number', strategy: 5, path: 'strategy' },
    { name: 'strategy a string', strategy: 'aggressive', path: 'strategy' },
    { name: 'strategy an array', strategy: [], path: 'strategy' },
    { name: 'strategy a boolean', strategy: true, path: 'strategy' },
  ];

  it.each(cases)('$name → $path', ({ strategy, path, says }) => {
    const result = parseSimulatorRequest(withStrategy(strategy));
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(ErrorBodySchema.parse(result.error)).toEqual(result.error);
    expect(result.error.code).toBe('validation_error');
    // broken alone: exactly one problem, at that path, with a message
    expect(result.error.detail).toEqual([{ path, message: expect.stringMatching(/\S/) }]);
    if (says && result.error.code === 'validation_error') expect(result.error.detail[0]!.message).toMatch(says);
  });

  it('reports every broken member of one strategy', () => {
    const result = parseSimulatorRequest(
      withStrategy({ copy_delay_seconds: -1, stop_loss_percent: 100, take_profit: [level(10, 10), level(5, 10)] }),
    );
    expect(result.success).toBe(false);
    if (result.success || result.error.code !== 'validation_error') return;
    expect(result.error.detail.map((p) => p.path).sort()).toEqual([
      'strategy.copy_delay_seconds',
      'strategy.stop_loss_percent',
      'strategy.take_profit[1].roi',
    ]);
  });

  it('simulate throws a RequestError with the 400 body, computing nothing', () => {
    let caught: unknown;
    try {
      simulate(tape([buy(LEADER_A, TOKEN_X, at(100), 100, 1)]), withStrategy({ max_hold_hours: 0 }), FLAT_OPTIONS);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(RequestError);
    const body = (caught as RequestError).body;
    expect(body.code).toBe('validation_error');
    expect(body.code === 'validation_error' ? body.detail.map((p) => p.path) : []).toEqual(['strategy.max_hold_hours']);
  });
});

describe('a valid strategy is accepted (strategy 1)', () => {
  it.each([
    { name: 'null', strategy: null },
    { name: '{}', strategy: {} },
    { name: 'copy_delay_seconds 86400', strategy: { copy_delay_seconds: 86_400 } },
    { name: 'copy_delay_seconds 0', strategy: { copy_delay_seconds: 0 } },
    { name: 'fixed_buy_amount null', strategy: { fixed_buy_amount: null } },
    { name: 'fixed_buy_amount 0.01', strategy: { fixed_buy_amount: 0.01 } },
    { name: 'min_leader_buy_usd 0', strategy: { min_leader_buy_usd: 0 } },
    { name: 'min_liquidity_usd 0', strategy: { min_liquidity_usd: 0 } },
    { name: 'min_liquidity_usd null', strategy: { min_liquidity_usd: null } },
    { name: 'max_token_age_hours 1', strategy: { max_token_age_hours: 1 } },
    { name: 'max_token_age_hours 8760', strategy: { max_token_age_hours: 8760 } },
    { name: 'max_token_age_hours null', strategy: { max_token_age_hours: null } },
    { name: 'take_profit empty', strategy: { take_profit: [] } },
    { name: 'take_profit with 10 levels', strategy: { take_profit: levels(10) } },
    {
      name: 'take_profit sell_percent 100 and fractional roi',
      strategy: { take_profit: [level(0.5, 100), level(0.51, 0.001)] },
    },
    {
      name: 'stop_loss_percent 99.99 and trailing 0.01',
      strategy: { stop_loss_percent: 99.99, trailing_stop_percent: 0.01 },
    },
    { name: 'max_hold_hours 8760', strategy: { max_hold_hours: 8760 } },
    { name: 'max_hold_hours null', strategy: { max_hold_hours: null } },
    { name: 'report_skipped true', strategy: { report_skipped: true } },
  ])('$name', ({ strategy }) => {
    const result = parseSimulatorRequest(withStrategy(strategy));
    expect(result.success ? 'ok' : result.error).toBe('ok');
  });

  it('buy_percentage is still validated with a fixed_buy_amount', () => {
    const result = parseSimulatorRequest({ ...withStrategy({ fixed_buy_amount: 100 }), buy_percentage: 0 });
    expect(result.success).toBe(false);
    if (result.success || result.error.code !== 'validation_error') return;
    expect(result.error.detail.map((p) => p.path)).toEqual(['buy_percentage']);
  });
});

describe('a strategy of defaults gives the model 1.1 response byte for byte (strategy, opening)', () => {
  // A scenario touching most of model 1.1: two leaders, two tokens, liquidity and its fallback,
  // proportional sells, a dupe-limited buy, a time-fix, an open deal at window_end, bot fees.
  const swaps = [
    buy(MARKET, TOKEN_Y, at(10), 5, 0.3, { usd_liquidity: 80_000 }),
    buy(LEADER_A, TOKEN_X, at(100), 1000, 1.25, { usd_liquidity: 250_000 }),
    buy(LEADER_B, TOKEN_X, at(200), 300, 1.3),
    buy(LEADER_A, TOKEN_Y, at(300), 20_000, 0.31),
    buy(MARKET, TOKEN_X, at(900), 10, 1.7, { usd_liquidity: 260_000 }),
    sell(LEADER_A, TOKEN_X, at(1500), 400, 1.8),
    buy(LEADER_B, TOKEN_X, at(1600), 100, 1.75),
    buy(LEADER_B, TOKEN_X, at(1700), 100, 1.76),
    sell(LEADER_B, TOKEN_X, at(2000), 500, 1.9),
    buy(MARKET, TOKEN_Y, at(30_000), 5, 0.2),
  ];
  const base: Partial<SimulatorRequestInput> = {
    wallets: [LEADER_A, LEADER_B],
    buy_percentage: 40,
    max_buy_amount: 700,
    max_dupe_buy_times: 1,
    include_bot_fees: true,
    inactivity_time_fix: { hours: 5 },
    priority_fee: 0.001,
  };
  const options = { unknown_liquidity_slippage_percent: 1.5 };
  const plain = JSON.stringify(run(swaps, base, options));

  it.each([
    { name: 'null', strategy: null },
    { name: '{}', strategy: {} },
    { name: 'copy_delay_seconds 0', strategy: { copy_delay_seconds: 0 } },
    {
      name: 'every member at its default',
      strategy: {
        copy_delay_seconds: 0,
        fixed_buy_amount: null,
        min_leader_buy_usd: 0,
        min_liquidity_usd: null,
        max_token_age_hours: null,
        take_profit: [],
        stop_loss_percent: null,
        trailing_stop_percent: null,
        max_hold_hours: null,
        report_skipped: false,
      },
    },
  ])('strategy $name', ({ strategy }) => {
    // the scenario is not trivial: several deals and trades
    expect(JSON.parse(plain).deals.length).toBeGreaterThanOrEqual(2);
    const withIt = JSON.stringify(run(swaps, { ...base, strategy } as Partial<SimulatorRequestInput>, options));
    expect(withIt).toBe(plain);
  });
});
