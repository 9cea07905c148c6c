import type { FastifyInstance } from 'fastify';
import type { AnalyticsOptions } from '../analytics/index.js';
import { InputError } from '../model/errors.js';
import { resolveEngineOptions, type EngineOptionsInput } from '../model/options.js';
import { ANALYTICS } from './analytics-binding.js';
import { createServer } from './app.js';
import { bundledDataDir, loadTapes, type ServedTape } from './data.js';
import { KeyStore } from './keys/key-store.js';
import { SimulationPool } from './simulation/pool.js';

export interface StartOptions {
  /** Folder of `*.json` and `*.parquet` tapes, one per network; default the bundled examples. */
  readonly dataDir?: string;
  /** The key database; default `./copysim.db`. */
  readonly dbFile?: string;
  /** Default 8080; 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1 (loopback only). */
  readonly host?: string;
  /** Simulation worker threads; default the cores less one, at least 1. */
  readonly workers?: number;
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
  readonly store: KeyStore;
  readonly tapes: readonly ServedTape[];
  /** JSON files of the data folder that are not tapes. */
  readonly skipped: readonly string[];
  readonly workers: number;
  /** Stops accepting, finishes the requests in flight, stops the workers, closes the database. */
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
      throw new InputError(`port ${port} is already in use on ${host}: stop the program using it or choose another with --port (0 picks a free one)`, { source: where });
    }
    if (code === 'EACCES') throw new InputError(`no permission to listen on ${where}: choose a port above 1023 with --port`, { source: where });
    if (code === 'EADDRNOTAVAIL') throw new InputError(`${host} is not an address of this machine: choose another --host`, { source: where });
    throw e;
  }
}

/**
 * Loads the tapes, opens the key database, starts the simulation workers and listens.
 * Throws an `InputError` (nothing left running) when a tape, the options or the database cannot
 * be used.
 *
 * @example
 * const server = await startServer({ dataDir: 'tapes', dbFile: 'keys.db', port: 0, now: () => Math.floor(Date.now() / 1000) });
 * console.log(server.url);
 * await server.close();
 */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const engineOptions = options.engineOptions ?? {};
  resolveEngineOptions(engineOptions);
  const { tapes, skipped } = loadTapes(options.dataDir ?? bundledDataDir());
  const analyticsIndexes = new Map(
    tapes.map((t) => [t.network, ANALYTICS.buildIndex(t.tape, { ...options.analytics, engineOptions })] as const),
  );
  const store = KeyStore.open(options.dbFile ?? 'copysim.db', { now: options.now });
  let pool: SimulationPool | undefined;
  try {
    pool = await SimulationPool.start({
      tapes: tapes.map(({ network, file }) => ({ network, file })),
      engineOptions,
      ...(options.workers !== undefined ? { size: options.workers } : {}),
      ...(options.workerUrl !== undefined ? { workerUrl: options.workerUrl } : {}),
    });
    const app = createServer({
      store,
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
    return {
      url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
      app,
      store,
      tapes,
      skipped,
      workers: running.size,
      async close() {
        await app.close();
        await running.close();
        store.close();
      },
    };
  } catch (e) {
    await pool?.close();
    store.close();
    throw e;
  }
}
