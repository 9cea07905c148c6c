/**
 * The simulator request (interface 4.1, model 1.2): each constraint broken alone gives the right
 * 400 body: `validation_error` with the offending `path`, or `invalid_date_range` for dates that
 * are no calendar dates or are out of order. Validation never throws and applies the defaults.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestError } from '../../src/model/errors.js';
import { closestName } from '../../src/model/names.js';
import { parseSimulatorRequest } from '../../src/model/request.js';
import { ErrorBodySchema } from '../../src/model/response.js';
import { simulate } from '../../src/simulate.js';
import { request, tape } from '../support/scenario.js';

const REQUIRED = [
  'wallets',
  'network',
  'from_date',
  'to_date',
  'buy_percentage',
  'max_buy_amount',
  'max_position_amount',
  'priority_fee',
  'bribe',
  'max_dupe_buy_times',
] as const;

/** A valid request with `patch` applied (a value of `undefined` removes the field). */
function broken(patch: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...request(), ...patch };
  for (const [key, value] of Object.entries(patch)) if (value === undefined) delete body[key];
  return body;
}

const wallets = (n: number) => Array.from({ length: n }, (_, i) => `Wallet${i}`);

describe('validation_error (interface 4.1)', () => {
  it.each([
    { name: 'wallets empty', patch: { wallets: [] }, path: 'wallets' },
    { name: 'wallets with 101 items', patch: { wallets: wallets(101) }, path: 'wallets' },
    { name: 'wallets not an array', patch: { wallets: 'Wallet0' }, path: 'wallets' },
    { name: 'a wallet not a string', patch: { wallets: ['Wallet0', 7] }, path: 'wallets[1]' },
    { name: 'a duplicate wallet', patch: { wallets: ['Wallet0', 'Wallet1', 'Wallet0'] }, path: 'wallets[2]' },
    { name: 'network unknown', patch: { network: 'btc' }, path: 'network' },
    { name: 'network in upper case', patch: { network: 'SOL' }, path: 'network' },
    { name: 'from_date with slashes', patch: { from_date: '2024/03/10' }, path: 'from_date' },
    { name: 'from_date without zero padding', patch: { from_date: '2024-3-10' }, path: 'from_date' },
    { name: 'from_date with a time', patch: { from_date: '2024-03-10T00:00:00Z' }, path: 'from_date' },
    { name: 'to_date day first', patch: { to_date: '10-03-2024' }, path: 'to_date' },
    { name: 'to_date a number', patch: { to_date: 20240310 }, path: 'to_date' },
    { name: 'buy_percentage 0', patch: { buy_percentage: 0 }, path: 'buy_percentage' },
    { name: 'buy_percentage 1.5 (not an integer)', patch: { buy_percentage: 1.5 }, path: 'buy_percentage' },
    { name: 'buy_percentage a string', patch: { buy_percentage: '50' }, path: 'buy_percentage' },
    { name: 'max_buy_amount 0', patch: { max_buy_amount: 0 }, path: 'max_buy_amount' },
    { name: 'max_position_amount −1', patch: { max_position_amount: -1 }, path: 'max_position_amount' },
    { name: 'priority_fee −1', patch: { priority_fee: -1 }, path: 'priority_fee' },
    { name: 'bribe −1', patch: { bribe: -1 }, path: 'bribe' },
    { name: 'max_dupe_buy_times −1', patch: { max_dupe_buy_times: -1 }, path: 'max_dupe_buy_times' },
    { name: 'max_dupe_buy_times 0.5', patch: { max_dupe_buy_times: 0.5 }, path: 'max_dupe_buy_times' },
    { name: 'close_all not a boolean', patch: { close_all: 'yes' }, path: 'close_all' },
    {
      name: 'inactivity_time_fix.hours 0',
      patch: { inactivity_time_fix: { hours: 0 } },
      path: 'inactivity_time_fix.hours',
    },
    {
      name: 'inactivity_time_fix.hours 193',
      patch: { inactivity_time_fix: { hours: 193 } },
      path: 'inactivity_time_fix.hours',
    },
    {
      name: 'inactivity_time_fix.hours 1.5',
      patch: { inactivity_time_fix: { hours: 1.5 } },
      path: 'inactivity_time_fix.hours',
    },
    {
      name: 'inactivity_time_fix.hours missing',
      patch: { inactivity_time_fix: {} },
      path: 'inactivity_time_fix.hours',
    },
    { name: 'inactivity_time_fix a number', patch: { inactivity_time_fix: 24 }, path: 'inactivity_time_fix' },
    { name: 'include_bot_fees not a boolean', patch: { include_bot_fees: 1 }, path: 'include_bot_fees' },
    ...REQUIRED.map((field) => ({ name: `${field} missing`, patch: { [field]: undefined }, path: field })),
  ])('$name → validation_error at $path', ({ patch, path }) => {
    const result = parseSimulatorRequest(broken(patch));
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe('validation_error');
    // broken alone: exactly one problem, at that path, with a message
    expect(result.error.detail).toEqual([{ path, message: expect.stringMatching(/\S/) }]);
  });

  it('a body that is not an object → validation_error at the root', () => {
    for (const body of [null, [], 'request', 42]) {
      const result = parseSimulatorRequest(body);
      expect(result.success ? null : result.error.code).toBe('validation_error');
    }
  });
});

describe('a member the interface does not define (model 1.1, 1.2)', () => {
  it.each([
    {
      name: 'a misspelt optional setting, camel case',
      patch: { closeAll: true },
      path: 'closeAll',
      message: 'unknown member "closeAll": did you mean "close_all"?',
    },
    {
      name: 'a typo',
      patch: { include_bot_fee: true },
      path: 'include_bot_fee',
      message: 'unknown member "include_bot_fee": did you mean "include_bot_fees"?',
    },
    {
      name: 'a dash for an underscore',
      patch: { 'max-buy-amount': 5 },
      path: 'max-buy-amount',
      message: 'unknown member "max-buy-amount": did you mean "max_buy_amount"?',
    },
    {
      name: 'inside inactivity_time_fix',
      patch: { inactivity_time_fix: { hours: 2, hour: 3 } },
      path: 'inactivity_time_fix.hour',
      message: 'unknown member "hour": did you mean "hours"?',
    },
    {
      name: 'a strategy setting at the top level',
      patch: { stop_loss: 20 },
      path: 'stop_loss',
      message: 'unknown member "stop_loss": did you mean "strategy.stop_loss_percent"?',
    },
    {
      name: 'a name close to none',
      patch: { speed: 1 },
      path: 'speed',
      message:
        'unknown member "speed": the members here are: wallets, network, from_date, to_date, buy_percentage, max_buy_amount, ' +
        'max_position_amount, priority_fee, bribe, max_dupe_buy_times, close_all, inactivity_time_fix, include_bot_fees, strategy',
    },
    {
      name: 'inside strategy, a name cut short',
      patch: { strategy: { stop_loss: 20 } },
      path: 'strategy.stop_loss',
      message: 'unknown member "stop_loss": did you mean "stop_loss_percent"?',
    },
    {
      name: 'inside a take-profit level',
      patch: { strategy: { take_profit: [{ roi: 50, sell_percent: 50, sell_percnt: 1 }] } },
      path: 'strategy.take_profit[0].sell_percnt',
      message: 'unknown member "sell_percnt": did you mean "sell_percent"?',
    },
  ])('$name → validation_error naming it', ({ patch, path, message }) => {
    expect(parseSimulatorRequest(broken(patch))).toEqual({
      success: false,
      error: { code: 'validation_error', detail: [{ path, message }] },
    });
  });

  it('names every unknown member, each on its own', () => {
    const result = parseSimulatorRequest(broken({ closeAll: true, foo: 1 }));
    expect(
      result.success === false && result.error.code === 'validation_error' && result.error.detail.map((p) => p.path),
    ).toEqual(['closeAll', 'foo']);
  });
});

describe('closestName', () => {
  const names = ['close_all', 'include_bot_fees', 'max_buy_amount', 'max_position_amount'];
  it.each([
    ['CLOSE_ALL', 'close_all'],
    ['closeall', 'close_all'],
    ['max_buy_amout', 'max_buy_amount'],
    ['max_positon_amount', 'max_position_amount'],
    ['xyz', null],
    ['close', 'close_all'],
    ['max', null],
    ['max_', null],
  ])('%s → %s', (key, expected) => expect(closestName(key, names)).toBe(expected));
});

describe('invalid_date_range (model 1.2)', () => {
  it.each([
    { name: 'from_date 2024-02-30', patch: { from_date: '2024-02-30', to_date: '2024-03-10' } },
    { name: 'to_date 2023-02-29 (not a leap year)', patch: { from_date: '2023-02-01', to_date: '2023-02-29' } },
    { name: 'month 13', patch: { from_date: '2024-13-01', to_date: '2024-13-02' } },
    { name: 'day 00', patch: { from_date: '2024-03-00' } },
    { name: 'from_date after to_date', patch: { from_date: '2024-03-11', to_date: '2024-03-10' } },
  ])('$name', ({ patch }) => {
    const result = parseSimulatorRequest(broken(patch));
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe('invalid_date_range');
    expect(ErrorBodySchema.safeParse(result.error).success).toBe(true);
  });
});

describe('valid requests and defaults', () => {
  it.each([
    { name: 'the base request', patch: {} },
    { name: '100 wallets', patch: { wallets: wallets(100) } },
    { name: 'hours 1', patch: { inactivity_time_fix: { hours: 1 } } },
    { name: 'hours 192', patch: { inactivity_time_fix: { hours: 192 } } },
    { name: 'inactivity_time_fix null', patch: { inactivity_time_fix: null } },
    { name: 'zero fees and max_dupe_buy_times 0', patch: { priority_fee: 0, bribe: 0, max_dupe_buy_times: 0 } },
    { name: 'fractional amounts', patch: { max_buy_amount: 0.5, max_position_amount: 0.75, priority_fee: 0.0001 } },
    { name: 'a leap day, one-day window', patch: { from_date: '2024-02-29', to_date: '2024-02-29' } },
  ])('$name is accepted', ({ patch }) => {
    expect(parseSimulatorRequest(broken(patch)).success).toBe(true);
  });

  it('applies the defaults of the optional fields', () => {
    const result = parseSimulatorRequest(request());
    expect(result.success && result.data).toMatchObject({
      close_all: false,
      inactivity_time_fix: null,
      include_bot_fees: false,
    });
  });

  it('simulate throws a RequestError carrying the 400 body', () => {
    let caught: unknown;
    try {
      simulate(tape([]), broken({ buy_percentage: 0 }));
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(RequestError);
    expect((caught as RequestError).body).toEqual({
      code: 'validation_error',
      detail: [{ path: 'buy_percentage', message: expect.any(String) }],
    });
  });
});

describe('parseSimulatorRequest never throws (property)', () => {
  /** The outcome is a success or a well-formed 400 body. */
  function wellFormed(input: unknown): boolean {
    const result = parseSimulatorRequest(input);
    return result.success || ErrorBodySchema.safeParse(result.error).success;
  }

  it('on any JSON value', () => {
    fc.assert(fc.property(fc.jsonValue(), wellFormed), { numRuns: 300 });
  });

  it('on a valid request with any field replaced by any JSON value', () => {
    const field = fc.constantFrom(...REQUIRED, 'close_all', 'inactivity_time_fix', 'include_bot_fees', 'extra');
    fc.assert(
      fc.property(fc.array(fc.tuple(field, fc.jsonValue({ maxDepth: 2 })), { maxLength: 3 }), (patches) =>
        wellFormed(Object.assign(request(), Object.fromEntries(patches))),
      ),
      { numRuns: 500 },
    );
  });
});
