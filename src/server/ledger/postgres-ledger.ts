import { randomUUID } from 'node:crypto';
import type Postgres from 'postgres';
import { InputError } from '../../model/errors.js';
import { checkCredits } from '../keys/key-store.js';
import type { Migration } from '../keys/migrations.js';
import { hashApiKey, newApiKey, shownPrefix } from '../keys/secret.js';
import { formatRate, parseRate, type RateLimit } from '../rate-limit/rate.js';
import { loadPostgres } from '../service-dependencies.js';
import {
  IDEMPOTENCY_TTL_SECONDS,
  LedgerUnavailableError,
  type AnswerToStore,
  type ApiKeyListing,
  type ApiKeyRecord,
  type ChargeOutcome,
  type Claim,
  type ClaimOutcome,
  type Hold,
  type HoldOutcome,
  type KeyAndHold,
  type KeyStatus,
  KEY_STATUS_MAX_AGE_MS,
  type Ledger,
  type LedgerRow,
  type NewKey,
} from './ledger.js';
import { Batcher } from './batcher.js';
import { POSTGRES_MIGRATIONS } from './postgres-schema.js';
import { postgresTarget } from './postgres-url.js';
import { RecentKeys } from './recent-keys.js';
import { shownDatabase } from './shown-database.js';

type Sql = Postgres.Sql<Record<string, never>>;

export interface PostgresLedgerOptions {
  /** Unix seconds now; stamps ledger rows, new keys and stored answers. */
  readonly now: () => number;
  /**
   * Seconds a hold or an idempotency claim lives unless its instance renews it (it does, a third
   * of this apart, while the request runs): how long a retry waits for the claim of an instance
   * that died. Default {@link DEFAULT_LEASE_SECONDS}.
   */
  readonly leaseSeconds?: number;
  /** Connections to the database at most; default 10. */
  readonly connections?: number;
}

/** Seconds a hold or claim outlives its instance: 10. */
export const DEFAULT_LEASE_SECONDS = 10;

/** How often holds past their lease and stored answers past their 24 hours are deleted, at most: ms. */
const SWEEP_EVERY_MS = 60_000;

/** The advisory lock that makes instances starting together migrate one at a time. */
const MIGRATION_LOCK = 1_668_315_507;

interface KeyRow {
  id: number;
  prefix: string;
  label: string | null;
  credits: number;
  disabled: boolean;
  created_at: number;
  rate: string | null;
}

const KEY_COLUMNS = 'k.id, k.prefix, k.label, k.credits, k.disabled, k.created_at, k.rate';

function toRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    prefix: row.prefix,
    label: row.label,
    credits: row.credits,
    disabled: row.disabled,
    createdAt: row.created_at,
    rate: row.rate === null ? null : parseRate(row.rate, 'key database'),
  };
}

/** A hold of this instance: a row of `credit_holds`. */
class RowHold implements Hold {
  settled = false;
  constructor(
    readonly keyId: number,
    readonly cost: number,
    readonly id: number,
  ) {}
}

/** A claim of this instance: a running row of `idempotency_keys`, owned by `token`. */
interface TokenClaim extends Claim {
  readonly token: string;
}

interface HoldRequest {
  readonly keyId: number;
  readonly cost: number;
}

interface ChargeRequest {
  /** A hold of no row (id null) for a charge held by nothing. */
  readonly hold: Hold & { readonly id: number | null };
  readonly operation: string;
  readonly answer: AnswerToStore | undefined;
}

type HoldRow = { outcome: string; hold_id: number | null; remaining: number | null };
type KeyAndHoldRow = KeyRow & { n: number; outcome: string | null; hold_id: number | null; remaining: number | null };
type ChargeRow = { outcome: string; remaining: number | null };

/** Key statuses an instance keeps at most (about 200 bytes each). */
const RECENT_KEYS_KEPT = 10_000;

/** Batches of one kind that may run at once: more would only queue on the same rows. */
const BATCHES_IN_FLIGHT = 4;

/** The indexes of `items` by key id (a stable sort: a key's own items keep their order). */
function byKey<T>(items: readonly T[], keyOf: (item: T) => number): number[] {
  return items.map((_, i) => i).sort((a, b) => keyOf(items[a]!) - keyOf(items[b]!) || a - b);
}

/**
 * Connection-level failures (the server down, restarting, out of connections) and transactions
 * the server rolled back (class 40: a retry may pass) are the database being unavailable, a 503;
 * anything else is a bug, and thrown as it is.
 */
function unavailable(e: unknown): unknown {
  const code = (e as { code?: unknown }).code;
  const sqlState = (e as { name?: string }).name === 'PostgresError' && typeof code === 'string' ? code : undefined;
  if (sqlState === undefined || /^(08|40|53|57)/.test(sqlState)) {
    return new LedgerUnavailableError(`the key database does not answer: ${(e as Error).message}`, { cause: e });
  }
  return e;
}

/**
 * The ledger in a PostgreSQL database that any number of service instances share. Every hold,
 * charge and idempotency claim is a row or a conditional update of the database (the rules are
 * functions of its schema, see postgres-schema.ts), never in one process's memory, so credits
 * stay exact across instances; an instance that dies leaves holds and claims whose leases run out.
 *
 * @example
 * const now = () => Math.floor(Date.now() / 1000);
 * const ledger = await PostgresLedger.open('postgres://copysim@db.internal/copysim', { now });
 * const { key } = await ledger.create({ credits: 100 });
 */
export class PostgresLedger implements Ledger {
  readonly kind = 'postgres';
  private readonly liveHolds = new Set<number>();
  private readonly liveClaims = new Set<string>();
  private readonly timer: NodeJS.Timeout;
  private sweptAt = Date.now();
  private closed = false;
  private readonly recentKeys = new RecentKeys(KEY_STATUS_MAX_AGE_MS, RECENT_KEYS_KEPT);
  private readonly authentications = new Batcher((hashes: readonly string[]) => this.authenticateAll(hashes), 4);
  private readonly keyHolds = new Batcher(
    (requests: readonly { hash: string; cost: number }[]) => this.authenticateAndHoldAll(requests),
    BATCHES_IN_FLIGHT,
  );
  private readonly holds = new Batcher((requests: readonly HoldRequest[]) => this.holdAll(requests), BATCHES_IN_FLIGHT);
  private readonly charges = new Batcher(
    (requests: readonly ChargeRequest[]) => this.chargeAll(requests),
    BATCHES_IN_FLIGHT,
  );

  private constructor(
    private readonly sql: Sql,
    readonly location: string,
    private readonly options: Required<Omit<PostgresLedgerOptions, 'connections'>>,
  ) {
    // Renews the leases of the requests in flight, a third of a lease apart.
    this.timer = setInterval(() => void this.renew(), (options.leaseSeconds * 1000) / 3);
    this.timer.unref();
  }

  /**
   * Connects to the database at `url` (`postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, or a
   * Unix socket: `postgres://USER@/DATABASE?host=DIR`, see {@link postgresTarget}) and brings its
   * schema up to date. Throws an {@link InputError} naming the URL (without its password) when
   * it cannot.
   */
  static async open(url: string, options: PostgresLedgerOptions): Promise<PostgresLedger> {
    const location = shownDatabase(url);
    const postgres = loadPostgres();
    const target = postgresTarget(url);
    let sql: Sql;
    try {
      sql = postgres(target.url, {
        ...(target.socket === undefined ? {} : { path: target.socket }),
        max: options.connections ?? 10,
        connect_timeout: 10,
        onnotice: () => {},
        connection: { application_name: 'copysim' },
        // int8 as a number: balances and ids stay below 2^53 (checked where they grow).
        types: { bigint: { to: 20, from: [20], serialize: (n: number) => String(n), parse: (s: string) => Number(s) } },
      }) as unknown as Sql;
    } catch (e) {
      throw new InputError(`key database ${location}: ${(e as Error).message}`, { source: location });
    }
    try {
      await migratePostgres(sql, location);
    } catch (e) {
      await sql.end({ timeout: 0 });
      if (e instanceof InputError) throw e;
      throw new InputError(`key database ${location}: ${(e as Error).message}`, { source: location });
    }
    return new PostgresLedger(sql, location, {
      now: options.now,
      leaseSeconds: options.leaseSeconds ?? DEFAULT_LEASE_SECONDS,
    });
  }

  async create(input: NewKey): Promise<{ key: string; record: ApiKeyRecord }> {
    checkCredits(input.credits, 0, 'credits');
    const key = newApiKey();
    const rate = input.rate === undefined || input.rate === null ? null : formatRate(input.rate);
    const now = this.options.now();
    const [row] = await this.sql<KeyRow[]>`
      WITH k AS (
        INSERT INTO api_keys (key_hash, prefix, label, credits, created_at, rate)
        VALUES (${hashApiKey(key)}, ${shownPrefix(key)}, ${input.label ?? null}, ${input.credits}, ${now}, ${rate})
        RETURNING *
      ), grant_row AS (
        INSERT INTO credit_ledger (key_id, kind, operation, delta, balance_after, time)
        SELECT k.id, 'grant', NULL, k.credits, k.credits, ${now} FROM k
      )
      SELECT ${this.sql.unsafe(KEY_COLUMNS)} FROM k`;
    return { key, record: toRecord(row!) };
  }

  async list(): Promise<ApiKeyListing[]> {
    const rows = await this.sql<(KeyRow & { spent: number })[]>`
      SELECT ${this.sql.unsafe(KEY_COLUMNS)},
             COALESCE((SELECT -sum(l.delta) FROM credit_ledger l
                       WHERE l.key_id = k.id AND l.kind = 'charge'), 0)::bigint AS spent
      FROM api_keys k ORDER BY k.id`;
    return rows.map((row) => ({ ...toRecord(row), spent: row.spent }));
  }

  async get(id: number): Promise<ApiKeyRecord | undefined> {
    const [row] = await this.query(
      () => this.sql<KeyRow[]>`
      SELECT ${this.sql.unsafe(KEY_COLUMNS)} FROM api_keys k WHERE k.id = ${id}`,
    );
    return row === undefined ? undefined : toRecord(row);
  }

  async authenticate(key: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.query(() => this.authentications.push(hashApiKey(key)));
    return row === undefined ? undefined : toRecord(row);
  }

  async recentKey(key: string): Promise<KeyStatus | undefined> {
    const hash = hashApiKey(key);
    const kept = this.recentKeys.get(hash, Date.now());
    if (kept !== undefined) return kept;
    const askedAt = Date.now();
    const row = await this.query(() => this.authentications.push(hash));
    if (row === undefined) return undefined;
    const { id, disabled, rate } = toRecord(row);
    const status: KeyStatus = { id, disabled, rate };
    this.recentKeys.set(hash, status, askedAt);
    return status;
  }

  /** The keys of a batch of hashes, in one query. */
  private async authenticateAll(hashes: readonly string[]): Promise<Array<KeyRow | undefined>> {
    const rows = await this.sql<(KeyRow & { key_hash: string })[]>`
      SELECT ${this.sql.unsafe(KEY_COLUMNS)}, k.key_hash FROM api_keys k
      WHERE k.key_hash = ANY (${hashes as string[]})`;
    const byHash = new Map(rows.map((row) => [row.key_hash, row]));
    return hashes.map((hash) => byHash.get(hash));
  }

  async topUp(id: number, credits: number): Promise<ApiKeyRecord> {
    checkCredits(credits, 1, 'credits');
    const now = this.options.now();
    const [row] = await this.sql<{ credits: number | null; found: boolean }[]>`
      WITH k AS (
        UPDATE api_keys SET credits = credits + ${credits}
        WHERE id = ${id} AND credits <= ${Number.MAX_SAFE_INTEGER - credits}
        RETURNING id, credits
      ), top_up AS (
        INSERT INTO credit_ledger (key_id, kind, operation, delta, balance_after, time)
        SELECT k.id, 'top_up', NULL, ${credits}, k.credits, ${now} FROM k
      )
      SELECT (SELECT credits FROM k) AS credits, EXISTS (SELECT 1 FROM api_keys WHERE id = ${id}) AS found`;
    if (!row!.found) throw noSuchKey(id);
    if (row!.credits === null) {
      throw new InputError(`key ${id}: a balance above ${Number.MAX_SAFE_INTEGER} credits is not supported`, {
        source: 'keys',
        path: 'credits',
      });
    }
    return (await this.get(id))!;
  }

  async setDisabled(id: number, disabled: boolean): Promise<ApiKeyRecord> {
    const rows = await this.sql`UPDATE api_keys SET disabled = ${disabled} WHERE id = ${id} RETURNING id`;
    if (rows.length === 0) throw noSuchKey(id);
    this.recentKeys.forget(id);
    return (await this.get(id))!;
  }

  async setRate(id: number, rate: RateLimit | null): Promise<ApiKeyRecord> {
    const text = rate === null ? null : formatRate(rate);
    const rows = await this.sql`UPDATE api_keys SET rate = ${text} WHERE id = ${id} RETURNING id`;
    if (rows.length === 0) throw noSuchKey(id);
    this.recentKeys.forget(id);
    return (await this.get(id))!;
  }

  async ledger(id: number): Promise<LedgerRow[]> {
    const rows = await this.sql<Record<string, unknown>[]>`
      SELECT id, key_id, kind, operation, delta, balance_after, time, idempotency_key
      FROM credit_ledger WHERE key_id = ${id} ORDER BY id`;
    return rows.map((r) => ({
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

  async hold(id: number, cost: number): Promise<HoldOutcome> {
    return this.holdOutcome(id, cost, await this.query(() => this.holds.push({ keyId: id, cost })));
  }

  private holdOutcome(id: number, cost: number, row: HoldRow | KeyAndHoldRow): HoldOutcome {
    switch (row.outcome) {
      case 'ok':
        this.liveHolds.add(row.hold_id!);
        return { ok: true, hold: new RowHold(id, cost, row.hold_id!) };
      case 'insufficient_credits':
        return { ok: false, code: 'insufficient_credits', remaining: row.remaining! };
      default:
        return { ok: false, code: row.outcome as 'key_disabled' | 'unknown_key' };
    }
  }

  async authenticateAndHold(key: string, cost: number): Promise<KeyAndHold> {
    const hash = hashApiKey(key);
    const askedAt = Date.now();
    const row = await this.query(() => this.keyHolds.push({ hash, cost }));
    if (row === undefined) return { record: undefined, hold: undefined };
    const record = toRecord(row);
    this.recentKeys.set(hash, { id: record.id, disabled: record.disabled, rate: record.rate }, askedAt);
    if (row.outcome === null) return { record, hold: undefined };
    return { record, hold: this.holdOutcome(row.id, cost, row) };
  }

  /** A batch of key lookups, each with its hold, in one transaction (holds in key order). */
  private async authenticateAndHoldAll(
    requests: readonly { hash: string; cost: number }[],
  ): Promise<Array<KeyAndHoldRow | undefined>> {
    const rows = await this.sql<KeyAndHoldRow[]>`
      SELECT * FROM copysim_authenticate_hold_all(
        ${requests.map((r) => r.hash)}::text[], ${requests.map((r) => r.cost)}::bigint[],
        ${this.options.leaseSeconds})`;
    const out: Array<KeyAndHoldRow | undefined> = new Array(requests.length).fill(undefined);
    for (const row of rows) out[row.n - 1] = row;
    return out;
  }

  /** A batch of holds in one transaction, the keys' rows locked in key order. */
  private async holdAll(requests: readonly HoldRequest[]): Promise<HoldRow[]> {
    const order = byKey(requests, (r) => r.keyId);
    const rows = await this.sql<(HoldRow & { n: number })[]>`
      SELECT * FROM copysim_hold_all(
        ${order.map((i) => requests[i]!.keyId)}::bigint[], ${order.map((i) => requests[i]!.cost)}::bigint[],
        ${this.options.leaseSeconds})`;
    const out: HoldRow[] = new Array(requests.length);
    for (const row of rows) out[order[row.n - 1]!] = row;
    return out;
  }

  async charge(hold: Hold, operation: string, answer?: AnswerToStore): Promise<ChargeOutcome> {
    const mine = hold as RowHold;
    const claim = answer?.claim as TokenClaim | undefined;
    try {
      return chargeOutcome(await this.query(() => this.charges.push({ hold: mine, operation, answer })));
    } finally {
      mine.settled = true;
      this.liveHolds.delete(mine.id);
      if (claim !== undefined) this.liveClaims.delete(claim.token);
    }
  }

  /**
   * A batch of charges in one transaction, each checked and recorded on its own, the keys' rows
   * locked in key order; answered once the batch is on disk (as SQLite's group commit), all in
   * one round trip.
   */
  private async chargeAll(requests: readonly ChargeRequest[]): Promise<ChargeRow[]> {
    const order = byKey(requests, (r) => r.hold.keyId);
    const column = <T>(of: (r: ChargeRequest) => T): T[] => order.map((i) => of(requests[i]!));
    const claimOf = (r: ChargeRequest) => r.answer?.claim as TokenClaim | undefined;
    const [row] = await this.sql<{ outcomes: string[]; balances: Array<number | null> }[]>`
      CALL copysim_charge_batch_on_disk(
        ${column((r) => r.hold.keyId)}::bigint[], ${column((r) => r.hold.id)}::bigint[],
        ${column((r) => r.hold.cost)}::bigint[], ${column((r) => r.operation)}::text[], ${this.options.now()},
        ${column((r) => claimOf(r)?.idempotencyKey ?? null)}::text[],
        ${column((r) => claimOf(r)?.token ?? null)}::uuid[],
        ${column((r) => r.answer?.body ?? null)}::text[],
        ${column((r) => (r.answer === undefined ? null : JSON.stringify(r.answer.headers)))}::text[])`;
    const out: ChargeRow[] = new Array(requests.length);
    row!.outcomes.forEach((outcome, n) => {
      out[order[n]!] = { outcome, remaining: row!.balances[n] ?? null };
    });
    return out;
  }

  async chargeUnheld(id: number, cost: number, operation: string, answer?: AnswerToStore): Promise<ChargeOutcome> {
    const claim = answer?.claim as TokenClaim | undefined;
    try {
      const unheld = { hold: { keyId: id, cost, id: null }, operation, answer };
      return chargeOutcome(await this.query(() => this.charges.push(unheld)));
    } finally {
      if (claim !== undefined) this.liveClaims.delete(claim.token);
    }
  }

  async release(hold: Hold): Promise<void> {
    const mine = hold as RowHold;
    if (mine.settled) return;
    mine.settled = true;
    this.liveHolds.delete(mine.id);
    // A release that cannot reach the database is left to the hold's lease.
    await this.sql`SELECT copysim_release(${mine.id})`.catch(() => {});
  }

  async claim(id: number, idempotencyKey: string, fingerprint: string): Promise<ClaimOutcome> {
    const token = randomUUID();
    const [row] = await this.query(
      () => this.sql<
        {
          outcome: string;
          body: string | null;
          headers: string | null;
          spent: number | null;
          remaining: number | null;
        }[]
      >`
      SELECT * FROM copysim_claim(${id}, ${idempotencyKey}, ${fingerprint}, ${token}, ${this.options.now()},
                                  ${IDEMPOTENCY_TTL_SECONDS}, ${this.options.leaseSeconds})`,
    );
    switch (row!.outcome) {
      case 'claimed':
        this.liveClaims.add(token);
        return { state: 'claimed', claim: { keyId: id, idempotencyKey, fingerprint, token } as TokenClaim };
      case 'replay':
        return {
          state: 'replay',
          answer: {
            body: row!.body!,
            headers: JSON.parse(row!.headers!) as Record<string, string>,
            spent: row!.spent!,
            remaining: row!.remaining!,
          },
        };
      default:
        return { state: row!.outcome as 'mismatch' | 'running' };
    }
  }

  async abandon(claim: Claim): Promise<void> {
    const { keyId, idempotencyKey, token } = claim as TokenClaim;
    if (!this.liveClaims.delete(token)) return;
    // One that cannot reach the database is left to the claim's lease.
    await this.sql`SELECT copysim_abandon(${keyId}, ${idempotencyKey}, ${token})`.catch(() => {});
  }

  async ping(): Promise<void> {
    await this.query(() => this.sql`SELECT 1`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    await this.sql.end({ timeout: 5 });
  }

  /** Runs a query of the request path: a database that does not answer is a {@link LedgerUnavailableError}. */
  private async query<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (e) {
      throw unavailable(e);
    }
  }

  /** Renews the leases of this instance's holds and claims; now and then deletes what has expired. */
  private async renew(): Promise<void> {
    if (this.closed) return;
    try {
      if (this.liveHolds.size > 0 || this.liveClaims.size > 0) {
        const holds = [...this.liveHolds];
        const tokens = [...this.liveClaims];
        await this.sql`SELECT copysim_renew(${holds}::bigint[], ${tokens}::uuid[], ${this.options.leaseSeconds})`;
      }
      if (Date.now() - this.sweptAt >= SWEEP_EVERY_MS) {
        this.sweptAt = Date.now();
        await this.sql`SELECT copysim_sweep(${this.options.now() - IDEMPOTENCY_TTL_SECONDS})`;
      }
    } catch {
      // The database is away: the next turn tries again, and /health says so meanwhile.
    }
  }
}

function chargeOutcome(row: ChargeRow): ChargeOutcome {
  switch (row.outcome) {
    case 'ok':
      return { ok: true, remaining: row.remaining! };
    case 'insufficient_credits':
      return { ok: false, code: 'insufficient_credits', remaining: row.remaining! };
    default:
      return { ok: false, code: row.outcome as 'key_disabled' | 'unknown_key' | 'claim_lost' };
  }
}

function noSuchKey(id: number): InputError {
  return new InputError(`no key with id ${id}`, { source: 'keys', path: 'id' });
}

/**
 * Brings a database to the newest schema, running the missing steps in one transaction under an
 * advisory lock (an instance starting at the same time waits, then finds nothing to do).
 * Refuses a database written by a newer build.
 */
export async function migratePostgres(
  sql: Sql,
  location: string,
  migrations: readonly Migration[] = POSTGRES_MIGRATIONS,
): Promise<number> {
  const newest = migrations[migrations.length - 1]?.version ?? 0;
  return (await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)`;
    const [row] = await tx<{ version: number }[]>`SELECT version FROM schema_version`;
    const current = row?.version ?? 0;
    if (current > newest) {
      throw new InputError(
        `the key database is at schema version ${current}, newer than this copysim knows (${newest})`,
        { source: location, path: 'schema_version' },
      );
    }
    for (const step of migrations) {
      if (step.version > current) await tx.unsafe(step.sql).simple();
    }
    await tx`DELETE FROM schema_version`;
    await tx`INSERT INTO schema_version (version) VALUES (${Math.max(current, newest)})`;
    return Math.max(current, newest);
  })) as number;
}
