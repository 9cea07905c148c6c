/**
 * `serve --queue`: the simulator's work goes to `copysim worker` processes through Redis, and
 * every answer is the local threads' answer: the same status, the same body bytes, the same
 * credits charged and warnings. The test starts its own redis-server (on a Unix socket), a worker
 * and two services, and stops them by pid.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_NAME } from '../../src/distributed/job.js';
import { checkRedis, redisOptions } from '../../src/distributed/redis.js';
import { ensureBuild, type Build } from './support/build.js';
import { call, type Answer } from './support/http.js';
import { testLedger } from './support/ledgers.js';
import { serve, workspace, type ServeProcess, type Workspace } from './support/serve.js';
import { ETH_LEADER, SOL_LEADER, SOL_REQUEST } from './support/tapes.js';

const SIM = '/v1/wallets/simulator';
const HAS_REDIS = spawnSync('redis-server', ['--version']).status === 0;
const ON_CI = (process.env.CI ?? '') !== '' && process.env.CI !== 'false';
if (!HAS_REDIS && ON_CI) throw new Error('redis-server is not installed, and CI is set: .ci/run installs it');

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function until(what: string, test: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Requests of every outcome: answers of both networks, a warning, 400s of the route and of the engine. */
const REQUESTS: readonly unknown[] = [
  SOL_REQUEST,
  { ...SOL_REQUEST, max_buy_amount: 5, buy_percentage: 50 },
  { ...SOL_REQUEST, to_date: '2024-03-12' },
  { ...SOL_REQUEST, from_date: '2024-03-11', to_date: '2024-03-10' },
  { ...SOL_REQUEST, wallets: [SOL_LEADER, 'Nobody1111111111111111111111111111111111111'] },
  { ...SOL_REQUEST, network: 'eth', wallets: [ETH_LEADER] },
  { ...SOL_REQUEST, buy_percentage: 0 },
  { ...SOL_REQUEST, wallets: [] },
];

describe.skipIf(!HAS_REDIS)('serve --queue: simulations on copysim worker processes', () => {
  let build: Build;
  let ws: Workspace;
  let redis: ChildProcess | undefined;
  let worker: ChildProcess | undefined;
  let workerLog = '';
  const servers: ServeProcess[] = [];
  let key = '';
  let queueUrl = '';

  beforeAll(async () => {
    build = await ensureBuild();
    ws = workspace();
    const socket = join(ws.dir, 'redis.sock');
    const url = `unix://${socket}`;
    queueUrl = url;
    redis = spawn('redis-server', ['--port', '0', '--unixsocket', socket, '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await until('redis-server answers', () =>
      checkRedis(url, 500).then(
        () => true,
        () => false,
      ),
    );
    worker = spawn(process.execPath, [build.main, 'worker', '--queue', url, '--threads', '1'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      worker!.stderr!.on('data', (d: Buffer) => {
        workerLog += d.toString();
        if (workerLog.includes('waiting for jobs')) resolve();
      });
      worker!.once('exit', (code) =>
        reject(new Error(`the worker exited (${code}) before it was ready:\n${workerLog}`)),
      );
    });
    // One key database for both services: each request is charged on it once.
    const ledger = await testLedger(ws.db);
    key = (await ledger.create({ credits: 1_000_000 })).key;
    await ledger.close();
    servers.push(await serve(build, ws), await serve(build, ws, ['--queue', url]));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.kill()));
    for (const child of [worker, redis]) {
      if (child?.pid === undefined) continue;
      child.kill('SIGTERM');
      await exited(child);
    }
    ws?.remove();
  });

  it('names the queue at start instead of a count of threads', () => {
    expect(servers[1]!.output()).toMatch(/simulations on the work queue unix:\/\/\S+redis\.sock\n/);
    expect(servers[0]!.output()).toContain('1 simulation worker(s)');
  });

  it('GET /health says whether the queue answers, with the queue only', async () => {
    const [local, queued] = servers as [ServeProcess, ServeProcess];
    expect((await call(queued.url, 'GET', '/health')).json).toMatchObject({
      status: 'ok',
      database: 'ok',
      queue: 'ok',
    });
    expect((await call(local.url, 'GET', '/health')).json).not.toHaveProperty('queue');
  });

  it('every request: the same status, body bytes, credits spent and warnings as local threads', async () => {
    const [local, queued] = servers as [ServeProcess, ServeProcess];
    const seen = (a: Answer) => ({
      status: a.status,
      text: a.text,
      spent: a.headers.get('x-credits-spent'),
      warnings: a.headers.get('x-copysim-warnings'),
      type: a.headers.get('content-type'),
    });
    const statuses: number[] = [];
    for (const body of REQUESTS) {
      const here = await call(local.url, 'POST', SIM, { key, body });
      const there = await call(queued.url, 'POST', SIM, { key, body });
      expect(seen(there)).toEqual(seen(here));
      statuses.push(here.status);
    }
    expect(statuses).toContain(200);
    expect(statuses).toContain(400);
    // Concurrent requests on the queue: each its own answer.
    const answers = await Promise.all(REQUESTS.map((body) => call(queued.url, 'POST', SIM, { key, body })));
    expect(answers.map((a) => a.status)).toEqual(statuses);
    expect(workerLog).not.toContain('failed');
  }, 60_000);

  it('with no worker on the queue: 503 queue_timeout after --queue-timeout, charged nothing, hold let go', async () => {
    // Database 1 of the Redis: a queue no worker listens to.
    const idle = await serve(build, ws, ['--queue', `${queueUrl}?db=1`, '--queue-timeout', '1']);
    servers.push(idle);
    const ledger = await testLedger(ws.db);
    const { key: tenCredits, record } = await ledger.create({ credits: 10 });
    for (let i = 0; i < 2; i++) {
      const started = Date.now();
      const answer = await call(idle.url, 'POST', SIM, { key: tenCredits, body: SOL_REQUEST });
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      // The second is no 403 insufficient_credits: the first one's hold was let go.
      expect([answer.status, answer.json.code, answer.headers.get('retry-after')]).toEqual([503, 'queue_timeout', '1']);
      expect(answer.json.detail).toContain('no queue worker finished the simulation within 1 s');
    }
    expect((await ledger.get(record.id))!.credits).toBe(10);
    expect((await ledger.ledger(record.id)).map((r) => r.kind)).toEqual(['grant']);
    await ledger.close();
    // The jobs were taken off the queue: a worker that connects later does not run them.
    const { Queue } = await import('bullmq');
    const queue = new Queue(QUEUE_NAME, { connection: redisOptions(`${queueUrl}?db=1`) });
    expect(await queue.getJobCounts('waiting', 'active', 'delayed')).toEqual({ waiting: 0, active: 0, delayed: 0 });
    await queue.close();
  }, 30_000);
});
