import type { KeyStore } from './keys/key-store.js';
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

/**
 * Credits of requests in flight. A request first holds its cost in memory (so a key cannot start
 * more work than it can pay for), then on success is charged in one SQLite transaction with a
 * ledger row, and always lets go of its hold. Holds are never written anywhere: a crash loses
 * only them, and a failed request never costs anything.
 *
 * @example
 * const hold = meter.hold(key, 10);
 * try { run(); const credits = hold.charge('simulate'); } finally { hold.release(); }
 */
export class CreditMeter {
  private readonly held = new Map<number, number>();

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
    return new CreditHold(this.store, id, cost, () => this.let(id, cost));
  }

  /** Credits held in flight, summed over every key (0 when the service is idle). */
  get totalHeld(): number {
    let sum = 0;
    for (const n of this.held.values()) sum += n;
    return sum;
  }

  private let(id: number, cost: number): void {
    const left = (this.held.get(id) ?? 0) - cost;
    if (left > 0) this.held.set(id, left);
    else this.held.delete(id);
  }
}

/** The credits one request holds; charge once on success, release always. */
export class CreditHold {
  private settled = false;

  constructor(
    private readonly store: KeyStore,
    private readonly keyId: number,
    private readonly cost: number,
    private readonly onRelease: () => void,
  ) {}

  /**
   * Charges the held cost for `operation` in one transaction with its ledger row and returns the
   * envelope's credits. Throws the 403 when the key was disabled or drained meanwhile.
   */
  charge(operation: string): CreditsSpent {
    const outcome = this.store.charge(this.keyId, this.cost, operation);
    this.release();
    if (outcome.ok) return { spent: this.cost, remaining: outcome.remaining };
    if (outcome.code === 'insufficient_credits') throw insufficientCredits(this.cost, outcome.remaining);
    if (outcome.code === 'key_disabled') throw keyDisabled();
    throw new HttpError(401, { code: 'unauthorized', detail: 'unknown API key' });
  }

  /** Lets go of the hold without charging; safe to call more than once. */
  release(): void {
    if (this.settled) return;
    this.settled = true;
    this.onRelease();
  }
}
