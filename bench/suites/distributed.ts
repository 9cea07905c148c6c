import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { cliNodeFlags, measure, measureAsync, type Measurement } from '../measure.js';
import { row, type Row } from './row.js';

/** Rounds of the suite's alternating runs. */
const ROUNDS = 3;

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
      .on('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((r) => child.once('exit', () => r()));
}

/** Clock ticks a second, the unit of /proc/PID/stat's CPU times. */
const TICKS = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;

/**
 * CPU seconds a process has used, its own threads and V8's (collector, compiler) together, from
 * /proc (null where there is none).
 */
function cpuSeconds(pid: number | undefined): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (in parentheses, which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return null;
  }
}

/** Waits until `child` prints `text` on standard error. */
function ready(child: ChildProcess, text: string, what: string): Promise<void> {
  let log = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      log += d.toString();
      if (log.includes(text)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before it was ready:\n${log}`)));
  });
}

/** How the suite starts its `copysim worker` processes. */
export type WorkerStart =
  /** Afresh for each run: the run pays for their hashing, reading and indexing the tape, and for their warm-up. */
  | 'fresh'
  /**
   * Once, each set (one worker, two workers) on a Redis database of its own, then serving one
   * run untimed: as workers that stay up between runs, holding the tape and with their code
   * optimized, so a run pays only for what each run needs (the producer's start, its hash,
   * the queue).
   */
  | 'kept';

export interface DistributedOptions {
  /** The speed-up's target (none: no target, as with --quick). */
  readonly atLeast?: number;
  /** The suite's name in the table (default `distributed`). */
  readonly suite?: string;
  /** How the workers start: a set of rows for each (default: `fresh` only). */
  readonly starts?: readonly WorkerStart[];
  /** Requests for {@link machineCeiling}; none: no such row. */
  readonly control?: { readonly file: string; readonly count: number };
  /** Requests that take no time on the tape, for {@link fixedCostRows}; none: no such rows. */
  readonly fixedCost?: { readonly file: string; readonly atMost?: number };
}

/**
 * `copysim sweep --queue` (the producer) with one and with two `copysim worker --threads 1`
 * processes on this machine, through a redis-server of the suite's own on a loopback port: the
 * producer's wall time, from its start (reading the requests, hashing the tape, queueing) to its
 * last line. By default each run gets workers started afresh and waiting, so each reads and
 * indexes the tape inside the time measured, as a local sweep does; {@link WorkerStart} `kept`
 * measures workers that stay up. The runs with one and two workers alternate ({@link ROUNDS}
 * rounds); the speed-up is the median of the pairs' ratios, each pair a run with two workers
 * and one with one just after it: on a machine whose other users come and go, one pair alone
 * can be far off either way.
 */
export async function distributedSuite(
  tape: string,
  requests: { readonly file: string; readonly count: number },
  swaps: number,
  options: DistributedOptions = {},
): Promise<Row[]> {
  const redis = await startRedis();
  const suite = options.suite ?? 'distributed';
  try {
    const rows: Row[] = [];
    if (options.fixedCost !== undefined) rows.push(...(await fixedCostRows(suite, redis.url, tape, options.fixedCost)));
    if (options.control !== undefined) rows.push(await machineCeiling(suite, tape, options.control, swaps));
    const over = `${requests.count.toLocaleString('en-US')} requests over ${swaps.toLocaleString('en-US')} swaps`;
    for (const start of options.starts ?? ['fresh']) {
      rows.push(...(await speedUpRows(suite, redis.url, tape, requests.file, over, start, options.atLeast)));
    }
    return rows;
  } finally {
    await redis.stop();
  }
}

/** A redis-server of the suite's own on a free loopback port, without persistence. */
async function startRedis(): Promise<{ readonly url: string; stop(): Promise<void> }> {
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    throw new Error('the distributed suite needs redis-server (apt-get install redis-server)');
  }
  const port = await freePort();
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const stop = async (): Promise<void> => {
    redis.kill('SIGTERM');
    await exited(redis);
  };
  try {
    await new Promise<void>((resolve, reject) => {
      let log = '';
      redis.stdout!.on('data', (d: Buffer) => {
        log += d.toString();
        if (log.includes('Ready to accept connections')) resolve();
      });
      redis.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${log}`)));
    });
  } catch (e) {
    await stop();
    throw e;
  }
  return { url: `redis://127.0.0.1:${port}`, stop };
}

/** `count` `copysim worker --threads 1` processes on `url`, once each says it waits for jobs. */
async function startWorkers(url: string, count: number): Promise<ChildProcess[]> {
  const started = Array.from({ length: count }, () =>
    spawn(process.execPath, [...cliNodeFlags(), CLI, 'worker', '--queue', url, '--threads', '1'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    }),
  );
  try {
    await Promise.all(started.map((w) => ready(w, 'waiting for jobs', 'copysim worker')));
  } catch (e) {
    await stopWorkers(started, 'SIGKILL');
    throw e;
  }
  return started;
}

async function stopWorkers(workers: readonly ChildProcess[], signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  await Promise.all(
    workers.map((w) => {
      if (w.exitCode === null && w.signalCode === null) w.kill(signal);
      return exited(w);
    }),
  );
}

/** The producer, `copysim sweep --queue`, measured; throws when it fails. */
function timeProducer(url: string, tape: string, file: string): Measurement {
  const m = measure(['cli', 'sweep', '--tape', tape, '--requests', file, '--queue', url]);
  if (m.exitCode !== 0) throw new Error(`copysim sweep --queue exited with code ${m.exitCode}`);
  return m;
}

/** The speed-up of two worker processes against one, with their cores busy and the best wall times. */
async function speedUpRows(
  suite: string,
  url: string,
  tape: string,
  file: string,
  over: string,
  start: WorkerStart,
  atLeast: number | undefined,
): Promise<Row[]> {
  /** With `kept`: each set of workers, started on the first run it is asked for. */
  const kept = new Map<number, { readonly url: string; readonly workers: ChildProcess[] }>();
  /** Every worker process not stopped yet: what an error stops. */
  const live = new Set<ChildProcess>();
  /** Cores the worker processes kept busy, a run each. */
  const busy: { readonly count: number; readonly cores: number }[] = [];
  const workersFor = async (count: number): Promise<{ readonly url: string; readonly workers: ChildProcess[] }> => {
    const known = kept.get(count);
    if (known !== undefined) return known;
    // A kept set has a database of its own (`count`): the idle set takes no job of the other's runs.
    const setUrl = start === 'kept' ? `${url}/${count}` : url;
    const set = { url: setUrl, workers: await startWorkers(setUrl, count) };
    for (const w of set.workers) live.add(w);
    if (start === 'kept') {
      timeProducer(set.url, tape, file); // the run that leaves them holding the tape, warmed up
      kept.set(count, set);
    }
    return set;
  };
  const time = async (count: number): Promise<Measurement> => {
    const set = await workersFor(count);
    const before = set.workers.map((w) => cpuSeconds(w.pid));
    const m = timeProducer(set.url, tape, file);
    const used = set.workers.map((w, k) => {
      const [begin, end] = [before[k], cpuSeconds(w.pid)];
      return begin === null || begin === undefined || end === null ? null : end - begin;
    });
    if (used.every((u) => u !== null))
      busy.push({ count, cores: used.reduce((a, b) => a + b!, 0) / (m.wallMs / 1000) });
    if (start === 'fresh') {
      await stopWorkers(set.workers);
      for (const w of set.workers) live.delete(w);
    }
    return m;
  };
  try {
    const pairs: { readonly two: Measurement; readonly one: Measurement }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const two = await time(2);
      pairs.push({ two, one: await time(1) });
    }
    await stopWorkers([...live]);
    return speedUpTable(suite, over, start, pairs, busy, atLeast);
  } finally {
    await stopWorkers([...live], 'SIGKILL');
  }
}

/** The rows of {@link speedUpRows}. */
function speedUpTable(
  suite: string,
  over: string,
  start: WorkerStart,
  pairs: readonly { readonly two: Measurement; readonly one: Measurement }[],
  busy: readonly { readonly count: number; readonly cores: number }[],
  atLeast: number | undefined,
): Row[] {
  const ratios = pairs.map(({ two, one }) => one.wallMs / two.wallMs);
  const seconds = (ms: number): string => (ms / 1000).toFixed(1);
  const best = (pick: (p: (typeof pairs)[number]) => Measurement): number =>
    Math.min(...pairs.map((p) => pick(p).wallMs));
  const processes = start === 'kept' ? 'processes kept up' : 'processes';
  const how =
    start === 'kept'
      ? 'workers started once, each set serving one run untimed first (tape held, code warm)'
      : 'workers started afresh for each run (it pays for their reading the tape and warming up)';
  const turns = pairs
    .map(({ two, one }, k) => `${ratios[k]!.toFixed(2)}×: ${seconds(one.wallMs)} s against ${seconds(two.wallMs)} s`)
    .join('; ');
  const alone = busy.filter((b) => b.count === 1).map((b) => b.cores);
  const pairBusy = busy.filter((b) => b.count === 2).map((b) => b.cores);
  const cores =
    alone.length === 0
      ? []
      : [
          row(suite, `cores busy, 1 worker ${processes.replace('processes', 'process')}`, median(alone), 'cores', {
            note: `CPU time of the worker process (its replay thread and V8's collector and compiler threads) over the producer's wall time, median of ${alone.length} (${alone.map((c) => c.toFixed(2)).join(', ')}); 2 worker processes: ${pairBusy.map((c) => c.toFixed(2)).join(', ')} cores. With ${availableParallelism()} cores, 2 processes can gain at most ${availableParallelism()} / ${median(alone).toFixed(2)} = ${(availableParallelism() / median(alone)).toFixed(2)}× over one`,
          }),
        ];
  return [
    ...cores,
    row(suite, `wall time, 1 worker ${processes.replace('processes', 'process')}`, best((p) => p.one) / 1000, 's', {
      note: `${over}, copysim worker --threads 1, best of ${ROUNDS}`,
    }),
    row(suite, `wall time, 2 worker ${processes}`, best((p) => p.two) / 1000, 's', {
      note: `${over}, 2 × copysim worker --threads 1, best of ${ROUNDS}`,
    }),
    row(suite, `speed-up, 2 worker ${processes}`, median(ratios), '×', {
      ...(atLeast !== undefined ? { atLeast } : {}),
      note:
        `2 worker processes against 1 on this machine, ${how}; producer wall time, median of ${ROUNDS} pairs` +
        ` run in turns (${turns})`,
    }),
  ];
}

/**
 * The fixed cost of a run on the queue: `copysim sweep --queue` as a user runs it (`node
 * dist/src/cli/main.js`, its node start or starts included), timed from its start to its end,
 * over requests that take no time on the tape, with one worker. In turns ({@link ROUNDS}
 * rounds): a worker just started, which hashes, reads and indexes the tape inside the time,
 * then the same worker holding it. The best of each.
 */
async function fixedCostRows(
  suite: string,
  url: string,
  tape: string,
  requests: { readonly file: string; readonly atMost?: number },
): Promise<Row[]> {
  const run = (): number => {
    const started = performance.now();
    const child = spawnSync(
      process.execPath,
      [CLI, 'sweep', '--tape', tape, '--requests', requests.file, '--queue', url],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        encoding: 'utf8',
      },
    );
    if (child.status !== 0) throw new Error(`copysim sweep --queue failed:\n${child.stderr}`);
    return performance.now() - started;
  };
  const fresh: number[] = [];
  const held: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const workers = await startWorkers(url, 1);
    try {
      fresh.push(run());
      held.push(run());
    } finally {
      await stopWorkers(workers);
    }
  }
  const ms = (values: readonly number[]): string => values.map((v) => Math.round(v)).join(', ');
  const how =
    `copysim sweep --queue of requests that take no time (${requests.file.split('/').at(-1)}),` +
    ` as a user runs it, start to end, best of ${ROUNDS} in turns`;
  return [
    row(suite, 'fixed cost of a queued run, worker holding the tape', Math.min(...held) / 1000, 's', {
      ...(requests.atMost !== undefined ? { atMost: requests.atMost } : {}),
      note: `${how} (${ms(held)} ms)`,
    }),
    row(suite, 'fixed cost of a queued run, worker just started', Math.min(...fresh) / 1000, 's', {
      note: `the worker hashes, reads and indexes the tape inside the time (${ms(fresh)} ms)`,
    }),
  ];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * What two processes gain on this machine on the same work without any queue: one local
 * `copysim sweep --workers 1` over `control`'s requests alone, then two at once, in turns
 * ({@link ROUNDS} rounds). Twice the work in the time of the two gives the most a second worker
 * process could add here: replays share the memory system, so the figure is below 2 even when
 * nothing else runs.
 */
async function machineCeiling(
  suite: string,
  tape: string,
  control: { readonly file: string; readonly count: number },
  swaps: number,
): Promise<Row> {
  const args = ['cli', 'sweep', '--tape', tape, '--requests', control.file, '--workers', '1'];
  const gains: number[] = [];
  const notes: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const alone = measure(args);
    const started = performance.now();
    const both = await Promise.all([measureAsync(args), measureAsync(args)]);
    const together = performance.now() - started;
    if ([alone, ...both].some((m) => m.exitCode !== 0)) throw new Error('copysim sweep --workers 1 failed');
    gains.push((2 * alone.wallMs) / together);
    notes.push(
      `${gains.at(-1)!.toFixed(2)}×: ${(alone.wallMs / 1000).toFixed(1)} s alone, ${(together / 1000).toFixed(1)} s for two`,
    );
  }
  return row(suite, 'this machine: 2 processes against 1, no queue', median(gains), '×', {
    note: `${control.count} requests over ${swaps.toLocaleString('en-US')} swaps, copysim sweep --workers 1 alone and two at once, median of ${ROUNDS} (${notes.join('; ')})`,
  });
}
