import { InputError, RequestError } from './model/errors.js';
import { resolveEngineOptions, type EngineOptionsInput } from './model/options.js';
import { parseSimulatorRequest, type SimulatorRequest, type SimulatorRequestInput } from './model/request.js';
import type { SimulatorResponse } from './model/response.js';
import type { Tape, TapeInput } from './model/tape.js';
import { replay } from './engine/replay.js';
import { indexTape, type IndexedTape } from './engine/tape-index.js';
import { buildResponse } from './report/response.js';

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
): SimulatorResponse {
  const parsed = parseSimulatorRequest(request);
  if (!parsed.success) throw new RequestError(parsed.error);
  const engineOptions = resolveEngineOptions(options);
  const indexed = indexTape(tape);
  if (indexed.network !== parsed.data.network) {
    throw new InputError(
      `the tape holds swaps of network "${indexed.network}" but the request asks for "${parsed.data.network}"`,
      { source: 'tape', path: 'network' },
    );
  }
  return buildResponse(replay(indexed, parsed.data, engineOptions), indexed.tokens);
}
