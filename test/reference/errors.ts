/**
 * The two ways a reference run refuses its input, as the command's exit codes say (spec 7, 8):
 * exit 1, an unusable tape or options (ReferenceInputError), and exit 2, a request that fails
 * validation, with the 400 body the command would print (ReferenceRequestError).
 */

/** The cases where the command exits 1 (spec 7, 8): an unusable tape or options. */
export class ReferenceInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReferenceInputError';
  }
}

/** One entry of a validation_error's detail (spec 7): the member's path and what is wrong. */
export interface ValidationProblem {
  path: string;
  message: string;
}

/** The 400 body (interface 7, spec 7): `code` and `detail`. */
export interface RequestErrorBody {
  code: 'validation_error' | 'invalid_date_range';
  detail: ValidationProblem[] | string;
}

/** The cases where the command exits 2 (spec 8): the request fails validation; `body` is the 400 body. */
export class ReferenceRequestError extends Error {
  constructor(readonly body: RequestErrorBody) {
    super(
      `${body.code}: ${typeof body.detail === 'string' ? body.detail : body.detail.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
    );
    this.name = 'ReferenceRequestError';
  }
}
