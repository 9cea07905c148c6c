import { z } from 'zod';
import { ADDRESS_PATTERN } from './address.js';

/** The `credits` member of the envelope (interface 2.2). */
export const CreditsSchema = z.strictObject({
  spent: z.number().int().describe('credits spent by this request'),
  remaining: z.number().int().describe('credits left on the key'),
});

/** The envelope of the analytics reads and the wallet list (interface 2.2). */
export function envelopeOf(result: z.ZodType): z.ZodType {
  return z.strictObject({ result, credits: CreditsSchema });
}

/** Any error body of the service: a short code and a detail (interface section 7). */
export const HttpErrorBodySchema = z.object({
  code: z.string().describe('short error code'),
  detail: z.unknown().optional().describe('what was wrong, and where'),
});

/** The 403 bodies: a disabled key, or too few credits. */
export const ForbiddenBodySchema = z.discriminatedUnion('code', [
  z.strictObject({ code: z.literal('key_disabled'), detail: z.string().optional() }),
  z.strictObject({
    code: z.literal('insufficient_credits'),
    detail: z.strictObject({
      required: z.number().int().describe('credits the operation costs'),
      remaining: z.number().int().describe('credits available to this key now'),
    }),
  }),
]);

/** `{address}` of the wallet routes: an address of either network (checked against the query's network). */
export const AddressParamSchema = z
  .string()
  .regex(new RegExp(ADDRESS_PATTERN))
  .describe('wallet address: base58 of 32 to 44 characters on sol, 0x and 40 hex digits on eth');

/** The 400 bodies of a wallet route's path: an address that cannot exist, a URL badly encoded. */
export const PathErrorBodySchema = z.strictObject({ code: z.enum(['invalid_address', 'bad_url']), detail: z.string() });

/** The 400 of a malformed `Idempotency-Key` header. */
export const IdempotencyKeyErrorBodySchema = z.strictObject({
  code: z.literal('invalid_idempotency_key'),
  detail: z.string(),
});

/** `GET /health`: whether the service's database and Redis (when it has one) answer. */
export const HealthSchema = z.strictObject({
  status: z.enum(['ok', 'unavailable']).describe('"ok" when every server the service depends on answers'),
  database: z.enum(['ok', 'unavailable']).describe('the key database (SQLite or PostgreSQL)'),
  redis: z.enum(['ok', 'unavailable']).optional().describe('the Redis of shared rate limits, when the service has one'),
  queue: z
    .enum(['ok', 'unavailable'])
    .optional()
    .describe('the work queue the simulations go to (serve --queue), when the service has one'),
  tapes: z
    .record(
      z.string(),
      z.strictObject({
        swaps: z.number().int().min(0),
        first_day: z.string().nullable(),
        last_day: z.string().nullable(),
      }),
    )
    .describe("Each served network's tape: its swaps and the first and last swap's UTC day (null for an empty tape)"),
});
