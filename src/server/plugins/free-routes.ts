import type { FastifyPluginAsync } from 'fastify';
import { checkHealth } from '../health.js';
import type { Ledger } from '../ledger/ledger.js';
import { buildOpenApiDocument } from '../openapi.js';
import { OPERATIONS } from '../operations.js';
import type { RateLimiter } from '../rate-limit/limiter.js';

export interface FreeRoutesOptions {
  readonly ledger: Ledger;
  readonly rateLimiter?: RateLimiter;
}

/**
 * The routes that need no key and cost nothing: the OpenAPI 3.1 document, and the health check
 * (200 when the ledger's database and the Redis of rate limits answer, else 503), for a load
 * balancer to stop sending requests to an instance that cannot serve them.
 */
export const freeRoutes: FastifyPluginAsync<FreeRoutesOptions> = async (app, { ledger, rateLimiter }) => {
  app.get('/health', async (request, reply) => {
    const report = await checkHealth(ledger, rateLimiter, (e) => request.log.warn(`health: ${e.message}`));
    return reply.code(report.status === 'ok' ? 200 : 503).send(report);
  });
  const openApi = buildOpenApiDocument(OPERATIONS);
  app.get('/v1/openapi.json', async () => openApi);
};
