import type { Ledger } from './ledger/ledger.js';
import type { RateLimiter } from './rate-limit/limiter.js';

/** What `GET /health` answers: each server the service depends on, and the whole. */
export interface HealthReport {
  readonly status: 'ok' | 'unavailable';
  /** The ledger's database. */
  readonly database: 'ok' | 'unavailable';
  /** The Redis of shared rate limits, when the service has one. */
  readonly redis?: 'ok' | 'unavailable';
  /** The work queue the simulations go to (`serve --queue`), when the service has one. */
  readonly queue?: 'ok' | 'unavailable';
}

/** How long a check may take before it counts as unavailable: ms. */
const CHECK_TIMEOUT_MS = 2_000;

async function answers(check: () => Promise<void>, log: (error: Error) => void): Promise<'ok' | 'unavailable'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch (e) {
    log(e as Error);
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Asks the ledger's database, the rate limits' Redis and the work queue (each if any) whether
 * they answer, at once, each within 2 s. `log` gets the reason of each failure (the answer names
 * none).
 */
export async function checkHealth(
  ledger: Ledger,
  rateLimiter: RateLimiter | undefined,
  log: (error: Error) => void = () => {},
  queue?: { ping(): Promise<void> },
): Promise<HealthReport> {
  const [database, redis, queued] = await Promise.all([
    answers(() => ledger.ping(), log),
    rateLimiter?.shared === true ? answers(() => rateLimiter.ping(), log) : undefined,
    queue === undefined ? undefined : answers(() => queue.ping(), log),
  ]);
  const up = database === 'ok' && redis !== 'unavailable' && queued !== 'unavailable';
  return {
    status: up ? 'ok' : 'unavailable',
    database,
    ...(redis !== undefined ? { redis } : {}),
    ...(queued !== undefined ? { queue: queued } : {}),
  };
}
