import { z } from 'zod';
import { NetworkSchema } from '../model/request.js';
import { PERIOD_KEYS } from './periods.js';
import { INDICATOR_KEYS } from './totals.js';

const int = z.number().int();
const num = z.number().finite();

/** One indicator value: the wallet's own (`initial`) and a follower's (`following`). */
export const IndicatorValueSchema = z.strictObject({ initial: num, following: num.nullable() });
export type IndicatorValue = z.infer<typeof IndicatorValueSchema>;

function keyed<K extends string, T extends z.ZodType>(keys: readonly K[], value: T) {
  return z.strictObject(Object.fromEntries(keys.map((k) => [k, value])) as Record<K, T>);
}

/** Indicator map (interface 2.4): indicator key → period key → value. */
export const IndicatorMapSchema = keyed(INDICATOR_KEYS, keyed(PERIOD_KEYS, IndicatorValueSchema));
export type IndicatorMap = z.infer<typeof IndicatorMapSchema>;

/** Indicator map over a custom range (`from_time`/`to_time`): indicator key → value. */
export const RangeIndicatorMapSchema = keyed(INDICATOR_KEYS, IndicatorValueSchema);
export type RangeIndicatorMap = z.infer<typeof RangeIndicatorMapSchema>;

/** `result` of wallet indicators (4.2). */
export const WalletIndicatorsResultSchema = z.strictObject({
  indicators: z.union([IndicatorMapSchema, RangeIndicatorMapSchema]),
});
export type WalletIndicatorsResult = z.infer<typeof WalletIndicatorsResultSchema>;

const ChartPeriodRangeSchema = z.strictObject({ start: int, end: int });

/** `result` of the wallet PnL chart (4.3). */
export const WalletPnlChartResultSchema = z.strictObject({
  chart: z.strictObject({
    timestamps: z.array(int),
    initial_values: z.array(num),
    following_values: z.array(num),
    period: ChartPeriodRangeSchema,
  }),
});
export type WalletPnlChartResult = z.infer<typeof WalletPnlChartResultSchema>;

/** `result` of the wallet investment amount chart (4.4). */
export const WalletInvestmentChartResultSchema = z.strictObject({
  chart: z.strictObject({
    timestamps: z.array(int),
    values: z.array(num),
    period: ChartPeriodRangeSchema,
  }),
});
export type WalletInvestmentChartResult = z.infer<typeof WalletInvestmentChartResultSchema>;

/** Pool (2.5): the tape names none, so lists of pools are empty. */
export const PoolSchema = z.strictObject({ type: z.string(), address: z.string(), name: z.string() });

const SwapLegSchema = z.strictObject({ amount: num, symbol: z.string(), address: z.string() });

/** Trade of a wallet deal (2.5). */
export const WalletDealTradeSchema = z.strictObject({
  id: int,
  is_following: z.boolean(),
  type: z.enum(['buy', 'sell']),
  transaction_hash: z.string(),
  application: z.strictObject({ name: z.string(), address: z.string() }),
  usd_amount: num,
  quantity: num,
  quantity_unlimited: z.boolean(),
  usd_price: num,
  usd_liquidity: num,
  usd_market_cap: num,
  token_age: int,
  time: int,
  pools: z.array(PoolSchema),
  coin_fee: z.strictObject({ amount: num, percent: num }),
  router_fee: z.strictObject({ usd: num, native: num }),
  network_fee: z.strictObject({ usd: num, native: num }),
  swaps: z.array(z.strictObject({ from: SwapLegSchema, to: SwapLegSchema, pool: PoolSchema, usd_price: num })),
});
export type WalletDealTrade = z.infer<typeof WalletDealTradeSchema>;

/** A pair (2.5): the wallet's value and the follower's (null when it took no part). */
function pair<T extends z.ZodType>(value: T) {
  return z.strictObject({ initial: value, following: value.nullable() });
}

/** Wallet deal (2.5). */
export const WalletDealSchema = z.strictObject({
  id: int,
  network: NetworkSchema,
  token: z.strictObject({
    network: NetworkSchema,
    address: z.string(),
    name: z.string().nullable(),
    symbol: z.string().nullable(),
    scam_status: z.enum(['unknown', 'clean', 'suspicious', 'scam']),
    created_at: int,
    started_at: int,
  }),
  open_time: pair(int),
  last_operation_time: pair(int),
  status: pair(z.enum(['open', 'closed'])),
  trades_number: pair(int),
  closed_position: pair(num),
  pnl_realized: pair(num),
  pnl_unrealized: pair(num),
  pnl_total: pair(num),
  roi_realized: pair(num),
  roi_unrealized: pair(num),
  roi_total: pair(num),
  roi_low: pair(num),
  roi_high: pair(num),
  capital_required: pair(num),
  pools: z.array(PoolSchema),
  trades: z.array(WalletDealTradeSchema),
});
export type WalletDeal = z.infer<typeof WalletDealSchema>;

/** Page object (2.3). */
export const AnalyticsPageSchema = z.strictObject({ current: int, per_page: int });
export type AnalyticsPage = z.infer<typeof AnalyticsPageSchema>;

/** `result` of wallet deals (4.5). */
export const WalletDealsResultSchema = z.strictObject({ deals: z.array(WalletDealSchema), page: AnalyticsPageSchema });
export type WalletDealsResult = z.infer<typeof WalletDealsResultSchema>;

/** Wallet list item (2.6). */
export const WalletListItemSchema = z.strictObject({
  address: z.string(),
  network: NetworkSchema,
  indicators: IndicatorMapSchema,
});
export type WalletListItem = z.infer<typeof WalletListItemSchema>;

/** `result` of the wallets list (4.6). */
export const ListWalletsResultSchema = z.strictObject({
  wallets: z.array(WalletListItemSchema),
  page: AnalyticsPageSchema,
});
export type ListWalletsResult = z.infer<typeof ListWalletsResultSchema>;
