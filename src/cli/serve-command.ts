import { parseArgs } from 'node:util';
import { readJson } from '../io/files.js';
import { shownUrl } from '../distributed/redis.js';
import { parseRate } from '../server/rate-limit/rate.js';
import { EXIT_OK, type CliIo } from './io.js';
import { keyDatabase } from './keys-command.js';
import { UsageError } from './usage.js';
import { TAPE_HEADER_FLAGS, tapeHeaderOptions } from './tape-header-flags.js';

export const SERVE_HELP = `copysim serve [--data DIR] [--db FILE|URL] [--redis URL] [--rate R] [--port N] [--host H]
              [--workers N] [--queue URL [--queue-timeout S]] [--options FILE] [--log]
              [--network sol|eth] [--tokens FILE] [--native-prices FILE]

Serves the interface under /v1: POST /v1/wallets/simulator, GET /v1/wallets/{address}/indicators,
.../charts/pnl, .../charts/investment_amount, .../deals, POST /v1/wallets, the OpenAPI 3.1
document at /v1/openapi.json, and GET /health. Every operation needs an API key (X-API-Key; see
"copysim keys") and costs credits, charged only when it succeeds; a request with an
Idempotency-Key header may be retried safely (one answer, one charge).

  --data DIR       folder of tapes: every *.parquet file and every *.json file with "swaps",
                   one per network
                   (default: the bundled example, fixtures/example)
  --db FILE|URL    the key and credit database: a SQLite FILE, or a PostgreSQL URL
                   (postgres://USER@HOST:PORT/DB, or a Unix socket: postgres://USER@/DB?host=DIR)
                   that several servers share; its schema is brought up to date at start
                   (default: $COPYSIM_DB, else ./copysim.db)
  --redis URL      count rate limits in this Redis (redis://HOST:PORT), shared by every server
                   given it (default: each server counts its own)
  --rate R         the rate limit of keys without their own: "10/s", "600/min", both as
                   "10/s,600/min" (default: none); see "copysim keys set"
  --port N         default 8080 (0: any free port)
  --host H         default 127.0.0.1 (loopback only; 0.0.0.0 to listen on every interface)
  --workers N      simulation worker threads (default: the cores less one, at least 1)
  --queue URL      run the simulations on the "copysim worker" processes of this Redis work
                   queue (redis://HOST:PORT) instead of worker threads here; the workers read
                   the tapes at the paths this server loaded them from (shared storage)
  --queue-timeout S
                   seconds a simulation may take on the queue, waiting for a worker included,
                   before its request answers 503 queue_timeout, charged nothing (default 60)
  --options FILE   engine options as JSON (as for "copysim simulate")
  --log            log every request (JSON lines on standard output)
  --network sol|eth, --tokens FILE, --native-prices FILE
                   the header of the folder's Parquet tapes that another program wrote (no
                   copysim header in them), as "copysim simulate" takes it; a tape whose own
                   header they contradict is refused (see docs/columnar-tape.md)

Prints "listening on URL" once ready; stops cleanly on SIGINT or SIGTERM (requests in flight
finish first).`;

function wholeNumber(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max))
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, not "${value}"`);
  return n;
}

export async function serveCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      data: { type: 'string' },
      db: { type: 'string' },
      redis: { type: 'string' },
      rate: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      workers: { type: 'string' },
      queue: { type: 'string' },
      'queue-timeout': { type: 'string' },
      options: { type: 'string' },
      log: { type: 'boolean', default: false },
      ...TAPE_HEADER_FLAGS,
    },
    strict: true,
  });
  const tapeHeader = tapeHeaderOptions(values, undefined);
  const port = wholeNumber('--port', values.port, 0, 65535) ?? 8080;
  const workers = wholeNumber('--workers', values.workers, 1, 64);
  const queueTimeout = wholeNumber('--queue-timeout', values['queue-timeout'], 1, 86_400);
  if (queueTimeout !== undefined && values.queue === undefined) throw new UsageError('--queue-timeout needs --queue');
  const engineOptions = values.options === undefined ? {} : (readJson(values.options, 'options') as object);
  const defaultRate = values.rate === undefined ? undefined : parseRate(values.rate, '--rate');
  const db = keyDatabase(values.db);

  // Loaded here, not at start-up: the service's packages are optional (src/server/service-dependencies.ts).
  const { startServer, shownDatabase, formatRate } = await import('../server/index.js');
  const server = await startServer({
    ...(values.data !== undefined ? { dataDir: values.data } : {}),
    tapeHeader,
    db,
    ...(values.redis !== undefined ? { redis: values.redis } : {}),
    ...(defaultRate !== undefined ? { defaultRate } : {}),
    port,
    host: values.host,
    ...(workers !== undefined ? { workers } : {}),
    ...(values.queue !== undefined ? { queue: values.queue } : {}),
    ...(queueTimeout !== undefined ? { queueTimeoutSeconds: queueTimeout } : {}),
    engineOptions,
    logger: values.log,
    now: () => Math.floor(Date.now() / 1000),
  });
  for (const t of server.tapes) io.out(`copysim serve: ${t.network} tape ${t.file} (${t.tape.swaps.length} swaps)\n`);
  for (const file of server.skipped) io.out(`copysim serve: skipped ${file} (not a tape: no "swaps")\n`);
  const kind = server.ledger.kind === 'postgres' ? 'PostgreSQL' : 'SQLite';
  const simulations =
    values.queue === undefined
      ? `${server.workers} simulation worker(s)`
      : `simulations on the work queue ${shownUrl(values.queue)}`;
  io.out(`copysim serve: keys and credits in ${shownDatabase(db)} (${kind}); ${simulations}\n`);
  const rates = server.rateLimiter.shared
    ? 'counted in Redis, shared by every server given it'
    : 'counted by this server';
  const byDefault = defaultRate === undefined ? 'none' : formatRate(defaultRate);
  io.out(`copysim serve: rate limits ${rates}; default ${byDefault}\n`);
  io.out(`copysim serve: listening on ${server.url}\n`);

  const signal = await new Promise<string>((resolve) => {
    const stop = (name: string) => () => resolve(name);
    process.once('SIGINT', stop('SIGINT'));
    process.once('SIGTERM', stop('SIGTERM'));
  });
  io.out(`copysim serve: ${signal}, finishing the requests in flight\n`);
  await server.close();
  io.out('copysim serve: stopped\n');
  return EXIT_OK;
}
