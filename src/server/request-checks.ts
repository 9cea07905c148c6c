import { RequestError } from '../model/errors.js';
import type { Network } from '../model/request.js';

/** A 400 `validation_error` on one path. */
export function validationError(path: string, message: string): RequestError {
  return new RequestError({ code: 'validation_error', detail: [{ path, message }] });
}

/** A 400 on path `network` unless a tape of `network` is served (the keys of `served`). */
export function requireServed(served: ReadonlyMap<Network, unknown>, network: Network): void {
  if (!served.has(network)) {
    const list = [...served.keys()].join(', ') || 'none';
    throw validationError('network', `no ${network} tape is served here (served: ${list})`);
  }
}
