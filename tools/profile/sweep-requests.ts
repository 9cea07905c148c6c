/**
 * Runs sweep requests in one thread, for counting instructions with cachegrind, which the
 * machine's load does not move (unlike a time):
 *
 *   node dist/tools/profile/sweep-requests.js N [TAPE.json] [REQUESTS.jsonl]
 *
 * It reads and indexes the tape (default `bench/data/tape-100000.json`), runs 3 requests to warm
 * up, then N more through the sweep's own `runOne` (summary only). The difference between the
 * counts of two values of N is the cost of that many requests:
 *
 *   setarch -R valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
 *     node --single-threaded --predictable --hash-seed=1 --random-seed=1 \
 *     --max-semi-space-size=64 --min-semi-space-size=64 dist/tools/profile/sweep-requests.js 24
 *
 * less the same with 4, divided by 20 (docs/performance.md). With COPYSIM_SWEEP_BATCH=K the
 * timed requests run K at a time as the followers of one walk of the tape (`replayFollowers`)
 * instead of one replay each; with COPYSIM_SWEEP_BATCH=sweep as a sweep's thread runs them
 * (`runBatch`: its walks, and its host's collections between them). COPYSIM_SWEEP_WARM_UP=W
 * runs W requests to warm up instead of 3 (the timed ones follow them in the file).
 * `--single-threaded --predictable` and the fixed seeds, addresses and young generation make
 * the count repeatable; the compiler's work then falls inside it, which a window of 20 requests
 * keeps small. Without valgrind it prints the time a request took.
 */
import { existsSync } from 'node:fs';
import { resolveEngineOptions } from '../../src/model/options.js';
import { readTapeFile } from '../../src/io/read-tape.js';
import { indexTape } from '../../src/engine/tape-index.js';
import { replayFollowers } from '../../src/engine/followers.js';
import { summaryOf } from '../../src/report/run-summary.js';
import { runBatch, runOne } from '../../src/sweep/run-one.js';
import { collectYoungGeneration } from '../../src/threads/young-collection.js';
import { isMain } from '../is-main.js';
import { readRequestLines } from './replay-input.js';
import { runScript } from '../script-args.js';

const USAGE = 'usage: node dist/tools/profile/sweep-requests.js N [TAPE.json] [REQUESTS.jsonl]';

function main(argv: readonly string[]): void {
  const warmUp = Number(process.env.COPYSIM_SWEEP_WARM_UP ?? 3);
  if (!Number.isInteger(warmUp) || warmUp < 0)
    throw new Error(`COPYSIM_SWEEP_WARM_UP must be a whole number, not ${process.env.COPYSIM_SWEEP_WARM_UP}`);
  const asSweep = process.env.COPYSIM_SWEEP_BATCH === 'sweep';
  const batch = asSweep ? 1 : Number(process.env.COPYSIM_SWEEP_BATCH ?? 1);
  if (!Number.isInteger(batch) || batch < 1)
    throw new Error(
      `COPYSIM_SWEEP_BATCH must be "sweep" or a whole number of requests, not ${process.env.COPYSIM_SWEEP_BATCH}`,
    );
  const count = Number(argv[0] ?? 20);
  const tapePath = argv[1] ?? 'bench/data/tape-100000.json';
  const requestsPath = argv[2] ?? 'bench/data/sweep-100000-1000.requests.jsonl';
  if (!Number.isInteger(count) || count < 0) throw new Error(`N must be a whole number of requests, not ${argv[0]}`);
  for (const path of [tapePath, requestsPath]) {
    if (!existsSync(path))
      throw new Error(`${path} is missing: \`npm run bench -- --only sweep\` generates the default tape and requests`);
  }
  const requests = readRequestLines(requestsPath, warmUp + count).slice(0, warmUp + count);
  const tape = indexTape(readTapeFile(tapePath));
  const options = resolveEngineOptions({});
  const warming = requests.slice(0, warmUp);
  if (asSweep) runBatch(tape, warming, options, false, collectYoungGeneration);
  else for (const request of warming) runOne(tape, request, options, false);
  const start = performance.now();
  const timed = requests.slice(warmUp);
  if (asSweep) runBatch(tape, timed, options, false, collectYoungGeneration);
  else if (batch === 1) for (const request of timed) runOne(tape, request, options, false);
  else
    for (let k = 0; k < timed.length; k += batch) {
      replayFollowers(tape, timed.slice(k, k + batch), options, { chart: false, trades: false }).map((run) =>
        summaryOf(run),
      );
    }
  const ms = performance.now() - start;
  process.stdout.write(
    `${count} sweep requests after ${warmUp} to warm up: ${count > 0 ? (ms / count).toFixed(1) : '-'} ms a request\n`,
  );
}

if (isMain(import.meta.url)) runScript('sweep-requests', USAGE, main);
