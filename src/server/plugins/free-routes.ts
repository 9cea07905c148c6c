import type { FastifyPluginAsync } from 'fastify';
import type { AnalyticsIndex } from '../../analytics/index.js';
import type { Network } from '../../model/request.js';
import { utcIso } from '../../model/utc-time.js';
import { checkHealth } from '../health.js';
import type { Ledger } from '../ledger/ledger.js';
import { buildOpenApiDocument } from '../openapi.js';
import { OPERATIONS } from '../operations.js';
import type { RateLimiter } from '../rate-limit/limiter.js';
import type { Simulator } from '../simulation/pool.js';

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

export interface FreeRoutesOptions {
  readonly analyticsIndexes: ReadonlyMap<Network, AnalyticsIndex>;
  readonly ledger: Ledger;
  readonly rateLimiter?: RateLimiter;
  /** The simulator, asked for an answer when it runs elsewhere (the work queue). */
  readonly simulator?: Simulator;
}

/**
 * The routes that need no key and cost nothing: the OpenAPI 3.1 document, and the health check
 * (200 when the ledger's database and the Redis of rate limits answer, else 503, for a load
 * balancer to stop sending requests to an instance that cannot serve them), which also says
 * which days each served tape spans.
 */
export const freeRoutes: FastifyPluginAsync<FreeRoutesOptions> = async (
  app,
  { analyticsIndexes, ledger, rateLimiter, simulator },
) => {
  const tapes = servedTapeFacts(analyticsIndexes);
  app.get('/health', async (request, reply) => {
    const queue = simulator?.ping === undefined ? undefined : { ping: () => simulator.ping!() };
    const log = (e: Error): void => request.log.warn(`health: ${e.message}`);
    const report = await checkHealth(ledger, rateLimiter, log, queue);
    return reply.code(report.status === 'ok' ? 200 : 503).send({ ...report, tapes });
  });
  const openApi = buildOpenApiDocument(OPERATIONS);
  app.get('/v1/openapi.json', async () => openApi);
};
