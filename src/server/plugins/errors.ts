import type { FastifyError } from 'fastify';
import { InputError, RequestError } from '../../model/errors.js';
import { HttpError } from '../http-error.js';
import { LedgerUnavailableError } from '../ledger/ledger.js';
import { OPERATIONS } from '../operations.js';
import { sharedPlugin } from './shared-plugin.js';

/** Longest path parameter (Fastify's default): an address is at most 44 characters. */
export const MAX_PARAM_LENGTH = 100;

/** Maps an error of any layer to a status and a JSON body. */
function toHttpError(error: unknown, bodyLimit: number): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof RequestError) return new HttpError(400, error.body);
  if (error instanceof InputError) return new HttpError(500, { code: 'tape_error', detail: error.message });
  if (error instanceof LedgerUnavailableError) {
    return new HttpError(
      503,
      { code: 'database_unavailable', detail: 'the key database does not answer; retry later' },
      { 'retry-after': '1' },
    );
  }
  const e = error as FastifyError;
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpError(413, {
        code: 'body_too_large',
        detail:
          `the body is over the limit of ${bodyLimit} bytes (${Math.round((bodyLimit / 1024) * 10) / 10} KiB); ` +
          'a simulator request of 100 wallets is about 6 KiB',
      });
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new HttpError(414, {
        code: 'uri_too_long',
        detail: `a path parameter is over ${MAX_PARAM_LENGTH} characters; a wallet address has at most 44`,
      });
    case 'FST_ERR_BAD_URL':
      return new HttpError(400, {
        code: 'bad_url',
        detail: 'the URL is not valid percent-encoding (a % must be followed by two hex digits): encode the address',
      });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpError(415, { code: 'unsupported_media_type', detail: 'send the body as application/json' });
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new HttpError(e.statusCode, { code: 'bad_request', detail: e.message });
  }
  return new HttpError(500, { code: 'internal_error', detail: 'the request could not be completed' });
}

/**
 * The routes as patterns, for telling a wrong method (405) from an unknown path (404). The
 * operations come from their table; a route outside it (as the free ones) is listed here too.
 */
const ROUTES: ReadonlyArray<{ readonly method: string; readonly pattern: RegExp }> = [
  ...OPERATIONS.map((spec) => ({
    method: spec.method,
    pattern: new RegExp(`^${spec.path.replace(/\{\w+\}/g, '[^/]+')}$`),
  })),
  { method: 'GET', pattern: /^\/v1\/openapi\.json$/ },
  { method: 'GET', pattern: /^\/health$/ },
];

/** The methods a path answers; empty for an unknown path. */
function methodsOf(path: string): string[] {
  return ROUTES.filter((r) => r.pattern.test(path)).map((r) => r.method);
}

/**
 * The factory's `frameworkErrors`: errors met before routing (a bad URL, a parameter too long)
 * answer in the same `{code, detail}` as the others.
 */
export function frameworkErrors(bodyLimit: number): (error: FastifyError, request: unknown, reply: unknown) => void {
  return (error, _request, reply) => {
    const http = toHttpError(error, bodyLimit);
    // Fastify types this reply by route generics it does not have here.
    const plain = reply as { code(n: number): { send(body: unknown): void } };
    plain.code(http.statusCode).send(http.body);
  };
}

export interface ErrorsOptions {
  readonly bodyLimit: number;
}

/**
 * Every error as JSON `{code, detail}` with its status: the service's own (`HttpError`), the
 * engine's 400 (`RequestError`), a tape that cannot answer (500 `tape_error`), Fastify's, and a
 * bug (500 `internal_error`, logged). An unknown path is a 404, a known one with another method
 * a 405 naming the right one in `Allow`.
 */
export const errorsPlugin = sharedPlugin<ErrorsOptions>('copysim-errors', async (app, { bodyLimit }) => {
  app.setErrorHandler((error, request, reply) => {
    const http = toHttpError(error, bodyLimit);
    if (error instanceof LedgerUnavailableError) request.log.warn(error.message);
    else if (http.statusCode >= 500) request.log.error(error);
    return reply.code(http.statusCode).headers(http.headers).send(http.body);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = methodsOf(path);
    if (allowed.length > 0) {
      return reply
        .code(405)
        .header('allow', allowed.join(', '))
        .send({ code: 'method_not_allowed', detail: `${path} answers ${allowed.join(', ')}, not ${request.method}` });
    }
    return reply.code(404).send({
      code: 'not_found',
      detail: `no route ${request.method} ${path}; the routes are listed at /v1/openapi.json`,
    });
  });
});
