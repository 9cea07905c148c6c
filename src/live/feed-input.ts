import { z } from 'zod';
import { formatPath } from '../model/errors.js';
import { SwapSchema, TapeHeaderSchema, type Swap, type TokenMeta } from '../model/tape.js';
import type { DecimalInput } from '../numeric/decimal.js';
import { isValidSwap } from '../engine/tape-check.js';
import { FeedRefusal } from './errors.js';

/** A native-coin price point `[time, usd]`, as the tape's `native_prices` has them. */
export type NativePoint = readonly [number, DecimalInput];

/**
 * One input of a live feed, in event order once it is applied: a swap of the tape, a clock tick
 * (the feed's time moves on without a swap), token metadata (the tape's `tokens`) or native-coin
 * price points (the tape's `native_prices`).
 */
export type FeedInput =
  | { readonly kind: 'swap'; readonly swap: Swap }
  | { readonly kind: 'tick'; readonly time: number }
  | { readonly kind: 'tokens'; readonly tokens: Readonly<Record<string, TokenMeta>> }
  | { readonly kind: 'native_prices'; readonly points: readonly NativePoint[] };

const TickSchema = z.object({ tick: SwapSchema.shape.time });
const TokensSchema = z.object({ tokens: TapeHeaderSchema.shape.tokens.unwrap() });
const NativePricesSchema = z.object({ native_prices: TapeHeaderSchema.shape.native_prices.unwrap() });

/**
 * Reads one item of a feed batch or one line of a feed log: `{"tick": T}`, `{"tokens": {…}}`,
 * `{"native_prices": [[t, usd], …]}`, and anything else as a swap in the tape's form. Throws a
 * {@link FeedRefusal} (`invalid_input`) naming `item` and the field.
 *
 * @example
 * readFeedItem({ tick: 1710028800 }, 0); // { kind: 'tick', time: 1710028800 }
 */
export function readFeedItem(value: unknown, item: number): FeedInput {
  if (isValidSwap(value)) return { kind: 'swap', swap: value };
  const record =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  if (record === null) {
    throw new FeedRefusal(
      'invalid_input',
      'expected an object: a swap, {"tick": T}, {"tokens": {…}} or {"native_prices": […]}',
      { item },
    );
  }
  if (!('wallet' in record)) {
    if ('tick' in record) return { kind: 'tick', time: checked(TickSchema, record, item).tick };
    if ('tokens' in record) return { kind: 'tokens', tokens: checked(TokensSchema, record, item).tokens };
    if ('native_prices' in record)
      return { kind: 'native_prices', points: checked(NativePricesSchema, record, item).native_prices };
  }
  return { kind: 'swap', swap: checked(SwapSchema, record, item) };
}

/** `value` read by `schema`; its first problem as a refusal naming `item` and the field. */
function checked<T>(schema: z.ZodType<T>, value: unknown, item: number): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  return refuse(item, formatPath(issue.path), issue.message);
}

function refuse(item: number, field: string, message: string): never {
  throw new FeedRefusal('invalid_input', message, { item, ...(field !== '' ? { field } : {}) });
}

/** The line of a feed log that records `input` (read back by {@link readFeedItem}). */
export function feedLine(input: FeedInput): string {
  switch (input.kind) {
    case 'swap':
      return JSON.stringify(input.swap);
    case 'tick':
      return `{"tick":${input.time}}`;
    case 'tokens':
      return JSON.stringify({ tokens: input.tokens });
    case 'native_prices':
      return JSON.stringify({ native_prices: input.points });
  }
}
