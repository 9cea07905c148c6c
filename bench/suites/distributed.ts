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

/**
 * `copysim sweep --queue` (the producer) with one and with two `copysim worker --threads 1`
 * processes on this machine, through a redis-server of the suite's own on a loopback port: the
 * producer's wall time, from its start (reading the requests, hashing the tape, queueing) to its
 * last line. Each run gets workers started afresh and waiting, so each reads and indexes the
 * tape inside the time measured, as a local sweep does. The runs with one and two workers
 * alternate ({@link ROUNDS} rounds); the speed-up is the median of the pairs' ratios, each pair a
 * run with two workers and one with one just after it: on a machine whose other users come and
 * go, one pair alone can be far off either way.
 */
export async function distributedSuite(
  tape: string,
  requests: { readonly file: string; readonly count: number },
  swaps: number,
  targets = true,
  /** Requests for {@link machineCeiling}; none: no such row. */
  control?: { readonly file: string; readonly count: number },
): Promise<Row[]> {
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    throw new Error('the distributed suite needs redis-server (apt-get install redis-server)');
  }
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const workers = new Set<ChildProcess>();
  try {
    await new Promise<void>((resolve, reject) => {
      let log = '';
      redis.stdout!.on('data', (d: Buffer) => {
        log += d.toString();
        if (log.includes('Ready to accept connections')) resolve();
      });
      redis.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${log}`)));
    });
    /** Cores the worker processes kept busy, a run each. */
    const busy: { readonly count: number; readonly cores: number }[] = [];
    const time = async (count: number): Promise<Measurement> => {
      const started = Array.from({ length: count }, () =>
        spawn(process.execPath, [...cliNodeFlags(), CLI, 'worker', '--queue', url, '--threads', '1'], {
          stdio: ['ignore', 'ignore', 'pipe'],
        }),
      );
      for (const w of started) workers.add(w);
      await Promise.all(started.map((w) => ready(w, 'waiting for jobs', 'copysim worker')));
      const before = started.map((w) => cpuSeconds(w.pid));
      const m = measure(['cli', 'sweep', '--tape', tape, '--requests', requests.file, '--queue', url]);
      if (m.exitCode !== 0) throw new Error(`copysim sweep --queue exited with code ${m.exitCode}`);
      const used = started.map((w, k) => {
        const [start, end] = [before[k], cpuSeconds(w.pid)];
        return start === null || start === undefined || end === null ? null : end - start;
      });
      if (used.every((u) => u !== null))
        busy.push({ count, cores: used.reduce((a, b) => a + b!, 0) / (m.wallMs / 1000) });
      await Promise.all(
        started.map((w) => {
          w.kill('SIGTERM');
          workers.delete(w);
          return exited(w);
        }),
      );
      return m;
    };
    const pairs: { readonly two: Measurement; readonly one: Measurement }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const two = await time(2);
      pairs.push({ two, one: await time(1) });
    }
    const ratios = pairs.map(({ two, one }) => one.wallMs / two.wallMs);
    const speedUp = median(ratios);
    const seconds = (ms: number): string => (ms / 1000).toFixed(1);
    const best = (pick: (p: (typeof pairs)[number]) => Measurement): number =>
      Math.min(...pairs.map((p) => pick(p).wallMs));
    const over = `${requests.count.toLocaleString('en-US')} requests over ${swaps.toLocaleString('en-US')} swaps`;
    const ceiling = control === undefined ? [] : [await machineCeiling(tape, control, swaps)];
    const alone = busy.filter((b) => b.count === 1).map((b) => b.cores);
    const pairBusy = busy.filter((b) => b.count === 2).map((b) => b.cores);
    const cores =
      alone.length === 0
        ? []
        : [
            row('distributed', 'cores busy, 1 worker process', median(alone), 'cores', {
              note: `CPU time of the worker process (its replay thread and V8's collector and compiler threads) over the producer's wall time, median of ${alone.length} (${alone.map((c) => c.toFixed(2)).join(', ')}); 2 worker processes: ${pairBusy.map((c) => c.toFixed(2)).join(', ')} cores. With ${availableParallelism()} cores, 2 processes can gain at most ${availableParallelism()} / ${median(alone).toFixed(2)} = ${(availableParallelism() / median(alone)).toFixed(2)}× over one`,
            }),
          ];
    return [
      ...ceiling,
      ...cores,
      row('distributed', 'wall time, 1 worker process', best((p) => p.one) / 1000, 's', {
        note: `${over}, copysim worker --threads 1, best of ${ROUNDS}`,
      }),
      row('distributed', 'wall time, 2 worker processes', best((p) => p.two) / 1000, 's', {
        note: `${over}, 2 × copysim worker --threads 1, best of ${ROUNDS}`,
      }),
      row('distributed', 'speed-up, 2 worker processes', speedUp, '×', {
        ...(targets ? { atLeast: 1.7 } : {}),
        note: `2 worker processes against 1 on this machine, producer wall time, median of ${ROUNDS} pairs run in turns (${pairs
          .map(
            ({ two, one }, k) => `${ratios[k]!.toFixed(2)}×: ${seconds(one.wallMs)} s against ${seconds(two.wallMs)} s`,
          )
          .join('; ')})`,
      }),
    ];
  } finally {
    for (const w of workers) w.kill('SIGKILL');
    await Promise.all([...workers].map(exited));
    redis.kill('SIGTERM');
    await exited(redis);
  }
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
  return row('distributed', 'this machine: 2 processes against 1, no queue', median(gains), '×', {
    note: `${control.count} requests over ${swaps.toLocaleString('en-US')} swaps, copysim sweep --workers 1 alone and two at once, median of ${ROUNDS} (${notes.join('; ')})`,
  });
}
