/**
 * Rate limits per API key: a quota a second and a minute (the key's own, else the service's
 * default), counted in fixed windows; over it, 429 with Retry-After and the RateLimit headers of
 * the IETF httpapi draft, and nothing charged. In-process, with a clock the test moves.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { formatRate, MemoryRateLimiter, parseRate, SqliteLedger, UNLIMITED } from './support/api.js';
import { inProcessService, send } from './support/in-process.js';
import { SOL_LEADER, SOL_REQUEST } from './support/tapes.js';

const READ = `/v1/wallets/${SOL_LEADER}/indicators?network=sol`;
/** A minute's first millisecond (Unix seconds 1,699,999,980 = 28,333,333 minutes). */
const MINUTE = 1_699_999_980_000;
const opened: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

describe('rates as the command line writes them', () => {
  it.each([
    ['10/s', { perSecond: 10, perMinute: null }, '10/s'],
    ['600/min', { perSecond: null, perMinute: 600 }, '600/min'],
    [' 600 / minute , 10/sec ', { perSecond: 10, perMinute: 600 }, '10/s,600/min'],
    ['unlimited', UNLIMITED, 'unlimited'],
  ])('%j', (text, rate, canonical) => {
    expect(parseRate(text)).toEqual(rate);
    expect(formatRate(parseRate(text))).toBe(canonical);
  });

  it.each(['', '0/s', '10', '10/h', '1/s,2/s', '-1/min', '1.5/s'])('%j is refused, naming the forms', (text) => {
    const forms = '"N/s", "N/min", both as "N/s,M/min", or "unlimited"';
    expect(() => parseRate(text, '--rate')).toThrow(`--rate "${text}" is not a rate: give ${forms}`);
  });
});

describe('MemoryRateLimiter', () => {
  it('counts fixed windows on the clock; a refused request uses up nothing', async () => {
    const clock = { ms: MINUTE + 250 };
    const limiter = new MemoryRateLimiter(() => clock.ms);
    opened.push(limiter);
    const rate = { perSecond: 2, perMinute: 3 };
    const allowed = async () => (await limiter.take(1, rate)).allowed;
    expect([await allowed(), await allowed(), await allowed()]).toEqual([true, true, false]); // 2 a second
    clock.ms += 1000;
    const third = await limiter.take(1, rate);
    expect(third.allowed).toBe(true); // the refusal did not count toward the minute
    expect(third.windows).toEqual([
      { name: 'second', quota: 2, windowSeconds: 1, remaining: 1, resetSeconds: 1 },
      { name: 'minute', quota: 3, windowSeconds: 60, remaining: 0, resetSeconds: 59 }, // at :01.25, 58.75 s left
    ]);
    clock.ms += 1000;
    expect(await limiter.take(1, rate)).toMatchObject({ allowed: false, retryAfter: 58 });
    expect((await limiter.take(2, rate)).allowed).toBe(true); // another key, its own count
  });
});

describe('429 over the rate', () => {
  async function setup(defaultRate?: ReturnType<typeof parseRate>) {
    const clock = { ms: MINUTE };
    const ledger = SqliteLedger.open(':memory:', { now: () => 1_700_000_000 });
    const rateLimiter = new MemoryRateLimiter(() => clock.ms);
    const app = inProcessService({ ledger, rateLimiter, ...(defaultRate !== undefined ? { defaultRate } : {}) });
    opened.push(ledger, rateLimiter, app);
    return { clock, ledger, app };
  }

  it('answers 429 with Retry-After and the RateLimit headers, and charges nothing for it', async () => {
    const { clock, ledger, app } = await setup();
    const { key, record } = await ledger.create({ credits: 100, rate: parseRate('2/s,100/min') });
    const first = await send(app, 'GET', READ, { key });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"second";q=2;w=1, "minute";q=100;w=60');
    expect(first.headers.get('ratelimit')).toBe('"second";r=1;t=1, "minute";r=99;t=60');
    expect((await send(app, 'POST', '/v1/wallets/simulator', { key, body: SOL_REQUEST })).status).toBe(200);
    const over = await send(app, 'GET', READ, { key });
    expect(over.status).toBe(429);
    expect(over.json).toEqual({
      code: 'rate_limited',
      detail: 'this key may send 2/s,100/min; retry in 1 s (nothing was charged)',
    });
    expect(over.headers.get('retry-after')).toBe('1');
    expect(over.headers.get('ratelimit')).toBe('"second";r=0;t=1, "minute";r=98;t=60');
    // Before the input is looked at: a bad body of a key over its rate is a 429 too.
    expect((await send(app, 'POST', '/v1/wallets/simulator', { key, body: {} })).status).toBe(429);
    expect((await ledger.get(record.id))!.credits).toBe(100 - 1 - 10);
    clock.ms += 1000;
    expect((await send(app, 'GET', READ, { key })).status).toBe(200);
  });

  it('gives keys without their own rate the default, and none to a key set unlimited', async () => {
    const { app, ledger } = await setup(parseRate('1/min'));
    const plain = await ledger.create({ credits: 100 });
    const free = await ledger.create({ credits: 100, rate: UNLIMITED });
    expect((await send(app, 'GET', READ, { key: plain.key })).status).toBe(200);
    const over = await send(app, 'GET', READ, { key: plain.key });
    expect([over.status, over.headers.get('retry-after')]).toEqual([429, '60']);
    for (let i = 0; i < 5; i++) {
      const answer = await send(app, 'GET', READ, { key: free.key });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit')).toBeNull();
    }
  });

  it('limits no key without a default or a rate of its own, and the free routes never', async () => {
    const { app, ledger } = await setup();
    const { key } = await ledger.create({ credits: 100 });
    for (let i = 0; i < 20; i++) expect((await send(app, 'GET', READ, { key })).headers.get('ratelimit')).toBeNull();
    expect((await send(app, 'GET', '/health')).status).toBe(200);
  });
});
