/**
 * A simulation worker: loads the tapes once, then answers simulation jobs with the response as
 * JSON text. Started by {@link SimulationPool} from the compiled `dist/` file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { InputError, RequestError } from '../../model/errors.js';
import type { Network } from '../../model/request.js';
import type { IndexedTape } from '../../engine/tape-index.js';
import { readTapeFile } from '../../io/read-tape.js';
import { diagnose } from '../../diagnose/diagnose.js';
import { assembleResponse } from '../../report/response.js';
import { simulateParts } from '../../simulate.js';
import type { JobFailure, SimulationJob, WorkerConfig, WorkerMessage } from './protocol.js';

function failureOf(e: unknown): JobFailure {
  if (e instanceof RequestError) return { kind: 'request', body: e.body };
  if (e instanceof InputError) return { kind: 'input', message: e.message };
  return { kind: 'internal', message: e instanceof Error ? e.message : String(e) };
}

function main(port: NonNullable<typeof parentPort>, config: WorkerConfig): void {
  const post = (message: WorkerMessage): void => port.postMessage(message);
  const tapes = new Map<Network, IndexedTape>();
  try {
    for (const { network, file, header } of config.tapes) tapes.set(network, readTapeFile(file, header));
  } catch (e) {
    post({ type: 'fatal', message: (e as Error).message });
    return;
  }
  port.on('message', (job: SimulationJob) => {
    try {
      const tape = tapes.get(job.network);
      if (tape === undefined) throw new InputError(`no tape of network ${job.network} is loaded`, { source: 'tape' });
      const parts = simulateParts(tape, job.request, config.engineOptions);
      const warnings = diagnose(tape, job.request, { response: parts, options: config.engineOptions });
      post({ type: 'done', id: job.id, json: JSON.stringify(assembleResponse(parts)), warnings });
    } catch (e) {
      post({ type: 'failed', id: job.id, failure: failureOf(e) });
    }
  });
  post({ type: 'ready' });
}

if (parentPort !== null) main(parentPort, workerData as WorkerConfig);
