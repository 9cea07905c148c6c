/**
 * The wallet analytics (interface 4.2 to 4.6): a wallet's deals, indicators, PnL and investment
 * charts, and the wallet list, over a tape. Build an {@link AnalyticsIndex} once, then query it;
 * each query returns the interface's `result` payload and throws a `RequestError` (400 body)
 * for an invalid query. The decisions behind each value: docs/analytics.md.
 */
export {
  buildAnalyticsIndex,
  analyticsWarnings,
  AnalyticsIndex,
  type AnalyticsWarnings,
  type WalletSummary,
} from './build.js';
export {
  CopySettingsSchema,
  DEFAULT_COPY_SETTINGS,
  type AnalyticsOptions,
  type CopySettings,
  type CopySettingsInput,
} from './options.js';
export { walletIndicators } from './indicators.js';
export { walletPnlChart, walletInvestmentChart } from './charts.js';
export { walletDeals } from './deals.js';
export { listWallets, WALLETS_PER_PAGE } from './wallet-list.js';
export {
  PERIOD_KEYS,
  CHART_PERIODS,
  PERIOD_SECONDS,
  CHART_STEP_SECONDS,
  PeriodKeySchema,
  ChartPeriodSchema,
  type PeriodKey,
  type ChartPeriod,
} from './periods.js';
export { INDICATOR_KEYS, IndicatorKeySchema, type IndicatorKey } from './totals.js';
export {
  WalletIndicatorsQuerySchema,
  WalletPnlChartQuerySchema,
  WalletInvestmentChartQuerySchema,
  WalletDealsQuerySchema,
  ListWalletsBodySchema,
  type WalletIndicatorsQuery,
  type WalletPnlChartQuery,
  type WalletInvestmentChartQuery,
  type WalletDealsQuery,
  type ListWalletsBody,
} from './queries.js';
export {
  WalletIndicatorsResultSchema,
  WalletPnlChartResultSchema,
  WalletInvestmentChartResultSchema,
  WalletDealsResultSchema,
  ListWalletsResultSchema,
  IndicatorMapSchema,
  RangeIndicatorMapSchema,
  IndicatorValueSchema,
  WalletDealSchema,
  WalletDealTradeSchema,
  WalletListItemSchema,
  AnalyticsPageSchema,
  PoolSchema,
  type WalletIndicatorsResult,
  type WalletPnlChartResult,
  type WalletInvestmentChartResult,
  type WalletDealsResult,
  type ListWalletsResult,
  type IndicatorMap,
  type RangeIndicatorMap,
  type IndicatorValue,
  type WalletDeal,
  type WalletDealTrade,
  type WalletListItem,
  type AnalyticsPage,
} from './results.js';
