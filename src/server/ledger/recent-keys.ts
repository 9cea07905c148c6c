import type { KeyStatus } from './ledger.js';

interface Entry {
  readonly status: KeyStatus;
  /** When the database was asked for it (ms, the `now` given): it may have changed since. */
  readonly askedAt: number;
}

/**
 * The statuses of the keys one instance read a moment ago, by key hash, each for `maxAgeMs` at
 * most: a key that sends many requests is looked up once in that time. Unknown keys are not kept
 * (a key created a moment ago works at once). At most `maxEntries`: past that, the oldest go.
 *
 * @example
 * const recent = new RecentKeys(1000, 10_000);
 * recent.set(hash, { id: 1, disabled: false, rate: null }, askedAt);
 * recent.get(hash, Date.now()); // the status, until 1 s after askedAt
 */
export class RecentKeys {
  /** In the order they were set: the first is the oldest. */
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxAgeMs: number,
    private readonly maxEntries: number,
  ) {}

  /** The status of key `hash` asked at most `maxAgeMs` before `now`; undefined when none is. */
  get(hash: string, now: number): KeyStatus | undefined {
    const entry = this.entries.get(hash);
    if (entry === undefined) return undefined;
    if (now - entry.askedAt < this.maxAgeMs) return entry.status;
    this.entries.delete(hash);
    return undefined;
  }

  /** Keeps `status`, as the database answered a question asked at `askedAt`. */
  set(hash: string, status: KeyStatus, askedAt: number): void {
    const kept = this.entries.get(hash);
    if (kept !== undefined && kept.askedAt >= askedAt) return;
    this.entries.delete(hash);
    this.entries.set(hash, { status, askedAt });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Forgets key `id`: this instance changed it, so its next request reads it anew. */
  forget(id: number): void {
    for (const [hash, entry] of this.entries) if (entry.status.id === id) this.entries.delete(hash);
  }
}
