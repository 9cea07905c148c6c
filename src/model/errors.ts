/**
 * The error hierarchy of copysim. Every error says what was wrong and where.
 *
 * - {@link CopysimError}: the base class; never thrown directly.
 * - {@link InputError}: a tape or options file that cannot be used (the command line exits 1).
 * - {@link RequestError}: a simulator request that fails validation; carries the 400 body
 *   (the command line prints it and exits 2).
 */
export class CopysimError extends Error {
  override name = 'CopysimError';
}

/** Where in an input an {@link InputError} was found. */
export interface InputLocation {
  /** The input: "tape", "options", "request" or a file name. */
  readonly source: string;
  /** Path inside it, such as `swaps[12].usd_price`. */
  readonly path?: string;
  /** Index of the offending swap in the tape's input list, when a swap is at fault. */
  readonly swapIndex?: number;
  /** Line number (1-based) in a JSONL file, when the input is one. */
  readonly line?: number;
}

/** A tape, options object or file that cannot be used. Thrown before anything is computed. */
export class InputError extends CopysimError {
  override name = 'InputError';
  constructor(
    message: string,
    readonly location: InputLocation,
  ) {
    super(message);
  }
}

/** One problem of a request that fails validation. */
export interface ValidationProblem {
  readonly path: string;
  readonly message: string;
}

/** The 400 body of the interface (section 7). */
export type ErrorBody =
  | { readonly code: 'validation_error'; readonly detail: readonly ValidationProblem[] }
  | { readonly code: 'invalid_date_range'; readonly detail: string }
  | { readonly code: 'period_required'; readonly detail: string };

/** A simulator request that fails validation; `body` is the 400 response body. */
export class RequestError extends CopysimError {
  override name = 'RequestError';
  constructor(readonly body: ErrorBody) {
    super(
      body.code === 'validation_error'
        ? `invalid request: ${body.detail.map((p) => `${p.path || '(body)'}: ${p.message}`).join('; ')}`
        : body.code === 'invalid_date_range'
          ? `invalid date range: ${body.detail}`
          : `period required: ${body.detail}`,
    );
  }
}

/** Formats a zod issue path as `swaps[3].usd_price`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}
