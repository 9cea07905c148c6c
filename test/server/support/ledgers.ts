/**
 * The two ledgers the service's tests run against: SQLite (a file in the workspace) and
 * PostgreSQL (a database of a throw-away cluster that each test file starts on first use and
 * removes when its tests end). Without PostgreSQL's programs the PostgreSQL cases are skipped,
 * saying so, unless CI is set: there they must run (.ci/run installs Debian's postgresql).
 */
import { afterAll } from 'vitest';
import { postgresBinDir, startCluster, type PostgresCluster } from '../../../tools/postgres-cluster.js';
import { openLedger, type Ledger } from './api.js';

export type LedgerKind = 'sqlite' | 'postgres';

const ON_CI = (process.env.CI ?? '') !== '' && process.env.CI !== 'false';

/** True when the PostgreSQL programs (initdb, pg_ctl, postgres) are installed. */
export const HAS_POSTGRES = postgresBinDir() !== undefined;

if (!HAS_POSTGRES) {
  if (ON_CI) {
    throw new Error('PostgreSQL is not installed, and CI is set: .ci/run installs it (apt-get install postgresql)');
  }
  process.stderr.write(
    'server tests: skipped the PostgreSQL ledger: PostgreSQL is not installed (apt-get install postgresql; ' +
      '.ci/run installs it)\n',
  );
}

/** The ledgers to run a suite against: both, or SQLite alone when PostgreSQL is absent outside CI. */
export const LEDGERS: readonly LedgerKind[] = HAS_POSTGRES ? ['sqlite', 'postgres'] : ['sqlite'];

let cluster: Promise<PostgresCluster> | undefined;
let databases = 0;
let removalRegistered = false;

/**
 * Call at the top of a test file that uses PostgreSQL: its cluster (started on first use) is
 * removed after the file's tests.
 */
export function usePostgres(): void {
  if (removalRegistered) return;
  removalRegistered = true;
  afterAll(async () => {
    if (cluster !== undefined) await (await cluster).remove();
  });
}

/** This test file's PostgreSQL cluster, started on first use ({@link usePostgres} removes it). */
export function postgresCluster(): Promise<PostgresCluster> {
  if (!removalRegistered) throw new Error('call usePostgres() at the top of the test file first');
  cluster ??= startCluster({ noFsync: true });
  return cluster;
}

/** A new empty PostgreSQL database of this file's cluster: its URL. */
export async function postgresDatabase(): Promise<string> {
  const c = await postgresCluster();
  return c.createDatabase(`copysim_${process.pid}_${++databases}`);
}

/** What `--db` gets for a new, empty ledger of `kind`: the SQLite file `file`, or a new PostgreSQL database. */
export async function newDatabase(kind: LedgerKind, file: string): Promise<string> {
  return kind === 'sqlite' ? file : postgresDatabase();
}

/** Opens the ledger at `db` as the tests do, with a fixed clock. */
export function testLedger(db: string): Promise<Ledger> {
  return openLedger(db, { now: () => 1_700_000_000 });
}
