import type { FastifyInstance } from 'fastify';
import type { AnalyticsIndex } from '../analytics/index.js';
import type { Network } from '../model/request.js';
import type { Ledger } from './ledger/ledger.js';
import { analyticsRoutes } from './plugins/analytics-routes.js';
import { errorsPlugin, frameworkErrors, MAX_PARAM_LENGTH } from './plugins/errors.js';
import { freeRoutes } from './plugins/free-routes.js';
import { jsonBodyPlugin } from './plugins/json-body.js';
import { paidAccessPlugin } from './plugins/paid-access.js';
import { simulatorRoute } from './plugins/simulator-route.js';
import { webPagePlugin } from './plugins/web-page.js';
import type { RateLimiter } from './rate-limit/limiter.js';
import type { RateLimit } from './rate-limit/rate.js';
import type { Simulator } from './simulation/pool.js';
import { loadFastify } from './service-dependencies.js';

/** Everything the HTTP service needs; {@link startServer} assembles it from files. */
export interface ServiceOptions {
  /** Keys and credits: SQLite (`SqliteLedger`) or PostgreSQL (`PostgresLedger`). */
  readonly ledger: Ledger;
  readonly simulator: Simulator;
  /** The analytics index of each served network; its keys are the networks served. */
  readonly analyticsIndexes: ReadonlyMap<Network, AnalyticsIndex>;
  /** Counts the requests of rate-limited keys (in memory, or in a shared Redis); none: no limits. */
  readonly rateLimiter?: RateLimiter;
  /** The rate limit of keys without their own; default none. */
  readonly defaultRate?: RateLimit;
  /** Largest request body, bytes; default 64 KiB (a simulator request of 100 wallets is ~6 KiB). */
  readonly bodyLimit?: number;
  /** Log every request (pino JSON lines on standard output). */
  readonly logger?: boolean;
}

export const DEFAULT_BODY_LIMIT = 64 * 1024;

/**
 * Builds the HTTP service (Fastify): the interface's six operations under `/v1`, API keys in
 * `X-API-Key`, credits held while a request runs and charged only when it succeeds, safe retries
 * with `Idempotency-Key`, rate limits per key, the OpenAPI 3.1 document at `/v1/openapi.json`,
 * `GET /health`, and the web page at `/`. Checks run in this order: route (404), key (401, 403
 * `key_disabled`), rate (429), input (400), `Idempotency-Key` (replay, 409, 422), credits (403
 * `insufficient_credits`), the operation, the charge. Each part is a plugin of src/server/plugins/.
 *
 * @example
 * const app = createServer({
 *   ledger: SqliteLedger.open('copysim.db', { now: () => Math.floor(Date.now() / 1000) }),
 *   simulator: await SimulationPool.start({ tapes: [{ network: 'sol', file: 'tape-sol.json' }] }),
 *   analyticsIndexes: new Map([['sol', buildAnalyticsIndex(readTapeFile('tape-sol.json'))]]),
 * });
 * await app.listen({ host: '127.0.0.1', port: 8080 });
 */
export function createServer(options: ServiceOptions): FastifyInstance {
  const { ledger, simulator, analyticsIndexes, rateLimiter } = options;
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  // No automatic HEAD routes: a HEAD of a read would be charged for a body it never gets.
  const app = loadFastify()({
    logger: options.logger ?? false,
    bodyLimit,
    exposeHeadRoutes: false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: frameworkErrors(bodyLimit),
  });
  // The shared plugins first: the routes after them take their body parser, error answers and
  // paid access.
  app.register(jsonBodyPlugin, { bodyLimit });
  app.register(errorsPlugin, { bodyLimit });
  app.register(paidAccessPlugin, {
    ledger,
    ...(rateLimiter !== undefined ? { rateLimiter } : {}),
    ...(options.defaultRate !== undefined ? { defaultRate: options.defaultRate } : {}),
  });
  // To add a route: a paid operation goes in the route table (operations.ts); an analytics read is
  // then served by analyticsRoutes (see there), any other operation by a plugin of its own,
  // registered here, that takes paidAccessOf(app) (as simulatorRoute). A free route goes in
  // freeRoutes, in the 405 table of plugins/errors.ts and in the OpenAPI document (openapi.ts).
  app.register(freeRoutes, {
    analyticsIndexes,
    ledger,
    simulator,
    ...(rateLimiter !== undefined ? { rateLimiter } : {}),
  });
  app.register(simulatorRoute, { simulator, analyticsIndexes });
  app.register(analyticsRoutes, { analyticsIndexes });
  app.register(webPagePlugin);
  return app;
}
