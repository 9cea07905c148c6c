/**
 * The queue's URL: which Redis the producer and the workers share, and the check that it
 * answers before anything is queued, so that an unreachable server is one line naming the URL.
 */
import { CopysimError } from '../model/errors.js';
import { loadIORedis } from './dependencies.js';

/** ioredis connection options of a queue URL (the members BullMQ passes on to ioredis). */
export interface RedisOptions {
  readonly host?: string;
  readonly port?: number;
  readonly path?: string;
  readonly username?: string;
  readonly password?: string;
  readonly db?: number;
  readonly tls?: object;
}

/** A queue URL that cannot be used, or a Redis server that does not answer. */
export class QueueConnectionError extends CopysimError {
  override name = 'QueueConnectionError';
}

/** The URL as printed in messages: the password, if any, masked. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/**
 * The connection options of a queue URL: `redis://[USER:PASSWORD@]HOST[:PORT][/DB]`,
 * `rediss://…` (TLS), or a Unix socket, `unix:///PATH` or `redis+unix:///PATH` (`?db=N`).
 */
export function redisOptions(url: string): RedisOptions {
  const bad = (why: string): QueueConnectionError =>
    new QueueConnectionError(
      `the \`queue\` URL "${shownUrl(url)}" is not a Redis URL (${why})` +
        `: give redis://HOST:PORT, rediss://HOST:PORT or unix:///PATH`,
    );
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw bad('it cannot be read as a URL');
  }
  const db = (text: string | null): number | undefined => {
    if (text === null || text === '') return undefined;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0) throw bad(`database "${text}" is not a whole number`);
    return n;
  };
  const credentials = {
    ...(parsed.username !== '' ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password !== '' ? { password: decodeURIComponent(parsed.password) } : {}),
  };
  if (parsed.protocol === 'unix:' || parsed.protocol === 'redis+unix:') {
    if (parsed.pathname === '' || parsed.pathname === '/') throw bad('no socket path');
    const n = db(parsed.searchParams.get('db'));
    return { path: decodeURIComponent(parsed.pathname), ...credentials, ...(n !== undefined ? { db: n } : {}) };
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw bad(`scheme "${parsed.protocol}"`);
  if (parsed.hostname === '') throw bad('no host');
  const port = parsed.port === '' ? 6379 : Number(parsed.port);
  const n = db(parsed.pathname.replace(/^\//, ''));
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    ...credentials,
    ...(n !== undefined ? { db: n } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

/**
 * Connects to the queue's Redis once, without retrying, and sends PING: throws a
 * {@link QueueConnectionError} naming the URL when it does not answer within `timeoutMs`.
 */
export async function checkRedis(url: string, timeoutMs = 5_000): Promise<void> {
  const options = redisOptions(url);
  const Redis = loadIORedis();
  const client = new Redis({
    ...options,
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // The socket's own error (ECONNREFUSED, ENOTFOUND) says more than the rejection's "Connection is closed".
  let socketError: Error | undefined;
  client.on('error', (e: Error) => (socketError ??= e));
  try {
    await client.connect();
    await client.ping();
  } catch (e) {
    const reason = (socketError ?? (e as Error)).message.split('\n')[0];
    throw new QueueConnectionError(`cannot reach Redis at ${shownUrl(url)}: ${reason}`);
  } finally {
    client.disconnect();
  }
}
