import { isPositiveDecimalString, isTapeMagnitude } from '../numeric/decimal.js';
import { parseTape, SWAP_TIME_LIMIT, TapeHeaderSchema, type Swap, type Tape } from '../model/tape.js';

/**
 * A hand-written twin of the zod `SwapSchema` for large tapes: it accepts exactly the swaps the
 * schema accepts (a property test holds the two side by side), without building a copy of every
 * swap or collecting issues. It only answers yes or no; the schema stays the source of truth
 * and of every error message (see {@link validateTape}).
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

/**
 * Validates a tape object: a quick pass of {@link isValidSwap} over the swaps and the zod schema
 * over the small header. When anything is wrong, the zod `TapeSchema` runs over the whole tape,
 * so errors are exactly the schema's (swap index, field, message). The swaps are kept as given,
 * not copied (unknown fields stay on them and are ignored).
 *
 * @example
 * const tape = validateTape(JSON.parse(text)); // throws InputError on the first bad swap
 */
export function validateTape(input: unknown): Tape {
  const fast = quickTape(input);
  return fast ?? parseTape(input);
}

function quickTape(input: unknown): Tape | null {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return null;
  const { network, tokens, native_prices, swaps } = input as Record<string, unknown>;
  if (!Array.isArray(swaps)) return null;
  const header = TapeHeaderSchema.safeParse({ network, tokens, native_prices });
  if (!header.success) return null;
  for (let i = 0; i < swaps.length; i++) {
    if (!isValidSwap(swaps[i])) return null;
  }
  return { ...header.data, swaps: swaps as Swap[] };
}
