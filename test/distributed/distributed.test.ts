/**
 * Sweeps spread over worker processes through BullMQ on Redis: the producer's lines are the
 * local sweep's, byte for byte (400 bodies included), with any number of workers, and still
 * when a worker is killed in the middle of the run; a tape that differs on a worker, or is
 * missing there, fails the run with a message naming it; an unreachable Redis is one line.
 *
 * Each test starts its processes from dist/ (npm test builds it) against a redis-server of its
 * own, on a Unix socket in a temporary folder, stopped by its pid afterwards.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REPLAY_NODE_FLAGS } from '../../src/cli/node-flags.js';
import { checkRedis, redisOptions, shownUrl } from '../../src/distributed/redis.js';
import { defaultChunkSize } from '../../src/distributed/producer.js';
import { fileSha256 } from '../../src/distributed/tape-hash.js';
import { loadIORedis } from '../../src/distributed/dependencies.js';
import { convertTapeFile } from '../../src/io/convert-tape.js';
import { requestVariants, TapeGenerator } from '../../bench/tape-generator.js';
import { PROJECT_ROOT } from '../support/paths.js';
import { writeForeignParquet } from '../support/foreign-parquet.js';

const CLI = join(PROJECT_ROOT, 'dist', 'src', 'cli', 'main.js');
const hasRedis = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0;
if (!hasRedis) {
  process.stderr.write(
    'test/distributed/distributed.test.ts: skipped: redis-server is not installed (apt-get install redis-server; .ci/run installs it)\n',
  );
}

const dir = mkdtempSync(join(tmpdir(), 'copysim-queue-'));
const socket = join(dir, 'redis.sock');
const url = `unix://${socket}`;
let redis: ChildProcess | undefined;
const children = new Set<ChildProcess>();

// A small seeded tape in the benchmark's shape, and requests: variants, a 400 of each kind and a
// line that is not JSON.
const generator = new TapeGenerator({ swaps: 6_000, leaders: 8, tokens: 25, marketWallets: 50, days: 3, seed: 5 });
const tapeText = JSON.stringify({ ...generator.header, swaps: [...generator.swaps()] });
const base = generator.request();
const lines = requestVariants(base, 30, 3).map((r) => JSON.stringify(r));
// Two with the copier's wallet (model 3.0): their lines carry "copier".
const wallets = [
  { starting_balance_usd: 400, max_open_deals: 3 },
  { slippage_tolerance_percent: 2, failed_transaction_percent: 10, retries: 1, sandwich_percent: 50, random_seed: 3 },
];
wallets.forEach((wallet, k) => {
  const request = JSON.parse(lines[2 + 3 * k]!) as { strategy?: object | null };
  lines[2 + 3 * k] = JSON.stringify({ ...request, strategy: { ...request.strategy, ...wallet } });
});
lines.splice(4, 0, JSON.stringify({ ...base, buy_percentage: 0 }));
lines.splice(9, 0, JSON.stringify({ ...base, from_date: '2024-03-09', to_date: '2024-03-01' }));
lines.splice(12, 0, '{"wallets": [');
const requestsFile = join(dir, 'requests.jsonl');
writeFileSync(requestsFile, `${lines.join('\n')}\n`);
const rankRequestFile = join(dir, 'rank-request.json');
writeFileSync(rankRequestFile, JSON.stringify(base));

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Runs the command line in a child process to its end. */
function run(args: readonly string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [...REPLAY_NODE_FLAGS, CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return exited(child).then((code) => {
    children.delete(child);
    return { code, out, err };
  });
}

/** Starts `copysim worker` and waits until it says it is waiting for jobs. */
async function startWorker(extra: readonly string[] = []): Promise<{ child: ChildProcess; log: () => string }> {
  const child = spawn(
    process.execPath,
    [...REPLAY_NODE_FLAGS, CLI, 'worker', '--queue', url, '--threads', '1', '--lock-seconds', '2', ...extra],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  children.add(child);
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      log += d.toString();
      if (log.includes('waiting for jobs')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before it was ready:\n${log}`)));
  });
  return { child, log: () => log };
}

async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  await exited(child);
  children.delete(child);
}

/** A Redis client of the test's own, to watch the queue. */
function client(): InstanceType<ReturnType<typeof loadIORedis>> {
  const Redis = loadIORedis();
  return new Redis({ path: socket, maxRetriesPerRequest: 1 });
}

async function until(what: string, test: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The test tape at `name` in the temporary folder: JSON, or Parquet for a name ending in .parquet. */
function tapeFile(name: string): string {
  const path = join(dir, name);
  if (name.endsWith('.parquet')) convertTapeFile(tapeFile(`${name}.json`), path);
  else writeFileSync(path, tapeText);
  return path;
}

/** A port on the loopback with nothing listening. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe.skipIf(!hasRedis)('sweeps on the queue (BullMQ over Redis)', () => {
  let local: { code: number | null; out: string; err: string };
  const tape = tapeFile('tape.json');

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('dist/src/cli/main.js is missing: run "npm run build" first (npm test does)');
    redis = spawn('redis-server', ['--port', '0', '--unixsocket', socket, '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await until('redis-server answers', async () => {
      try {
        await checkRedis(url, 500);
        return true;
      } catch {
        return false;
      }
    });
    local = await run([
      'sweep',
      '--tape',
      tape,
      '--requests',
      requestsFile,
      '--workers',
      '1',
      '--full',
      join(dir, 'full-local'),
    ]);
    expect(local.err).toBe('');
    expect(local.code).toBe(0);
    expect(local.out.split('\n').filter(Boolean)).toHaveLength(33);
    expect(local.out.split('\n').filter((l) => l.includes('"copier":'))).toHaveLength(2);
  }, 60_000);

  beforeEach(async () => {
    const redisClient = client();
    await redisClient.flushall();
    redisClient.disconnect();
  });

  afterEach(async () => {
    await Promise.all([...children].map((c) => stop(c, 'SIGKILL')));
  });

  afterAll(async () => {
    if (redis?.pid !== undefined) {
      redis.kill('SIGTERM');
      await exited(redis);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('two workers give the local sweep’s lines byte for byte, 400 bodies and --full files included', async () => {
    const workers = await Promise.all([startWorker(), startWorker()]);
    const distributed = await run([
      'sweep',
      '--tape',
      tape,
      '--requests',
      requestsFile,
      '--queue',
      url,
      '--chunk',
      '3',
      '--full',
      join(dir, 'full-queue'),
    ]);
    expect(distributed.err).toBe('');
    expect(distributed.code).toBe(0);
    expect(distributed.out).toBe(local.out);
    const files = readdirSync(join(dir, 'full-local')).sort();
    expect(readdirSync(join(dir, 'full-queue')).sort()).toEqual(files);
    for (const f of files)
      expect(readFileSync(join(dir, 'full-queue', f), 'utf8'), f).toBe(
        readFileSync(join(dir, 'full-local', f), 'utf8'),
      );
    // Both workers took jobs, and the producer took its jobs off the queue.
    for (const w of workers) expect(w.log()).not.toContain('failed');
    const redisClient = client();
    expect(
      (await redisClient.keys('bull:copysim:*')).filter((k) => /^bull:copysim:[0-9a-f]{8}-[0-9a-f]{4}-/.test(k)),
    ).toEqual([]);
    redisClient.disconnect();
    await Promise.all(workers.map((w) => stop(w.child)));
  }, 30_000);

  it('a rank on two workers prints the local rank, plain and out of sample, in every format', async () => {
    const workers = await Promise.all([startWorker(), startWorker()]);
    const cases = [
      ['--format', 'jsonl'],
      ['--format', 'csv', '--sort-by', 'roi_total', '--min-deals', '1'],
      ['--split', '2024-03-02', '--top', '3', '--format', 'jsonl'],
      // every copier starting with 500 USD: the balance travels with the request to the workers
      ['--balance', '500', '--split', '2024-03-02', '--top', '3', '--format', 'jsonl'],
    ];
    for (const extra of cases) {
      const args = ['rank', '--tape', tape, '--request', rankRequestFile, ...extra];
      const [alone, spread] = [await run(args), await run([...args, '--queue', url, '--chunk', '7'])];
      expect(alone.code, alone.err).toBe(0);
      expect(alone.out.split('\n').length).toBeGreaterThan(3);
      expect(spread.code, spread.err).toBe(0);
      expect(spread.out).toBe(alone.out);
      expect(spread.err).toBe(alone.err);
    }
    for (const w of workers) expect(w.log()).not.toContain('failed');
    await Promise.all(workers.map((w) => stop(w.child)));
  }, 120_000);

  it('a worker killed mid-run: another takes its job over, the lines are still complete and identical', async () => {
    const first = await startWorker();
    const producer = run(['sweep', '--tape', tape, '--requests', requestsFile, '--queue', url, '--chunk', '1']);
    const watch = client();
    // Kill the worker while it holds a job, after it has finished some.
    await until(
      'the worker has finished jobs and holds another',
      async () => (await watch.zcard('bull:copysim:completed')) >= 3 && (await watch.llen('bull:copysim:active')) > 0,
    );
    await stop(first.child, 'SIGKILL');
    const completedAtKill = await watch.zcard('bull:copysim:completed');
    const second = await startWorker();
    const distributed = await producer;
    expect(distributed.err).toBe('');
    expect(distributed.code).toBe(0);
    expect(distributed.out).toBe(local.out);
    expect(completedAtKill).toBeLessThan(30);
    expect(second.log()).not.toContain('failed');
    watch.disconnect();
    await stop(second.child);
  }, 30_000);

  it.each(['changed.json', 'changed.parquet'])(
    'a tape that differs on the worker (%s) fails the run, naming the path and both hashes',
    async (name) => {
      const path = tapeFile(name);
      const expected = await fileSha256(path);
      const producer = run(['sweep', '--tape', path, '--requests', requestsFile, '--queue', url]);
      const watch = client();
      await until('the jobs are queued', async () => (await watch.llen('bull:copysim:wait')) > 0);
      watch.disconnect();
      appendFileSync(path, '\n');
      const actual = await fileSha256(path);
      const worker = await startWorker();
      const result = await producer;
      expect(result.code).toBe(1);
      const message =
        `the job's tape ${path} has SHA-256 ${actual} on this worker ` +
        `(${(await import('node:os')).hostname()}) but the job expects ${expected}: the worker's file is not the producer's`;
      expect(result.err).toMatch(
        /^copysim sweep: no worker is connected to .* yet: the \d+ jobs wait for one \(copysim worker --queue URL\)\n/,
      );
      expect(result.err.split('\n').at(-2)).toBe(`copysim sweep: job 1 of 30 failed: ${message}`);
      expect(worker.log()).toContain(message);
      // The worker lives on, ready for the next run.
      expect(worker.child.exitCode).toBeNull();
      await stop(worker.child);
    },
    30_000,
  );

  it('a Parquet tape: sweep and rank on two workers print what they print locally on its JSON form', async () => {
    const parquet = tapeFile('tape.parquet');
    const workers = await Promise.all([startWorker(), startWorker()]);
    const sweep = await run(['sweep', '--tape', parquet, '--requests', requestsFile, '--queue', url, '--chunk', '3']);
    expect(sweep.err).toBe('');
    expect(sweep.code).toBe(0);
    expect(sweep.out).toBe(local.out);
    const rank = ['rank', '--request', rankRequestFile, '--format', 'jsonl'];
    const [alone, spread] = [
      await run([...rank, '--tape', tape]),
      await run([...rank, '--tape', parquet, '--queue', url, '--chunk', '7']),
    ];
    expect(alone.code, alone.err).toBe(0);
    expect(alone.out.split('\n').length).toBeGreaterThan(3);
    expect(spread.code, spread.err).toBe(0);
    expect(spread.out).toBe(alone.out);
    for (const w of workers) expect(w.log()).not.toContain('failed');
    await Promise.all(workers.map((w) => stop(w.child)));
  }, 120_000);

  it('a Parquet tape another program wrote: the header flags reach the workers', async () => {
    const file = join(dir, 'foreign.parquet');
    const flags = writeForeignParquet(tape, file);
    const workers = await Promise.all([startWorker(), startWorker()]);
    const sweep = await run(['sweep', '--tape', file, ...flags, '--requests', requestsFile, '--queue', url]);
    expect(sweep.err).toBe('');
    expect(sweep.out).toBe(local.out);
    const rank = ['rank', '--request', rankRequestFile, '--format', 'jsonl'];
    const [alone, spread] = [
      await run([...rank, '--tape', tape]),
      await run([...rank, '--tape', file, ...flags, '--queue', url, '--chunk', '7']),
    ];
    expect(spread.code, spread.err).toBe(0);
    expect(spread.out).toBe(alone.out);
    for (const w of workers) expect(w.log()).not.toContain('failed');
    await Promise.all(workers.map((w) => stop(w.child)));
  }, 120_000);

  it('a tape missing on the worker fails the run with the path', async () => {
    const path = tapeFile('missing.json');
    const producer = run(['sweep', '--tape', path, '--requests', requestsFile, '--queue', url]);
    const watch = client();
    await until('the jobs are queued', async () => (await watch.llen('bull:copysim:wait')) > 0);
    watch.disconnect();
    unlinkSync(path);
    const worker = await startWorker();
    const result = await producer;
    expect(result.code).toBe(1);
    expect(result.err.split('\n').at(-2)).toMatch(
      new RegExp(
        `^copysim sweep: job 1 of 30 failed: the job's tape ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be read on this worker \\(.*\\): no such file; the producer and every worker must see the tape at the same path \\(shared storage\\)$`,
      ),
    );
    await stop(worker.child);
  }, 30_000);

  it('a request for another network answers its own line, as the local sweep does', async () => {
    const file = join(dir, 'other-network.jsonl');
    writeFileSync(
      file,
      `${lines.slice(0, 6).join('\n')}\n${JSON.stringify({ ...base, network: 'eth' })}\n${lines[6]}\n`,
    );
    const localRun = await run(['sweep', '--tape', tape, '--requests', file, '--workers', '1']);
    const worker = await startWorker();
    const distributed = await run(['sweep', '--tape', tape, '--requests', file, '--queue', url]);
    expect([localRun.code, distributed.code]).toEqual([0, 0]);
    expect(distributed.out).toBe(localRun.out);
    const out = distributed.out
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { index: number; error?: { detail: Array<{ path: string }> } });
    expect(out).toHaveLength(8);
    expect(out.map((o) => 'error' in o)).toEqual([false, false, false, false, true, false, true, false]); // line 4: buy_percentage 0
    expect(out[6]!.error!.detail[0]!.path).toBe('network');
    await stop(worker.child);
  }, 30_000);

  it('an unreachable Redis is one line naming the URL, exit 1, for the producer and the worker', async () => {
    const port = await closedPort();
    const down = `redis://127.0.0.1:${port}`;
    const [producer, worker, socketGone] = await Promise.all([
      run(['sweep', '--tape', tape, '--requests', requestsFile, '--queue', down]),
      run(['worker', '--queue', down]),
      run(['worker', '--queue', `unix://${join(dir, 'none.sock')}`]),
    ]);
    expect(producer).toEqual({
      code: 1,
      out: '',
      err: `copysim sweep: cannot reach Redis at ${down}: connect ECONNREFUSED 127.0.0.1:${port}\n`,
    });
    expect(worker).toEqual({
      code: 1,
      out: '',
      err: `copysim worker: cannot reach Redis at ${down}: connect ECONNREFUSED 127.0.0.1:${port}\n`,
    });
    expect(socketGone.code).toBe(1);
    expect(socketGone.err).toBe(
      `copysim worker: cannot reach Redis at unix://${join(dir, 'none.sock')}: connect ENOENT ${join(dir, 'none.sock')}\n`,
    );
  }, 30_000);
});

describe('the queue flags', () => {
  it('sweep refuses --workers with --queue, and --chunk without it', () => {
    mkdirSync(dir, { recursive: true });
    const both = spawnSync(
      process.execPath,
      [
        ...REPLAY_NODE_FLAGS,
        CLI,
        'sweep',
        '--tape',
        'x',
        '--requests',
        requestsFile,
        '--queue',
        'redis://h:1',
        '--workers',
        '2',
      ],
      {
        encoding: 'utf8',
      },
    );
    expect(both.status).toBe(1);
    expect(both.stderr.split('\n')[0]).toBe(
      'copysim sweep: --workers and --queue do not go together: the workers of a queue set their own threads',
    );
    const chunk = spawnSync(
      process.execPath,
      [...REPLAY_NODE_FLAGS, CLI, 'sweep', '--tape', 'x', '--requests', requestsFile, '--chunk', '2'],
      { encoding: 'utf8' },
    );
    expect(chunk.stderr.split('\n')[0]).toBe('copysim sweep: --chunk needs --queue');
  });
});

describe('queue URLs and chunks', () => {
  it('reads redis://, rediss:// and Unix socket URLs, and masks a password in messages', () => {
    expect(redisOptions('redis://queue-host:6380/2')).toEqual({ host: 'queue-host', port: 6380, db: 2 });
    expect(redisOptions('redis://queue-host')).toEqual({ host: 'queue-host', port: 6379 });
    expect(redisOptions('rediss://user:s%40cret@[::1]:6390')).toEqual({
      host: '::1',
      port: 6390,
      username: 'user',
      password: 's@cret',
      tls: {},
    });
    expect(redisOptions('unix:///run/redis/redis.sock?db=1')).toEqual({ path: '/run/redis/redis.sock', db: 1 });
    expect(shownUrl('redis://user:secret@h:1')).toBe('redis://user:***@h:1');
    expect(shownUrl('redis://h:1')).toBe('redis://h:1');
    expect(() => redisOptions('http://h:1')).toThrow(
      'the `queue` URL "http://h:1" is not a Redis URL (scheme "http:"): give redis://HOST:PORT, rediss://HOST:PORT or unix:///PATH',
    );
    expect(() => redisOptions('redis://h:1/x')).toThrow('database "x" is not a whole number');
  });

  it('makes about a hundred jobs, at most 100 inputs each', () => {
    expect([1, 30, 100, 101, 1_000, 20_000, 1_000_000].map(defaultChunkSize)).toEqual([1, 1, 1, 2, 10, 100, 100]);
  });
});
