import type { Redis as RedisClient } from 'ioredis';
import { InputError } from '../../model/errors.js';
import { loadRedis } from '../service-dependencies.js';
import { quotasOf, type RateDecision, type RateLimiter } from './limiter.js';
import type { RateLimit } from './rate.js';

/**
 * Checks and counts one request in one step on the Redis server, with the server's clock (so
 * instances whose clocks differ share the same windows). ARGV: quota and window seconds of each
 * window. Returns 1 or 0 (allowed), then the count and the milliseconds left of each window.
 */
const TAKE_SCRIPT = `
local time = redis.call('TIME')
local ms = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local n = #ARGV / 2
local names, counts, lefts = {}, {}, {}
local allowed = 1
for i = 1, n do
  local quota = tonumber(ARGV[2 * i - 1])
  local window = tonumber(ARGV[2 * i]) * 1000
  local index = math.floor(ms / window)
  names[i] = KEYS[1] .. ':' .. ARGV[2 * i] .. ':' .. index
  counts[i] = tonumber(redis.call('GET', names[i]) or '0')
  lefts[i] = (index + 1) * window - ms
  if counts[i] >= quota then allowed = 0 end
end
local out = { allowed }
for i = 1, n do
  if allowed == 1 then
    counts[i] = redis.call('INCR', names[i])
    redis.call('PEXPIRE', names[i], lefts[i] + 1000)
  end
  out[#out + 1] = counts[i]
  out[#out + 1] = lefts[i]
end
return out
`;

/** A Redis URL as messages show it: the password, if any, masked. */
function shown(url: string): string {
  return url.replace(/:[^:@/]*@/, ':***@');
}

/**
 * The ioredis options of a `--redis` URL: `redis://[USER:PASSWORD@]HOST[:PORT][/DB]`, `rediss://…`
 * or `unix:///PATH`.
 */
function redisOptions(url: string): Record<string, unknown> {
  const bad = (): InputError =>
    new InputError(`--redis "${shown(url)}" is not a Redis URL: give redis://HOST:PORT or unix:///PATH`, {
      source: 'redis',
    });
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw bad();
  }
  const credentials = {
    ...(parsed.username !== '' ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password !== '' ? { password: decodeURIComponent(parsed.password) } : {}),
  };
  if (parsed.protocol === 'unix:' || parsed.protocol === 'redis+unix:') {
    if (parsed.pathname === '' || parsed.pathname === '/') throw bad();
    return { path: decodeURIComponent(parsed.pathname), ...credentials };
  }
  if ((parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') || parsed.hostname === '') throw bad();
  const db = parsed.pathname.replace(/^\//, '');
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port === '' ? 6379 : Number(parsed.port),
    ...credentials,
    ...(/^\d+$/.test(db) ? { db: Number(db) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

/**
 * Counts in Redis, shared by every instance that is given the same server: a key's quota is
 * for all of them together. When Redis does not answer, requests pass (a limiter that is down
 * does not take the service down with it) and `/health` says so.
 */
export class RedisRateLimiter implements RateLimiter {
  readonly shared = true;

  private constructor(
    private readonly client: RedisClient,
    private readonly prefix: string,
    private readonly onError: (error: Error) => void,
  ) {}

  /**
   * Connects to the Redis at `url` and checks that it answers; an {@link InputError} naming it
   * when it does not.
   */
  static async connect(
    url: string,
    options: { prefix?: string; onError?: (error: Error) => void } = {},
  ): Promise<RedisRateLimiter> {
    const Redis = loadRedis();
    const client = new Redis({
      ...redisOptions(url),
      lazyConnect: true,
      connectTimeout: 5_000,
      commandTimeout: 1_000,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
    });
    let socketError: Error | undefined;
    client.on('error', (e: Error) => (socketError = e));
    try {
      await client.connect();
      await client.ping();
    } catch (e) {
      client.disconnect();
      const reason = (socketError ?? (e as Error)).message.split('\n')[0];
      throw new InputError(`cannot reach Redis at ${shown(url)}: ${reason}`, { source: 'redis' });
    }
    client.defineCommand('copysimTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    return new RedisRateLimiter(client, options.prefix ?? 'copysim:rate', options.onError ?? (() => {}));
  }

  async take(keyId: number, rate: RateLimit): Promise<RateDecision> {
    const quotas = quotasOf(rate);
    const args = quotas.flatMap((q) => [q.quota, q.windowSeconds]);
    let reply: number[];
    try {
      const take = (this.client as unknown as { copysimTake(...args: unknown[]): Promise<number[]> }).copysimTake;
      reply = await take.call(this.client, `${this.prefix}:${keyId}`, ...args);
    } catch (e) {
      this.onError(e as Error);
      return { allowed: true, windows: [], retryAfter: 0 };
    }
    const allowed = reply[0] === 1;
    const windows = quotas.map((q, i) => ({
      name: q.name,
      quota: q.quota,
      windowSeconds: q.windowSeconds,
      remaining: Math.max(0, q.quota - reply[1 + 2 * i]!),
      resetSeconds: Math.max(1, Math.ceil(reply[2 + 2 * i]! / 1000)),
    }));
    const full = windows.filter((w, i) => reply[1 + 2 * i]! >= w.quota);
    return { allowed, windows, retryAfter: allowed ? 0 : Math.max(...full.map((w) => w.resetSeconds)) };
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}
