import { HttpError } from './http-error.js';

/** What a successful request spent and what is left: the `credits` of the envelope. */
export interface CreditsSpent {
  readonly spent: number;
  readonly remaining: number;
}

/** A 403 `insufficient_credits` with the interface's detail. */
export function insufficientCredits(required: number, remaining: number): HttpError {
  return new HttpError(403, { code: 'insufficient_credits', detail: { required, remaining } });
}

/** A 403 `key_disabled`. */
export function keyDisabled(): HttpError {
  return new HttpError(403, { code: 'key_disabled', detail: 'this API key is disabled' });
}
