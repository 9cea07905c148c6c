/**
 * A sweep worker thread: copies the packed tape out once, then runs the requests it is sent,
 * one at a time. Started by the sweep's pool from the compiled `dist/` file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { InputError } from '../model/errors.js';
import type { EngineOptions } from '../model/options.js';
import { runOne } from './run-one.js';
import type { SweepJob, SweepWorkerData, SweepWorkerReply } from './pool.js';
import { unpackTape } from './tape-transfer.js';

function main(port: NonNullable<typeof parentPort>, data: SweepWorkerData): void {
  const tape = unpackTape(data.tape);
  const options: EngineOptions = data.options;
  port.on('message', (job: SweepJob) => {
    let reply: SweepWorkerReply;
    try {
      reply = { slot: job.slot, output: runOne(tape, job.request, options, data.full) };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      reply = { slot: job.slot, failure: { input: e instanceof InputError, message } };
    }
    port.postMessage(reply);
  });
}

if (parentPort !== null) main(parentPort, workerData as SweepWorkerData);
