import { z } from 'zod';
import { EXIT_TAGS, EXIT_TRADES } from './exits.js';

const int = z.number().int();
const num = z.number().finite();
/**
 * Whole USD, rounded (a deals chart's values): any size, as a JSON integer may be. zod's `int()`
 * stops at 2⁵³, which a PnL beyond 9·10¹⁵ USD (absurd prices, but a valid tape) passes.
 */
const wholeUsd = z.number().finite().refine(Number.isInteger, 'expected a whole number').meta({ type: 'integer' });

/** A simulated trade (interface 2.8): every field required. */
export const SimulatedTradeSchema = z.strictObject({
  // The last four come only from a strategy's exits (strategy extensions 7).
  type: z.enum(['buy', 'sell', 'sell_timefix', 'sell_timefix_final', ...EXIT_TRADES]),
  time: int,
  usd_amount: num.nullable(),
  quantity: num,
  usd_price: num.nullable(),
  usd_liquidity: num.nullable(),
  usd_buy_price_avg: num,
  usd_invested: num,
  slippage: num,
  usd_network_fee: num,
  usd_bot_fee: num,
});
export type SimulatedTrade = z.infer<typeof SimulatedTradeSchema>;
export type TradeType = SimulatedTrade['type'];

export const SpecialTagSchema = z.enum(['sell_timefix_final', 'sell_timefix', 'close_all', ...EXIT_TAGS]).nullable();
export type SpecialTag = z.infer<typeof SpecialTagSchema>;

/** A simulated deal (interface 2.7): every field required. */
export const SimulatedDealSchema = z.strictObject({
  open_time: int,
  last_operation_time: int,
  status: z.enum(['open', 'closed']),
  token: z.strictObject({ address: z.string(), name: z.string().nullable(), symbol: z.string().nullable() }),
  pnl_realized: num,
  pnl_unrealized: num,
  pnl_total: num,
  roi_realized: num,
  roi_total: num,
  usd_slippage_loss: num,
  usd_network_fee: num,
  usd_bot_fee: num,
  investment_amount: num,
  trades_number: int,
  closed_position: num,
  special_tag: SpecialTagSchema,
  trades: z.array(SimulatedTradeSchema),
});
export type SimulatedDeal = z.infer<typeof SimulatedDealSchema>;

/** The simulator's summary (interface 4.1). */
export const SimulationSummarySchema = z.strictObject({
  pnl_total: num,
  pnl_realized: num,
  pnl_unrealized: num,
  roi_total: num,
  roi_realized: num,
  bot_fees: num,
  network_fees: num,
  linearity_r2_closed_deals: num,
  top_deal_dominance: num,
  trading_volume: num,
  slippage_loss: num,
  investment_amount: num,
  investment_amount_closed_deals: num,
  investment_amount_open_deals: num,
});
export type SimulationSummary = z.infer<typeof SimulationSummarySchema>;

export const PnlAndFeeChartSchema = z.strictObject({
  pnl_realized: z.array(num),
  pnl_unrealized: z.array(num),
  pnl_total: z.array(num),
  fee_sum: z.array(num),
  bot_fee: z.array(num),
  deal_indexes: z.array(int),
  timestamps: z.array(int),
});
export type PnlAndFeeChart = z.infer<typeof PnlAndFeeChartSchema>;

export const DealsChartSchema = z.strictObject({
  values: z.array(wholeUsd),
  timestamps: z.array(int),
});
export type DealsChart = z.infer<typeof DealsChartSchema>;

/** A leader swap inside the window that was not copied, and why (strategy extensions 7). */
export const SkippedCopySchema = z.strictObject({
  time: int,
  wallet: z.string(),
  token: z.string(),
  type: z.enum(['buy', 'sell']),
  reason: z.enum([
    'dupe_limit',
    'leader_buy_too_small',
    'liquidity_too_low',
    'token_too_old',
    'position_full',
    'no_open_deal',
    'no_lot',
    'after_window',
    'insufficient_balance',
    'max_open_deals',
    'failed_transaction',
    'slippage_exceeded',
  ]),
});
export type SkippedCopyJson = z.infer<typeof SkippedCopySchema>;

/** One followed wallet's share of the result (model 3.0, `report_leaders`; copier-wallet.md 7). */
export const LeaderResultSchema = z.strictObject({
  wallet: z.string(),
  copied_buys: int,
  copied_sells: int,
  skipped: int,
  investment: num,
  pnl_realized: num,
  pnl_unrealized: num,
  failed_transaction_fees: num,
  pnl_total: num,
  roi_total: num,
});
export type LeaderResultJson = z.infer<typeof LeaderResultSchema>;

/** The copier's wallet over the run (model 3.0; copier-wallet.md 7). */
export const CopierResultSchema = z.strictObject({
  starting_balance: num.nullable(),
  ending_cash: num.nullable(),
  ending_equity: num.nullable(),
  roi_on_balance: num.nullable(),
  capital_required: num,
  max_drawdown: num,
  max_drawdown_percent: num.nullable(),
  failed_transactions: int,
  failed_transaction_fees: num,
  sandwiched_trades: int,
  sandwich_loss: num,
  skipped_for_cash: int,
});
export type CopierResultJson = z.infer<typeof CopierResultSchema>;

/**
 * The 200 body of `POST /wallets/simulator` (interface 4.1): no envelope. `skipped_copies` is
 * there only when the request's strategy asks for it (`report_skipped`).
 */
export const SimulatorResponseSchema = z.strictObject({
  summary: SimulationSummarySchema,
  cumulative_pnl_and_fee_chart: PnlAndFeeChartSchema,
  cumulative_usd_closed_deals_chart: DealsChartSchema,
  cumulative_usd_open_deals_chart: DealsChartSchema,
  deals: z.array(SimulatedDealSchema),
  skipped_copies: z.array(SkippedCopySchema).optional(),
  leaders: z.array(LeaderResultSchema).optional(),
  copier: CopierResultSchema.optional(),
});
export type SimulatorResponse = z.infer<typeof SimulatorResponseSchema>;

/** The 400 body (interface section 7) as the engine produces it. */
export const ErrorBodySchema = z.discriminatedUnion('code', [
  z.strictObject({
    code: z.literal('validation_error'),
    detail: z.array(z.strictObject({ path: z.string(), message: z.string() })),
  }),
  z.strictObject({ code: z.literal('invalid_date_range'), detail: z.string() }),
  z.strictObject({ code: z.literal('period_required'), detail: z.string() }),
]);
