import { KeyStore, type Charge, type KeyStoreOptions } from '../keys/key-store.js';
import type { RateLimit } from '../rate-limit/rate.js';
import {
  IDEMPOTENCY_TTL_SECONDS,
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
  type Ledger,
  type LedgerRow,
  type NewKey,
} from './ledger.js';

interface PendingCharge {
  readonly charge: Charge;
  readonly resolve: (outcome: ChargeOutcome) => void;
  readonly reject: (error: unknown) => void;
}

/** A hold of this process; `settled` once charged or let go. */
class MemoryHold implements Hold {
  settled = false;
  constructor(
    readonly keyId: number,
    readonly cost: number,
  ) {}
}

/** How often stored answers past their 24 hours are deleted, at most: seconds. */
const FORGET_EVERY_SECONDS = 60;

/**
 * The ledger in a SQLite file ({@link KeyStore}), for one service process on one machine: the
 * embedded default, nothing to start.
 *
 * Holds and running idempotency claims are kept in this process's memory, since it is the only
 * one that charges the file: a crash loses only them, and a failed request never costs
 * anything. Charges and the answers stored with them are written to the file.
 *
 * Charges that finish in the same turn of the event loop share one transaction (group commit):
 * one write to disk for all of them, each still checked and recorded on its own, and no answer
 * leaves before its charge is committed.
 *
 * @example
 * const ledger = SqliteLedger.open('copysim.db', { now: () => Math.floor(Date.now() / 1000) });
 * const held = await ledger.hold(keyId, 10);
 * if (held.ok) await ledger.charge(held.hold, 'simulate'); // { ok: true, remaining: … }
 */
export class SqliteLedger implements Ledger {
  readonly kind = 'sqlite';
  private readonly held = new Map<number, number>();
  private readonly running = new Map<string, string>();
  private pending: PendingCharge[] = [];
  private forgottenAt = -Infinity;

  constructor(
    /** The key database; the ledger closes it on {@link close}. */
    readonly store: KeyStore,
    readonly location: string,
    private readonly now: () => number,
  ) {}

  /** Opens (creating when absent) the key database at `file`, as {@link KeyStore.open} does. */
  static open(file: string, options: KeyStoreOptions): SqliteLedger {
    return new SqliteLedger(KeyStore.open(file, options), file, options.now);
  }

  async create(input: NewKey): Promise<{ key: string; record: ApiKeyRecord }> {
    return this.store.create(input);
  }

  async list(): Promise<ApiKeyListing[]> {
    return this.store.list();
  }

  async get(id: number): Promise<ApiKeyRecord | undefined> {
    return this.store.get(id);
  }

  async authenticate(key: string): Promise<ApiKeyRecord | undefined> {
    return this.store.findByKey(key);
  }

  /** Reads the file every time: a lookup of one indexed row costs less than keeping it. */
  async recentKey(key: string): Promise<KeyStatus | undefined> {
    const record = this.store.findByKey(key);
    return record === undefined ? undefined : { id: record.id, disabled: record.disabled, rate: record.rate };
  }

  async topUp(id: number, credits: number): Promise<ApiKeyRecord> {
    return this.store.topUp(id, credits);
  }

  async setDisabled(id: number, disabled: boolean): Promise<ApiKeyRecord> {
    return this.store.setDisabled(id, disabled);
  }

  async setRate(id: number, rate: RateLimit | null): Promise<ApiKeyRecord> {
    return this.store.setRate(id, rate);
  }

  async ledger(id: number): Promise<LedgerRow[]> {
    return this.store.ledger(id);
  }

  /** Credits held by this process's requests in flight, summed over every key (0 when idle). */
  get totalHeld(): number {
    let sum = 0;
    for (const n of this.held.values()) sum += n;
    return sum;
  }

  /** Reads the balance and records the hold in one synchronous step, so holds never overlap. */
  async hold(id: number, cost: number): Promise<HoldOutcome> {
    const key = this.store.get(id);
    if (key === undefined) return { ok: false, code: 'unknown_key' };
    if (key.disabled) return { ok: false, code: 'key_disabled' };
    const available = key.credits - (this.held.get(id) ?? 0);
    if (available < cost) return { ok: false, code: 'insufficient_credits', remaining: Math.max(0, available) };
    this.held.set(id, (this.held.get(id) ?? 0) + cost);
    return { ok: true, hold: new MemoryHold(id, cost) };
  }

  async authenticateAndHold(key: string, cost: number): Promise<KeyAndHold> {
    const record = this.store.findByKey(key);
    if (record === undefined || record.disabled) return { record, hold: undefined };
    return { record, hold: await this.hold(record.id, cost) };
  }

  async charge(hold: Hold, operation: string, answer?: AnswerToStore): Promise<ChargeOutcome> {
    try {
      return await this.chargeUnheld(hold.keyId, hold.cost, operation, answer);
    } finally {
      await this.release(hold);
    }
  }

  async chargeUnheld(id: number, cost: number, operation: string, answer?: AnswerToStore): Promise<ChargeOutcome> {
    const stored =
      answer === undefined
        ? undefined
        : {
            idempotencyKey: answer.claim.idempotencyKey,
            fingerprint: answer.claim.fingerprint,
            body: answer.body,
            headers: answer.headers,
          };
    try {
      return await new Promise<ChargeOutcome>((resolve, reject) => {
        if (this.pending.length === 0) setImmediate(() => this.flush());
        const charge = { id, cost, operation, ...(stored !== undefined ? { answer: stored } : {}) };
        this.pending.push({ charge, resolve, reject });
      });
    } finally {
      if (answer !== undefined) this.running.delete(claimName(answer.claim));
    }
  }

  async release(hold: Hold): Promise<void> {
    const mine = hold as MemoryHold;
    if (mine.settled) return;
    mine.settled = true;
    const left = (this.held.get(hold.keyId) ?? 0) - hold.cost;
    if (left > 0) this.held.set(hold.keyId, left);
    else this.held.delete(hold.keyId);
  }

  async claim(id: number, idempotencyKey: string, fingerprint: string): Promise<ClaimOutcome> {
    const now = this.now();
    if (now - this.forgottenAt >= FORGET_EVERY_SECONDS) {
      this.forgottenAt = now;
      this.store.forgetAnswers(now - IDEMPOTENCY_TTL_SECONDS);
    }
    const claim: Claim = { keyId: id, idempotencyKey, fingerprint };
    const name = claimName(claim);
    const runningFingerprint = this.running.get(name);
    if (runningFingerprint !== undefined) {
      return runningFingerprint === fingerprint ? { state: 'running' } : { state: 'mismatch' };
    }
    const stored = this.store.storedAnswer(id, idempotencyKey);
    if (stored !== undefined && stored.createdAt > now - IDEMPOTENCY_TTL_SECONDS) {
      if (stored.fingerprint !== fingerprint) return { state: 'mismatch' };
      const { body, headers, spent, remaining } = stored;
      return { state: 'replay', answer: { body, headers, spent, remaining } };
    }
    this.running.set(name, fingerprint);
    return { state: 'claimed', claim };
  }

  async abandon(claim: Claim): Promise<void> {
    this.running.delete(claimName(claim));
  }

  async ping(): Promise<void> {
    this.store.ping();
  }

  async close(): Promise<void> {
    this.store.close();
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    let outcomes: ChargeOutcome[];
    try {
      outcomes = this.store.chargeAll(batch.map((p) => p.charge));
    } catch (e) {
      for (const p of batch) p.reject(e);
      return;
    }
    batch.forEach((p, i) => p.resolve(outcomes[i]!));
  }
}

/** The in-memory name of a claim: key id and `Idempotency-Key`. */
function claimName(claim: Claim): string {
  return `${claim.keyId}\u0000${claim.idempotencyKey}`;
}
