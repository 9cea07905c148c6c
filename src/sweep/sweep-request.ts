import type { ErrorBody } from '../model/errors.js';
import { parseSimulatorRequest, type Network, type SimulatorRequest } from '../model/request.js';

/** One request line of a sweep, checked on its own: the request, or the 400 body of its line. */
export type CheckedSweepRequest = { readonly request: SimulatorRequest } | { readonly error: ErrorBody };

/**
 * Validates one request of a sweep against the tape's network. A request that fails validation
 * or asks for another network gives its own 400 body, so the other requests still run.
 *
 * @example
 * checkSweepRequest({ ...request, network: 'eth' }, 'sol');
 * // { error: { code: 'validation_error',
 * //   detail: [{ path: 'network', message: 'the tape holds swaps of network "sol" …' }] } }
 */
export function checkSweepRequest(input: unknown, network: Network): CheckedSweepRequest {
  const parsed = parseSimulatorRequest(input);
  if (!parsed.success) return { error: parsed.error };
  if (parsed.data.network !== network) {
    return {
      error: {
        code: 'validation_error',
        detail: [
          {
            path: 'network',
            message:
              `the tape holds swaps of network "${network}" but the request asks for "${parsed.data.network}"` +
              `: use a ${parsed.data.network} tape, or set network to "${network}"`,
          },
        ],
      },
    };
  }
  return { request: parsed.data };
}
