import type { FastifyPluginAsync } from 'fastify';
import type { AnalyticsIndex } from '../../analytics/index.js';
import type { Network } from '../../model/request.js';
import { utcIso } from '../../model/utc-time.js';
import { buildOpenApiDocument } from '../openapi.js';
import { OPERATIONS } from '../operations.js';

/** What the service serves of one network: its tape's swaps and the UTC days they span. */
export interface ServedTapeFacts {
  readonly swaps: number;
  /** The first and last swap's day (`YYYY-MM-DD`); null for an empty tape. */
  readonly first_day: string | null;
  readonly last_day: string | null;
}

/** The served tapes' facts by network: the web page fills in a request's dates from them. */
export function servedTapeFacts(indexes: ReadonlyMap<Network, AnalyticsIndex>): Record<string, ServedTapeFacts> {
  const facts: Record<string, ServedTapeFacts> = {};
  for (const [network, index] of indexes) {
    const { swaps, order } = index.tape;
    const day = (k: number): string | null => (order.length === 0 ? null : utcIso(swaps[order[k]!]!.time).slice(0, 10));
    facts[network] = { swaps: swaps.length, first_day: day(0), last_day: day(order.length - 1) };
  }
  return facts;
}

/**
 * The routes that need no key and cost nothing: the OpenAPI 3.1 document, and the health check,
 * which also says which days each served tape spans.
 */
export const freeRoutes: FastifyPluginAsync<{ analyticsIndexes: ReadonlyMap<Network, AnalyticsIndex> }> = async (
  app,
  { analyticsIndexes },
) => {
  const tapes = servedTapeFacts(analyticsIndexes);
  app.get('/health', async () => ({ status: 'ok', tapes }));
  const openApi = buildOpenApiDocument(OPERATIONS);
  app.get('/v1/openapi.json', async () => openApi);
};
