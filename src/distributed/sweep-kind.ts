/**
 * The `sweep` job kind: simulator requests over one tape, a chunk's requests answered together
 * by the local sweep's own `runBatchShared` (the followers of walks of the tape, one run for the
 * requests of a chunk that a dupe limit did not change), so a sweep on the
 * queue prints what `copysim sweep` prints, byte for byte. Requests travel as given and are
 * parsed again on the worker (the producer has already answered those that fail validation with
 * their 400 body); engine options travel as given too.
 */
import type { IndexedTape } from '../engine/tape-index.js';
import type { ErrorBody } from '../model/errors.js';
import { resolveEngineOptions, type EngineOptions, type EngineOptionsInput } from '../model/options.js';
import type { SimulatorRequest } from '../model/request.js';
import { runBatchShared, type SweepOutput } from '../sweep/run-one.js';
import { checkSweepRequest } from '../sweep/sweep-request.js';
import type { JobKind } from './job.js';

/** The settings of a sweep run. */
export interface SweepJobSettings {
  readonly engineOptions: EngineOptionsInput;
  readonly full: boolean;
}

interface SweepContext {
  readonly tape: IndexedTape;
  readonly options: EngineOptions;
  readonly full: boolean;
}

export const sweepKind: JobKind<
  SweepJobSettings,
  unknown,
  SweepOutput | { readonly error: ErrorBody },
  SweepContext,
  SimulatorRequest
> = {
  name: 'sweep',
  prepare: (tape, settings) => ({ tape, options: resolveEngineOptions(settings.engineOptions), full: settings.full }),
  accept({ tape }, input) {
    // A request that fails validation or asks for another network answers its own line, as in the local sweep.
    const checked = checkSweepRequest(input, tape.network);
    return 'error' in checked ? { output: checked } : { accepted: checked.request };
  },
  runAll: ({ tape, options, full }, requests, afterWalk) => runBatchShared(tape, requests, options, full, afterWalk),
};
