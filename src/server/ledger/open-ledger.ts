import { PostgresLedger } from './postgres-ledger.js';
import { isPostgresUrl } from './shown-database.js';
import { SqliteLedger } from './sqlite-ledger.js';
import type { Ledger } from './ledger.js';

export interface OpenLedgerOptions {
  /** Unix seconds now; stamps ledger rows, new keys and stored answers. */
  readonly now: () => number;
  /** PostgreSQL: seconds a hold or claim outlives an instance that died (default 10). */
  readonly leaseSeconds?: number;
}

/**
 * Opens the ledger that `db` names, bringing its schema up to date: a PostgreSQL database for a
 * `postgres://` or `postgresql://` URL, else a SQLite file (created when absent). Throws an
 * `InputError` naming it (without a password) when it cannot be used.
 *
 * @example
 * const now = () => Math.floor(Date.now() / 1000);
 * const ledger = await openLedger(process.env.COPYSIM_DB ?? 'copysim.db', { now });
 */
export async function openLedger(db: string, options: OpenLedgerOptions): Promise<Ledger> {
  if (isPostgresUrl(db)) {
    return PostgresLedger.open(db, {
      now: options.now,
      ...(options.leaseSeconds !== undefined ? { leaseSeconds: options.leaseSeconds } : {}),
    });
  }
  return SqliteLedger.open(db, { now: options.now });
}
