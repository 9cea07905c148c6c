import { InputError, type ErrorBody } from '../model/errors.js';
import { resolveEngineOptions, type EngineOptionsInput } from '../model/options.js';
import { parseSimulatorRequest } from '../model/request.js';
import type { SweepResult } from '../sweep/sweep.js';
import type { SweepOutput } from '../sweep/run-one.js';
import { runOnQueue } from './producer.js';
import type { SweepJobSettings } from './sweep-kind.js';
import type { TapeHeaderOptions } from '../io/parquet/header.js';

export interface QueueSweepOptions {
  /** The Redis URL the workers listen on. */
  readonly url: string;
  readonly engineOptions?: EngineOptionsInput;
  readonly full?: boolean;
  /** The header of a Parquet tape without copysim's (see `readTapeFile`), sent to the workers. */
  readonly tapeHeader?: TapeHeaderOptions;
  /** Requests a job (default: about a hundred jobs). */
  readonly chunkSize?: number;
  readonly onProgress?: (done: number, total: number) => void;
  readonly onNotice?: (line: string) => void;
}

/**
 * The sweep of `sweepEach`, run by queue workers on any number of machines: the same results,
 * in input order. The tape stays where it is: the workers read it at the same path and check its
 * SHA-256. Requests that fail validation are answered here with their 400 body; the rest travel
 * in chunks. A request the tape cannot serve rejects with the local sweep's {@link InputError}.
 */
export async function sweepOnQueue(
  tapePath: string,
  requests: readonly unknown[],
  onResult: (result: SweepResult) => void,
  options: QueueSweepOptions,
): Promise<void> {
  const engineOptions = options.engineOptions ?? {};
  resolveEngineOptions(engineOptions); // options that cannot be used fail here, before anything is queued
  const settings: SweepJobSettings = { engineOptions, full: options.full ?? false };
  await runOnQueue<SweepOutput | SweepResult | { readonly error: ErrorBody }>({
    url: options.url,
    kind: 'sweep',
    tapePath,
    ...(options.tapeHeader !== undefined ? { tapeHeader: options.tapeHeader } : {}),
    settings,
    inputs: requests,
    localAnswer: (index) => {
      const parsed = parseSimulatorRequest(requests[index]);
      return parsed.success ? undefined : { index, error: parsed.error };
    },
    onResult: (index, output) => onResult('error' in output ? { index, error: output.error } : { index, ...output }),
    inputFailure: (index, message) => new InputError(`request ${index}: ${message}`, { source: 'tape' }),
    ...(options.chunkSize !== undefined ? { chunkSize: options.chunkSize } : {}),
    ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
    ...(options.onNotice !== undefined ? { onNotice: options.onNotice } : {}),
  });
}
