/**
 * Load of the HTTP service (autocannon): requests/s and latency of the simulator and of a read,
 * on the SQLite ledger, the PostgreSQL one, or both side by side.
 *   npx tsc -p tsconfig.build.json && node dist/bench/load.js [--duration 10] [--connections 10]
 *     [--workers N] [--data DIR] [--ledger sqlite|postgres|both]
 *
 * Starts `copysim serve` as a child process (so the load generator does not share its event
 * loop) on the bundled example tapes with a fresh key database (a SQLite file, or a database of
 * a throw-away PostgreSQL cluster, reached through its Unix socket), then runs, one after the
 * other:
 * - simulator: POST /v1/wallets/simulator with the bundled sol request (fixtures/example);
 * - read: GET /v1/wallets/{first leader}/indicators?network=sol;
 * - read while simulating: the same read, while the simulator load runs beside it (the reads
 *   stay on the request thread, the simulations on the worker pool).
 * Then checks the ledger: every 200 was charged exactly once. With both ledgers it ends with
 * PostgreSQL's throughput as a share of SQLite's, scenario by scenario.
 *
 * Both ledgers are equally durable: every charge is on disk before its answer leaves (SQLite: WAL
 * with synchronous = FULL, an fsync a commit; PostgreSQL: fsync and synchronous_commit on, its
 * default settings otherwise).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { z } from 'zod';
import { openLedger } from '../src/server/index.js';
import { startCluster, type PostgresCluster } from '../tools/postgres-cluster.js';
import { topLevelOptions, whole } from '../tools/script-args.js';

const USAGE = `Usage: npx tsc -p tsconfig.build.json && node dist/bench/load.js [options]

Load of the HTTP service (autocannon): the simulator, a read, and the read under simulator load.

  --duration S      seconds a scenario (default 10)
  --connections N   concurrent connections (default 10)
  --workers N       simulation workers of the service (default: its own)
  --data DIR        the tapes the service serves (default fixtures/example)
  --ledger L        sqlite, postgres (a throw-away cluster; needs Debian's postgresql), or both
                    (default sqlite)`;

const {
  duration,
  connections,
  workers,
  data,
  ledger: ledgers,
} = topLevelOptions(
  'load',
  {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    workers: { type: 'string' },
    data: { type: 'string' },
    ledger: { type: 'string', default: 'sqlite' },
  },
  z.object({
    duration: whole(1),
    connections: whole(1),
    workers: whole(1).optional(),
    data: z.string().optional(),
    ledger: z.enum(['sqlite', 'postgres', 'both']),
  }),
  USAGE,
);

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..'); // dist/bench → the project
const example = join(root, 'fixtures', 'example');
const dataDir = data ?? example;
const requestBody = readFileSync(join(example, 'request-sol.json'), 'utf8');
const leader = (JSON.parse(requestBody) as { wallets: string[] }).wallets[0]!;
const clock = { now: () => Math.floor(Date.now() / 1000) };
const initial = 1_000_000_000_000;

interface Row {
  ledger: string;
  scenario: string;
  'req/s': number;
  'p50 ms': number;
  'p99 ms': number;
  requests: number;
  'non-2xx': number;
  errors: number;
}

/** Runs the three scenarios against a service on key database `db`; its rows and the ledger check. */
async function load(ledgerName: string, db: string): Promise<{ rows: Row[]; check: string }> {
  const setup = await openLedger(db, clock);
  const { key, record } = await setup.create({ credits: initial, label: 'load' });
  await setup.close();

  const args = [join(root, 'dist', 'src', 'cli', 'main.js'), 'serve', '--data', dataDir, '--db', db, '--port', '0'];
  if (workers !== undefined) args.push('--workers', String(workers));
  const server = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let banner = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    server.stdout!.on('data', (chunk: Buffer) => {
      banner += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(banner);
      if (match) resolveUrl(match[1]!);
    });
    server.once('exit', (code) => reject(new Error(`copysim serve exited with ${code}:\n${banner}`)));
  });
  process.stdout.write(banner);

  const simulator: autocannon.Options = {
    url: `${url}/v1/wallets/simulator`,
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: requestBody,
    connections,
    duration,
  };
  const read: autocannon.Options = {
    url: `${url}/v1/wallets/${leader}/indicators?network=sol`,
    headers: { 'x-api-key': key },
    connections,
    duration,
  };
  const row = (scenario: string, r: autocannon.Result): Row => ({
    ledger: ledgerName,
    scenario,
    'req/s': Math.round(r.requests.average),
    'p50 ms': r.latency.p50,
    'p99 ms': r.latency.p99,
    requests: r.requests.total,
    'non-2xx': r.non2xx,
    errors: r.errors,
  });

  const rows: Row[] = [];
  let answered = 0;
  const count = (r: autocannon.Result, cost: number): autocannon.Result => {
    answered += r['2xx'] * cost;
    return r;
  };
  rows.push(row('simulator', count(await autocannon(simulator), 10)));
  rows.push(row('read (indicators)', count(await autocannon(read), 1)));
  const [simBeside, readBeside] = await Promise.all([autocannon(simulator), autocannon(read)]);
  rows.push(row('read while simulating', count(readBeside, 1)));
  rows.push(row('simulator beside reads', count(simBeside, 10)));

  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  const after = await openLedger(db, clock);
  const charges = (await after.ledger(record.id)).filter((r) => r.kind === 'charge');
  const charged = -charges.reduce((sum, r) => sum + r.delta, 0);
  const balance = (await after.get(record.id))!.credits;
  await after.close();
  const consistent = balance === initial - charged ? 'consistent' : 'INCONSISTENT';
  const check =
    `${ledgerName} ledger: ${charged} credits charged, ${answered} in 2xx answers counted by autocannon (an answer ` +
    `arriving after a run's end is charged but not counted), balance ${consistent} with the ledger`;
  return { rows, check };
}

const rows: Row[] = [];
const checks: string[] = [];
const workDir = mkdtempSync(join(tmpdir(), 'copysim-load-'));
let cluster: PostgresCluster | undefined;
try {
  if (ledgers !== 'postgres') {
    const done = await load('sqlite', join(workDir, 'keys.db'));
    rows.push(...done.rows);
    checks.push(done.check);
  }
  if (ledgers !== 'sqlite') {
    cluster = await startCluster();
    cluster.createDatabase('copysim_load');
    const done = await load('postgres', cluster.socketUrl('copysim_load'));
    rows.push(...done.rows);
    checks.push(done.check);
  }
} finally {
  await cluster?.remove();
  rmSync(workDir, { recursive: true, force: true });
}

console.table(rows);
console.log(`${connections} connections, ${duration} s a scenario`);
for (const check of checks) console.log(check);
if (ledgers === 'both') {
  for (const scenario of [...new Set(rows.map((r) => r.scenario))]) {
    const of = (ledger: string): Row => rows.find((r) => r.ledger === ledger && r.scenario === scenario)!;
    const [sqlite, postgres] = [of('sqlite'), of('postgres')];
    const share = Math.round((100 * postgres['req/s']) / Math.max(1, sqlite['req/s']));
    console.log(
      `${scenario}: PostgreSQL ${share}% of SQLite's requests/s ` +
        `(p99 ${postgres['p99 ms']} ms against ${sqlite['p99 ms']} ms)`,
    );
  }
}
