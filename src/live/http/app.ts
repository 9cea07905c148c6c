import type { FastifyInstance } from 'fastify';
import { loadFastify } from '../../server/service-dependencies.js';
import type { LiveRun } from '../live-run.js';
import { feedBodies } from './body.js';
import { feedErrors } from './errors.js';
import { feedRoutes } from './feed-routes.js';
import { pageRoutes } from './page-routes.js';
import { readRoutes } from './read-routes.js';

/** Largest body of the feed by default: a batch of some 100,000 swaps. */
export const FEED_BODY_LIMIT = 32 * 1024 * 1024;

export interface FollowServerOptions {
  readonly bodyLimit?: number;
  /** Log every request (pino JSON lines on standard output). */
  readonly logger?: boolean;
}

/**
 * The HTTP service of `copysim follow` over a {@link LiveRun} (Fastify): the feed's inputs
 * (`POST /feed…`), its reads (`GET /state`, `/status`, `/events`) and the live page (`GET /`).
 * No keys: it listens on loopback unless told otherwise, as a tool run beside its feed.
 *
 * @example
 * const app = createFollowServer(await LiveRun.open({ dir: 'run', request }));
 * await app.listen({ host: '127.0.0.1', port: 8787 });
 */
export function createFollowServer(run: LiveRun, options: FollowServerOptions = {}): FastifyInstance {
  const bodyLimit = options.bodyLimit ?? FEED_BODY_LIMIT;
  const app = loadFastify()({ logger: options.logger ?? false, bodyLimit, exposeHeadRoutes: false });
  feedBodies(app, bodyLimit);
  feedErrors(app, run, bodyLimit);
  feedRoutes(app, run);
  readRoutes(app, run);
  pageRoutes(app);
  return app;
}
