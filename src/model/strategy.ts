import { z } from 'zod';

/** One level of the take-profit ladder: sell `sell_percent` % of what is held once ROI reaches `roi` %. */
export const TakeProfitLevelSchema = z.strictObject({
  roi: z.number().gt(0, 'must be a ROI in percent greater than 0'),
  sell_percent: z.number().gt(0, 'must be more than 0 %').lte(100, 'must be at most 100 %'),
});
export type TakeProfitLevel = z.infer<typeof TakeProfitLevelSchema>;

const hours = z
  .number()
  .int('must be whole hours')
  .min(1, 'must be at least 1 hour')
  .max(8760, 'must be at most 8760 hours (a year)');
const percentBelow100 = z.number().gt(0, 'must be more than 0 %').lt(100, 'must be less than 100 %');

/**
 * The request's `strategy` member (strategy extensions, model 2.0, section 1): how a real copy
 * bot copies. Every member is optional; defaults are applied on parse, and a strategy of nothing
 * but defaults gives exactly the response of model 1.1.
 */
export const StrategySchema = z
  .strictObject({
    copy_delay_seconds: z
      .number()
      .int('must be whole seconds')
      .min(0, 'must be at least 0 seconds')
      .max(86_400, 'must be at most 86400 seconds (a day)')
      .default(0),
    fixed_buy_amount: z.number().gt(0, 'must be an amount in USD greater than 0').nullable().default(null),
    min_leader_buy_usd: z.number().gte(0, 'must be an amount in USD of at least 0').default(0),
    min_liquidity_usd: z.number().gte(0, 'must be an amount in USD of at least 0').nullable().default(null),
    max_token_age_hours: hours.nullable().default(null),
    take_profit: z
      .array(TakeProfitLevelSchema)
      .max(10, 'must have at most 10 levels')
      .default([])
      .superRefine((levels, ctx) => {
        for (let i = 1; i < levels.length; i++) {
          if (levels[i]!.roi <= levels[i - 1]!.roi) {
            ctx.addIssue({
              code: 'custom',
              path: [i, 'roi'],
              message: "must be greater than the previous level's roi (strictly increasing)",
            });
          }
        }
      }),
    stop_loss_percent: percentBelow100.nullable().default(null),
    trailing_stop_percent: percentBelow100.nullable().default(null),
    max_hold_hours: hours.nullable().default(null),
    report_skipped: z.boolean().default(false),
    // The copier's wallet (model 3.0, copier-wallet.md 1). No defaults here: whether a member was
    // given at all decides whether the response has `copier` (an explicit default counts as set);
    // the engine applies the defaults (COPIER_DEFAULTS).
    starting_balance_usd: z.number().gt(0, 'must be an amount in USD greater than 0').nullable().optional(),
    reserve_usd: z.number().gte(0, 'must be an amount in USD of at least 0').optional(),
    max_open_deals: z
      .number()
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(10_000, 'must be at most 10000')
      .nullable()
      .optional(),
    slippage_tolerance_percent: percentBelow100.nullable().optional(),
    failed_transaction_percent: z.number().gte(0, 'must be at least 0 %').lt(100, 'must be less than 100 %').optional(),
    retries: z
      .number()
      .int('must be a whole number')
      .min(0, 'must be at least 0')
      .max(5, 'must be at most 5')
      .optional(),
    retry_delay_seconds: z
      .number()
      .int('must be whole seconds')
      .min(1, 'must be at least 1 second')
      .max(3600, 'must be at most 3600 seconds')
      .optional(),
    sandwich_percent: z.number().gte(0, 'must be at least 0 %').lte(100, 'must be at most 100 %').optional(),
    random_seed: z
      .number()
      .int('must be a whole number')
      .min(0, 'must be at least 0')
      .max(Number.MAX_SAFE_INTEGER, 'must be at most 2^53 − 1')
      .optional(),
    report_wallet: z.boolean().optional(),
    report_leaders: z.boolean().optional(),
  })
  .superRefine((s, ctx) => {
    if (
      s.reserve_usd !== undefined &&
      s.reserve_usd > 0 &&
      (s.starting_balance_usd === undefined || s.starting_balance_usd === null)
    ) {
      ctx.addIssue({ code: 'custom', path: ['reserve_usd'], message: 'a reserve above 0 needs starting_balance_usd' });
    }
    if (
      s.sandwich_percent !== undefined &&
      s.sandwich_percent > 0 &&
      (s.slippage_tolerance_percent === undefined || s.slippage_tolerance_percent === null)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['sandwich_percent'],
        message: 'sandwiches above 0 % need slippage_tolerance_percent',
      });
    }
  });

/** The members of the copier's wallet (model 3.0) that add the response member `copier` when set. */
export const COPIER_MEMBERS = [
  'starting_balance_usd',
  'reserve_usd',
  'max_open_deals',
  'slippage_tolerance_percent',
  'failed_transaction_percent',
  'retries',
  'retry_delay_seconds',
  'sandwich_percent',
  'random_seed',
  'report_wallet',
] as const;

/**
 * True when the strategy sets a member of the copier's wallet (copier-wallet.md 7): any of
 * {@link COPIER_MEMBERS} with a value other than null, `report_wallet: false` counting as not set.
 */
export function reportsCopier(strategy: Strategy): boolean {
  return COPIER_MEMBERS.some((name) => {
    const value = strategy[name];
    return value !== undefined && value !== null && !(name === 'report_wallet' && value === false);
  });
}

/** A validated strategy, defaults applied. */
export type Strategy = z.output<typeof StrategySchema>;
/** A strategy as a client may send it. */
export type StrategyInput = z.input<typeof StrategySchema>;

/** The strategy of a request without one (or with `null` or `{}`): model 1.1 exactly. */
export const NO_STRATEGY: Strategy = StrategySchema.parse({});
