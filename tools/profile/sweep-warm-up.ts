/**
 * The warm-up of a sweep's worker: runs requests in jobs of two (one walk each, as the queue's
 * workers do) on a tape just read, prints each job's wall time and how much the jobs took over
 * the steady time (the median of the last 30), then the same on a shallow copy of the indexed
 * tape (the code compiled, the tape's memo empty):
 *
 *   node --max-semi-space-size=64 --expose-gc --no-concurrent-recompilation \
 *     dist/tools/profile/sweep-warm-up.js bench/data/heavy-100k/tape.json \
 *     bench/data/heavy-100k/sweep-120.requests.jsonl
 *
 * The difference of the two excesses is about the compiling; node's `--trace-opt` lists the
 * compiles and their times, `--trace-deopt` the deoptimizations that make functions compile again.
 */
import { indexTape, type IndexedTape } from '../../src/engine/tape-index.js';
import { readTapeFile } from '../../src/io/read-tape.js';
import { resolveEngineOptions } from '../../src/model/options.js';
import type { SimulatorRequest } from '../../src/model/request.js';
import { FOLLOWERS_A_WALK, runBatch } from '../../src/sweep/run-one.js';
import { collectYoungGeneration } from '../../src/threads/young-collection.js';
import { isMain } from '../is-main.js';
import { readRequestLines } from './replay-input.js';
import { runScript } from '../script-args.js';
import { UsageError } from '../../src/cli/usage.js';

const USAGE = 'usage: node dist/tools/profile/sweep-warm-up.js TAPE.json REQUESTS.jsonl';

/** Requests a job of the queue carries: one walk's. */
const JOB = FOLLOWERS_A_WALK;
/** The last jobs whose median is the steady time. */
const STEADY = 30;

/** Each job's wall time, in ms. */
function jobTimes(tape: IndexedTape, requests: readonly SimulatorRequest[]): number[] {
  const options = resolveEngineOptions({});
  const times: number[] = [];
  for (let k = 0; k < requests.length; k += JOB) {
    const start = performance.now();
    runBatch(tape, requests.slice(k, k + JOB), options, false, collectYoungGeneration);
    times.push(performance.now() - start);
  }
  return times;
}

function report(label: string, times: readonly number[]): void {
  const last = times.slice(-STEADY).sort((a, b) => a - b);
  const steady = last[last.length >> 1]!;
  const excess = times.reduce((sum, t) => sum + Math.max(0, t - steady), 0);
  const total = times.reduce((sum, t) => sum + t, 0);
  const first = times
    .slice(0, 8)
    .map((t) => t.toFixed(0))
    .join(' ');
  process.stdout.write(
    `${label}: ${times.length} jobs, ${total.toFixed(0)} ms; steady ${steady.toFixed(0)} ms a job, ` +
      `${excess.toFixed(0)} ms over it; the first jobs: ${first} ms\n`,
  );
}

function main(argv: readonly string[]): void {
  const [tapePath, requestsPath] = argv;
  if (tapePath === undefined || requestsPath === undefined) throw new UsageError('give a tape and a file of requests');
  const requests = readRequestLines(requestsPath, 2 * JOB * STEADY);
  const start = performance.now();
  const tape = indexTape(readTapeFile(tapePath));
  process.stdout.write(`read and index the tape: ${(performance.now() - start).toFixed(0)} ms\n`);
  report('code and memo cold', jobTimes(tape, requests));
  report('on a copy of the tape, code warm', jobTimes({ ...tape }, requests));
}

if (isMain(import.meta.url)) runScript('sweep-warm-up', USAGE, main);
