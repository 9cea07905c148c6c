/**
 * Small builders for the rule-by-rule scenarios: swaps, tapes, requests and a `run` that calls
 * the library, plus `near` for comparing decimals within 1e-9 relative.
 *
 * The flat defaults keep hand arithmetic short:
 * - every scenario day is 2024-03-10, so `at(s)` = window_start + s seconds and `END` = window_end;
 * - swaps carry no liquidity and the flat options set `unknown_liquidity_slippage_percent` to 0,
 *   so a buy of A USD at price p gets exactly A / p tokens and a sell of Q gets Q × p USD;
 * - the native price is 100 and `base_fee_native` 0.01, so every follower trade pays a network
 *   fee of exactly 1 USD (priority_fee and bribe 0), and bot fees are off.
 */
import { expect } from 'vitest';
// The modules behind src/index.ts, imported directly so each test file skips loading the
// HTTP and analytics layers; test/cli/simulate.test.ts checks they are the public exports.
import type { EngineOptionsInput } from '../../src/model/options.js';
import type { SimulatorRequestInput } from '../../src/model/request.js';
import type { SimulatedDeal, SimulatorResponse } from '../../src/model/response.js';
import type { TapeInput } from '../../src/model/tape.js';
import { simulate } from '../../src/simulate.js';

type SwapInput = TapeInput['swaps'][number];

/** 2024-03-10 00:00:00 UTC: `window_start` of the default request. */
export const DAY_START = 1_710_028_800;
/** 2024-03-10 23:59:59 UTC: `window_end` of the default request. */
export const END = DAY_START + 86_399;
/** The scenario day as the request writes it. */
export const DAY = '2024-03-10';

/** `window_start + seconds`. */
export function at(seconds: number): number {
  return DAY_START + seconds;
}

export const LEADER_A = 'LeaderA1111111111111111111111111111111111111';
export const LEADER_B = 'LeaderB2222222222222222222222222222222222222';
export const LEADER_C = 'LeaderC3333333333333333333333333333333333333';
/** A wallet nobody follows: its swaps are market data only. */
export const MARKET = 'Market99999999999999999999999999999999999999';
export const TOKEN_X = 'TokenXxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx';
export const TOKEN_Y = 'TokenYyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy';
export const TOKEN_Z = 'TokenZzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz';

/** Extra swap fields: liquidity, an explicit usd_amount, a hash. */
export type SwapExtra = Partial<Pick<SwapInput, 'usd_amount' | 'usd_liquidity' | 'transaction_hash'>>;

/** A buy swap of `quantity` tokens at `price` USD each. */
export function buy(
  wallet: string,
  token: string,
  time: number,
  quantity: number | string,
  price: number | string,
  extra: SwapExtra = {},
): SwapInput {
  return { wallet, token, type: 'buy', time, quantity, usd_price: price, ...extra };
}

/** A sell swap of `quantity` tokens at `price` USD each. */
export function sell(
  wallet: string,
  token: string,
  time: number,
  quantity: number | string,
  price: number | string,
  extra: SwapExtra = {},
): SwapInput {
  return { wallet, token, type: 'sell', time, quantity, usd_price: price, ...extra };
}

/** Native price 100 from long before the scenario day. */
export const FLAT_NATIVE: [number, number][] = [[DAY_START - 86_400, 100]];

/** A sol tape of `swaps` with the flat native price; override network, tokens or native prices. */
export function tape(swaps: SwapInput[], header: Partial<Omit<TapeInput, 'swaps'>> = {}): TapeInput {
  return { network: 'sol', tokens: {}, native_prices: FLAT_NATIVE, ...header, swaps };
}

/**
 * A valid request following LEADER_A over the scenario day: buy_percentage 100, max_buy_amount
 * 1000, max_position_amount 10000, no priority fee or bribe, max_dupe_buy_times 10.
 */
export function request(overrides: Partial<SimulatorRequestInput> = {}): SimulatorRequestInput {
  return {
    wallets: [LEADER_A],
    network: 'sol',
    from_date: DAY,
    to_date: DAY,
    buy_percentage: 100,
    max_buy_amount: 1000,
    max_position_amount: 10_000,
    priority_fee: 0,
    bribe: 0,
    max_dupe_buy_times: 10,
    ...overrides,
  };
}

/** No slippage without liquidity, and a network fee of 0.01 native × 100 = 1 USD a trade. */
export const FLAT_OPTIONS: EngineOptionsInput = {
  unknown_liquidity_slippage_percent: 0,
  base_fee_native: { sol: 0.01, eth: 0.01 },
};

/** As {@link FLAT_OPTIONS} but without network fees, for scenarios about PnL shapes only. */
export const FREE_OPTIONS: EngineOptionsInput = {
  unknown_liquidity_slippage_percent: 0,
  base_fee_native: { sol: 0, eth: 0 },
};

/** Simulates `swaps` (a sol tape with the flat native price) with the flat options by default. */
export function run(
  swaps: SwapInput[],
  overrides: Partial<SimulatorRequestInput> = {},
  options: EngineOptionsInput = FLAT_OPTIONS,
  header: Partial<Omit<TapeInput, 'swaps'>> = {},
): SimulatorResponse {
  return simulate(tape(swaps, header), request(overrides), options);
}

/** The only deal of a response (fails when there is not exactly one). */
export function onlyDeal(response: SimulatorResponse): SimulatedDeal {
  expect(response.deals).toHaveLength(1);
  return response.deals[0]!;
}

/** Asserts `actual` is within 1e-9 relative (or 1e-9 absolute near zero) of `expected`. */
export function near(actual: number | null | undefined, expected: number, label = ''): void {
  expect(typeof actual, `${label}: not a number`).toBe('number');
  const tolerance = Math.max(1e-9, 1e-9 * Math.abs(expected));
  const diff = Math.abs((actual as number) - expected);
  expect(diff <= tolerance, `${label}: expected ${expected}, got ${String(actual)}`).toBe(true);
}

/** {@link near} on every number of `expected`, by key, against `actual`. */
export function nearAll(actual: object, expected: Record<string, number>, label = ''): void {
  const got = actual as Record<string, unknown>;
  for (const [key, value] of Object.entries(expected))
    near(got[key] as number, value, `${label}${label ? '.' : ''}${key}`);
}

/** {@link near} element by element, lengths equal. */
export function nearList(actual: readonly number[], expected: readonly number[], label = ''): void {
  expect(actual, `${label}: length`).toHaveLength(expected.length);
  expected.forEach((value, i) => near(actual[i], value, `${label}[${i}]`));
}

/**
 * Swaps that give one deal of `token` whose pnl_total is exactly `pnl` under
 * {@link FREE_OPTIONS}: LEADER_A buys 1000 tokens at 1 at `openAt` (A = 1000), then at `closeAt`
 * either sells them all at (1000 + pnl) / 1000 (closed: realized pnl) or, with `open`, MARKET
 * prices the token there (open: unrealized pnl = 1000 × price − 1000).
 */
export function dealWithPnl(token: string, pnl: number, openAt: number, closeAt: number, open = false): SwapInput[] {
  const exit = String((1000 + pnl) / 1000);
  return [
    buy(LEADER_A, token, openAt, 1000, 1),
    open ? buy(MARKET, token, closeAt, 1, exit) : sell(LEADER_A, token, closeAt, 1000, exit),
  ];
}
