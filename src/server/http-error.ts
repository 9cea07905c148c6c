import { CopysimError } from '../model/errors.js';

/** The JSON body of every error the service answers (interface section 7): a code, a detail. */
export interface HttpErrorBody {
  readonly code: string;
  readonly detail?: unknown;
}

/**
 * An error answered with `statusCode` and a JSON `body`. Thrown by the request pipeline for
 * everything that is not the engine's own 400 (which is a `RequestError`).
 *
 * @example
 * throw new HttpError(401, { code: 'unauthorized', detail: 'missing X-API-Key header' });
 */
export class HttpError extends CopysimError {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    readonly body: HttpErrorBody,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(`${statusCode} ${body.code}${typeof body.detail === 'string' ? `: ${body.detail}` : ''}`);
  }
}
