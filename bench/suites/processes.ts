import { defaultRankThreads } from '../../src/cli/rank-command.js';
import { measure, type Measurement } from '../measure.js';
import { row, type Row } from './row.js';

function best(runs: readonly Measurement[]): Measurement {
  return runs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
}

function check(m: Measurement, what: string): Measurement {
  if (m.exitCode !== 0) throw new Error(`${what} exited with code ${m.exitCode}`);
  return m;
}

// `targets` false, or a target left undefined: the small sizes of --quick, to which the issue's
// targets do not apply.

/**
 * `copysim simulate` on a JSON tape against the floor that reading and `JSON.parse`-ing the
 * same file sets, each in a fresh process (module loading included), run side by side in
 * turns; the best of `rounds` each.
 */
export function floorSuite(
  tape: string,
  request: string,
  swaps: number,
  rounds: number,
  followed: string,
  atMost?: number,
): Row[] {
  const floors: Measurement[] = [];
  const sims: Measurement[] = [];
  for (let i = 0; i < rounds; i++) {
    floors.push(check(measure(['floor', tape]), 'the floor'));
    sims.push(check(measure(['cli', 'simulate', '--tape', tape, '--request', request]), 'copysim simulate'));
  }
  const floor = best(floors);
  const sim = best(sims);
  const note = `${swaps.toLocaleString('en-US')} swaps, best of ${rounds} side by side`;
  const suite = `floor (${followed})`;
  return [
    row(suite, 'read + JSON.parse', floor.wallMs, 'ms', { note }),
    row(suite, 'copysim simulate', sim.wallMs, 'ms', { note: `${note}, output to /dev/null` }),
    row(suite, 'ratio to the JSON.parse floor', sim.wallMs / floor.wallMs, '×', {
      ...(atMost !== undefined ? { atMost } : {}),
      note: 'wall time',
    }),
    row(suite, 'ratio, CPU time', sim.cpuMs / floor.cpuMs, '×', { note: 'all threads, GC included' }),
    row(suite, 'simulate swaps/s', swaps / (sim.wallMs / 1000), 'swaps/s'),
    row(suite, 'simulate peak RSS', sim.peakRssMb, 'MiB', { note: `the floor: ${Math.round(floor.peakRssMb)} MiB` }),
  ];
}

/**
 * `copysim rank` of every wallet of a JSON tape against the same floor, side by side in turns:
 * each wallet copied alone, all of them in one walk of the tape (`replayFollowers`).
 */
export function rankSuite(
  tape: string,
  request: string,
  swaps: number,
  rounds: number,
  atMost?: number,
  suite = 'rank',
  top?: number,
): Row[] {
  const floors: Measurement[] = [];
  const ranks: Measurement[] = [];
  const only = top === undefined ? [] : ['--top', String(top)];
  for (let i = 0; i < rounds; i++) {
    floors.push(check(measure(['floor', tape]), 'the floor'));
    ranks.push(
      check(
        measure(['cli', 'rank', '--tape', tape, '--request', request, '--format', 'jsonl', ...only]),
        'copysim rank',
      ),
    );
  }
  const floor = best(floors);
  const rank = best(ranks);
  const printed = top === undefined ? '' : `, the first ${top} printed (the screen, docs/rank.md)`;
  const note = `${swaps.toLocaleString('en-US')} swaps, every wallet with a swap in the window${printed}, best of ${rounds} side by side`;
  return [
    row(suite, 'read + JSON.parse', floor.wallMs, 'ms', { note }),
    row(suite, 'copysim rank', rank.wallMs, 'ms', {
      note: `${note}, output to /dev/null, ${defaultRankThreads()} threads (the default)`,
    }),
    row(suite, 'ratio to the JSON.parse floor', rank.wallMs / floor.wallMs, '×', {
      ...(atMost !== undefined ? { atMost } : {}),
      note: 'wall time',
    }),
    row(suite, 'rank peak RSS', rank.peakRssMb, 'MiB', { note: `the floor: ${Math.round(floor.peakRssMb)} MiB` }),
  ];
}

/** `copysim simulate --tape big.jsonl`: streamed, peak memory bounded whatever the tape's length. */
export function streamSuite(tape: string, request: string, swaps: number, followed: string, targets = true): Row[] {
  const run = check(measure(['cli', 'simulate', '--tape', tape, '--request', request]), 'copysim simulate (JSONL)');
  const suite = `stream (${followed})`;
  const note = `${swaps.toLocaleString('en-US')} swaps streamed from JSONL, ${run.outputMb.toFixed(0)} MB of response`;
  return [
    row(suite, 'peak RSS', run.peakRssMb, 'MiB', { ...(targets ? { atMost: 1024 } : {}), note }),
    row(suite, 'swaps/s', swaps / (run.wallMs / 1000), 'swaps/s', { note: `${Math.round(run.wallMs / 1000)} s wall` }),
  ];
}

/** Rounds of the sweep suite's alternating runs. */
const SWEEP_ROUNDS = 2;

/**
 * `copysim sweep` with 1 worker and with `workers` workers: wall time and speed-up. The speed-up
 * is given three times: on the whole sweep, on the first requests end to end, and with the
 * start-up taken out (reading, validating and packing the tape, starting the workers), which
 * more workers cannot shorten: the difference between the first `sampleCount` requests and the
 * first `smallCount`, each run with 1 worker and with `workers`. The machine's speed drifts from
 * minute to minute, so the runs with 1 worker and with `workers` alternate ({@link SWEEP_ROUNDS}
 * rounds). The whole sweep's speed-up is the mean of the pairs' ratios, each pair a run with
 * `workers` workers and one with 1 just after it (one pair alone moves with the machine); the
 * sample rows keep each run's best. The whole sweep's CPU time over its wall time, the cores
 * kept busy on average, does not depend on runs made minutes apart.
 */
export function sweepSuite(
  tape: string,
  requests: {
    readonly all: string;
    readonly count: number;
    readonly sample: string;
    readonly sampleCount: number;
    readonly small: string;
    readonly smallCount: number;
  },
  swaps: number,
  workers: number,
  targets = true,
): Row[] {
  const time = (file: string, n: number): Measurement => timeSweep(tape, file, n);
  // Each worker compiles the code and fills its own memo of the tape on its first requests, so
  // the speed-up grows with the number of requests: the whole sweep's is the figure.
  const pairs: { readonly many: Measurement; readonly one: Measurement }[] = [];
  for (let round = 0; round < SWEEP_ROUNDS; round++) {
    const many = time(requests.all, workers);
    pairs.push({ many, one: workers > 1 ? time(requests.all, 1) : many });
  }
  // The faster run with `workers` workers gives the wall-time rows.
  const all = pairs.reduce((best, { many }) => (many.wallMs < best.wallMs ? many : best), pairs[0]!.many);
  const ratios = pairs.map(({ many, one }) => one.wallMs / many.wallMs);
  const wholeSpeedUp = ratios.reduce((sum, r) => sum + r, 0) / ratios.length;
  // Best wall time of each of these, in ms, over rounds that alternate them.
  const runs = [
    [requests.sample, 1],
    [requests.sample, workers],
    [requests.small, 1],
    [requests.small, workers],
  ] as const;
  const bestMs = runs.map(() => Infinity);
  for (let round = 0; round < SWEEP_ROUNDS; round++) {
    runs.forEach(([file, n], k) => {
      bestMs[k] = Math.min(bestMs[k]!, time(file, n).wallMs);
    });
  }
  const [one, many, oneSmall, manySmall] = bestMs as [number, number, number, number];
  const seconds = (ms: number): string => (ms / 1000).toFixed(1);
  const between = `requests ${requests.smallCount + 1} to ${requests.sampleCount}`;
  return [
    ...sweepWallRows('sweep', all, requests.count, swaps, workers, targets ? 60 : undefined),
    row('sweep', 'speed-up, whole sweep', wholeSpeedUp, '×', {
      note: `${workers} workers against 1 on the ${requests.count.toLocaleString('en-US')} requests, mean of ${pairs.length} pairs run in turns (${pairs
        .map(
          ({ many, one }, k) => `${ratios[k]!.toFixed(2)}×: ${seconds(one.wallMs)} s against ${seconds(many.wallMs)} s`,
        )
        .join('; ')})`,
    }),
    row('sweep', 'speed-up', one / many, '×', {
      note: `${workers} workers against 1 on the first ${requests.sampleCount} requests, best of ${SWEEP_ROUNDS} alternating (${seconds(one)} s against ${seconds(many)} s)`,
    }),
    row('sweep', 'speed-up, start-up taken out', (one - oneSmall) / (many - manySmall), '×', {
      note: `${between}: ${seconds(one - oneSmall)} s against ${seconds(many - manySmall)} s`,
    }),
  ];
}

/** `copysim sweep` of the requests in `file` on `workers` worker threads, in a fresh process. */
function timeSweep(tape: string, file: string, workers: number): Measurement {
  return check(
    measure(['cli', 'sweep', '--tape', tape, '--requests', file, '--workers', String(workers)]),
    `copysim sweep --workers ${workers}`,
  );
}

/**
 * The rows of a sweep's run on `workers` workers: wall time (target: at most `atMost` s, `runs`
 * said in its note), requests/s, cores busy.
 */
function sweepWallRows(
  suite: string,
  run: Measurement,
  count: number,
  swaps: number,
  workers: number,
  atMost: number | undefined,
  runs = '',
): Row[] {
  const requests = `${count.toLocaleString('en-US')} requests`;
  return [
    row(suite, `wall time, ${workers} workers`, run.wallMs / 1000, 's', {
      ...(atMost !== undefined ? { atMost } : {}),
      note: `${requests} over ${swaps.toLocaleString('en-US')} swaps${runs}`,
    }),
    row(suite, 'requests/s', count / (run.wallMs / 1000), 'requests/s', { note: `${workers} workers` }),
    row(suite, 'cores busy', run.cpuMs / run.wallMs, 'cores', {
      note: `CPU time over wall time of the ${requests} with ${workers} workers (start-up included)`,
    }),
  ];
}

/**
 * `copysim sweep` of the requests in `file` on `workers` worker threads alone, without the
 * comparison with 1 worker: the best of {@link SWEEP_ROUNDS} runs.
 */
export function sweepWallSuite(
  suite: string,
  tape: string,
  requests: { readonly file: string; readonly count: number },
  swaps: number,
  workers: number,
  atMost?: number,
): Row[] {
  const runs = Array.from({ length: SWEEP_ROUNDS }, () => timeSweep(tape, requests.file, workers));
  const walls = runs.map((m) => (m.wallMs / 1000).toFixed(1)).join(', ');
  return sweepWallRows(
    suite,
    best(runs),
    requests.count,
    swaps,
    workers,
    atMost,
    `, best of ${SWEEP_ROUNDS} (${walls} s)`,
  );
}
