import type { RateLimit } from './rate.js';

/** One window of a key's rate limit as it stands after a request. */
export interface WindowState {
  /** The policy's name in the `RateLimit` headers. */
  readonly name: 'second' | 'minute';
  readonly quota: number;
  readonly windowSeconds: number;
  /** Requests left in the current window. */
  readonly remaining: number;
  /** Seconds until the current window ends (at least 1). */
  readonly resetSeconds: number;
}

/** What a limiter decided for one request. */
export interface RateDecision {
  readonly allowed: boolean;
  /** The windows that have a quota. */
  readonly windows: readonly WindowState[];
  /** When refused: seconds until a request may pass. */
  readonly retryAfter: number;
}

/**
 * Counts each key's requests in fixed windows of a second and a minute (aligned on the clock)
 * and refuses one that would go over a quota. A refused request uses up nothing.
 */
export interface RateLimiter {
  /** True when the counts are shared by every instance (Redis), false when they are this process's. */
  readonly shared: boolean;
  /** Counts a request of key `keyId` under `rate`, unless it is over a quota. */
  take(keyId: number, rate: RateLimit): Promise<RateDecision>;
  /** Resolves when the store of the counts answers (always, in memory). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The windows of a rate that have a quota, with their lengths in seconds. */
export function quotasOf(rate: RateLimit): Array<{ name: WindowState['name']; quota: number; windowSeconds: number }> {
  return [
    ...(rate.perSecond !== null ? [{ name: 'second' as const, quota: rate.perSecond, windowSeconds: 1 }] : []),
    ...(rate.perMinute !== null ? [{ name: 'minute' as const, quota: rate.perMinute, windowSeconds: 60 }] : []),
  ];
}

/**
 * The headers of the IETF httpapi draft "RateLimit header fields for HTTP": `RateLimit-Policy`
 * (each quota and window) and `RateLimit` (what is left of each, and when it resets), plus
 * `Retry-After` on a refusal.
 *
 * @example
 * rateLimitHeaders(decision);
 * // 'ratelimit-policy': '"second";q=10;w=1, "minute";q=600;w=60'
 * // ratelimit: '"second";r=9;t=1, "minute";r=587;t=42'
 */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'ratelimit-policy': decision.windows.map((w) => `"${w.name}";q=${w.quota};w=${w.windowSeconds}`).join(', '),
    ratelimit: decision.windows.map((w) => `"${w.name}";r=${w.remaining};t=${w.resetSeconds}`).join(', '),
  };
  if (!decision.allowed) headers['retry-after'] = String(decision.retryAfter);
  return headers;
}

interface Counter {
  index: number;
  count: number;
}

/**
 * Counts in this process's memory: right for one instance, or per instance when several run
 * without a shared Redis.
 */
export class MemoryRateLimiter implements RateLimiter {
  readonly shared = false;
  private readonly counters = new Map<number, Map<string, Counter>>();
  private readonly timer: NodeJS.Timeout;

  /** `now`: milliseconds since the epoch. */
  constructor(private readonly now: () => number = Date.now) {
    // Keys idle for a minute or more have nothing left to count.
    this.timer = setInterval(() => this.forgetIdle(), 60_000);
    this.timer.unref();
  }

  async take(keyId: number, rate: RateLimit): Promise<RateDecision> {
    const ms = this.now();
    const quotas = quotasOf(rate);
    let counters = this.counters.get(keyId);
    if (counters === undefined) this.counters.set(keyId, (counters = new Map()));
    const current = quotas.map((q) => {
      const windowMs = q.windowSeconds * 1000;
      const index = Math.floor(ms / windowMs);
      let counter = counters.get(q.name);
      if (counter === undefined || counter.index !== index) counters.set(q.name, (counter = { index, count: 0 }));
      return { ...q, counter, resetSeconds: Math.max(1, Math.ceil(((index + 1) * windowMs - ms) / 1000)) };
    });
    const full = current.filter((c) => c.counter.count >= c.quota);
    if (full.length === 0) for (const c of current) c.counter.count++;
    return {
      allowed: full.length === 0,
      windows: current.map((c) => ({
        name: c.name,
        quota: c.quota,
        windowSeconds: c.windowSeconds,
        remaining: Math.max(0, c.quota - c.counter.count),
        resetSeconds: c.resetSeconds,
      })),
      retryAfter: Math.max(0, ...full.map((c) => c.resetSeconds)),
    };
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.timer);
  }

  private forgetIdle(): void {
    const ms = this.now();
    const windowMs = { second: 1000, minute: 60_000 } as Record<string, number>;
    for (const [keyId, counters] of this.counters) {
      const idle = [...counters].every(([name, c]) => c.index < Math.floor(ms / windowMs[name]!));
      if (idle) this.counters.delete(keyId);
    }
  }
}
