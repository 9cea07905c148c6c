/**
 * The `simulate` job kind: one service simulator request over the served tape of its network,
 * answered as the service's own worker threads answer it (src/server/simulation/worker.ts): the
 * response as JSON text and the warnings of `diagnose`, so `serve --queue` sends the same bytes.
 * A request that fails validation answers with its 400 body; a tape that cannot serve it is the
 * input's failure. The request and the engine options travel as given.
 */
import { diagnose } from '../diagnose/diagnose.js';
import type { Warning } from '../diagnose/warning.js';
import type { IndexedTape } from '../engine/tape-index.js';
import { RequestError, type ErrorBody } from '../model/errors.js';
import type { EngineOptionsInput } from '../model/options.js';
import { assembleResponse } from '../report/response.js';
import { simulateParts } from '../simulate.js';
import type { JobKind, Outcome } from './job.js';

/** The settings of the service's simulations: its engine options. */
export interface SimulateJobSettings {
  readonly engineOptions: EngineOptionsInput;
}

/** A simulation's answer: the 200 body as JSON text and its warnings, or the 400 body. */
export type SimulateOutput =
  | { readonly json: string; readonly warnings: readonly Warning[] }
  | { readonly error: ErrorBody };

interface SimulateContext {
  readonly tape: IndexedTape;
  readonly engineOptions: EngineOptionsInput;
}

function simulateOne({ tape, engineOptions }: SimulateContext, request: unknown): Outcome<SimulateOutput> {
  try {
    const parts = simulateParts(tape, request, engineOptions);
    const warnings = diagnose(tape, request, { response: parts, options: engineOptions });
    return { output: { json: JSON.stringify(assembleResponse(parts)), warnings } };
  } catch (e) {
    if (e instanceof RequestError) return { output: { error: e.body } };
    return { thrown: e };
  }
}

export const simulateKind: JobKind<SimulateJobSettings, unknown, SimulateOutput, SimulateContext, unknown> = {
  name: 'simulate',
  prepare: (tape, settings) => ({ tape, engineOptions: settings.engineOptions }),
  accept: (_context, request) => ({ accepted: request }),
  runAll: (context, requests) => requests.map((request) => simulateOne(context, request)),
};
