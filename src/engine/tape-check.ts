import { parseTape, TapeHeaderSchema, type Swap, type Tape } from '../model/tape.js';
import { isValidSwap } from './swap-check.js';

export { isPositiveDecimal, isValidSwap } from './swap-check.js';

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
