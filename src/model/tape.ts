import { z } from 'zod';
import { isPositiveDecimalString, isTapeMagnitude, type DecimalInput } from '../numeric/decimal.js';
import { formatPath, InputError } from './errors.js';
import { NetworkSchema } from './request.js';
import { SWAP_TIME_LIMIT } from './swap-time.js';

export { SWAP_TIME_LIMIT } from './swap-time.js';

const DECIMAL = 'a decimal > 0 between 1e-60 and 1e60 (a JSON number or a decimal string)';

/** The message of a required member left out: "missing", and what belongs there. */
function missingOr(expected: string, otherwise?: string) {
  return (issue: { readonly input?: unknown }): string | undefined =>
    issue.input === undefined ? `missing: expected ${expected}` : otherwise;
}

/** A decimal > 0 as JSON carries it: a finite number or a decimal string. */
export const PositiveDecimalSchema = z.custom<DecimalInput>(
  (v) => (typeof v === 'number' ? isTapeMagnitude(v) : typeof v === 'string' && isPositiveDecimalString(v)),
  { error: missingOr(DECIMAL, `expected ${DECIMAL}`) },
);

const TimeSchema = z
  .number({ error: missingOr('whole seconds since the epoch') })
  .int('expected whole seconds')
  .gte(0)
  .lte(Number.MAX_SAFE_INTEGER);

const SwapTimeSchema = TimeSchema.lt(SWAP_TIME_LIMIT, {
  error: (issue) =>
    `expected seconds since the epoch (below 10¹¹, the year 5138); ${String(issue.input)}` +
    ` looks like milliseconds: divide the times by 1000`,
});

/** One swap of the tape (model 1.1). */
export const SwapSchema = z.object({
  wallet: z.string({ error: missingOr('the address of the trader') }).min(1, 'expected a non-empty address'),
  token: z.string({ error: missingOr("the token's address") }).min(1, 'expected a non-empty address'),
  type: z.enum(['buy', 'sell'], { error: missingOr('"buy" or "sell"') }),
  time: SwapTimeSchema,
  quantity: PositiveDecimalSchema,
  usd_price: PositiveDecimalSchema,
  usd_amount: PositiveDecimalSchema.optional(),
  usd_liquidity: PositiveDecimalSchema.nullable().optional(),
  transaction_hash: z.string().optional(),
});
/** One swap of the tape. */
export type Swap = z.infer<typeof SwapSchema>;

/** Optional metadata of a token. */
export const TokenMetaSchema = z.object({
  name: z.string().nullable().optional(),
  symbol: z.string().nullable().optional(),
  /** Creation time of the token (seconds), used by the wallet analytics when known. */
  created_at: TimeSchema.nullable().optional(),
  scam_status: z.enum(['unknown', 'clean', 'suspicious', 'scam']).nullable().optional(),
});
export type TokenMeta = z.infer<typeof TokenMetaSchema>;

/** The header of a tape: everything but its swaps. */
export const TapeHeaderSchema = z.object({
  network: NetworkSchema,
  tokens: z.record(z.string(), TokenMetaSchema).default({}),
  native_prices: z.array(z.tuple([TimeSchema, PositiveDecimalSchema])).default([]),
});
export type TapeHeader = z.infer<typeof TapeHeaderSchema>;

/** A whole tape as one JSON file (model section 8). */
export const TapeSchema = TapeHeaderSchema.extend({
  swaps: z.array(SwapSchema),
});
/** A validated tape. */
export type Tape = z.infer<typeof TapeSchema>;
/** A tape as it may be written (tokens and native_prices may be left out). */
export type TapeInput = z.input<typeof TapeSchema>;

function tapeError(issues: readonly z.core.$ZodIssue[], lineOffset?: number): InputError {
  const issue = issues[0]!;
  const path = formatPath(issue.path);
  const swapIndex = issue.path[0] === 'swaps' && typeof issue.path[1] === 'number' ? issue.path[1] : undefined;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  const where = swapIndex !== undefined ? `swap ${swapIndex}: ` : '';
  return new InputError(`tape: ${where}${path}: ${issue.message}${more}`, {
    source: 'tape',
    path,
    ...(swapIndex !== undefined ? { swapIndex } : {}),
    ...(lineOffset !== undefined ? { line: lineOffset } : {}),
  });
}

/**
 * Validates a tape object (already parsed from JSON). Throws an {@link InputError} naming the
 * swap index and the field of the first problem.
 *
 * @example
 * const tape = parseTape(JSON.parse(fs.readFileSync('tape.json', 'utf8')));
 */
export function parseTape(input: unknown): Tape {
  const parsed = TapeSchema.safeParse(input);
  if (!parsed.success) throw tapeError(parsed.error.issues);
  return parsed.data;
}

/** Validates one swap on its own (a JSONL line); `index` names it in the error. */
export function parseSwap(input: unknown, index: number, line?: number): Swap {
  const parsed = SwapSchema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ ...i, path: ['swaps', index, ...i.path] }));
    throw tapeError(issues, line);
  }
  return parsed.data;
}

/** Validates a tape header (the first line of a JSONL tape). */
export function parseTapeHeader(input: unknown): TapeHeader {
  const parsed = TapeHeaderSchema.safeParse(input);
  if (!parsed.success) throw tapeError(parsed.error.issues, 1);
  return parsed.data;
}
