import { closestName } from './names.js';
import { z } from 'zod';
import { formatPath, type ErrorBody, type ValidationProblem } from './errors.js';
import { StrategySchema } from './strategy.js';

export const NetworkSchema = z.enum(['eth', 'sol']);
/** A supported network: `eth` or `sol`. */
export type Network = z.infer<typeof NetworkSchema>;

const DATE_FORMAT = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The body of `POST /wallets/simulator` (interface 4.1, model 1.2). Defaults are applied on parse.
 * Calendar validity and date order are checked after the schema, as they give their own 400 code.
 * A member the interface does not define is an error (model 1.1), so that a misspelt optional
 * setting never falls back silently to its default. `strategy` is the strategy extensions' member.
 */
export const SimulatorRequestSchema = z
  .strictObject({
    wallets: z.array(z.string().min(1, 'must be a non-empty address')).min(1).max(100),
    network: NetworkSchema,
    from_date: z.string().regex(DATE_FORMAT, 'must be a date in the form YYYY-MM-DD'),
    to_date: z.string().regex(DATE_FORMAT, 'must be a date in the form YYYY-MM-DD'),
    buy_percentage: z.number().int().gt(0),
    max_buy_amount: z.number().gt(0),
    max_position_amount: z.number().gt(0),
    priority_fee: z.number().gte(0),
    bribe: z.number().gte(0),
    max_dupe_buy_times: z.number().int().gte(0),
    close_all: z.boolean().default(false),
    inactivity_time_fix: z
      .strictObject({ hours: z.number().int().min(1).max(192) })
      .nullable()
      .default(null),
    include_bot_fees: z.boolean().default(false),
    // The strategy extensions (model 2.0); null, absent or {} is model 1.1 exactly.
    strategy: StrategySchema.nullable().default(null),
  })
  .superRefine((request, ctx) => {
    const seen = new Map<string, number>();
    request.wallets.forEach((wallet, index) => {
      const key = request.network === 'eth' ? wallet.toLowerCase() : wallet;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, index);
      else
        ctx.addIssue({
          code: 'custom',
          path: ['wallets', index],
          message: `duplicate address: the same wallet as wallets[${first}]`,
        });
    });
  });

/** A validated simulator request, defaults applied. */
export type SimulatorRequest = z.output<typeof SimulatorRequestSchema>;
/** A simulator request as a client may send it (optional fields may be left out). */
export type SimulatorRequestInput = z.input<typeof SimulatorRequestSchema>;

/** The result of {@link parseSimulatorRequest}: the request, or the 400 body. */
export type ParseRequestResult =
  | { readonly success: true; readonly data: SimulatorRequest }
  | { readonly success: false; readonly error: ErrorBody };

/** Seconds since the epoch of `YYYY-MM-DD` 00:00:00 UTC, or null when it is no calendar date. */
export function utcDayStart(date: string): number | null {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const ms = Date.UTC(y, m - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) {
    return null;
  }
  return ms / 1000;
}

/** The simulation window of a request, both ends inclusive (model 1.2). */
export interface Window {
  readonly start: number;
  readonly end: number;
}

/** The window of a validated request: `from_date` 00:00:00 to `to_date` 23:59:59 UTC. */
export function requestWindow(request: Pick<SimulatorRequest, 'from_date' | 'to_date'>): Window {
  const start = utcDayStart(request.from_date);
  const endDay = utcDayStart(request.to_date);
  if (start === null || endDay === null) {
    throw new RangeError('requestWindow needs a request validated by parseSimulatorRequest');
  }
  return { start, end: endDay + 86_399 };
}

/**
 * Validates a simulator request body. Never throws: gives the request with defaults applied,
 * or the interface's 400 body (`validation_error` with a list of `{path, message}`, or
 * `invalid_date_range`).
 *
 * @example
 * const result = parseSimulatorRequest({ wallets: [], network: 'sol' });
 * if (!result.success) console.log(result.error.code); // "validation_error"
 */
export function parseSimulatorRequest(input: unknown): ParseRequestResult {
  const parsed = SimulatorRequestSchema.safeParse(input);
  if (!parsed.success) {
    return {
      success: false,
      error: {
        code: 'validation_error',
        detail: parsed.error.issues.flatMap((issue) =>
          issue.code === 'unrecognized_keys'
            ? issue.keys.map((key) => unknownMember(issue.path, key))
            : [{ path: formatPath(issue.path), message: issue.message }],
        ),
      },
    };
  }
  const request = parsed.data;
  const from = utcDayStart(request.from_date);
  const to = utcDayStart(request.to_date);
  if (from === null) {
    return {
      success: false,
      error: { code: 'invalid_date_range', detail: `from_date ${request.from_date} is not a calendar date` },
    };
  }
  if (to === null) {
    return {
      success: false,
      error: { code: 'invalid_date_range', detail: `to_date ${request.to_date} is not a calendar date` },
    };
  }
  if (from > to) {
    return {
      success: false,
      error: {
        code: 'invalid_date_range',
        detail: `from_date ${request.from_date} is after to_date ${request.to_date}`,
      },
    };
  }
  return { success: true, data: request };
}

/** The members a request may hold, by the path of the object holding them. */
const MEMBERS: Readonly<Record<string, readonly string[]>> = {
  '': Object.keys(SimulatorRequestSchema.shape),
  inactivity_time_fix: ['hours'],
  strategy: Object.keys(StrategySchema.shape),
  'strategy.take_profit[]': ['roi', 'sell_percent'],
};

/** One problem for a member the interface does not define, with the defined name it is closest to. */
function unknownMember(at: readonly PropertyKey[], key: string): ValidationProblem {
  const path = formatPath([...at, key]);
  const known = MEMBERS[formatPath(at).replace(/\[\d+\]/g, '[]')] ?? [];
  let near = closestName(key, known);
  // A strategy setting given at the top level: point into the strategy member.
  if (near === null && at.length === 0) near = prefixed('strategy.', closestName(key, MEMBERS['strategy']!));
  const hint = near === null ? `the members here are: ${known.join(', ')}` : `did you mean "${near}"?`;
  return { path, message: `unknown member "${key}": ${hint}` };
}

function prefixed(prefix: string, name: string | null): string | null {
  return name === null ? null : prefix + name;
}
