import type { ChargeOutcome, KeyStore } from './keys/key-store.js';
import { HttpError } from './http-error.js';

/** What a successful request spent and what is left: the `credits` of the envelope. */
export interface CreditsSpent {
  readonly spent: number;
  readonly remaining: number;
}

/** A 403 `insufficient_credits` with the interface's detail. */
export function insufficientCredits(required: number, remaining: number): HttpError {
  return new HttpError(403, { code: 'insufficient_credits', detail: { required, remaining } });
}

/** A 403 `key_disabled`. */
export function keyDisabled(): HttpError {
  return new HttpError(403, { code: 'key_disabled', detail: 'this API key is disabled' });
}

interface PendingCharge {
  readonly id: number;
  readonly cost: number;
  readonly operation: string;
  readonly resolve: (outcome: ChargeOutcome) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Credits of requests in flight. A request first holds its cost in memory (so a key cannot start
 * more work than it can pay for), then on success is charged in a SQLite transaction with its
 * ledger row, and always lets go of its hold. Holds are never written anywhere: a crash loses
 * only them, and a failed request never costs anything.
 *
 * Charges that finish in the same turn of the event loop share one transaction (group commit):
 * one write to disk for all of them, each still checked and recorded on its own, and no answer
 * leaves before its charge is committed.
 *
 * @example
 * const hold = meter.hold(keyId, 10);
 * try { run(); const credits = await hold.charge('simulate'); } finally { hold.release(); }
 */
export class CreditMeter {
  private readonly held = new Map<number, number>();
  private pending: PendingCharge[] = [];

  constructor(private readonly store: KeyStore) {}

  /** Credits of key `id` not yet held by its requests in flight (its balance read now). */
  available(id: number): number {
    const key = this.store.get(id);
    if (key === undefined) throw new HttpError(401, { code: 'unauthorized', detail: 'unknown API key' });
    if (key.disabled) throw keyDisabled();
    return key.credits - (this.held.get(id) ?? 0);
  }

  /**
   * Holds `cost` credits of key `id`; a 403 `insufficient_credits` when they are not available.
   * Reads the balance and records the hold in one synchronous step, so holds never overlap.
   */
  hold(id: number, cost: number): CreditHold {
    const available = this.available(id);
    if (available < cost) throw insufficientCredits(cost, Math.max(0, available));
    this.held.set(id, (this.held.get(id) ?? 0) + cost);
    return new CreditHold(this, id, cost);
  }

  /** Credits held in flight, summed over every key (0 when the service is idle). */
  get totalHeld(): number {
    let sum = 0;
    for (const n of this.held.values()) sum += n;
    return sum;
  }

  /** @internal Queues a charge for the next group commit. */
  commit(id: number, cost: number, operation: string): Promise<ChargeOutcome> {
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => this.flush());
      this.pending.push({ id, cost, operation, resolve, reject });
    });
  }

  /** @internal Lets go of a hold. */
  unhold(id: number, cost: number): void {
    const left = (this.held.get(id) ?? 0) - cost;
    if (left > 0) this.held.set(id, left);
    else this.held.delete(id);
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    let outcomes: ChargeOutcome[];
    try {
      outcomes = this.store.chargeAll(batch);
    } catch (e) {
      for (const p of batch) p.reject(e);
      return;
    }
    batch.forEach((p, i) => p.resolve(outcomes[i]!));
  }
}

/** The credits one request holds; charge once on success, release always. */
export class CreditHold {
  private settled = false;

  constructor(
    private readonly meter: CreditMeter,
    private readonly keyId: number,
    private readonly cost: number,
  ) {}

  /**
   * Charges the held cost for `operation` (a transaction with its ledger row) and returns the
   * envelope's credits. Throws the 403 when the key was disabled or drained meanwhile.
   */
  async charge(operation: string): Promise<CreditsSpent> {
    try {
      const outcome = await this.meter.commit(this.keyId, this.cost, operation);
      if (outcome.ok) return { spent: this.cost, remaining: outcome.remaining };
      if (outcome.code === 'insufficient_credits') throw insufficientCredits(this.cost, outcome.remaining);
      if (outcome.code === 'key_disabled') throw keyDisabled();
      throw new HttpError(401, { code: 'unauthorized', detail: 'unknown API key' });
    } finally {
      this.release();
    }
  }

  /** Lets go of the hold without charging; safe to call more than once. */
  release(): void {
    if (this.settled) return;
    this.settled = true;
    this.meter.unhold(this.keyId, this.cost);
  }
}
