import { z } from 'zod';
import { formatPath, RequestError, type ValidationProblem } from '../model/errors.js';
import { NetworkSchema, type Network } from '../model/request.js';
import { SWAP_TIME_LIMIT } from '../model/tape.js';
import { ChartPeriodSchema, PeriodKeySchema, type ChartPeriod } from './periods.js';
import { IndicatorKeySchema } from './totals.js';

const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A number that may arrive as text (a query string): "2" → 2; other text stays text. */
function numeric<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (typeof v === 'string' && NUMBER_TEXT.test(v.trim()) ? Number(v) : v), schema);
}

/** Seconds since the epoch, as the tape's times (model 1.1): larger values are milliseconds by mistake. */
const Timestamp = numeric(
  z
    .number({ error: (issue) => (issue.code === 'invalid_type' ? 'expected a timestamp (seconds)' : undefined) })
    .finite('expected a timestamp (seconds)')
    .gte(1, 'must be at least 1 (seconds since the epoch)')
    .lt(
      SWAP_TIME_LIMIT,
      'must be seconds since the epoch, below 10¹¹ (the year 5138);' +
        ' a larger value looks like milliseconds: divide it by 1000',
    ),
);

/**
 * A whole number from `min` (to `max`), each limit stated as a limit: `per_page=151` says
 * "at most 150", not "expected a whole number".
 */
function wholeNumber(min: number, max?: number) {
  const base = z
    .number({ error: (issue) => (issue.code === 'invalid_type' ? 'expected a whole number' : undefined) })
    .int('expected a whole number')
    .gte(min, `must be at least ${min}`);
  return numeric(max === undefined ? base : base.lte(max, `must be at most ${max}`));
}
const Page = wholeNumber(1);

/** The optional time range every wallet read takes (interface 4.2). */
const TIME_RANGE = { from_time: Timestamp.optional(), to_time: Timestamp.optional() };

/** `from_time ≤ to_time` when both are given. */
function timesInOrder(q: { from_time?: number | undefined; to_time?: number | undefined }, ctx: z.RefinementCtx): void {
  if (q.from_time !== undefined && q.to_time !== undefined && q.from_time > q.to_time) {
    ctx.addIssue({ code: 'custom', path: ['from_time'], message: `must not be after to_time (${q.to_time})` });
  }
}

/** Query of `GET /wallets/{address}/indicators` (interface 4.2). */
export const WalletIndicatorsQuerySchema = z
  .strictObject({
    network: NetworkSchema,
    ...TIME_RANGE,
  })
  .superRefine(timesInOrder);
export type WalletIndicatorsQuery = z.output<typeof WalletIndicatorsQuerySchema>;

/** Query of `GET /wallets/{address}/charts/investment_amount` (interface 4.4). */
export const WalletInvestmentChartQuerySchema = z
  .strictObject({
    network: NetworkSchema,
    period: ChartPeriodSchema.optional(),
    ...TIME_RANGE,
  })
  .superRefine(timesInOrder);
export type WalletInvestmentChartQuery = z.output<typeof WalletInvestmentChartQuerySchema>;

/** Query of `GET /wallets/{address}/charts/pnl` (interface 4.3): 4.4's plus `type`. */
export const WalletPnlChartQuerySchema = z
  .strictObject({
    network: NetworkSchema,
    type: z.enum(['realized']).default('realized'),
    period: ChartPeriodSchema.optional(),
    ...TIME_RANGE,
  })
  .superRefine(timesInOrder);
export type WalletPnlChartQuery = z.output<typeof WalletPnlChartQuerySchema>;

/** Query of `GET /wallets/{address}/deals` (interface 4.5). */
export const WalletDealsQuerySchema = z
  .strictObject({
    network: NetworkSchema,
    page: Page.default(1),
    per_page: wholeNumber(1, 150).default(30),
    search: z.string().max(128).optional(),
    ...TIME_RANGE,
  })
  .superRefine(timesInOrder);
export type WalletDealsQuery = z.output<typeof WalletDealsQuerySchema>;

/** Body of `POST /wallets` (interface 4.6), with its sorting and filtering fields. */
export const ListWalletsBodySchema = z.strictObject({
  page: Page.default(1),
  /**
   * Sort by one indicator of one period, of the wallet's own results (`initial`, the default) or
   * of its follower's (`following`); default `pnl_total` over `1m`, `initial`.
   */
  sort_by: z
    .strictObject({
      indicator: IndicatorKeySchema.default('pnl_total'),
      period: PeriodKeySchema.default('1m'),
      value: z.enum(['initial', 'following']).default('initial'),
    })
    .default({ indicator: 'pnl_total', period: '1m', value: 'initial' }),
  order: z.enum(['asc', 'desc']).default('desc'),
  /** Keep wallets with at least this many deals (over `all`); a wallet needs 1 to be listed. */
  min_deals: wholeNumber(0).default(1),
  network: NetworkSchema.optional(),
});
export type ListWalletsBody = z.output<typeof ListWalletsBodySchema>;

function problems(issues: readonly z.core.$ZodIssue[]): ValidationProblem[] {
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: formatPath([...issue.path, key]), message: 'unknown parameter' }))
      : [{ path: formatPath(issue.path), message: issue.message }],
  );
}

/**
 * Validates a query (or body) against `schema` for an index of `network`; throws a
 * {@link RequestError} with the 400 `validation_error` body. A missing query is an empty one.
 */
export function parseQuery<S extends z.ZodType<{ network?: Network | undefined }>>(
  schema: S,
  input: unknown,
  network: Network,
): z.output<S> {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) throw new RequestError({ code: 'validation_error', detail: problems(parsed.error.issues) });
  const given = parsed.data.network;
  if (given !== undefined && given !== network) {
    throw new RequestError({
      code: 'validation_error',
      detail: [{ path: 'network', message: `this tape holds "${network}" swaps; no data for network "${given}"` }],
    });
  }
  return parsed.data;
}

/** The range of a chart: a period, or a custom range of whole seconds. */
export type ChartRange =
  | { readonly kind: 'period'; readonly period: ChartPeriod }
  | { readonly kind: 'custom'; readonly from: number; readonly to: number };

/**
 * A chart's range from its query: `period`, or both `from_time` and `to_time` (one of the two;
 * neither is a 400 `period_required`, both a `validation_error`). A custom range keeps the whole
 * seconds inside it: swap times are whole seconds, so `ceil(from_time)` and `floor(to_time)`
 * select the same trades.
 */
export function chartRange(q: {
  period?: ChartPeriod | undefined;
  from_time?: number | undefined;
  to_time?: number | undefined;
}): ChartRange {
  const custom = q.from_time !== undefined || q.to_time !== undefined;
  if (q.period !== undefined) {
    if (custom) {
      throw new RequestError({
        code: 'validation_error',
        detail: [{ path: 'period', message: 'give either period or from_time and to_time, not both' }],
      });
    }
    return { kind: 'period', period: q.period };
  }
  if (q.from_time === undefined || q.to_time === undefined) {
    throw new RequestError({
      code: 'period_required',
      detail: 'give period (12h, 24h, 7d, 1m or 1y), or a custom range with both from_time and to_time',
    });
  }
  return { kind: 'custom', from: Math.ceil(q.from_time), to: Math.floor(q.to_time) };
}
