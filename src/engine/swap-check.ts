/**
 * The yes-or-no check of a swap, apart from the zod schemas (model/tape.ts) so that a thread
 * that only checks swaps (io/json-tape/) starts without loading zod.
 */
import { isPositiveDecimalString, isTapeMagnitude } from '../numeric/decimal.js';
import { SWAP_TIME_LIMIT } from '../model/swap-time.js';
import type { Swap } from '../model/tape.js';

/**
 * A hand-written twin of the zod `SwapSchema` for large tapes: it accepts exactly the swaps the
 * schema accepts (a property test holds the two side by side), without building a copy of every
 * swap or collecting issues. It only answers yes or no; the schema stays the source of truth
 * and of every error message (see `validateTape` in tape-check.ts).
 */
export function isValidSwap(value: unknown): value is Swap {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { wallet, token, type, time, quantity, usd_price, usd_amount, usd_liquidity, transaction_hash } =
    value as Record<string, unknown>;
  return (
    typeof wallet === 'string' &&
    wallet.length > 0 &&
    typeof token === 'string' &&
    token.length > 0 &&
    (type === 'buy' || type === 'sell') &&
    typeof time === 'number' &&
    Number.isSafeInteger(time) &&
    time >= 0 &&
    time < SWAP_TIME_LIMIT &&
    isPositiveDecimal(quantity) &&
    isPositiveDecimal(usd_price) &&
    (usd_amount === undefined || isPositiveDecimal(usd_amount)) &&
    (usd_liquidity === undefined || usd_liquidity === null || isPositiveDecimal(usd_liquidity)) &&
    (transaction_hash === undefined || typeof transaction_hash === 'string')
  );
}

/** The `PositiveDecimalSchema` predicate, made of the model's own checks so the two never drift. */
export function isPositiveDecimal(value: unknown): boolean {
  if (typeof value === 'number') return isTapeMagnitude(value);
  return typeof value === 'string' && isPositiveDecimalString(value);
}
