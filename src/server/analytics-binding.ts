import type { z } from 'zod';
import type { IndexedTape } from '../engine/tape-index.js';
import type { EngineOptionsInput } from '../model/options.js';

/** The five wallet analytics operations of the interface (4.2–4.6). */
export type AnalyticsOperationId = 'indicators' | 'pnl_chart' | 'investment_chart' | 'deals' | 'wallets';

/** One analytics operation as the service calls it. */
export interface AnalyticsOperation {
  /** The query (GET) or body (`POST /v1/wallets`) schema: validation and the OpenAPI document. */
  readonly input: z.ZodType;
  /** The `result` payload of the envelope. */
  readonly result: z.ZodType;
  /** Answers the operation; throws `RequestError` for an invalid input. */
  readonly run: (index: unknown, address: string, input: unknown) => unknown;
}

/** The analytics library as the service uses it. */
export interface AnalyticsBinding {
  /** Builds the queryable index of one tape, once at start. */
  readonly buildIndex: (tape: IndexedTape, engineOptions: EngineOptionsInput) => unknown;
  readonly operations: Readonly<Record<AnalyticsOperationId, AnalyticsOperation>>;
}

/**
 * The wallet analytics library bound to the service's routes; null while it is not part of the
 * build, in which case the five analytics routes answer 501 `not_implemented`.
 */
export const ANALYTICS: AnalyticsBinding | null = null;
