import type { z } from 'zod';
import {
  buildAnalyticsIndex,
  listWallets,
  ListWalletsBodySchema,
  ListWalletsResultSchema,
  walletDeals,
  WalletDealsQuerySchema,
  WalletDealsResultSchema,
  walletIndicators,
  WalletIndicatorsQuerySchema,
  WalletIndicatorsResultSchema,
  walletInvestmentChart,
  WalletInvestmentChartQuerySchema,
  WalletInvestmentChartResultSchema,
  walletPnlChart,
  WalletPnlChartQuerySchema,
  WalletPnlChartResultSchema,
  type AnalyticsIndex,
  type AnalyticsOptions,
} from '../analytics/index.js';
import type { IndexedTape } from '../engine/tape-index.js';

/** The five wallet analytics operations of the interface (4.2–4.6). */
export type AnalyticsOperationId = 'indicators' | 'pnl_chart' | 'investment_chart' | 'deals' | 'wallets';

/** One analytics operation as the service calls it. */
export interface AnalyticsOperation {
  /** The query (GET) or body (`POST /v1/wallets`) schema: validation and the OpenAPI document. */
  readonly input: z.ZodType;
  /** The `result` payload of the envelope. */
  readonly result: z.ZodType;
  /** Answers the operation; throws `RequestError` (400 body) for an invalid input. */
  readonly run: (index: AnalyticsIndex, address: string, input: unknown) => unknown;
}

/** The analytics library as the service uses it: one index per served tape, five operations. */
export interface AnalyticsBinding {
  readonly buildIndex: (tape: IndexedTape, options: AnalyticsOptions) => AnalyticsIndex;
  readonly operations: Readonly<Record<AnalyticsOperationId, AnalyticsOperation>>;
}

/** The wallet analytics library bound to the service's routes. */
export const ANALYTICS: AnalyticsBinding = {
  buildIndex: buildAnalyticsIndex,
  operations: {
    indicators: { input: WalletIndicatorsQuerySchema, result: WalletIndicatorsResultSchema, run: walletIndicators },
    pnl_chart: { input: WalletPnlChartQuerySchema, result: WalletPnlChartResultSchema, run: walletPnlChart },
    investment_chart: {
      input: WalletInvestmentChartQuerySchema,
      result: WalletInvestmentChartResultSchema,
      run: walletInvestmentChart,
    },
    deals: { input: WalletDealsQuerySchema, result: WalletDealsResultSchema, run: walletDeals },
    wallets: {
      input: ListWalletsBodySchema,
      result: ListWalletsResultSchema,
      run: (index, _address, body) => listWallets(index, body),
    },
  },
};
