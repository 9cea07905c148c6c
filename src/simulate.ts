import { InputError, RequestError } from './model/errors.js';
import { resolveEngineOptions, type EngineOptions, type EngineOptionsInput } from './model/options.js';
import {
  parseSimulatorRequest,
  type Network,
  type SimulatorRequest,
  type SimulatorRequestInput,
} from './model/request.js';
import type { SimulatorResponse } from './model/response.js';
import { parseTapeHeader, type Tape, type TapeHeader, type TapeInput } from './model/tape.js';
import { replay, type ReplayControl } from './engine/replay.js';
import { StreamingReplay } from './engine/stream.js';
import { indexTape, type IndexedTape } from './engine/tape-index.js';
import { assembleResponse, responseParts, type ResponseParts } from './report/response.js';

export type { ReplayControl } from './engine/replay.js';

/**
 * Simulates copy-trading the request's wallets over a tape and returns the 200 body of
 * `POST /wallets/simulator`: summary, the three cumulative charts and the simulated deals.
 * Pure and deterministic: the same input gives the same output.
 *
 * Throws {@link RequestError} (with the 400 body) when the request fails validation, and
 * {@link InputError} when the tape or the options cannot be used (the error names the swap
 * index and field). Nothing is half-computed.
 *
 * @param tape a tape object (validated here) or an {@link IndexedTape} from `indexTape`
 * @param request the simulator request body
 * @param options engine options (model 1.3); missing names take the defaults
 * @param control progress hooks for long runs; they never change the result
 *
 * @example
 * import { simulate } from 'copysim';
 * const response = simulate(tape, {
 *   wallets: ['Leader111'], network: 'sol', from_date: '2024-03-10', to_date: '2024-03-10',
 *   buy_percentage: 100, max_buy_amount: 1000, max_position_amount: 5000,
 *   priority_fee: 0.0001, bribe: 0, max_dupe_buy_times: 2,
 * });
 * console.log(response.summary.pnl_total);
 */
export function simulate(
  tape: TapeInput | Tape | IndexedTape,
  request: SimulatorRequestInput | SimulatorRequest | unknown,
  options: EngineOptionsInput = {},
  control: ReplayControl = {},
): SimulatorResponse {
  return assembleResponse(simulateParts(tape, request, options, control));
}

/** {@link simulate}, giving the response in parts (for writing a large one piece by piece). */
export function simulateParts(
  tape: TapeInput | Tape | IndexedTape,
  request: SimulatorRequestInput | SimulatorRequest | unknown,
  options: EngineOptionsInput = {},
  control: ReplayControl = {},
): ResponseParts {
  const { parsed, engineOptions } = prepare(request, options);
  const indexed = indexTape(tape);
  checkNetwork(indexed.network, parsed.network);
  return responseParts(replay(indexed, parsed, engineOptions, control), indexed.tokens);
}

/**
 * {@link simulate} over a tape that arrives one swap at a time and is never held in memory:
 * the tape's header (`network`, `tokens`, `native_prices`) and its swaps in non-decreasing time.
 * Every swap is validated; a swap earlier than the one before it is an {@link InputError}
 * naming its index. Gives the same response as {@link simulate} over the same tape.
 *
 * @example
 * const response = simulateStream(
 *   { network: 'sol', native_prices: [[1710028800, 150]] },
 *   swapsInTimeOrder(), // any iterable, e.g. a generator reading a file
 *   request,
 * );
 */
export function simulateStream(
  header: unknown,
  swaps: Iterable<unknown>,
  request: SimulatorRequestInput | SimulatorRequest | unknown,
  options: EngineOptionsInput = {},
): SimulatorResponse {
  return assembleResponse(simulateStreamParts(header, swaps, request, options));
}

/** {@link simulateStream}, giving the response in parts (for writing a large one piece by piece). */
export function simulateStreamParts(
  header: unknown,
  swaps: Iterable<unknown>,
  request: SimulatorRequestInput | SimulatorRequest | unknown,
  options: EngineOptionsInput = {},
): ResponseParts {
  const { parsed, engineOptions } = prepare(request, options);
  const tapeHeader: TapeHeader = parseTapeHeader(header);
  checkNetwork(tapeHeader.network, parsed.network);
  const stream = new StreamingReplay(tapeHeader, parsed, engineOptions);
  for (const swap of swaps) stream.push(swap);
  const { result, tokens } = stream.finish();
  return responseParts(result, tokens);
}

/** Validates a request (throws {@link RequestError} with the 400 body) and resolves the engine options. */
export function prepare(
  request: unknown,
  options: EngineOptionsInput,
): { parsed: SimulatorRequest; engineOptions: EngineOptions } {
  const parsed = parseSimulatorRequest(request);
  if (!parsed.success) throw new RequestError(parsed.error);
  return { parsed: parsed.data, engineOptions: resolveEngineOptions(options) };
}

/** Throws an {@link InputError} when a request asks for another network than the tape's. */
export function checkNetwork(tape: Network, request: Network): void {
  if (tape !== request) {
    throw new InputError(`the tape holds swaps of network "${tape}" but the request asks for "${request}"`, {
      source: 'tape',
      path: 'network',
    });
  }
}
