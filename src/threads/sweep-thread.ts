/**
 * A sweep's worker thread: copies the packed tape out once, then runs the batches of requests it
 * is sent, one at a time, each as walks of the tape with the young generation collected between
 * them (this thread is the walks' host: `collectYoungGeneration`). Started by the sweep's pool
 * (src/sweep/pool.ts) from the compiled `dist/` file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { InputError } from '../model/errors.js';
import type { EngineOptions } from '../model/options.js';
import { runBatchShared } from '../sweep/run-one.js';
import type { SweepJob, SweepSlotReply, SweepWorkerData, SweepWorkerReply } from '../sweep/pool.js';
import { unpackTape } from '../sweep/tape-transfer.js';
import { collectYoungGeneration } from './young-collection.js';

function main(port: NonNullable<typeof parentPort>, data: SweepWorkerData): void {
  const tape = unpackTape(data.tape);
  const options: EngineOptions = data.options;
  port.on('message', (job: SweepJob) => {
    const outcomes = runBatchShared(tape, job.requests, options, data.full, collectYoungGeneration);
    const replies = outcomes.map((outcome): SweepSlotReply => {
      if ('output' in outcome) return outcome;
      const e = outcome.thrown;
      return { failure: { input: e instanceof InputError, message: e instanceof Error ? e.message : String(e) } };
    });
    const reply: SweepWorkerReply = { replies };
    port.postMessage(reply);
  });
}

if (parentPort !== null) main(parentPort, workerData as SweepWorkerData);
