import type Database from 'better-sqlite3';
import { InputError } from '../../model/errors.js';

/** One step of the key database's schema; steps run in `version` order, each exactly once. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/**
 * The schema of the key database, as ordered steps. Append new steps; never edit one that has
 * shipped (a database records the last step it ran in `schema_version`).
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'api keys and the credit ledger',
    sql: `
      CREATE TABLE api_keys (
        id         INTEGER PRIMARY KEY,
        key_hash   TEXT    NOT NULL UNIQUE,
        prefix     TEXT    NOT NULL,
        label      TEXT,
        credits    INTEGER NOT NULL CHECK (credits >= 0),
        disabled   INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
        created_at INTEGER NOT NULL
      );
      -- Every change of a balance, signed: the sum of a key's rows is its balance.
      CREATE TABLE credit_ledger (
        id            INTEGER PRIMARY KEY,
        key_id        INTEGER NOT NULL REFERENCES api_keys(id),
        kind          TEXT    NOT NULL CHECK (kind IN ('grant', 'top_up', 'charge')),
        operation     TEXT,
        delta         INTEGER NOT NULL,
        balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
        time          INTEGER NOT NULL
      );
      CREATE INDEX credit_ledger_by_key ON credit_ledger (key_id, id);
    `,
  },
  {
    version: 2,
    name: 'rate limits, and the answers of idempotent requests',
    sql: `
      -- A key's own rate limit ("10/s,600/min", "unlimited"); NULL: the service's default.
      ALTER TABLE api_keys ADD COLUMN rate TEXT;
      -- The Idempotency-Key of the request a charge is for, when it sent one.
      ALTER TABLE credit_ledger ADD COLUMN idempotency_key TEXT;
      -- The first answer of each Idempotency-Key of a key, written with its charge; kept 24 h.
      CREATE TABLE idempotent_answers (
        key_id          INTEGER NOT NULL REFERENCES api_keys(id),
        idempotency_key TEXT    NOT NULL,
        fingerprint     TEXT    NOT NULL,
        body            TEXT    NOT NULL,
        headers         TEXT    NOT NULL,
        spent           INTEGER NOT NULL,
        remaining       INTEGER NOT NULL,
        created_at      INTEGER NOT NULL,
        PRIMARY KEY (key_id, idempotency_key)
      );
      CREATE INDEX idempotent_answers_by_age ON idempotent_answers (created_at);
    `,
  },
];

/** The newest schema version this build knows. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Reads the version a database is at; 0 for a new database. */
export function schemaVersion(db: Database.Database): number {
  const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").get();
  if (table === undefined) return 0;
  const row = db.prepare('SELECT version FROM schema_version').get() as { version: number } | undefined;
  return row?.version ?? 0;
}

/**
 * Brings a database to {@link SCHEMA_VERSION}, running the missing steps in one immediate
 * transaction (a second process opening the same file waits, then finds nothing to do).
 * Refuses a database written by a newer build.
 *
 * @example
 * migrate(new Database('copysim.db')); // 1
 */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number {
  const run = db.transaction(() => {
    db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
    const current = schemaVersion(db);
    const newest = migrations[migrations.length - 1]?.version ?? 0;
    if (current > newest) {
      throw new InputError(
        `the key database is at schema version ${current}, newer than this copysim knows (${newest})`,
        { source: db.name, path: 'schema_version' },
      );
    }
    for (const step of migrations) {
      if (step.version <= current) continue;
      db.exec(step.sql);
    }
    db.exec('DELETE FROM schema_version');
    db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(Math.max(current, newest));
    return Math.max(current, newest);
  });
  return run.immediate();
}
