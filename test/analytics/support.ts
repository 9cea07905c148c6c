/**
 * Builders for the analytics scenarios: swaps, tapes and a schema check.
 *
 * The main scenario (`mainTape`) is the worked example of docs/analytics.md. Times are
 * `T0 + s`; T0 is a whole minute, so custom-range chart points fall on `T0 + 60 k`.
 */
import { expect } from 'vitest';
import type { z } from 'zod';
import type { TapeInput } from '../../src/index.js';

type SwapInput = TapeInput['swaps'][number];

/** 2023-11-14 22:14:00 UTC, a whole minute. */
export const T0 = 1_700_000_040;
export const HOUR = 3600;
export const DAY = 86_400;

export const W = 'Wallet1111111111111111111111111111111111111';
export const V = 'Wallet2222222222222222222222222222222222222';
export const M = 'Market9999999999999999999999999999999999999';
export const A = 'TokenAaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
export const B = 'TokenBbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
export const C = 'TokenCccccccccccccccccccccccccccccccccccccc';

type Extra = Partial<Pick<SwapInput, 'usd_amount' | 'usd_liquidity' | 'transaction_hash'>>;

export function buy(
  wallet: string,
  token: string,
  time: number,
  quantity: number | string,
  price: number | string,
  extra: Extra = {},
): SwapInput {
  return { wallet, token, type: 'buy', time, quantity, usd_price: price, ...extra };
}

export function sell(
  wallet: string,
  token: string,
  time: number,
  quantity: number | string,
  price: number | string,
  extra: Extra = {},
): SwapInput {
  return { wallet, token, type: 'sell', time, quantity, usd_price: price, ...extra };
}

/** A SOL tape with a flat native price of 100 USD. */
export function solTape(swaps: SwapInput[], tokens: TapeInput['tokens'] = {}): TapeInput {
  return { network: 'sol', tokens, native_prices: [[0, 100]], swaps };
}

/**
 * The worked example: W trades A twice in and out (the second sell larger than held), sells B
 * it does not hold (ignored), then buys B; M's swaps only move prices.
 */
export function mainTape(): TapeInput {
  return solTape(
    [
      buy(W, A, T0, 100, 1, { transaction_hash: 'tx-w-1' }),
      buy(M, A, T0 + 60, 10, 0.5),
      buy(W, A, T0 + 120, 100, 2),
      sell(M, A, T0 + 180, 10, 3),
      sell(W, A, T0 + 240, 50, 2.4),
      sell(W, A, T0 + 300, 200, 2),
      sell(W, B, T0 + 360, 10, 1),
      buy(W, B, T0 + 400, 50, 2, { usd_amount: 110, usd_liquidity: 22_000 }),
      buy(M, B, T0 + 500, 1, 3),
    ],
    { [A]: { name: 'Alpha Coin', symbol: 'ALP', created_at: T0 - HOUR, scam_status: 'clean' } },
  );
}

/** Execution without slippage or fees, so that the follower copies at the swaps' own prices. */
export const FLAT = {
  engineOptions: { unknown_liquidity_slippage_percent: 0, base_fee_native: { sol: 0, eth: 0 } },
  copySettings: { include_bot_fees: false },
} as const;

/** Parses `value` with `schema` (failing the test on a mismatch) and returns it. */
export function checked<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    expect.fail(`result does not match its schema: ${JSON.stringify(parsed.error.issues.slice(0, 3))}`);
  return parsed.data;
}

/** `actual` within 1e-9 (relative or absolute, the looser) of `expected`. */
export function near(actual: number | null | undefined, expected: number, tolerance = 1e-9): void {
  expect(actual).not.toBeNull();
  expect(actual).toBeTypeOf('number');
  const bound = Math.max(tolerance, tolerance * Math.abs(expected));
  if (Math.abs((actual as number) - expected) > bound) expect.fail(`expected ${expected}, got ${actual}`);
}
