import { z } from 'zod';

/** One level of the take-profit ladder: sell `sell_percent` % of what is held once ROI reaches `roi` %. */
export const TakeProfitLevelSchema = z.strictObject({
  roi: z.number().gt(0, 'must be a ROI in percent greater than 0'),
  sell_percent: z.number().gt(0, 'must be more than 0 %').lte(100, 'must be at most 100 %'),
});
export type TakeProfitLevel = z.infer<typeof TakeProfitLevelSchema>;

const hours = z.number().int('must be whole hours').min(1, 'must be at least 1 hour').max(8760, 'must be at most 8760 hours (a year)');
const percentBelow100 = z.number().gt(0, 'must be more than 0 %').lt(100, 'must be less than 100 %');

/**
 * The request's `strategy` member (strategy extensions, model 2.0, section 1): how a real copy
 * bot copies. Every member is optional; defaults are applied on parse, and a strategy of nothing
 * but defaults gives exactly the response of model 1.1.
 */
export const StrategySchema = z.strictObject({
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
          ctx.addIssue({ code: 'custom', path: [i, 'roi'], message: "must be greater than the previous level's roi (strictly increasing)" });
        }
      }
    }),
  stop_loss_percent: percentBelow100.nullable().default(null),
  trailing_stop_percent: percentBelow100.nullable().default(null),
  max_hold_hours: hours.nullable().default(null),
  report_skipped: z.boolean().default(false),
});

/** A validated strategy, defaults applied. */
export type Strategy = z.output<typeof StrategySchema>;
/** A strategy as a client may send it. */
export type StrategyInput = z.input<typeof StrategySchema>;

/** The strategy of a request without one (or with `null` or `{}`): model 1.1 exactly. */
export const NO_STRATEGY: Strategy = StrategySchema.parse({});
