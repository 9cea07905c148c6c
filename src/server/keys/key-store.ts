import type Database from 'better-sqlite3';
import { InputError } from '../../model/errors.js';
import type { ApiKeyListing, ApiKeyRecord, ChargeOutcome, LedgerRow, StoredAnswer } from '../ledger/ledger.js';
import { formatRate, parseRate, type RateLimit } from '../rate-limit/rate.js';
import { migrate } from './migrations.js';
import { hashApiKey, newApiKey, shownPrefix } from './secret.js';
import { loadSqlite } from '../service-dependencies.js';

export type { ApiKeyRecord, ApiKeyListing, LedgerRow, ChargeOutcome } from '../ledger/ledger.js';

/** The first answer of an `Idempotency-Key`, to store with a charge. */
export interface AnswerRow {
  readonly idempotencyKey: string;
  /** The hash of the request's method, URL and body. */
  readonly fingerprint: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** One charge: `cost` credits of key `id` for a successful `operation`, and its answer to keep. */
export interface Charge {
  readonly id: number;
  readonly cost: number;
  readonly operation: string;
  readonly answer?: AnswerRow;
}

/** A stored answer of an `Idempotency-Key`, with what it was stored for and when. */
export interface StoredAnswerRow extends StoredAnswer {
  readonly fingerprint: string;
  /** Unix seconds. */
  readonly createdAt: number;
}

export interface KeyStoreOptions {
  /** Unix seconds now; stamps ledger rows and new keys (the store reads no clock itself). */
  readonly now: () => number;
}

interface KeyRow {
  id: number;
  prefix: string;
  label: string | null;
  credits: number;
  disabled: number;
  created_at: number;
  rate: string | null;
}

const KEY_COLUMNS = 'k.id, k.prefix, k.label, k.credits, k.disabled, k.created_at, k.rate';
const SPENT = `COALESCE((SELECT -SUM(delta) FROM credit_ledger WHERE key_id = k.id AND kind = 'charge'), 0) AS spent`;

function toRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    prefix: row.prefix,
    label: row.label,
    credits: row.credits,
    disabled: row.disabled === 1,
    createdAt: row.created_at,
    rate: row.rate === null ? null : parseRate(row.rate, 'key database'),
  };
}

/** Checks a credit amount: a whole number from `min` to 2^53 − 1. */
export function checkCredits(credits: number, min: number, what: string): void {
  if (!Number.isSafeInteger(credits) || credits < min) {
    throw new InputError(`${what} must be a whole number ≥ ${min}, got ${credits}`, {
      source: 'keys',
      path: 'credits',
    });
  }
}

/**
 * API keys and their credits in SQLite (WAL). Keys are stored only as SHA-256 hashes; every
 * change of a balance is one transaction that also writes a ledger row, so a key's balance always
 * equals the sum of its ledger rows, even after a crash. The service uses it through
 * `SqliteLedger`, which adds the holds of requests in flight and group commit.
 *
 * @example
 * const store = KeyStore.open('copysim.db', { now: () => Math.floor(Date.now() / 1000) });
 * const { key } = store.create({ credits: 100 });
 * store.charge(store.findByKey(key)!.id, 10, 'simulate'); // { ok: true, remaining: 90 }
 */
export class KeyStore {
  private readonly selectById;
  private readonly selectByHash;
  private readonly selectAll;
  private readonly insertKey;
  private readonly addCredits;
  private readonly takeCredits;
  private readonly setDisabledFlag;
  private readonly setRateText;
  private readonly insertLedger;
  private readonly selectLedger;
  private readonly upsertAnswer;
  private readonly selectAnswer;
  private readonly deleteAnswersBefore;

  private constructor(
    private readonly db: Database.Database,
    private readonly options: KeyStoreOptions,
  ) {
    this.selectById = db.prepare<[number], KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.id = ?`);
    this.selectByHash = db.prepare<[string], KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.key_hash = ?`);
    this.selectAll = db.prepare<[], KeyRow & { spent: number }>(
      `SELECT ${KEY_COLUMNS}, ${SPENT} FROM api_keys k ORDER BY k.id`,
    );
    this.insertKey = db.prepare<[string, string, string | null, number, number, string | null]>(
      'INSERT INTO api_keys (key_hash, prefix, label, credits, created_at, rate) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.addCredits = db.prepare<[number, number], { credits: number }>(
      'UPDATE api_keys SET credits = credits + ? WHERE id = ? RETURNING credits',
    );
    this.takeCredits = db.prepare<{ id: number; cost: number }, { credits: number }>(
      'UPDATE api_keys SET credits = credits - @cost ' +
        'WHERE id = @id AND disabled = 0 AND credits >= @cost RETURNING credits',
    );
    this.setDisabledFlag = db.prepare<[number, number]>('UPDATE api_keys SET disabled = ? WHERE id = ?');
    this.setRateText = db.prepare<[string | null, number]>('UPDATE api_keys SET rate = ? WHERE id = ?');
    this.insertLedger = db.prepare<[number, string, string | null, number, number, number, string | null]>(
      'INSERT INTO credit_ledger (key_id, kind, operation, delta, balance_after, time, idempotency_key) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.selectLedger = db.prepare<[number], Record<string, unknown>>(
      'SELECT id, key_id, kind, operation, delta, balance_after, time, idempotency_key FROM credit_ledger ' +
        'WHERE key_id = ? ORDER BY id',
    );
    // REPLACE: a row of the same key past its 24 hours gives way to the new answer.
    this.upsertAnswer = db.prepare<[number, string, string, string, string, number, number, number]>(
      'INSERT OR REPLACE INTO idempotent_answers ' +
        '(key_id, idempotency_key, fingerprint, body, headers, spent, remaining, created_at) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.selectAnswer = db.prepare<[number, string], Record<string, unknown>>(
      'SELECT fingerprint, body, headers, spent, remaining, created_at FROM idempotent_answers ' +
        'WHERE key_id = ? AND idempotency_key = ?',
    );
    this.deleteAnswersBefore = db.prepare<[number]>('DELETE FROM idempotent_answers WHERE created_at <= ?');
  }

  /**
   * Opens (creating when absent) the key database at `file` and brings its schema up to date.
   * Throws an {@link InputError} naming the file when it cannot be opened.
   */
  static open(file: string, options: KeyStoreOptions): KeyStore {
    const Sqlite = loadSqlite();
    let db: Database.Database | undefined;
    try {
      db = new Sqlite(file);
      db.pragma('journal_mode = WAL');
      // FULL: a charge is on disk before its answer leaves, even across a power cut. Group
      // commit (SqliteLedger) makes that one write per batch of charges, not one per request.
      db.pragma('synchronous = FULL');
      db.pragma('foreign_keys = ON');
      db.pragma('busy_timeout = 5000');
      migrate(db);
      return new KeyStore(db, options);
    } catch (e) {
      db?.close();
      if (e instanceof InputError) throw e;
      throw new InputError(`key database ${file}: ${(e as Error).message}`, { source: file });
    }
  }

  /** Creates a key with `credits`; returns the key (shown once, never stored) and its record. */
  create(input: { credits: number; label?: string | null; rate?: RateLimit | null }): {
    key: string;
    record: ApiKeyRecord;
  } {
    checkCredits(input.credits, 0, 'credits');
    const key = newApiKey();
    const rate = input.rate === undefined || input.rate === null ? null : formatRate(input.rate);
    const id = this.db
      .transaction(() => {
        const now = this.options.now();
        const label = input.label ?? null;
        const info = this.insertKey.run(hashApiKey(key), shownPrefix(key), label, input.credits, now, rate);
        const keyId = Number(info.lastInsertRowid);
        this.insertLedger.run(keyId, 'grant', null, input.credits, input.credits, now, null);
        return keyId;
      })
      .immediate();
    return { key, record: this.get(id)! };
  }

  /** Every key, in creation order, with the credits it has spent. */
  list(): ApiKeyListing[] {
    return this.selectAll.all().map((row) => ({ ...toRecord(row), spent: row.spent }));
  }

  /** The key with this id, if any. */
  get(id: number): ApiKeyRecord | undefined {
    const row = this.selectById.get(id);
    return row === undefined ? undefined : toRecord(row);
  }

  /** The key a client presents, looked up by its hash; undefined when unknown. */
  findByKey(key: string): ApiKeyRecord | undefined {
    const row = this.selectByHash.get(hashApiKey(key));
    return row === undefined ? undefined : toRecord(row);
  }

  /** Adds `credits` (≥ 1) to a key, with a ledger row. Disabled keys can be topped up too. */
  topUp(id: number, credits: number): ApiKeyRecord {
    checkCredits(credits, 1, 'credits');
    this.db
      .transaction(() => {
        const before = this.require(id);
        if (before.credits + credits > Number.MAX_SAFE_INTEGER) {
          throw new InputError(`key ${id}: a balance above ${Number.MAX_SAFE_INTEGER} credits is not supported`, {
            source: 'keys',
            path: 'credits',
          });
        }
        const row = this.addCredits.get(credits, id)!;
        this.insertLedger.run(id, 'top_up', null, credits, row.credits, this.options.now(), null);
      })
      .immediate();
    return this.get(id)!;
  }

  /** Disables (or enables again) a key: a disabled key is refused with 403 `key_disabled`. */
  setDisabled(id: number, disabled: boolean): ApiKeyRecord {
    this.require(id);
    this.setDisabledFlag.run(disabled ? 1 : 0, id);
    return this.get(id)!;
  }

  /** Sets a key's own rate limit; null: the service's default. */
  setRate(id: number, rate: RateLimit | null): ApiKeyRecord {
    this.require(id);
    this.setRateText.run(rate === null ? null : formatRate(rate), id);
    return this.get(id)!;
  }

  /**
   * Charges `cost` credits for one successful `operation`: in one transaction the balance goes
   * down and a ledger row is written, or nothing happens (too few credits, key disabled).
   */
  charge(id: number, cost: number, operation: string): ChargeOutcome {
    return this.chargeAll([{ id, cost, operation }])[0]!;
  }

  /**
   * Several charges in one transaction (one write to disk), each as {@link charge} would do it,
   * in order, each with its answer to keep if any; all or none are stored.
   */
  chargeAll(charges: readonly Charge[]): ChargeOutcome[] {
    return this.db.transaction(() => charges.map((c) => this.chargeOne(c))).immediate();
  }

  private chargeOne({ id, cost, operation, answer }: Charge): ChargeOutcome {
    const taken = this.takeCredits.get({ id, cost });
    if (taken === undefined) {
      const key = this.get(id);
      if (key === undefined) return { ok: false, code: 'unknown_key' };
      if (key.disabled) return { ok: false, code: 'key_disabled' };
      return { ok: false, code: 'insufficient_credits', remaining: key.credits };
    }
    const now = this.options.now();
    this.insertLedger.run(id, 'charge', operation, -cost, taken.credits, now, answer?.idempotencyKey ?? null);
    if (answer !== undefined) {
      const { idempotencyKey, fingerprint, body, headers } = answer;
      this.upsertAnswer.run(id, idempotencyKey, fingerprint, body, JSON.stringify(headers), cost, taken.credits, now);
    }
    return { ok: true, remaining: taken.credits };
  }

  /** The stored answer of an `Idempotency-Key` of key `id`, if any (however old). */
  storedAnswer(id: number, idempotencyKey: string): StoredAnswerRow | undefined {
    const row = this.selectAnswer.get(id, idempotencyKey);
    if (row === undefined) return undefined;
    return {
      fingerprint: row.fingerprint as string,
      body: row.body as string,
      headers: JSON.parse(row.headers as string) as Record<string, string>,
      spent: row.spent as number,
      remaining: row.remaining as number,
      createdAt: row.created_at as number,
    };
  }

  /** Deletes the stored answers written at or before `time` (Unix seconds); returns how many. */
  forgetAnswers(time: number): number {
    return this.deleteAnswersBefore.run(time).changes;
  }

  /** A key's ledger rows, oldest first. */
  ledger(id: number): LedgerRow[] {
    return this.selectLedger.all(id).map((r) => ({
      id: r.id as number,
      keyId: r.key_id as number,
      kind: r.kind as LedgerRow['kind'],
      operation: r.operation as string | null,
      delta: r.delta as number,
      balanceAfter: r.balance_after as number,
      time: r.time as number,
      idempotencyKey: r.idempotency_key as string | null,
    }));
  }

  /** Runs a query: throws when the database cannot answer. */
  ping(): void {
    this.db.prepare('SELECT 1').get();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private require(id: number): ApiKeyRecord {
    const key = this.get(id);
    if (key === undefined) throw new InputError(`no key with id ${id}`, { source: 'keys', path: 'id' });
    return key;
  }
}
