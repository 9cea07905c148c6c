/**
 * Several `copysim serve` on one PostgreSQL ledger, as behind a load balancer: credits stay
 * exact across instances, an instance killed with SIGKILL loses no ledger row and doubles none
 * while its clients retry on the other with their Idempotency-Key, rate limits are shared through
 * Redis, and /health says when the database is gone. Each test starts its own servers (on
 * loopback, a Unix socket for Redis) and stops them by pid.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from './support/api.js';
import { ensureBuild, type Build } from './support/build.js';
import { call, type Answer } from './support/http.js';
import { HAS_POSTGRES, postgresCluster, testLedger, usePostgres } from './support/ledgers.js';
import { ledgerWorkspace, serve, type ServeProcess, type Workspace } from './support/serve.js';
import { SOL_REQUEST } from './support/tapes.js';

const SIM = '/v1/wallets/simulator';
const HAS_REDIS = spawnSync('redis-server', ['--version']).status === 0;
const ON_CI = (process.env.CI ?? '') !== '' && process.env.CI !== 'false';
if (!HAS_REDIS && ON_CI) throw new Error('redis-server is not installed, and CI is set: .ci/run installs it');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

usePostgres();

describe.skipIf(!HAS_POSTGRES)('two instances on one PostgreSQL ledger', () => {
  let build: Build;
  let ws: Workspace;
  let ledger: Ledger;
  const servers: ServeProcess[] = [];

  async function start(extra: readonly string[] = []): Promise<ServeProcess> {
    const server = await serve(build, ws, extra);
    servers.push(server);
    return server;
  }

  beforeAll(async () => {
    build = await ensureBuild();
    ws = await ledgerWorkspace('postgres');
    ledger = await testLedger(ws.db);
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.kill()));
    await ledger?.close();
    ws?.remove();
  });

  it('200 concurrent simulations spread over both, 370 credits: exactly 37 answer 200', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    const { key, record } = await ledger.create({ credits: 370 });
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => call((i % 2 === 0 ? a : b).url, 'POST', SIM, { key, body: SOL_REQUEST })),
    );
    const ok = answers.filter((x) => x.status === 200);
    expect(ok).toHaveLength(37);
    const refused = answers.filter((x) => x.status !== 200);
    expect(refused).toHaveLength(163);
    expect(refused.every((x) => x.status === 403 && x.json.code === 'insufficient_credits')).toBe(true);
    // The remaining of the 37 count down without a gap, whichever instance answered.
    const remaining = ok.map((x) => Number(x.headers.get('x-credits-remaining'))).sort((x, y) => y - x);
    expect(remaining).toEqual(Array.from({ length: 37 }, (_, i) => 360 - 10 * i));
    const charges = (await ledger.ledger(record.id)).filter((r) => r.kind === 'charge');
    expect(charges).toHaveLength(37);
    expect((await ledger.get(record.id))!.credits).toBe(0);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('SIGKILL of one mid-load: clients retrying on the other with their key get one answer, one charge', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    const initial = 1_000_000;
    const { key, record } = await ledger.create({ credits: initial });
    const finals = new Map<string, Answer>();
    const retried = { connection: 0, conflict: 0, replayed: 0 };
    let answeredByA = 0;
    let killed: Promise<void> | undefined;

    // One client a request: first to its instance; on a dead connection, to the other; on a 409,
    // again after Retry-After. At most 60 s.
    const client = async (i: number): Promise<void> => {
      const id = `req-${i}`;
      let target = i % 2 === 0 ? a : b;
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        let answer: Answer;
        try {
          answer = await call(target.url, 'POST', SIM, { key, body: SOL_REQUEST, headers: { 'idempotency-key': id } });
        } catch {
          retried.connection++;
          target = b;
          continue;
        }
        // SIGKILL at A's 20th answer, at once: its other requests are still in flight.
        if (target === a && ++answeredByA === 20) killed = a.kill();
        if (answer.status === 409) {
          retried.conflict++;
          await sleep(Number(answer.headers.get('retry-after') ?? '1') * 1000);
          continue;
        }
        if (answer.headers.get('idempotent-replayed') === 'true') retried.replayed++;
        finals.set(id, answer);
        return;
      }
    };
    await Promise.all(Array.from({ length: 200 }, (_, i) => client(i)));
    await killed;

    expect(killed).toBeDefined();
    expect(retried.connection).toBeGreaterThan(0); // the kill cut requests in flight
    expect(finals.size).toBe(200);
    const failed = [...finals].filter(([, x]) => x.status !== 200).map(([id, x]) => `${id}: ${x.status} ${x.text}`);
    expect(failed).toEqual([]);
    const charges = (await ledger.ledger(record.id)).filter((r) => r.kind === 'charge');
    // One charge a request: none lost, none doubled, each under its own Idempotency-Key.
    expect(charges).toHaveLength(200);
    expect(new Set(charges.map((r) => r.idempotencyKey)).size).toBe(200);
    const byKey = new Map(charges.map((r) => [r.idempotencyKey, r.balanceAfter]));
    for (const [id, answer] of finals) {
      expect(Number(answer.headers.get('x-credits-remaining')), id).toBe(byKey.get(id));
    }
    const balance = (await ledger.get(record.id))!.credits;
    expect(balance).toBe(initial - 10 * 200);
    expect((await ledger.ledger(record.id)).reduce((sum, r) => sum + r.delta, 0)).toBe(balance);

    // The killed instance starts again on the same data and goes on counting.
    const again = await start();
    const retry = (id: string) =>
      call(again.url, 'POST', SIM, { key, body: SOL_REQUEST, headers: { 'idempotency-key': id } });
    const more = await retry('after');
    expect(more.headers.get('x-credits-remaining')).toBe(String(balance - 10));
    const replay = await retry('req-0');
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    await Promise.all([again.stop(), b.stop()]);
  }, 120_000);

  describe.skipIf(!HAS_REDIS)('rate limits shared through Redis', () => {
    let redis: ChildProcess | undefined;
    let redisUrl = '';

    beforeAll(async () => {
      const socket = join(ws.dir, 'redis.sock');
      redisUrl = `unix://${socket}`;
      const args = ['--port', '0', '--unixsocket', socket, '--save', '', '--appendonly', 'no'];
      redis = spawn('redis-server', args, { stdio: 'ignore' });
      const pong = () => spawnSync('redis-cli', ['-s', socket, 'ping'], { encoding: 'utf8' }).stdout.trim() === 'PONG';
      for (let waited = 0; !pong(); waited += 50) {
        if (waited > 10_000) throw new Error('redis-server did not answer in 10 s');
        await sleep(50);
      }
    });

    afterAll(async () => {
      if (redis?.pid !== undefined && redis.exitCode === null) {
        redis.kill('SIGTERM');
        await new Promise((r) => redis!.once('exit', r));
      }
    });

    it('a key of 5 a minute gets 5 answers from the two together, then 429s, charged nothing', async () => {
      const [a, b] = await Promise.all([start(['--redis', redisUrl]), start(['--redis', redisUrl])]);
      expect(a.output()).toContain('rate limits counted in Redis, shared by every server given it');
      const { key, record } = await ledger.create({ credits: 100, rate: { perSecond: null, perMinute: 5 } });
      // Not across a minute's end, where the count starts again.
      if (Date.now() % 60_000 > 50_000) await sleep(60_000 - (Date.now() % 60_000) + 100);
      const read = `/v1/wallets/Leader1111111111111111111111111111111111111/indicators?network=sol`;
      const answers: Answer[] = [];
      for (let i = 0; i < 12; i++) answers.push(await call((i % 2 === 0 ? a : b).url, 'GET', read, { key }));
      expect(answers.map((x) => x.status)).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
      const refused = answers[5]!;
      expect(refused.json.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get('ratelimit-policy')).toBe('"minute";q=5;w=60');
      expect(refused.headers.get('ratelimit')).toMatch(/^"minute";r=0;t=\d+$/);
      expect((await ledger.get(record.id))!.credits).toBe(95);
      const health = await call(a.url, 'GET', '/health');
      expect([health.status, health.json]).toEqual([
        200,
        { status: 'ok', database: 'ok', redis: 'ok', tapes: expect.any(Object) },
      ]);
      await Promise.all([a.stop(), b.stop()]);
    });
  });

  // Last: it stops the file's database server (and starts it again).
  it('/health and paid requests answer 503 while PostgreSQL is stopped, and recover', async () => {
    const server = await start();
    const { key } = await ledger.create({ credits: 100 });
    expect((await call(server.url, 'GET', '/health')).json).toEqual({
      status: 'ok',
      database: 'ok',
      tapes: expect.any(Object),
    });
    const cluster = await postgresCluster();
    await cluster.stop();
    try {
      const health = await call(server.url, 'GET', '/health');
      expect([health.status, health.json]).toEqual([
        503,
        { status: 'unavailable', database: 'unavailable', tapes: expect.any(Object) },
      ]);
      const paid = await call(server.url, 'POST', SIM, { key, body: SOL_REQUEST });
      const refusal = [paid.status, paid.json.code, paid.headers.get('retry-after')];
      expect(refusal).toEqual([503, 'database_unavailable', '1']);
    } finally {
      await cluster.start();
    }
    let health = await call(server.url, 'GET', '/health');
    for (let waited = 0; health.status !== 200 && waited < 10_000; waited += 100) {
      await sleep(100);
      health = await call(server.url, 'GET', '/health');
    }
    expect(health.json).toEqual({ status: 'ok', database: 'ok', tapes: expect.any(Object) });
    const paid = await call(server.url, 'POST', SIM, { key, body: SOL_REQUEST });
    expect([paid.status, paid.headers.get('x-credits-remaining')]).toEqual([200, '90']);
    await server.stop();
  });
});
