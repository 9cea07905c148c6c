/**
 * A sweep worker thread: copies the packed tape out once, then runs the batches of requests it
 * is sent, one at a time, each as one walk of the tape. Started by the sweep's pool from the
 * compiled `dist/` file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { InputError } from '../model/errors.js';
import type { EngineOptions } from '../model/options.js';
import { runBatch } from './run-one.js';
import type { SweepJob, SweepSlotReply, SweepWorkerData } from './pool.js';
import { unpackTape } from './tape-transfer.js';

function main(port: NonNullable<typeof parentPort>, data: SweepWorkerData): void {
  const tape = unpackTape(data.tape);
  const options: EngineOptions = data.options;
  port.on('message', (job: SweepJob) => {
    const replies = runBatch(tape, job.requests, options, data.full).map((outcome): SweepSlotReply => {
      if ('output' in outcome) return outcome;
      const e = outcome.thrown;
      return { failure: { input: e instanceof InputError, message: e instanceof Error ? e.message : String(e) } };
    });
    port.postMessage({ slot: job.slot, replies });
  });
}

if (parentPort !== null) main(parentPort, workerData as SweepWorkerData);
