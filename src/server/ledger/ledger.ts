import { CopysimError } from '../../model/errors.js';
import type { RateLimit } from '../rate-limit/rate.js';

/** An API key as stored: never the key itself, only its hash and a shown prefix. */
export interface ApiKeyRecord {
  readonly id: number;
  /** The first characters of the key (`cs_q3Vb9x`), to tell keys apart. */
  readonly prefix: string;
  readonly label: string | null;
  /** Credits left. */
  readonly credits: number;
  readonly disabled: boolean;
  /** Unix seconds. */
  readonly createdAt: number;
  /** The key's own rate limit; null: the service's default. */
  readonly rate: RateLimit | null;
}

/**
 * What a request needs to know of its key before it runs: who it is, whether it is disabled, and
 * its rate limit. Not its credits: holds and charges read those in the database.
 */
export type KeyStatus = Pick<ApiKeyRecord, 'id' | 'disabled' | 'rate'>;

/**
 * How old, at most, the {@link KeyStatus} that {@link Ledger.recentKey} gives may be: 1 s. So a
 * disable or a new rate reaches every instance within that time.
 */
export const KEY_STATUS_MAX_AGE_MS = 1000;

/** A key as `keys list` shows it: its record and the credits charged so far (from the ledger). */
export interface ApiKeyListing extends ApiKeyRecord {
  readonly spent: number;
}

/** One row of the credit ledger: a signed change of a key's balance. */
export interface LedgerRow {
  readonly id: number;
  readonly keyId: number;
  readonly kind: 'grant' | 'top_up' | 'charge';
  /** The operation charged (`simulate`, `indicators`, …); null for grants and top-ups. */
  readonly operation: string | null;
  readonly delta: number;
  readonly balanceAfter: number;
  readonly time: number;
  /** The `Idempotency-Key` of the request charged, when it sent one. */
  readonly idempotencyKey: string | null;
}

/** What a charge did. */
export type ChargeOutcome =
  | { readonly ok: true; readonly remaining: number }
  | { readonly ok: false; readonly code: 'insufficient_credits'; readonly remaining: number }
  | { readonly ok: false; readonly code: 'key_disabled' | 'unknown_key' }
  /** The request's idempotency claim was taken over (its lease ran out): nothing was charged. */
  | { readonly ok: false; readonly code: 'claim_lost' };

/** Credits held by one request in flight: charged once on success, let go otherwise. */
export interface Hold {
  readonly keyId: number;
  readonly cost: number;
}

/** What {@link Ledger.hold} did. */
export type HoldOutcome =
  | { readonly ok: true; readonly hold: Hold }
  | { readonly ok: false; readonly code: 'insufficient_credits'; readonly remaining: number }
  | { readonly ok: false; readonly code: 'key_disabled' | 'unknown_key' };

/** What {@link Ledger.authenticateAndHold} found: the key, and a hold unless it is unknown or disabled. */
export interface KeyAndHold {
  readonly record: ApiKeyRecord | undefined;
  readonly hold: HoldOutcome | undefined;
}

/** An `Idempotency-Key` that one request has claimed: it runs, others with the key wait. */
export interface Claim {
  readonly keyId: number;
  readonly idempotencyKey: string;
  readonly fingerprint: string;
}

/** The first answer of an `Idempotency-Key`, as stored with its charge: a 200. */
export interface StoredAnswer {
  /** The operation's own JSON: the simulator's body, or the envelope's `result`. */
  readonly body: string;
  /** Headers of the answer besides the credits (the simulator's warnings). */
  readonly headers: Readonly<Record<string, string>>;
  readonly spent: number;
  readonly remaining: number;
}

/** What {@link Ledger.claim} found. */
export type ClaimOutcome =
  /** The key is this request's: run it. */
  | { readonly state: 'claimed'; readonly claim: Claim }
  /** The key's first request succeeded: answer what it answered. */
  | { readonly state: 'replay'; readonly answer: StoredAnswer }
  /** The key came with another request (method, path, query or body). */
  | { readonly state: 'mismatch' }
  /** The key's first request is still running. */
  | { readonly state: 'running' };

/** The answer to store with a charge, under the request's claim. */
export interface AnswerToStore {
  readonly claim: Claim;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** A new key's settings. */
export interface NewKey {
  readonly credits: number;
  readonly label?: string | null;
  /** Null or absent: the service's default. */
  readonly rate?: RateLimit | null;
}

/**
 * Keys, credits and the answers of idempotent requests: what the HTTP service and `copysim
 * keys` need of a database. Two implementations: SQLite (one machine, embedded; the default) and
 * PostgreSQL (any number of instances sharing one database). Credits are exact either way: a
 * key's balance is always the sum of its ledger rows, a request holds its price while it runs
 * (so a key never starts more than it can pay for), and is charged only on success.
 *
 * The management methods throw an `InputError` for an unknown key id or a bad amount.
 */
export interface Ledger {
  readonly kind: 'sqlite' | 'postgres';
  /** Where it is, as messages name it: the file, or the URL without its password. */
  readonly location: string;

  create(input: NewKey): Promise<{ key: string; record: ApiKeyRecord }>;
  /** Every key, in creation order, with the credits it has spent. */
  list(): Promise<ApiKeyListing[]>;
  get(id: number): Promise<ApiKeyRecord | undefined>;
  /** The key a client presents, looked up by its hash; undefined when unknown. */
  authenticate(key: string): Promise<ApiKeyRecord | undefined>;
  /**
   * The status of the key a client presents, for the request path: as {@link authenticate}, but
   * it may be as old as {@link KEY_STATUS_MAX_AGE_MS} (PostgreSQL keeps the statuses it read a
   * moment ago, saving a round trip a request); SQLite reads the file every time.
   */
  recentKey(key: string): Promise<KeyStatus | undefined>;
  /** Adds `credits` (≥ 1), with a ledger row. Disabled keys can be topped up too. */
  topUp(id: number, credits: number): Promise<ApiKeyRecord>;
  setDisabled(id: number, disabled: boolean): Promise<ApiKeyRecord>;
  /** Sets a key's rate limit; null: back to the service's default. */
  setRate(id: number, rate: RateLimit | null): Promise<ApiKeyRecord>;
  /** A key's ledger rows, oldest first. */
  ledger(id: number): Promise<LedgerRow[]>;

  /** Holds `cost` credits of key `id` for a request in flight, when they are available. */
  hold(id: number, cost: number): Promise<HoldOutcome>;
  /**
   * {@link authenticate} and, for a key found and not disabled, {@link hold} of `cost`: in one
   * round trip, for the service's requests that need both.
   */
  authenticateAndHold(key: string, cost: number): Promise<KeyAndHold>;
  /**
   * Charges a hold for a successful `operation`, with its ledger row and, under an
   * idempotency claim, the answer to replay: all in one transaction, or nothing. The hold is let
   * go either way.
   */
  charge(hold: Hold, operation: string, answer?: AnswerToStore): Promise<ChargeOutcome>;
  /** Lets go of a hold without charging; safe to call again, or after its charge. */
  release(hold: Hold): Promise<void>;
  /**
   * Charges `cost` credits of key `id` held by nothing, as {@link charge} does otherwise: for
   * work done at once, where a hold would cost more than the work.
   */
  chargeUnheld(id: number, cost: number, operation: string, answer?: AnswerToStore): Promise<ChargeOutcome>;

  /**
   * Claims an `Idempotency-Key` of key `id` for a request whose method, URL and body hash to
   * `fingerprint`, or says why not. Stored answers are kept 24 hours.
   */
  claim(id: number, idempotencyKey: string, fingerprint: string): Promise<ClaimOutcome>;
  /** Gives up a claim whose request was not charged: a retry with the key runs anew. */
  abandon(claim: Claim): Promise<void>;

  /** Resolves when the database answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** How long the first answer of an `Idempotency-Key` is kept: 24 hours, in seconds. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/** The ledger's database does not answer (down, restarting, out of connections): a 503. */
export class LedgerUnavailableError extends CopysimError {
  override name = 'LedgerUnavailableError';
}
