/**
 * The `sweep` job kind: simulator requests over one tape, a chunk's requests answered together
 * by the local sweep's own `runBatch` (the followers of one walk of the tape), so a sweep on the
 * queue prints what `copysim sweep` prints, byte for byte. Requests travel as given and are
 * parsed again on the worker (the producer has already answered those that fail validation with
 * their 400 body); engine options travel as given too.
 */
import type { IndexedTape } from '../engine/tape-index.js';
import { InputError, RequestError } from '../model/errors.js';
import { resolveEngineOptions, type EngineOptions, type EngineOptionsInput } from '../model/options.js';
import { parseSimulatorRequest, type SimulatorRequest } from '../model/request.js';
import { runBatch, runOne, type SweepOutput } from '../sweep/run-one.js';
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

export const sweepKind: JobKind<SweepJobSettings, unknown, SweepOutput, SweepContext> = {
  name: 'sweep',
  prepare: (tape, settings) => ({ tape, options: resolveEngineOptions(settings.engineOptions), full: settings.full }),
  run({ tape, options, full }, input) {
    return runOne(tape, parsedFor(tape, input), options, full);
  },
  runAll({ tape, options, full }, inputs) {
    const outcomes: ({ output: SweepOutput } | { thrown: unknown })[] = [];
    const valid: SimulatorRequest[] = [];
    const slots: number[] = [];
    inputs.forEach((input, k) => {
      try {
        valid.push(parsedFor(tape, input));
        slots.push(k);
      } catch (thrown) {
        outcomes[k] = { thrown };
      }
    });
    runBatch(tape, valid, options, full).forEach((outcome, j) => (outcomes[slots[j]!] = outcome));
    return outcomes;
  },
};

/** The request, validated for this tape; throws as the local sweep answers a request it cannot run. */
function parsedFor(tape: IndexedTape, input: unknown): SimulatorRequest {
  const parsed = parseSimulatorRequest(input);
  if (!parsed.success) throw new RequestError(parsed.error);
  if (parsed.data.network !== tape.network) {
    throw new InputError(`the tape holds swaps of network "${tape.network}" but the request asks for "${parsed.data.network}"`, {
      source: 'tape',
      path: 'network',
    });
  }
  return parsed.data;
}
