import type { FastifyInstance } from 'fastify';
import type { AnalyticsOptions } from '../analytics/index.js';
import { InputError } from '../model/errors.js';
import { resolveEngineOptions, type EngineOptionsInput } from '../model/options.js';
import { ANALYTICS } from './analytics-binding.js';
import { createServer } from './app.js';
import { bundledDataDir, loadTapes, type ServedTape } from './data.js';
import type { TapeHeaderOptions } from '../io/parquet/header.js';
import type { Ledger } from './ledger/ledger.js';
import { openLedger } from './ledger/open-ledger.js';
import { MemoryRateLimiter, type RateLimiter } from './rate-limit/limiter.js';
import type { RateLimit } from './rate-limit/rate.js';
import { RedisRateLimiter } from './rate-limit/redis-limiter.js';
import { SimulationPool, type Simulator } from './simulation/pool.js';
import { QueueSimulationPool } from './simulation/queue-pool.js';

export interface StartOptions {
  /** Folder of `*.json` and `*.parquet` tapes, one per network; default the bundled examples. */
  readonly dataDir?: string;
  /** The header of the folder's Parquet tapes written by another program (see `readTapeFile`). */
  readonly tapeHeader?: TapeHeaderOptions;
  /**
   * The key database: a SQLite file, or a PostgreSQL URL (`postgres://USER@HOST:PORT/DB`) that
   * several instances share; default `./copysim.db`.
   */
  readonly db?: string;
  /** The same as {@link db}, for a SQLite file. */
  readonly dbFile?: string;
  /** A Redis URL: rate limits counted there, shared by every instance given the same; default per instance. */
  readonly redis?: string;
  /** The rate limit of keys without their own; default none. */
  readonly defaultRate?: RateLimit;
  /** PostgreSQL: seconds a hold or an idempotency claim outlives an instance that died (default 10). */
  readonly leaseSeconds?: number;
  /** Default 8080; 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1 (loopback only). */
  readonly host?: string;
  /** Simulation worker threads; default the cores less one, at least 1. */
  readonly workers?: number;
  /**
   * A Redis URL: simulations run on the `copysim worker` processes of this work queue, not on
   * worker threads here (the workers read the tapes at the same paths); default local threads.
   */
  readonly queue?: string;
  /** With `queue`: seconds a simulation may take there before its request answers 503 (default 60). */
  readonly queueTimeoutSeconds?: number;
  readonly engineOptions?: EngineOptionsInput;
  /** `now` and the follower's copy settings of the wallet analytics (engine options: above). */
  readonly analytics?: Omit<AnalyticsOptions, 'engineOptions'>;
  readonly bodyLimit?: number;
  readonly logger?: boolean;
  /** Unix seconds now, for the ledger. */
  readonly now: () => number;
  /** The compiled simulation worker, when not beside the pool module in `dist/`. */
  readonly workerUrl?: URL;
}

/** A listening service and what it holds. */
export interface RunningServer {
  /** `http://host:port`. */
  readonly url: string;
  readonly app: FastifyInstance;
  readonly ledger: Ledger;
  /** Where the rate limits are counted. */
  readonly rateLimiter: RateLimiter;
  readonly tapes: readonly ServedTape[];
  /** JSON files of the data folder that are not tapes. */
  readonly skipped: readonly string[];
  /** Local simulation worker threads (0 with a queue). */
  readonly workers: number;
  /** Stops accepting, finishes the requests in flight, stops the workers, closes the databases. */
  close(): Promise<void>;
}

/** Listens; a port in use or not ours to take is an {@link InputError} naming it, in one line. */
async function listen(app: FastifyInstance, host: string, port: number): Promise<void> {
  try {
    await app.listen({ host, port });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const where = `${host}:${port}`;
    if (code === 'EADDRINUSE') {
      throw new InputError(
        `port ${port} is already in use on ${host}: ` +
          'stop the program using it or choose another with --port (0 picks a free one)',
        { source: where },
      );
    }
    if (code === 'EACCES')
      throw new InputError(`no permission to listen on ${where}: choose a port above 1023 with --port`, {
        source: where,
      });
    if (code === 'EADDRNOTAVAIL')
      throw new InputError(`${host} is not an address of this machine: choose another --host`, { source: where });
    throw e;
  }
}

/**
 * Loads the tapes, opens the key database (running its migrations), connects to Redis when
 * given, starts the simulation workers and listens. Throws an `InputError` (nothing left
 * running) when a tape, the options, the database or Redis cannot be used.
 *
 * @example
 * const now = () => Math.floor(Date.now() / 1000);
 * const server = await startServer({ dataDir: 'tapes', db: 'keys.db', port: 0, now });
 * console.log(server.url);
 * await server.close();
 */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const engineOptions = options.engineOptions ?? {};
  resolveEngineOptions(engineOptions);
  const { tapes, skipped } = loadTapes(options.dataDir ?? bundledDataDir(), options.tapeHeader);
  const analyticsIndexes = new Map(
    tapes.map((t) => [t.network, ANALYTICS.buildIndex(t.tape, { ...options.analytics, engineOptions })] as const),
  );
  const ledger = await openLedger(options.db ?? options.dbFile ?? 'copysim.db', {
    now: options.now,
    ...(options.leaseSeconds !== undefined ? { leaseSeconds: options.leaseSeconds } : {}),
  });
  let pool: (Simulator & { readonly size: number; close(): Promise<void> }) | undefined;
  let rateLimiter: RateLimiter | undefined;
  try {
    rateLimiter = options.redis !== undefined ? await RedisRateLimiter.connect(options.redis) : new MemoryRateLimiter();
    const tapeFiles = tapes.map(({ network, file, header }) => ({ network, file, header }));
    pool =
      options.queue !== undefined
        ? await QueueSimulationPool.start({
            url: options.queue,
            tapes: tapeFiles,
            engineOptions,
            ...(options.queueTimeoutSeconds !== undefined ? { timeoutSeconds: options.queueTimeoutSeconds } : {}),
          })
        : await SimulationPool.start({
            tapes: tapeFiles,
            engineOptions,
            ...(options.workers !== undefined ? { size: options.workers } : {}),
            ...(options.workerUrl !== undefined ? { workerUrl: options.workerUrl } : {}),
          });
    const app = createServer({
      ledger,
      rateLimiter,
      ...(options.defaultRate !== undefined ? { defaultRate: options.defaultRate } : {}),
      simulator: pool,
      analyticsIndexes,
      ...(options.bodyLimit !== undefined ? { bodyLimit: options.bodyLimit } : {}),
      ...(options.logger !== undefined ? { logger: options.logger } : {}),
    });
    await listen(app, options.host ?? '127.0.0.1', options.port ?? 8080);
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : options.port;
    const host = options.host ?? '127.0.0.1';
    const running = pool;
    const limiter = rateLimiter;
    return {
      url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
      app,
      ledger,
      rateLimiter: limiter,
      tapes,
      skipped,
      workers: running.size,
      async close() {
        await app.close();
        await running.close();
        await limiter.close();
        await ledger.close();
      },
    };
  } catch (e) {
    await pool?.close();
    await rateLimiter?.close();
    await ledger.close();
    throw e;
  }
}
